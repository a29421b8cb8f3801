"""The read caches are only as true as the list of tables whose changes empty them: SQLite's
triggers (migration 0009), PostgreSQL's (migration 0003) and `pg_cache.CACHED_TABLES` must name
the same tables, and every table a cached statement reads must be among them. A column joined
in from a new table without its trigger would serve stale sheets to every roll."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import asyncpg

from storage.pg_cache import CACHED_TABLES
from storage.schema import prepare_database
from storage.sql import postgres as postgres_sql
from storage.sql import sqlite as sqlite_sql

CACHED_STATEMENTS = (
    "campaign_for_channel",
    "active_character",
    "roller_context",
    "running_fight_of_channel",
)
"""The statements the rules read with `cached=True` (storage/rules.py)."""
_TABLE = re.compile(r"\b(?:FROM|JOIN)\s+([a-z_]+)", re.IGNORECASE)


def test_every_table_a_cached_read_reads_is_watched() -> None:
    for catalogue in (sqlite_sql.STATEMENTS, postgres_sql.STATEMENTS):
        for name in CACHED_STATEMENTS:
            read = set(_TABLE.findall(catalogue[name]))
            assert read and read <= CACHED_TABLES, (name, read - CACHED_TABLES)


def test_the_cached_statements_are_the_ones_the_rules_cache() -> None:
    rules = "".join(
        f.read_text()
        for f in sorted((Path(__file__).resolve().parents[2] / "storage").glob("rules*.py"))
    )
    # Each `query("name", ...)` call up to its `cached=True`, never across another call.
    cached = re.findall(r'query\(\s*"([a-z_]+)"(?:(?!query\().){0,400}?cached=True', rules, re.S)
    assert sorted(set(cached)) == sorted(CACHED_STATEMENTS)


def test_sqlite_triggers_watch_the_cached_tables(tmp_path: Path) -> None:
    path = tmp_path / "wire.db"
    prepare_database(path)
    conn = sqlite3.connect(path)
    try:
        watched = {
            row[0]
            for row in conn.execute(
                "SELECT tbl_name FROM sqlite_schema WHERE type = 'trigger' "
                "AND sql LIKE '%cache_version%'"
            )
        }
    finally:
        conn.close()
    assert watched == CACHED_TABLES


async def test_postgresql_triggers_watch_the_cached_tables(postgres_database: str) -> None:
    conn = await asyncpg.connect(postgres_database)
    try:
        rows = await conn.fetch(
            "SELECT c.relname FROM pg_trigger AS t JOIN pg_class AS c ON c.oid = t.tgrelid "
            "JOIN pg_proc AS p ON p.oid = t.tgfoid WHERE p.proname = 'wire_cache_notify'"
        )
    finally:
        await conn.close()
    assert {row[0] for row in rows} == CACHED_TABLES
