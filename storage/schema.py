"""The schema's migrations and the code that applies them.

Migrations are the numbered `storage/migrations/NNNN_name.sql` files, shipped inside the package
and read with importlib.resources so an installed bot finds them wherever it lives. The database
records the last one applied in `PRAGMA user_version`; each pending one is applied in its own
`BEGIN IMMEDIATE` transaction together with the new user_version, so a crash mid-way leaves the
database at the previous version, and two bot processes starting at once apply each one once.

This runs on a plain sqlite3 connection (not aiosqlite) because it runs before the store opens,
and because the CLI and the tests use it without an event loop.
"""

from __future__ import annotations

import logging
import re
import sqlite3
import time
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from storage import file_checks
from storage.errors import SchemaTooNew

log = logging.getLogger("wire.storage")

BUSY_TIMEOUT_S = 5.0
"""How long a statement waits for another process's write lock before giving up."""

SQLITE_ONLY_TABLES = frozenset(
    {"cache_version", "roll_count_changes", "roll_count_pending", "roll_counted", "roll_counting"}
)
"""Tables that only SQLite has: its read cache's counter, kept by triggers (migration 0009), the
roll counts' passing changes and rolls (migrations 0025_roll_counts and 0029, always empty
between statements), and from which campaign size its rolls are counted and which campaigns are
(0028_roll_counts_where_they_pay, 0029_uncounted_rolls_write_nothing). PostgreSQL tells its
processes of a change by NOTIFY and counts every campaign's rolls by statement triggers
instead; a copy between the two skips them (PostgreSQL counts the copied log itself)."""

_FILE_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str

    def statements(self) -> list[str]:
        return split_statements(self.sql)


@cache
def migrations() -> tuple[Migration, ...]:
    """All shipped SQLite migrations in order; their numbers must run 1, 2, 3... without gaps."""
    return load_migrations("migrations")


@cache
def load_migrations(folder_name: str) -> tuple[Migration, ...]:
    """The numbered migrations in `storage/<folder_name>` (each backend has its own folder)."""
    folder = resources.files("storage").joinpath(folder_name)
    found = []
    for entry in folder.iterdir():
        match = _FILE_NAME.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    numbers = [m.version for m in found]
    if numbers != list(range(1, len(found) + 1)):
        raise RuntimeError(f"storage/{folder_name} is broken: versions {numbers} are not 1..n")
    return tuple(found)


def latest_version() -> int:
    return migrations()[-1].version


def split_statements(sql: str) -> list[str]:
    """Cut a script into statements, using SQLite's own idea of where a statement ends.

    Needed because `executescript` commits first and so cannot run inside our transaction.
    """
    statements: list[str] = []
    pending = ""
    for line in sql.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            lines = pending.strip().splitlines()
            while lines and (not lines[0].strip() or lines[0].lstrip().startswith("--")):
                lines.pop(0)  # the comment above a statement is not part of it
            statements.append("\n".join(lines))
            pending = ""
    leftover = "\n".join(
        line for line in pending.splitlines() if line.strip() and not line.strip().startswith("--")
    )
    if leftover:
        raise RuntimeError(f"Unterminated SQL statement in a migration: {leftover[:80]!r}")
    return statements


def schema_version(conn: sqlite3.Connection) -> int:
    return conn.execute("PRAGMA user_version").fetchone()[0]


def too_new_message(found: int, known: int) -> str:
    return (
        f"This database was written by a newer WIRE bot (schema {found}, this bot knows "
        f"{known}). Upgrade the bot or restore a backup."
    )


def check_not_too_new(conn: sqlite3.Connection) -> int:
    """The schema version, after refusing a database from a newer bot (SchemaTooNew)."""
    version = schema_version(conn)
    if version > latest_version():
        raise SchemaTooNew(too_new_message(version, latest_version()))
    return version


def migrate(conn: sqlite3.Connection, target: int | None = None) -> int:
    """Apply the pending migrations up to `target` (default: all); return the version reached.

    Foreign keys are off while migrating, as SQLite's "generalized ALTER TABLE" procedure needs
    for table rebuilds, and `PRAGMA foreign_key_check` must come back empty before each commit.
    """
    target = latest_version() if target is None else target
    saved_isolation = conn.isolation_level
    conn.isolation_level = None
    foreign_keys = conn.execute("PRAGMA foreign_keys").fetchone()[0]
    conn.execute("PRAGMA foreign_keys = OFF")
    try:
        version = check_not_too_new(conn)
        for migration in migrations():
            if migration.version > target:
                break
            if migration.version <= version:
                continue
            version = _apply(conn, migration)
        return version
    finally:
        conn.execute(f"PRAGMA foreign_keys = {'ON' if foreign_keys else 'OFF'}")
        conn.isolation_level = saved_isolation


def _apply(conn: sqlite3.Connection, migration: Migration) -> int:
    conn.execute("BEGIN IMMEDIATE")
    try:
        # Another process may have applied it while we waited for the write lock.
        version = check_not_too_new(conn)
        if version >= migration.version:
            conn.execute("ROLLBACK")
            return version
        for statement in migration.statements():
            conn.execute(statement)
        broken = conn.execute("PRAGMA foreign_key_check").fetchall()
        if broken:
            raise RuntimeError(
                f"Migration {migration.version} leaves broken foreign keys: {broken[:5]}"
            )
        # PRAGMA takes no parameters; the version is an int parsed from the file name.
        conn.execute(f"PRAGMA user_version = {int(migration.version)}")
        conn.execute("COMMIT")
        return migration.version
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def connect(path: str | Path) -> sqlite3.Connection:
    """A plain connection with the settings every connection to a WIRE database uses."""
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def prepare_database(path: str | Path, target: int | None = None) -> int:
    """Create or upgrade the database file: WAL mode, then the pending migrations.

    WAL is a property of the file, so it is set once here; readers then never block the writer.
    """
    path = Path(path)
    file_checks.check_file(path)
    try:
        conn = connect(path)
    except sqlite3.Error as exc:
        refused = file_checks.refusal(path, exc)
        if refused is None:
            raise
        raise refused from exc
    try:
        # Refuse a damaged, read-only or newer database before touching it at all (not even
        # its journal mode): nothing below may write over what is left of it.
        conn.execute("SELECT count(*) FROM sqlite_schema").fetchone()
        found = schema_version(conn)
        if found > latest_version():
            raise file_checks.too_new(path, found, latest_version())
        file_checks.probe_writable(conn)
        _ensure_wal(conn)
        return migrate(conn, target)
    except sqlite3.Error as exc:
        refused = file_checks.refusal(path, exc)
        if refused is None:
            raise
        raise refused from exc
    finally:
        conn.close()


def _ensure_wal(conn: sqlite3.Connection) -> None:
    """Switch the file to WAL, retrying while another connection holds it.

    Changing the journal mode fails at once with "database is locked" instead of using the busy
    timeout, which happens when two processes create the database at the same moment.
    """
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    delay = 0.001
    while True:
        try:
            if conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal":
                return
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if mode != "wal":
                log.warning("The database %s cannot use WAL (journal mode %s).", conn, mode)
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(delay)
            delay = min(delay * 2, 0.05)
