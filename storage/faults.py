"""When the database itself fails: what the user is told, and what the host is told.

A full disk, a disk gone read-only or failing, a damaged file, a PostgreSQL server restarting:
none of these is the user's doing or a bug in the bot. The user gets a short refusal that
says so (`Unavailable`, `StorageFull`, `Damaged`: all `Busy`, "try again later", to code that
retries), the interaction is answered and nothing answered as done is missing (the refused
write was rolled back). The host gets one log line naming the database and what to do, at
once, then at most once a minute while the fault lasts, and one line when it is over. The
connections stay open: once the disk has room or the server is back, the next write works,
without a restart.
"""

from __future__ import annotations

import contextlib
import logging
import shutil
import sqlite3
import time
from pathlib import Path

try:
    import resource
except ImportError:  # Windows has no resource module, nor a file-size limit to read
    resource = None  # type: ignore[assignment]

from storage.errors import Damaged, StorageError, StorageFull, Unavailable
from wire.i18n import N_

log = logging.getLogger("wire.storage")

UNAVAILABLE = N_("The campaign's storage is unavailable right now. Try again in a minute.")
STORAGE_FULL = N_(
    "The bot's storage is full, so this was not saved. The person hosting the bot must free "
    "disk space; then try again."
)
DAMAGED = N_(
    "The bot's storage is damaged, so this was not saved. The person hosting the bot must "
    "restore it from a backup."
)
REPEAT_EVERY_S = 60.0
"""While a fault lasts, its log line again at most this often."""
NEARLY_FULL_BYTES = 1 << 20
"""Free bytes below which a disk I/O error on write counts as a full disk (SQLite reports a
write cut short by ENOSPC as SQLITE_FULL, but one refused outright, or the -shm file's growth,
as SQLITE_IOERR)."""

# SQLite's primary result codes (sqlite3.h); the extended code's low byte is the primary one.
SQLITE_READONLY = 8
SQLITE_IOERR = 10
SQLITE_CORRUPT = 11
SQLITE_FULL = 13
SQLITE_CANTOPEN = 14
SQLITE_NOTADB = 26


def restore_hint(path: Path | str) -> str:
    """The command that puts a backup in place of `path` (docs/storage.md, "Backups"), as a host
    types it in the bot's folder: the venv's Python, which has the bot's dependencies."""
    return f".venv/bin/python -m storage restore BACKUP.db {path}"


class HostAlarm:
    """The log lines of one database's faults: the first at once, the same fault again at most
    every `REPEAT_EVERY_S`, and "working again" on the first success after one."""

    def __init__(self, what: str) -> None:
        self.what = what
        """The database as the log names it: its path, or its URL without the password."""
        self.faults = 0
        """Faults met since the store opened (the tests read it)."""
        self._failing: str | None = None
        self._logged_at = 0.0

    @property
    def failing(self) -> bool:
        return self._failing is not None

    def raised(self, level: int, kind: str, line: str) -> None:
        """Log `line` if this fault is new, or its last line is older than a minute."""
        self.faults += 1
        now = time.monotonic()
        if kind != self._failing or now - self._logged_at >= REPEAT_EVERY_S:
            log.log(level, "%s", line)
            self._logged_at = now
        self._failing = kind

    def cleared(self) -> None:
        """Called after each successful write: one line when it ends a fault."""
        if self._failing is not None:
            self._failing = None
            log.warning("The database %s works again.", self.what)


def no_room(path: Path) -> bool:
    """Whether the database's disk is (nearly) full, or its files at the size limit this
    process may write (RLIMIT_FSIZE, `ulimit -f`; a write past it fails with EFBIG)."""
    try:
        free = shutil.disk_usage(path.parent).free  # statvfs's f_bavail on POSIX; Windows too
    except OSError:
        return False
    if free < NEARLY_FULL_BYTES:
        return True
    if resource is None:
        return False
    limit = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
    if limit == resource.RLIM_INFINITY:
        return False
    sizes = []
    for name in (path.name, path.name + "-wal", path.name + "-journal"):
        with contextlib.suppress(OSError):
            sizes.append((path.parent / name).stat().st_size)
    return max(sizes, default=0) + NEARLY_FULL_BYTES > limit


def sqlite_fault(exc: sqlite3.Error, path: Path, alarm: HostAlarm) -> StorageError | None:
    """The user's error for an SQLite error the database's state caused, with the host's log
    line raised; None for any other error (a bug, which stays one)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is None:
        return None
    primary = code & 0xFF
    if primary == SQLITE_FULL or (primary == SQLITE_IOERR and no_room(path)):
        alarm.raised(
            logging.ERROR,
            "full",
            f"The disk of the database {path} is full ({exc}): the bot answers that its "
            "storage is full and saves nothing until there is room. The host must free space "
            "on that disk; the bot goes on by itself then.",
        )
        return StorageFull(STORAGE_FULL)
    if primary in (SQLITE_IOERR, SQLITE_READONLY, SQLITE_CANTOPEN):
        alarm.raised(
            logging.ERROR,
            "io",
            f"The database {path} cannot be written ({exc}). The host must check its disk, "
            "that it is mounted read-write, and that the file and its folder belong to the "
            "bot's user; the bot goes on by itself once it can write.",
        )
        return Unavailable(UNAVAILABLE)
    if primary in (SQLITE_CORRUPT, SQLITE_NOTADB):
        alarm.raised(
            logging.ERROR,
            "damaged",
            f"The database {path} is damaged ({exc}). The host must stop the bot and restore "
            f"a backup: {restore_hint(path)} (docs/storage.md, Backups).",
        )
        return Damaged(DAMAGED)
    return None


__all__ = [
    "DAMAGED",
    "STORAGE_FULL",
    "UNAVAILABLE",
    "HostAlarm",
    "restore_hint",
    "sqlite_fault",
]
