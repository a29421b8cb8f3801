"""Two bot.py processes, one shard each, on one PostgreSQL database: each process's expiry
sweep closes the attacks of its own shard's servers, and every attack is closed once.

Aria attacks Bram in each of four servers (two on each shard, `(guild_id >> 22) % 2`); both
processes stop, the attacks' time runs out (set in the database), and both start again, which
runs their first sweep at once. Each attack message must lose its buttons in one edit, and the
process that closed it must be the one that carries its server.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

import asyncpg
import pytest

from .conftest import BotProcess, LaunchBot
from .standin import DEFAULT_USER_ID, Fakecord
from .wire_support import REPO_ROOT, SHARD_STEP, WIRE_BOT, log_problems, many_guilds, plain_log

pytestmark = pytest.mark.e2e

SHARDS = 2
GUILDS = many_guilds(4, step=SHARD_STEP)
PLAYER_A = DEFAULT_USER_ID + 1
PLAYER_B = DEFAULT_USER_ID + 2
CLOSED = re.compile(r"Expiry sweep: closed attack (\d+) of guild (\d+)")


def bot_env(database: str, shard: int) -> dict[str, str]:
    return {
        "WIRE_DATABASE": database,
        "WIRE_DEV_GUILD": "",
        "WIRE_SHARD_COUNT": str(SHARDS),
        "WIRE_SHARD_IDS": str(shard),
        "PYTHONPATH": str(REPO_ROOT),
    }


async def start_both(standin: Fakecord, launch_bot: LaunchBot, database: str, run: int):
    """Both processes, each ready on its shard."""
    after = len(standin.handshakes)
    bots = [
        await launch_bot(WIRE_BOT, env=bot_env(database, shard), name=f"shard-{shard}-{run}")
        for shard in range(SHARDS)
    ]

    def ready() -> bool:
        return {h.shard for h in standin.handshakes[after:]} >= {(s, SHARDS) for s in range(SHARDS)}

    for bot in bots:
        await bot.until(standin.wait_for(ready, 20.0, "both shards ready"), 25.0)
        await bot.until(
            standin.wait_for(lambda b=bot: "Ready as" in plain_log(b.output()), 15.0, "ready"), 20
        )
    return bots


async def attack_in(standin: Fakecord, guild_id: int) -> int:
    """Aria (with a sword) attacks Bram in the guild; the attack message's id."""

    async def send(name: str, options: dict[str, Any], user: int, sub: str | None = None):
        payload = standin.command_interaction(
            name, options, subcommand=sub, user_id=user, guild_id=guild_id
        )
        return await standin.send_interaction(payload, timeout=10.0)

    await send("character", {"name": "Aria"}, PLAYER_A, "create")
    weapon = {"weapon": "Sword", "base": 5, "attribute": "Strength", "skill": "Swords"}
    await send("character", weapon, PLAYER_A, "weapon")
    await send("character", {"name": "Bram"}, PLAYER_B, "create")
    attack = await send("attack", {"weapon": "Sword", "target": "Bram"}, PLAYER_A)
    assert attack.components, attack.data  # the defence buttons: the attack waits
    return int(attack.message_id)


def closed_by(bot: BotProcess) -> list[tuple[int, int]]:
    return [(int(a), int(g)) for a, g in CLOSED.findall(plain_log(bot.output()))]


@pytest.mark.parametrize(
    "standin", [{"guilds": GUILDS, "shard_count": SHARDS}], indirect=True, ids=["2-shards"]
)
async def test_each_process_closes_its_own_servers_attacks_once(
    standin: Fakecord, launch_bot: LaunchBot, postgres_database: str
) -> None:
    assert sorted(standin.shard_of(g.id, SHARDS) for g in GUILDS) == [0, 0, 1, 1]
    bots = await start_both(standin, launch_bot, postgres_database, 0)
    messages = {guild.id: await attack_in(standin, guild.id) for guild in GUILDS}
    for bot in bots:
        assert await bot.terminate(timeout=20.0) == 0, bot.output()[-3000:]

    conn = await asyncpg.connect(postgres_database)
    try:
        pending = dict(await conn.fetch("SELECT id, guild_id FROM pending_actions"))
        await conn.execute("UPDATE pending_actions SET expires_at = '2000-01-01T00:00:00.000Z'")
    finally:
        await conn.close()
    assert sorted(pending.values()) == sorted(messages)

    edits_before = len(standin.message_events)
    bots = await start_both(standin, launch_bot, postgres_database, 1)

    def all_closed() -> bool:
        return all(standin.messages[m]["components"] == [] for m in messages.values())

    await standin.wait_for(all_closed, 20.0, "every attack closed")
    await asyncio.sleep(1.0)  # a second sweep's edit, were there one, would land meanwhile
    edits = [
        e.message_id
        for e in standin.message_events[edits_before:]
        if e.kind == "channel_edit" and e.message_id in messages.values()
    ]
    assert sorted(edits) == sorted(messages.values())  # each attack message edited once
    for shard, bot in enumerate(bots):
        closed = closed_by(bot)
        assert closed, bot.output()[-3000:]
        assert all(standin.shard_of(guild, SHARDS) == shard for _, guild in closed), closed
        assert all(pending[attack] == guild for attack, guild in closed)
    every = sorted(attack for bot in bots for attack, _ in closed_by(bot))
    assert every == sorted(pending)  # each closed once, all of them
    for bot in bots:
        assert await bot.terminate(timeout=20.0) == 0, bot.output()[-3000:]
        assert log_problems(bot.output()) == []
    assert standin.unknown_routes == [] and standin.validation_errors == []
