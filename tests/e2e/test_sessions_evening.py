"""A session's evening through the real bot.py (issue 33): planned with its Discord event,
answered by two players, reminded once across restarts, played (a fight, a hidden roll), ended,
recapped in a thread without the hidden roll, CP awarded from the recap, `/session next` in
German. Bounded: some thirty interactions and three starts of the bot.
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
from .test_advancement import ARIA, BRAM, Table
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


async def test_an_evening_planned_reminded_played_and_recapped(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path
) -> None:
    db = tmp_path / "wire.db"
    bot = await start_wire(standin, launch_bot, db)
    t = Table(standin)
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

    # ---- two players answer; each press is theirs ----------------------------------------------
    coming = button(planned.components, "Coming")
    answered = await t.press(coming, planned.message_id, by=ARIA)
    answered = await t.press(coming, planned.message_id, by=BRAM)
    assert answered.type == CALLBACK_UPDATE_MESSAGE
    assert f"Coming (2): <@{ARIA}>, <@{BRAM}>" in answered.content, answered.content

    # ---- reminded once: by whichever process sweeps first, never again after a restart ---------
    bot = await restart(standin, launch_bot, bot, db)
    await standin.wait_for(lambda: reminders(standin) or None, 15.0, "the reminder")
    [reminder] = reminders(standin)
    assert reminder.content == f"⏰ **Warrens** starts <t:{stamp}:R>. Coming: <@{ARIA}>, <@{BRAM}>"
    bot = await restart(standin, launch_bot, bot, db)
    await asyncio.sleep(3.0)  # the new process's first sweep has run
    assert len(reminders(standin)) == 1

    # ---- played: a fight and a hidden roll -----------------------------------------------------
    begun = await t.command("session", sub="start")
    assert "**Warrens** has begun" in begun.content
    await standin.wait_for(  # the event is live
        lambda: standin.guild_events(DEFAULT_GUILD_ID)[0]["status"] == 2 or None, WAIT, "live"
    )
    await t.command("fight", {"name": "Ambush"}, sub="start")
    await t.command("fight", {"initiative": 18}, by=ARIA, sub="join")
    parry = {"attr_name": "Strength", "skill_name": "Parry", "vs": 13}
    await t.command("check", {**parry, "roll": 15}, by=ARIA)
    hidden, _ = await t.send("check", {**parry, "roll": 2, "private": True}, by=BRAM)
    assert hidden.ephemeral
    await t.command("fight", sub="end")

    # ---- ended: the draft, edited as is, posted in a thread without the hidden roll ------------
    events = len(standin.message_events)
    ended = await t.command("session", sub="end")
    assert "**Warrens** is over" in ended.content
    draft = await standin.wait_for(
        lambda: next(
            (e for e in standin.message_events[events:] if "recap's draft" in (e.content or "")),
            None,
        ),
        WAIT,
        "the recap's draft",
    )
    assert "Who played: Jaime" in draft.content and "Jorun" not in draft.content, draft.content
    assert (
        "Ambush" in draft.content and "Best roll: **Jaime**, 21 against 13, 4 DoS" in draft.content
    )
    components = draft.message["components"]
    shown = await t.press(button(components, "Edit and post"), draft.message_id)
    assert shown.type == CALLBACK_MODAL, shown.data
    recap = text_inputs(shown.data)[RECAP_INPUT]["value"]
    assert "Jorun" not in recap and "Jaime" in recap
    submit = standin.modal_submit_interaction(
        shown.data["custom_id"],
        {RECAP_INPUT: recap},
        user_id=GM,
        channel_id=DEFAULT_CHANNEL_ID,
        permissions=t._extra(GM)["permissions"],
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
    assert thread_post.channel_id == head.message_id  # a thread started from the head line

    # ---- CP from the recap's panel, once -------------------------------------------------------
    award = button(thread_post.message["components"], "Award CP")
    shown = await t.press(award, thread_post.message_id)
    assert text_inputs(shown.data)[NAMES_INPUT]["value"] == "Jaime"
    submit = standin.modal_submit_interaction(
        shown.data["custom_id"],
        {AMOUNT_INPUT: "10", NAMES_INPUT: "Jaime"},
        user_id=GM,
        channel_id=thread_post.channel_id,
        permissions=t._extra(GM)["permissions"],
    )
    awarded = await standin.send_interaction(submit, timeout=WAIT)
    assert awarded.content.splitlines()[0] == "+10 CP: Warrens", awarded.content
    assert "**Jaime**: CP earned 10" in awarded.content

    # ---- between sessions, in German -----------------------------------------------------------
    later = start + timedelta(days=7)
    options = {"title": "Tunnels", "date": f"{later:%Y-%m-%d}", "time": f"{later:%H:%M}"}
    await t.command("session", options, sub="plan")
    shown = await t.command("session", by=BRAM, sub="next")
    assert shown.ephemeral and "**Tunnels**" in shown.content
    assert "3 Stunden" in shown.content and "Komme (0)" in shown.content, shown.content
    assert_healthy(standin, bot)
