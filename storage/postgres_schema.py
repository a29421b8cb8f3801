"""The PostgreSQL schema's migrations, applied at start-up by every bot process.

Migrations are the numbered `storage/migrations_postgres/NNNN_name.sql` files (their own
numbering: PostgreSQL never had SQLite's history). Every pending one is applied in a single
transaction that first takes a transaction-level advisory lock, so when several shard processes
start at once one of them migrates and the others wait, then find nothing left to do. A crash
mid-way rolls the whole transaction back: PostgreSQL's DDL is transactional. Each applied
migration is a row of `schema_migrations`; the version is the largest, and a database newer than
this code is refused with SchemaTooNew, as the SQLite backend does.
"""

from __future__ import annotations

import logging

import asyncpg

from storage.errors import SchemaTooNew
from storage.schema import Migration, load_migrations, too_new_message

log = logging.getLogger("wire.storage")

MIGRATIONS_FOLDER = "migrations_postgres"

MIGRATION_LOCK_KEY = 0x5749_5245_0000_0001
"""pg_advisory_xact_lock's key for migrating: "WIRE" and 1, unlikely to clash with another app
sharing the database."""

_VERSION_TABLE = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at TEXT NOT NULL DEFAULT wire_utc_now()
)"""


def postgres_migrations() -> tuple[Migration, ...]:
    """All shipped PostgreSQL migrations in order, numbered 1, 2, 3... without gaps."""
    return load_migrations(MIGRATIONS_FOLDER)


def latest_postgres_version() -> int:
    return postgres_migrations()[-1].version


async def postgres_schema_version(conn: asyncpg.Connection) -> int:
    """The last migration applied to this database; 0 for an empty one."""
    if await conn.fetchval("SELECT to_regclass('schema_migrations')") is None:
        return 0
    return await conn.fetchval("SELECT coalesce(max(version), 0) FROM schema_migrations")


async def check_postgres_not_too_new(conn: asyncpg.Connection) -> int:
    """The schema version, after refusing a database from a newer bot (SchemaTooNew)."""
    version = await postgres_schema_version(conn)
    if version > latest_postgres_version():
        raise SchemaTooNew(too_new_message(version, latest_postgres_version()))
    return version


async def migrate_postgres(conn: asyncpg.Connection, target: int | None = None) -> int:
    """Apply the pending migrations up to `target` (default: all) in one locked transaction.

    Returns the version reached. The connection must not be inside a transaction already.
    """
    target = latest_postgres_version() if target is None else target
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK_KEY)
        # Read under the lock: another process may have migrated while we waited for it.
        version = await check_postgres_not_too_new(conn)
        pending = [m for m in postgres_migrations() if version < m.version <= target]
        for migration in pending:
            # A script without parameters runs as one simple query: all its statements at once.
            await conn.execute(migration.sql)
            if migration.version == 1:
                await conn.execute(_VERSION_TABLE)  # needs wire_utc_now() from migration 1
            await conn.execute(
                "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
                migration.version,
                migration.name,
            )
            version = migration.version
        if pending:
            log.info(
                "PostgreSQL schema migrated to version %d (%s).",
                version,
                ", ".join(f"{m.version:04d}_{m.name}" for m in pending),
            )
        return version


async def prepare_postgres(database: str | asyncpg.Connection, target: int | None = None) -> int:
    """Create or upgrade the schema of the database at a DSN (or on an open connection).

    Returns the version reached; raises SchemaTooNew for a database of a newer bot.
    """
    if isinstance(database, str):
        conn = await asyncpg.connect(database)
        try:
            return await migrate_postgres(conn, target)
        finally:
            await conn.close()
    return await migrate_postgres(database, target)
