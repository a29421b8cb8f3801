"""The SQLite backend: the store on one SQLite file through aiosqlite.

`SqliteStore` is the rules (storage/rules.py) over `SqliteBackend`; this module holds the
connections and what SQLite needs to keep the store's guarantees, and no rules.

How it stays correct:

* One aiosqlite connection writes; it runs statements one at a time on its own thread, but an
  `await` between two statements lets another coroutine in. So every transaction holds
  `self._lock` (an asyncio.Lock) for its whole length, and every write transaction is
  `BEGIN IMMEDIATE`, which also takes SQLite's write lock up front, so another process (a second
  bot, the CLI) cannot interleave either and a deferred read never has to be upgraded (the case
  where SQLite gives up at once with SQLITE_BUSY). The lock also keeps a read from seeing
  another coroutine's uncommitted writes on the shared connection. SQLite locks the whole file,
  so the lock key (a guild) makes no difference here.
* Single-statement reads go to a second, query-only connection without the lock (WAL: it sees
  committed data only, and neither side waits for the other).
* What every roll does runs on the event loop itself, on two plain sqlite3 connections that
  never wait (busy timeout 0): the cached reads (the channel's campaign and the roller's
  character, point reads by index) and the roll log's group commit (at most `LOOP_BATCH_MAX`
  rows, no fsync, no checkpoint). Each is bounded like a point query, and a hop to a thread
  costs the process more CPU than the statement. If SQLite answers "locked" (another process
  writing, a WAL index being rebuilt), the same work goes to a thread above, which waits.
* Cached reads are kept while the `cache_version` counter stands still: triggers move it
  whenever a table that cached reads read (campaigns, their GMs and channels, characters with
  their stats and weapons, the active characters) changes, whichever connection or process
  writes.

Settings: WAL journal (readers never block the writer, and the writer never blocks readers),
foreign keys on, a 5 s busy timeout, and `synchronous = NORMAL`. In WAL mode NORMAL syncs the
WAL at checkpoints, not at every commit: a committed transaction survives the bot process being
killed (the data is in the OS's file cache, written to the WAL file), and only an OS crash or a
power cut can lose the last commits, never corrupt the file. That trade buys commits without an
fsync each, which keeps logging a roll well under a millisecond. Checkpoints run in the
background (storage/checkpoint.py), so no roll waits for one either.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from storage import backup as backup_files
from storage.backend import BUSY, Params, Row, batch_or_each
from storage.checkpoint import FALLBACK_AUTOCHECKPOINT_PAGES, Checkpointer
from storage.errors import Busy, StorageError
from storage.faults import HostAlarm, sqlite_fault
from storage.rules import RuleStore
from storage.schema import BUSY_TIMEOUT_S, prepare_database
from storage.sql.sqlite import STATEMENTS

log = logging.getLogger("wire.storage")

CONNECTION_PRAGMAS = (
    f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}",
    "PRAGMA foreign_keys = ON",
    "PRAGMA synchronous = NORMAL",
    # 32 MiB of page cache: the hot b-tree pages of a large guild set stay in memory.
    "PRAGMA cache_size = -32768",
    "PRAGMA temp_store = MEMORY",
    f"PRAGMA wal_autocheckpoint = {FALLBACK_AUTOCHECKPOINT_PAGES}",
    # Bounds the ANALYZE that `PRAGMA optimize` may run at close on a large roll log.
    "PRAGMA analysis_limit = 1000",
)
READ_CACHE_MAX = 10_000
"""Cached reads at most; past it the cache starts again (a busy bot refills it in seconds)."""
CACHE_VERSION = "SELECT version FROM cache_version WHERE id = 1"


def _is_busy(exc: BaseException) -> bool:
    return isinstance(exc, sqlite3.OperationalError) and (
        "locked" in str(exc) or "busy" in str(exc)
    )


class _Transaction:
    """Statements by name on the writing connection, inside `SqliteBackend._transaction`."""

    def __init__(self, db: aiosqlite.Connection, sql: dict[str, str]) -> None:
        self._db = db
        self._sql = sql

    async def fetch(self, name: str, params: Params | None = None) -> list[Row]:
        return list(await self._db.execute_fetchall(self._sql[name], params or {}))

    async def execute(self, name: str, params: Params | None = None) -> int:
        cursor = await self._db.execute(self._sql[name], params or {})
        return cursor.rowcount

    async def executemany(self, name: str, params: Sequence[Params]) -> None:
        await self._db.executemany(self._sql[name], params)


LOOP_BATCH_MAX = 256
"""The most roll-log rows one commit on the event loop takes: about 25 microseconds a row on a
million-row log, so at most some 6 ms, the work of 256 rolls. A larger batch (a burst of
hundreds of rolls at once) commits on the writer's thread. Measured against 64 and 16 with
bench_e2e: the larger limit cost less CPU per roll at 50 and at 200 in flight."""


LONG_READ_PRAGMAS = (
    "PRAGMA query_only = ON",
    f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}",
    "PRAGMA cache_size = -8192",
    "PRAGMA temp_store = FILE",
)
"""A long read's connection: read only, 8 MiB of cache, a GROUP BY's sort spilled to disk."""


def _loop_connection(path: Path, *pragmas: str) -> sqlite3.Connection:
    """A connection for the event loop's own thread, which never waits for a lock."""
    conn = sqlite3.connect(path, isolation_level=None, timeout=0, check_same_thread=False)
    try:
        for pragma in (*CONNECTION_PRAGMAS, *pragmas, "PRAGMA busy_timeout = 0"):
            conn.execute(pragma)
    except BaseException:
        conn.close()
        raise
    return conn


def _insert_rolls(
    conn: sqlite3.Connection, sql: str, batch: Sequence[Params]
) -> list[int | Exception | None]:
    """Insert the rows in one transaction; None where a row inserted nothing. Any exception
    rolls the whole batch back."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        outcomes: list[int | Exception | None] = []
        for params in batch:
            row = conn.execute(sql, params).fetchone()
            outcomes.append(row[0] if row else None)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return outcomes


class SqliteBackend:
    """Open with `await SqliteBackend.open(path)`."""

    def __init__(
        self,
        db: aiosqlite.Connection,
        reader: aiosqlite.Connection,
        path: Path,
        point_reader: sqlite3.Connection,
        log_writer: sqlite3.Connection,
    ) -> None:
        self._db = db
        self._reader = reader
        self._point_reader = point_reader
        """Cached reads run on this connection, on the event loop itself. They are point reads
        by an index (the roller's campaign and character): some 20 microseconds of SQLite,
        where a hop to a thread and back costs the process several times that in CPU (a queue,
        two wake-ups, the GIL changing hands, a callback). It never waits: its busy timeout is
        0, and a read that finds the file locked goes to `_reader`'s thread instead."""
        self._log_writer = log_writer
        """The roll log's group commits run on this connection, on the event loop, for the
        same reason: a batch is at most `LOOP_BATCH_MAX` inserts in one transaction without
        an fsync (WAL, synchronous=NORMAL), bounded like a point query. It never waits either
        (busy timeout 0) and never checkpoints (the background checkpointer does): when
        another process holds the write lock the batch goes to `_db`'s thread, which waits."""
        """Single-statement reads run here, outside `_lock`: in WAL mode a reader sees only
        committed data and neither waits for the writer nor makes it wait, so a roll's reads
        do not queue behind other rolls' commits."""
        self.sql: dict[str, str] = dict(STATEMENTS)
        self._read_cache: dict[tuple[str, tuple[Any, ...]], list[Any]] = {}
        """Rows of cached reads (what every roll reads: the channel's campaign with its GMs,
        the roller's active character), touched on the reader's thread only. Valid while the
        `cache_version` row stands still (migration 0009): triggers move it on every change to
        the tables these reads read, by this store, the CLI or a second process alike. Not
        `PRAGMA data_version`, which moves on every commit: each roll-log commit emptied the
        cache, so under load it was almost always cold."""
        self.cache_misses = 0
        """Cached reads that had to run their query: the tests and benchmarks read it."""
        self._read_version: int | None = None
        self.path: Path | None = path
        self._lock = asyncio.Lock()
        self._long_reads = asyncio.Semaphore(1)
        self.alarm = HostAlarm(str(path))
        """The host's log lines when the file fails under the store (storage/faults.py)."""
        self._checkpointer = Checkpointer(path, self.alarm)

    @classmethod
    async def open(cls, path: str | Path) -> SqliteBackend:
        """Create or upgrade the file (WAL, migrations), then connect. SchemaTooNew."""
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            await asyncio.to_thread(prepare_database, path)
        except (OSError, sqlite3.DatabaseError) as exc:
            raise StorageError(
                (
                    "Cannot open the database {path}: {exc}. Check WIRE_DATABASE, the "
                    "folder's permissions, and that the file is a WIRE database."
                ),
                path=path,
                exc=exc,
            ) from exc
        connections: list[aiosqlite.Connection] = []
        on_loop: list[sqlite3.Connection] = []
        try:
            for pragmas in (CONNECTION_PRAGMAS, (*CONNECTION_PRAGMAS, "PRAGMA query_only = ON")):
                connection = await aiosqlite.connect(
                    path, isolation_level=None, timeout=BUSY_TIMEOUT_S
                )
                connections.append(connection)
                for pragma in pragmas:
                    await connection.execute(pragma)
            on_loop.append(_loop_connection(path, "PRAGMA query_only = ON"))
            on_loop.append(_loop_connection(path, "PRAGMA wal_autocheckpoint = 0"))
        except BaseException:
            for conn in on_loop:
                conn.close()
            for connection in connections:
                await connection.close()
            raise
        point_reader, log_writer = on_loop
        return cls(connections[0], connections[1], path, point_reader, log_writer)

    # ---- transactions -------------------------------------------------------------------
    @asynccontextmanager
    async def _transaction(self, write: bool) -> AsyncIterator[_Transaction]:
        """Hold the lock for a whole transaction; roll back on any error or cancellation.

        aiosqlite queues each call on its thread in order, so a rollback issued after a
        cancellation still runs after the statements already queued, and before anything the
        next lock holder queues.
        """
        async with self._lock:
            try:
                await self._db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                yield _Transaction(self._db, self.sql)
                await self._db.commit()
            except BaseException as exc:
                try:
                    await self._db.rollback()
                except sqlite3.Error as failed:  # the original error matters more
                    log.warning("Rollback failed: %s", failed)
                self._raise_fault(exc)
                raise
        if write:
            self._wrote()

    def _raise_fault(self, exc: BaseException) -> None:
        """Raise the user's error for an SQLite error of the database's state: busy, a full
        disk, a failing or damaged file (storage/faults.py); return for any other."""
        if not isinstance(exc, sqlite3.Error):
            return
        if _is_busy(exc):
            raise Busy(BUSY) from exc
        fault = sqlite_fault(exc, self.path or Path("?"), self.alarm)
        if fault is not None:
            raise fault from exc

    def _wrote(self) -> None:
        self.alarm.cleared()
        self._checkpointer.note_write()

    def write(self, lock_key: int | None) -> Any:
        return self._transaction(write=True)

    def read(self) -> Any:
        return self._transaction(write=False)

    async def query(
        self, name: str, params: Params | None = None, *, write: bool = False, cached: bool = False
    ) -> list[Row]:
        """One statement, atomic by itself: a write under the lock, a read on the reader.

        `cached`: answered from `_read_cache` when nothing was committed since it was read.
        """
        sql, params = self.sql[name], params or {}
        try:
            if write:
                async with self._lock:
                    rows = list(await self._db.execute_fetchall(sql, params))
            elif cached:
                rows = await self._cached_read((name, tuple(params.items())), sql, params)
            else:
                rows = list(await self._reader.execute_fetchall(sql, params))
        except sqlite3.Error as exc:
            self._raise_fault(exc)
            raise
        if write:
            self._wrote()
        return rows

    async def long_read(self, name: str, params: Params | None = None) -> list[Row]:
        """A read that may scan a long log, on a connection of its own in a worker thread: the
        shared reader stays free for every other read meanwhile (aiosqlite runs a connection's
        statements one at a time), and its sort spills to a temporary file instead of memory.
        One at a time per process, so a burst of them cannot take both cores."""
        assert self.path is not None
        sql, values = self.sql[name], params or {}
        path = self.path

        def run() -> list[Row]:
            conn = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_S)
            try:
                for pragma in LONG_READ_PRAGMAS:
                    conn.execute(pragma)
                return conn.execute(sql, values).fetchall()
            finally:
                conn.close()

        async with self._long_reads:
            try:
                return await asyncio.to_thread(run)
            except sqlite3.Error as exc:
                self._raise_fault(exc)
                raise

    async def _cached_read(
        self, key: tuple[str, tuple[Any, ...]], sql: str, params: Any
    ) -> list[Any]:
        """A cached read on the event loop (see `_point_reader`); when SQLite is busy, the
        same statement uncached on the reader's thread, which may wait."""
        try:
            return self._read_on_loop(self._point_reader, key, sql, params)
        except sqlite3.OperationalError as exc:
            if not _is_busy(exc):
                raise
        return list(await self._reader.execute_fetchall(sql, params))

    def _read_on_loop(
        self, conn: sqlite3.Connection, key: tuple[str, tuple[Any, ...]], sql: str, params: Any
    ) -> list[Any]:
        """On the event loop, with `_point_reader`: checking the version is one more point read.

        The version is read before the rows, each in its own snapshot: rows read after a newer
        commit are at worst filed under the older version, and dropped at the next check."""
        version = conn.execute(CACHE_VERSION).fetchone()[0]
        if version != self._read_version:
            self._read_cache.clear()
            self._read_version = version
        rows = self._read_cache.get(key)
        if rows is None:
            self.cache_misses += 1
            rows = conn.execute(sql, params).fetchall()
            if len(self._read_cache) >= READ_CACHE_MAX:
                self._read_cache.clear()
            self._read_cache[key] = rows
        return rows

    # ---- the roll log -------------------------------------------------------------------
    async def insert_rolls(self, batch: Sequence[Params]) -> list[int | Exception | None]:
        """The batch in one transaction, in one hop to aiosqlite's thread; if that fails, each
        row alone with its own error.

        aiosqlite's `_execute` runs a function on the connection's thread; a statement per row
        through its public API would be a thread hand-off per row, under the lock.
        """
        return await batch_or_each(self._insert_rolls, batch)

    async def _insert_rolls(self, batch: Sequence[Params]) -> list[int | Exception | None]:
        """On the event loop if the write lock is free at once, else on the writer's thread.

        Under `_lock`, so `_db` has no transaction open: the lock can only be another
        process's (the CLI, a second bot), and the thread waits for it up to 5 s."""
        sql = self.sql["insert_roll"]
        async with self._lock:
            outcomes = None
            if len(batch) <= LOOP_BATCH_MAX:
                try:
                    outcomes = _insert_rolls(self._log_writer, sql, batch)
                except sqlite3.Error as exc:
                    if not _is_busy(exc):  # busy: the writer's thread waits for the lock
                        self._raise_fault(exc)
                        raise
            if outcomes is None:
                try:
                    outcomes = await self._db._execute(_insert_rolls, self._db._conn, sql, batch)
                except sqlite3.Error as exc:
                    self._raise_fault(exc)
                    raise
        self._wrote()
        return outcomes

    # ---- life cycle ---------------------------------------------------------------------
    async def backup(self, destination: str | Path) -> None:
        # A separate connection reads a WAL snapshot, so the store keeps serving meanwhile.
        assert self.path is not None
        await asyncio.to_thread(backup_files.backup_database, self.path, Path(destination))

    async def close(self) -> None:
        await self._checkpointer.stop()
        async with self._lock:
            try:
                await self._db.execute("PRAGMA optimize")
            except sqlite3.Error as exc:  # a full disk, say: optimizing can wait
                log.warning("PRAGMA optimize failed at close: %s", exc)
            await self._reader.close()
            self._point_reader.close()
            self._log_writer.close()
            await self._db.close()


class SqliteStore(RuleStore):
    """The store on one SQLite file: open with `await SqliteStore.open(path)` (or
    `storage.open_store`)."""

    backend: SqliteBackend

    @classmethod
    async def open(cls, path: str | Path) -> SqliteStore:
        """Create or upgrade the file (WAL, migrations), then connect. SchemaTooNew."""
        return cls(await SqliteBackend.open(path))

    @property
    def path(self) -> Path:
        assert self.backend.path is not None
        return self.backend.path


__all__ = ["CONNECTION_PRAGMAS", "SqliteBackend", "SqliteStore"]
