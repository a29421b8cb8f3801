"""The second evening's seams (issue 31) through the real bot.py, in English and German.

The GM runs a new campaign; Aria plays from an English client, Bram (Jorun) from a German one.
Sheets made with their stats are not told to add them; in a fight against two goblin copies an
attack naming the goblin's sheet is refused with the copies to choose from, and hits the one
still standing once the other is down; a heal at full health says nothing was healed; who the
GMs are is explained on each player's first GMs-only refusal, then the refusals are short and
/campaign info says it; the panel's refusal names the panel; /me is done, not said; the defence
odds say which defence stats a sheet lacks. ``WIRE_E2E_TRANSCRIPT=path`` writes every reply.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import LaunchBot
from .standin import Fakecord
from .test_fight import GM
from .test_quick_evening import (
    ARIA,
    ARIA_SHEET,
    BRAM,
    JORUN_SHEET,
    QuickEvening,
    custom_id,
    play,
    speak,
)
from .test_wirebot import field

pytestmark = pytest.mark.e2e

SHORT_EN = "(`/campaign info` names its GMs)."
SHORT_DE = "(`/kampagne info` nennt ihre Chronisten)."


async def test_the_seams_of_the_second_evening_in_two_languages(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path
) -> None:
    await play(standin, launch_bot, tmp_path / "wire.db", seams)


async def seams(table: QuickEvening, bot: Any) -> Any:
    c, ask = table.command, table.ask

    # ---- sheets made with their stats ----------------------------------------------------------
    await c("campaign", {"name": "Moorland"}, sub="create")
    made = await c("character", {"name": "Aria", "sheet": ARIA_SHEET}, by=ARIA, sub="create")
    assert made.content == (
        "Created **Aria** in Moorland. Add weapons with `/character weapon`; **Edit** below "
        "changes its stats."
    )
    made = await c("character", {"name": "Jorun", "sheet": JORUN_SHEET}, by=BRAM, sub="create")
    assert made.content == (
        "**Jorun** in Moorland erstellt. Waffen mit `/charakter waffe`; **Bearbeiten** unten "
        "ändert seine Werte."
    )
    goblin = await ask("character", {"name": "Goblin", "npc": True,
                                     "sheet": "Strength 1; Parry 2"}, sub="create")  # fmt: skip
    assert goblin.ephemeral and goblin.content.startswith(
        "Created NPC **Goblin** in Moorland. Add weapons with"
    )
    bare = await ask("character", {"name": "Imp", "npc": True}, sub="create")
    assert "Add stats with **Edit** below" in bare.content
    await ask("character", {"weapon": "Sword", "base": 5, "attribute": "Strength",
                            "skill": "Swords"}, by=ARIA, sub="weapon")  # fmt: skip
    await ask("character", {"weapon": "Axt", "base": 5, "attribute": "Stärke",
                            "skill": "Äxte"}, by=BRAM, sub="weapon")  # fmt: skip

    # ---- the fight: the goblin's sheet is attacked as a copy -----------------------------------
    started = await c("fight", {"name": "Ambush"}, sub="start")
    table.tracker_id = started.message_id
    await c("fight", {"initiative": 18}, by=ARIA, sub="join")
    await c("fight", {"initiative": 15}, by=BRAM, sub="join")
    await ask("fight", {"npc": "Goblin", "count": 2, "initiative": 4}, sub="add")
    await c("fight", sub="next")  # Aria's turn
    refused = await ask("attack", {"weapon": "Sword", "target": "Goblin", "roll": 15}, by=ARIA)
    assert refused.ephemeral and refused.content == (
        "Goblin fights here as **Goblin 1**, **Goblin 2**: attack one of them by its name, and "
        "its damage counts on that one."
    )
    await table.shows(
        lambda: table.line("Goblin 2").endswith("· unhurt") and "Aria" in table.line("Aria"),
        "both goblins unhurt",
    )
    assert table.line("Goblin 1").endswith("· unhurt")
    await ask("health", {"target": "Goblin 1", "amount": 30}, sub="damage")
    await table.shows(lambda: "· down" in table.line("Goblin 1"), "Goblin 1 down")
    hit = await c("attack", {"weapon": "Sword", "target": "Goblin", "roll": 15}, by=ARIA)
    embed = hit.data["embeds"][0]
    assert embed["title"] == "Aria: Attack with Sword on Goblin 2"
    assert field(embed, "Health") == "Goblin 2 is badly wounded."  # 10 of its 20 HP
    await table.shows(lambda: table.line("Goblin 2").endswith("· badly wounded"), "Goblin 2 hit")
    await c("fight", sub="next")  # Jorun's turn
    await ask("health", {"target": "Goblin 2", "amount": 30}, sub="damage")
    refused = await ask("attack", {"weapon": "Axt", "target": "Goblin"}, by=BRAM)
    assert refused.content.startswith(
        "Goblin kämpft hier als **Goblin 1**, **Goblin 2**, alle schon außer Gefecht"
    )

    # ---- a heal at full health ---------------------------------------------------------------
    full = await c("health", {"target": "Aria", "amount": 5}, by=ARIA, sub="heal")
    assert full.content == "Aria has full HP already (21 of 21): nothing was healed."
    full = await c("health", {"target": "Jorun", "amount": 5}, by=BRAM, sub="heal")
    assert full.content == "Jorun hat schon volle LP (22 von 22): Es wurde nichts geheilt."

    # ---- the GMs explained once, then short refusals that name what was refused ---------------
    first = await ask("panel", {"npc": "Goblin"}, by=BRAM)
    assert first.content == (
        "Nur ein Chronist von Moorland kann die Schnellaktionen eines NSC öffnen. Ihre "
        f"Chronisten sind <@{GM}> und alle mit „Server verwalten“; ein Chronist macht andere mit "
        "`/kampagne chronist hinzufügen` zu Chronisten."
    )
    again = await ask("say", {"text": "Grr", "as": "Goblin"}, by=BRAM)
    assert again.content == f"Nur ein Chronist von Moorland kann als NSC sprechen {SHORT_DE}"
    first = await ask("cp", {"amount": 5, "reason": "loot", "characters": "Aria"}, by=ARIA,
                      sub="award")  # fmt: skip
    assert first.content.startswith("Only a GM of Moorland can award CP. Its GMs are ")
    assert first.content.endswith("a GM makes others GMs with `/campaign gm add`.")
    refusals = [
        await ask("panel", {"npc": "Goblin"}, by=ARIA),
        await ask("health", {"target": "Goblin 2", "amount": 5}, by=ARIA, sub="damage"),
    ]
    assert [r.content for r in refusals] == [
        f"Only a GM of Moorland can open an NPC's panel {SHORT_EN}",
        f"Only a GM of Moorland can change Goblin 2's health {SHORT_EN}",
    ]
    info = await ask("campaign", by=ARIA, sub="info")
    assert field(info.data["embeds"][0], "GMs") == (
        f"<@{GM}> and everyone with Manage Server (`/campaign gm add` names more)"
    )

    # ---- an emote is done, not said -----------------------------------------------------------
    assert await speak(table, "me", {"text": "nods"}, by=ARIA) == "Done as **Aria**."
    assert await speak(table, "me", {"text": "nickt"}, by=BRAM) == "Als **Jorun** getan."
    assert await speak(table, "say", {"text": "Ja."}, by=BRAM) == "Als **Jorun** gesagt."

    # ---- the defence odds say what the sheet lacks --------------------------------------------
    panel = await ask("panel", by=ARIA)
    odds = await table.press(custom_id(panel.data, "Defence odds"), panel.message_id, by=ARIA)
    assert odds.content.splitlines()[-2:] == [
        "Dodge is not on Aria's sheet, so it counts 0.",
        "Add a stat with /character set (a skill at 0 is untrained).",
    ]
    panel = await ask("panel", by=BRAM)
    odds = await table.press(custom_id(panel.data, "Abwehrchancen"), panel.message_id, by=BRAM)
    assert "Ausweichen steht nicht auf dem Bogen von Jorun und zählt deshalb 0." in odds.content
    return bot
