"""Two bot.py processes with two shards each on one PostgreSQL database, one of them SIGKILLed.

The stand-in sends each guild's events on its shard's connection, `(guild_id >> 22) % 4`, so
the process with shards 0-1 answers one half of 50 guilds and the one with shards 2-3 the other
half, both writing to one throwaway PostgreSQL database (storage.pg_testing). Every answered
roll must be in the roll log exactly once: a roll is committed before it is answered. When one
process dies without any chance to clean up, the other's guilds keep being answered; once it is
started again, its guilds are answered again and nothing answered before is missing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from typing import Any

import asyncpg
import pytest

from .conftest import BotProcess, LaunchBot
from .standin import CALLBACK_CHANNEL_MESSAGE, Callback, Fakecord, GuildSpec
from .wire_support import (
    REPO_ROOT,
    SHARD_STEP,
    WIRE_BOT,
    log_problems,
    many_guilds,
    plain_log,
    run_bounded,
)

SHARDS = 4
PROCESSES = {"shards-0-1": "0-1", "shards-2-3": "2-3"}
GUILDS = many_guilds(50, step=SHARD_STEP)
ROLLS_PER_GUILD = 4


def bot_env(database: str, shard_ids: str) -> dict[str, str]:
    return {
        "WIRE_DATABASE": database,
        "WIRE_DEV_GUILD": "",  # a sharded bot syncs globally
        "WIRE_SHARD_COUNT": str(SHARDS),
        "WIRE_SHARD_IDS": shard_ids,
        "PYTHONPATH": str(REPO_ROOT),
    }


def guilds_of(standin: Fakecord, shards: Iterable[int]) -> list[GuildSpec]:
    wanted = set(shards)
    return [g for g in GUILDS if standin.shard_of(g.id, SHARDS) in wanted]


def rolls(standin: Fakecord, guilds: list[GuildSpec], per_guild: int) -> list[dict[str, Any]]:
    """/check attr:3 skill:5 vs:13 roll:15 in each guild, `per_guild` times, guilds interleaved."""
    return [
        standin.command_interaction(
            "check", {"attr": 3, "skill": 5, "vs": 13, "roll": 15}, guild_id=guild.id
        )
        for _ in range(per_guild)
        for guild in guilds
    ]


def assert_rolled(answered: list[tuple[Mapping[str, Any], Callback]]) -> list[int]:
    """Every callback a public /check result of 23 vs 13; their interaction ids."""
    for _, callback in answered:
        assert callback.type == CALLBACK_CHANNEL_MESSAGE, callback
        total = next(f["value"] for f in callback.embeds[0]["fields"] if f["name"] == "Total")
        assert total.startswith("**23** vs TN 13")
    return [callback.interaction_id for _, callback in answered]


async def logged_interactions(database: str) -> list[int]:
    conn = await asyncpg.connect(database)
    try:
        rows = await conn.fetch("SELECT interaction_id FROM roll_log ORDER BY interaction_id")
        return [row[0] for row in rows]
    finally:
        await conn.close()


async def wait_shards_ready(
    standin: Fakecord, bots: list[BotProcess], shards: set[int], after: int
) -> None:
    """Until every shard in `shards` has identified since handshake number `after`."""

    def ready() -> bool:
        done = {h.shard for h in standin.handshakes[after:]}
        return {(shard, SHARDS) for shard in shards} <= done

    # Each process identifies its shards 5 s apart (discord.py's before_identify_hook).
    waiting = asyncio.ensure_future(standin.wait_for(ready, 40.0, f"shards {sorted(shards)} ready"))
    try:
        # Each bot fails the wait at once, with its output, if it exits first.
        await asyncio.gather(*(bot.until(asyncio.shield(waiting), 45.0) for bot in bots))
    finally:
        waiting.cancel()
    for bot in bots:
        await bot.until(
            standin.wait_for(lambda b=bot: "Ready as" in plain_log(b.output()), 15.0, "on_ready"),
            20.0,
        )


@pytest.mark.e2e
@pytest.mark.parametrize(
    "standin", [{"guilds": GUILDS, "shard_count": SHARDS}], indirect=True, ids=["4-shards"]
)
async def test_two_processes_share_postgresql_and_survive_a_sigkill(
    standin: Fakecord, launch_bot: LaunchBot, postgres_database: str
) -> None:
    assert {standin.shard_of(g.id, SHARDS) for g in GUILDS} == set(range(SHARDS))
    first_half, second_half = guilds_of(standin, (0, 1)), guilds_of(standin, (2, 3))
    bots = {
        name: await launch_bot(WIRE_BOT, env=bot_env(postgres_database, ids), name=name)
        for name, ids in PROCESSES.items()
    }
    await wait_shards_ready(standin, list(bots.values()), set(range(SHARDS)), after=0)
    await bots["shards-0-1"].until(standin.wait_synced(10.0), 15.0)
    assert sorted(p["shard"] for p in standin.identify_payloads) == [
        [shard, SHARDS] for shard in range(SHARDS)
    ]
    assert [(s.scope, s.guild_id) for s in standin.synced_commands] == [("global", None)]

    # Load across all 50 guilds: both processes answer their halves, all of it logged.
    answered, missing = await run_bounded(
        standin, rolls(standin, GUILDS, ROLLS_PER_GUILD), in_flight=20, timeout=10.0
    )
    assert missing == []
    before_kill = assert_rolled(answered)
    assert len(before_kill) == len(GUILDS) * ROLLS_PER_GUILD
    assert await logged_interactions(postgres_database) == sorted(before_kill)

    # SIGKILL shards 0-1 while shards 2-3 are under load: that load is all answered.
    under_load = asyncio.Event()
    load_rolls = rolls(standin, second_half, 8)

    seen: list[Callback] = []

    def count(_payload: Mapping[str, Any], callback: Callback) -> None:
        seen.append(callback)
        if len(seen) == 20:
            under_load.set()

    load = asyncio.ensure_future(
        run_bounded(standin, load_rolls, in_flight=10, timeout=10.0, on_answer=count)
    )
    await asyncio.wait_for(under_load.wait(), 20.0)
    await bots["shards-0-1"].kill()
    assert bots["shards-0-1"].returncode == -9
    answered, missing = await load
    assert missing == []
    during_kill = assert_rolled(answered)
    assert len(during_kill) == len(load_rolls)
    answered, missing = await run_bounded(
        standin, rolls(standin, second_half, 1), in_flight=10, timeout=10.0
    )
    assert missing == []
    after_kill = assert_rolled(answered)
    # Nobody answers the killed process's guilds meanwhile: each guild has one process.
    answered, missing = await run_bounded(
        standin, rolls(standin, first_half[:1], 1), in_flight=1, timeout=standin.ack_deadline
    )
    assert answered == [] and len(missing) == 1

    # Started again: its guilds are answered again, and nothing answered before is missing.
    handshakes = len(standin.handshakes)
    bots["shards-0-1"] = await launch_bot(
        WIRE_BOT, env=bot_env(postgres_database, "0-1"), name="shards-0-1-again"
    )
    await wait_shards_ready(standin, [bots["shards-0-1"]], {0, 1}, after=handshakes)
    answered, missing = await run_bounded(
        standin, rolls(standin, first_half, 2), in_flight=20, timeout=10.0
    )
    assert missing == []
    after_restart = assert_rolled(answered)

    every = before_kill + during_kill + after_kill + after_restart
    assert await logged_interactions(postgres_database) == sorted(every)
    for bot in bots.values():
        assert await bot.terminate(timeout=20.0) == 0, bot.output()[-3000:]
        assert "Database closed." in plain_log(bot.output())
        assert log_problems(bot.output()) == []
    assert len(standin.synced_commands) == 1  # the restarted process found them synced
    assert standin.unknown_routes == [] and standin.validation_errors == []
