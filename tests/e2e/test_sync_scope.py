"""Commands seen twice: a host tests with WIRE_DEV_GUILD after a global sync (or goes global
after testing). Discord shows a server's own commands beside the global ones, so bot.py clears
the scope it used before when it syncs to the other one."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import BotProcess, LaunchBot
from .standin import Fakecord
from .wire_support import REPO_ROOT, WIRE_BOT, plain_log

pytestmark = pytest.mark.e2e


async def start(
    standin: Fakecord,
    launch_bot: LaunchBot,
    db: Path,
    dev_guild: int | None,
    env: dict[str, str] | None = None,
) -> BotProcess:
    """bot.py on `db`, synced to the guild (or globally), READY."""
    handshakes = len(standin.handshakes)
    syncs = len([s for s in standin.synced_commands if s.guild_id == dev_guild])
    bot = await launch_bot(
        WIRE_BOT,
        env={
            "WIRE_DATABASE": str(db),
            "PYTHONPATH": str(REPO_ROOT),
            "WIRE_DEV_GUILD": "" if dev_guild is None else str(dev_guild),
            **(env or {}),
        },
        name="wirebot",
    )
    await bot.until(standin.wait_synced(30, guild_id=dev_guild, after=syncs), 30)
    await bot.until(standin.wait_ready(30, after=handshakes), 30)
    return bot


async def stop(bot: BotProcess) -> None:
    assert await bot.terminate(timeout=20.0) == 0, bot.output()[-3000:]


async def test_switching_scope_leaves_each_command_once(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path
) -> None:
    db = tmp_path / "wire.db"
    guild = standin.guilds[0].id

    bot = await start(standin, launch_bot, db, None)
    assert standin.current_commands(None) and not standin.current_commands(guild)
    await stop(bot)

    bot = await start(standin, launch_bot, db, guild)
    assert standin.current_commands(guild), "the test server has the commands"
    assert standin.current_commands(None) == [], "and the global ones are gone"
    assert "Removed the commands of the earlier scope (global)." in plain_log(bot.output())
    await stop(bot)

    bot = await start(standin, launch_bot, db, None)
    assert standin.current_commands(None), "global again, though they were synced before"
    assert standin.current_commands(guild) == []
    assert f"(guild {guild})" in plain_log(bot.output())
    await stop(bot)
