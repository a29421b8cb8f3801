"""The PostgreSQL backend: the store on a PostgreSQL database through an asyncpg pool.

`PostgresStore` is the rules (storage/rules.py) over `PostgresBackend`; this module holds the
pool and what PostgreSQL needs to keep the store's guarantees, and no rules.

How it stays correct with several bot processes on one database:

* **No lost update.** Every write transaction first takes `pg_advisory_xact_lock(guild_id)`
  (and the whole store's key shared), so the writes of one guild run one after another in
  whichever process they start, as `BEGIN IMMEDIATE` makes SQLite's; different guilds write
  side by side. An operation that spans guilds (forgetting a user) takes the whole store's key
  exclusively. The locks go with the transaction's end, committed or rolled back. Statements
  run at READ COMMITTED, so each sees what committed before the lock was granted.
* **Multi-statement reads** run in a REPEATABLE READ, read-only transaction: one snapshot.
* **Single statements** (a roll's reads, a claim, a pending action) are atomic by themselves
  and take no lock: the guarantees they need (one of two presses wins, a roll is logged once)
  come from their `DELETE ... RETURNING` and `ON CONFLICT`.
* **Committed before answered.** asyncpg returns from COMMIT when the server has committed;
  with `synchronous_commit` on (PostgreSQL's default) that is on disk.
* **Read cache** (storage/pg_cache.py): what every roll reads is kept in the process while no
  change to its tables is known: triggers NOTIFY on commit, a connection of its own LISTENs,
  and this process's own writes empty it as they commit. Another process's change is served
  stale only until its notification arrives (about a network round trip after its commit);
  without the listening connection the cache is off.
* **The roll log's batch** is one INSERT over arrays: one round trip for however many rows.
* **Busy.** A write waits at most `lock_timeout` (5 s, like SQLite's busy timeout) for a lock
  and a request at most 5 s for a pooled connection; past that, or with the server gone, the
  user sees `Busy`.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import asyncpg

from storage.backend import BUSY, Params, Row, batch_or_each
from storage.errors import Busy, StorageError, Unavailable
from storage.faults import UNAVAILABLE, HostAlarm
from storage.pg_cache import CACHED_TABLES, NotifiedCache
from storage.postgres_schema import prepare_postgres
from storage.rules import RuleStore
from storage.schema import BUSY_TIMEOUT_S
from storage.sql.postgres import ROLL_BATCH_FIELDS, compiled
from storage.urls import redacted

log = logging.getLogger("wire.storage")

DEFAULT_POOL_SIZE = 10
"""Connections per bot process (WIRE_DATABASE_POOL). Writes of one guild queue on its lock, not
on connections; ten serve a process of a few shards with room for the roll log's batches."""
WHOLE_STORE_KEY = (0x5749_5245, 0)
"""The two-int key ("WIRE", 0) every write holds shared and forgetting a user exclusively; the
two-int keys are apart from the one-bigint keys the guilds use."""

_BUSY_ERRORS: tuple[type[BaseException], ...] = (
    asyncpg.exceptions.LockNotAvailableError,
    asyncpg.exceptions.DeadlockDetectedError,
    asyncpg.exceptions.SerializationError,
    asyncpg.exceptions.QueryCanceledError,
    asyncpg.exceptions.TooManyConnectionsError,
    asyncpg.exceptions.CannotConnectNowError,
    asyncpg.exceptions.ConnectionDoesNotExistError,
    asyncpg.exceptions.InterfaceError,
    asyncpg.exceptions.InternalClientError,
    asyncpg.exceptions.PostgresConnectionError,
    asyncpg.exceptions.AdminShutdownError,
    asyncpg.exceptions.CrashShutdownError,
    asyncio.TimeoutError,
    OSError,
)
_LOST_ERRORS: tuple[type[BaseException], ...] = (
    asyncpg.exceptions.ConnectionDoesNotExistError,
    asyncpg.exceptions.InterfaceError,
    asyncpg.exceptions.InternalClientError,
    asyncpg.exceptions.PostgresConnectionError,
    asyncpg.exceptions.AdminShutdownError,
    asyncpg.exceptions.CrashShutdownError,
    ConnectionError,
)
"""The connection itself is broken (the server ended it: a restart, a failover, an admin). It
must not go back into the pool: asyncpg can be left mid-operation ("cannot switch to state"),
and the pool would hand it out again or wait for it forever at close."""
_UNREACHABLE: tuple[type[BaseException], ...] = (
    *_LOST_ERRORS,
    asyncpg.exceptions.CannotConnectNowError,
    OSError,
)
"""The server is not there (these) or only slow or locked (the rest of `_BUSY_ERRORS`): the
first is `Unavailable` and the host hears of it, the second `Busy`."""


_WRITES_TO = re.compile(r"\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(\w+)", re.I)


def _writes_cached_tables(sql: str) -> bool:
    return any(table in CACHED_TABLES for table in _WRITES_TO.findall(sql))


def pool_size() -> int:
    """WIRE_DATABASE_POOL, else DEFAULT_POOL_SIZE."""
    text = os.environ.get("WIRE_DATABASE_POOL", "").strip()
    if not text:
        return DEFAULT_POOL_SIZE
    if not text.isdigit() or not 1 <= int(text) <= 1000:
        raise StorageError(
            "WIRE_DATABASE_POOL must be a whole number of connections from 1 to 1000, not {text}.",
            text=repr(text),
        )
    return int(text)


def _rowcount(status: str) -> int:
    """The rows a command changed, from its status ("UPDATE 3", "INSERT 0 1")."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class _Transaction:
    """Statements by name on one pooled connection, inside a transaction."""

    def __init__(self, conn: asyncpg.Connection, backend: PostgresBackend) -> None:
        self._conn = conn
        self._backend = backend

    async def fetch(self, name: str, params: Params | None = None) -> list[Row]:
        sql, args = self._backend.bind(name, params)
        return [tuple(row) for row in await self._conn.fetch(sql, *args)]

    async def execute(self, name: str, params: Params | None = None) -> int:
        sql, args = self._backend.bind(name, params)
        return _rowcount(await self._conn.execute(sql, *args))

    async def executemany(self, name: str, params: Sequence[Params]) -> None:
        if not params:
            return
        sql, names = self._backend.sql[name]
        await self._conn.executemany(sql, [tuple(p[n] for n in names) for p in params])


class PostgresBackend:
    """Open with `await PostgresBackend.open(dsn)`."""

    path: Path | None = None

    def __init__(self, pool: asyncpg.Pool, cache: NotifiedCache, where: str = "?") -> None:
        self._pool = pool
        self._long_reads = asyncio.Semaphore(1)
        self.alarm = HostAlarm(where)
        """The host's log lines while the server cannot be reached (storage/faults.py)."""
        self.sql = compiled()
        self.cache = cache
        self._invalidating = frozenset(
            name for name, (sql, _) in self.sql.items() if _writes_cached_tables(sql)
        )
        """Single statements that change a cached table: the cache is emptied when one
        returns, as after a write transaction."""

    @property
    def cache_misses(self) -> int:
        """Cached reads that had to run their query (SQLite's backend counts them too)."""
        return self.cache.misses

    @classmethod
    async def open(
        cls, dsn: str, size: int | None = None, busy_timeout: float = BUSY_TIMEOUT_S
    ) -> PostgresBackend:
        """Migrate the database (SchemaTooNew if it is newer), then open the pool.

        `busy_timeout`: seconds a write waits for its guild's lock before it is `Busy`.
        """
        size = size or pool_size()
        try:
            await prepare_postgres(dsn)
            pool = await asyncpg.create_pool(
                dsn,
                min_size=1,
                max_size=size,
                timeout=BUSY_TIMEOUT_S * 2,
                command_timeout=60,
                statement_cache_size=len(compiled()) + 32,
                server_settings={
                    "lock_timeout": f"{int(busy_timeout * 1000)}",
                    "application_name": "wire-bot",
                },
            )
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise StorageError(
                "Cannot open the database {database}: {error}. Check WIRE_DATABASE, that the "
                "server runs and that the user may connect.",
                database=redacted(dsn),
                error=exc,
            ) from exc

        def listen() -> Any:
            return asyncpg.connect(
                dsn,
                timeout=BUSY_TIMEOUT_S * 2,
                server_settings={"application_name": "wire-bot-cache"},
            )

        cache = NotifiedCache(listen)
        await cache.start()
        return cls(pool, cache, redacted(dsn))

    def bind(self, name: str, params: Params | None) -> tuple[str, list[Any]]:
        sql, names = self.sql[name]
        params = params or {}
        return sql, [params[n] for n in names]

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[asyncpg.Connection]:
        """A pooled connection; an overloaded database is `Busy`, one that cannot be reached
        (a restart, a failover, a server stopped) `Unavailable`, and the host hears of it."""
        try:
            async with self._pool.acquire(timeout=BUSY_TIMEOUT_S) as conn:
                try:
                    yield conn
                except _LOST_ERRORS:
                    conn.terminate()  # the pool opens a new one in its place
                    raise
            if self.alarm.failing:
                self.alarm.cleared()
        except TimeoutError as exc:  # an OSError too, but the pool's wait: busy, not gone
            raise Busy(BUSY) from exc
        except _UNREACHABLE as exc:
            self.alarm.raised(
                logging.WARNING,
                "unreachable",
                f"The database server of {self.alarm.what} cannot be reached ({exc!r}): the "
                "bot answers that the campaign's storage is unavailable until it is back, and "
                "goes on by itself then.",
            )
            raise Unavailable(UNAVAILABLE) from exc
        except _BUSY_ERRORS as exc:
            raise Busy(BUSY) from exc

    @asynccontextmanager
    async def _begun(self, **options: Any) -> AsyncIterator[asyncpg.Connection]:
        """A pooled connection inside a started transaction, committed when the body ends.

        A connection the server ended while it waited in the pool (a restart, a failover)
        fails at BEGIN, before anything of the caller ran: then it starts once more on a new
        one, and the user never hears of it. Past BEGIN nothing is repeated."""
        for attempt in range(2):
            started = False
            try:
                async with self._connection() as conn:
                    transaction = conn.transaction(**options)
                    await transaction.start()
                    started = True
                    try:
                        yield conn
                    except BaseException:
                        try:
                            await transaction.rollback()
                        except _LOST_ERRORS:
                            conn.terminate()  # the caller's error matters more
                        raise
                    await transaction.commit()
                    return
            except Busy as exc:
                if started or attempt or not isinstance(exc.__cause__, _LOST_ERRORS):
                    raise
                # Quietly: a restart ends every pooled connection, and each would say so.
                log.debug("A database connection was lost; the transaction starts again.")

    @asynccontextmanager
    async def write(self, lock_key: int | None) -> AsyncIterator[_Transaction]:
        """Empties the read cache when it ends (committed, or not known to be not), so this
        process reads its own write at once."""
        try:
            async with self._write(lock_key) as transaction:
                yield transaction
        finally:
            self.cache.invalidate()

    @asynccontextmanager
    async def _write(self, lock_key: int | None) -> AsyncIterator[_Transaction]:
        async with self._begun() as conn:
            if lock_key is None:
                await conn.execute("SELECT pg_advisory_xact_lock($1, $2)", *WHOLE_STORE_KEY)
            else:
                await conn.execute(
                    "SELECT pg_advisory_xact_lock_shared($1, $2), pg_advisory_xact_lock($3)",
                    *WHOLE_STORE_KEY,
                    lock_key,
                )
            yield _Transaction(conn, self)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[_Transaction]:
        async with self._begun(isolation="repeatable_read", readonly=True) as conn:
            yield _Transaction(conn, self)

    async def long_read(self, name: str, params: Params | None = None) -> list[Row]:
        """A read that may scan a long log, one at a time per process, so a burst of them
        holds at most one of the pool's connections (the others keep serving the rolls)."""
        async with self._long_reads:
            return await self.query(name, params)

    async def query(
        self, name: str, params: Params | None = None, *, write: bool = False, cached: bool = False
    ) -> list[Row]:
        """One statement on a pooled connection, atomic by itself.

        `cached`: answered from the read cache (storage/pg_cache.py) while no change to its
        tables is known. A read whose connection the server had ended runs once more on a
        fresh one: a restarted server costs the next roll nothing. A write is not repeated
        (its commit may have landed); the user sees `Busy` and tries again."""
        sql, args = self.bind(name, params)
        if not cached or write:
            try:
                return await self._fetch(sql, args, write)
            finally:
                if write and name in self._invalidating:
                    self.cache.invalidate()
        key = (name, tuple(args))
        rows = self.cache.get(key)
        if rows is not None:
            return rows
        generation = self.cache.generation
        self.cache.misses += 1
        rows = await self._fetch(sql, args, write)
        self.cache.put(key, rows, generation)
        return rows

    async def _fetch(self, sql: str, args: list[Any], write: bool) -> list[Row]:
        for attempt in range(2):
            try:
                async with self._connection() as conn:
                    return [tuple(row) for row in await conn.fetch(sql, *args)]
            except Busy as exc:
                if write or attempt or not isinstance(exc.__cause__, _LOST_ERRORS):
                    raise
                log.debug("A database connection was lost; the read runs again on a new one.")
        raise AssertionError("unreachable")

    async def insert_rolls(self, batch: Sequence[Params]) -> list[int | Exception | None]:
        """The batch in one transaction; if that fails, each row alone with its own error."""
        return await batch_or_each(self._insert_rolls, batch)

    async def _insert_rolls(self, batch: Sequence[Params]) -> list[int | Exception | None]:
        """One statement, one round trip (`insert_rolls` in storage/sql/postgres.py): the
        rows as arrays, each inserted row's id back with its place in the batch."""
        columns = {name: [params[name] for params in batch] for name in ROLL_BATCH_FIELDS}
        sql, args = self.bind("insert_rolls", columns)
        async with self._connection() as conn:
            inserted = await conn.fetch(sql, *args)
        outcomes: list[int | Exception | None] = [None] * len(batch)
        for place, roll_id in inserted:
            outcomes[place - 1] = roll_id
        return outcomes

    async def backup(self, destination: str | Path) -> None:
        raise StorageError(
            "The bot backs up SQLite files only; back up a PostgreSQL database with pg_dump."
        )

    async def close(self) -> None:
        """Close gracefully, but never wait longer than a busy write would: a connection left
        broken must not hold the bot's shutdown."""
        await self.cache.close()
        try:
            await asyncio.wait_for(self._pool.close(), BUSY_TIMEOUT_S * 2)
        except TimeoutError:
            log.warning("The database pool did not close in time; its connections were cut.")
            self._pool.terminate()


class PostgresStore(RuleStore):
    """The store on a PostgreSQL database: `await PostgresStore.open(dsn)` (or
    `storage.open_store` with WIRE_DATABASE=postgresql://...)."""

    backend: PostgresBackend

    @classmethod
    async def open(
        cls, dsn: str, pool_size: int | None = None, busy_timeout: float = BUSY_TIMEOUT_S
    ) -> PostgresStore:
        return cls(await PostgresBackend.open(dsn, pool_size, busy_timeout))


__all__ = ["DEFAULT_POOL_SIZE", "PostgresBackend", "PostgresStore"]
