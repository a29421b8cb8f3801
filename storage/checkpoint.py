"""WAL checkpoints off the hot path, so that logging a roll never waits for one.

In WAL mode commits append to the -wal file, and a checkpoint copies those pages back into the
database file and syncs it. By default SQLite runs the checkpoint inside whichever commit pushes
the WAL past 1,000 pages, so that one unlucky roll waits for two fsyncs and a thousand page
writes: 5-20 ms here, against 0.3 ms for an ordinary roll. Instead, every CHECKPOINT_EVERY_WRITES
committed writes the store starts a PASSIVE checkpoint on a connection of its own in a worker
thread, and does not wait for it. PASSIVE never blocks readers or the writer. The store's
connection keeps a much higher automatic threshold as a fallback.

Counting writes rather than running on a timer means an idle bot does no work at all, and a
test that fast-forwards a virtual clock (simcord) finds no timer that never stops firing.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
from pathlib import Path

from storage.faults import HostAlarm, sqlite_fault
from storage.schema import BUSY_TIMEOUT_S

log = logging.getLogger("wire.storage")

CHECKPOINT_EVERY_WRITES = 500
"""About 2,500 WAL pages (10 MiB) of roll logging between checkpoints."""
FALLBACK_AUTOCHECKPOINT_PAGES = 10_000
"""The store connection's own checkpoint threshold (40 MiB of WAL), should these fall behind."""


class Checkpointer:
    def __init__(
        self, path: Path, alarm: HostAlarm, every_writes: int = CHECKPOINT_EVERY_WRITES
    ) -> None:
        self.path = path
        self.alarm = alarm
        """The store's host alarm: a checkpoint that meets a full disk says so there."""
        self.failures = 0
        """Checkpoints that failed (for tests)."""
        self.every_writes = every_writes
        self.runs = 0
        """Checkpoints done (for tests)."""
        self._writes = 0
        self._conn: sqlite3.Connection | None = None
        self._conn_lock = threading.Lock()
        self._task: asyncio.Task[None] | None = None
        self._stopped = False

    def note_write(self) -> None:
        """Count a committed write; start a checkpoint every `every_writes` of them."""
        self._writes += 1
        if self._writes < self.every_writes or self._stopped:
            return
        if self._task is not None and not self._task.done():
            return  # still busy with the previous one: the count keeps growing meanwhile
        self._writes = 0
        self._task = asyncio.get_running_loop().create_task(
            self._run(), name="wire-storage-checkpoint"
        )

    async def _run(self) -> None:
        """A failed checkpoint is never the user's problem and never damage: the WAL keeps
        every commit and the next checkpoint copies it (the store's own threshold is the
        fallback). A full disk or a failing file is the host's, and said so once."""
        try:
            await asyncio.to_thread(self.checkpoint)
        except sqlite3.Error as exc:
            self.failures += 1
            if sqlite_fault(exc, self.path, self.alarm) is None:
                log.warning("Background WAL checkpoint of %s failed: %s", self.path, exc)
        except Exception:
            self.failures += 1
            log.warning("Background WAL checkpoint of %s failed", self.path, exc_info=True)

    def checkpoint(self) -> None:
        """One PASSIVE checkpoint (blocking; runs in a worker thread)."""
        with self._conn_lock:
            if self._conn is None:
                self._conn = sqlite3.connect(
                    self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
                )
            self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            self.runs += 1

    def _close(self) -> None:
        with self._conn_lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    async def stop(self) -> None:
        """Let a running checkpoint finish, then close its connection."""
        self._stopped = True
        if self._task is not None:
            await self._task
            self._task = None
        self._close()
