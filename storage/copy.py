"""`python -m storage copy`: move a SQLite database's whole content into an empty PostgreSQL one.

The move to PostgreSQL is one command run while the bot is stopped (or still running: the source
is read in one snapshot, so rows written after it starts are simply not copied). The source is
checked and migrated to the latest schema first; the target must be empty, gets the current
PostgreSQL schema, and receives every table in one transaction with COPY, parents before
children. The id sequences then continue past every id SQLite ever handed out, so an old button
or stored message never names a new row. Row counts are compared table by table before the
commit: any difference rolls everything back.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import asyncpg

from storage import is_postgres, redacted
from storage.backup import check_database
from storage.errors import StorageError
from storage.postgres_schema import prepare_postgres
from storage.schema import connect, prepare_database

TABLES = (
    "campaigns",
    "campaign_gms",
    "channel_bindings",
    "characters",
    "character_stats",
    "weapons",
    "character_conditions",
    "saved_rolls",
    "active_characters",
    "craft_projects",
    "roll_log",
    "pending_actions",
    "fights",
    "combatants",
    "combatant_effects",
    "condition_log",
    "attack_presses",
    "health_log",
    "character_posts",
    "skill_categories",
    "advancement_settings",
    "cp_ledger",
    "cp_requests",
    "cp_species",
    "character_species",
    "condition_presets",
    "gear_items",
    "purses",
    "purse_ledger",
    "counters",
    "gear_settings",
    "gifts",
    "sessions",
    "session_answers",
    "session_settings",
    "meta",
)
"""Every table, parents before the children whose foreign keys name them."""

BOT_WRITTEN = ("meta",)
"""Tables a bot fills on its first start by itself (the command hash): replaced, not refused."""


class CopyError(StorageError):
    """The copy could not start or was rolled back; the message says why and what to do."""


@dataclass(frozen=True, slots=True)
class CopyReport:
    counts: dict[str, int]
    """Rows per table, equal in the source and the target."""
    seconds: float
    target: str
    """The target's DSN without its password."""

    def summary(self) -> str:
        width = max(len(name) for name in self.counts)
        lines = [f"  {name:<{width}}  {count:>9,}" for name, count in self.counts.items()]
        total = sum(self.counts.values())
        return "\n".join(
            [
                f"Copied {total:,} rows into {self.target} in {self.seconds:.1f} s; "
                "the row counts match table by table:",
                *lines,
            ]
        )


def _scrub(message: str, dsn: str) -> str:
    """An error message with the DSN's password taken out, on one line."""
    try:
        password = urlsplit(dsn).password
    except ValueError:
        password = None
    if password:
        message = message.replace(password, "***")
    return " ".join(message.split())


async def copy_to_postgres(
    source: Path, dsn: str, progress: Callable[[str], None] | None = None
) -> CopyReport:
    """Copy the SQLite database at `source` into the empty PostgreSQL database at `dsn`."""
    say = progress or (lambda _line: None)
    started = time.monotonic()
    target = redacted(dsn)
    if not is_postgres(dsn):
        raise CopyError(
            f"--to must be a PostgreSQL URL such as postgresql://user:password@host:5432/wire, "
            f"not {target!r}."
        )
    sqlite = _open_source(source)
    try:
        conn = await _connect(dsn)
        try:
            await prepare_postgres(conn)
            say(f"Copying {source} into {target}...")
            counts = await _copy_all(sqlite, conn, dsn)
        finally:
            await conn.close()
    finally:
        sqlite.close()
    return CopyReport(counts, time.monotonic() - started, target)


def _open_source(source: Path) -> sqlite3.Connection:
    """The source, checked and migrated, in a read transaction: one snapshot for every table."""
    if not source.is_file():
        raise CopyError(f"There is no SQLite database at {source}.")
    report = check_database(source)
    if not report.ok:
        raise CopyError(f"{source} is damaged, nothing was copied: {report.summary()}")
    prepare_database(source)
    conn = connect(source)
    conn.execute("BEGIN")
    conn.execute("SELECT count(*) FROM sqlite_schema").fetchone()  # the snapshot starts here
    return conn


async def _connect(dsn: str) -> asyncpg.Connection:
    target = redacted(dsn)
    try:
        return await asyncpg.connect(dsn, timeout=15)
    except asyncpg.InvalidPasswordError:
        raise CopyError(f"PostgreSQL refused the user or password in {target}.") from None
    except asyncpg.InvalidCatalogNameError:
        raise CopyError(
            f"The database in {target} does not exist; create it first (createdb)."
        ) from None
    except (OSError, TimeoutError) as exc:
        raise CopyError(
            f"Cannot reach PostgreSQL at {target}: {_scrub(str(exc), dsn)}. "
            "Is the server running, and are the host and port right?"
        ) from None
    except (asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as exc:
        raise CopyError(f"Cannot connect to {target}: {_scrub(str(exc), dsn)}") from None


async def _copy_all(
    sqlite: sqlite3.Connection, conn: asyncpg.Connection, dsn: str
) -> dict[str, int]:
    counts: dict[str, int] = {}
    try:
        async with conn.transaction():
            # Nobody writes the target while we check that it is empty and fill it.
            await conn.execute(f"LOCK TABLE {', '.join(TABLES)} IN SHARE ROW EXCLUSIVE MODE NOWAIT")
            await _refuse_non_empty(conn)
            for table in BOT_WRITTEN:
                await conn.execute(f"DELETE FROM {table}")
            for table in TABLES:
                columns = _same_columns(sqlite, table, await _target_columns(conn, table))
                await conn.copy_records_to_table(
                    table, records=_rows(sqlite, table, columns), columns=columns
                )
            for table in await _identity_tables(conn):
                await _continue_ids(sqlite, conn, table)
            for table in TABLES:
                expected = sqlite.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
                copied = await conn.fetchval(f"SELECT count(*) FROM {table}")
                if copied != expected:
                    raise CopyError(
                        f"Table {table}: {expected:,} rows in SQLite but {copied:,} in "
                        "PostgreSQL; the copy was rolled back, the target is still empty."
                    )
                counts[table] = copied
    except asyncpg.LockNotAvailableError:
        raise CopyError(
            "The target database is in use (a bot on it?): stop it and copy again."
        ) from None
    except (asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        raise CopyError(
            f"PostgreSQL refused the copy, nothing was written: {_scrub(str(exc), dsn)}"
        ) from None
    return counts


async def _refuse_non_empty(conn: asyncpg.Connection) -> None:
    filled = [
        table
        for table in TABLES
        if table not in BOT_WRITTEN
        and await conn.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})")
    ]
    if filled:
        raise CopyError(
            f"The target database is not empty (it has rows in {', '.join(filled)}); nothing "
            "was copied. Copy into a new, empty database."
        )


async def _target_columns(conn: asyncpg.Connection, table: str) -> list[str]:
    rows = await conn.fetch(
        "SELECT column_name FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
        table,
    )
    return [row[0] for row in rows]


def _same_columns(sqlite: sqlite3.Connection, table: str, target: list[str]) -> list[str]:
    """The table's columns, after making sure both schemas have the same ones."""
    source = [row[1] for row in sqlite.execute(f"PRAGMA table_info({table})")]
    if sorted(source) != sorted(target):
        raise CopyError(
            f"Table {table} has columns {source} in SQLite but {target} in PostgreSQL: "
            "the bot's two schemas disagree, which is a bug. Nothing was copied."
        )
    return source


def _rows(sqlite: sqlite3.Connection, table: str, columns: list[str]) -> Iterator[tuple[Any, ...]]:
    """The table's rows, read lazily in batches (the roll log may be large)."""
    names = ", ".join(f'"{name}"' for name in columns)
    cursor = sqlite.execute(f"SELECT {names} FROM {table}")
    while batch := cursor.fetchmany(1000):
        yield from batch


async def _identity_tables(conn: asyncpg.Connection) -> list[str]:
    """The tables whose `id` PostgreSQL generates."""
    rows = await conn.fetch(
        "SELECT table_name FROM information_schema.columns WHERE table_schema = current_schema() "
        "AND column_name = 'id' AND is_identity = 'YES' ORDER BY table_name"
    )
    return [row[0] for row in rows]


async def _continue_ids(sqlite: sqlite3.Connection, conn: asyncpg.Connection, table: str) -> None:
    """Start the table's id sequence past every id SQLite handed out, deleted rows' included.

    sqlite_sequence remembers the largest id an AUTOINCREMENT table ever gave; the largest id
    present is all the other tables have.
    """
    largest = sqlite.execute(f"SELECT coalesce(max(id), 0) FROM {table}").fetchone()[0]
    remembered = sqlite.execute(
        "SELECT seq FROM sqlite_sequence WHERE name = ?", (table,)
    ).fetchone()
    largest = max(largest, remembered[0] if remembered else 0)
    # setval(seq, n, true): the next id is n + 1; setval(seq, 1, false): the next id is 1.
    await conn.execute(
        "SELECT setval(pg_get_serial_sequence($1, 'id'), greatest($2::bigint, 1), $2::bigint > 0)",
        table,
        largest,
    )
