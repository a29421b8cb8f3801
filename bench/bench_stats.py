"""/stats of a campaign on a long roll log, and a chart's rendering time and memory.

    .venv/bin/python -m bench.bench_stats [--rows 1000000] [--small 10000] [--runs 5]
        [--charts 30] [--keep DIR] [--postgresql]

Two SQLite databases, each one campaign with `--small` and `--rows` logged rolls (8 players,
checks, attacks and defences of every difficulty, over a year), built like
bench/bench_long_log.py's: the schema by the store's migrations, the rows by one INSERT ...
SELECT from a recursive CTE. Then, through the real store:

1. what /stats does before it answers, for the whole campaign (`table:true`): the store's read
   (`stats_rolls`: roll by roll up to 5,000, else grouped in SQL) and the rules core's count and
   luck (`summarise`, `stats_fields`); a GM's view and a player's, median and max of `--runs`;
2. rolls logged beside it (one every 10 ms) while /stats runs back to back, against the same
   rolls with nothing beside them: p50, p99, max;
3. the chart: `--charts` renderings of /stats' picture (bars and a 5,000-point line): ms median
   and max, the Python heap's peak (tracemalloc), the image's size and the process's resident
   size above its start (Pillow's buffers are not on the Python heap).

4. the cost of logging one roll with the roll counts (storage/migrations/0025_roll_counts.sql)
   and without them (the same database with the counting triggers dropped), side by side in one
   run: rounds of `--writes` rolls on each in turn, p50 of each;
5. /stats of spans the counts cannot serve (tonight's 12 hours, a day's span from noon), read
   from the log.

Each database is built as an old one is upgraded: the rows logged under the schema before the
counts, then the counts' migration, which counts them (its time printed).

`--postgresql` does 1, 2, 4 and 5 again on a throwaway PostgreSQL server (storage/pg_testing.py,
fsync off). 10 million rows take many minutes to build on a shared machine.
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
import tracemalloc
from datetime import UTC, datetime, timedelta
from pathlib import Path

import asyncpg
import psutil

from bench.bench_e2e import percentile
from storage import RuleStore
from storage.models import RollRecord
from storage.pg_testing import throwaway_cluster
from storage.postgres import PostgresStore
from storage.postgres_schema import postgres_migrations, prepare_postgres
from storage.rules_stats import StatsScope
from storage.schema import migrate, migrations
from storage.sqlite import SqliteStore
from wire.chart import WIDTH, height_of, render
from wire.stats import summarise
from wire.stats_text import stats_chart, stats_fields

GUILD, CAMPAIGN = 1_000_000, 1
PLAYERS = 8
GM = 9_999
SPAN = timedelta(days=365)
END = datetime(2026, 11, 30, tzinfo=UTC)
BUILD_FORMAT = 2

# Row i: die 1 + 7i mod 20, modifiers i mod 9, target 8 + i mod 13; every third a defence
# (which loses ties), then a check and an attack. `{least}`: MIN in SQLite, LEAST in PostgreSQL.
_TOTAL, _TARGET = "1 + (7 * i) % 20 + i % 9", "8 + i % 13"
_ROW = f"""1000000, 1, 5000, 10000000 + i % 8,
    CASE i % 3 WHEN 0 THEN 'defend' WHEN 1 THEN 'check' ELSE 'attack' END, '{{}}',
    1 + (7 * i) % 20, 'rolled', {_TOTAL}, {_TARGET},
    CASE WHEN (i % 3 = 0 AND {_TOTAL} > {_TARGET}) OR (i % 3 <> 0 AND {_TOTAL} >= {_TARGET})
         THEN 1 ELSE 0 END,
    {{least}}(ABS({_TOTAL} - ({_TARGET})) / 2, 5), 0, i"""
_COLUMNS = """INSERT INTO roll_log (guild_id, campaign_id, channel_id, user_id, kind, inputs, die,
    die_source, total, target, success, degrees, raw_degrees, interaction_id, created_at)"""
FILL = f"""
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < :rows)
{_COLUMNS}
SELECT {_ROW.replace("{least}", "MIN")},
    strftime('%Y-%m-%dT%H:%M:%fZ', :start + i * :step, 'unixepoch') FROM n
"""
PG_FILL = f"""
{_COLUMNS}
SELECT {_ROW.replace("{least}", "LEAST")},
    to_char(to_timestamp($2 + i * $3) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  FROM generate_series(1, $1::bigint) AS i
"""


def build(path: Path, rows: int) -> float:
    """The SQLite database at `path`: one campaign with `rows` rolls; seconds it took."""
    started = time.perf_counter()
    partial = path.with_name(path.name + ".building")
    partial.unlink(missing_ok=True)
    conn = sqlite3.connect(partial, isolation_level=None)
    for pragma in ("journal_mode = OFF", "synchronous = OFF", "cache_size = -262144"):
        conn.execute(f"PRAGMA {pragma}")
    migrate(conn, _before_counts(migrations()))
    conn.execute("BEGIN")
    conn.execute(
        "INSERT INTO campaigns (id, guild_id, name, name_key, is_default) "
        "VALUES (1, 1000000, 'Long', 'long', 1)"
    )
    conn.execute(
        "INSERT INTO campaign_gms (campaign_id, user_id, position) VALUES (1, ?, 0)", (GM,)
    )
    # The indexes stay: a campaign's rows are one run of ids, so they grow at their ends.
    step = SPAN.total_seconds() / rows
    conn.execute(FILL, {"rows": rows, "start": (END - SPAN).timestamp(), "step": step})
    conn.execute("COMMIT")
    counting = time.perf_counter()
    migrate(conn)
    print(f" (the counts' migration {time.perf_counter() - counting:.1f} s)", end="", flush=True)
    conn.executescript("ANALYZE; PRAGMA journal_mode = WAL;")
    conn.close()
    seconds = time.perf_counter() - started
    partial.rename(path)
    return seconds


def _before_counts(versions) -> int:
    """The schema version just before the roll counts' migration."""
    return next(m.version for m in versions if m.name == "roll_counts") - 1


def without_counts(path: Path) -> Path:
    """A copy of the database at `path` that logs rolls without counting them."""
    copy = path.with_name(path.stem + "-uncounted.db")
    if not copy.exists():
        source, target = sqlite3.connect(path), sqlite3.connect(copy)
        source.backup(target)
        source.close()
        for trigger in COUNTING_TRIGGERS:
            target.execute(f"DROP TRIGGER {trigger}")
        target.commit()
        target.close()
    return copy


COUNTING_TRIGGERS = ("roll_counts_add", "roll_counts_remove", "roll_counts_change_from",
                     "roll_counts_change_to")  # fmt: skip


def ensure(folder: Path, rows: int) -> Path:
    path = folder / f"wire-stats-{rows}r-b{BUILD_FORMAT}.db"
    if not path.exists():
        print(f"  SQLite, {rows:,} rolls: building ...", end="", flush=True)
        print(f" {build(path, rows):.1f} s", flush=True)
    return path


async def build_postgres(dsn: str, rows: int) -> float:
    started = time.perf_counter()
    await prepare_postgres(dsn, _before_counts(postgres_migrations()))
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(
            "INSERT INTO campaigns (id, guild_id, name, name_key, is_default) "
            "VALUES (1, 1000000, 'Long', 'long', 1)"
        )
        await conn.execute(
            "INSERT INTO campaign_gms (campaign_id, user_id, position) VALUES (1, $1, 0)", GM
        )
        start = (END - SPAN).timestamp()
        await conn.execute(PG_FILL, rows, start, SPAN.total_seconds() / rows)
        counting = time.perf_counter()
        await prepare_postgres(conn)
        print(f"  the counts' migration {time.perf_counter() - counting:.1f} s", flush=True)
        await conn.execute("ANALYZE")
    finally:
        await conn.close()
    return time.perf_counter() - started


async def build_uncounted_postgres(dsn: str) -> None:
    """A database with the schema and the campaign but no counting: where a roll's write is
    measured without the counts (its log short; a write's cost hardly depends on it)."""
    await build_postgres(dsn, 1000)
    conn = await asyncpg.connect(dsn)
    try:
        for trigger in ("roll_counts_add", "roll_counts_remove", "roll_counts_change"):
            await conn.execute(f"DROP TRIGGER {trigger} ON roll_log")
    finally:
        await conn.close()


async def one_stats(
    store: RuleStore, gm: bool, scope: StatsScope | None = None
) -> tuple[float, int, str]:
    """What /stats table:true does before it answers: ms, rolls counted, grouped or not."""
    started = time.perf_counter()
    viewer = GM if gm else 10_000_000
    read = await store.stats_rolls(GUILD, CAMPAIGN, scope or StatsScope(), viewer_id=viewer, gm=gm)
    stats = await asyncio.to_thread(summarise, read.rolls)  # as cogs/stats.py does
    stats_fields(stats)
    how = (
        "from the counts" if read.counted else "grouped in SQL" if read.grouped else "roll by roll"
    )
    return (time.perf_counter() - started) * 1000, stats.rolls, how


class Roller:
    """A roll logged every 10 ms until stopped; each one's ms."""

    ids = itertools.count(10**15)

    def __init__(self, store: RuleStore) -> None:
        self.store, self.samples = store, []
        self.stop = asyncio.Event()

    async def one(self) -> float:
        """Log one roll; its ms."""
        record = RollRecord(
            guild_id=GUILD, campaign_id=CAMPAIGN, channel_id=5000, user_id=10_000_001,
            kind="check", inputs={}, die=11, die_source="rolled", total=18, target=15,
            success=True, degrees=1, raw_degrees=1, interaction_id=next(self.ids),
        )  # fmt: skip
        started = time.perf_counter()
        await self.store.log_roll(record)
        return (time.perf_counter() - started) * 1000

    async def run(self) -> None:
        while not self.stop.is_set():
            self.samples.append(await self.one())
            await asyncio.sleep(0.01)


def line(name: str, samples: list[float]) -> str:
    return (
        f"{name:<52}{len(samples):>5}{statistics.median(samples):>10.1f}"
        f"{percentile(samples, 0.99):>10.1f}{max(samples):>10.1f}"
    )


async def measure(store: RuleStore, name: str, runs: int) -> None:
    await one_stats(store, True)  # warm-up (caches, the first read of the file)
    for gm in (True, False):
        samples, counted, how = [], 0, ""
        for _ in range(runs):
            ms, counted, how = await one_stats(store, gm)
            samples.append(ms)
        view = "a GM's view" if gm else "a player's view"
        print(line(f"{name}, {view} ({counted:,} rolls, {how})", samples))
        if how == "grouped in SQL":
            per_roll = statistics.median(samples) / counted  # ms
            print(f"  {per_roll * 1000:.2f} µs a roll; at 10,000,000 rolls about "
                  f"{per_roll * 10_000:.0f} s, if it grows in proportion")  # fmt: skip
    idle = Roller(store)
    task = asyncio.create_task(idle.run())
    await asyncio.sleep(1.0)
    idle.stop.set()
    await task
    beside = Roller(store)
    task = asyncio.create_task(beside.run())
    for _ in range(runs):
        await one_stats(store, True)
    beside.stop.set()
    await task
    print(line(f"{name}, a roll's write, nothing beside it", idle.samples))
    print(line(f"{name}, a roll's write while /stats runs", beside.samples))
    for label, scope in spans():
        samples, how = [], ""
        for _ in range(runs):
            ms, counted, how = await one_stats(store, True, scope)
            samples.append(ms)
        print(line(f"{name}, {label} ({counted:,}, {how})", samples))


def spans() -> list[tuple[str, StatsScope]]:
    """A span of whole days the counts serve, and spans that cut a day (read from the log)."""
    return [
        ("the last 30 days", StatsScope(since=END - timedelta(days=30))),
        ("the last 12 hours", StatsScope(since=END - timedelta(hours=12))),
        ("a day from noon to noon", StatsScope(
            since=END - timedelta(days=30, hours=12), until=END - timedelta(days=29, hours=12)
        )),
    ]  # fmt: skip


async def write_cost(counted: RuleStore, uncounted: RuleStore, name: str, writes: int) -> None:
    """A roll's write with the counts and without, in alternating rounds of `writes` each."""
    samples: dict[bool, list[float]] = {True: [], False: []}
    for _ in range(5):
        for has_counts, store in ((True, counted), (False, uncounted)):
            roller = Roller(store)
            samples[has_counts] += [await roller.one() for _ in range(writes)]
    with_counts, without = (statistics.median(samples[k]) for k in (True, False))
    print(line(f"{name}, a roll's write without counts", samples[False]))
    print(line(f"{name}, a roll's write with counts", samples[True]))
    print(f"  with counts / without: {with_counts / without:.2f} (p50s, alternating rounds)")


def charts(count: int) -> None:
    rolls = asyncio.run(_sample_rolls())
    spec = stats_chart(summarise(rolls), "Dice statistics: the table")
    render(spec)  # warm-up: fonts
    process = psutil.Process()
    before = process.memory_info().rss
    tracemalloc.start()
    samples, grown = [], 0
    for _ in range(count):
        started = time.perf_counter()
        png = render(spec)
        samples.append((time.perf_counter() - started) * 1000)
        grown = max(grown, process.memory_info().rss - before)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    pixels = WIDTH * height_of(spec) * 3
    print(line(f"chart ({len(spec.line):,}-point line, {len(png):,} bytes PNG), ms", samples))
    print(
        f"  memory: Python heap peak {peak / 2**20:.2f} MiB (tracemalloc); the RGB image "
        f"{pixels / 2**20:.2f} MiB; resident size at most {grown / 2**20:.2f} MiB above its "
        f"start over {count} charts (no growth: nothing kept)"
    )


async def _sample_rolls():
    """5,000 rolls roll by roll, as /stats reads the largest scope it draws a line for."""
    with tempfile.TemporaryDirectory(prefix="wire-bench-stats-") as tmp:
        store = await SqliteStore.open(ensure(Path(tmp), 5_000))
        try:
            read = await store.stats_rolls(GUILD, CAMPAIGN, StatsScope(), viewer_id=GM, gm=True)
        finally:
            await store.close()
    return read.rolls


async def on_sqlite(paths: dict[str, Path], runs: int, writes: int) -> None:
    print(f"\nSQLite {sqlite3.sqlite_version}; Python {sys.version.split()[0]}, "
          f"{os.cpu_count()} CPUs")  # fmt: skip
    print(f"{'':<52}{'n':>5}{'p50 ms':>10}{'p99 ms':>10}{'max ms':>10}")
    for name, path in paths.items():
        store = await SqliteStore.open(path)
        try:
            await measure(store, name, runs)
        finally:
            await store.close()
    # A roll's write hardly depends on the log's length: measured on the short one.
    name, path = next(iter(paths.items()))
    counted, uncounted = await SqliteStore.open(path), await SqliteStore.open(without_counts(path))
    try:
        await write_cost(counted, uncounted, name, writes)
    finally:
        await counted.close()
        await uncounted.close()


async def on_postgres(sizes: list[int], runs: int, writes: int) -> None:
    with throwaway_cluster() as cluster:
        print("\nPostgreSQL (throwaway server, fsync off)")
        print(f"{'':<52}{'n':>5}{'p50 ms':>10}{'p99 ms':>10}{'max ms':>10}")
        for rows in sizes:
            dsn = cluster.create_database(f"wire_stats_{rows}")
            seconds = await build_postgres(dsn, rows)
            print(f"  built {rows:,} rolls in {seconds:.1f} s", flush=True)
            store = await PostgresStore.open(dsn)
            try:
                await measure(store, f"{rows:,} rolls", runs)
                if rows == sizes[0]:  # a write's cost hardly depends on the log's length
                    uncounted = cluster.create_database("wire_stats_uncounted")
                    await build_uncounted_postgres(uncounted)
                    bare = await PostgresStore.open(uncounted)
                    try:
                        await write_cost(store, bare, f"{rows:,} rolls", writes)
                    finally:
                        await bare.close()
            finally:
                await store.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_stats", description=__doc__)
    parser.add_argument("--rows", type=int, default=1_000_000, help="rolls in the long log")
    parser.add_argument("--small", type=int, default=10_000, help="rolls in the short log")
    parser.add_argument("--runs", type=int, default=5, help="/stats measured per view")
    parser.add_argument("--charts", type=int, default=30, help="charts rendered")
    parser.add_argument("--writes", type=int, default=50, help="rolls a round of write cost")
    parser.add_argument("--keep", type=Path, help="build into (and reuse) this folder")
    parser.add_argument("--postgresql", action="store_true", help="also on PostgreSQL")
    parser.add_argument(
        "--no-sqlite", action="store_true", help="PostgreSQL only (with --postgresql)"
    )
    args = parser.parse_args(argv)
    if not 1000 <= args.small < args.rows <= 50_000_000 or not 1 <= args.runs <= 100:
        parser.error("--small from 1,000, below --rows, at most 50,000,000; --runs 1 to 100")
    charts(min(max(args.charts, 1), 500))
    if not args.no_sqlite:
        sqlite_part(args)
    if args.postgresql:
        asyncio.run(on_postgres([args.small, args.rows], args.runs, args.writes))
    return 0


def sqlite_part(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="wire-bench-stats-") as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        paths = {f"{rows:,} rolls": ensure(folder, rows) for rows in (args.small, args.rows)}
        asyncio.run(on_sqlite(paths, args.runs, args.writes))


if __name__ == "__main__":
    sys.exit(main())
