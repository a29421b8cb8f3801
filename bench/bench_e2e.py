"""End-to-end benchmark: the real WIRE bot against the Discord stand-in, next to the bare bot.

    .venv/bin/python -m bench.bench_e2e [--count 3000] [--in-flight 50] [--rounds 2]
        [--guilds 2500] [--shards N] [--no-footprint] [--stub-storage] [--speed-extra DIR]
        [--postgresql] [--tree DIR] [--command check|attack]

1. Throughput and latency (INTERACTION_CREATE sent -> callback received) of `/check attr:3
   skill:5 vs:13` on bot.py with a database of 100,000 characters (bench_storage's builder,
   1,000 campaigns in 100 guilds; the users are players with an active character), then of the
   same `/check` on bench/shaped_barebot.py (a bare discord.py bot with the same options and an
   answer of the same shape: an embed with fields, a persistent button), then of `/ping` on
   tests/e2e/barebot.py (a constant answer), against the same stand-in, same concurrency, after
   a warm-up; in turn (A B C A B C), --rounds runs each, and their medians. Two ratios each:
   bot.py / shaped (WIRE's own work) and bot.py / bare (over discord.py's floor). bot.py logs
   the sizes of its roll-log group commits at close, and they are printed too. Each run also
   prints the CPU milliseconds an interaction cost the bot's process (every thread) and the
   stand-in: on two cores the bot's rate is about 1000 / its CPU ms, which says where a gap to
   the bare bot is.
   --stub-storage adds bot.py with its store stubbed out (bench/stub_bot.py: a fixed campaign
   and character, rolls discarded) to each round: the ceiling storage work leaves us.
   --speed-extra DIR adds both bots again with DIR on their PYTHONPATH, a folder holding
   discord.py's `speed` extra (`pip install --target DIR orjson aiodns Brotli zstandard`), so
   with and without it are measured in one run.
   --postgresql adds bot.py on PostgreSQL to each round: a throwaway server
   (storage/pg_testing.py's, fsync and synchronous_commit off, so commits cost no disk flush)
   gets the same 100k-character database through `python -m storage copy`'s code, and the bot
   runs with WIRE_DATABASE=postgresql://..., so SQLite, PostgreSQL and bare are side by side.
   --tree DIR adds another checkout's bot.py (e.g. `git worktree add DIR HEAD~1`) before ours in
   each round, on the same data (built by that checkout's own code, in its own schema): a
   change measured against the code before it in one run.
   --command attack measures `/attack str:3 skill:5 base:5 vs:13` (the seed's attack, outside a
   fight) instead of the /check on bot.py, the tree and the shaped bot, whose /attack has the
   same options and an answer of the same shape.
2. Resident memory of bot.py after READY with --guilds guilds announced, and its CPU seconds over
   10 s idle; with --shards N, bot.py runs all N shards in its one process (WIRE_SHARD_COUNT),
   the guilds spread over them as Discord spreads them.

Everything runs on 127.0.0.1; the bots are subprocesses started through tests/e2e/launcher.py.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import gc
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import psutil

from bench.bench_storage import (
    CAMPAIGNS_PER_GUILD,
    NPCS_PER_CAMPAIGN,
    OUT,
    PER_CAMPAIGN,
    Size,
    ensure,
    guild_of,
    player_of,
)
from storage.copy import copy_to_postgres
from storage.pg_testing import throwaway_cluster
from tests.e2e.standin import ChannelSpec, Fakecord, GuildSpec, default_guilds
from tests.e2e.wire_support import (
    REPO_ROOT,
    SHARD_STEP,
    WIRE_BOT,
    many_guilds,
    plain_log,
    run_bounded,
)

LAUNCHER = REPO_ROOT / "tests" / "e2e" / "launcher.py"
BAREBOT = REPO_ROOT / "tests" / "e2e" / "barebot.py"
STUB_BOT = REPO_ROOT / "bench" / "stub_bot.py"
SHAPED = REPO_ROOT / "bench" / "shaped_barebot.py"
SHAPED_NAME = "shaped_barebot.py"
SIZE = Size("100k characters", 1000, 1_000_000)


@dataclass(frozen=True)
class Subject:
    """One bot a round runs: its name in the table, its entry point, its command, its env."""

    name: str
    bot: Path
    command: str  # "check", "attack" or "ping"
    env: dict[str, str] = field(default_factory=dict)
    speed_extra: bool = False  # compared with the bare bot on the speed extra too


async def launch(
    standin: Fakecord,
    bot: Path,
    db: Path,
    log: Path,
    prefix: Sequence[str] = (),
    **extra_env: str,
) -> asyncio.subprocess.Process:
    """Start `bot` through the launcher; `prefix` goes before the interpreter (a profiler)."""
    env = {
        **os.environ,
        "DISCORD_TOKEN": standin.token,
        "WIRE_DEV_GUILD": str(standin.guilds[0].id),
        "WIRE_DATABASE": str(db),
        "PYTHONPATH": str(REPO_ROOT),
        "PYTHONUNBUFFERED": "1",
        "LOG_LEVEL": "INFO",  # on_ready logs "in N guilds" at INFO
        **extra_env,
    }
    with log.open("wb") as out:
        return await asyncio.create_subprocess_exec(
            *prefix, sys.executable, str(LAUNCHER), "--base", standin.base_url,
            "--gateway", standin.gateway_url, "--bot", str(bot),
            stdin=asyncio.subprocess.DEVNULL, stdout=out, stderr=asyncio.subprocess.STDOUT,
            env=env, cwd=str(REPO_ROOT),
        )  # fmt: skip


async def stop(proc: asyncio.subprocess.Process) -> int:
    if proc.returncode is None:
        proc.terminate()
        try:
            return await asyncio.wait_for(proc.wait(), 20)
        except TimeoutError:
            proc.kill()  # this process only
            await proc.wait()
            return -9
    return proc.returncode


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def bot_process(pid: int) -> psutil.Process:
    """The bot's process, to read its CPU and memory. psutil is imported here, not at the top:
    it is in requirements-bench.txt, and tests/e2e/test_soak.py imports this module (through
    bench.soak) from the tests' install, which has no psutil."""
    import psutil

    return psutil.Process(pid)


def cpu_seconds(process: psutil.Process | None) -> float:
    """User + system CPU of `process` (all its threads), or of this process (the stand-in)."""
    if process is None:
        return time.process_time()
    times = process.cpu_times()
    return times.user + times.system


async def measure(
    standin: Fakecord,
    make,
    count: int,
    in_flight: int,
    warm_up: int = 300,
    bot: psutil.Process | None = None,
) -> dict[str, float]:
    """Rate and latency of `count` interactions after a warm-up, and the CPU milliseconds each
    cost the bot's process (`bot`: every thread of it) and the stand-in (this process)."""
    warm_up = min(warm_up, count)
    await run_bounded(standin, (make() for _ in range(warm_up)), in_flight=in_flight)
    # The stand-in (in this process) keeps every request, frame and callback it saw; a full
    # collection of that heap stalls it for up to 0.8 s by the third run, and the stall showed
    # as the bots' p99. So this process collects before, freezes what is there, and does not
    # collect during the measured interactions (the bots' own processes are left alone).
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        bot_cpu, standin_cpu = (cpu_seconds(bot) if bot else 0.0), cpu_seconds(None)
        started = time.perf_counter()
        answered, missing = await run_bounded(
            standin, (make() for _ in range(count)), in_flight=in_flight, timeout=15.0
        )
        elapsed = time.perf_counter() - started
        bot_cpu = (cpu_seconds(bot) - bot_cpu) if bot else float("nan")
        standin_cpu = cpu_seconds(None) - standin_cpu
    finally:
        gc.enable()
    latencies = [cb.latency * 1000 for _, cb in answered]
    return {
        "rate": len(answered) / elapsed,
        "p50": statistics.median(latencies),
        "p99": percentile(latencies, 0.99),
        "missing": len(missing),
        "bot_cpu": bot_cpu * 1000 / count,
        "standin_cpu": standin_cpu * 1000 / count,
    }


BATCHES = re.compile(r"Roll log group commits: (.*)")


async def run_bot(
    standin: Fakecord,
    bot: Path,
    db: Path,
    log: Path,
    make,
    count: int,
    in_flight: int,
    **extra_env: str,
) -> dict:
    """One bot from start to stop; the figures of its run, its exit code, its batch line."""
    before = len(standin.handshakes)
    proc = await launch(standin, bot, db, log, **extra_env)
    await standin.wait_ready(60.0, after=before)
    # The launcher runs the bot in its own process (runpy), so its pid is the bot's.
    row = await measure(standin, make, count, in_flight, bot=bot_process(proc.pid))
    row["exit"] = await stop(proc)  # -9: it did not exit on SIGTERM within 20 s
    found = BATCHES.search(plain_log(log.read_text(errors="replace")))
    row["batches"] = found.group(1) if found else ""
    return row


def prepare(work: Path) -> tuple[Path, list[GuildSpec], list[tuple[int, int]]]:
    """A copy of the 100k-character database, the guilds to announce, the (guild, player)s."""
    source = ensure(OUT, SIZE, rebuild=False)
    db = work / "wire-100k.db"
    shutil.copyfile(source, db)
    campaigns = [c for c in range(1, SIZE.campaigns + 1) if c % CAMPAIGNS_PER_GUILD == 1]
    guilds = default_guilds() + [
        GuildSpec(id=guild_of(c), name=f"Guild {c}", channels=[ChannelSpec(guild_of(c) + 7, "p")])
        for c in campaigns
    ]
    players = [
        (guild_of(c), player_of(c, k))
        for c in campaigns
        for k in range(PER_CAMPAIGN - NPCS_PER_CAMPAIGN)
    ]
    return db, guilds, players


def makers(standin: Fakecord, players: list[tuple[int, int]], seed: int = 1130) -> dict:
    """The interactions the bots answer, by command: a random player's /check, /attack or
    /ping."""
    rng = random.Random(seed)

    def check() -> dict:
        guild, user = rng.choice(players)
        return standin.command_interaction(
            "check", {"attr": 3, "skill": 5, "vs": 13},
            guild_id=guild, user_id=user, require_synced=False,
        )  # fmt: skip

    def attack() -> dict:
        guild, user = rng.choice(players)
        return standin.command_interaction(
            "attack", {"str": 3, "skill": 5, "base": 5, "vs": 13},
            guild_id=guild, user_id=user, require_synced=False,
        )  # fmt: skip

    def ping() -> dict:
        guild, user = rng.choice(players)
        return standin.command_interaction(
            "ping", guild_id=guild, user_id=user, require_synced=False
        )

    return {"check": check, "attack": attack, "ping": ping}


async def throughput(
    subjects: list[Subject],
    count: int,
    in_flight: int,
    rounds: int,
    work: Path,
    postgres_dsn: str | None = None,
) -> list[list[dict]]:
    """The subjects in turn (A B A B ...), so a drift of the machine falls on all of them.

    `postgres_dsn`: an empty database that gets a copy of the benchmark's first."""
    db, guilds, players = prepare(work)
    if postgres_dsn is not None:
        started = time.perf_counter()
        report = await copy_to_postgres(db, postgres_dsn)
        print(f"  copied {sum(report.counts.values()):,} rows into PostgreSQL in "
              f"{time.perf_counter() - started:.1f} s", flush=True)  # fmt: skip
    runs = []
    async with Fakecord(guilds=guilds) as standin:
        make = makers(standin, players)
        for n in range(rounds):
            row = []
            for i, subject in enumerate(subjects):
                row.append(
                    await run_bot(
                        standin, subject.bot, db, work / f"bot{i}-{n}.log",
                        make[subject.command], count, in_flight, **subject.env,
                    )
                )  # fmt: skip
            runs.append(row)
    return runs


def tree_database(tree: Path, work: Path) -> Path:
    """The benchmark's database as another checkout's own code builds it: a bot refuses a
    database whose schema is newer than its own, so the code before a migration needs its own."""
    code = (
        "from bench.bench_e2e import SIZE; from bench.bench_storage import OUT, ensure; "
        "print(ensure(OUT, SIZE, rebuild=False))"
    )
    env = {**os.environ, "PYTHONPATH": str(tree)}
    built = subprocess.run(
        [sys.executable, "-c", code], cwd=tree, env=env, capture_output=True, text=True, check=True
    )
    db = work / "wire-100k-tree.db"
    shutil.copyfile(Path(built.stdout.strip().splitlines()[-1]), db)
    return db


def with_path(folder: Path) -> dict[str, str]:
    """The environment that puts `folder` first on a bot's import path."""
    return {"PYTHONPATH": os.pathsep.join((str(folder), str(REPO_ROOT)))}


async def footprint(guild_count: int, work: Path, shards: int) -> tuple[float, float, float]:
    # Guild ids 2**22 apart land on consecutive shards, as evenly as Discord spreads real ones.
    guilds = many_guilds(guild_count, step=SHARD_STEP if shards else 1000)
    async with Fakecord(guilds=guilds) as standin:
        log = work / "wirebot-guilds.log"
        sharding = {"WIRE_SHARD_COUNT": str(shards)} if shards else {}
        proc = await launch(standin, WIRE_BOT, work / "empty.db", log, **sharding)
        started = time.perf_counter()
        try:
            await standin.wait_ready(60.0)
            while f"in {guild_count} guilds" not in plain_log(log.read_text(errors="replace")):
                if time.perf_counter() - started > 120:
                    raise SystemExit("the bot never logged READY with every guild")
                await asyncio.sleep(0.2)
            ready_after = time.perf_counter() - started
            await asyncio.sleep(1.0)
            # The launcher runs the bot in its own process (runpy), so its pid is the bot's.
            process = bot_process(proc.pid)
            rss = process.memory_info().rss / 2**20
            before = process.cpu_times()
            await asyncio.sleep(10.0)
            after = process.cpu_times()
            cpu = (after.user - before.user) + (after.system - before.system)
        finally:
            await stop(proc)
    return rss, cpu, ready_after


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_e2e", description=__doc__)
    parser.add_argument("--count", type=int, default=3000, help="interactions per bot and run")
    parser.add_argument("--in-flight", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=2, help="runs of each bot, in turn")
    parser.add_argument("--guilds", type=int, default=2500, help="guilds for the memory figure")
    parser.add_argument("--no-footprint", action="store_true", help="skip the memory figure")
    parser.add_argument("--shards", type=int, default=0, help="shards for the memory figure")
    parser.add_argument(
        "--stub-storage", action="store_true", help="add bot.py with its store stubbed out"
    )
    parser.add_argument(
        "--speed-extra", type=Path, help="a folder holding discord.py[speed]: add both bots on it"
    )
    parser.add_argument(
        "--postgresql", action="store_true", help="add bot.py on a throwaway PostgreSQL server"
    )
    parser.add_argument(
        "--command",
        choices=("check", "attack"),
        default="check",
        help="what bot.py, the tree and the shaped bot answer (the bare bot answers /ping)",
    )
    parser.add_argument(
        "--tree", type=Path, help="add another checkout's bot.py (the code before a change)"
    )
    args = parser.parse_args(argv)
    if args.command == "attack" and args.stub_storage:
        parser.error("--stub-storage measures /check only (bench/stub_bot.py has no /attack)")
    with contextlib.ExitStack() as stack:
        postgres_dsn = None
        if args.postgresql:
            cluster = stack.enter_context(throwaway_cluster())
            postgres_dsn = cluster.create_database("wire_bench")
        return run(args, postgres_dsn)


def run(args: argparse.Namespace, postgres_dsn: str | None) -> int:
    """The benchmark, and its table printed."""
    cmd = args.command
    subjects = [Subject(f"bot.py /{cmd} (100k characters)", WIRE_BOT, cmd)]
    if args.stub_storage:
        subjects.append(Subject(f"bot.py /{cmd}, storage stubbed", STUB_BOT, cmd))
    if postgres_dsn is not None:
        on_postgres = {"WIRE_DATABASE": postgres_dsn}
        subjects.append(Subject(f"bot.py /{cmd}, on PostgreSQL", WIRE_BOT, cmd, on_postgres))
    if args.tree is not None:
        tree = args.tree.resolve()
        subjects.insert(
            0, Subject(f"bot.py /{cmd}, {tree.name}", tree / "bot.py", cmd, with_path(tree))
        )
    subjects.append(Subject(f"{SHAPED_NAME} /{cmd}", SHAPED, cmd))
    subjects.append(Subject("barebot.py /ping", BAREBOT, "ping"))
    if args.speed_extra:
        extra = with_path(args.speed_extra.resolve())
        subjects.insert(1, Subject(f"bot.py /{cmd}, speed extra", WIRE_BOT, cmd, extra, True))
        subjects.append(Subject("barebot.py /ping, speed extra", BAREBOT, "ping", extra, True))
        # The stand-in speaks zstd-stream to a bot with zstandard: it needs it too.
        sys.path.insert(0, str(args.speed_extra.resolve()))
    with tempfile.TemporaryDirectory(prefix="wire-bench-e2e-") as tmp:
        work = Path(tmp)
        if args.tree is not None:  # its own copy of the database, in its own schema
            db = tree_database(args.tree.resolve(), work)
            tree_env = {**subjects[0].env, "WIRE_DATABASE": str(db)}
            subjects[0] = dataclasses.replace(subjects[0], env=tree_env)
        runs = asyncio.run(
            throughput(subjects, args.count, args.in_flight, args.rounds, work, postgres_dsn)
        )
        footprint_row = (
            None if args.no_footprint else asyncio.run(footprint(args.guilds, work, args.shards))
        )
    print(f"\nEnd to end, {args.count} interactions per bot and run, {args.in_flight} in flight, "
          f"{args.rounds} runs each in turn, Python {sys.version.split()[0]}, "
          f"{os.cpu_count()} CPUs")  # fmt: skip
    if postgres_dsn is not None:
        print("PostgreSQL: a throwaway local server with fsync, synchronous_commit and "
              "full_page_writes off (commits are not flushed to disk; SQLite's are not fsynced "
              "per commit either, WAL with synchronous=NORMAL)")  # fmt: skip
    print("(bot CPU: ms of CPU the bot's process spent per interaction, all its threads; "
          "stand-in CPU: the same for this process, which plays Discord)")  # fmt: skip
    print(f"{'bot':<46}{'per s':>9}{'p50 ms':>9}{'p99 ms':>9}{'missing':>9}"
          f"{'bot CPU':>9}{'stand-in':>9}")  # fmt: skip
    for n, row in enumerate(runs, 1):
        for subject, figures in zip(subjects, row, strict=True):
            name = f"{subject.name} run {n}"
            print(f"{name:<46}{figures['rate']:>9.0f}{figures['p50']:>9.1f}"
                  f"{figures['p99']:>9.1f}{figures['missing']:>9}"
                  f"{figures['bot_cpu']:>9.3f}{figures['standin_cpu']:>9.3f}")  # fmt: skip
    keys = ("rate", "p50", "p99", "bot_cpu", "standin_cpu")
    medians = [
        {key: statistics.median(row[i][key] for row in runs) for key in keys}
        for i in range(len(subjects))
    ]
    for subject, figures in zip(subjects, medians, strict=True):
        print(f"{subject.name + ' median':<46}{figures['rate']:>9.0f}{figures['p50']:>9.1f}"
              f"{figures['p99']:>9.1f}{'':>9}{figures['bot_cpu']:>9.3f}"
              f"{figures['standin_cpu']:>9.3f}")  # fmt: skip
    names = [s.name for s in subjects]
    bare = medians[names.index("barebot.py /ping")]
    shaped = medians[names.index(f"{SHAPED_NAME} /{cmd}")]
    for subject, figures in zip(subjects, medians, strict=True):
        if subject.bot in (BAREBOT, SHAPED) or subject.speed_extra:
            continue
        name = f"ratio {subject.name.split(' /')[0]}{subject.name.partition(',')[2]} / shaped"
        rate, p50, p99 = (figures[key] / shaped[key] for key in ("rate", "p50", "p99"))
        print(f"{name:<46}{rate:>9.2f}{p50:>9.2f}{p99:>9.2f}")
    for subject, figures in zip(subjects, medians, strict=True):
        if subject.bot == BAREBOT:
            continue
        name = f"ratio {subject.name.split(' /')[0]}{subject.name.partition(',')[2]} / bare"
        versus = bare
        if subject.speed_extra:  # a bot on the speed extra against the bare bot on it too
            versus = medians[-1]
            name += " on it"
        rate, p50, p99 = (figures[key] / versus[key] for key in ("rate", "p50", "p99"))
        print(f"{name:<46}{rate:>9.2f}{p50:>9.2f}{p99:>9.2f}")
    for n, row in enumerate(runs, 1):
        for subject, ours in zip(subjects, row, strict=True):
            if subject.bot.name != "bot.py":
                continue
            print(f"{subject.name} run {n}: exit code on SIGTERM {ours['exit']}; "
                  f"roll log: {ours['batches'] or 'no group-commit line in its log'}")  # fmt: skip
    if footprint_row is not None:
        rss, cpu, ready = footprint_row
        shards = f" on {args.shards} shards" if args.shards else ""
        print(f"\nbot.py with {args.guilds} guilds{shards}: READY after {ready:.1f} s, "
              f"RSS {rss:.0f} MB (aim <= 150), idle CPU {cpu:.2f} s over 10 s")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
