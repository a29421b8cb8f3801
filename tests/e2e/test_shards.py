"""bot.py sharded: every shard in one process on SQLite works; shards split on SQLite are refused.

The stand-in sends each guild's events on the connection of its shard, ``(guild_id >> 22) %
shard_count``, so an answered interaction in a guild of each shard shows that the bot listens on
both connections and that both reach the one store. The last tests need no stand-in: which bot
class a configuration builds, and that a process without shard 0 leaves the sync to the one
that has it.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import discord
import pytest

from bot import ShardedWireBot, WireBot, make_bot
from cogs.utils.config import Config

from .conftest import LaunchBot
from .standin import CALLBACK_CHANNEL_MESSAGE, Fakecord
from .wire_support import (
    REPO_ROOT,
    SHARD_STEP,
    WIRE_BOT,
    integrity,
    log_problems,
    many_guilds,
    plain_log,
    roll_log_ids,
)

GUILDS = many_guilds(4, step=SHARD_STEP)
"""The default guild and guild 2 on shard 0 of 2, guilds 1 and 3 on shard 1."""
TWO_SHARDS = {"guilds": GUILDS, "shard_count": 2}


def wire_env(db: Path, **extra: str) -> dict[str, str]:
    """bot.py on `db`, its commands synced globally (a sharded bot is in many servers)."""
    return {"WIRE_DATABASE": str(db), "WIRE_DEV_GUILD": "", "PYTHONPATH": str(REPO_ROOT), **extra}


async def roll_check(standin: Fakecord, guild_id: int) -> Any:
    """/check attr:3 skill:5 vs:13 roll:15 in the guild's first channel: 23 vs 13."""
    payload = standin.command_interaction(
        "check", {"attr": 3, "skill": 5, "vs": 13, "roll": 15}, guild_id=guild_id
    )
    callback = await standin.send_interaction(payload, timeout=10.0)
    assert callback.type == CALLBACK_CHANNEL_MESSAGE
    total = next(f["value"] for f in callback.embeds[0]["fields"] if f["name"] == "Total")
    assert total.startswith("**23** vs TN 13")
    return callback


@pytest.mark.e2e
@pytest.mark.parametrize("standin", [TWO_SHARDS], indirect=True, ids=["2-shards"])
async def test_two_shards_in_one_process_on_sqlite(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path
) -> None:
    assert {standin.shard_of(g.id, 2) for g in GUILDS} == {0, 1}
    db = tmp_path / "wire.db"
    bot = await launch_bot(
        WIRE_BOT, env=wire_env(db, WIRE_SHARD_COUNT="2", WIRE_SHARD_IDS="0-1"), name="wirebot"
    )
    # The second shard identifies 5 s after the first (discord.py's before_identify_hook).
    await bot.until(standin.wait_ready(30.0, after=1), timeout=35.0)
    await bot.until(standin.wait_synced(10.0), timeout=15.0)
    await bot.until(
        standin.wait_for(lambda: "Ready as" in plain_log(bot.output()), 10.0, "on_ready"), 15.0
    )
    # Once every shard is ready, bot.py's process freezes its start-up heap (collector.py).
    frozen = "Start-up heap frozen: "
    await bot.until(
        standin.wait_for(lambda: frozen in plain_log(bot.output()), 10.0, "heap frozen"), 15.0
    )

    assert sorted(p["shard"] for p in standin.identify_payloads) == [[0, 2], [1, 2]]
    assert sorted(h.shard for h in standin.handshakes) == [(0, 2), (1, 2)]
    assert len({h.session_id for h in standin.handshakes}) == 2
    # Given a count, discord.py connects to its default gateway without asking GET /gateway/bot.
    assert [r for r in standin.requests if r.kind == "gateway_info"] == []
    assert [(s.scope, s.guild_id) for s in standin.synced_commands] == [("global", None)]
    output = plain_log(bot.output())
    assert "Running shards 0-1 of 2 in this process." in output
    assert "Shard 0 of 2 ready." in output and "Shard 1 of 2 ready." in output
    assert f"Ready as fakecord-bot in {len(GUILDS)} guilds." in output

    answered = []
    for guild in GUILDS[:2]:  # shard 0, then shard 1
        answered.append((await roll_check(standin, guild.id)).interaction_id)
    create = standin.command_interaction(
        "character", {"name": "Aria"}, subcommand="create", guild_id=GUILDS[3].id
    )
    assert "Created **Aria**" in (await standin.send_interaction(create, timeout=10.0)).content

    assert await bot.terminate(timeout=20.0) == 0, bot.output()[-3000:]
    assert "Database closed." in plain_log(bot.output())
    assert sorted(roll_log_ids(db)) == sorted(answered)
    assert integrity(db) == "ok"
    assert len(standin.synced_commands) == 1
    assert standin.unknown_routes == [] and standin.validation_errors == []
    assert log_problems(bot.output()) == []


@pytest.mark.e2e
@pytest.mark.parametrize("standin", [TWO_SHARDS], indirect=True, ids=["2-shards"])
async def test_split_shards_on_sqlite_are_refused_before_connecting(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path
) -> None:
    db = tmp_path / "wire.db"
    bot = await launch_bot(
        WIRE_BOT, env=wire_env(db, WIRE_SHARD_COUNT="2", WIRE_SHARD_IDS="0"), name="wirebot"
    )
    assert await bot.wait(20.0) == 1
    output = plain_log(bot.output())
    assert output.strip().splitlines() == [
        f"WIRE_SHARD_IDS=0 runs 1 of 2 shards here, so the others would need other processes, "
        f"but the SQLite database (WIRE_DATABASE={db}) is one file on one machine: run all 2 "
        "shards in one process (leave WIRE_SHARD_IDS empty), or set WIRE_DATABASE to a "
        "PostgreSQL URL (postgresql://...), which several processes share."
    ]
    assert standin.requests == [] and standin.handshakes == []
    assert not db.exists()
    assert standin.token not in output


# ---------------------------------------------------------------------------- without Discord


def test_the_configuration_picks_the_bot_class(tmp_path: Path) -> None:
    plain = make_bot(Config(token="x", database=tmp_path / "wire.db"))
    assert type(plain) is WireBot
    assert not isinstance(plain, discord.AutoShardedClient) and plain.shard_count is None
    sharded = make_bot(
        Config(token="x", database=tmp_path / "wire.db", shard_count=4, shard_ids=(1, 2))
    )
    assert isinstance(sharded, ShardedWireBot) and isinstance(sharded, discord.AutoShardedClient)
    assert (sharded.shard_count, sharded.shard_ids) == (4, [1, 2])
    every = make_bot(Config(token="x", database=tmp_path / "wire.db", shard_count=3))
    assert every.shard_ids == [0, 1, 2]


@pytest.mark.parametrize(("ids", "syncs"), [((0, 1), True), ((1,), False)])
async def test_only_the_process_with_shard_0_syncs(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, ids: tuple[int, ...], syncs: bool
) -> None:
    """A process without shard 0 cannot run on SQLite yet, but the rule is the bot's own."""
    config = Config(token="x", database=tmp_path / "wire.db", shard_count=2, shard_ids=ids)
    bot = make_bot(config, background_tasks=False)
    synced: list[bool] = []

    async def sync_if_changed() -> None:
        synced.append(True)

    bot.sync_if_changed = sync_if_changed  # type: ignore[method-assign]
    caplog.set_level(logging.INFO, logger="wire")
    async with bot:  # as run() does: discord.py's own set-up, and close() on the way out
        await bot.setup_hook()
    assert synced == ([True] if syncs else [])
    skipped = "Not syncing commands: this process runs shards 1; the one with shard 0 syncs."
    assert (skipped in caplog.text) == (not syncs)


@pytest.mark.e2e
@pytest.mark.parametrize(
    ("standin", "env", "shards"),
    [
        ({"guilds": many_guilds(3), "max_guilds_per_shard": 2}, {}, "1 shard"),
        (
            {"guilds": many_guilds(4, step=SHARD_STEP), "max_guilds_per_shard": 1},
            {"WIRE_SHARD_COUNT": "2"},
            "2 shards",
        ),
    ],
    indirect=["standin"],
    ids=["unsharded", "2-shards"],
)
async def test_sharding_required_is_one_line_naming_the_setting(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path, env: dict[str, str], shards: str
) -> None:
    """Discord closes an IDENTIFY with 4011 when a shard would carry too many servers: the day
    a growing bot needs (more) shards, it says which setting, not a traceback."""
    bot = await launch_bot(WIRE_BOT, env=wire_env(tmp_path / "wire.db", **env), name="wirebot")
    assert await bot.wait(30.0) == 1
    output = plain_log(bot.output())
    assert any(close.code == 4011 for close in standin.gateway_closes)
    assert (
        f"Discord refused the connection: the bot is in more servers than {shards} may carry "
        "(Discord allows 2,500 per shard). Set WIRE_SHARD_COUNT above"
    ) in output
    assert "Traceback" not in output
    assert "Database closed." in output
    assert "### Sharding" in (REPO_ROOT / "docs" / "hosting.md").read_text()
