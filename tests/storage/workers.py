"""Code run in separate processes by the concurrency tests, each with its own connection(s):
`db_path` is a SQLite file or a PostgreSQL URL.

Module-level functions so multiprocessing's "spawn" can import them; and a `__main__` for the
SIGKILL test, which needs a plain child process whose output it can read line by line.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from storage import open_store
from storage.models import RollRecord


def final_skill_values(prefix: str, rounds: int) -> dict[str, int]:
    """What `set_stats` leaves in each of its skills: the last value it wrote there."""
    values: dict[str, int] = {}
    for i in range(rounds):
        values[f"{prefix}{i % 10}"] = i % 11
    return values


def set_stats(
    db_path: str,
    guild_id: int,
    campaign_id: int,
    actor_id: int,
    character: str,
    prefix: str,
    rounds: int,
    increments: int,
    start: Any,
) -> None:
    """`rounds` set_stat calls on this worker's own ten skills, with `increments` adjust_stat +1
    calls on the shared attribute "Counter" spread among them."""

    async def run() -> None:
        store = await open_store(db_path)
        try:
            start.wait(30)
            every = max(1, rounds // max(1, increments))
            done = 0
            for i in range(rounds):
                await store.set_stat(
                    guild_id, campaign_id, actor_id, character, "skill", f"{prefix}{i % 10}", i % 11
                )
                if done < increments and i % every == 0:
                    await store.adjust_stat(
                        guild_id, campaign_id, actor_id, character, "attribute", "Counter", 1
                    )
                    done += 1
            while done < increments:
                await store.adjust_stat(
                    guild_id, campaign_id, actor_id, character, "attribute", "Counter", 1
                )
                done += 1
        finally:
            await store.close()

    asyncio.run(run())


def record(guild_id: int, campaign_id: int, user_id: int, interaction_id: int) -> RollRecord:
    return RollRecord(
        guild_id=guild_id,
        campaign_id=campaign_id,
        channel_id=1,
        user_id=user_id,
        kind="check",
        inputs={"n": interaction_id},
        die=10,
        die_source="rolled",
        total=15,
        target=15,
        success=True,
        degrees=0,
        raw_degrees=0,
        interaction_id=interaction_id,
    )


def log_rolls(
    db_path: str,
    guild_id: int,
    campaign_id: int,
    user_id: int,
    first_interaction: int,
    count: int,
    start: Any,
) -> None:
    async def run() -> None:
        store = await open_store(db_path)
        try:
            start.wait(30)
            for n in range(first_interaction, first_interaction + count):
                await store.log_roll(record(guild_id, campaign_id, user_id, n))
        finally:
            await store.close()

    asyncio.run(run())


async def log_forever(db_path: str, guild_id: int, campaign_id: int) -> None:
    """Log rolls until killed, printing each id once log_roll has returned (committed)."""
    store = await open_store(db_path)
    n = 0
    while True:
        n += 1
        roll_id = await store.log_roll(record(guild_id, campaign_id, 7, 10_000_000 + n))
        sys.stdout.write(f"{roll_id}\n")
        sys.stdout.flush()


if __name__ == "__main__":
    command, path, guild, campaign = sys.argv[1:5]
    if command != "log-forever":
        sys.exit(f"unknown command {command}")
    asyncio.run(log_forever(path, int(guild), int(campaign)))
