"""`python -m storage copy`: a SQLite database moved whole into an empty PostgreSQL database.

The source is filled through SqliteStore (every table, deleted rows included), copied onto the
throwaway cluster of storage.pg_testing, and compared table by table, row by row.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from storage import copy as copy_module
from storage.cli import main
from storage.copy import TABLES, CopyError, copy_to_postgres
from storage.models import HealthTarget, NewCombatant, Press
from storage.rules_incharacter import NewPost
from storage.sqlite import SqliteStore
from storage.testing import (
    CHANNEL,
    GM,
    GUILD,
    OTHER_GUILD,
    OTHER_PLAYER,
    PLAYER,
    manager,
    roll_record,
)
from wire.advancement import Category
from wire.conditions import Effect, Target, Timing
from wire.dice import Die, DieSource
from wire.gear import Currency
from wire.initiative import Initiative
from wire.sessions import Answer
from wire.sheet import Weapon


async def _fill(store: SqliteStore) -> None:
    """Some rows in every table, as the bot writes them, and some deleted ones (id gaps).

    Made through SqliteStore itself (not the `store` fixture, which may be another backend).
    """
    campaign = await store.create_campaign(GUILD, "Night Market", manager(GM))
    campaign = await store.add_gm(GUILD, campaign.id, GM, PLAYER)
    campaign = await store.bind_channel(GUILD, CHANNEL, campaign.id, GM)
    await store.create_campaign(OTHER_GUILD, "Elsewhere", manager(GM))
    await store.set_attribute_names(GUILD, campaign.id, GM, ["Strength", "Grace"])
    ash = await store.create_character(
        GUILD,
        campaign.id,
        GM,
        "Ash",
        owner_id=PLAYER,
        attributes={"Strength": 3, "Constitution": 2},
        skills={"Climbing": 4, "Parry": 2},
        notes='Ærwyn\'s "friend"\nsecond line',
    )
    await store.set_weapon(GUILD, campaign.id, GM, "Ash", Weapon("Knife", 3, "Strength", "Parry"))
    goblin = await store.create_character(
        GUILD, campaign.id, GM, "Goblin", is_npc=True, attributes={"Reaction": 1}
    )
    gone = await store.create_character(GUILD, campaign.id, GM, "Gone", owner_id=GM)
    await store.set_active_character(GUILD, campaign.id, PLAYER, "Ash")
    climb = {"name": "check", "options": {"attr_name": "Strength", "skill_name": "Climbing"}}
    # A session running while the rolls, the fight and the CP entries below are made: they
    # carry its id; one more planned, answered, and the campaign's session settings.
    start = datetime.now(UTC) + timedelta(days=1)
    session = await store.plan_session(GUILD, campaign.id, GM, "Warrens", start, 180, CHANNEL)
    await store.start_session(GUILD, session.id, GM)
    later = await store.plan_session(GUILD, campaign.id, GM, "Later", start, 60, CHANNEL)
    await store.answer_session(GUILD, later.id, PLAYER, Answer.COMING)
    await store.set_session_settings(GUILD, campaign.id, GM, zone_name="Europe/Berlin", nudge=True)
    await store.save_roll(GUILD, campaign.id, PLAYER, ash.id, "climb", climb, "Up")
    await store.save_roll(GUILD, campaign.id, PLAYER, ash.id, "gone", climb)
    await store.delete_saved_roll(GUILD, campaign.id, PLAYER, ash.id, "gone")  # an id gap
    project = await store.start_project(
        GUILD, campaign.id, PLAYER, "Sword", 2, ash.id, attribute="Strength", skill="Climbing"
    )
    for n in range(1, 4):
        await store.log_roll(roll_record(campaign, character=ash, interaction_id=10**18 + n))
    for quality in (2, 5):
        project = await store.apply_craft_roll(
            project, quality, quality + 3, roll_record(campaign, character=ash, kind="craft")
        )
    await store.log_roll(roll_record(campaign, character=gone, inputs={"note": "ünïcode ✓"}))
    await store.delete_character(GUILD, campaign.id, GM, "Gone")  # its id is never reused
    expires = datetime.now(UTC) + timedelta(minutes=5)
    pending = await store.create_pending(GUILD, campaign.id, "attack", {"x": 1}, expires)
    await store.set_pending_message(GUILD, pending.id, CHANNEL, 987654321987654321)
    claimed = await store.create_pending(GUILD, campaign.id, "attack", {"x": 2}, expires)
    assert await store.claim_pending(GUILD, claimed.id)  # deleted: the largest id so far
    # A sheet's condition, copied onto its combatant (source_id) as Ash joins the fight.
    await store.add_sheet_condition(
        GUILD, campaign.id, GM, "Ash", Effect(0, "Limping", None, -1, Target.DODGE, hidden=True)
    )
    fight = await store.start_fight(GUILD, campaign.id, CHANNEL, GM, "Ambush")
    initiative = Initiative(Die(10, DieSource.TABLE), 1, 0)
    fight = await store.add_combatants(
        GUILD,
        fight.id,
        GM,
        [
            NewCombatant("Goblin 1", goblin.id, None, True, initiative, (21, 21, 0), 1),
            NewCombatant("Ash", ash.id, PLAYER, False, initiative),
        ],
    )
    first = fight.combatants[0]
    await store.add_effect(GUILD, fight.id, GM, first.id, "Bleeding", 2)
    await store.add_effect(
        GUILD, fight.id, GM, first.id, "Prone", None, modifier=-2,
        applies_to=Target.CHECK, stat="Climbing", timing=Timing.TURN,
        until_id=fight.combatants[1].id, hidden=True,
    )  # fmt: skip
    await store.save_condition_preset(
        GUILD, campaign.id, GM, Effect(0, "Blessed", 3, 1, Target.ATTACK, timing=Timing.START)
    )
    await store.change_health(
        GUILD, campaign.id, GM, HealthTarget(combatant_id=first.id), "damage", 4
    )
    await store.advance_turn(GUILD, fight.id, GM)
    await store.take_attack(GUILD, fight.id, GM, first.id, press=Press(4242, 1))  # a press's claim
    # Character points: categories, settings, a ledger with an undo, a request.
    await store.set_skill_categories(GUILD, campaign.id, GM, {"Climbing": Category.ACTION})
    await store.set_advancement(GUILD, campaign.id, GM, attribute_price=5, approval=True)
    await store.award_cp(GUILD, campaign.id, GM, [ash.id], 30, "Session 1")
    await store.improve(GUILD, campaign.id, GM, ash.id, "Climbing")
    await store.undo_last_cp(GUILD, campaign.id, GM, ash.id)
    bo = await store.create_character(GUILD, campaign.id, GM, "Bo", owner_id=OTHER_PLAYER)
    await store.award_cp(GUILD, campaign.id, GM, [bo.id], 5, "Session 1")
    assert (await store.improve(GUILD, campaign.id, OTHER_PLAYER, bo.id, "Climbing")).waiting
    await store.set_species_costs(GUILD, campaign.id, GM, {"Elf": 20})
    await store.set_character_species(GUILD, campaign.id, GM, ash.id, "Elf")
    await store.set_meta("command_hash:global", "abc")
    await store.set_portrait(GUILD, campaign.id, GM, "Ash", "https://example.com/ash.png")
    await store.record_post(
        NewPost(2**62, GUILD, campaign.id, CHANNEL, ash.id, "Ash", PLAYER, True, 2**61, 2**60)
    )
    # Gear: items, a purse and its ledger, a counter, the currency, a waiting gift.
    await store.add_item(GUILD, campaign.id, PLAYER, "Ash", "Rope", 2, 1250, "hemp")
    await store.change_purse(GUILD, campaign.id, GM, "Ash", "grant", 345, "loot", press_id=2**62)
    await store.add_counter(GUILD, campaign.id, PLAYER, "Ash", "Luck", 3, 1)
    await store.set_gear_settings(
        GUILD, campaign.id, GM, currency=Currency(("Kupfer", "Silber"), (10,))
    )
    await store.add_item(GUILD, campaign.id, OTHER_PLAYER, "Bo", "Lamp")
    given = await store.give(GUILD, campaign.id, OTHER_PLAYER, "Bo", "Ash", item="Lamp")
    assert given.gift is not None


def _sqlite_dump(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    conn = sqlite3.connect(path)
    try:
        return {
            table: sorted(conn.execute(f"SELECT * FROM {table}").fetchall(), key=repr)
            for table in TABLES
        }
    finally:
        conn.close()


async def _postgres_dump(dsn: str) -> dict[str, list[tuple[Any, ...]]]:
    conn = await asyncpg.connect(dsn)
    try:
        return {
            table: sorted((tuple(r) for r in await conn.fetch(f"SELECT * FROM {table}")), key=repr)
            for table in TABLES
        }
    finally:
        await conn.close()


@pytest.fixture
async def filled(tmp_path: Path) -> Path:
    """A SQLite database with rows in every table."""
    path = tmp_path / "wire.db"
    store = await SqliteStore.open(path)
    try:
        await _fill(store)
    finally:
        await store.close()
    return path


async def test_copy_moves_every_row_and_ids_continue(filled: Path, postgres_database: str) -> None:
    report = await copy_to_postgres(filled, postgres_database)
    source = _sqlite_dump(filled)
    assert all(source[table] for table in TABLES), "the fill leaves no table empty"
    assert report.counts == {table: len(rows) for table, rows in source.items()}
    assert await _postgres_dump(postgres_database) == source

    conn = await asyncpg.connect(postgres_database)
    sqlite = sqlite3.connect(filled)
    try:
        with_ids = [
            table
            for table in TABLES
            if ("id",) in sqlite.execute(f"SELECT name FROM pragma_table_info('{table}')")
        ]
        # CP's, saved rolls', conditions' (named, on sheets, and their log), gear's and
        # sessions' tables
        assert len(with_ids) == 20
        for table in with_ids:
            largest = sqlite.execute(
                f"SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = ?), 0), "
                f"coalesce((SELECT max(id) FROM {table}), 0))",
                (table,),
            ).fetchone()[0]
            fresh = await conn.fetchval(f"SELECT nextval(pg_get_serial_sequence('{table}', 'id'))")
            assert fresh == largest + 1, table
        # A new row after the copy gets an id never seen before, deleted ones included.
        campaign = await conn.fetchval("SELECT min(id) FROM campaigns")
        new_id = await conn.fetchval(
            "INSERT INTO characters (campaign_id, name, name_key, owner_id) "
            "VALUES ($1, 'New', 'new', 1) RETURNING id",
            campaign,
        )
        used = sqlite.execute(
            "SELECT max(max(id), (SELECT seq FROM sqlite_sequence WHERE name = 'characters')) "
            "FROM characters"
        ).fetchone()[0]
        assert new_id > used
    finally:
        sqlite.close()
        await conn.close()


def test_cli_copies_and_prints_the_counts_without_the_password(
    filled: Path, postgres_database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Trust authentication ignores the password; it must not be printed anyway.
    dsn = postgres_database.replace("postgres@", "postgres:s3cret-pw@")
    assert main(["copy", "--from", str(filled), "--to", dsn]) == 0
    out = capsys.readouterr().out
    assert "s3cret-pw" not in out
    assert "postgres:***@" in out
    assert "the row counts match table by table" in out
    for line in ("campaigns  ", "roll_log  ", "health_log  "):
        assert line in out


async def test_non_empty_target_is_refused(filled: Path, postgres_database: str) -> None:
    await copy_to_postgres(filled, postgres_database)
    before = await _postgres_dump(postgres_database)
    with pytest.raises(CopyError, match=r"not empty \(it has rows in campaigns, "):
        await copy_to_postgres(filled, postgres_database)
    assert await _postgres_dump(postgres_database) == before


async def test_a_count_mismatch_rolls_everything_back(
    filled: Path, postgres_database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_rows = copy_module._rows

    def one_roll_lost(sqlite, table, columns):
        rows = list(real_rows(sqlite, table, columns))
        return rows[1:] if table == "roll_log" else rows

    monkeypatch.setattr(copy_module, "_rows", one_roll_lost)
    with pytest.raises(CopyError, match="roll_log: 6 rows in SQLite but 5 in PostgreSQL"):
        await copy_to_postgres(filled, postgres_database)
    assert not any((await _postgres_dump(postgres_database)).values())


async def test_a_bot_started_on_the_empty_target_does_not_block_the_copy(
    filled: Path, postgres_database: str
) -> None:
    conn = await asyncpg.connect(postgres_database)
    try:
        await conn.execute("INSERT INTO meta (key, value) VALUES ('command_hash:global', 'old')")
    finally:
        await conn.close()
    await copy_to_postgres(filled, postgres_database)
    dump = await _postgres_dump(postgres_database)
    assert dump["meta"] == [("command_hash:global", "abc")]


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("postgresql://postgres:pw@127.0.0.1:1/wire", "Cannot reach PostgreSQL at"),
        ("mysql://user:pw@host/wire", "must be a PostgreSQL URL"),
        ("{cluster}/no_such_database", "does not exist; create it first"),
    ],
)
def test_a_bad_target_is_refused_with_a_readable_message(
    filled: Path,
    postgres_dsn: str,
    target: str,
    message: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    target = target.format(cluster=postgres_dsn.rsplit("/", 1)[0])
    assert main(["copy", "--from", str(filled), "--to", target]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err
    assert "pw@" not in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_a_missing_source_is_refused(tmp_path: Path, postgres_database: str, capsys) -> None:
    assert main(["copy", "--from", str(tmp_path / "nope.db"), "--to", postgres_database]) == 2
    assert "There is no SQLite database at" in capsys.readouterr().err
