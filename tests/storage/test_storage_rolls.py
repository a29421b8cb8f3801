"""The roll log, crafting projects and pending actions."""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import fields
from datetime import UTC, datetime, timedelta, timezone

import asyncpg
import pytest

from storage.errors import Conflict, InvalidValue, NameTaken, NotFound
from storage.models import QUALITY_MAX, RollRecord
from storage.rows import roll_params
from storage.sqlite import SqliteStore
from storage.testing import GM, GUILD, OTHER_PLAYER, PLAYER, roll_record


async def test_log_roll_keeps_every_field(
    store: SqliteStore, make_campaign, make_character
) -> None:
    campaign = await make_campaign()
    ash = await make_character(campaign)
    when = datetime(2026, 11, 30, 20, 15, 1, 250000, tzinfo=timezone(timedelta(hours=2)))
    record = roll_record(
        campaign,
        character=ash,
        kind="attack",
        inputs={"weapon": "Sabre", "mods": [1, -2], "nested": {"ok": True}},
        die=20,
        die_source="table",
        total=27,
        target=None,
        success=False,
        degrees=-3,
        raw_degrees=-5,
        damage=11,
        hidden=True,
        interaction_id=123456789012345678,
        created_at=when,
    )
    roll_id = await store.log_roll(record)
    [stored] = await store.recent_rolls(GUILD, campaign.id, include_hidden=True)
    assert stored.id == roll_id
    assert stored.created_at == when  # the same moment, given back in UTC
    assert stored.created_at.tzinfo == UTC
    for field in fields(RollRecord):
        if field.name not in ("id", "created_at"):
            assert getattr(stored, field.name) == getattr(record, field.name), field.name


async def test_created_at_defaults_to_now_utc(store: SqliteStore, make_campaign) -> None:
    campaign = await make_campaign()
    await store.log_roll(roll_record(campaign))
    [stored] = await store.recent_rolls(GUILD, campaign.id)
    assert abs(datetime.now(UTC) - stored.created_at) < timedelta(seconds=5)


async def test_logging_is_idempotent_per_interaction(store: SqliteStore, make_campaign) -> None:
    campaign = await make_campaign()
    record = roll_record(campaign, interaction_id=99)
    ids = await asyncio.gather(*(store.log_roll(record) for _ in range(10)))
    assert len(set(ids)) == 1
    assert await store.log_roll(roll_record(campaign, interaction_id=99, die=1)) == ids[0]
    assert len(await store.recent_rolls(GUILD, campaign.id)) == 1
    # Without an interaction id every call is a new roll.
    await store.log_roll(roll_record(campaign))
    await store.log_roll(roll_record(campaign))
    assert len(await store.recent_rolls(GUILD, campaign.id)) == 3


async def test_unloggable_inputs_are_refused(store: SqliteStore, make_campaign) -> None:
    campaign = await make_campaign()
    with pytest.raises(InvalidValue, match="not JSON"):
        await store.log_roll(roll_record(campaign, inputs={"x": object()}))
    with pytest.raises(InvalidValue, match="not JSON"):
        await store.log_roll(roll_record(campaign, inputs={"x": float("nan")}))


async def test_recent_rolls_newest_first_with_filters(store: SqliteStore, make_campaign) -> None:
    campaign, other = await make_campaign(), await make_campaign()
    for n in range(6):
        user = PLAYER if n % 2 else OTHER_PLAYER
        await store.log_roll(roll_record(campaign, user_id=user, die=n, hidden=n == 5))
    await store.log_roll(roll_record(other, die=99))
    assert [r.die for r in await store.recent_rolls(GUILD, campaign.id)] == [4, 3, 2, 1, 0]
    assert [r.die for r in await store.recent_rolls(GUILD, campaign.id, include_hidden=True)][
        :2
    ] == [5, 4]
    assert [r.die for r in await store.recent_rolls(GUILD, campaign.id, user_id=PLAYER)] == [3, 1]
    assert [r.die for r in await store.recent_rolls(GUILD, campaign.id, limit=2)] == [4, 3]
    assert await store.recent_rolls(GUILD, campaign.id, limit=0) == []


async def test_crafting_project_life(store: SqliteStore, make_campaign, make_character) -> None:
    campaign = await make_campaign()
    ash = await make_character(campaign)
    project = await store.start_project(GUILD, campaign.id, PLAYER, "Long sword", 0, ash.id)
    assert (project.quality, project.rolls, project.finished) == (0, 0, False)
    assert project.character_id == ash.id
    with pytest.raises(NameTaken, match="unfinished project named 'long sword'"):
        await store.start_project(GUILD, campaign.id, PLAYER, "long sword")
    await store.start_project(GUILD, campaign.id, OTHER_PLAYER, "Long sword")  # theirs: fine

    record = roll_record(campaign, character=ash, kind="craft", interaction_id=5)
    project = await store.apply_craft_roll(project, 0, 3, record)
    assert (project.quality, project.rolls) == (3, 1)
    # The same interaction retried: applied once.
    assert await store.apply_craft_roll(project, 0, 3, record) == project
    [logged] = await store.recent_rolls(GUILD, campaign.id)
    assert logged.kind == "craft"

    stale = project
    project = await store.apply_craft_roll(project, 3, 5, roll_record(campaign, kind="craft"))
    with pytest.raises(Conflict, match="landed first \\(its quality is now 5\\)"):
        await store.apply_craft_roll(stale, 3, 4, roll_record(campaign, kind="craft"))
    assert (await store.get_project(GUILD, campaign.id, PLAYER, "LONG SWORD")).quality == 5
    assert len(await store.recent_rolls(GUILD, campaign.id)) == 2  # the loser logged nothing

    with pytest.raises(InvalidValue, match=f"{QUALITY_MAX + 1} is above the maximum {QUALITY_MAX}"):
        await store.apply_craft_roll(
            project, 5, QUALITY_MAX + 1, roll_record(campaign, kind="craft")
        )

    done = await store.finish_project(GUILD, campaign.id, PLAYER, "long sword")
    assert (done.finished, done.quality, done.rolls) == (True, 5, 2)
    with pytest.raises(InvalidValue, match="already finished"):
        await store.apply_craft_roll(done, 5, 6, roll_record(campaign, kind="craft"))
    with pytest.raises(NotFound):
        await store.get_project(GUILD, campaign.id, PLAYER, "Long sword")
    again = await store.start_project(GUILD, campaign.id, PLAYER, "Long sword")  # a new one
    listed = await store.list_projects(GUILD, campaign.id, PLAYER, include_finished=True)
    assert [(p.id, p.finished) for p in listed] == [(again.id, False), (done.id, True)]
    assert len(await store.list_projects(GUILD, campaign.id)) == 2


async def test_concurrent_craft_rolls_one_wins(store: SqliteStore, make_campaign) -> None:
    campaign = await make_campaign()
    project = await store.start_project(GUILD, campaign.id, PLAYER, "Boots")
    results = await asyncio.gather(
        *(
            store.apply_craft_roll(project, 0, n, roll_record(campaign, kind="craft"))
            for n in range(1, 11)
        ),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert all(isinstance(r, Conflict) for r in results if isinstance(r, Exception))
    assert (await store.get_project(GUILD, campaign.id, PLAYER, "Boots")).rolls == 1


async def test_gm_finishes_a_players_project_unless_ambiguous(
    store: SqliteStore, make_campaign
) -> None:
    campaign = await make_campaign()
    await store.start_project(GUILD, campaign.id, PLAYER, "Rope")
    await store.start_project(GUILD, campaign.id, OTHER_PLAYER, "Rope")
    with pytest.raises(InvalidValue, match="Several players"):
        await store.finish_project(GUILD, campaign.id, GM, "Rope")
    await store.finish_project(GUILD, campaign.id, PLAYER, "Rope")
    assert (await store.finish_project(GUILD, campaign.id, GM, "rope")).owner_id == OTHER_PLAYER


async def test_a_deleted_character_leaves_its_project_and_rolls(
    store: SqliteStore, make_campaign, make_character
) -> None:
    campaign = await make_campaign()
    ash = await make_character(campaign)
    await store.start_project(GUILD, campaign.id, PLAYER, "Rope", 0, ash.id)
    await store.log_roll(roll_record(campaign, character=ash))
    await store.delete_character(GUILD, campaign.id, PLAYER, "Ash")
    assert (await store.get_project(GUILD, campaign.id, PLAYER, "Rope")).character_id is None
    [roll] = await store.recent_rolls(GUILD, campaign.id)
    assert roll.character_name == "Ash"


async def test_pending_actions(store: SqliteStore, make_campaign) -> None:
    campaign = await make_campaign()
    now = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
    late = await store.create_pending(
        GUILD, campaign.id, "defend", {"attacker": "Ash", "total": 17}, now + timedelta(minutes=5)
    )
    early = await store.create_pending(GUILD, campaign.id, "defend", {}, now + timedelta(minutes=1))
    assert late.payload == {"attacker": "Ash", "total": 17}
    assert late.expires_at == now + timedelta(minutes=5)
    await store.set_pending_message(GUILD, late.id, 10, 20)
    got = await store.get_pending(GUILD, late.id)
    assert (got.channel_id, got.message_id) == (10, 20)
    assert await store.expired_pending(now) == []
    assert [p.id for p in await store.expired_pending(now + timedelta(hours=1))] == [
        early.id,
        late.id,
    ]
    assert [p.id for p in await store.expired_pending(now + timedelta(hours=1), limit=1)] == [
        early.id
    ]
    # Naive datetimes are taken as UTC.
    naive = (now + timedelta(minutes=2)).replace(tzinfo=None)
    assert [p.id for p in await store.expired_pending(naive)] == [early.id]
    claims = await asyncio.gather(*(store.claim_pending(GUILD, late.id) for _ in range(5)))
    assert sorted(claims) == [False, False, False, False, True]
    assert await store.get_pending(GUILD, late.id) is None
    await store.set_pending_message(GUILD, late.id, 1, 2)  # gone: nothing to do, no error
    with pytest.raises(InvalidValue, match="not JSON"):
        await store.create_pending(GUILD, campaign.id, "x", {"a": {1, 2}}, now)


async def test_concurrent_rolls_share_commits_and_fail_alone(
    store: SqliteStore, make_campaign
) -> None:
    campaign, other = await make_campaign(), await make_campaign()
    first = await store.log_roll(roll_record(campaign, interaction_id=99))
    good = [roll_record(campaign, die=n % 20 + 1, interaction_id=1000 + n) for n in range(30)]
    bad = [
        roll_record(other, interaction_id=99),  # logged already, for another roll
        roll_record(campaign, guild_id=GUILD + 1),  # the campaign is not in that guild
        roll_record(campaign, channel_id=2**64),  # the database refuses it: fails the batch
    ]
    store.roll_batch_sizes.clear()
    outcomes = await asyncio.gather(
        *(store.log_roll(r) for r in good[:15] + bad + good[15:] + [good[0]]),
        return_exceptions=True,
    )
    ids = outcomes[:15] + outcomes[18:-1]
    assert all(isinstance(i, int) for i in ids) and len(set(ids)) == 30
    assert outcomes[-1] == ids[0]  # the same interaction twice: one row, same id
    assert isinstance(outcomes[15], InvalidValue)
    assert isinstance(outcomes[16], NotFound)
    assert isinstance(outcomes[17], OverflowError | asyncpg.DataError)  # SQLite's, PostgreSQL's
    assert first not in ids
    assert max(store.roll_batch_sizes) > 1  # they shared a commit
    assert "rows per commit" in store.roll_batch_summary()
    logged = await store.recent_rolls(GUILD, campaign.id, limit=100)
    assert sorted(r.id for r in logged) == sorted([first, *ids])


async def test_a_batch_reports_each_row_as_one_insert_would(
    store: SqliteStore, make_campaign
) -> None:
    """The roll log's batch (one statement on PostgreSQL) answers each row as that row alone
    would: its id, or None where nothing was inserted, in the batch's order."""
    campaign = await make_campaign()
    rows = [
        roll_record(campaign, die=1),  # no interaction id
        roll_record(campaign, die=2, interaction_id=7),
        roll_record(campaign, die=3, interaction_id=8, guild_id=GUILD + 1),  # not that guild's
        roll_record(campaign, die=4, interaction_id=7),  # the same interaction again
        roll_record(campaign, die=5),  # no interaction id either
    ]
    outcomes = await store.backend.insert_rolls([roll_params(r) for r in rows])
    assert outcomes[2] is None and outcomes[3] is None
    assert all(isinstance(outcomes[i], int) for i in (0, 1, 4))
    assert outcomes[0] < outcomes[1] < outcomes[4]
    logged = {r.id: r.die for r in await store.recent_rolls(GUILD, campaign.id, limit=10)}
    assert logged == {outcomes[0]: 1, outcomes[1]: 2, outcomes[4]: 5}


async def test_retention_deletes_the_old_rolls_in_batches_and_keeps_the_rest(
    store: SqliteStore, make_campaign
) -> None:
    """1,050 rolls from last year and 30 from today; batches of 400 delete the old ones in three
    steps (400, 400, 250), then find nothing more; /history still shows today's."""
    campaign = await make_campaign()
    now = datetime.now(UTC)
    old = [now - timedelta(days=400, minutes=n) for n in range(1050, 0, -1)]
    when = old + [now - timedelta(minutes=30 - n) for n in range(30)]
    await asyncio.gather(*(store.log_roll(roll_record(campaign, created_at=at)) for at in when))
    cutoff = now - timedelta(days=365)

    steps, after = [], 0
    while (batch := await store.delete_old_rolls(cutoff, after_id=after, batch=400)).count:
        assert batch.last_id is not None and batch.last_id > after
        steps.append(batch.count)
        after = batch.last_id
    assert steps == [400, 400, 250]
    assert batch.last_id is None
    kept = await store.recent_rolls(GUILD, campaign.id, limit=50)
    assert len(kept) == 30 and all(r.created_at > cutoff for r in kept)
    again = await store.delete_old_rolls(cutoff, batch=400)
    assert (again.count, again.last_id) == (0, None)


async def _plan(store, store_backend: str, store_database: str, sql: str) -> str:
    if store_backend == "sqlite":
        conn = sqlite3.connect(store.path)
        try:
            return " ".join(str(row) for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}"))
        finally:
            conn.close()
    conn = await asyncpg.connect(store_database)
    try:
        await conn.execute("SET enable_seqscan = off")  # an empty table: any plan is cheap
        return " ".join(r[0] for r in await conn.fetch(f"EXPLAIN {sql}"))
    finally:
        await conn.close()


async def test_forget_me_finds_a_users_rolls_by_the_index_on_the_user(
    store, store_backend: str, store_database: str
) -> None:
    """Without statistics, SQLite would read all of the (campaign, user) index; PostgreSQL the
    whole table. The plan of forget-me's statement names the index on the user on both."""
    sql = "DELETE FROM roll_log WHERE user_id = 42"
    plan = await _plan(store, store_backend, store_database, sql)
    assert "roll_log_by_user" in plan, plan


async def test_a_players_history_goes_by_the_same_index_on_the_user(
    store, store_backend: str, store_database: str
) -> None:
    """/history of one player reads that player's newest rows of the campaign by the one index
    on the user (user, campaign, id), in id order, not the campaign's whole log: the index that
    also serves forget-me, so a roll's insert updates one index for both."""
    sql = (
        "SELECT id FROM roll_log WHERE campaign_id = 7 AND guild_id = 1 AND user_id = 42 "
        "AND (hidden = 0 OR 1 = 1) ORDER BY id DESC LIMIT 50"
    )
    plan = await _plan(store, store_backend, store_database, sql)
    assert "roll_log_by_user" in plan, plan
    assert "TEMP B-TREE" not in plan and "Sort" not in plan, plan  # no sort: the index's order
