"""The PostgreSQL read cache: what every roll reads stays cached while rolls are logged, a
change by another process is seen once its notification arrives, and without its listening
connection the cache is off rather than stale.

No sleeps: a test waits (bounded) for the notification it caused, or for a marker notification
sent after everything before it, since notifications arrive in the order their transactions
committed.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable

import asyncpg
import pytest

from storage.models import Campaign
from storage.postgres import PostgresStore
from storage.testing import GM, GUILD, PLAYER, manager, roll_record

WAIT_S = 10
"""The longest a test waits for a notification: far past a round trip, only a failing test
waits it out."""
CHANNEL = 9
_markers = itertools.count(1)


async def until(done: Callable[[], Awaitable[bool]], store: PostgresStore) -> None:
    """Wait until `done()`, re-checking whenever a notification reaches `store`, at most WAIT_S."""
    cache = store.backend.cache

    async def wait() -> None:
        while True:
            cache.notified.clear()
            if await done():
                return
            await cache.notified.wait()

    await asyncio.wait_for(wait(), WAIT_S)


async def settled(store: PostgresStore, dsn: str) -> None:
    """Every notification committed so far has reached `store`: a marker sent now arrives
    after all of them."""
    marker = f"marker-{next(_markers)}"
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute("SELECT pg_notify('wire_cache', $1)", marker)
    finally:
        await conn.close()

    async def arrived() -> bool:
        return store.backend.cache.last_payload == marker

    await until(arrived, store)


async def a_table(store: PostgresStore) -> Campaign:
    """A campaign bound to CHANNEL with PLAYER's active character Jaime (Strength 1)."""
    campaign = await store.create_campaign(GUILD, "Cached", manager(GM))
    await store.create_character(GUILD, campaign.id, PLAYER, "Jaime", attributes={"Strength": 1})
    await store.set_active_character(GUILD, campaign.id, PLAYER, "Jaime")
    await store.bind_channel(GUILD, CHANNEL, campaign.id, GM)
    return campaign


async def strength(store: PostgresStore) -> int | None:
    _, jaime = await store.roller_context(GUILD, CHANNEL, PLAYER)
    assert jaime is not None
    return jaime.attributes.get("Strength")


async def test_rolls_keep_the_cache_and_a_second_process_change_reaches_it(
    postgres_database: str,
) -> None:
    first = await PostgresStore.open(postgres_database, pool_size=2)
    second = await PostgresStore.open(postgres_database, pool_size=2)
    try:
        campaign = await a_table(first)
        await settled(first, postgres_database)
        assert await strength(first) == 1
        misses = first.backend.cache_misses
        for n in range(5):
            await first.log_roll(roll_record(campaign, user_id=PLAYER, interaction_id=n + 1))
            assert await strength(first) == 1
        assert first.backend.cache_misses == misses  # logged rolls left it alone

        # Another process (its own pool) raises the stat: the first sees it once notified.
        await second.set_stat(GUILD, campaign.id, GM, "Jaime", "attribute", "Strength", 4)

        async def seen() -> bool:
            return await strength(first) == 4

        await until(seen, first)
        assert first.backend.cache_misses > misses
    finally:
        await second.close()
        await first.close()


async def test_its_own_write_is_read_at_once(postgres_database: str) -> None:
    """The process that wrote does not wait for its own notification to come back."""
    store = await PostgresStore.open(postgres_database, pool_size=2)
    try:
        campaign = await a_table(store)
        await settled(store, postgres_database)
        assert await strength(store) == 1
        assert store.backend.cache.on  # listening, so the reads may be cached
        await store.set_stat(GUILD, campaign.id, GM, "Jaime", "attribute", "Strength", 2)
        assert await strength(store) == 2
    finally:
        await store.close()


async def test_without_its_listening_connection_the_cache_is_off(
    postgres_database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The listening connection ended (a restart, an admin): nothing would tell the process of
    other changes, so every read goes to the database until it listens again."""
    store = await PostgresStore.open(postgres_database, pool_size=2)
    cache = store.backend.cache
    reconnect = asyncio.Event()
    listen = cache._connect

    async def held_back() -> asyncpg.Connection:
        await reconnect.wait()
        return await listen()

    monkeypatch.setattr(cache, "_connect", held_back)
    admin = await asyncpg.connect(postgres_database)
    try:
        await a_table(store)
        await settled(store, postgres_database)
        assert await strength(store) == 1
        await admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE application_name = 'wire-bot-cache'"
        )

        await asyncio.wait_for(until_true(lambda: not cache.on), WAIT_S)
        await admin.execute("UPDATE character_stats SET value = 6 WHERE name = 'Strength'")
        misses = store.backend.cache_misses
        assert await strength(store) == 6  # not the cached 1
        assert await strength(store) == 6
        assert store.backend.cache_misses == misses + 2  # nothing was cached meanwhile

        reconnect.set()  # it listens again: cached once more
        await asyncio.wait_for(until_true(lambda: cache.on), WAIT_S)
        assert await strength(store) == 6
        misses = store.backend.cache_misses
        assert await strength(store) == 6
        assert store.backend.cache_misses == misses
    finally:
        await admin.close()
        await store.close()


async def until_true(done: Callable[[], bool]) -> None:
    """Poll `done()` between event-loop turns (the caller bounds the wait)."""
    while not done():
        await asyncio.sleep(0.01)
