"""The PostgreSQL backend's read cache, kept true across processes by LISTEN/NOTIFY.

Every roll reads the same few rows (the channel's campaign with its GMs, the roller's active
character); on a busy evening they change rarely. Triggers on the tables those reads read
(storage/migrations_postgres/0003_cache_notify.sql) send a notification on `wire_cache` when
a change commits, whoever made it; each process keeps one connection of its own (not from the
pool, where it would be handed out and its LISTEN lost) listening, and empties the cache when a
notification arrives. The process's own writes empty it as soon as they commit, so it reads
its own writes at once, not one notification later.

What makes it safe:

* **Generations.** A read records the generation before it runs and files its rows only if no
  invalidation came meanwhile: rows read before a change committed cannot outlive its
  notification by being filed after it.
* **Off while deaf.** Without the listening connection nothing would tell us of other
  processes' changes, so the cache is off (every read goes to the database) from the moment it
  is lost until a new one listens; it reconnects in the background, and turning back on starts
  a new generation, since notifications sent meanwhile are gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg

log = logging.getLogger("wire.storage")

CHANNEL = "wire_cache"
CACHED_TABLES = frozenset(
    {
        "campaigns",
        "campaign_gms",
        "channel_bindings",
        "characters",
        "character_stats",
        "weapons",
        "active_characters",
        "fights",
        "character_conditions",
    }
)
"""The tables whose changes notify (migration 0003; fights since running_fight_cached), the same
as SQLite's cache_version's."""
READ_CACHE_MAX = 10_000
"""Cached reads at most, as SQLite's; past it the cache starts again (a busy bot refills it
in seconds)."""
RECONNECT_DELAYS_S = (0.1, 0.5, 1.0, 2.0, 5.0)
"""Waits between attempts to listen again; the last repeats until it works or the store
closes."""

Key = tuple[str, tuple[Any, ...]]
Connect = Callable[[], Awaitable[asyncpg.Connection]]


class NotifiedCache:
    """Rows of cached reads by (statement, arguments); `start()` it, `close()` it."""

    def __init__(self, connect: Connect) -> None:
        self._connect = connect
        self._rows: dict[Key, list[Any]] = {}
        self.generation = 0
        self.misses = 0
        """Cached reads that had to run their query: the tests and benchmarks read it."""
        self.last_payload: str | None = None
        self.notified = asyncio.Event()
        """Set by every notification: a test waits on it instead of sleeping."""
        self._conn: asyncpg.Connection | None = None
        self._reconnecting: asyncio.Task[None] | None = None
        self._closed = False

    @property
    def on(self) -> bool:
        """Whether a connection is listening, so cached rows may be served."""
        return self._conn is not None and not self._conn.is_closed()

    async def start(self) -> None:
        """Listen now; if the server will not, start with the cache off and keep trying."""
        try:
            await self._listen()
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError) as exc:
            log.warning("The read cache is off until it can listen for changes: %s", exc)
            self._reconnect_later()

    def get(self, key: Key) -> list[Any] | None:
        return self._rows.get(key) if self.on else None

    def put(self, key: Key, rows: list[Any], generation: int) -> None:
        """File rows read since `generation`, unless an invalidation (or a lost connection)
        came while they were read."""
        if generation != self.generation or not self.on:
            return
        if len(self._rows) >= READ_CACHE_MAX:
            self._rows.clear()
        self._rows[key] = rows

    def invalidate(self) -> None:
        self.generation += 1
        self._rows.clear()

    # ---- the listening connection ---------------------------------------------------------

    async def _listen(self) -> None:
        conn = await self._connect()
        try:
            conn.add_termination_listener(self._lost)
            await conn.add_listener(CHANNEL, self._notify)
        except BaseException:
            conn.terminate()
            raise
        if self._closed:
            await conn.close()
            return
        self._conn = conn
        self.invalidate()  # what was sent while nobody listened is gone
        log.debug("The read cache listens for changes.")

    def _notify(self, conn: Any, pid: int, channel: str, payload: str) -> None:
        self.invalidate()
        self.last_payload = payload
        self.notified.set()

    def _lost(self, conn: asyncpg.Connection) -> None:
        if conn is not self._conn:
            return
        self._conn = None
        self.invalidate()
        if not self._closed:
            log.warning("The read cache lost its connection; it is off until it listens again.")
            self._reconnect_later()

    def _reconnect_later(self) -> None:
        if self._reconnecting is None or self._reconnecting.done():
            self._reconnecting = asyncio.get_running_loop().create_task(self._reconnect())

    async def _reconnect(self) -> None:
        for attempt in itertools.count():
            await asyncio.sleep(RECONNECT_DELAYS_S[min(attempt, len(RECONNECT_DELAYS_S) - 1)])
            if self._closed:
                return
            try:
                await self._listen()
                return
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError) as exc:
                log.debug("The read cache cannot listen yet: %s", exc)

    async def close(self) -> None:
        self._closed = True
        if self._reconnecting is not None:
            self._reconnecting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reconnecting
        conn, self._conn = self._conn, None
        self.invalidate()
        if conn is not None:
            try:
                await asyncio.wait_for(conn.close(), 5)
            except (TimeoutError, OSError, asyncpg.InterfaceError):
                conn.terminate()
