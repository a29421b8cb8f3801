"""Quick play through the real bot.py: the turn ping's taps, the panel, saved rolls, a restart.

The stand-in sends what Discord's client would: a button press (component type 2) or a pick in
a string select (component type 3, with `values`), only for components the message carries.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import LaunchBot
from .fakecord.records import FakecordError
from .standin import CALLBACK_CHANNEL_MESSAGE, Fakecord
from .test_fight import PLAYER_A, PLAYER_B, WAIT, Table, set_the_table
from .test_wirebot import assert_healthy, check_arithmetic, field, start_wire, stop_wire

pytestmark = pytest.mark.e2e


def components(data: dict[str, Any] | None) -> list[dict[str, Any]]:
    return [c for row in (data or {}).get("components") or [] for c in row["components"]]


def custom_id(data: dict[str, Any] | None, label: str) -> str:
    found = [c["custom_id"] for c in components(data) if c.get("label") == label]
    assert len(found) == 1, (label, components(data))
    return found[0]


async def pick(table: Table, message_id: int, select_id: str, values: list[str], *, by: int):
    payload = table.standin.component_interaction(
        select_id, message_id, component_type=3, values=values, user_id=by
    )
    return await table.standin.send_interaction(payload, timeout=WAIT)


async def test_a_turn_with_taps_saved_rolls_and_a_restart(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path
) -> None:
    db = tmp_path / "wire.db"
    bot = await start_wire(standin, launch_bot, db)
    table = Table(standin)
    await set_the_table(table)
    ping = await table.command("fight", sub="next")  # Aria's turn: her quick actions
    assert ping.content.startswith("Round 1: **Aria** (<@")
    sword = custom_id(ping.data, "⚔️ Sword")
    stranger = await table.press(sword, ping.message_id, by=PLAYER_B)
    assert stranger.ephemeral and "only its player can use them" in stranger.content
    asked = await table.press(sword, ping.message_id, by=PLAYER_A)
    assert asked.ephemeral and asked.content == "Whom does **Aria** attack with **Sword**?"
    [select] = components(asked.data)
    assert select["type"] == 3
    assert [o["value"] for o in select["options"]] == ["Bram", "Goblin 1", "Goblin 2", "Goblin 3"]
    with pytest.raises(FakecordError, match="not among the select's options"):
        await pick(table, asked.message_id, select["custom_id"], ["Goblin 9"], by=PLAYER_A)
    hit = await pick(table, asked.message_id, select["custom_id"], ["Goblin 2"], by=PLAYER_A)
    assert hit.type == CALLBACK_CHANNEL_MESSAGE and not hit.ephemeral
    check_arithmetic(hit.data["embeds"][0])
    assert "Goblin 2" in str(hit.data["embeds"][0])

    # a saved roll, rolled again after the sheet changed
    check = await table.command(
        "check", {"attr_name": "Strength", "skill_name": "Swords", "vs": 10}, by=PLAYER_A
    )
    assert field(check.data["embeds"][0], "Modifiers").startswith("Strength +3")
    saved = await table.press(custom_id(check.data, "Save"), check.message_id, by=PLAYER_A)
    assert saved.ephemeral and "**check Strength Swords**" in saved.content
    named = await table.command("save", {"name": "swing"}, by=PLAYER_A, public=False)
    assert "as **swing**" in named.content
    await table.command("character", {"attribute": "Strength", "value": 5}, by=PLAYER_A,
                        sub="set", public=False)  # fmt: skip
    again = await table.command("r", {"name": "swing", "mod": 1}, by=PLAYER_A)
    assert field(again.data["embeds"][0], "Modifiers").startswith("Strength +5")
    panel = await table.command("panel", by=PLAYER_A, public=False)
    assert panel.ephemeral and custom_id(panel.data, "🎲 swing")

    # a restart: the panel and the ping still answer, from the sheet as it is now
    await stop_wire(bot)
    bot = await start_wire(standin, launch_bot, db, expect_sync=False)
    sheet = await table.press(custom_id(panel.data, "Sheet"), panel.message_id, by=PLAYER_A)
    assert sheet.ephemeral and sheet.data["embeds"][0]["title"].startswith("Aria")
    rolled = await table.press(custom_id(panel.data, "🎲 swing"), panel.message_id, by=PLAYER_A)
    assert not rolled.ephemeral
    assert field(rolled.data["embeds"][0], "Modifiers").startswith("Strength +5")
    ended = await table.press(custom_id(ping.data, "End turn"), ping.message_id, by=PLAYER_A)
    assert ended.content.startswith("Round 1: **Bram** (<@")
    late = await table.press(sword, ping.message_id, by=PLAYER_A)
    assert late.ephemeral and "That turn has moved on" in late.content
    history = await table.command("history", by=PLAYER_A, public=False)
    assert "Goblin 2" in str(history.data)
    assert_healthy(standin, bot)
    await stop_wire(bot)


async def test_the_panel_in_german(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path
) -> None:
    bot = await start_wire(standin, launch_bot, tmp_path / "wire.db")
    table = Table(standin)
    await set_the_table(table)
    payload = standin.command_interaction("panel", {}, user_id=PLAYER_A, locale="de")
    panel = await standin.send_interaction(payload, timeout=WAIT)
    assert panel.ephemeral and panel.content.startswith("**Aria**: Schnellaktionen, nur für dich.")
    labels = [c.get("label") for c in components(panel.data)]
    assert labels == ["⚔️ Sword", "Bogen", "Abwehrchancen"]
    press = standin.component_interaction(
        custom_id(panel.data, "⚔️ Sword"), panel.message_id, user_id=PLAYER_A, locale="de"
    )
    asked = await standin.send_interaction(press, timeout=WAIT)
    assert asked.content == "Wen greift **Aria** mit **Sword** an?"
    assert components(asked.data)[0]["placeholder"] == "Ziel wählen"
    press = standin.component_interaction(
        custom_id(panel.data, "Abwehrchancen"), panel.message_id, user_id=PLAYER_A, locale="de"
    )
    odds = await standin.send_interaction(press, timeout=WAIT)
    assert odds.content.startswith("**Aria**: die Chancen jeder Abwehr gegen eine Angriffssumme")
    assert " % gegen 15" in odds.content
    assert_healthy(standin, bot)
    await stop_wire(bot)
