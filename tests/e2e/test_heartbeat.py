"""bot.py's heartbeat as the Docker health check reads it: no file before Discord's READY, then
one the check calls healthy; after the bot stops, it ages into unhealthy."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from healthcheck import MAX_AGE

from .conftest import LaunchBot
from .standin import Fakecord
from .test_sync_scope import start, stop
from .wire_support import REPO_ROOT

pytestmark = pytest.mark.e2e


def health(heartbeat: Path, database: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "WIRE_HEARTBEAT": str(heartbeat), "WIRE_DATABASE": str(database)}
    return subprocess.run(
        [sys.executable, str(REPO_ROOT / "healthcheck.py")],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )


async def test_the_connected_bot_is_healthy_and_a_stopped_one_is_not(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path
) -> None:
    db, heartbeat = tmp_path / "wire.db", tmp_path / "run" / "wire-heartbeat"
    guild = standin.guilds[0].id
    bot = await start(standin, launch_bot, db, guild, {"WIRE_HEARTBEAT": str(heartbeat)})
    for _ in range(100):  # the first beat comes right after READY
        if heartbeat.exists():
            break
        await asyncio.sleep(0.1)
    done = health(heartbeat, db)
    assert done.returncode == 0, (done.stdout, bot.output()[-2000:])
    await stop(bot)
    old = time.time() - MAX_AGE - 1  # the minutes after the stop, without waiting for them
    os.utime(heartbeat, (old, old))
    assert health(heartbeat, db).returncode == 1
