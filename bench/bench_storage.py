"""Storage benchmark: the cost of a roll's database work at 1,000 and at 100,000 characters.

    .venv/bin/python -m bench.bench_storage            1,000 vs 100,000 characters (1M rolls)
    .venv/bin/python -m bench.bench_storage --quick    1,000 vs 10,000 characters (100k rolls)

Every roll command does the same two things against the database: load the roller's active
character and log the roll. This builds two databases of the same shape, a small one (10
campaigns of 100 characters) and a large one (1,000 campaigns of 100 characters, each with 5
attributes, 10 skills and a weapon, and a million logged rolls), then times that pair of calls
through the real store API (`get_active_character` + `log_roll`) on each, interleaved in blocks
so drift on the machine hits both alike, and prints p50/p99 and the large/small ratio.

By default the event loop and the stores' threads are pinned to one CPU, and background work
(the WAL checkpoints, which run in asyncio's default executor) to another when there is one. On
a small virtual machine the scheduler otherwise tends to move a store's thread to the other CPU
once it does more work, and every hand-over between the event loop and that thread then pays a
cross-CPU wake-up (tens of microseconds each, two per call): that measured the scheduler, not
the database, and made the large database look slower for a reason unrelated to its size.
`--no-pin` shows those figures.

The databases are built with bulk inserts in one transaction with synchronous=OFF (the build
only, never the store) and cached in bench/out/ (or --db-dir) under a name holding their sizes
and the schema version, so a re-run starts measuring at once. The rolls a run logs are deleted
afterwards, so the cached databases stay as built. Figures are for a warm OS file cache.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import sqlite3
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from storage.models import RollRecord
from storage.rows import roll_params
from storage.schema import latest_version, migrate
from storage.sql.sqlite import STATEMENTS
from storage.sqlite import CONNECTION_PRAGMAS, SqliteStore

OUT = Path(__file__).resolve().parent / "out"
BUILD_FORMAT = 1
"""Bump when the generated data changes, so cached databases are rebuilt."""
ATTRIBUTES = ("Strength", "Constitution", "Reaction", "Resolve", "Wits")
SKILLS = (
    "Parry",
    "Dodge",
    "Block",
    "Climbing",
    "Long swords",
    "Short blades",
    "Spears",
    "Smithing",
    "Stealth",
    "Persuasion",
)
PER_CAMPAIGN = 100
NPCS_PER_CAMPAIGN = 10
CAMPAIGNS_PER_GUILD = 10
AIM_P99_US = 2000
AIM_RATIO = 1.5


@dataclass(frozen=True)
class Size:
    label: str
    campaigns: int
    rolls: int

    @property
    def characters(self) -> int:
        return self.campaigns * PER_CAMPAIGN

    def file_name(self) -> str:
        return (
            f"wire-bench-{self.campaigns}c-{PER_CAMPAIGN}ch-{self.rolls}r-"
            f"schema{latest_version()}-b{BUILD_FORMAT}.db"
        )


def guild_of(campaign: int) -> int:
    return 1_000_000 + (campaign - 1) // CAMPAIGNS_PER_GUILD


def player_of(campaign: int, k: int) -> int:
    return 10_000_000 + campaign * 1000 + k


# ---- building ---------------------------------------------------------------------------
def build(path: Path, size: Size) -> None:
    """Write the database to `path` (via a temporary name, so a killed build leaves no cache)."""
    partial = path.with_name(path.name + ".building")
    for leftover in (partial, Path(f"{partial}-wal"), Path(f"{partial}-shm")):
        leftover.unlink(missing_ok=True)
    rng = random.Random(20261130 + size.campaigns)
    conn = sqlite3.connect(partial, isolation_level=None)
    conn.execute("PRAGMA journal_mode = MEMORY")
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("PRAGMA cache_size = -262144")
    migrate(conn)
    conn.execute("BEGIN")
    campaigns = range(1, size.campaigns + 1)
    conn.executemany(
        "INSERT INTO campaigns (id, guild_id, name, name_key, is_default) VALUES (?, ?, ?, ?, ?)",
        (
            (c, guild_of(c), f"Campaign {c}", f"campaign {c}", int(c % CAMPAIGNS_PER_GUILD == 1))
            for c in campaigns
        ),
    )
    conn.executemany(
        "INSERT INTO campaign_gms VALUES (?, ?, 0)", ((c, 9_000_000 + c) for c in campaigns)
    )

    def characters():
        character_id = 0
        for c in campaigns:
            for k in range(PER_CAMPAIGN):
                character_id += 1
                npc = k >= PER_CAMPAIGN - NPCS_PER_CAMPAIGN
                owner = 9_000_000 + c if npc else player_of(c, k)
                name = f"{'NPC' if npc else 'Hero'} {c}-{k}"
                yield character_id, c, name, name.casefold(), owner, int(npc)

    conn.executemany(
        "INSERT INTO characters (id, campaign_id, name, name_key, owner_id, is_npc) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        characters(),
    )

    def stats():
        for character_id in range(1, size.characters + 1):
            for position, name in enumerate(ATTRIBUTES, 1):
                yield character_id, "attribute", name.casefold(), name, rng.randint(-2, 5), position
            for position, name in enumerate(SKILLS, len(ATTRIBUTES) + 1):
                yield character_id, "skill", name.casefold(), name, rng.randint(0, 8), position

    conn.executemany("INSERT INTO character_stats VALUES (?, ?, ?, ?, ?, ?)", stats())
    conn.executemany(
        "INSERT INTO weapons (character_id, name_key, name, base, attribute, skill, position) "
        "VALUES (?, 'sabre', 'Sabre', 4, 'Strength', 'Long swords', 1)",
        ((i,) for i in range(1, size.characters + 1)),
    )
    conn.executemany(
        "INSERT INTO active_characters VALUES (?, ?, ?)",
        (
            (c, player_of(c, k), (c - 1) * PER_CAMPAIGN + k + 1)
            for c in campaigns
            for k in range(PER_CAMPAIGN - NPCS_PER_CAMPAIGN)
        ),
    )

    def rolls():
        for n in range(1, size.rolls + 1):
            c = rng.randint(1, size.campaigns)
            k = rng.randrange(PER_CAMPAIGN - NPCS_PER_CAMPAIGN)
            die = rng.randint(1, 20)
            inputs = json.dumps({"attribute": "Strength", "skill": "Climbing", "target": 15})
            yield (
                guild_of(c), c, 5_000 + c, player_of(c, k), "check", inputs, die, "rolled",
                die + 6, 15, int(die + 6 >= 15), 0, 0, (c - 1) * PER_CAMPAIGN + k + 1,
                f"Hero {c}-{k}", n, "2026-11-30T12:00:00.000Z",
            )  # fmt: skip

    conn.executemany(
        "INSERT INTO roll_log (guild_id, campaign_id, channel_id, user_id, kind, inputs, die, "
        "die_source, total, target, success, degrees, raw_degrees, character_id, "
        "character_name, interaction_id, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rolls(),
    )
    conn.execute("COMMIT")
    conn.execute("PRAGMA optimize")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.close()
    partial.rename(path)


def ensure(directory: Path, size: Size, rebuild: bool) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / size.file_name()
    if rebuild:
        path.unlink(missing_ok=True)
    if path.exists():
        print(f"  {size.label}: cached {path}", flush=True)
    else:
        print(f"  {size.label}: building {size.characters:,} characters, "
              f"{size.rolls:,} rolls ...", end="", flush=True)  # fmt: skip
        started = time.perf_counter()
        build(path, size)
        print(f" {time.perf_counter() - started:.1f} s -> {path}", flush=True)
    return path


# ---- measuring --------------------------------------------------------------------------
class Target:
    """One database under test: its store and the players who have an active character."""

    def __init__(self, size: Size, store: SqliteStore, seed: int) -> None:
        self.size = size
        self.store = store
        self.rng = random.Random(seed)
        self.next_interaction = 10**15
        self.samples: list[float] = []

    def pick(self) -> tuple[int, int, int]:
        c = self.rng.randint(1, self.size.campaigns)
        k = self.rng.randrange(PER_CAMPAIGN - NPCS_PER_CAMPAIGN)
        return guild_of(c), c, player_of(c, k)

    async def one(self, keep: bool) -> None:
        guild_id, campaign_id, user_id = self.pick()
        self.next_interaction += 1
        started = time.perf_counter_ns()
        character = await self.store.get_active_character(guild_id, campaign_id, user_id)
        assert character is not None
        await self.store.log_roll(
            RollRecord(
                guild_id=guild_id,
                campaign_id=campaign_id,
                channel_id=5_000 + campaign_id,
                user_id=user_id,
                kind="check",
                inputs={"attribute": "Strength", "skill": "Climbing", "target": 15},
                die=11,
                die_source="rolled",
                total=character.attributes["Strength"] + character.skills["Climbing"] + 11,
                target=15,
                success=True,
                degrees=0,
                raw_degrees=0,
                character_id=character.id,
                character_name=character.name,
                interaction_id=self.next_interaction,
            )
        )
        if keep:
            self.samples.append((time.perf_counter_ns() - started) / 1000)


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def measure(
    paths: dict[str, Path],
    sizes: list[Size],
    ops: int,
    block: int,
    background_cpu: int | None = None,
) -> list[Target]:
    if background_cpu is not None:
        asyncio.get_running_loop().set_default_executor(
            ThreadPoolExecutor(initializer=os.sched_setaffinity, initargs=(0, {background_cpu}))
        )
    targets = []
    for n, size in enumerate(sizes):
        store = await SqliteStore.open(paths[size.label])
        targets.append(Target(size, store, seed=n))
    try:
        for target in targets:  # warm up: connections, statement cache, hot pages
            for _ in range(min(200, ops)):
                await target.one(keep=False)
        gc.collect()
        done = 0
        while done < ops:
            step = min(block, ops - done)
            for target in targets:
                for _ in range(step):
                    await target.one(keep=True)
            done += step
    finally:
        for target in targets:
            await target.store.close()
    return targets


def measure_sql(paths: dict[str, Path], sizes: list[Size], ops: int, block: int) -> None:
    """The same two statements on plain sqlite3 connections in this thread: the database's own
    share of the time, with no hand-over to a worker thread."""
    runs = []
    for n, size in enumerate(sizes):
        conn = sqlite3.connect(paths[size.label], isolation_level=None)
        for pragma in CONNECTION_PRAGMAS:
            conn.execute(pragma)
        runs.append((size, conn, random.Random(100 + n), []))
    interaction = 2 * 10**15
    try:
        for round_number in range(-(-min(200, ops) // block) + -(-ops // block)):
            for size, conn, rng, samples in runs:
                for _ in range(block):
                    c = rng.randint(1, size.campaigns)
                    user = player_of(c, rng.randrange(PER_CAMPAIGN - NPCS_PER_CAMPAIGN))
                    interaction += 1
                    started = time.perf_counter_ns()
                    [row] = conn.execute(
                        STATEMENTS["active_character"],
                        {"campaign_id": c, "user_id": user, "guild_id": guild_of(c)},
                    ).fetchall()
                    record = RollRecord(
                        guild_of(c), c, 5_000 + c, user, "check", {"target": 15}, 11, "rolled",
                        17, 15, True, 1, 1, character_id=row[0], character_name=row[2],
                        interaction_id=interaction,
                    )  # fmt: skip
                    conn.execute(STATEMENTS["insert_roll"], roll_params(record)).fetchall()
                    if round_number * block >= min(200, ops):  # after the warm-up
                        samples.append((time.perf_counter_ns() - started) / 1000)
    finally:
        for _size, conn, _rng, _samples in runs:
            conn.close()
    print()
    print("the same two statements alone (plain sqlite3, no thread hand-over), microseconds")
    print(f"{'database':<12}{'characters':>12}{'p50':>9}{'p99':>9}")
    for size, _conn, _rng, samples in runs:
        p50, p99 = percentile(samples, 0.5), percentile(samples, 0.99)
        print(f"{size.label:<12}{size.characters:>12,}{p50:>9.0f}{p99:>9.0f}")


def forget_bench_rolls(path: Path) -> None:
    """Delete what the run logged, so the cached database stays as built."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("DELETE FROM roll_log WHERE interaction_id >= ?", (10**15,))
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def report(targets: list[Target], ops: int) -> bool:
    print()
    print("load the active character + log a roll (get_active_character + log_roll), "
          f"{ops:,} times each, microseconds")  # fmt: skip
    header = (
        f"{'database':<12}{'campaigns':>10}{'characters':>12}{'rolls':>12}"
        f"{'p50':>9}{'p90':>9}{'p99':>9}{'max':>9}{'mean':>9}"
    )
    print(header)
    print("-" * len(header))
    figures = {}
    for t in targets:
        p50, p90, p99 = (percentile(t.samples, f) for f in (0.50, 0.90, 0.99))
        figures[t.size.label] = (p50, p99)
        print(
            f"{t.size.label:<12}{t.size.campaigns:>10,}{t.size.characters:>12,}"
            f"{t.size.rolls:>12,}{p50:>9.0f}{p90:>9.0f}{p99:>9.0f}"
            f"{max(t.samples):>9.0f}{statistics.fmean(t.samples):>9.0f}"
        )
    (s50, s99), (l50, l99) = figures["small"], figures["large"]
    print(f"{'large/small':<46}{l50 / s50:>8.2f}x{'':>9}{l99 / s99:>8.2f}x")
    ok = max(s99, l99) < AIM_P99_US and l99 / s99 <= AIM_RATIO and l50 / s50 <= AIM_RATIO
    print()
    print(
        f"aim: p99 under {AIM_P99_US / 1000:g} ms and large at most {AIM_RATIO}x small: "
        + ("met" if ok else "NOT met")
    )
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_storage", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="10,000 instead of 100,000 characters")
    parser.add_argument("--db-dir", type=Path, default=OUT, help="where the databases are cached")
    parser.add_argument("--ops", type=int, help="timed operations per database (default 2000)")
    parser.add_argument("--rebuild", action="store_true", help="rebuild the cached databases")
    parser.add_argument(
        "--no-pin", action="store_true", help="let the OS move the threads between CPUs"
    )
    args = parser.parse_args(argv)

    small = Size("small", 10, 10_000)
    large = Size("large", 100, 100_000) if args.quick else Size("large", 1_000, 1_000_000)
    ops = args.ops or (500 if args.quick else 2_000)
    pinned, background_cpu = "not pinned", None
    if not args.no_pin and hasattr(os, "sched_setaffinity"):
        allowed = sorted(os.sched_getaffinity(0))
        cpu, background_cpu = allowed[0], allowed[-1]
        os.sched_setaffinity(0, {cpu})  # threads started from now on inherit it
        pinned = f"pinned to CPU {cpu}, background work to CPU {background_cpu}"
    print(f"SQLite {sqlite3.sqlite_version}, Python {sys.version.split()[0]}, {pinned}")
    paths = {size.label: ensure(args.db_dir, size, args.rebuild) for size in (small, large)}
    settle()
    try:
        targets = asyncio.run(measure(paths, [small, large], ops, 20, background_cpu))
    finally:
        for path in paths.values():
            forget_bench_rolls(path)
    report(targets, ops)
    settle()
    try:
        measure_sql(paths, [small, large], ops, 20)
    finally:
        for path in paths.values():
            forget_bench_rolls(path)
    return 0


def settle() -> None:
    """Write out dirty file pages first (a fresh build leaves hundreds of MB of them), so the
    kernel's background writeback does not land in the middle of a measurement."""
    if hasattr(os, "sync"):
        os.sync()


if __name__ == "__main__":
    sys.exit(main())
