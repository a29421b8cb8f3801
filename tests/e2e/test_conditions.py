"""Conditions through the real bot.py, in two languages: a prone goblin's parry is worse, a
blessed player's attack better, a condition ends on its turn and the turn line says so, a hidden
one stays off the channel's tracker, and all of it after a restart.

The scene is test_fight.py's table (Aria, Bram, three goblins taking 10); the conditions are a
table's own, made up for the test: WIRE defines none.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import LaunchBot
from .standin import CALLBACK_CHANNEL_MESSAGE, MANAGER_PERMISSIONS, Fakecord
from .test_advancement import ARIA, BRAM, open_evening
from .test_fight import GM, PLAYER_A, WAIT, Table, damage_of, set_the_table
from .test_wirebot import assert_healthy, field, start_wire, stop_wire

pytestmark = pytest.mark.e2e


async def in_german(table: Table, name: str, options: dict, sub: str):
    """A GM's command from a German client (the names Discord sends back are the English)."""
    payload = table.standin.command_interaction(
        name, options, subcommand=sub, user_id=GM, locale="de", permissions=MANAGER_PERMISSIONS
    )
    cb = await table.standin.send_interaction(payload, timeout=WAIT)
    assert cb.type == CALLBACK_CHANNEL_MESSAGE, (cb.type, cb.data)
    return cb


async def test_conditions_change_the_rolls_and_end_on_their_turn(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path
) -> None:
    db = tmp_path / "wire.db"
    bot = await start_wire(standin, launch_bot, db)
    table = Table(standin)
    c = table.command
    await set_the_table(table)
    await c("fight", sub="next")
    await table.turn_of("Aria", 1)

    # The GM (a German client) names the table's Prone and puts it on Goblin 2 by name.
    saved = await in_german(table, "condition", {"name": "Liegend", "modifier": -2,
                            "applies_to": "defence", "rounds": 1}, "save")  # fmt: skip
    assert (
        saved.ephemeral and saved.content == "Gespeichert: Liegend -2 alle Abwehren, für 1 Runde."
    )
    put = await in_german(table, "fight", {"combatant": "Goblin 2", "name": "liegend"}, "effect")
    assert put.content == "**Goblin 2**: Liegend -2 alle Abwehren, für 1 Runde."
    await table.shows(lambda: "Liegend -2 all defences (1)" in table.line("Goblin 2"),
                      "Goblin 2 prone, in the table's English")  # fmt: skip

    # Aria: 6 + 3 + 5 = 14 against the prone goblin's 10 + 1 + 2 - 2 = 11: 1 DoS, 6 damage
    # (13 and 5 damage without it, as test_fight.py's first blow shows).
    hit = await c("attack", {"weapon": "Sword", "target": "Goblin 2", "roll": 6}, by=PLAYER_A)
    assert field(hit.embeds[0], "Total") == "**14** vs defence 11"
    assert damage_of(hit.embeds[0]) == 6

    # Aria's player may not bless herself: the table has not let players put on conditions.
    own = await c("fight", {"combatant": "Aria", "name": "Blessed", "modifier": 1,
                  "applies_to": "attack"}, by=PLAYER_A, sub="effect", public=False)  # fmt: skip
    assert own.ephemeral and "players_conditions:true" in own.content, own.content
    blessed = await c("fight", {"combatant": "Aria", "name": "Blessed", "modifier": 1,
                      "applies_to": "attack", "rounds": 2}, sub="effect")  # fmt: skip
    assert blessed.content == "**Aria**: Blessed +1 attacks, for 2 rounds."
    # Aria has made her turn's one attack: the GM grants her a second as a reaction.
    granted = await c("fight", {"combatant": "Aria"}, sub="reaction")
    assert "Aria" in granted.content
    hit = await c("attack", {"weapon": "Sword", "target": "Goblin 1", "roll": 6}, by=PLAYER_A)
    assert field(hit.embeds[0], "Modifiers") == "Strength +3, Swords +5, Blessed +1"
    assert field(hit.embeds[0], "Total") == "**15** vs defence 13"

    enraged = {"combatant": "Goblin 3", "name": "Enraged", "modifier": 3, "applies_to": "parry"}
    hidden = await c("fight", {**enraged, "hidden": True}, sub="effect", public=False)
    assert hidden.ephemeral
    await table.shows(lambda: "Blessed +1 attacks (2)" in table.line("Aria"), "Aria blessed")
    assert "Enraged" not in table.tracker()["description"]

    # A restart: the conditions are rows; the countdown goes on where it was.
    await stop_wire(bot)
    bot = await start_wire(standin, launch_bot, db, expect_sync=False)
    await c("fight", by=PLAYER_A, sub="next")  # Aria's turn ends: Blessed 1 left
    await table.turn_of("Bram", 1)
    await table.shows(lambda: "Blessed +1 attacks (1)" in table.line("Aria"), "Blessed 1 left")
    await c("fight", sub="next")  # Goblin 1
    await c("fight", sub="next")  # Goblin 2
    ended = await c("fight", sub="next")  # Goblin 2's turn ends: its one round is over
    assert ended.content == "Round 1: **Goblin 3**'s turn.\nLiegend on Goblin 2 has ended."
    await table.shows(lambda: "Liegend" not in table.line("Goblin 2"), "Prone gone")
    assert_healthy(standin, bot)
    await stop_wire(bot)


async def test_conditions_on_characters_outside_a_fight_in_two_languages(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path
) -> None:
    """A GM blesses Aria and lays the goblin low outside any fight: her attack and the goblin's
    parry change by them, the sheet lists them, a stranger and a player without the table's
    leave are refused (Bram reads German), the setting lets Aria mark herself, and a fight
    takes Aria's conditions in and ends the one counted in rounds. Every reply is written to
    WIRE_E2E_REPLIES (else beside the database) and read here."""
    db = tmp_path / "wire.db"
    bot, t = await open_evening(standin, launch_bot, db)
    c = t.command
    await c("character", {"name": "Aria"}, by=ARIA, sub="create")
    for kind, stat, value in (("attribute", "Strength", 3), ("skill", "Swords", 5)):
        await c("character", {kind: stat, "value": value}, by=ARIA, sub="set")
    await c("character", {"weapon": "Sword", "base": 5, "attribute": "Strength",
                          "skill": "Swords"}, by=ARIA, sub="weapon")  # fmt: skip
    await c("character", {"name": "Bram"}, by=BRAM, sub="create")
    await c("character", {"name": "Goblin", "npc": True}, sub="create")
    await c("character", {"name": "Goblin", "attribute": "Strength", "value": 1}, sub="set")
    await c("character", {"name": "Goblin", "skill": "Parry", "value": 2}, sub="set")

    blessed = await c("condition", {"character": "Aria", "name": "Blessed", "modifier": 1,
                      "applies_to": "attack"}, sub="add")  # fmt: skip
    assert blessed.content == "**Aria**: Blessed +1 attacks, until removed (/condition remove)."
    assert not blessed.ephemeral
    hit = await c("attack", {"weapon": "Sword", "vs": 13, "roll": 6}, by=ARIA)
    assert field(hit.embeds[0], "Modifiers") == "Strength +3, Swords +5, Blessed +1"
    assert field(hit.embeds[0], "Total") == "**15** vs defence 13"

    # Bram (a German client) may not mark Aria, nor himself while the table has not let him.
    theirs = await c("condition", {"character": "Aria", "name": "Fluch"}, by=BRAM, sub="add")
    assert theirs.ephemeral and theirs.content.startswith("Nur wer Aria spielt")
    own = await c("condition", {"character": "Bram", "name": "Fokus"}, by=BRAM, sub="add")
    assert own.ephemeral and "spieler_zustände:true" in own.content

    # The GM, now in German, lays the goblin low, hidden: the table sees the parry, not why.
    t.locales[GM] = "de"
    low = await c("condition", {"character": "Goblin", "name": "Liegend", "modifier": -2,
                  "applies_to": "parry", "hidden": True}, sub="add")  # fmt: skip
    assert low.ephemeral
    assert low.content == (
        "**Goblin**: Liegend -2 Parieren (verdeckt), bis er entfernt wird (/zustand entfernen)."
    )
    hit = await c("attack", {"weapon": "Sword", "target": "Goblin", "roll": 6}, by=ARIA)
    assert field(hit.embeds[0], "Total") == "**15** vs defence 11"  # 10 + 1 + 2 - 2
    sheet = await c("character", {"name": "Aria"}, by=BRAM, sub="show")
    assert field(sheet.embeds[0], "Zustände") == "Blessed +1 Angriffe"

    settings = await c("campaign", {"players_conditions": True}, sub="settings")
    assert "Spieler auf ihren eigenen" in settings.content
    t.locales[GM] = "en-US"
    mine = await c("condition", {"character": "Aria", "name": "Focused", "modifier": 1,
                   "applies_to": "check", "rounds": 1}, by=ARIA, sub="add")  # fmt: skip
    assert mine.content == (
        "**Aria**: Focused +1 checks, for 1 round once in a fight (it ends with the fight)."
    )

    # Into a fight: Aria's conditions come along; the one in rounds ends with the fight.
    started = await c("fight", {"name": "Ambush"}, sub="start")
    await c("fight", {"initiative": 18}, by=ARIA, sub="join")

    def aria_line() -> str:
        text = standin.messages[started.message_id]["embeds"][0].get("description", "")
        return next((line for line in text.splitlines() if "**Aria**" in line), "")

    await standin.wait_for(
        lambda: "Blessed +1 attacks" in aria_line() and "Focused +1 checks (1)" in aria_line(),
        WAIT,
        "Aria's conditions on the tracker",
    )
    t.write_text("tracker", aria_line())
    await c("fight", sub="end")
    after = await c("character", {"name": "Aria"}, by=ARIA, sub="show")
    assert field(after.embeds[0], "Conditions") == "Blessed +1 attacks"
    gone = await c("condition", {"character": "Aria", "name": "blessed"}, sub="remove")
    assert gone.content == "Blessed on Aria has ended."
    assert_healthy(standin, bot)
    await stop_wire(bot)
    replies = t.dump.read_text(encoding="utf-8")
    assert "Liegend" in replies and "Gesegnet" not in replies
