"""Campaign storage for the WIRE bot: campaigns, characters, crafting projects and the roll log.

The cogs use a `RuleStore` (storage/rules.py) and get one from `await open_store()`: the
rules of storage/rules.py over SQLite (storage/sqlite.py, a file: the default) or PostgreSQL
(storage/postgres.py, when WIRE_DATABASE is a postgresql:// URL). See docs/storage.md for the
schema, the export format, backups and the migrations policy.
"""

from __future__ import annotations

import os
from pathlib import Path

from storage.errors import (
    Busy,
    Conflict,
    ImportRejected,
    InvalidValue,
    NameTaken,
    NotFound,
    PermissionDenied,
    SchemaTooNew,
    StorageError,
)
from storage.models import Campaign, CraftProject, PendingAction, RollRecord
from storage.rules import RuleStore
from storage.sqlite import SqliteStore
from storage.urls import redacted

DEFAULT_DATABASE = "data/wire.db"
"""The database when neither WIRE_DATABASE nor a path is given (relative to the working folder)."""
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(database: str | Path | None) -> bool:
    """Whether the database setting is a PostgreSQL URL (postgresql://... or postgres://...)."""
    return isinstance(database, str) and database.strip().startswith(POSTGRES_SCHEMES)


def sqlite_path(database: str | Path) -> Path:
    """A SQLite setting as a path: `sqlite:data/wire.db` and `sqlite:///srv/wire.db` too."""
    text = str(database).strip()
    if text.startswith("sqlite:"):
        text = text.removeprefix("sqlite:")
        text = text[2:] if text.startswith("//") else text
    return Path(text)


def database_setting(database: str | Path | None = None) -> str | Path:
    """The database given, else $WIRE_DATABASE, else data/wire.db: a PostgreSQL URL as text,
    anything else as the path of a SQLite file."""
    if database is None or str(database) == "":
        database = os.environ.get("WIRE_DATABASE", "").strip() or DEFAULT_DATABASE
    if is_postgres(database):
        return str(database).strip()
    return sqlite_path(database)


def database_path(path: str | Path | None = None) -> Path:
    """The SQLite file: the path given, else $WIRE_DATABASE, else data/wire.db."""
    setting = database_setting(path)
    if isinstance(setting, str):
        raise StorageError(
            "This needs a SQLite database file, and WIRE_DATABASE is a PostgreSQL URL: "
            "give the file's path (--db), or use PostgreSQL's own tools (pg_dump)."
        )
    return setting


async def open_store(database: str | Path | None = None) -> RuleStore:
    """Open (creating or upgrading it first) the campaign database; SchemaTooNew if too new.

    A postgresql:// URL opens PostgreSQL (a pool of WIRE_DATABASE_POOL connections); a path,
    or `sqlite:` and a path, a SQLite file.
    """
    setting = database_setting(database)
    if isinstance(setting, str):
        from storage.postgres import PostgresStore  # asyncpg only when it is used

        return await PostgresStore.open(setting)
    return await SqliteStore.open(setting)


__all__ = [
    "DEFAULT_DATABASE",
    "Busy",
    "Campaign",
    "Conflict",
    "CraftProject",
    "ImportRejected",
    "InvalidValue",
    "NameTaken",
    "NotFound",
    "PendingAction",
    "PermissionDenied",
    "RollRecord",
    "RuleStore",
    "SchemaTooNew",
    "SqliteStore",
    "StorageError",
    "database_path",
    "database_setting",
    "is_postgres",
    "open_store",
    "redacted",
    "sqlite_path",
]
