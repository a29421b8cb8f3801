"""Schema migrations: from empty, from every earlier version with data, and refusal of newer."""

from __future__ import annotations

import sqlite3
import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest

from storage import schema
from storage.errors import SchemaTooNew
from storage.schema import Migration, latest_version, migrations, prepare_database
from storage.sqlite import SqliteStore
from storage.testing import roll_record
from wire.advancement import Category

GUILD = 10


def test_migrations_are_numbered_from_one_and_split_into_statements() -> None:
    found = migrations()
    assert [m.version for m in found] == list(range(1, len(found) + 1))
    assert latest_version() == len(found) >= 3
    for migration in found:
        statements = migration.statements()
        assert statements
        # Each statement starts with its verb: no comment or blank line was glued onto it.
        verbs = ("CREATE", "ALTER", "INSERT", "UPDATE", "DELETE", "DROP")
        assert all(s.upper().startswith(verbs) for s in statements), migration.name


def test_split_statements_keeps_triggers_whole_and_drops_comments() -> None:
    sql = (
        "-- a comment\nCREATE TABLE t (x);\n"
        "CREATE TRIGGER tr AFTER INSERT ON t BEGIN\n  UPDATE t SET x = 1;\nEND;\n-- end\n"
    )
    statements = schema.split_statements(sql)
    assert len(statements) == 2
    assert statements[1].endswith("END;")
    with pytest.raises(RuntimeError, match="Unterminated"):
        schema.split_statements("CREATE TABLE t (x)")


async def test_fresh_database_gets_every_migration_and_wal(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "folder" / "wire.db"  # folders are created
    store = await SqliteStore.open(path)
    await store.close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == latest_version()
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_schema WHERE type='table'")}
    assert {"campaigns", "characters", "character_stats", "roll_log", "pending_actions"} <= tables
    conn.close()


def _seed(conn: sqlite3.Connection, version: int) -> None:
    """Data as a bot at schema `version` would have written it (raw SQL, no store)."""
    conn.execute(
        "INSERT INTO campaigns (id, guild_id, name, name_key, is_default) "
        "VALUES (1, ?, 'Ærwyn Saga', 'ærwyn saga', 1)",
        (GUILD,),
    )
    conn.execute("INSERT INTO campaign_gms VALUES (1, 500, 0)")
    conn.execute("INSERT INTO channel_bindings VALUES (?, 77, 1)", (GUILD,))
    conn.execute(
        "INSERT INTO characters (id, campaign_id, name, name_key, owner_id, notes) "
        "VALUES (1, 1, 'Ash', 'ash', 600, 'kept')"
    )
    conn.execute(
        "INSERT INTO character_stats VALUES (1, 'attribute', 'strength', 'Strength', 3, 1)"
    )
    conn.execute("INSERT INTO character_stats VALUES (1, 'skill', 'parry', 'Parry', 4, 2)")
    conn.execute(
        "INSERT INTO weapons (character_id, name_key, name, base, attribute, skill, position) "
        "VALUES (1, 'sabre', 'Sabre', 4, 'Strength', 'Melee', 1)"
    )
    conn.execute("INSERT INTO active_characters VALUES (1, 600, 1)")
    conn.execute("INSERT INTO meta VALUES ('command_hash:global', 'abc')")
    if version >= 2:
        conn.execute(
            "INSERT INTO craft_projects (campaign_id, owner_id, item, item_key, quality, rolls) "
            "VALUES (1, 600, 'Sword', 'sword', 7, 2)"
        )
        conn.execute(
            "INSERT INTO roll_log (guild_id, campaign_id, channel_id, user_id, kind, inputs, die, "
            "die_source, total, target, success, degrees, raw_degrees, interaction_id) "
            "VALUES (?, 1, 77, 600, 'check', '{\"a\":1}', 12, 'rolled', 16, 15, 1, 0, 0, 99)",
            (GUILD,),
        )
    if version >= 3:
        conn.execute(
            "INSERT INTO pending_actions (guild_id, campaign_id, kind, payload, expires_at) "
            "VALUES (?, 1, 'defend', '{}', '2030-01-01T00:00:00.000000Z')",
            (GUILD,),
        )


@pytest.mark.parametrize("version", range(1, len(migrations())))
async def test_upgrade_from_each_earlier_version_keeps_the_data(
    tmp_path: Path, version: int
) -> None:
    path = tmp_path / "old.db"
    assert prepare_database(path, target=version) == version
    conn = schema.connect(path)
    conn.execute("BEGIN")
    _seed(conn, version)
    conn.execute("COMMIT")
    conn.close()

    store = await SqliteStore.open(path)
    try:
        campaign = await store.campaign_for_channel(GUILD, 77, 1)
        assert (campaign.id, campaign.name, campaign.gm_ids) == (1, "Ærwyn Saga", (500,))
        ash = await store.get_active_character(GUILD, 1, 600)
        assert ash is not None
        assert ash.attributes == {"Strength": 3}
        assert ash.skills == {"Parry": 4}
        assert ash.weapon("sabre") is not None
        assert ash.notes == "kept"
        assert await store.get_meta("command_hash:global") == "abc"
        if version >= 2:
            project = await store.get_project(GUILD, 1, 600, "sword")
            assert (project.quality, project.rolls) == (7, 2)
            [roll] = await store.recent_rolls(GUILD, 1)
            assert roll.interaction_id == 99
        # The upgraded database takes new data of every kind.
        await store.start_project(GUILD, 1, 600, "Shield")
        new_id = await store.log_roll(roll_record(campaign, interaction_id=100))
        assert (await store.recent_rolls(GUILD, 1, limit=1))[0].id == new_id
    finally:
        await store.close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == latest_version()
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    conn.close()


async def test_too_new_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE from_the_future (x)")
    newer = latest_version() + 1
    conn.execute(f"PRAGMA user_version = {newer}")
    conn.close()
    with pytest.raises(SchemaTooNew) as raised:
        await SqliteStore.open(path)
    assert str(raised.value) == (
        f"The database {path} was written by a newer WIRE bot (schema {newer}; this bot knows "
        f"{latest_version()}); it was left as it is. Run the newer bot, or restore a backup "
        f"made by this version: `.venv/bin/python -m storage restore BACKUP.db {path}`."
    )
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == newer
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # not even WAL
    conn.close()


def test_failed_migration_leaves_the_previous_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "wire.db"
    prepare_database(path, target=1)
    broken = Migration(2, "broken", "CREATE TABLE half_done (x);\nTHIS IS NOT SQL;\n")
    monkeypatch.setattr(schema, "migrations", lambda: (migrations()[0], broken))
    with pytest.raises(sqlite3.OperationalError):
        prepare_database(path)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    names = {row[0] for row in conn.execute("SELECT name FROM sqlite_schema")}
    assert "half_done" not in names
    conn.close()


def test_two_processes_migrating_at_once_apply_each_migration_once(tmp_path: Path) -> None:
    # Threads with their own connections race like processes; the race is narrow, so repeat.
    for attempt in range(10):
        path = tmp_path / f"race{attempt}.db"
        results: list[object] = []

        def run(path: Path = path, results: list[object] = results) -> None:
            try:
                results.append(prepare_database(path))
            except Exception as exc:  # pragma: no cover - reported by the assert below
                results.append(exc)

        threads = [threading.Thread(target=run) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert results == [latest_version()] * 4
        conn = sqlite3.connect(path)
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        conn.close()


def _pending_attack_log(conn: sqlite3.Connection, pending_id: int, interaction_id: int) -> None:
    conn.execute(
        "INSERT INTO roll_log (guild_id, campaign_id, channel_id, user_id, kind, inputs, die, "
        "die_source, total, success, degrees, raw_degrees, interaction_id) "
        "VALUES (?, 1, 77, 600, 'attack', json_object('pending', ?), 12, 'rolled', 20, 1, 0, 0, ?)",
        (GUILD, pending_id, interaction_id),
    )


async def test_upgrade_to_4_settles_old_attacks_and_never_reuses_a_claimed_id(
    tmp_path: Path,
) -> None:
    """Attacks logged before the roll states get the state their pending action tells, and the
    ids of claimed pending actions and deleted characters are not handed out again."""
    path = tmp_path / "old.db"
    prepare_database(path, target=3)
    conn = schema.connect(path)
    conn.execute("BEGIN")
    _seed(conn, 3)  # pending action 1 is still waiting
    _pending_attack_log(conn, 1, 201)  # waits on pending 1
    _pending_attack_log(conn, 2, 202)  # pending 2 was defended ...
    conn.execute(
        "INSERT INTO roll_log (guild_id, campaign_id, channel_id, user_id, kind, inputs, die, "
        "die_source, total, success, degrees, raw_degrees, interaction_id) "
        "VALUES (?, 1, 77, 601, 'defend', '{\"pending\": 2}', 9, 'rolled', 12, 1, 0, 0, 203)",
        (GUILD,),
    )
    _pending_attack_log(conn, 3, 204)  # ... and pending 3 expired: both rows are gone
    conn.execute(
        "INSERT INTO roll_log (guild_id, campaign_id, channel_id, user_id, kind, die, "
        "die_source, total, success, degrees, raw_degrees, character_id, character_name) "
        "VALUES (?, 1, 77, 600, 'check', 12, 'rolled', 20, 1, 0, 0, 9, 'Deleted')",
        (GUILD,),
    )
    conn.execute("COMMIT")
    conn.close()

    store = await SqliteStore.open(path)
    try:
        rolls = await store.recent_rolls(GUILD, 1)
        states = {r.interaction_id: str(r.state) for r in rolls if r.kind == "attack"}
        assert states == {201: "waiting", 202: "defended", 204: "expired"}
        assert (await store.get_pending(GUILD, 1)) is not None
        fresh = await store.create_pending(GUILD, 1, "attack", {}, datetime.now(UTC))
        assert fresh.id == 4  # above 3, the largest id the log has seen
        character = await store.create_character(GUILD, 1, 500, "New")
        assert character.id == 10  # above 9, a deleted character's id seen in the log
    finally:
        await store.close()


async def test_upgrade_to_15_gives_waiting_requests_a_week_and_keeps_their_ids(
    tmp_path: Path,
) -> None:
    """Requests filed before expiry existed wait 7 days from their filing; the id of a
    request gone with its character is never handed out again (it is in its buttons)."""
    path = tmp_path / "old.db"
    prepare_database(path, target=13)
    conn = schema.connect(path)
    conn.execute("BEGIN")
    _seed(conn, 13)
    conn.execute(
        "INSERT INTO characters (id, campaign_id, name, name_key, owner_id) "
        "VALUES (2, 1, 'Bo', 'bo', 601)"
    )
    for character, created in ((1, "2026-01-01T10:00:00.000Z"), (2, "2026-01-02T10:00:00.000Z")):
        conn.execute(
            "INSERT INTO cp_requests (campaign_id, character_id, user_id, stat_kind, stat_name, "
            "level_before, level_after, cost, created_at) "
            "VALUES (1, ?, 600, 'skill', 'Parry', 4, 5, 25, ?)",
            (character, created),
        )
    conn.execute("DELETE FROM characters WHERE id = 2")  # its request 2 goes with it
    conn.execute("COMMIT")
    conn.close()

    store = await SqliteStore.open(path)
    try:
        request = await store.get_cp_request(GUILD, 1)
        assert (request.state, request.expires_at) == ("waiting", "2026-01-08T10:00:00.000Z")
        request, done = await store.decide_cp_request(GUILD, 1, 500, True)
        assert (request.state, done) == ("expired", None)
        await store.set_advancement(GUILD, 1, 500, approval=True)
        await store.set_skill_categories(GUILD, 1, 500, {"Parry": Category.COMBAT})
        await store.award_cp(GUILD, 1, 500, [1], 30)
        fresh = await store.improve(GUILD, 1, 600, 1, "Parry")
        assert fresh.request_id == 3  # above 2, the deleted character's request
    finally:
        await store.close()


async def test_upgrade_to_19_numbers_each_characters_entries_and_keeps_the_ids(
    tmp_path: Path,
) -> None:
    """Entries written before the per-character numbers are numbered in the order they were
    written, each character from 1; a new entry follows on, and an id is never handed out
    twice (an entry gone with its character included)."""
    path = tmp_path / "old.db"
    prepare_database(path, target=16)
    conn = schema.connect(path)
    conn.execute("BEGIN")
    _seed(conn, 13)
    for character, name in ((2, "Bo"), (3, "Cy")):
        conn.execute(
            "INSERT INTO characters (id, campaign_id, name, name_key, owner_id) "
            "VALUES (?, 1, ?, ?, 601)",
            (character, name, name.lower()),
        )
    for character in (1, 2, 1, 3, 2):
        conn.execute(
            "INSERT INTO cp_ledger (campaign_id, character_id, user_id, kind, amount) "
            "VALUES (1, ?, 500, 'award', 5)",
            (character,),
        )
    conn.execute("DELETE FROM characters WHERE id = 3")  # its entry 4 goes with it
    conn.execute("COMMIT")
    conn.close()

    store = await SqliteStore.open(path)
    try:
        ledger = await store.cp_ledger(GUILD, 1, 500, 2)
        assert [(e.id, e.number) for e in ledger.entries] == [(5, 2), (2, 1)]
        await store.award_cp(GUILD, 1, 500, [1], 5)
        ledger = await store.cp_ledger(GUILD, 1, 500, 1)
        assert [(e.id, e.number) for e in ledger.entries] == [(6, 3), (3, 2), (1, 1)]
        ready = await store.ready_for_play(GUILD, 1, 500, 2)
        assert (ready[2].kind, ready[2].number) == ("ready", 3)
    finally:
        await store.close()
