"""How long `python -m storage copy` takes to move a big roll log into PostgreSQL.

    .venv/bin/python -m bench.bench_copy [--rolls 200000]

A SQLite database with 50 guilds' campaigns and characters gets `--rolls` roll-log rows shaped
like the bot's (a JSON inputs document, 18-19 digit ids), written in bulk; it is then copied into
a fresh database of a throwaway PostgreSQL cluster (storage.pg_testing), and the time and the
rows a second are printed. Not part of `python -m bench`: it needs PostgreSQL installed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path

from storage.copy import copy_to_postgres
from storage.models import Actor
from storage.pg_testing import ClusterError, throwaway_cluster
from storage.schema import connect
from storage.sqlite import SqliteStore

GUILDS = 50
BASE_ID = 900_000_000_000_000_000


async def fill(path: Path, rolls: int) -> None:
    store = await SqliteStore.open(path)
    campaigns = []
    try:
        for n in range(GUILDS):
            guild = BASE_ID + n
            campaign = await store.create_campaign(guild, "Main", Actor(guild + 1, True))
            character = await store.create_character(
                guild, campaign.id, guild + 1, "Hero", attributes={"Strength": 3}
            )
            campaigns.append((guild, campaign.id, character.id))
    finally:
        await store.close()
    rng = random.Random(1)
    inputs = json.dumps({"attribute": "Strength", "skill": "Long swords", "target": 15})
    conn = connect(path)
    try:
        conn.execute("BEGIN")
        conn.executemany(
            "INSERT INTO roll_log (guild_id, campaign_id, channel_id, user_id, kind, inputs, die, "
            "die_source, total, target, success, degrees, raw_degrees, character_id, "
            "character_name, interaction_id) "
            "VALUES (?, ?, ?, ?, 'check', ?, ?, 'rolled', ?, 15, ?, 1, 1, ?, 'Hero', ?)",
            (
                (guild, campaign, guild + 2, guild + 1, inputs, die, die + 5, int(die >= 10),
                 character, BASE_ID * 2 + i)
                for i in range(rolls)
                for guild, campaign, character in [rng.choice(campaigns)]
                for die in [rng.randint(1, 20)]
            ),
        )  # fmt: skip
        conn.execute("COMMIT")
    finally:
        conn.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=200_000)
    args = parser.parse_args(argv)
    try:
        with throwaway_cluster() as cluster, tempfile.TemporaryDirectory() as folder:
            source = Path(folder) / "wire.db"
            asyncio.run(fill(source, args.rolls))
            megabytes = source.stat().st_size / 1e6
            dsn = cluster.create_database("wire")
            started = time.perf_counter()
            report = asyncio.run(copy_to_postgres(source, dsn))
            seconds = time.perf_counter() - started
    except ClusterError as exc:
        print(f"PostgreSQL unavailable ({exc}): nothing measured.")
        return 1
    rows = sum(report.counts.values())
    print(
        f"copy: {rows:,} rows ({report.counts['roll_log']:,} in roll_log) from a "
        f"{megabytes:.1f} MB SQLite file in {seconds:.2f} s: {rows / seconds:,.0f} rows/s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
