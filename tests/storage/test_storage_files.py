"""Backups, restores, checks and the `python -m storage` command line."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from storage import open_store
from storage.backup import backup_database, check_database, restore_database
from storage.cli import main
from storage.errors import StorageError
from storage.schema import latest_version
from storage.sqlite import SqliteStore
from storage.testing import GM, GUILD, PLAYER, manager, roll_record

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.sqlite_only  # backups, restores, the CLI: SQLite files


async def _fill(store: SqliteStore) -> int:
    campaign = await store.create_campaign(GUILD, "Night Market", manager(GM))
    await store.create_character(GUILD, campaign.id, PLAYER, "Ash", skills={"Parry": 4})
    for n in range(20):
        await store.log_roll(roll_record(campaign, interaction_id=n))
    return campaign.id


async def test_backup_of_a_live_store_then_restore(store: SqliteStore, tmp_path: Path) -> None:
    campaign_id = await _fill(store)
    backup = tmp_path / "backups" / "wire-2026-11-30.db"
    await store.backup(backup)  # while the store is open and has uncheckpointed WAL
    assert check_database(backup).ok
    conn = sqlite3.connect(backup)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # one file
    conn.close()
    assert not backup.with_name(backup.name + ".partial").exists()

    # Later changes...
    await store.delete_character(GUILD, campaign_id, PLAYER, "Ash")
    await store.log_roll(roll_record(await store.get_campaign(GUILD, "night market")))
    path = store.path
    await store.close()

    saved = restore_database(backup, path)
    assert saved is not None and saved.exists()
    restored = await SqliteStore.open(path)
    try:
        ash = await restored.get_character(GUILD, campaign_id, "Ash")
        assert ash.skills == {"Parry": 4}
        assert len(await restored.recent_rolls(GUILD, campaign_id, limit=100)) == 20
    finally:
        await restored.close()
    # The pre-restore copy holds the later state.
    undo = await SqliteStore.open(saved)
    try:
        assert len(await undo.recent_rolls(GUILD, campaign_id, limit=100)) == 21
    finally:
        await undo.close()


def test_restore_refuses_a_damaged_backup(tmp_path: Path) -> None:
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"SQLite format 3\x00" + b"\x00" * 200)
    target = tmp_path / "wire.db"
    target.write_bytes(b"precious")
    with pytest.raises(StorageError):
        restore_database(bad, target)
    assert target.read_bytes() == b"precious"
    with pytest.raises(StorageError, match="No database file"):
        restore_database(tmp_path / "missing.db", target)


def test_restore_refuses_a_backup_from_a_newer_bot(tmp_path: Path) -> None:
    newer = tmp_path / "newer.db"
    conn = sqlite3.connect(newer)
    conn.execute(f"PRAGMA user_version = {latest_version() + 1}")
    conn.close()
    with pytest.raises(StorageError, match="newer WIRE bot"):
        restore_database(newer, tmp_path / "wire.db")
    assert not (tmp_path / "wire.db").exists()


def test_backup_needs_an_existing_database(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="No database file"):
        backup_database(tmp_path / "nope.db", tmp_path / "b.db")
    assert not (tmp_path / "nope.db").exists()  # not created by the attempt


async def test_open_store_default_path_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WIRE_DATABASE", str(tmp_path / "env" / "wire.db"))
    store = await open_store()
    await store.close()
    assert (tmp_path / "env" / "wire.db").exists()
    monkeypatch.delenv("WIRE_DATABASE")
    monkeypatch.chdir(tmp_path)
    store = await open_store()
    await store.close()
    assert (tmp_path / "data" / "wire.db").exists()


# ---- the command line ---------------------------------------------------------------------


async def test_cli_backup_check_restore(
    store: SqliteStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    await _fill(store)
    backup = tmp_path / "b.db"
    assert main(["backup", str(store.path), str(backup)]) == 0
    assert main(["check", str(backup)]) == 0
    out = capsys.readouterr().out
    assert f"integrity ok; schema {latest_version()} (current)" in out
    await store.close()
    assert main(["restore", str(backup), str(tmp_path / "copy.db")]) == 0
    assert "Restored" in capsys.readouterr().out
    assert check_database(tmp_path / "copy.db").ok


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["backup", "{tmp}/missing.db", "{tmp}/b.db"], "error: No database file at"),
        (["check", "{tmp}/missing.db"], "error: No database file at"),
        (["import", "{tmp}/missing.json", "--guild", "1"], "error: cannot read"),
        (["check", "{tmp}/garbage.db"], "is not a usable SQLite database"),
    ],
)
def test_cli_errors_are_one_line_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    (tmp_path / "garbage.db").write_bytes(b"this is not a database at all" * 10)
    code = main([a.replace("{tmp}", str(tmp_path)) for a in argv])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("error: ") and message in err
    assert err.count("\n") == 1
    assert "Traceback" not in err


def test_cli_check_reports_a_too_new_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "new.db"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    assert main(["check", str(path)]) == 1
    assert "newer WIRE bot (schema 99" in capsys.readouterr().out


def test_cli_import_example_campaign(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = {
        "format": "wire-bot",
        "version": 1,
        "kind": "campaign",
        "campaign": {"name": "Example", "npc_take10": False},
        "characters": [{"name": "Jaime"}, {"name": "Goblin", "is_npc": True}],
    }
    file = tmp_path / "example.json"
    file.write_text(json.dumps(doc))
    db = tmp_path / "wire.db"
    args = ["import", str(file), "--guild", "5", "--db", str(db)]
    assert main(args) == 2
    assert "give --owner USER_ID" in capsys.readouterr().err
    assert main([*args, "--owner", "77"]) == 0
    assert "Imported 2 character(s) into campaign 'Example'" in capsys.readouterr().out
    assert main(args) == 0  # again: what is there already is left out, and said so
    out = capsys.readouterr().out
    assert "Imported 0 character(s) into campaign 'Example' of guild 5." in out
    assert "Left out, already in the campaign and kept as they are: 'Jaime' (user 77's), " in out
    assert "add --replace" in out
    assert main([*args, "--replace"]) == 0  # the campaign's first GM imports
    assert "Replaced: 'Jaime' (user 77's), 'Goblin' (NPC)." in capsys.readouterr().out

    file.write_text(json.dumps({**doc, "characters": [{"name": "X", "skills": {"A": 99}}]}))
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "import rejected, nothing was written (1 problems)" in err
    assert "characters[0].skills.A: 99 is above the maximum" in err


def test_cli_replace_overwrites_another_players_sheet_only_when_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A player's Jaime is in the campaign; the GM's import of a file with a Jaime leaves it
    alone, even with --replace, until the GM names that player with --overwrite-user."""
    db = tmp_path / "wire.db"

    async def prepare() -> None:
        async with await SqliteStore.open(db) as store:
            campaign = await store.create_campaign(5, "Example", manager(77))
            await store.create_character(5, campaign.id, 88, "Jaime", skills={"Climbing": 3})

    asyncio.run(prepare())
    doc = {
        "format": "wire-bot",
        "version": 1,
        "kind": "campaign",
        "campaign": {"name": "Example"},
        "characters": [{"name": "Jaime"}, {"name": "Ash"}],
    }
    file = tmp_path / "example.json"
    file.write_text(json.dumps(doc))
    args = ["import", str(file), "--guild", "5", "--db", str(db), "--replace"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "Imported 1 character(s) into campaign 'Example' of guild 5: Ash." in out
    assert "Left out, already in the campaign and kept as they are: 'Jaime' (user 88's)." in out
    assert "--overwrite-user 88 (tell them first)" in out
    assert main([*args, "--overwrite-user", "88"]) == 0
    assert "Replaced: 'Jaime' (user 88's)" in capsys.readouterr().out

    async def read() -> dict[str, int]:
        async with await SqliteStore.open(db) as store:
            campaign = await store.get_campaign(5, "Example")
            jaime = await store.get_character(5, campaign.id, "Jaime")
            assert jaime.owner_id == 88  # a replaced sheet keeps its player
            return jaime.skills

    assert asyncio.run(read()) == {}


def test_python_dash_m_storage_runs(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "storage", "check", str(tmp_path / "none.db")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("error: No database file at")


async def test_opening_something_that_is_not_a_database_says_so(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_text("shopping list: bread, milk, a d20\n" * 50)
    with pytest.raises(StorageError, match=r"The database .*notes\.db is not a WIRE database"):
        await SqliteStore.open(path)
    assert path.read_text().startswith("shopping list")


async def test_a_sheet_changed_by_the_cli_is_read_at_once(tmp_path: Path) -> None:
    """The store caches what every roll reads; another process's commit must show anyway."""
    db = tmp_path / "wire.db"
    async with await SqliteStore.open(db) as store:
        campaign = await store.create_campaign(5, "Example", manager(77))
        await store.create_character(5, campaign.id, 77, "Jaime", attributes={"Strength": 1})
        await store.set_active_character(5, campaign.id, 77, "Jaime")
        await store.bind_channel(5, 9, campaign.id, 77)
        for _ in range(2):  # the second read comes from the cache
            _, jaime = await store.roller_context(5, 9, 77)
            assert jaime is not None and jaime.attributes == {"Strength": 1}
        sheet = {"name": "Jaime", "attributes": {"Strength": 4}}
        file = tmp_path / "jaime.json"
        file.write_text(
            json.dumps(
                {"format": "wire-bot", "version": 1, "kind": "character", "character": sheet}
            )
        )
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "storage",
                "import",
                str(file),
                "--guild",
                "5",
                "--campaign",
                "Example",
                "--replace",
                "--db",
                str(db),
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        _, jaime = await store.roller_context(5, 9, 77)
        assert jaime is not None and jaime.attributes == {"Strength": 4}


async def test_rolls_keep_the_read_cache_and_any_sheet_change_drops_it(tmp_path: Path) -> None:
    """A busy table logs rolls all evening: they must not empty the cache of what every roll
    reads, while a stat changed by another connection (a second process) is seen at once."""
    db = tmp_path / "wire.db"
    async with await SqliteStore.open(db) as store:
        campaign = await store.create_campaign(5, "Example", manager(77))
        await store.create_character(5, campaign.id, 77, "Jaime", attributes={"Strength": 1})
        await store.set_active_character(5, campaign.id, 77, "Jaime")
        await store.bind_channel(5, 9, campaign.id, 77)
        await store.roller_context(5, 9, 77)
        misses = store.backend.cache_misses
        for n in range(5):
            await store.log_roll(roll_record(campaign, user_id=77, channel_id=9, interaction_id=n))
            _, jaime = await store.roller_context(5, 9, 77)
            assert jaime is not None and jaime.attributes == {"Strength": 1}
        assert store.backend.cache_misses == misses
        other = sqlite3.connect(db)
        with other:
            other.execute("UPDATE character_stats SET value = 3 WHERE name = 'Strength'")
        other.close()
        _, jaime = await store.roller_context(5, 9, 77)
        assert jaime is not None and jaime.attributes == {"Strength": 3}
        assert store.backend.cache_misses == misses + 1


async def _table_with_jaime(store: SqliteStore):
    campaign = await store.create_campaign(5, "Example", manager(77))
    await store.create_character(5, campaign.id, 77, "Jaime", attributes={"Strength": 1})
    await store.set_active_character(5, campaign.id, 77, "Jaime")
    await store.bind_channel(5, 9, campaign.id, 77)
    return campaign


def _hold_the_write_lock(db: Path) -> sqlite3.Connection:
    """Another process's connection in the middle of a write transaction."""
    other = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    other.execute("UPDATE cache_version SET version = version")
    return other


class _LockedOnce:
    """A connection that reports the file locked once, as SQLite does while another
    connection rebuilds the WAL index (a state too brief to arrange for real)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.refused = 0

    def execute(self, *args):
        if not self.refused:
            self.refused += 1
            raise sqlite3.OperationalError("database is locked")
        return self.conn.execute(*args)


async def test_a_roll_waits_for_another_process_that_holds_the_write_lock(tmp_path: Path) -> None:
    """Rolls commit on the event loop only when the lock is free at once; while the CLI or a
    second bot writes, the roll waits for it instead of failing, and is logged."""
    db = tmp_path / "wire.db"
    async with await SqliteStore.open(db) as store:
        campaign = await _table_with_jaime(store)
        other = _hold_the_write_lock(db)
        logging_it = asyncio.ensure_future(
            store.log_roll(roll_record(campaign, user_id=77, channel_id=9, interaction_id=1))
        )
        await asyncio.sleep(0.3)
        assert not logging_it.done()  # waiting for the lock, not refused
        other.execute("COMMIT")
        other.close()
        roll_id = await asyncio.wait_for(logging_it, 5)
        rolls = await store.recent_rolls(5, campaign.id)
        assert [roll.id for roll in rolls] == [roll_id]


async def test_a_sheet_read_that_finds_the_file_locked_is_answered_from_a_thread(
    tmp_path: Path,
) -> None:
    """Point reads run on the event loop and never wait there: a read SQLite refuses as locked
    goes to the reader's thread, which may wait, and the roll gets the right sheet."""
    db = tmp_path / "wire.db"
    async with await SqliteStore.open(db) as store:
        await _table_with_jaime(store)
        locked = _LockedOnce(store.backend._point_reader)
        store.backend._point_reader = locked  # type: ignore[assignment]
        _, jaime = await store.roller_context(5, 9, 77)
        assert locked.refused == 1
        assert jaime is not None and jaime.attributes == {"Strength": 1}
        _, jaime = await store.roller_context(5, 9, 77)  # on the loop again
        assert jaime is not None and jaime.attributes == {"Strength": 1}
        store.backend._point_reader = locked.conn
