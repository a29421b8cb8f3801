"""The README's backup and restore, done as a host would while the bot runs: a backup taken
under load (`python -m storage backup`), restored into a fresh file (`python -m storage
restore`), and a fresh bot on it shows every roll answered before the backup began.

The load is rolls in a second guild, all through the backup; the table's own rolls come just
before it, by twenty players with twenty different totals, so the fresh bot's /history of that
guild can be read line by line.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from .conftest import LaunchBot
from .standin import CALLBACK_CHANNEL_MESSAGE, DEFAULT_USER_ID, Callback, Fakecord
from .test_wirebot import start_wire, stop_wire
from .wire_support import REPO_ROOT, integrity, many_guilds, roll_log_ids, run_bounded

pytestmark = pytest.mark.e2e

GUILDS = many_guilds(2)
PLAYERS = [DEFAULT_USER_ID + 10 + n for n in range(20)]


async def storage_cli(*args: str) -> str:
    done = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "storage", *args, cwd=str(REPO_ROOT),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    output, _ = await done.communicate()
    assert done.returncode == 0, output.decode()
    return output.decode()


@pytest.mark.parametrize("standin", [{"guilds": GUILDS}], indirect=True, ids=["2-guilds"])
async def test_a_backup_under_load_restores_into_a_bot_that_shows_every_roll_before_it(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path
) -> None:
    db, backup, fresh = tmp_path / "wire.db", tmp_path / "backup.db", tmp_path / "fresh.db"
    bot = await start_wire(standin, launch_bot, db)
    load_guild = GUILDS[1].id
    answered: list[int] = []
    stop = asyncio.Event()

    def load() -> Iterator[dict[str, Any]]:
        while not stop.is_set():
            yield standin.command_interaction(
                "check", {"attr": 1, "skill": 2, "vs": 13}, guild_id=load_guild,
                require_synced=False,
            )  # fmt: skip

    def heard(_payload: Mapping[str, Any], callback: Callback) -> None:
        assert callback.type == CALLBACK_CHANNEL_MESSAGE and not callback.ephemeral
        answered.append(callback.interaction_id)

    loading = asyncio.ensure_future(
        run_bounded(standin, load(), in_flight=10, timeout=10.0, on_answer=heard)
    )
    await standin.wait_for(lambda: len(answered) >= 50, 20.0, "the load under way")
    table: dict[int, int] = {}
    for n, player in enumerate(PLAYERS):
        options = {"attr": n, "skill": 5, "vs": 13, "roll": 15}
        cb = await standin.send_interaction(
            standin.command_interaction("check", options, user_id=player)
        )
        assert not cb.ephemeral, cb.content
        table[player] = 15 + n + 5
        answered.append(cb.interaction_id)

    before_backup = set(answered)
    await storage_cli("backup", str(db), str(backup))
    during = len(answered) - len(before_backup)
    stop.set()
    _, missing = await loading
    assert missing == []
    await stop_wire(bot)

    await storage_cli("restore", str(backup), str(fresh))
    again = await start_wire(standin, launch_bot, fresh, expect_sync=False)
    history = await standin.send_interaction(
        standin.command_interaction("history", {"count": 25}, user_id=PLAYERS[0])
    )
    lines = history.embeds[0]["description"].splitlines()
    assert len(lines) == len(PLAYERS), lines
    for player, total in table.items():
        assert sum(f"**<@{player}>** check: {total} vs 13" in line for line in lines) == 1, (
            player,
            total,
            lines,
        )
    rolled = await standin.send_interaction(
        standin.command_interaction("check", {"attr": 1, "skill": 1, "vs": 13})
    )
    assert not rolled.ephemeral  # the restored database takes new rolls
    await stop_wire(again)
    restored = set(roll_log_ids(fresh))
    assert before_backup <= restored  # every roll answered before the backup began
    assert integrity(fresh) == "ok"
    assert during > 0  # the load went on through the backup
