"""Sessions in the store, on both backends: the GMs' changes, answers, the reminder claimed once
(two claims, a restart, a moved session), the sweep's shards, and what a session marks."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from storage.errors import Conflict, InvalidValue, NotFound, PermissionDenied
from storage.models import HealthTarget, NewCombatant, Shards
from storage.testing import CHANNEL, GM, GUILD, OTHER_GUILD, PLAYER, roll_record
from wire.dice import Die, DieSource
from wire.initiative import Initiative
from wire.sessions import Answer, State

NOW = datetime.now(UTC).replace(microsecond=0)
START = NOW + timedelta(hours=2)


async def test_plan_move_cancel_and_who_may(store, make_campaign):
    campaign = await make_campaign()
    with pytest.raises(PermissionDenied, match="Only a GM"):
        await store.plan_session(GUILD, campaign.id, PLAYER, "Warrens", START, 180, CHANNEL)
    with pytest.raises(InvalidValue, match="1 to 1440 minutes"):
        await store.plan_session(GUILD, campaign.id, GM, "Warrens", START, 0, CHANNEL)
    session = await store.plan_session(GUILD, campaign.id, GM, "Warrens", START, 180, CHANNEL)
    assert (session.title, session.start, session.minutes) == ("Warrens", START, 180)
    assert session.state is State.PLANNED and session.channel_id == CHANNEL
    with pytest.raises(NotFound):
        await store.get_session(OTHER_GUILD, session.id)
    await store.set_session_event(GUILD, session.id, 555)
    assert (await store.session_by_event(GUILD, 555)).id == session.id
    assert await store.session_by_event(OTHER_GUILD, 555) is None
    with pytest.raises(PermissionDenied):
        await store.move_session(GUILD, session.id, PLAYER, START + timedelta(days=1))
    moved = await store.move_session(GUILD, session.id, GM, START + timedelta(days=1), 240)
    assert (moved.start, moved.minutes) == (START + timedelta(days=1), 240)
    cancelled = await store.cancel_session(GUILD, session.id, GM)
    assert cancelled.state is State.CANCELLED
    with pytest.raises(Conflict, match="Warrens is cancelled"):
        await store.move_session(GUILD, session.id, GM, START)
    with pytest.raises(Conflict, match="answers are closed"):
        await store.answer_session(GUILD, session.id, PLAYER, Answer.COMING)


async def test_answers_change_and_stay_per_user(store, make_campaign):
    campaign = await make_campaign()
    session = await store.plan_session(GUILD, campaign.id, GM, "Warrens", START, 180, CHANNEL)
    await store.answer_session(GUILD, session.id, PLAYER, Answer.MAYBE)
    await store.answer_session(GUILD, session.id, GM, Answer.COMING)
    _s, answers = await store.answer_session(GUILD, session.id, PLAYER, Answer.COMING)
    assert answers == {PLAYER: Answer.COMING, GM: Answer.COMING}
    assert await store.session_answers(OTHER_GUILD, session.id) == {}
    await store.delete_user_data(PLAYER)
    assert await store.session_answers(GUILD, session.id) == {GM: Answer.COMING}


async def test_the_reminder_is_claimed_once_and_again_after_a_move(store, make_campaign):
    campaign = await make_campaign()
    session = await store.plan_session(GUILD, campaign.id, GM, "Warrens", START, 180, CHANNEL)
    [due] = await store.due_sessions(NOW)
    assert due.session.id == session.id and due.settings.lead_minutes is None
    claims = await asyncio.gather(*(store.claim_reminder(GUILD, session) for _ in range(4)))
    assert claims.count(True) == 1
    assert await store.due_sessions(NOW) == []  # reminded, no ping wanted
    assert not await store.claim_reminder(GUILD, await store.get_session(GUILD, session.id))
    moved = await store.move_session(GUILD, session.id, GM, START + timedelta(minutes=30))
    assert not await store.claim_reminder(GUILD, session)  # the old time is not its time now
    assert [d.session.id for d in await store.due_sessions(NOW)] == [session.id]
    assert await store.claim_reminder(GUILD, moved)
    await store.cancel_session(GUILD, session.id, GM)
    later = await store.plan_session(GUILD, campaign.id, GM, "Later", START, 60, CHANNEL)
    await store.cancel_session(GUILD, later.id, GM)
    assert not await store.claim_reminder(GUILD, later)
    assert await store.due_sessions(NOW) == []


async def test_the_ping_setting_and_the_sweep_of_a_shard(store, make_campaign):
    campaign = await make_campaign()
    with pytest.raises(Exception, match="not a time zone"):
        await store.set_session_settings(GUILD, campaign.id, GM, zone_name="Mars/Olympus")
    settings = await store.set_session_settings(
        GUILD, campaign.id, GM, zone_name="europe/berlin", lead_minutes=30, nudge=True
    )
    assert (settings.zone, settings.lead_minutes, settings.nudge) == ("Europe/Berlin", 30, True)
    assert (await store.session_settings(GUILD, campaign.id)).zone == "Europe/Berlin"
    session = await store.plan_session(GUILD, campaign.id, GM, "Warrens", START, 180, CHANNEL)
    await store.claim_reminder(GUILD, session)
    [due] = await store.due_sessions(NOW)  # still: the ping is not sent
    assert due.settings == type(settings)(None, 30, True)
    assert await store.claim_nudge(GUILD, session)
    assert await store.due_sessions(NOW) == []
    far = await store.plan_session(GUILD, campaign.id, GM, "Far", NOW + timedelta(days=3), 60, 1)
    assert far.id not in [d.session.id for d in await store.due_sessions(NOW)]
    shard = (GUILD >> 22) % 2
    await store.plan_session(GUILD, campaign.id, GM, "Soon", START, 60, CHANNEL)
    assert len(await store.due_sessions(NOW, shards=Shards(2, (shard,)))) == 1
    assert await store.due_sessions(NOW, shards=Shards(2, (1 - shard,))) == []


async def test_a_roll_older_than_the_running_session_stays_outside_it(
    store, make_campaign, make_character
):
    """The roll's insert names its session (SQLite's migration 0030 dropped the trigger): a roll
    carrying a time before the session started (an import's) is not the session's, nor is a
    roll of another campaign."""
    campaign, other = await make_campaign(), await make_campaign("Elsewhere", channel_id=None)
    ash = await make_character(campaign, "Ash")
    session = await store.plan_session(GUILD, campaign.id, GM, "Warrens", START, 180, CHANNEL)
    await store.start_session(GUILD, session.id, GM)
    old = datetime.now(UTC) - timedelta(days=3)
    await store.log_roll(roll_record(campaign, character=ash, interaction_id=1, created_at=old))
    await store.log_roll(roll_record(other, interaction_id=2))
    now = await store.log_roll(roll_record(campaign, character=ash, interaction_id=3))
    ended = await store.end_session(GUILD, session.id, GM)
    content = await store.session_content(GUILD, ended)
    assert [roll.id for roll in content.rolls] == [now]


async def test_a_running_session_marks_its_rolls_fights_and_cp(
    store, make_campaign, make_character
):
    campaign = await make_campaign()
    ash = await make_character(campaign, "Ash")
    before = await store.log_roll(roll_record(campaign, character=ash, interaction_id=1))
    session = await store.plan_session(GUILD, campaign.id, GM, "Warrens", START, 180, CHANNEL)
    with pytest.raises(PermissionDenied):
        await store.start_session(GUILD, session.id, PLAYER)
    running = await store.start_session(GUILD, session.id, GM)
    assert running.state is State.RUNNING and running.started_at is not None
    other = await store.plan_session(GUILD, campaign.id, GM, "Other", START, 60, CHANNEL)
    with pytest.raises(Conflict, match="Warrens is running"):
        await store.start_session(GUILD, other.id, GM)
    await store.log_roll(roll_record(campaign, character=ash, interaction_id=2))
    await store.log_roll(roll_record(campaign, character=ash, interaction_id=3, hidden=True))
    fight = await store.start_fight(GUILD, campaign.id, CHANNEL, GM, "Ambush")
    await store.award_cp(GUILD, campaign.id, GM, [ash.id], 5, "Warrens")
    ended = await store.end_session(GUILD, session.id, GM)
    assert ended.state is State.ENDED and ended.ended_at is not None
    await store.log_roll(roll_record(campaign, character=ash, interaction_id=4))
    content = await store.session_content(GUILD, ended)
    assert len(content.rolls) == 1 and content.rolls[0].id not in (before,)  # no hidden one
    assert content.fight_ids == [fight.id]
    assert await store.session_content(OTHER_GUILD, ended) == type(content)([], [], 0, [])
    with pytest.raises(Conflict, match="Warrens is over"):
        await store.end_session(GUILD, session.id, GM)
    posted = await store.set_session_recap(GUILD, session.id, GM, "We fought.", 777)
    assert (posted.recap, posted.thread_id) == ("We fought.", 777)
    past = await store.sessions_in(GUILD, campaign.id, (State.ENDED, State.ENDED))
    assert [s.id for s in past] == [session.id]


async def test_the_recap_award_reaches_who_played_once_and_is_undone_as_any(
    store, make_campaign, make_character
):
    campaign = await make_campaign()
    ash = await make_character(campaign, "Ash")
    bo = await make_character(campaign, "Bo", owner_id=GM)
    await make_character(campaign, "Goblin", npc=True)
    session = await store.plan_session(GUILD, campaign.id, GM, "Warrens", START, 180, CHANNEL)
    await store.start_session(GUILD, session.id, GM)
    await store.log_roll(roll_record(campaign, character=ash, interaction_id=11))
    await store.log_roll(roll_record(campaign, character=bo, interaction_id=12, hidden=True))
    ended = await store.end_session(GUILD, session.id, GM)
    content = await store.session_content(GUILD, ended)
    assert [p.name for p in content.players] == ["Ash"]  # Bo only rolled in secret
    with pytest.raises(PermissionDenied):
        await store.award_session_cp(GUILD, session.id, PLAYER, 10, "Warrens")
    done = await store.award_session_cp(GUILD, session.id, GM, 10, "Warrens")
    assert [(sheet.name, totals.earned) for sheet, totals in done] == [("Ash", 10)]
    with pytest.raises(Conflict, match="awarded already"):
        await store.award_session_cp(GUILD, session.id, GM, 10, "Warrens", ["Bo"])
    ledger = await store.cp_ledger(GUILD, campaign.id, PLAYER, ash.id)
    assert [(e.kind, e.amount, e.reason) for e in ledger.entries] == [("award", 10, "Warrens")]
    _entry, _sheet, totals = await store.undo_last_cp(GUILD, campaign.id, GM, ash.id)
    assert totals.earned == 0
    other = await store.plan_session(GUILD, campaign.id, GM, "Later", START, 60, CHANNEL)
    with pytest.raises(InvalidValue, match="No player character"):
        await store.award_session_cp(GUILD, other.id, GM, 10, "Later")
    chosen = await store.award_session_cp(GUILD, other.id, GM, 5, "Later", ["Bo"])
    assert [sheet.name for sheet, _t in chosen] == ["Bo"]


async def test_interest_on_the_event_answers_coming_and_taking_it_back_withdraws_it(
    store, make_campaign
):
    campaign = await make_campaign()
    session = await store.plan_session(GUILD, campaign.id, GM, "Warrens", START, 180, CHANNEL)
    await store.set_session_event(GUILD, session.id, 555)
    assert await store.mark_interest(GUILD, 555, PLAYER, True) is not None
    assert await store.session_answers(GUILD, session.id) == {PLAYER: Answer.COMING}
    assert await store.mark_interest(GUILD, 555, PLAYER, True) is None  # nothing new
    assert await store.mark_interest(GUILD, 555, PLAYER, False) is not None
    assert await store.session_answers(GUILD, session.id) == {}
    # An answer by button stays when the interest is taken back.
    await store.answer_session(GUILD, session.id, GM, Answer.COMING)
    await store.mark_interest(GUILD, 555, GM, True)
    await store.mark_interest(GUILD, 555, GM, False)
    assert await store.session_answers(GUILD, session.id) == {GM: Answer.COMING}
    # Another guild's event of that id, an unknown event, a cancelled session: nothing.
    assert await store.mark_interest(OTHER_GUILD, 555, PLAYER, True) is None
    assert await store.mark_interest(GUILD, 556, PLAYER, True) is None
    await store.cancel_session(GUILD, session.id, GM)
    assert await store.mark_interest(GUILD, 555, PLAYER, True) is None
    assert await store.session_answers(GUILD, session.id) == {GM: Answer.COMING}


async def test_the_recap_reads_the_shown_conditions_and_who_went_down(
    store, make_campaign, make_character
):  # a GM's hidden one ("Marked") stays out
    campaign = await make_campaign()
    ash = await make_character(campaign, "Ash")
    session = await store.plan_session(GUILD, campaign.id, GM, "Warrens", START, 180, CHANNEL)
    await store.start_session(GUILD, session.id, GM)
    fight = await store.start_fight(GUILD, campaign.id, CHANNEL, GM, "Ambush")
    joins = [NewCombatant("Ash", ash.id, PLAYER, False, Initiative(Die(10, DieSource.TABLE), 1))]
    [pc] = (await store.add_combatants(GUILD, fight.id, GM, joins)).combatants
    for name, hidden in (("Prone", False), ("Blessed", False), ("Marked", True)):
        await store.add_effect(GUILD, fight.id, GM, pc.id, name, None, hidden=hidden)
    await store.remove_effect(GUILD, fight.id, GM, pc.id, "Prone")
    down = HealthTarget(combatant_id=pc.id)
    await store.change_health(GUILD, campaign.id, GM, down, "damage", 30)  # down: counted
    await store.change_health(GUILD, campaign.id, GM, down, "damage", 5)  # down already: not
    await store.end_fight(GUILD, fight.id, GM)
    ended = await store.end_session(GUILD, session.id, GM)
    content = await store.session_content(GUILD, ended)
    shown = [(c.fight_id, c.bearer, c.name, c.ended) for c in content.conditions]
    assert shown == [(fight.id, "Ash", "Prone", True), (fight.id, "Ash", "Blessed", False)]
    assert content.downings == [(fight.id, "Ash")]
    assert (await store.session_content(OTHER_GUILD, ended)).conditions == []
