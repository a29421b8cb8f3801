"""bot.py started on a database it must not use: a file that is not a database, one cut short,
one it may not write, one written by a newer bot. Each time: one line naming the file and what
to do (restore a backup, the command), exit status 1, no traceback, and the file exactly as it
was, not "repaired" or overwritten.

The file the bot may not write is on a tmpfs this test mounts and remounts read-only (as root,
the CI container: root may write any file whose mode forbids it, so a chmod would not do);
where mounting is refused, the file's mode, for a bot not run as root.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from storage.backup import backup_database
from storage.schema import latest_version
from storage.sqlite import SqliteStore
from storage.testing import GM, GUILD, manager
from tests.storage.disk_faults import remount_read_only, small_tmpfs

from .conftest import LaunchBot
from .standin import Fakecord
from .test_wirebot import start_wire, stop_wire
from .wire_support import REPO_ROOT, WIRE_BOT, plain_log

pytestmark = pytest.mark.e2e


async def a_database(path: Path) -> None:
    """A real WIRE database of a few pages: a campaign with characters."""
    async with await SqliteStore.open(path) as store:
        campaign = await store.create_campaign(GUILD, "Night Market", manager(GM))
        for n in range(40):
            await store.create_character(
                GUILD, campaign.id, GM, f"Sheet {n}", notes="A long note. " * 60
            )


def not_a_database(path: Path) -> None:
    path.write_text("shopping list: bread, milk, a d20\n" * 200)


def cut_short(path: Path) -> None:
    size = path.stat().st_size
    with path.open("r+b") as file:
        file.truncate(size // 2 // 4096 * 4096)  # whole pages, half of them


def newer_schema(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {latest_version() + 1}")
    conn.close()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


async def start_refused(launch_bot: LaunchBot, db: Path) -> list[str]:
    """Start bot.py on `db`; it must exit 1 without a traceback. Its output's lines."""
    bot = await launch_bot(
        WIRE_BOT, env={"WIRE_DATABASE": str(db), "PYTHONPATH": str(REPO_ROOT)}, name="wirebot"
    )
    code = await bot.wait(30.0)
    output = plain_log(bot.output())
    assert code == 1, output
    assert "Traceback" not in output
    return output.splitlines()


DAMAGE: dict[str, tuple[Callable[[Path], None], str]] = {
    "not-a-database": (not_a_database, "is not a WIRE database (it does not start as"),
    "cut-short": (cut_short, "is not a WIRE database (it is cut short"),
    "newer-schema": (newer_schema, "was written by a newer WIRE bot"),
}


@pytest.mark.parametrize("damage", DAMAGE, ids=list(DAMAGE))
async def test_a_damaged_database_stops_the_bot_in_one_line_and_stays_as_it_was(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path, damage: str
) -> None:
    db, backup = tmp_path / "wire.db", tmp_path / "backup.db"
    harm, said = DAMAGE[damage]
    await a_database(db)
    backup_database(db, backup)
    harm(db)
    before = digest(db)
    lines = await start_refused(launch_bot, db)
    refusal = [line for line in lines if str(db) in line]
    assert len(refusal) == 1, lines
    assert refusal[0].startswith("The bot did not start: The database ")
    assert said in refusal[0]
    assert f"python -m storage restore BACKUP.db {db}" in refusal[0]
    assert digest(db) == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("wire.db")) == ["wire.db"]
    assert standin.synced_commands == []  # it stopped before doing anything

    # What the line says to do works: the restore, then the bot starts on the file.
    restored = subprocess.run(
        [sys.executable, "-m", "storage", "restore", str(backup), str(db)],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert restored.returncode == 0, restored.stderr
    kept = next(tmp_path.glob("wire.before-restore-*.db"))
    if damage != "newer-schema":  # a sound file is kept as an online backup, not as bytes
        assert digest(kept) == before  # the damaged file kept, byte for byte
    bot = await start_wire(standin, launch_bot, db)
    cb = await standin.send_interaction(
        standin.command_interaction("check", {"attr": 3, "skill": 5, "vs": 13, "roll": 15})
    )
    assert not cb.ephemeral and cb.embeds, cb.content
    await stop_wire(bot)


async def test_a_database_the_bot_may_not_write_stops_it_in_one_line(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path
) -> None:
    with small_tmpfs(tmp_path / "disk", "4m") as mounted:
        folder = tmp_path / "disk"
        db = folder / "wire.db"
        await a_database(db)
        if mounted is not None:
            remount_read_only(folder)
            how = "its disk is mounted read-only"
        elif os.geteuid() != 0:
            db.chmod(stat.S_IRUSR)
            folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
            how = "the file's mode"
        else:
            pytest.skip("root, and mounting a read-only tmpfs is not allowed here")
        before = digest(db)
        lines = await start_refused(launch_bot, db)
        refusal = [line for line in lines if str(db) in line]
        assert len(refusal) == 1, (how, lines)
        assert refusal[0].startswith(
            f"The bot did not start: The bot may not write its database {db}"
        )
        assert "write access" in refusal[0]
        assert f"python -m storage restore BACKUP.db {db}" in refusal[0]
        assert digest(db) == before
        if mounted is None:
            folder.chmod(stat.S_IRWXU)
