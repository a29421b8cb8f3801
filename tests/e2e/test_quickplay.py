"""Quick play through the real bot.py: the turn ping's taps, the panel, saved rolls, a restart.

The stand-in sends what Discord's client would: a button press (component type 2) or a pick in
a string select (component type 3, with `values`), only for components the message carries.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cogs.utils.save_button import NAME_INPUT

from .conftest import LaunchBot
from .fakecord.records import FakecordError
from .standin import CALLBACK_CHANNEL_MESSAGE, CALLBACK_MODAL, CALLBACK_UPDATE_MESSAGE, Fakecord
from .test_fight import PLAYER_A, PLAYER_B, WAIT, Table, set_the_table
from .test_wirebot import assert_healthy, check_arithmetic, field, start_wire, stop_wire

pytestmark = pytest.mark.e2e


def components(data: dict[str, Any] | None) -> list[dict[str, Any]]:
    return [c for row in (data or {}).get("components") or [] for c in row["components"]]


def custom_id(data: dict[str, Any] | None, label: str) -> str:
    found = [c["custom_id"] for c in components(data) if c.get("label") == label]
    assert len(found) == 1, (label, components(data))
    return found[0]


def form_box(form: Any) -> dict[str, Any]:
    """The one text input of a form the bot showed, in its label (type 18)."""
    assert form.type == CALLBACK_MODAL, (form.type, form.data)
    [label] = form.data["components"]
    assert label["type"] == 18
    return label["component"]


async def submit(table: Table, form: Any, values: dict[str, str], *, by: int, locale="en-US"):
    payload = table.standin.modal_submit_interaction(
        form.data["custom_id"], values, user_id=by, channel_id=form_channel(table), locale=locale
    )
    return await table.standin.send_interaction(payload, timeout=WAIT)


def form_channel(table: Table) -> int:
    return int(table.standin.messages[table.tracker_id]["channel_id"])


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
    # the likely opponents first (the NPCs, for a player character), then Bram, still offered
    assert [(o["value"], o.get("description")) for o in select["options"]] == [
        ("Goblin 1", "likely an opponent"),
        ("Goblin 2", "likely an opponent"),
        ("Goblin 3", "likely an opponent"),
        ("Bram", "likely an ally"),
    ]
    with pytest.raises(FakecordError, match="not among the select's options"):
        await pick(table, asked.message_id, select["custom_id"], ["Goblin 9"], by=PLAYER_A)
    used = await pick(table, asked.message_id, select["custom_id"], ["Goblin 2"], by=PLAYER_A)
    assert used.type == CALLBACK_UPDATE_MESSAGE and components(used.data) == []  # used up
    hit = await standin.wait_message_event(
        "followup", predicate=lambda e: e.token == used.token, timeout=WAIT
    )
    assert not hit.flags & 64  # the attack, in public
    check_arithmetic(hit.embeds[0])
    assert "Goblin 2" in str(hit.embeds[0])

    # a saved roll, rolled again after the sheet changed
    check = await table.command(
        "check", {"attr_name": "Strength", "skill_name": "Swords", "vs": 10}, by=PLAYER_A
    )
    assert field(check.data["embeds"][0], "Modifiers").startswith("Strength +3")
    stranger = await table.press(custom_id(check.data, "Save"), check.message_id, by=PLAYER_B)
    assert stranger.type == CALLBACK_CHANNEL_MESSAGE and "Only <@" in stranger.content
    form = await table.press(custom_id(check.data, "Save"), check.message_id, by=PLAYER_A)
    assert form.data["title"] == "Save a roll of Aria"
    box = form_box(form)
    assert box["value"] == "check Strength Swords"  # the suggested name, to keep or change
    assert (box["min_length"], box["max_length"]) == (1, 64)
    with pytest.raises(FakecordError, match="this input takes 1 to 64"):
        await submit(table, form, {NAME_INPUT: "x" * 65}, by=PLAYER_A)  # a client cannot
    with pytest.raises(FakecordError, match="no form"):
        await submit(table, form, {NAME_INPUT: "climb"}, by=PLAYER_B)  # not shown to Bram
    saved = await submit(table, form, {NAME_INPUT: "swing"}, by=PLAYER_A)
    assert saved.ephemeral and saved.content.startswith("Saved for Aria as **swing**.")
    form = await table.press(custom_id(check.data, "Save"), check.message_id, by=PLAYER_A)
    clash = await submit(table, form, {NAME_INPUT: "SWING"}, by=PLAYER_A)
    assert clash.ephemeral and clash.content.startswith("Aria already has a saved roll named")
    named = await table.command("save", {"name": "swing"}, by=PLAYER_A, public=False)
    assert "in place of the roll saved under that name" in named.content
    await table.command("character", {"attribute": "Strength", "value": 5}, by=PLAYER_A,
                        sub="set", public=False)  # fmt: skip
    again = await table.command("r", {"name": "swing", "mod": 1}, by=PLAYER_A)
    assert field(again.data["embeds"][0], "Modifiers").startswith("Strength +5")
    panel = await table.command("panel", by=PLAYER_A, public=False)
    assert panel.ephemeral and custom_id(panel.data, "🎲 swing")
    sheet_shown = await table.command("character", by=PLAYER_A, sub="show")
    assert [c["label"] for c in components(sheet_shown.data)] == ["Edit", "Panel"]
    on_sheet = custom_id(sheet_shown.data, "Panel")
    stranger = await table.press(on_sheet, sheet_shown.message_id, by=PLAYER_B)
    assert stranger.ephemeral and "only its player can use them" in stranger.content

    # a restart: the panel and the ping still answer, from the sheet as it is now
    await stop_wire(bot)
    bot = await start_wire(standin, launch_bot, db, expect_sync=False)
    again = await table.press(on_sheet, sheet_shown.message_id, by=PLAYER_A)
    assert again.ephemeral and again.content.startswith("**Aria**: quick actions, for you alone.")
    assert custom_id(again.data, "🎲 swing")
    form = await table.press(custom_id(check.data, "Save"), check.message_id, by=PLAYER_A)
    kept = await submit(table, form, {NAME_INPUT: "after the restart"}, by=PLAYER_A)
    assert kept.content.startswith("Saved for Aria as **after the restart**.")
    odds = await table.press(custom_id(panel.data, "Defence odds"), panel.message_id, by=PLAYER_A)
    assert odds.content.splitlines()[1:] == [
        "• **Bram**: d20 +6 with Cudgel",
        "Parry (d20 +7): 52.5% against **Bram**",  # Strength 5 now: d - a >= 0, 210 pairs
        "Dodge (d20 +2): 30% against **Bram**",
        "Not shown: **Goblin 1**, **Goblin 2**, **Goblin 3**, whose sheets are for the GMs' eyes.",
        "Dodge is not on Aria's sheet, so it counts 0.",
        "Add a stat with /character set (a skill at 0 is untrained).",
    ]
    gm_panel = await table.command("panel", {"npc": "Goblin 1"}, public=False)
    assert gm_panel.content.startswith("**Goblin 1**: quick actions")
    odds = await table.press(custom_id(gm_panel.data, "Defence odds"), gm_panel.message_id)
    assert odds.content.splitlines()[1:4] == [
        "• **Aria**: d20 +10 with Sword",  # Strength 5 now
        "• **Bram**: d20 +6 with Cudgel",
        "Goblin 1 takes 10 to defend, as this table's NPCs do.",
    ]
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
    await table.command("fight", sub="next")  # Aria's turn: she may attack
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
    assert [(o["label"], o.get("description")) for o in components(asked.data)[0]["options"]] == [
        ("Goblin 1", "wohl ein Gegner"),
        ("Goblin 2", "wohl ein Gegner"),
        ("Goblin 3", "wohl ein Gegner"),
        ("Bram", "wohl verbündet"),
    ]
    press = standin.component_interaction(
        custom_id(panel.data, "Abwehrchancen"), panel.message_id, user_id=PLAYER_A, locale="de"
    )
    odds = await standin.send_interaction(press, timeout=WAIT)
    # Against Bram's best weapon (cudgel and dagger both +6: the first listed), both rolling:
    # parry +5 holds when d - a >= 2, 171 of 400 pairs (42.75 %, half to even); dodge +2 when
    # d - a >= 5, 120 pairs.
    assert odds.content.splitlines() == [
        "**Aria**: die Chancen jeder Abwehr gegen jeden Angreifer in **Ambush**, mit der besten "
        "Waffe auf seinem Bogen (bei Gleichstand gewinnt der Angreifer)",
        "• **Bram**: d20 +6 mit Cudgel",
        "Parieren (d20 +5): 42,8\u00a0% gegen **Bram**",  # Babel: a no-break space
        "Ausweichen (d20 +2): 30\u00a0% gegen **Bram**",
        "Nicht gezeigt: **Goblin 1**, **Goblin 2**, **Goblin 3**, deren Bögen nur für Chronisten "
        "sind.",
        "Ausweichen steht nicht auf dem Bogen von Aria und zählt deshalb 0.",
        "Füge einen Wert mit /charakter setzen hinzu (eine Fertigkeit auf 0 ist ungeübt).",
    ]
    payload = standin.command_interaction(
        "character", {}, subcommand="show", user_id=PLAYER_A, locale="de"
    )
    sheet = await standin.send_interaction(payload, timeout=WAIT)
    assert [c["label"] for c in components(sheet.data)] == ["Bearbeiten", "Aktionen"]
    press = standin.component_interaction(
        custom_id(sheet.data, "Aktionen"), sheet.message_id, user_id=PLAYER_A, locale="de"
    )
    opened = await standin.send_interaction(press, timeout=WAIT)
    assert opened.ephemeral and opened.content.startswith("**Aria**: Schnellaktionen")
    payload = standin.command_interaction(
        "check", {"attr_name": "Strength", "skill_name": "Swords", "vs": 10}, user_id=PLAYER_A,
        locale="de",
    )  # fmt: skip
    check = await standin.send_interaction(payload, timeout=WAIT)
    press = standin.component_interaction(
        custom_id(check.data, "Speichern"), check.message_id, user_id=PLAYER_A, locale="de"
    )
    form = await standin.send_interaction(press, timeout=WAIT)
    assert form.data["title"] == "Einen Wurf von Aria speichern"
    [label] = form.data["components"]
    assert (label["label"], label["description"]) == ("Name", "Erneut würfeln mit /w name:")
    saved = await submit(table, form, {NAME_INPUT: "Hieb"}, by=PLAYER_A, locale="de")
    assert saved.content.startswith("Für Aria als **Hieb** gespeichert")
    assert_healthy(standin, bot)
    await stop_wire(bot)
