"""A session's evening through the real bot.py (issue 33), in English and in German: planned
with its Discord event, answered by two players by button and a third by marking interest on
the event, reminded once across restarts, played (a fight with a shown and a hidden condition, a
hidden roll), ended, recapped in a thread without the hidden roll or condition, with the
luckiest and unluckiest rolls by the odds, CP awarded from the recap, `/session next` after.
Bounded: some forty interactions and three starts of the bot a language. Every reply is
written to WIRE_E2E_REPLIES (or beside the database) to be read.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from .conftest import LaunchBot
from .standin import (
    CALLBACK_DEFERRED_CHANNEL_MESSAGE,
    CALLBACK_MODAL,
    CALLBACK_UPDATE_MESSAGE,
    DEFAULT_CHANNEL_ID,
    DEFAULT_GUILD_ID,
    Fakecord,
)
from .test_advancement import ARIA, BRAM, CARA, open_evening
from .test_evening import button
from .test_fight import GM, WAIT
from .test_wirebot import assert_healthy, start_wire, stop_wire
from .wire_support import plain_log

pytestmark = pytest.mark.e2e

RECAP_INPUT = "wire:ses:recap:text"
AMOUNT_INPUT = "wire:ses:award:amount"
NAMES_INPUT = "wire:ses:award:names"


def text_inputs(modal: dict[str, Any]) -> dict[str, Any]:
    """A shown form's text inputs by custom id (inside its labels)."""
    found: dict[str, Any] = {}
    for item in modal.get("components", []):
        inner = item.get("component") or {}
        if "custom_id" in inner:
            found[inner["custom_id"]] = inner
    return found


SAID = {
    "en": {
        "coming": "Coming",
        "reminder": "⏰ **Warrens** starts <t:{stamp}:R>. Coming: ",
        "begun": "**Warrens** has begun",
        "over": "**Warrens** is over",
        "draft": "recap's draft",
        "played": "Who played: Jaime",
        "best": "Best roll: **Jaime**, 21 against 13, 4 DoS (better than 75%",
        "worst": "Worst roll: **Jaime**, 8 against 13, 2 DoF (worse than 90%",
        "luckiest": "Luckiest roll",
        "conditions": "- Conditions: Prone on Jaime (ended)",
        "prone": "Prone",
        "edit": "Edit and post",
        "award": "Award CP",
        "earned": "**Jaime**: CP earned 10",
        "hours": "3 hours",
    },
    "de": {
        "coming": "Komme",
        "reminder": "⏰ **Warrens** beginnt <t:{stamp}:R>. Es kommen: ",
        "begun": "**Warrens** hat begonnen",
        "over": "**Warrens** ist vorbei",
        "draft": "Entwurf des Rückblicks",
        "played": "Wer gespielt hat: Jaime",
        "best": "Bester Wurf: **Jaime**, 21 gegen 13, 4 EG (besser als 75",
        "worst": "Schlechtester Wurf: **Jaime**, 8 gegen 13, 2 MG (schlechter als 90",
        "luckiest": "Glücklichster Wurf",
        "conditions": "- Zustände: Liegend auf Jaime (vorbei)",
        "prone": "Liegend",
        "edit": "Bearbeiten und posten",
        "award": "CP vergeben",
        "earned": "**Jaime**: CP erhalten 10",
        "hours": "3 Stunden",
    },
}
"""What the table reads in each language (the server's and every client's)."""


def reminders(standin: Fakecord) -> list[Any]:
    return [e for e in standin.channel_messages if (e.content or "").startswith("⏰ **Warrens**")]


async def restart(standin: Fakecord, launch_bot: LaunchBot, bot: Any, db: Path) -> Any:
    """Stop bot.py and start it again on the same database; ready, its first sweep run."""
    await stop_wire(bot)
    bot = await start_wire(standin, launch_bot, db, expect_sync=False)
    await bot.until(
        standin.wait_for(lambda: "Ready as" in plain_log(bot.output()), 15.0, "ready"), 20
    )
    return bot


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_an_evening_planned_reminded_played_and_recapped(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path, lang: str
) -> None:
    said = SAID[lang]
    locale = "en-US" if lang == "en" else "de"
    standin.guilds[0].locale = locale  # the server's language: the table's posts speak it
    db = tmp_path / "wire.db"
    bot, t = await open_evening(standin, launch_bot, db)
    t.locales = dict.fromkeys(t.locales, locale)
    for who, name in ((ARIA, "Jaime"), (BRAM, "Jorun")):
        sheet = "Strength 3; Parry 3"
        await t.command("character", {"name": name, "sheet": sheet}, by=who, sub="create")

    # ---- planned, with its event; a reminder 30 minutes ahead ---------------------------------
    await t.command("session", {"reminder": 30}, sub="settings")
    start = (datetime.now(UTC) + timedelta(minutes=20)).replace(second=0, microsecond=0)
    options = {"title": "Warrens", "date": f"{start:%Y-%m-%d}", "time": f"{start:%H:%M}"}
    planned = await t.command("session", options, sub="plan")
    stamp = int(start.timestamp())
    assert planned.content.startswith(f"📅 **Warrens**: <t:{stamp}:F>"), planned.content
    [event] = await standin.wait_for(
        lambda: standin.guild_events(DEFAULT_GUILD_ID) or None, WAIT, "the event"
    )
    assert event["name"] == "Warrens" and event["entity_type"] == 3
    assert datetime.fromisoformat(event["scheduled_start_time"]) == start

    # ---- two players answer by button; each press is theirs -----------------------------------
    coming = button(planned.components, said["coming"])
    answered = await t.press(coming, planned.message_id, by=ARIA)
    answered = await t.press(coming, planned.message_id, by=BRAM)
    assert answered.type == CALLBACK_UPDATE_MESSAGE
    assert f"{said['coming']} (2): <@{ARIA}>, <@{BRAM}>" in answered.content, answered.content

    # ---- a third marks interest on the event; Aria's interest taken back leaves her button's ---
    event_id = int(event["id"])
    await standin.add_interested(event_id, CARA)
    await standin.add_interested(event_id, ARIA)
    await standin.remove_interested(event_id, ARIA)
    three = f"{said['coming']} (3): <@{ARIA}>, <@{BRAM}>, <@{CARA}>"
    for _ in range(20):  # the gateway events reach the bot in their own time
        shown = await t.command("session", sub="next")
        if three in shown.content:
            break
        await asyncio.sleep(0.25)
    assert three in shown.content, shown.content

    # ---- reminded once: by whichever process sweeps first, never again after a restart ---------
    bot = await restart(standin, launch_bot, bot, db)
    await standin.wait_for(lambda: reminders(standin) or None, 15.0, "the reminder")
    [reminder] = reminders(standin)
    t.write_text("reminder in the channel", reminder.content)
    expected = said["reminder"].format(stamp=stamp) + f"<@{ARIA}>, <@{BRAM}>, <@{CARA}>"
    assert reminder.content == expected, reminder.content
    bot = await restart(standin, launch_bot, bot, db)
    await asyncio.sleep(3.0)  # the new process's first sweep has run
    assert len(reminders(standin)) == 1

    # ---- played: a fight with a shown and a hidden condition, and a hidden roll ----------------
    begun = await t.command("session", sub="start")
    assert said["begun"] in begun.content, begun.content
    await standin.wait_for(  # the event is live
        lambda: standin.guild_events(DEFAULT_GUILD_ID)[0]["status"] == 2 or None, WAIT, "live"
    )
    await t.command("fight", {"name": "Ambush"}, sub="start")
    await t.command("fight", {"initiative": 18}, by=ARIA, sub="join")
    for name, hidden in ((said["prone"], False), ("Marked", True)):
        effect = {"combatant": "Jaime", "name": name, "hidden": hidden}
        await t.command("fight", effect, sub="effect")
    parry = {"attr_name": "Strength", "skill_name": "Parry", "vs": 13}
    await t.command("check", {**parry, "roll": 15}, by=ARIA)  # 21: 4 DoS
    await t.command("check", {**parry, "roll": 2}, by=ARIA)  # 8: 2 DoF
    hidden, _ = await t.send("check", {**parry, "roll": 2, "private": True}, by=BRAM)
    assert hidden.ephemeral
    await t.command("fight", {"combatant": "Jaime", "name": said["prone"]}, sub="cure")
    await t.command("fight", sub="end")

    # ---- ended: the draft, edited as is, posted in a thread without what was hidden ------------
    events = len(standin.message_events)
    ended = await t.command("session", sub="end")
    assert said["over"] in ended.content, ended.content
    draft = await standin.wait_for(
        lambda: next(
            (e for e in standin.message_events[events:] if said["draft"] in (e.content or "")),
            None,
        ),
        WAIT,
        "the recap's draft",
    )
    t.write_text("the recap's draft", draft.content)
    lines = draft.content.splitlines()
    assert said["played"] in lines and "Jorun" not in draft.content, draft.content
    assert "Ambush" in draft.content, draft.content
    assert said["conditions"] in lines and "Marked" not in draft.content, draft.content
    # The best is the luckiest and the worst the unluckiest here: each named once, with its luck.
    assert any(line.startswith(said["best"]) for line in lines), draft.content
    assert any(line.startswith(said["worst"]) for line in lines), draft.content
    assert said["luckiest"] not in draft.content
    components = draft.message["components"]
    shown = await t.press(button(components, said["edit"]), draft.message_id)
    assert shown.type == CALLBACK_MODAL, shown.data
    recap = text_inputs(shown.data)[RECAP_INPUT]["value"]
    assert "Jorun" not in recap and "Jaime" in recap and "Marked" not in recap
    submit = standin.modal_submit_interaction(
        shown.data["custom_id"],
        {RECAP_INPUT: recap},
        user_id=GM,
        channel_id=DEFAULT_CHANNEL_ID,
        permissions=t._extra(GM)["permissions"],
        locale=locale,
    )
    posted = await standin.send_interaction(submit, timeout=WAIT)
    assert posted.type == CALLBACK_DEFERRED_CHANNEL_MESSAGE
    thread_post = await standin.wait_for(
        lambda: next(
            (
                e
                for e in standin.channel_messages
                if e.embeds and e.embeds[0].get("description") == recap
            ),
            None,
        ),
        WAIT,
        "the recap in its thread",
    )
    head = next(e for e in standin.channel_messages if (e.content or "").startswith("📜"))
    t.write_text("the recap's head line", head.content)
    assert thread_post.channel_id == head.message_id  # a thread started from the head line

    # ---- CP from the recap's panel, once -------------------------------------------------------
    award = button(thread_post.message["components"], said["award"])
    shown = await t.press(award, thread_post.message_id)
    assert text_inputs(shown.data)[NAMES_INPUT]["value"] == "Jaime"
    submit = standin.modal_submit_interaction(
        shown.data["custom_id"],
        {AMOUNT_INPUT: "10", NAMES_INPUT: "Jaime"},
        user_id=GM,
        channel_id=thread_post.channel_id,
        permissions=t._extra(GM)["permissions"],
        locale=locale,
    )
    awarded = t.write("award", await standin.send_interaction(submit, timeout=WAIT))
    assert awarded.content.splitlines()[0] == "+10 CP: Warrens", awarded.content
    assert said["earned"] in awarded.content, awarded.content

    # ---- between sessions ----------------------------------------------------------------------
    later = start + timedelta(days=7)
    options = {"title": "Tunnels", "date": f"{later:%Y-%m-%d}", "time": f"{later:%H:%M}"}
    await t.command("session", options, sub="plan")
    shown = await t.command("session", by=BRAM, sub="next")
    assert shown.ephemeral and "**Tunnels**" in shown.content
    assert said["hours"] in shown.content and f"{said['coming']} (0)" in shown.content
    assert_healthy(standin, bot)
