"""bot.py with its SQLite database on a disk that fills: rolls and sheet changes are answered
with the short "the bot's storage is full" message while it is full, the host gets one log line
naming the file, nothing answered as done is missing, the file passes integrity_check, and once
space is freed the bot goes on by itself, without a restart.

The disk is a small tmpfs this test mounts and fills with a filler file (as root, the CI
container). Where mounting is refused the test is skipped, saying so: a file-size limit cannot
be set on the bot's process from here, and tests/storage/test_storage_full_disk.py covers that
fallback on the store itself.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from storage.faults import STORAGE_FULL
from tests.storage.disk_faults import Filler, small_tmpfs

from .conftest import LaunchBot
from .standin import CALLBACK_CHANNEL_MESSAGE, DEFAULT_USER_ID, Callback, Fakecord
from .test_wirebot import start_wire, stop_wire
from .wire_support import integrity, log_problems, plain_log, roll_log_ids

pytestmark = pytest.mark.e2e

PLAYER = DEFAULT_USER_ID + 1


def outcome(callback: Callback) -> str:
    assert callback.type == CALLBACK_CHANNEL_MESSAGE, callback
    if not callback.ephemeral:
        return "done"
    if callback.content == STORAGE_FULL:
        return "full"
    return "edited"  # a sheet change's own ephemeral confirmation


async def test_a_full_disk_is_answered_clearly_and_the_bot_goes_on_once_freed(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path
) -> None:
    with small_tmpfs(tmp_path / "disk", "6m") as disk:
        if disk is None:
            pytest.skip("mounting a tmpfs is not allowed here; the store test covers fsize")
        db = disk / "wire.db"
        bot = await start_wire(standin, launch_bot, db)
        send = standin.send_interaction

        def check() -> dict[str, Any]:
            options = {"attr": 3, "skill": 5, "vs": 13, "roll": 15}
            return standin.command_interaction("check", options, user_id=PLAYER)

        def edit(value: int) -> dict[str, Any]:
            return standin.command_interaction(
                "character", {"skill": "Swords", "value": value}, subcommand="set", user_id=PLAYER
            )

        made = await send(
            standin.command_interaction(
                "character", {"name": "Aria"}, subcommand="create", user_id=PLAYER
            )
        )
        assert "Created **Aria**" in made.content
        done: set[int] = set()
        for _ in range(5):
            cb = await send(check())
            assert outcome(cb) == "done"
            done.add(cb.interaction_id)

        filler = Filler(disk)
        filler.fill()
        refused: set[int] = set()
        edits = {"full": 0, "edited": 0}
        for n in range(80):
            cb = await send(check() if n % 4 else edit(n % 10), timeout=standin.ack_deadline)
            kind = outcome(cb)
            if n % 4 == 0:
                assert kind in edits, cb.content
                edits[kind] += 1
            elif kind == "done":
                done.add(cb.interaction_id)
            else:
                assert kind == "full", cb.content
                refused.add(cb.interaction_id)
        assert refused and edits["full"], (len(refused), edits)
        german = standin.command_interaction(
            "check", {"attr": 3, "skill": 5, "vs": 13}, user_id=PLAYER, locale="de"
        )
        cb = await send(german, timeout=standin.ack_deadline)
        assert cb.ephemeral and cb.content == (
            "Der Speicher des Bots ist voll, deshalb wurde das nicht gespeichert. Wer den Bot "
            "betreibt, muss Speicherplatz freigeben; versuche es danach noch einmal."
        )
        refused.add(cb.interaction_id)

        filler.free()
        cb = await send(check())
        assert outcome(cb) == "done"  # no restart: the next roll after space is freed works
        done.add(cb.interaction_id)
        assert (await send(edit(7))).content == "Updated Aria: Swords 7."
        await stop_wire(bot)

        output = plain_log(bot.output())
        problems = log_problems(output)
        assert len(problems) == 1, problems  # the host's line, once, not once per refusal
        assert f"The disk of the database {db} is full" in problems[0]
        assert "free space" in problems[0]
        assert "Traceback" not in output
        assert f"The database {db} works again." in output
        logged = set(roll_log_ids(db))
        assert done <= logged
        assert not refused & logged
        assert integrity(db) == "ok"
