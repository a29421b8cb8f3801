"""Sessions through the simulated client: plan (with its Discord event), answer, move, cancel,
the reminder swept once, start, end with the recap drafted, edited, posted in a thread and its
CP awarded, /session next and list, and the GM's event changes followed; German too."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from cogs.session_recap import AMOUNT_INPUT, NAMES_INPUT, RECAP_INPUT
from wire.sessions import State

NOW = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
START = datetime(2026, 12, 5, 18, 30, tzinfo=UTC)  # 19:30 in Berlin (winter)


@pytest.fixture
def clock(world, monkeypatch):
    """The bot's clock, fixed; `clock.at(moment)` moves it."""

    class Clock:
        now = NOW

        def at(self, moment: datetime) -> None:
            self.now = moment

    fixed = Clock()
    monkeypatch.setattr(type(world.bot), "now", lambda self: fixed.now)
    return fixed


def sessions(world):
    return world.bot.get_cog("Sessions")


async def plan(world, **options):
    values = {"title": "Warrens", "date": "2026-12-05", "time": "19:30", "zone": "Europe/Berlin"}
    return await world.alice.slash(world.channel, "session plan", **{**values, **options})


def events(world):
    return list(world.guild._env.backend.get_guild(world.guild.id).scheduled_events.values())


async def test_a_gm_plans_a_session_with_its_event_players_may_not(world, clock):
    refused = await world.bob.slash(
        world.channel, "session plan", title="Mine", date="2026-12-05", time="19:30"
    )
    assert refused.response.ephemeral and "Only a GM" in refused.response.content
    planned = await plan(world)
    stamp = int(START.timestamp())
    assert not planned.response.ephemeral
    assert planned.response.content.splitlines()[0] == (
        f"📅 **Warrens**: <t:{stamp}:F> (<t:{stamp}:R>), 3 hours, in <#{world.channel.id}>."
    )
    [event] = events(world)
    assert event.name == "Warrens" and event.scheduled_start_time.startswith("2026-12-05T18:30")
    [session] = await world.bot.store.sessions_in(world.guild.id, 1, (State.PLANNED, State.PLANNED))
    assert session.event_id == event.id and session.start == START


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        ({"date": "2026-12-04"}, "in the past"),
        ({"date": "morgen"}, "is not a date"),
        ({"time": "7pm"}, "is not a time of day"),
        ({"zone": "Mars/Olympus"}, "is not a time zone"),
        ({"date": "2027-03-28", "time": "02:30"}, "does not exist in Europe/Berlin"),
    ],
)
async def test_bad_starts_are_refused_with_the_fix(world, clock, options, problem):
    refused = await plan(world, **options)
    assert refused.response.ephemeral and problem in refused.response.content
    assert events(world) == []


async def test_answers_act_for_the_presser_change_and_survive_a_restart(world, clock):
    planned = await plan(world)
    await world.bob.click(planned.response, label="Coming")
    await world.carol.click(planned.response, label="Maybe")
    await world.restart()
    done = await world.carol.click(planned.response, label="Coming")
    lines = done.response.content.splitlines()
    assert lines[1] == f"✅ Coming (2): <@{world.bob.id}>, <@{world.carol.id}>"
    assert lines[2] == "❔ Maybe (0): —"
    shown = await world.carol.slash(world.channel, "session next")
    assert shown.response.ephemeral and "**Warrens**" in shown.response.content
    assert f"✅ Coming (2): <@{world.bob.id}>, <@{world.carol.id}>" in shown.response.content


async def test_the_reminder_goes_once_to_who_comes_and_follows_a_move(world, clock):
    planned = await plan(world)
    await world.bob.click(planned.response, label="Coming")
    await world.carol.click(planned.response, label="Not coming")
    cog = sessions(world)
    clock.at(START - timedelta(minutes=16))
    assert await cog.sweep_reminders() == 0
    clock.at(START - timedelta(minutes=15))
    assert await cog.sweep_reminders() == 1
    reminder = world.channel.last_message
    assert reminder.content == (
        f"⏰ **Warrens** starts <t:{int(START.timestamp())}:R>. Coming: <@{world.bob.id}>"
    )
    await world.restart()
    assert await sessions(world).sweep_reminders() == 0  # sent once, across the restart
    later = START + timedelta(hours=1)
    clock.at(START - timedelta(minutes=5))
    moved = await world.alice.slash(world.channel, "session move", date="2026-12-05", time="19:30")
    assert f"<t:{int(later.timestamp())}:F>" in moved.response.content  # UTC: an hour later
    [event] = events(world)
    assert event.scheduled_start_time.startswith("2026-12-05T19:30")
    assert await sessions(world).sweep_reminders() == 0  # not yet for the new time
    clock.at(later - timedelta(minutes=10))
    assert await sessions(world).sweep_reminders() == 1


async def test_a_cancelled_session_gets_no_reminder_and_loses_its_event(world, clock):
    await plan(world)
    refused = await world.bob.slash(world.channel, "session cancel")
    assert "Only a GM" in refused.response.content
    done = await world.alice.slash(world.channel, "session cancel")
    assert "**Warrens**" in done.response.content and "cancelled" in done.response.content
    assert events(world) == []
    clock.at(START - timedelta(minutes=10))
    assert await sessions(world).sweep_reminders() == 0
    again = await world.alice.slash(world.channel, "session cancel")
    assert again.response.ephemeral and "has no planned session" in again.response.content
    none = await world.alice.slash(world.channel, "session end")
    assert none.response.content == (
        "No session of Default is running. A GM starts one with /session start."
    )


async def test_without_manage_events_the_session_is_kept_and_the_gm_told(world, clock, monkeypatch):
    import discord

    async def forbidden(*args, **kwargs):
        raise discord.Forbidden(type("R", (), {"status": 403, "reason": "Forbidden"})(), "no")

    monkeypatch.setattr(discord.Guild, "create_scheduled_event", forbidden)
    planned = await plan(world)
    assert "**Warrens**" in planned.response.content
    [note] = planned.followups
    assert note.ephemeral and "Manage Events" in note.content
    next_one = await world.bob.slash(world.channel, "session next")
    assert "**Warrens**" in next_one.response.content


async def test_the_event_moved_or_cancelled_in_discord_moves_the_session(world, clock):
    await plan(world)
    [event] = events(world)
    backend = world.guild._env.backend
    later = "2026-12-06T18:30:00+00:00"
    backend.edit_scheduled_event(
        world.guild.id,
        event.id,
        {"scheduled_start_time": later, "scheduled_end_time": "2026-12-06T20:30:00+00:00"},
    )
    await world.env.settle()  # the gateway event reaches the bot
    [session] = await world.bot.store.sessions_in(
        world.guild.id, 1, (State.PLANNED, State.CANCELLED)
    )
    assert session.start == datetime(2026, 12, 6, 18, 30, tzinfo=UTC) and session.minutes == 120
    backend.delete_scheduled_event(world.guild.id, event.id)
    await world.env.settle()  # the gateway event reaches the bot
    [session] = await world.bot.store.sessions_in(
        world.guild.id, 1, (State.PLANNED, State.CANCELLED)
    )
    assert session.state is State.CANCELLED


async def test_played_ended_recapped_in_a_thread_and_cp_awarded_once(world, clock):
    ch = world.channel
    await world.bob.slash(ch, "character create", name="Ash", sheet="Strength 3; Parry 3")
    await world.carol.slash(ch, "character create", name="Bo", sheet="Strength 1; Parry 2")
    await plan(world)
    refused = await world.bob.slash(ch, "session start")
    assert "Only a GM" in refused.response.content
    begun = await world.alice.slash(ch, "session start")
    assert "**Warrens** has begun" in begun.response.content
    world.dice.push(17, 3, 20)
    parry = {"attr_name": "Strength", "skill_name": "Parry", "vs": 20}
    await world.bob.slash(ch, "check", **parry)
    await world.bob.slash(ch, "check", **parry)
    await world.carol.slash(ch, "check", **parry, private=True)
    ended = await world.alice.slash(ch, "session end")
    assert "**Warrens** is over" in ended.response.content
    [draft] = ended.followups
    assert draft.ephemeral and "Who played: Ash" in draft.content
    assert "Best roll: **Ash**, 23 against 20, 1 DoS" in draft.content
    assert "Worst roll: **Ash**, 9 against 20, 5 DoF" in draft.content
    assert "2 rolls in all." in draft.content
    assert "Bo" not in draft.content  # only a hidden roll: out of the recap
    form = await world.alice.click(draft, label="Edit and post")
    posted = await world.alice.submit_modal(form, {RECAP_INPUT: "We cleared the warrens."})
    assert "The recap is posted in <#" in posted.response.content
    again = await world.alice.submit_modal(
        await world.alice.click(draft, label="Edit and post"), {RECAP_INPUT: "Twice?"}
    )
    assert again.response.ephemeral and "is posted already" in again.response.content
    [thread] = world.channel.threads  # one thread, with the first recap
    recap = thread.last_message
    assert recap.embeds[0].description == "We cleared the warrens."
    refused = await world.bob.click(recap, label="Award CP")
    assert refused.response.ephemeral and "Only a GM" in refused.response.content
    for typo in ("--5", "²", "ten"):  # refused in words, nothing awarded
        form = await world.alice.click(recap, label="Award CP")
        bad = await world.alice.submit_modal(form, {AMOUNT_INPUT: typo, NAMES_INPUT: "Ash"})
        assert bad.response.ephemeral and "is not a number of CP" in bad.response.content
    form = await world.alice.click(recap, label="Award CP")
    awarded = await world.alice.submit_modal(form, {AMOUNT_INPUT: "10", NAMES_INPUT: "Ash"})
    assert awarded.response.content.splitlines()[0] == "+10 CP: Warrens"
    assert "**Ash**: CP earned 10" in awarded.response.content
    form = await world.alice.click(recap, label="Award CP")
    again = await world.alice.submit_modal(form, {AMOUNT_INPUT: "10", NAMES_INPUT: "Ash"})
    assert again.response.ephemeral and "awarded already" in again.response.content
    listed = await world.carol.slash(ch, "session list")
    assert "We cleared the warrens." in listed.response.embeds[0].description


async def test_german_next_and_refusals(world, clock, client_languages):
    client_languages.set(world.bob, "de")
    none = await world.bob.slash(world.channel, "session next")
    assert "ist keine Sitzung geplant" in none.response.content
    await plan(world)
    shown = await world.bob.slash(world.channel, "session next")
    assert "3 Stunden" in shown.response.content and "✅ Komme (0)" in shown.response.content


async def test_history_finds_a_sessions_rolls(world, clock):
    ch = world.channel
    await world.bob.slash(ch, "character create", name="Ash", sheet="Strength 3; Parry 3")
    world.dice.push(5, 17, 12)
    parry = {"attr_name": "Strength", "skill_name": "Parry", "vs": 20}
    await world.bob.slash(ch, "check", **parry)  # before the session
    await plan(world)
    await world.alice.slash(ch, "session start")
    await world.bob.slash(ch, "check", **parry)
    await world.bob.slash(ch, "check", **parry, private=True)
    await world.alice.slash(ch, "session end")
    choices = await world.bob.autocomplete(ch, "history", "session", "war")
    assert [c["name"] for c in choices] == ["Warrens · 2026-12-05 18:30 UTC"]
    found = await world.bob.slash(ch, "history", session=choices[0]["value"])
    embed = found.response.embeds[0]
    assert embed.title.endswith("· Warrens")
    assert embed.description.count("\n") == 0 and "23" in embed.description  # its public roll
    gm = await world.alice.slash(ch, "history", session="Warrens")
    assert gm.response.embeds[0].description.count("\n") == 1  # the GM sees the hidden one too
    unknown = await world.bob.slash(ch, "history", session="Nope")
    assert unknown.response.ephemeral and "No session" in unknown.response.content


async def test_a_deleted_channel_gets_the_gms_a_note_once_never_a_loop(world, clock):
    gm_room = world.guild.create_text_channel("gm-room")
    table = world.guild.create_text_channel("table")
    await world.alice.slash(world.channel, "campaign settings", gm_channel=gm_room)
    await plan(world, channel=table)
    world.guild._env.backend.delete_channel(table.id)
    await world.env.settle()
    clock.at(START - timedelta(minutes=10))
    assert await sessions(world).sweep_reminders() == 0
    note = gm_room.last_message
    assert "the reminder for **Warrens** could not be posted" in note.content
    assert await sessions(world).sweep_reminders() == 0
    assert len(gm_room.history()) == 1  # not tried again


async def test_the_day_before_ping_names_the_players_who_have_not_answered(world, clock):
    ch = world.channel
    await world.bob.slash(ch, "character create", name="Ash", sheet="Strength 3; Parry 3")
    await world.carol.slash(ch, "character create", name="Bo", sheet="Strength 1; Parry 2")
    shown = await world.alice.slash(ch, "session settings", ping=True, reminder=30)
    assert "reminder: 30 minutes before the start" in shown.response.content
    assert "the players who have not answered are pinged" in shown.response.content
    planned = await plan(world)
    await world.bob.click(planned.response, label="Maybe")
    clock.at(START - timedelta(days=1, minutes=1))
    assert await sessions(world).sweep_reminders() == 0
    clock.at(START - timedelta(hours=20))
    assert await sessions(world).sweep_reminders() == 1
    ping = world.channel.last_message
    assert ping.content.startswith("📅 **Warrens** is <t:")
    assert f"Not answered yet: <@{world.carol.id}> (" in ping.content
    assert await sessions(world).sweep_reminders() == 0  # once
    clock.at(START - timedelta(minutes=30))
    assert await sessions(world).sweep_reminders() == 1  # then the reminder


async def test_interest_on_the_event_is_an_answer_and_taking_it_back_withdraws_it(world, clock):
    planned = await plan(world)
    [event] = events(world)
    backend = world.guild._env.backend
    backend.set_scheduled_event_subscription(world.guild.id, event.id, world.bob.id, True)
    await world.env.settle()  # the gateway event reaches the bot (bob is not in its cache)
    shown = await world.alice.slash(world.channel, "session next")
    assert f"✅ Coming (1): <@{world.bob.id}>" in shown.response.content
    # Carol answered by button: her interest marked and taken back leaves her answer.
    await world.carol.click(planned.response, label="Coming")
    backend.set_scheduled_event_subscription(world.guild.id, event.id, world.carol.id, True)
    backend.set_scheduled_event_subscription(world.guild.id, event.id, world.carol.id, False)
    backend.set_scheduled_event_subscription(world.guild.id, event.id, world.bob.id, False)
    await world.env.settle()
    shown = await world.alice.slash(world.channel, "session next")
    assert f"✅ Coming (1): <@{world.carol.id}>" in shown.response.content
    clock.at(START - timedelta(minutes=15))
    backend.set_scheduled_event_subscription(world.guild.id, event.id, world.bob.id, True)
    await world.env.settle()
    assert await sessions(world).sweep_reminders() == 1
    reminder = world.channel.last_message.content
    assert reminder.endswith(f"Coming: <@{world.bob.id}>, <@{world.carol.id}>")


async def test_the_recap_names_the_luckiest_and_unluckiest_rolls_and_the_shown_conditions(
    world, clock
):
    ch = world.channel
    await world.bob.slash(ch, "character create", name="Ash", sheet="Strength 3; Parry 3")
    await plan(world)
    await world.alice.slash(ch, "session start")
    parry = {"attr_name": "Strength", "skill_name": "Parry"}
    # Ash adds 6: against 20, a 20 is 3 DoS (1 in 20) and a 3 is 5 DoF (1 in 5 fail so badly);
    # against 8, a 12 is 5 DoS (9 in 20) and a 1 the only failure (1 in 20).
    world.dice.push(20, 12, 3, 1, 2)
    for target in (20, 8, 20, 8):
        await world.bob.slash(ch, "check", **parry, vs=target)
    await world.bob.slash(ch, "check", **parry, vs=20, private=True)  # 8: a hidden roll, out
    await world.alice.slash(ch, "fight start", name="Ambush")
    world.dice.push(15)
    await world.bob.slash(ch, "fight join")
    await world.alice.slash(ch, "fight effect", combatant="Ash", name="Prone", modifier=-2)
    await world.alice.slash(ch, "fight effect", combatant="Ash", name="Blessed", modifier=1)
    await world.alice.slash(ch, "fight effect", combatant="Ash", name="Cursed", hidden=True)
    await world.alice.slash(ch, "fight cure", combatant="Ash", name="Prone")
    await world.alice.slash(ch, "health damage", target="Ash", amount=30)  # down
    await world.alice.slash(ch, "health heal", target="Ash", amount=30)  # up again
    await world.alice.slash(ch, "fight end")
    ended = await world.alice.slash(ch, "session end")
    [draft] = ended.followups
    lines = draft.content.splitlines()
    assert "- Conditions: Prone on Ash (ended); Blessed on Ash" in lines
    assert "Cursed" not in draft.content  # a GM's hidden condition
    assert "- Went down: Ash" in lines  # though up again at the fight's end
    assert "Best roll: **Ash**, 18 against 8, 5 DoS" in lines  # by degrees
    assert "Worst roll: **Ash**, 9 against 20, 5 DoF" in lines
    assert (  # by the odds
        "Luckiest roll: **Ash**, 26 against 20, 3 DoS (better than 98% of throws with its odds)"
        in lines
    )
    assert (
        "Unluckiest roll: **Ash**, 7 against 8, 0 DoF (worse than 98% of throws with its odds)"
        in lines
    )
    assert "8 against 20" not in draft.content  # the hidden roll is in no line
