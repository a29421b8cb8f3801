"""SIGTERM while a defence press is in flight: the press is answered and logged, then the
database closes. Presses go through the same in-flight accounting as slash commands."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

from .conftest import LaunchBot
from .standin import CALLBACK_UPDATE_MESSAGE, DEFAULT_USER_ID, Fakecord, FaultRequest
from .test_wirebot import start_wire
from .wire_support import log_problems, plain_log

pytestmark = pytest.mark.e2e

PLAYER_A = DEFAULT_USER_ID + 1
PLAYER_B = DEFAULT_USER_ID + 2
HOLD = 1.5
"""Seconds the stand-in holds the press's answer back (a 429 with this Retry-After)."""


async def test_sigterm_during_a_defence_press_answers_it_then_closes_the_database(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path
) -> None:
    bot = await start_wire(standin, launch_bot, tmp_path / "wire.db")
    send, ci = standin.send_interaction, standin.command_interaction

    def char(sub: str, opts: dict, user: int) -> dict:
        return ci("character", opts, subcommand=sub, user_id=user)

    await send(char("create", {"name": "Aria"}, PLAYER_A))
    weapon = {"weapon": "Sword", "base": 5, "attribute": "Strength", "skill": "Swords"}
    await send(char("weapon", weapon, PLAYER_A))
    await send(char("create", {"name": "Bram"}, PLAYER_B))
    attack = await send(ci("attack", {"weapon": "Sword", "target": "Bram"}, user_id=PLAYER_A))
    parry = next(
        c["custom_id"]
        for row in attack.components
        for c in row["components"]
        if c["custom_id"].endswith(":parry")
    )
    press = standin.component_interaction(parry, attack.message_id, user_id=PLAYER_B)
    press_id = str(press["id"])

    def is_press(req: FaultRequest) -> bool:
        return press_id in req.path

    fault = standin.inject_fault(429, count=1, predicate=is_press, retry_after=HOLD)
    answered = await standin.post_interaction(press)
    await bot.until(standin.wait_for(lambda: fault.hits == 1, 5.0, "the held press"), 10.0)
    bot.proc.send_signal(signal.SIGTERM)

    update = await asyncio.wait_for(answered, 10.0)
    assert update.type == CALLBACK_UPDATE_MESSAGE
    assert update.components == []
    assert "damage" in update.embeds[0]["description"]
    assert await bot.wait(20.0) == 0
    log = plain_log(bot.output())
    pressed = next(i for i, line in enumerate(log.splitlines()) if f"command={parry}" in line)
    closed = next(i for i, line in enumerate(log.splitlines()) if "Database closed." in line)
    assert "outcome=ok" in log.splitlines()[pressed]
    assert pressed < closed
    assert "Shutting down: 1 interactions in flight." in log
    assert log_problems(bot.output()) == []
