"""Long-log benchmark: a roll's write and /history's read at 10 thousand and at 10 million
logged rolls, side by side; forget-me's delete and the retention job's batches on the long log.

    .venv/bin/python -m bench.bench_long_log [--rows 10000000] [--small 10000] [--ops 2000]
        [--prune 200] [--keep DIR]

Two SQLite databases of the same shape (100 campaigns in 10 servers, 1,000 players, the
rolls spread over two years) are built fresh in a temporary folder: the schema by the store's
migrations, the roll log by one INSERT ... SELECT from a recursive CTE, with the log's indexes
dropped first and made again after (SQLite writes a sorted index faster than it grows one), so
10 million rows take a minute or two, not an hour. Then, through the real store API, with the
two databases' calls interleaved so drift on the machine hits both alike:

1. `log_roll` (a roll's write: its group commit, alone), `recent_rolls` of a campaign and of a
   player in it (what /history reads): p50 and p99 on each database, and their ratio;
2. forget-me's `DELETE FROM roll_log WHERE user_id = ?` for one player (10,000 rows on the long
   log), in a transaction rolled back: its time, and the plan SQLite chose;
3. the retention job on the long log: `--prune` batches of cogs/retention.py's `prune_rolls`
   (its batch sizes and pauses), while a roll is logged every 10 ms beside it: each batch's time
   holding the writer (p50, p99, max) and the rolls' latency meanwhile (p50, p99, max).

`--keep DIR` builds into DIR and keeps the files (and reuses them next time); the retention
step deletes rows, so a kept long log shrinks a little each run. `--postgresql` does it all
again on a throwaway PostgreSQL server (storage/pg_testing.py, fsync off), the log built by
`generate_series`.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import asyncpg

from bench.bench_e2e import percentile
from cogs.retention import BATCH, MIN_BATCH, prune_rolls
from storage import Store
from storage.models import RollRecord
from storage.pg_testing import throwaway_cluster
from storage.postgres import PostgresStore
from storage.schema import migrate
from storage.sqlite import SqliteStore

CAMPAIGNS = 10 * 10
PLAYERS = 1000
SPAN = timedelta(days=730)
END = datetime(2026, 11, 30, tzinfo=UTC)
BUILD_FORMAT = 1


def guild_of(campaign: int) -> int:
    return 1_000_000 + (campaign - 1) // 10


def player(n: int) -> int:
    return 10_000_000 + n


FILL = """
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < :rows)
INSERT INTO roll_log (guild_id, campaign_id, channel_id, user_id, kind, inputs, die, die_source,
    total, target, success, degrees, raw_degrees, character_name, interaction_id, created_at)
SELECT 1000000 + (i % 100) / 10, 1 + i % 100, 5000 + i % 100, 10000000 + i % 1000, 'check',
    '{"attribute":"Strength","skill":"Climbing","target":15}', 1 + i % 20, 'rolled',
    7 + i % 20, 15, (7 + i % 20) >= 15, 0, 0, 'Hero ' || (i % 1000), i,
    strftime('%Y-%m-%dT%H:%M:%fZ', :start + i * :step, 'unixepoch')
  FROM n
"""


PG_FILL = """
INSERT INTO roll_log (guild_id, campaign_id, channel_id, user_id, kind, inputs, die, die_source,
    total, target, success, degrees, raw_degrees, character_name, interaction_id, created_at)
SELECT 1000000 + (i % 100) / 10, 1 + i % 100, 5000 + i % 100, 10000000 + i % 1000, 'check',
    '{"attribute":"Strength","skill":"Climbing","target":15}', 1 + i % 20, 'rolled',
    7 + i % 20, 15, CASE WHEN 7 + i % 20 >= 15 THEN 1 ELSE 0 END, 0, 0, 'Hero ' || (i % 1000), i,
    to_char(to_timestamp($2 + i * $3) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  FROM generate_series(1, $1::bigint) AS i
"""


async def build_postgres(dsn: str, rows: int) -> float:
    """The PostgreSQL database at `dsn` with `rows` rolls, as `build` makes SQLite's."""
    started = time.perf_counter()
    store = await PostgresStore.open(dsn)  # the schema, by the store's migrations
    await store.close()
    conn = await asyncpg.connect(dsn)
    try:
        await conn.executemany(
            "INSERT INTO campaigns (id, guild_id, name, name_key, is_default) "
            "VALUES ($1, $2, $3, $4, $5)",
            [(c, guild_of(c), f"Campaign {c}", f"campaign {c}", int(c % 10 == 1))
             for c in range(1, CAMPAIGNS + 1)],
        )  # fmt: skip
        indexes = await conn.fetch(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'roll_log' "
            "AND indexname <> 'roll_log_pkey'"
        )
        for name, _ in indexes:
            await conn.execute(f"DROP INDEX {name}")
        start = (END - SPAN).timestamp()
        await conn.execute(PG_FILL, rows, start, SPAN.total_seconds() / rows)
        for _, sql in indexes:
            await conn.execute(sql)
        await conn.execute("ANALYZE roll_log")
    finally:
        await conn.close()
    return time.perf_counter() - started


def build(path: Path, rows: int) -> float:
    """The database at `path` with `rows` rolls; seconds it took."""
    started = time.perf_counter()
    partial = path.with_name(path.name + ".building")
    partial.unlink(missing_ok=True)
    conn = sqlite3.connect(partial, isolation_level=None)
    conn.execute("PRAGMA journal_mode = OFF")
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("PRAGMA cache_size = -524288")
    migrate(conn)
    conn.execute("BEGIN")
    conn.executemany(
        "INSERT INTO campaigns (id, guild_id, name, name_key, is_default) VALUES (?, ?, ?, ?, ?)",
        ((c, guild_of(c), f"Campaign {c}", f"campaign {c}", int(c % 10 == 1))
         for c in range(1, CAMPAIGNS + 1)),
    )  # fmt: skip
    indexes = [
        sql
        for (sql,) in conn.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'roll_log' "
            "AND sql IS NOT NULL"
        )
    ]
    for (name,) in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'roll_log' "
        "AND sql IS NOT NULL"
    ).fetchall():
        conn.execute(f"DROP INDEX {name}")
    start = (END - SPAN).timestamp()
    conn.execute(FILL, {"rows": rows, "start": start, "step": SPAN.total_seconds() / rows})
    for sql in indexes:
        conn.execute(sql)
    conn.execute("COMMIT")
    conn.execute("ANALYZE")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.close()
    partial.rename(path)
    return time.perf_counter() - started


def ensure(folder: Path, rows: int) -> Path:
    path = folder / f"wire-long-log-{rows}r-b{BUILD_FORMAT}.db"
    if path.exists():
        print(f"  {rows:,} rolls: kept {path}", flush=True)
        return path
    print(f"  {rows:,} rolls: building ...", end="", flush=True)
    seconds = build(path, rows)
    size = path.stat().st_size / 2**20
    print(f" {seconds:.1f} s, {size:,.0f} MiB", flush=True)
    return path


class Target:
    def __init__(self, name: str, store: Store) -> None:
        self.name, self.store = name, store
        self.samples: dict[str, list[float]] = {"roll": [], "history": [], "by_player": []}
        self.interactions = itertools.count(10**15)

    def record(self, n: int) -> RollRecord:
        c = 1 + n % CAMPAIGNS
        return RollRecord(
            guild_id=guild_of(c), campaign_id=c, channel_id=5000 + c, user_id=player(n % 1000),
            kind="check", inputs={"attribute": "Strength", "skill": "Climbing", "target": 15},
            die=11, die_source="rolled", total=18, target=15, success=True, degrees=0,
            raw_degrees=0, character_name="Hero", interaction_id=next(self.interactions),
        )  # fmt: skip

    async def one(self, n: int, keep: bool) -> None:
        c = 1 + n % CAMPAIGNS
        started = time.perf_counter()
        await self.store.log_roll(self.record(n))
        wrote = time.perf_counter()
        recent = await self.store.recent_rolls(guild_of(c), c, limit=10)
        read = time.perf_counter()
        mine = await self.store.recent_rolls(guild_of(c), c, user_id=player(n % 1000), limit=10)
        done = time.perf_counter()
        assert len(recent) == 10 and mine
        if keep:
            for key, seconds in (("roll", wrote - started), ("history", read - wrote),
                                 ("by_player", done - read)):  # fmt: skip
                self.samples[key].append(seconds * 1e6)


async def side_by_side(targets: list[Target], ops: int) -> None:
    for n in range(200):  # warm-up
        for target in targets:
            await target.one(n, keep=False)
    for n in range(ops):
        for target in targets[:: 1 if n % 2 else -1]:
            await target.one(n, keep=True)


def forget_me(path: Path, user_id: int) -> tuple[float, int, str]:
    """forget-me's roll-log delete for one player, rolled back: ms, rows, plan."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        sql = "DELETE FROM roll_log WHERE user_id = ?"
        plan = " / ".join(row[-1] for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}", (user_id,)))
        conn.execute("BEGIN IMMEDIATE")
        started = time.perf_counter()
        rows = conn.execute(sql, (user_id,)).rowcount
        ms = (time.perf_counter() - started) * 1000
        conn.execute("ROLLBACK")
    finally:
        conn.close()
    return ms, rows, plan


async def forget_me_postgres(dsn: str, user_id: int) -> tuple[float, int, str]:
    """forget-me's roll-log delete for one player on PostgreSQL, rolled back: ms, rows, plan."""
    conn = await asyncpg.connect(dsn)
    try:
        sql = "DELETE FROM roll_log WHERE user_id = $1"
        plan = " / ".join(r[0].strip() for r in await conn.fetch(f"EXPLAIN {sql}", user_id))
        transaction = conn.transaction()
        await transaction.start()
        started = time.perf_counter()
        status = await conn.execute(sql, user_id)
        ms = (time.perf_counter() - started) * 1000
        await transaction.rollback()
    finally:
        await conn.close()
    return ms, int(status.split()[-1]), plan


async def retention(store: Store, batches: int) -> tuple[list[float], list[float], int]:
    """`batches` of the retention job, with its pause, beside a roll every 10 ms: each batch's
    ms, each roll's ms meanwhile, rows deleted."""
    target = Target("beside", store)
    before = END - SPAN + timedelta(days=365)  # the first year's rows are old
    holds: list[float] = []
    rolls: list[float] = []
    done = asyncio.Event()

    async def roller() -> None:
        n = 0
        while not done.is_set():
            started = time.perf_counter()
            await store.log_roll(target.record(n))
            rolls.append((time.perf_counter() - started) * 1000)
            n += 1
            await asyncio.sleep(0.01)

    beside = asyncio.create_task(roller())
    deleted = await prune_rolls(
        store, before, batches=batches, on_batch=lambda _batch, took: holds.append(took * 1000)
    )
    done.set()
    await beside
    return holds, rolls, deleted


def row(name: str, samples: list[float]) -> str:
    return f"{name:<46}{len(samples):>7}{statistics.median(samples):>10.0f}" \
           f"{percentile(samples, 0.99):>10.0f}"  # fmt: skip


async def measure(opened: dict[str, Store], args: argparse.Namespace, engine: str) -> list[float]:
    """Side by side on each store, then the retention job on the long one; prints the table.
    The stores are closed at the end."""
    targets = [Target(name, store) for name, store in opened.items()]
    try:
        await side_by_side(targets, args.ops)
        holds, beside, deleted = await retention(targets[-1].store, args.prune)
    finally:
        for target in targets:
            await target.store.close()
    print(f"\n{engine}: {args.ops} of each, interleaved; Python {sys.version.split()[0]}, "
          f"{os.cpu_count()} CPUs")  # fmt: skip
    print(f"{'':<46}{'count':>7}{'p50 µs':>10}{'p99 µs':>10}")
    for key, label in (("roll", "a roll's write (log_roll)"),
                       ("history", "/history of a campaign"),
                       ("by_player", "/history of a campaign's player")):  # fmt: skip
        for target in targets:
            print(row(f"{label}, {target.name}", target.samples[key]))
        small, large = (statistics.median(t.samples[key]) for t in targets)
        print(f"{'  ratio long / short (p50)':<46}{large / small:>17.2f}")
    print(f"retention on the long log: {len(holds)} batches of {MIN_BATCH} to {BATCH} rows, "
          f"{deleted:,} rows deleted; a batch held the writer p50 {statistics.median(holds):.1f} "
          f"ms, p99 {percentile(holds, 0.99):.1f} ms, max {max(holds):.1f} ms")  # fmt: skip
    print(f"rolls logged beside it (one every 10 ms): {len(beside)}, p50 "
          f"{statistics.median(beside):.2f} ms, p99 {percentile(beside, 0.99):.2f} ms, "
          f"max {max(beside):.2f} ms")  # fmt: skip
    return holds


async def on_sqlite(paths: dict[str, Path], args: argparse.Namespace) -> None:
    opened: dict[str, Store] = {name: await SqliteStore.open(p) for name, p in paths.items()}
    await measure(opened, args, f"SQLite {sqlite3.sqlite_version}")
    for name, path in paths.items():
        ms, rows, plan = forget_me(path, player(7))
        print(f"forget-me's roll-log delete, {name}: {rows:,} rows in {ms:.1f} ms "
              f"(rolled back); plan: {plan}")  # fmt: skip


async def on_postgres(args: argparse.Namespace) -> None:
    with throwaway_cluster() as cluster:
        dsns = {}
        for rows in (args.small, args.rows):
            dsn = cluster.create_database(f"wire_long_{rows}")
            print(f"  PostgreSQL, {rows:,} rolls: building ...", end="", flush=True)
            print(f" {await build_postgres(dsn, rows):.1f} s", flush=True)
            dsns[f"{rows:,} rolls"] = dsn
        opened: dict[str, Store] = {n: await PostgresStore.open(d) for n, d in dsns.items()}
        await measure(opened, args, "PostgreSQL 15 (fsync off)")
        for name, dsn in dsns.items():
            ms, rows, plan = await forget_me_postgres(dsn, player(7))
            print(f"forget-me's roll-log delete, {name}: {rows:,} rows in {ms:.1f} ms "
                  f"(rolled back); plan: {plan}")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_long_log", description=__doc__)
    parser.add_argument("--rows", type=int, default=10_000_000, help="rolls in the long log")
    parser.add_argument("--small", type=int, default=10_000, help="rolls in the short log")
    parser.add_argument("--ops", type=int, default=2000, help="measured rounds on each")
    parser.add_argument("--prune", type=int, default=200, help="retention batches measured")
    parser.add_argument("--keep", type=Path, help="build into (and reuse) this folder")
    parser.add_argument(
        "--postgresql", action="store_true", help="the same on a throwaway PostgreSQL server"
    )
    args = parser.parse_args(argv)
    if not 1000 <= args.small < args.rows <= 50_000_000:
        parser.error("--small from 1,000, below --rows, at most 50,000,000")
    with tempfile.TemporaryDirectory(prefix="wire-bench-long-") as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        paths = {f"{args.small:,} rolls": ensure(folder, args.small),
                 f"{args.rows:,} rolls": ensure(folder, args.rows)}  # fmt: skip
        asyncio.run(on_sqlite(paths, args))
    if args.postgresql:
        asyncio.run(on_postgres(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
