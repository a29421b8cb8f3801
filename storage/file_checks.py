"""Before a SQLite file is opened: refuse one the store must not touch, and say what to do.

A file that is not a database, one cut short by a bad copy, one the process may not write, one
written by a newer bot: each would otherwise start a bot that fails at the first roll, or worse,
leave SQLite's journal switch or a migration writing over what is left of it. Each is refused
before anything writes to it, with one line that names the file and the way back (a backup
and the restore command); bot.py prints that line and exits with status 1. Nothing here
repairs anything: the file is left exactly as it was found.

Damage inside a file of the right length (a page overwritten) is not looked for here, since
reading every page of a large file would hold up every start: `python -m storage check` finds
it, and the first statement that meets it is answered as `Damaged` (storage/faults.py).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from storage.errors import CannotOpen, SchemaTooNew
from storage.faults import (
    SQLITE_CANTOPEN,
    SQLITE_CORRUPT,
    SQLITE_NOTADB,
    SQLITE_READONLY,
    restore_hint,
)

HEADER = b"SQLite format 3\x00"
HEADER_SIZE = 100


def _restore(path: Path) -> str:
    return f"Restore a backup with `{restore_hint(path)}` (docs/storage.md, Backups)"


def not_a_database(path: Path, reason: str) -> CannotOpen:
    return CannotOpen(
        "The database {path} is not a WIRE database ({reason}); it was left as it is. "
        "{restore}, or set WIRE_DATABASE to the right file.",
        path=path,
        reason=reason,
        restore=_restore(path),
    )


def not_writable(path: Path, reason: str) -> CannotOpen:
    return CannotOpen(
        "The bot may not write its database {path} ({reason}); it was left as it is. Give "
        "the bot's user write access to the file and its folder, on a disk mounted read-write. "
        "{restore} if the file itself is lost.",
        path=path,
        reason=reason,
        restore=_restore(path),
    )


def too_new(path: Path, found: int, known: int) -> SchemaTooNew:
    return SchemaTooNew(
        "The database {path} was written by a newer WIRE bot (schema {found}; this bot knows "
        "{known}); it was left as it is. Run the newer bot, or restore a backup made by this "
        "version: `{command}`.",
        path=path,
        found=found,
        known=known,
        command=restore_hint(path),
    )


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def check_file(path: Path) -> None:
    """Refuse (CannotOpen) an existing file that is not a whole SQLite database or may not be
    written; a missing file passes (the store creates it), if its folder may be written."""
    folder = path.parent
    if not path.exists():
        if folder.exists() and not os.access(folder, os.W_OK):
            raise not_writable(path, "its folder may not be written")
        return
    if not path.is_file():
        raise not_a_database(path, "it is not a file")
    size = _size(path)
    # A -wal file or a rollback journal holds pages SQLite reads or restores: the file may be
    # shorter than its header says until then. An empty file is a new database (SQLite makes
    # one of it; another process may be creating it this moment).
    journal = _size(path.with_name(path.name + "-wal")) + _size(
        path.with_name(path.name + "-journal")
    )
    if size:
        _check_length(path, size, journal)
    if not os.access(path, os.W_OK):
        raise not_writable(path, "the file may not be written")
    if not os.access(folder, os.W_OK):
        raise not_writable(path, "its folder may not be written")


def _check_length(path: Path, size: int, journal: int) -> None:
    """The header is SQLite's, and the file as long as the header says."""
    with path.open("rb") as file:
        header = file.read(HEADER_SIZE)
    if len(header) < HEADER_SIZE and HEADER.startswith(header[: len(HEADER)]):
        raise not_a_database(path, f"it is cut short: {size} bytes, not even its header")
    if not header.startswith(HEADER):
        raise not_a_database(path, "it does not start as a SQLite database does")
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1):
        raise not_a_database(path, "its header is damaged")
    pages = int.from_bytes(header[28:32], "big")
    pages_valid = pages > 0 and header[24:28] == header[92:96]
    expected = pages * page_size
    if size % page_size or (pages_valid and not journal and size < expected):
        shown = f"{expected:,} bytes" if pages_valid else f"whole pages of {page_size} bytes"
        raise not_a_database(path, f"it is cut short: {size:,} bytes where it should be {shown}")


def refusal(path: Path, exc: sqlite3.Error) -> CannotOpen | None:
    """The start-up refusal for what SQLite said of the file when it was first opened."""
    primary = (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF
    if primary in (SQLITE_CORRUPT, SQLITE_NOTADB):
        return not_a_database(path, str(exc))
    if primary in (SQLITE_READONLY, SQLITE_CANTOPEN):
        return not_writable(path, str(exc))
    return None


def probe_writable(conn: sqlite3.Connection) -> None:
    """Take the write lock and give it back at once: a file SQLite opened read-only (a disk
    mounted so, a file of another user) says so here, before the store serves anyone."""
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("ROLLBACK")


__all__ = ["check_file", "not_a_database", "not_writable", "probe_writable", "refusal", "too_new"]
