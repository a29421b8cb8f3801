"""The tracker through the real bot.py keeps one language over everyone's edits: the table's
(the campaign's fixed one, else the server's preferred locale), whoever's interaction writes
it, while what one person reads speaks theirs (issue 20).

An English GM and a German player: each join, add, Next press and /fight next edits the same
tracker message, through ``PATCH`` after a command and through UPDATE_MESSAGE on a press.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import LaunchBot
from .standin import CALLBACK_UPDATE_MESSAGE, MANAGER_PERMISSIONS, Fakecord
from .test_fight import GM, PLAYER_A, Table
from .test_wirebot import assert_healthy, start_wire, stop_wire

pytestmark = pytest.mark.e2e

LOCALES = {PLAYER_A: "de"}
"""The German player's client; the GM's is English."""


class MixedTable(Table):
    """The fight's table, each member's interactions in their client's language."""

    def payload(
        self, name: str, options: dict[str, Any] | None = None, *, by: int = GM, sub: str | None
    ) -> dict[str, Any]:
        perms = {"permissions": MANAGER_PERMISSIONS} if by == GM else {}
        return self.standin.command_interaction(
            name, options or {}, subcommand=sub, user_id=by, locale=LOCALES.get(by, "en-US"),
            **perms,
        )  # fmt: skip

    def press_payload(self, custom_id: str, message_id: int, *, by: int = GM) -> dict[str, Any]:
        perms = {"permissions": MANAGER_PERMISSIONS} if by == GM else {}
        return self.standin.component_interaction(
            custom_id, message_id, user_id=by, locale=LOCALES.get(by, "en-US"), **perms
        )

    def label(self) -> str:
        components = self.standin.messages[self.tracker_id]["components"]
        [label] = [c["label"] for row in components for c in row["components"]]
        return label


async def test_the_tracker_keeps_the_tables_language_over_an_english_gm_and_a_german_player(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path
) -> None:
    bot = await start_wire(standin, launch_bot, tmp_path / "wire.db")
    table = MixedTable(standin)
    c = table.command
    await c("character", {"name": "Aria"}, by=PLAYER_A, sub="create", public=False)
    await c("character", {"name": "Goblin", "npc": True}, sub="create", public=False)
    started = await c("fight", {"name": "Ambush"}, sub="start")
    table.tracker_id = started.message_id
    joined = await c("fight", {"initiative": 18}, by=PLAYER_A, sub="join")
    assert joined.content.startswith("**Aria**")  # her own one-off answer, in German
    assert "Initiative 18" in joined.content and "Reaktion" in joined.content
    await table.shows(lambda: bool(table.line("Aria")), "Aria")
    assert table.tracker()["title"] == "⚔️ Ambush: round 1"  # her edit kept the server's
    assert table.label() == "Next turn"
    await c("fight", {"npc": "Goblin", "initiative": 4}, sub="add", public=False)
    await table.shows(lambda: bool(table.line("Goblin")), "the goblin")
    begun = await c("fight", sub="next")
    assert begun.content == f"Round 1: **Aria** (<@{PLAYER_A}>)'s turn."
    await table.turn_of("Aria", 1)

    pressed = await table.press_next(by=PLAYER_A)  # the German player's press
    assert pressed.type == CALLBACK_UPDATE_MESSAGE
    assert pressed.embeds[0]["title"] == "⚔️ Ambush: round 1"
    labels = [x["label"] for row in pressed.components for x in row["components"]]
    assert labels == ["Next turn"]
    await table.followup("Round 1: **Goblin**'s turn.")
    refused = await c("fight", by=PLAYER_A, sub="next", public=False)
    assert refused.ephemeral  # hers alone: German
    assert (
        refused.content == "Goblin ist dran: nur wer ihn spielt oder ein Chronist beendet den Zug."
    )

    # The owner makes it a German Community server: the table's language from now on, for
    # the English GM's edits as much as the player's.
    standin.guilds[0].locale = "de"
    turn = await c("fight", sub="next")
    assert turn.content.startswith("Runde 2 beginnt: **Aria**")
    await table.shows(lambda: table.tracker()["title"] == "⚔️ Ambush: Runde 2", "Runde 2")
    assert table.label() == "Nächster Zug"
    pressed = await table.press_next(by=PLAYER_A)
    assert pressed.embeds[0]["title"] == "⚔️ Ambush: Runde 2"
    await table.followup("Runde 2: **Goblin** ist dran.")
    pressed = await table.press_next(by=GM)  # the English GM's press
    assert pressed.embeds[0]["title"] == "⚔️ Ambush: Runde 3"
    assert [x["label"] for row in pressed.components for x in row["components"]] == ["Nächster Zug"]
    wrong = await c("fight", {"npc": "Nobody"}, sub="add", public=False)
    assert wrong.ephemeral and "Nobody" in wrong.content and "Kein" not in wrong.content
    await stop_wire(bot)
    assert_healthy(standin, bot)
