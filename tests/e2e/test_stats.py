"""/stats through the real bot.py (issue 32): an evening's statistics in English and German,
a hidden roll in no number a player sees, the chart a PNG that decodes, the CSV re-read to the
same numbers."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from wire.chart import WIDTH
from wire.stats import summarise
from wire.stats_csv import read_rolls_csv

from .conftest import LaunchBot
from .standin import CALLBACK_DEFERRED_CHANNEL_MESSAGE, MANAGER_PERMISSIONS, Fakecord, MessageEvent
from .test_fight import GM, PLAYER_A, PLAYER_B, WAIT
from .test_wirebot import assert_healthy, field, start_wire, stop_wire

pytestmark = pytest.mark.e2e

LOCALES = {GM: "en-US", PLAYER_A: "en-GB", PLAYER_B: "de"}


async def ask(standin: Fakecord, name: str, options: dict[str, Any], by: int) -> Any:
    perms = {"permissions": MANAGER_PERMISSIONS} if by == GM else {}
    payload = standin.command_interaction(name, options, user_id=by, locale=LOCALES[by], **perms)
    return payload, await standin.send_interaction(payload, timeout=WAIT)


async def stats(standin: Fakecord, by: int, **options: Any) -> MessageEvent:
    """/stats: deferred, then its answer as a follow-up."""
    after = len(standin.message_events)
    payload, cb = await ask(standin, "stats", options, by)
    assert cb.type == CALLBACK_DEFERRED_CHANNEL_MESSAGE and cb.ephemeral, cb.data

    def found() -> MessageEvent | None:
        events = standin.message_events[after:]
        return next((e for e in events if e.token == payload["token"]), None)

    return await standin.wait_for(found, WAIT, "the /stats answer")


def file_of(event: MessageEvent, name: str) -> bytes:
    return next(f.data for f in event.files if f.filename == name)


async def test_an_evening_of_statistics(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path
) -> None:
    bot = await start_wire(standin, launch_bot, tmp_path / "wire.db")
    for face, by in ((15, PLAYER_A), (20, PLAYER_A), (4, PLAYER_B), (1, PLAYER_B)):
        hidden = by == PLAYER_B and face == 1
        options = {"attr": 2, "skill": 3, "vs": 14, "roll": face, "private": hidden}
        _, cb = await ask(standin, "check", options, by)
        assert cb.ephemeral == hidden, cb.data

    aria = await stats(standin, PLAYER_A, table=True, csv=True)
    [embed] = aria.embeds
    assert embed["title"] == "Dice statistics: the table"
    assert field(embed, "Rolls") == "3: 3 checks"  # Bram's hidden 1 is not among them
    assert field(embed, "Natural 1s / 20s") == "0 / 1"
    assert embed["image"]["url"] == "attachment://stats.png"
    image = Image.open(io.BytesIO(file_of(aria, "stats.png")))
    assert image.width == WIDTH
    rolls = read_rolls_csv(file_of(aria, "rolls.csv").decode("utf-8"))
    again = summarise(rolls)
    assert (again.rolls, again.successes, again.natural_20s) == (3, 2, 1)
    assert embed["description"].startswith("The table rolled better than ")

    bram = await stats(standin, PLAYER_B)
    [embed] = bram.embeds
    assert embed["title"].startswith("Würfelstatistik: ")
    assert field(embed, "Würfe") == "2: 2 Proben"  # his own hidden roll is his to see
    assert "der Abende wie dieser." in embed["description"]

    [gm] = (await stats(standin, GM, table=True)).embeds
    assert field(gm, "Rolls") == "4: 4 checks"
    assert field(gm, "Natural 1s / 20s") == "1 / 1"
    assert_healthy(standin, bot)
    await stop_wire(bot)
