"""Whether a channel has a running fight is a cached read (every roll asks it): it must stay
true when another process (a second shard, the CLI) starts or ends a fight there, and a fight
that is found is read whole and current, its turn included."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from storage import open_store
from storage.models import NewCombatant
from storage.rules import RuleStore
from storage.testing import CHANNEL, GM, GUILD
from wire.dice import Die, DieSource
from wire.initiative import Initiative

WAIT_S = 10
"""PostgreSQL: the longest a test waits for the other process's notification."""


async def seen(store: RuleStore, done: Callable[[], Awaitable[bool]]) -> bool:
    """`done()` now (SQLite: another connection's commit is seen at once), or on PostgreSQL
    once the notification of the other process's change has reached `store`."""
    from tests.storage.test_postgres_cache import until

    if await done():
        return True
    if store.__class__.__name__ != "PostgresStore":
        return False
    await until(done, store)  # type: ignore[arg-type]
    return True


async def test_a_fight_started_or_ended_elsewhere_is_seen_and_no_fight_is_cached(
    store: RuleStore, store_database: str, make_campaign, make_character
) -> None:
    campaign = await make_campaign(channel_id=CHANNEL)
    goblin = await make_character(campaign, "Goblin", npc=True)
    other = await open_store(store_database)  # a second process on the same database
    try:
        misses = store.backend.cache_misses
        assert await store.running_fight(GUILD, CHANNEL) is None
        assert store.backend.cache_misses == misses + 1  # a cached read, filled now
        assert await store.running_fight(GUILD, CHANNEL) is None
        assert store.backend.cache_misses == misses + 1  # "no fight here" costs no query

        fight = await other.start_fight(GUILD, campaign.id, CHANNEL, GM, "Ambush")

        async def running() -> bool:
            found = await store.running_fight(GUILD, CHANNEL)
            return found is not None and found.id == fight.id

        assert await seen(store, running)
        init = Initiative(Die(10, DieSource.TABLE), 1, 0)
        two = [
            NewCombatant(f"Goblin {n}", goblin.id, None, True, init, (21, 21, 0), 1) for n in (1, 2)
        ]
        await other.add_combatants(GUILD, fight.id, GM, two)
        await other.advance_turn(GUILD, fight.id, GM)
        # Combatants and turns are not cached: read whole, as they are, at once.
        now = await store.running_fight(GUILD, CHANNEL)
        assert now is not None and len(now.combatants) == 2 and now.step == 1

        await other.end_fight(GUILD, fight.id, GM)

        async def gone() -> bool:
            return await store.running_fight(GUILD, CHANNEL) is None

        assert await seen(store, gone)
        again = await other.start_fight(GUILD, campaign.id, CHANNEL, GM, "Second wave")

        async def the_new_one() -> bool:
            found = await store.running_fight(GUILD, CHANNEL)
            return found is not None and found.id == again.id

        assert await seen(store, the_new_one)
    finally:
        await other.close()


async def test_the_rollers_read_says_whether_the_channel_has_a_fight(
    store: RuleStore, store_database: str, make_campaign
) -> None:
    """A roll in a channel without a fight asks nothing more than its roller's read
    (`roller_scene`), so that read must follow fights started and ended by any process, in
    its own channel only."""
    campaign = await make_campaign(channel_id=CHANNEL)
    other = await open_store(store_database)
    try:
        scene = await store.roller_scene(GUILD, CHANNEL, GM)
        assert (scene.campaign.id, scene.in_fight) == (campaign.id, False)
        misses = store.backend.cache_misses
        assert (await store.roller_scene(GUILD, CHANNEL, GM)).in_fight is False
        assert store.backend.cache_misses == misses  # one cached read, and nothing else

        fight = await other.start_fight(GUILD, campaign.id, CHANNEL, GM, "Ambush")

        async def in_fight() -> bool:
            return (await store.roller_scene(GUILD, CHANNEL, GM)).in_fight is True

        assert await seen(store, in_fight)
        elsewhere = await store.roller_scene(GUILD, CHANNEL + 1, GM)
        assert elsewhere.in_fight is None  # a new server's first read: not known, so asked
        assert (await store.roller_scene(GUILD, CHANNEL + 1, GM)).in_fight is False
        await other.end_fight(GUILD, fight.id, GM)

        async def over() -> bool:
            return (await store.roller_scene(GUILD, CHANNEL, GM)).in_fight is False

        assert await seen(store, over)
    finally:
        await other.close()
