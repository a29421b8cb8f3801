"""Campaign storage for the WIRE bot: campaigns, characters, crafting projects and the roll log.

The cogs use the `Store` interface (storage/base.py) and get one from `await open_store()`; the
only backend today is SQLite (storage/sqlite.py). See docs/storage.md for the schema, the
export format, backups and the migrations policy.
"""

from __future__ import annotations

import os
from pathlib import Path

from storage.base import Store
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
from storage.models import (
    Campaign,
    Character,
    CraftProject,
    PendingAction,
    RollRecord,
    Weapon,
)
from storage.sqlite import SqliteStore

DEFAULT_DATABASE = "data/wire.db"
"""The database when neither WIRE_DATABASE nor a path is given (relative to the working folder)."""


def database_path(path: str | Path | None = None) -> Path:
    """The path given, else $WIRE_DATABASE, else data/wire.db (relative to the working folder)."""
    if path is None or str(path) == "":
        path = os.environ.get("WIRE_DATABASE") or DEFAULT_DATABASE
    return Path(path)


async def open_store(path: str | Path | None = None) -> Store:
    """Open (creating or upgrading it first) the campaign database; SchemaTooNew if too new."""
    return await SqliteStore.open(database_path(path))


__all__ = [
    "DEFAULT_DATABASE",
    "Busy",
    "Campaign",
    "Character",
    "Conflict",
    "CraftProject",
    "ImportRejected",
    "InvalidValue",
    "NameTaken",
    "NotFound",
    "PendingAction",
    "PermissionDenied",
    "RollRecord",
    "SchemaTooNew",
    "SqliteStore",
    "StorageError",
    "Store",
    "Weapon",
    "database_path",
    "open_store",
]
