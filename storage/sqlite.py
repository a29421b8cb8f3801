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
  committed data only, and neither side waits for the other); cached reads are kept there until
  `PRAGMA data_version` says another connection committed.
* A roll-log batch is one transaction in one hop to the writer's thread.

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


def _insert_rolls(
    conn: sqlite3.Connection, sql: str, batch: Sequence[Params]
) -> list[int | Exception | None]:
    """On aiosqlite's thread: insert the rows in one transaction; None where a row inserted
    nothing. Any exception rolls the whole batch back."""
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

    def __init__(self, db: aiosqlite.Connection, reader: aiosqlite.Connection, path: Path) -> None:
        self._db = db
        self._reader = reader
        """Single-statement reads run here, outside `_lock`: in WAL mode a reader sees only
        committed data and neither waits for the writer nor makes it wait, so a roll's reads
        do not queue behind other rolls' commits."""
        self.sql: dict[str, str] = dict(STATEMENTS)
        self._read_cache: dict[tuple[str, tuple[Any, ...]], list[Any]] = {}
        """Rows of cached reads (what every roll reads: the channel's campaign with its GMs,
        the roller's active character), touched on the reader's thread only. Valid while the
        reader's `PRAGMA data_version` stands still: it moves when any other connection
        commits, this store's writer included, the CLI or a second process alike."""
        self._read_version: int | None = None
        self.path: Path | None = path
        self._lock = asyncio.Lock()
        self._read_queue: list[tuple[Any, str, Any, asyncio.Future[list[Any]]]] = []
        self._read_runner: asyncio.Task[None] | None = None
        self._checkpointer = Checkpointer(path)

    @classmethod
    async def open(cls, path: str | Path) -> SqliteBackend:
        """Create or upgrade the file (WAL, migrations), then connect. SchemaTooNew."""
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            await asyncio.to_thread(prepare_database, path)
        except (OSError, sqlite3.DatabaseError) as exc:
            raise StorageError(
                f"Cannot open the database {path}: {exc}. Check WIRE_DATABASE, the folder's "
                "permissions, and that the file is a WIRE database."
            ) from exc
        connections: list[aiosqlite.Connection] = []
        try:
            for pragmas in (CONNECTION_PRAGMAS, (*CONNECTION_PRAGMAS, "PRAGMA query_only = ON")):
                connection = await aiosqlite.connect(
                    path, isolation_level=None, timeout=BUSY_TIMEOUT_S
                )
                connections.append(connection)
                for pragma in pragmas:
                    await connection.execute(pragma)
        except BaseException:
            for connection in connections:
                await connection.close()
            raise
        return cls(connections[0], connections[1], path)

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
                except Exception:  # the original error matters more
                    log.exception("Rollback failed")
                if _is_busy(exc):
                    raise Busy(BUSY) from exc
                raise
        if write:
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
                rows = await self._read_together((name, tuple(params.items())), sql, params)
            else:
                rows = list(await self._reader.execute_fetchall(sql, params))
        except sqlite3.OperationalError as exc:
            if _is_busy(exc):
                raise Busy(BUSY) from exc
            raise
        if write:
            self._checkpointer.note_write()
        return rows

    async def _read_together(self, key: tuple[str, tuple[Any, ...]], sql: str, params: Any):
        """A cached read, in one hop to the reader's thread with the others queued meanwhile.

        A hop costs the event loop more than the read (a queue, a wake-up, the GIL, a callback
        back), and every roll makes one: reads that queue while a hop runs share the next one,
        as rolls share a group commit. No timer: a lone read goes at once.
        """
        future: asyncio.Future[list[Any]] = asyncio.get_running_loop().create_future()
        self._read_queue.append((key, sql, params, future))
        if self._read_runner is None or self._read_runner.done():
            self._read_runner = asyncio.create_task(self._run_reads())
        return await future

    async def _run_reads(self) -> None:
        """Hand what queued to the reader's thread, then what queued meanwhile, until none."""
        while self._read_queue:
            batch, self._read_queue = self._read_queue, []
            reads = [(key, sql, params) for key, sql, params, _ in batch]
            try:
                outcomes = await self._reader._execute(self._read_batch, reads)
            except BaseException as exc:  # the connection closed, or cancelled: answer everyone
                for *_, future in batch + self._read_queue:
                    if not future.done():
                        future.set_exception(
                            exc if isinstance(exc, Exception) else StorageError(BUSY)
                        )
                self._read_queue = []
                raise
            for (*_, future), outcome in zip(batch, outcomes, strict=True):
                if future.done():  # its caller was cancelled
                    continue
                if isinstance(outcome, BaseException):
                    future.set_exception(outcome)
                else:
                    future.set_result(outcome)

    def _read_batch(self, reads: list[tuple[Any, str, Any]]) -> list[list[Any] | Exception]:
        """On the reader's thread: each read as `_read_cached` does it; an error is its own."""
        outcomes: list[list[Any] | Exception] = []
        for key, sql, params in reads:
            try:
                outcomes.append(self._read_cached(key, sql, params))
            except Exception as exc:
                outcomes.append(exc)
        return outcomes

    def _read_cached(self, key: tuple[str, tuple[Any, ...]], sql: str, params: Any) -> list[Any]:
        """On the reader's thread, in the same hop as the read: checking `data_version` costs
        a pragma, not a thread hand-off of its own (aiosqlite's `_execute` runs this there)."""
        conn = self._reader._conn
        version = conn.execute("PRAGMA data_version").fetchone()[0]
        if version != self._read_version:
            self._read_cache.clear()
            self._read_version = version
        rows = self._read_cache.get(key)
        if rows is None:
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
        async with self._lock:
            try:
                conn = self._db._conn
                outcomes = await self._db._execute(
                    _insert_rolls, conn, self.sql["insert_roll"], batch
                )
            except sqlite3.OperationalError as exc:
                if _is_busy(exc):
                    raise Busy(BUSY) from exc
                raise
        self._checkpointer.note_write()
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
            except sqlite3.Error:
                log.warning("PRAGMA optimize failed at close", exc_info=True)
            await self._reader.close()
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
