"""SQLite on a disk that fills: refused writes say so, nothing committed is lost, the file stays
sound, and the store goes on by itself once there is room; the WAL checkpointer and the backup
meet the same fault without damage.

The disk is a small tmpfs the test mounts (as root, the CI container) and fills with a filler
file; where mounting is refused, a file-size limit on this process (RLIMIT_FSIZE) stands in,
and the test's id says which (`tmpfs` or `fsize`).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from storage.backup import backup_database, check_database
from storage.errors import StorageError, StorageFull
from storage.faults import STORAGE_FULL
from storage.sqlite import SqliteStore
from storage.testing import GM, GUILD, PLAYER, manager, roll_record
from tests.storage.disk_faults import FileSizeLimit, Filler, small_tmpfs

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.sqlite_only


class Disk:
    """The database's folder, and a way to fill it and free it again."""

    def __init__(self, folder: Path, mounted: bool) -> None:
        self.folder = folder
        self.kind = "tmpfs" if mounted else "fsize"
        self._filler = Filler(folder) if mounted else None
        self._limit = None if mounted else FileSizeLimit()

    def fill(self) -> None:
        if self._filler is not None:
            self._filler.fill()
            return
        assert self._limit is not None
        self._limit.fill(64 * 1024)  # no file of this process written past 64 KiB

    def free(self) -> None:
        if self._filler is not None:
            self._filler.free()
        elif self._limit is not None:
            self._limit.free()


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Disk]:
    with small_tmpfs(tmp_path / "disk", "6m") as mounted:
        disk = Disk(tmp_path / "disk", mounted is not None)
        try:
            yield disk
        finally:
            disk.free()


def logged_ids(db: Path) -> set[int]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return {row[0] for row in conn.execute("SELECT interaction_id FROM roll_log")}
    finally:
        conn.close()


async def test_a_full_disk_refuses_clearly_loses_nothing_and_recovers_by_itself(
    disk: Disk, caplog: pytest.LogCaptureFixture
) -> None:
    db = disk.folder / "wire.db"
    store = await SqliteStore.open(db)
    try:
        campaign = await store.create_campaign(GUILD, "Night Market", manager(GM))
        await store.create_character(GUILD, campaign.id, GM, "Ash", owner_id=PLAYER)
        answered: set[int] = set()
        for n in range(1, 51):
            await store.log_roll(roll_record(campaign, interaction_id=n))
            answered.add(n)

        disk.fill()
        refused: list[StorageError] = []
        note = "x" * 2000  # rows big enough that the WAL must grow
        with caplog.at_level(logging.WARNING, logger="wire.storage"):
            results = await asyncio.gather(
                *(
                    store.log_roll(roll_record(campaign, interaction_id=n, inputs={"note": note}))
                    for n in range(1000, 1600)
                ),
                return_exceptions=True,
            )
            for n, result in zip(range(1000, 1600), results, strict=True):
                if isinstance(result, BaseException):
                    assert isinstance(result, StorageFull), repr(result)
                    refused.append(result)
                else:
                    answered.add(n)
            try:
                await store.set_stat(GUILD, campaign.id, PLAYER, "Ash", "skill", "Parry", 4)
            except StorageFull as exc:
                refused.append(exc)
        assert refused, f"the {disk.kind} disk never filled"
        assert str(refused[0]) == STORAGE_FULL
        alarms = [r for r in caplog.records if r.levelno == logging.ERROR]
        assert len(alarms) == 1  # once, not once per refused write
        assert str(db) in alarms[0].getMessage() and "free space" in alarms[0].getMessage()
        assert not any(r.exc_info for r in caplog.records)

        # The checkpointer meets the full disk: it says so and leaves the WAL as it was.
        checkpointer = store.backend._checkpointer
        await checkpointer._run()
        assert check_database(db).ok

        # A backup onto the full disk fails whole: no half-written file under any name.
        with pytest.raises(StorageError, match="could not be written"):
            backup_database(db, disk.folder / "backup.db")
        assert not list(disk.folder.glob("backup.db*"))

        disk.free()
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="wire.storage"):
            assert await store.log_roll(roll_record(campaign, interaction_id=5000))
        answered.add(5000)
        assert any("works again" in r.getMessage() for r in caplog.records)
        await store.set_stat(GUILD, campaign.id, PLAYER, "Ash", "skill", "Parry", 4)
        await asyncio.to_thread(checkpointer.checkpoint)
    finally:
        await store.close()
    assert answered <= logged_ids(db)
    assert logged_ids(db) <= answered  # a refused roll left no row either
    report = check_database(db)
    assert report.ok, report.summary()


@pytest.mark.skipif(sys.platform != "linux", reason="mounts a tmpfs")
def test_the_backup_command_on_a_full_disk_is_one_line_and_leaves_nothing(
    tmp_path: Path,
) -> None:
    """`python -m storage backup` onto a full disk: exit 2, one line, no partial file, the
    database untouched."""
    source = tmp_path / "wire.db"
    conn = sqlite3.connect(source)
    conn.execute("CREATE TABLE t (x)")
    conn.executemany("INSERT INTO t VALUES (?)", [("y" * 1000,) for _ in range(3000)])
    conn.commit()
    conn.close()
    before = source.read_bytes()
    with small_tmpfs(tmp_path / "disk", "1m") as mounted:
        if mounted is None:
            pytest.skip("mounting a tmpfs is not allowed here (the store test covers fsize)")
        done = subprocess.run(
            [sys.executable, "-m", "storage", "backup", str(source), str(mounted / "b.db")],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 2, done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: The backup could not be written")
        assert "full" in lines[0]
        assert list(mounted.iterdir()) == []
    assert source.read_bytes() == before
