"""Whole-file operations: online backup, restore and health check of a database file.

All copies go through SQLite's online backup API rather than a file copy: a copied file of a
live WAL database can miss the commits still in its -wal file, or catch a page mid-write. These
are blocking functions on their own connections; the store runs `backup_database` in a thread,
and the CLI calls them directly.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from storage.errors import StorageError
from storage.schema import BUSY_TIMEOUT_S, latest_version, too_new_message


@dataclass(frozen=True, slots=True)
class CheckReport:
    path: Path
    integrity: tuple[str, ...]
    """`PRAGMA integrity_check` lines: ("ok",) when the file is sound."""
    foreign_key_problems: int
    schema: int
    known: int
    """The newest schema this bot knows."""

    @property
    def ok(self) -> bool:
        return (
            self.integrity == ("ok",)
            and not self.foreign_key_problems
            and self.schema <= self.known
        )

    def summary(self) -> str:
        if self.schema > self.known:
            version = too_new_message(self.schema, self.known)
        elif self.schema < self.known:
            version = (
                f"schema {self.schema}, the bot will upgrade it to {self.known} when it opens it"
            )
        else:
            version = f"schema {self.schema} (current)"
        integrity = (
            "integrity ok"
            if self.integrity == ("ok",)
            else "integrity FAILED: " + "; ".join(self.integrity[:5])
        )
        keys = (
            f"; {self.foreign_key_problems} broken foreign keys"
            if self.foreign_key_problems
            else ""
        )
        return f"{self.path}: {integrity}{keys}; {version}"


def _open_existing(path: Path) -> sqlite3.Connection:
    """A connection to a file that must already exist (sqlite3 would create an empty one)."""
    if not path.is_file():
        raise StorageError("No database file at {path}.", path=path)
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    try:
        conn.execute("SELECT count(*) FROM sqlite_schema").fetchone()
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise StorageError(
            "{path} is not a usable SQLite database ({exc}).", path=path, exc=exc
        ) from exc
    return conn


def check_database(path: str | Path) -> CheckReport:
    path = Path(path)
    conn = _open_existing(path)
    try:
        integrity = tuple(row[0] for row in conn.execute("PRAGMA integrity_check(20)"))
        broken = len(conn.execute("PRAGMA foreign_key_check").fetchall())
        schema = conn.execute("PRAGMA user_version").fetchone()[0]
    finally:
        conn.close()
    return CheckReport(path, integrity, broken, schema, latest_version())


def backup_database(source: str | Path, destination: str | Path) -> None:
    """Copy a (possibly live) database to `destination` as one self-contained file.

    The copy is written beside the destination and renamed into place, so a failed backup never
    leaves a half-written file under the backup's name. The copy uses the rollback journal, not
    WAL, so it is a single file that opens anywhere, read-only media included.
    """
    source, destination = Path(source), Path(destination)
    if source.resolve() == destination.resolve():
        raise StorageError("The backup must go to another file than the database.")
    src = _open_existing(source)
    partial = destination.with_name(destination.name + ".partial")
    try:
        destination.parent.mkdir(parents=True, exist_ok=True)
        partial.unlink(missing_ok=True)
        dst = sqlite3.connect(partial, isolation_level=None)
        try:
            src.backup(dst)  # pages=-1: one step, one consistent snapshot of the source
            dst.execute("PRAGMA journal_mode = DELETE")
        finally:
            dst.close()
        os.replace(partial, destination)
    except (sqlite3.Error, OSError) as exc:
        # A full disk, most likely: the half-written copy goes, and the source only ever read.
        for leftover in ("", "-journal", "-wal", "-shm"):
            with contextlib.suppress(OSError):
                partial.with_name(partial.name + leftover).unlink(missing_ok=True)
        raise StorageError(
            "The backup could not be written to {destination} ({exc}). Nothing was written "
            "under that name and the database was not changed; free space there, or choose "
            "another place, and run the backup again.",
            destination=destination,
            exc=exc,
        ) from exc
    finally:
        src.close()


def _copy_into(backup: Path, target: Path) -> None:
    """The backup's pages into `target` through SQLite's backup API (a sound target's WAL and
    all), `target` made if missing."""
    src = _open_existing(backup)
    try:
        dst = sqlite3.connect(target, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        try:
            src.backup(dst)
        finally:
            dst.close()
    finally:
        src.close()


def _keep_as_is(target: Path, saved: Path) -> None:
    """Byte copies of a damaged database and its -wal file, for whoever wants to look."""
    shutil.copyfile(target, saved)
    wal = target.with_name(target.name + "-wal")
    if wal.exists():
        shutil.copyfile(wal, saved.with_name(saved.name + "-wal"))


def restore_database(backup: str | Path, target: str | Path) -> Path | None:
    """Replace `target`'s contents with the backup's; return where the old contents were saved.

    The backup is checked first (integrity, and a schema this bot can run), so a damaged backup
    never replaces a working database. The bot must be stopped: its open connection would keep
    serving what it had cached. The old target is kept beside it as
    NAME.before-restore-YYYYmmddTHHMMSSZ.db, so a restore can be undone: a sound one as an
    online backup, a damaged one (not a database, cut short: what the bot refuses at start) as
    the bytes it has.
    """
    backup, target = Path(backup), Path(target)
    report = check_database(backup)
    if not report.ok:
        raise StorageError(
            "The backup did not pass its check, nothing was restored: {value}",
            value=report.summary(),
        )
    saved: Path | None = None
    sound = True
    if target.exists():
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        saved = target.with_name(f"{target.stem}.before-restore-{stamp}{target.suffix or '.db'}")
        try:
            backup_database(target, saved)
        except StorageError:
            # Not a database any more, cut short, damaged: what a restore is for. Its bytes
            # (and its -wal's) are kept as they are, and the backup takes its place whole.
            sound = False
            _keep_as_is(target, saved)
    target.parent.mkdir(parents=True, exist_ok=True)
    if sound:
        _copy_into(backup, target)
    else:
        restoring = target.with_name(target.name + ".restoring")
        restoring.unlink(missing_ok=True)
        _copy_into(backup, restoring)
        for stale in ("-wal", "-shm", "-journal"):  # the damaged file's, kept beside `saved`
            target.with_name(target.name + stale).unlink(missing_ok=True)
        os.replace(restoring, target)
    return saved
