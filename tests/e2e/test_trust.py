"""Trust through the real bot.py: concurrent presses of one defence button resolve once, and
forged presses (another guild, another user, an attack that does not exist) change nothing."""

from __future__ import annotations

import asyncio
import copy
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from .conftest import LaunchBot
from .standin import (
    CALLBACK_UPDATE_MESSAGE,
    DEFAULT_USER_ID,
    MANAGER_PERMISSIONS,
    Callback,
    Fakecord,
)
from .test_wirebot import start_wire
from .wire_support import log_problems, many_guilds

pytestmark = pytest.mark.e2e

PLAYER_A = DEFAULT_USER_ID + 1
PLAYER_B = DEFAULT_USER_ID + 2
GM = DEFAULT_USER_ID  # has Manage Server in these tests


@pytest.fixture
async def standin(request: pytest.FixtureRequest) -> Any:
    """As conftest's, with two guilds announced (the first stays the dev guild)."""
    fake = Fakecord(guilds=many_guilds(2))
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


def rows(db: Path, sql: str) -> list[tuple]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return list(conn.execute(sql))
    finally:
        conn.close()


async def make_aria_and_bram(standin: Fakecord) -> None:
    send, ci = standin.send_interaction, standin.command_interaction

    def char(sub: str, opts: dict, user: int) -> dict:
        return ci("character", opts, subcommand=sub, user_id=user)

    await send(char("create", {"name": "Aria"}, PLAYER_A))
    weapon = {"weapon": "Sword", "base": 5, "attribute": "Strength", "skill": "Swords"}
    await send(char("weapon", weapon, PLAYER_A))
    await send(char("create", {"name": "Bram"}, PLAYER_B))


async def attack_bram(standin: Fakecord) -> tuple[Callback, dict[str, str]]:
    """Aria attacks Bram: the attack and its buttons by defence."""
    payload = standin.command_interaction(
        "attack", {"weapon": "Sword", "target": "Bram"}, user_id=PLAYER_A
    )
    attack = await standin.send_interaction(payload)
    return attack, {
        c["custom_id"].rsplit(":", 1)[1]: c["custom_id"]
        for row in attack.components
        for c in row["components"]
    }


async def test_the_player_and_a_gm_pressing_at_once_resolve_the_attack_once(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path
) -> None:
    db = tmp_path / "wire.db"
    bot = await start_wire(standin, launch_bot, db)
    await make_aria_and_bram(standin)
    for _ in range(3):
        attack, buttons = await attack_bram(standin)
        presses = [
            standin.component_interaction(buttons["parry"], attack.message_id, user_id=PLAYER_B),
            standin.component_interaction(
                buttons["dodge"], attack.message_id, user_id=GM, permissions=MANAGER_PERMISSIONS
            ),
        ]
        futures = [await standin.post_interaction(p) for p in presses]
        answers = await asyncio.wait_for(asyncio.gather(*futures), 10)
        resolved = [
            a
            for a in answers
            if a.type == CALLBACK_UPDATE_MESSAGE
            and a.embeds
            and "damage" in a.embeds[0].get("description", "")
        ]
        assert len(resolved) == 1, [(a.type, a.content, a.embeds) for a in answers]
    defences = rows(db, "SELECT count(*) FROM roll_log WHERE kind = 'defend'")[0][0]
    states = rows(db, "SELECT state FROM roll_log WHERE kind = 'attack' ORDER BY id")
    assert defences == 3
    assert states == [("defended",)] * 3
    assert log_problems(bot.output()) == []
    assert await bot.terminate(20.0) == 0


async def test_forged_presses_change_nothing(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path
) -> None:
    db = tmp_path / "wire.db"
    bot = await start_wire(standin, launch_bot, db)
    await make_aria_and_bram(standin)
    attack, buttons = await attack_bram(standin)
    parry = buttons["parry"]
    other = standin.guilds[1]
    # The same custom id on a message in another guild, pressed by a manager of that guild.
    elsewhere = copy.deepcopy(standin.messages[int(attack.message_id)])
    elsewhere["channel_id"] = str(other.channels[0].id)
    elsewhere["guild_id"] = str(other.id)
    elsewhere["id"] = str(standin.snowflake())
    forged = [
        standin.component_interaction(
            parry, elsewhere, guild_id=other.id, user_id=GM, permissions=MANAGER_PERMISSIONS
        ),
        # Someone who is neither the target's player nor a GM.
        standin.component_interaction(parry, attack.message_id, user_id=PLAYER_A),
        # An attack id that was never handed out.
        standin.component_interaction("wire:def:999999:parry", attack.message_id, user_id=PLAYER_B),
        # A number past SQLite's integers.
        standin.component_interaction(
            f"wire:def:{2**64}:parry", attack.message_id, user_id=PLAYER_B
        ),
    ]
    for press in forged:
        answer = await standin.send_interaction(press)
        # Refused with a note; at most the buttons come off the message pressed (the copy).
        took_buttons = answer.type == CALLBACK_UPDATE_MESSAGE and answer.components == []
        assert answer.ephemeral or took_buttons, (answer.type, answer.content)
        assert answer.ephemeral or str(press["message"]["id"]) == str(elsewhere["id"])
    assert rows(db, "SELECT count(*) FROM pending_actions")[0][0] == 1
    assert rows(db, "SELECT count(*) FROM roll_log WHERE kind = 'defend'")[0][0] == 0
    # The real press still works afterwards.
    done = await standin.send_interaction(
        standin.component_interaction(parry, attack.message_id, user_id=PLAYER_B)
    )
    assert done.type == CALLBACK_UPDATE_MESSAGE
    assert log_problems(bot.output()) == []
    assert await bot.terminate(20.0) == 0
