"""Roll statistics read from the log (storage/rules_stats.py), on both backends.

What a viewer may count: a GM everything; a player the public rolls of player characters (and
their own hidden ones), never another's hidden roll, an NPC's roll or a GM's roll, not even as
a count; a forgotten user nobody.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from storage.rules_stats import StatsScope
from storage.testing import CHANNEL, GM, GUILD, OTHER_GUILD, OTHER_PLAYER, PLAYER, roll_record
from wire.stats import summarise

EVENING = datetime(2026, 12, 3, 19, 0, tzinfo=UTC)


async def _table(store, make_campaign, make_character):
    """A campaign with Ash (PLAYER), Bea (OTHER_PLAYER) and a goblin NPC, and their rolls."""
    campaign = await make_campaign()
    ash = await make_character(campaign, "Ash")
    bea = await make_character(campaign, "Bea", owner_id=OTHER_PLAYER)
    goblin = await make_character(campaign, "Goblin", npc=True)

    def at(minutes: int, character, user_id: int = PLAYER, **fields):
        when = EVENING + timedelta(minutes=minutes)
        return roll_record(
            campaign, character=character, user_id=user_id, created_at=when, **fields
        )

    lost = {"success": False, "degrees": 3}
    rows = [
        at(0, ash, die=20, total=25),
        at(1, ash, die=1, total=6, **lost),
        at(2, bea, OTHER_PLAYER, die=1, total=3, hidden=True, **lost),
        at(3, goblin, GM, kind="attack", die=1, total=4, damage=3),
        at(4, None, GM, die=1, total=2),
        at(2 * 24 * 60, bea, OTHER_PLAYER, die=7, total=9, **lost),
    ]
    for row in rows:
        await store.log_roll(row)
    return campaign, ash, bea, goblin


async def test_a_gm_counts_every_roll(store, make_campaign, make_character) -> None:
    campaign, *_ = await _table(store, make_campaign, make_character)
    read = await store.stats_rolls(GUILD, campaign.id, StatsScope(), viewer_id=GM, gm=True)
    assert not read.grouped
    stats = summarise(read.rolls)
    assert stats.rolls == 6
    assert stats.natural_1s == 4 and stats.natural_20s == 1
    assert stats.damage_dealt == 3
    assert [r.who for r in read.rolls][:2] == ["Ash", "Ash"]


async def test_a_player_never_counts_hidden_npc_or_gm_rolls(
    store, make_campaign, make_character
) -> None:
    campaign, *_ = await _table(store, make_campaign, make_character)
    read = await store.stats_rolls(GUILD, campaign.id, StatsScope(), viewer_id=PLAYER, gm=False)
    stats = summarise(read.rolls)
    # Ash's two and Bea's public one: not Bea's hidden 1, not the goblin's, not the GM's.
    assert stats.rolls == 3
    assert stats.natural_1s == 1
    assert stats.damage_dealt == 0
    # Bea sees her own hidden roll.
    read = await store.stats_rolls(
        GUILD, campaign.id, StatsScope(), viewer_id=OTHER_PLAYER, gm=False
    )
    assert summarise(read.rolls).rolls == 4


async def test_scopes(store, make_campaign, make_character) -> None:
    campaign, ash, _bea, goblin = await _table(store, make_campaign, make_character)

    async def count(scope: StatsScope) -> int:
        read = await store.stats_rolls(GUILD, campaign.id, scope, viewer_id=GM, gm=True)
        return summarise(read.rolls).rolls

    assert await count(StatsScope(character_id=ash.id)) == 2
    assert await count(StatsScope(user_id=OTHER_PLAYER)) == 2
    assert await count(StatsScope(character_id=goblin.id)) == 1
    assert await count(StatsScope(since=EVENING + timedelta(minutes=1))) == 5
    assert await count(StatsScope(since=EVENING, until=EVENING + timedelta(hours=12))) == 5
    assert await count(StatsScope(channel_id=999)) == 0
    # Another guild's look-up of the campaign finds nothing.
    read = await store.stats_rolls(OTHER_GUILD, campaign.id, StatsScope(), viewer_id=GM, gm=True)
    assert read.rolls == ()


async def test_a_forgotten_player_is_in_nobodys_statistics(
    store, make_campaign, make_character
) -> None:
    campaign, *_ = await _table(store, make_campaign, make_character)
    await store.delete_user_data(OTHER_PLAYER)
    for viewer, gm in ((GM, True), (PLAYER, False)):
        read = await store.stats_rolls(GUILD, campaign.id, StatsScope(), viewer_id=viewer, gm=gm)
        assert all(r.who != "Bea" for r in read.rolls)
    read = await store.stats_rolls(
        GUILD, campaign.id, StatsScope(user_id=OTHER_PLAYER), viewer_id=GM, gm=True
    )
    assert read.rolls == ()


async def test_a_big_scope_is_grouped_to_the_same_numbers(
    store, make_campaign, make_character
) -> None:
    campaign = await make_campaign()
    ash = await make_character(campaign, "Ash")
    for i in range(30):
        die = i % 20 + 1
        total = die + 4
        await store.log_roll(
            roll_record(
                campaign,
                character=ash,
                die=die,
                total=total,
                target=15,
                success=total >= 15,
                degrees=min(abs(total - 15) // 2, 5),
                damage=i % 3 if i % 2 else None,
                kind="attack" if i % 2 else "check",
            )
        )
    alone = await store.stats_rolls(GUILD, campaign.id, StatsScope(), viewer_id=GM, gm=True)
    grouped = await store.stats_rolls(
        GUILD, campaign.id, StatsScope(), viewer_id=GM, gm=True, limit=10
    )
    assert grouped.grouped and not alone.grouped
    assert len(grouped.rolls) < 30
    a, g = summarise(alone.rolls), summarise(grouped.rolls)
    assert (a.rolls, a.successes, a.natural_1s, a.damage_dealt, a.degrees) == (
        g.rolls,
        g.successes,
        g.natural_1s,
        g.damage_dealt,
        g.degrees,
    )
    assert abs(a.luck.mean - g.luck.mean) < 1e-12
    cut = await store.stats_rolls(
        GUILD, campaign.id, StatsScope(), viewer_id=GM, gm=True, limit=10, group=False
    )
    assert cut.cut and len(cut.rolls) == 10


async def test_the_fight_of_a_channel(store, make_campaign, make_character) -> None:
    campaign = await make_campaign()
    assert await store.last_fight(GUILD, campaign.id, CHANNEL) is None
    fight = await store.start_fight(GUILD, campaign.id, CHANNEL, GM, "Ambush")
    running = await store.last_fight(GUILD, campaign.id, CHANNEL)
    assert (running.name, running.channel_id, running.ended) == ("Ambush", CHANNEL, None)
    await store.end_fight(GUILD, fight.id, GM)
    ended = await store.last_fight(GUILD, campaign.id, CHANNEL)
    assert ended.ended is not None and ended.ended >= ended.started
    assert await store.last_fight(OTHER_GUILD, campaign.id, CHANNEL) is None


async def test_since_finds_exactly_the_rolls_from_then_on(store, make_campaign) -> None:
    # "since" becomes a range of ids by a binary search on the index; every start counts right,
    # with another campaign's rolls interleaved in the same id sequence.
    campaign, other = await make_campaign(), await make_campaign()
    for minute in range(40):
        for each in (campaign, other):
            when = EVENING + timedelta(hours=2 * minute)
            await store.log_roll(roll_record(each, created_at=when))
    for minute in (0, 1, 17, 39, 40):
        scope = StatsScope(since=EVENING + timedelta(hours=2 * minute))
        read = await store.stats_rolls(GUILD, campaign.id, scope, viewer_id=GM, gm=True)
        assert len(read.rolls) == 40 - minute
    empty = await make_campaign()
    read = await store.stats_rolls(
        GUILD, empty.id, StatsScope(since=EVENING), viewer_id=GM, gm=True
    )
    assert read.rolls == ()
