"""The container's health check (Dockerfile HEALTHCHECK): exit 0 when the bot is connected to
Discord and its database answers, 1 otherwise, with one line saying which.

Connected: the heartbeat file (WIRE_HEARTBEAT, cogs/heartbeat.py) was written in the last MAX_AGE
seconds; the bot writes it only while its gateway is up. The database: a read of SQLite's
header page (`PRAGMA schema_version`, read-only), or `SELECT 1` on PostgreSQL. Not an integrity
check: SQLite's quick check reads every page, minutes a run on a large file, every minute; the bot
checks the file when it opens it, and `python -m storage check` does the whole scan when a host
asks. No network beyond the database: it asks Discord nothing.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
import time
from pathlib import Path

MAX_AGE = 90.0
"""Seconds: four missed beats of 20 s and a margin; then the bot is not connected."""


def heartbeat_problem(path: str | None, now: float | None = None) -> str | None:
    if not path:
        return "WIRE_HEARTBEAT is not set, so the bot writes no heartbeat"
    try:
        age = (time.time() if now is None else now) - Path(path).stat().st_mtime
    except OSError:
        return f"no heartbeat at {path}: the bot has not connected to Discord"
    if age > MAX_AGE:
        return f"the last heartbeat is {age:.0f} s old: the bot is not connected to Discord"
    return None


def database_problem(database: str) -> str | None:
    if database.startswith(("postgresql://", "postgres://")):
        return _postgres_problem(database)
    path = Path(database.removeprefix("sqlite:")).absolute()
    try:
        connection = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=5)
        try:
            connection.execute("PRAGMA schema_version").fetchone()
        finally:
            connection.close()
    except sqlite3.Error as exc:
        return f"the database {path} does not answer: {exc}"
    return None


def _postgres_problem(url: str) -> str | None:
    import asyncpg  # the bot's own dependency; the password may come from PGPASSWORD

    async def ask() -> None:
        connection = await asyncpg.connect(url, timeout=5)
        try:
            await connection.fetchval("SELECT 1")
        finally:
            await connection.close()

    try:
        asyncio.run(ask())
    except Exception as exc:  # any failure is an unhealthy answer, never a traceback
        return f"the PostgreSQL database does not answer: {type(exc).__name__}"
    return None


def main() -> int:
    problem = heartbeat_problem(os.environ.get("WIRE_HEARTBEAT")) or database_problem(
        os.environ.get("WIRE_DATABASE", "data/wire.db")
    )
    if problem:
        print(f"unhealthy: {problem}")
        return 1
    print("healthy: connected to Discord, the database answers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
