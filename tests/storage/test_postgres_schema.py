"""The PostgreSQL schema: migrated once at start-up, equal to SQLite's, newer databases refused.

These run on the throwaway cluster of storage.pg_testing and are skipped (failed in CI) without
PostgreSQL.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from storage.errors import SchemaTooNew
from storage.postgres_schema import (
    latest_postgres_version,
    postgres_migrations,
    postgres_schema_version,
    prepare_postgres,
)
from storage.schema import SQLITE_ONLY_TABLES, prepare_database

UTC_TEXT = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$")


def test_postgres_migrations_are_numbered_from_one() -> None:
    found = postgres_migrations()
    assert [m.version for m in found] == list(range(1, len(found) + 1))
    assert latest_postgres_version() == len(found) >= 1


async def _columns(conn: asyncpg.Connection) -> dict[str, list[tuple[str, bool]]]:
    rows = await conn.fetch(
        "SELECT table_name, column_name, is_nullable = 'NO' AS not_null "
        "FROM information_schema.columns WHERE table_schema = 'public' "
        "AND table_name <> 'schema_migrations' ORDER BY table_name, ordinal_position"
    )
    tables: dict[str, list[tuple[str, bool]]] = {}
    for row in rows:
        tables.setdefault(row["table_name"], []).append((row["column_name"], row["not_null"]))
    return tables


def _sqlite_columns(path: Path) -> dict[str, list[tuple[str, bool]]]:
    conn = sqlite3.connect(path)
    try:
        names = [
            row[0]
            for row in conn.execute(
                "SELECT name FROM sqlite_schema WHERE type = 'table' "
                "AND name NOT LIKE 'sqlite_%' ORDER BY name"
            )
            if row[0] not in SQLITE_ONLY_TABLES
        ]
        return {
            # An INTEGER PRIMARY KEY is never NULL in SQLite either (it is the rowid).
            name: [
                (row[1], bool(row[3] or row[5]))
                for row in conn.execute(f"PRAGMA table_info({name})")
            ]
            for name in names
        }
    finally:
        conn.close()


def _sqlite_indexes(path: Path) -> set[str]:
    conn = sqlite3.connect(path)
    try:
        return {
            row[0]
            for row in conn.execute(
                "SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL"
            )
        }
    finally:
        conn.close()


async def test_fresh_database_gets_the_sqlite_schema(
    postgres_empty_database: str, tmp_path: Path
) -> None:
    assert await prepare_postgres(postgres_empty_database) == latest_postgres_version()
    sqlite_path = tmp_path / "wire.db"
    prepare_database(sqlite_path)
    conn = await asyncpg.connect(postgres_empty_database)
    try:
        # Same tables, same columns in the same order, the same NOT NULLs: rows convert alike.
        assert await _columns(conn) == _sqlite_columns(sqlite_path)
        indexes = {
            row[0]
            for row in await conn.fetch(
                "SELECT indexname FROM pg_indexes WHERE schemaname = 'public' "
                "AND indexname NOT LIKE '%_pkey'"
            )
        }
        assert indexes == _sqlite_indexes(sqlite_path)
        assert await postgres_schema_version(conn) == latest_postgres_version()
    finally:
        await conn.close()


async def test_stored_values_look_like_sqlites(postgres_database: str) -> None:
    conn = await asyncpg.connect(postgres_database)
    try:
        campaign = await conn.fetchrow(
            "INSERT INTO campaigns (guild_id, name, name_key) VALUES ($1, 'Night', 'night') "
            "RETURNING id, is_default, npc_take10, created_at",
            1 << 60,  # a snowflake-sized guild id
        )
        assert campaign["id"] == 1
        assert (campaign["is_default"], campaign["npc_take10"]) == (0, 1)
        # Defaults write the same fixed-width UTC text as the bot's utc_text.
        assert UTC_TEXT.match(campaign["created_at"])
        with pytest.raises(asyncpg.CheckViolationError):
            await conn.execute("UPDATE campaigns SET is_default = 2")
        with pytest.raises(asyncpg.PostgresError):
            await conn.execute("UPDATE campaigns SET attribute_names = 'not json'")
    finally:
        await conn.close()


async def test_text_columns_sort_as_sqlite_does(postgres_database: str) -> None:
    conn = await asyncpg.connect(postgres_database)
    try:
        campaign = await conn.fetchval(
            "INSERT INTO campaigns (guild_id, name, name_key) VALUES (1, 'c', 'c') RETURNING id"
        )
        for name in ["b", "B", "a", "Ä", "_z"]:
            await conn.execute(
                "INSERT INTO characters (campaign_id, name, name_key, owner_id) "
                "VALUES ($1, $2, $2, 1)",
                campaign,
                name,
            )
        ordered = [r[0] for r in await conn.fetch("SELECT name FROM characters ORDER BY name")]
        assert ordered == sorted(["b", "B", "a", "Ä", "_z"])  # code point order, like SQLite
    finally:
        await conn.close()


async def test_two_processes_starting_at_once_migrate_once(postgres_empty_database: str) -> None:
    versions = await asyncio.gather(*(prepare_postgres(postgres_empty_database) for _ in range(4)))
    assert versions == [latest_postgres_version()] * 4
    conn = await asyncpg.connect(postgres_empty_database)
    try:
        applied = await conn.fetch("SELECT version FROM schema_migrations ORDER BY version")
        assert [r[0] for r in applied] == [m.version for m in postgres_migrations()]
    finally:
        await conn.close()


async def test_restart_on_a_migrated_database_changes_nothing(postgres_database: str) -> None:
    conn = await asyncpg.connect(postgres_database)
    try:
        await conn.execute("INSERT INTO meta (key, value) VALUES ('k', 'v')")
        assert await prepare_postgres(conn) == latest_postgres_version()
        assert await conn.fetchval("SELECT value FROM meta WHERE key = 'k'") == "v"
        assert await conn.fetchval("SELECT count(*) FROM schema_migrations") == len(
            postgres_migrations()
        )
    finally:
        await conn.close()


async def test_database_of_a_newer_bot_is_refused(postgres_database: str) -> None:
    newer = latest_postgres_version() + 1
    conn = await asyncpg.connect(postgres_database)
    try:
        await conn.execute(
            "INSERT INTO schema_migrations (version, name) VALUES ($1, 'from_the_future')", newer
        )
    finally:
        await conn.close()
    with pytest.raises(SchemaTooNew, match=f"schema {newer}"):
        await prepare_postgres(postgres_database)


async def test_failed_migration_leaves_the_database_as_it_was(
    postgres_empty_database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from storage import postgres_schema
    from storage.schema import Migration

    broken = (
        *postgres_migrations(),
        Migration(latest_postgres_version() + 1, "broken", "CREATE TABLE x (); SELECT 1/0;"),
    )
    monkeypatch.setattr(postgres_schema, "postgres_migrations", lambda: broken)
    with pytest.raises(asyncpg.DivisionByZeroError):
        await prepare_postgres(postgres_empty_database)
    conn = await asyncpg.connect(postgres_empty_database)
    try:
        # One transaction for all: not even migration 1 stayed.
        assert await postgres_schema_version(conn) == 0
    finally:
        await conn.close()


async def test_upgrade_to_13_numbers_each_characters_entries(postgres_empty_database: str) -> None:
    """The twin of SQLite's migration 19: existing CP entries are numbered per character, 1 up,
    in the order they were written."""
    assert await prepare_postgres(postgres_empty_database, target=12) == 12
    conn = await asyncpg.connect(postgres_empty_database)
    try:
        await conn.execute(
            "INSERT INTO campaigns (id, guild_id, name, name_key, is_default) "
            "VALUES (1, 1001, 'Saga', 'saga', 1)"
        )
        for character, name in ((1, "Ash"), (2, "Bo")):
            await conn.execute(
                "INSERT INTO characters (id, campaign_id, name, name_key, owner_id) "
                "VALUES ($1, 1, $2, $3, 600)",
                character,
                name,
                name.lower(),
            )
        for character in (1, 2, 1, 2, 2):
            await conn.execute(
                "INSERT INTO cp_ledger (campaign_id, character_id, user_id, kind, amount) "
                "VALUES (1, $1, 500, 'award', 5)",
                character,
            )
        assert await prepare_postgres(conn) == latest_postgres_version()
        rows = await conn.fetch("SELECT id, character_id, number FROM cp_ledger ORDER BY id")
        assert [tuple(r) for r in rows] == [(1, 1, 1), (2, 2, 1), (3, 1, 2), (4, 2, 2), (5, 2, 3)]
    finally:
        await conn.close()
