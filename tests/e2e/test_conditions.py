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
