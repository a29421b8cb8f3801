"""End-to-end benchmark: the real WIRE bot against the Discord stand-in, next to the bare bot.

    .venv/bin/python -m bench.bench_e2e [--count 3000] [--in-flight 50] [--rounds 2]
        [--guilds 2500] [--shards N] [--no-footprint]

1. Throughput and latency (INTERACTION_CREATE sent -> callback received) of `/check attr:3
   skill:5 vs:13` on bot.py with a database of 100,000 characters (bench_storage's builder,
   1,000 campaigns in 100 guilds; the users are players with an active character), then of
   `/ping` on tests/e2e/barebot.py against the same stand-in, same concurrency, after a warm-up;
   the two in turn (A B A B), --rounds runs each, and their medians. bot.py logs the sizes of
   its roll-log group commits at close, and they are printed too.
2. Resident memory of bot.py after READY with --guilds guilds announced, and its CPU seconds over
   10 s idle; with --shards N, bot.py runs all N shards in its one process (WIRE_SHARD_COUNT),
   the guilds spread over them as Discord spreads them.

Everything runs on 127.0.0.1; the bots are subprocesses started through tests/e2e/launcher.py.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

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
SIZE = Size("100k characters", 1000, 1_000_000)


async def launch(
    standin: Fakecord, bot: Path, db: Path, log: Path, **extra_env: str
) -> asyncio.subprocess.Process:
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
            sys.executable, str(LAUNCHER), "--base", standin.base_url,
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


async def measure(standin: Fakecord, make, count: int, in_flight: int) -> dict[str, float]:
    await run_bounded(standin, (make() for _ in range(min(300, count))), in_flight=in_flight)
    started = time.perf_counter()
    answered, missing = await run_bounded(
        standin, (make() for _ in range(count)), in_flight=in_flight, timeout=15.0
    )
    elapsed = time.perf_counter() - started
    latencies = [cb.latency * 1000 for _, cb in answered]
    return {
        "rate": len(answered) / elapsed,
        "p50": statistics.median(latencies),
        "p99": percentile(latencies, 0.99),
        "missing": len(missing),
    }


BATCHES = re.compile(r"Roll log group commits: (.*)")


async def run_bot(
    standin: Fakecord, bot: Path, db: Path, log: Path, make, count: int, in_flight: int
) -> dict:
    """One bot from start to stop; the figures of its run, its exit code, its batch line."""
    before = len(standin.handshakes)
    proc = await launch(standin, bot, db, log)
    await standin.wait_ready(60.0, after=before)
    row = await measure(standin, make, count, in_flight)
    row["exit"] = await stop(proc)  # -9: it did not exit on SIGTERM within 20 s
    found = BATCHES.search(plain_log(log.read_text(errors="replace")))
    row["batches"] = found.group(1) if found else ""
    return row


async def throughput(count: int, in_flight: int, rounds: int, work: Path) -> list[tuple]:
    """Ours and bare in turn (A B A B ...), so a drift of the machine falls on both."""
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
    rng = random.Random(1130)
    runs = []
    async with Fakecord(guilds=guilds) as standin:

        def check() -> dict:
            guild, user = rng.choice(players)
            return standin.command_interaction(
                "check", {"attr": 3, "skill": 5, "vs": 13},
                guild_id=guild, user_id=user, require_synced=False,
            )  # fmt: skip

        def ping() -> dict:
            guild, user = rng.choice(players)
            return standin.command_interaction(
                "ping", guild_id=guild, user_id=user, require_synced=False
            )

        for n in range(rounds):
            wire = await run_bot(
                standin, WIRE_BOT, db, work / f"wirebot-{n}.log", check, count, in_flight
            )
            bare = await run_bot(
                standin, BAREBOT, db, work / f"barebot-{n}.log", ping, count, in_flight
            )
            runs.append((wire, bare))
    return runs


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
            process = psutil.Process(proc.pid)
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
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="wire-bench-e2e-") as tmp:
        work = Path(tmp)
        runs = asyncio.run(throughput(args.count, args.in_flight, args.rounds, work))
        footprint_row = (
            None if args.no_footprint else asyncio.run(footprint(args.guilds, work, args.shards))
        )
    print(f"\nEnd to end, {args.count} interactions per bot and run, {args.in_flight} in flight, "
          f"{args.rounds} runs each in turn, Python {sys.version.split()[0]}, "
          f"{os.cpu_count()} CPUs")  # fmt: skip
    print(f"{'bot':<42}{'per s':>9}{'p50 ms':>9}{'p99 ms':>9}{'missing':>9}")
    names = ("bot.py /check (100k characters)", "barebot.py /ping")
    for n, pair in enumerate(runs, 1):
        for name, row in zip(names, pair, strict=True):
            print(f"{name + f' run {n}':<42}{row['rate']:>9.0f}{row['p50']:>9.1f}"
                  f"{row['p99']:>9.1f}{row['missing']:>9}")  # fmt: skip
    medians = [
        {key: statistics.median(pair[i][key] for pair in runs) for key in ("rate", "p50", "p99")}
        for i in range(2)
    ]
    for name, row in zip(names, medians, strict=True):
        print(f"{name + ' median':<42}{row['rate']:>9.0f}{row['p50']:>9.1f}{row['p99']:>9.1f}")
    wire, bare = medians
    print(f"{'ratio ours/bare (medians)':<42}{wire['rate'] / bare['rate']:>9.2f}"
          f"{wire['p50'] / bare['p50']:>9.2f}{wire['p99'] / bare['p99']:>9.2f}")  # fmt: skip
    for n, (ours, _) in enumerate(runs, 1):
        print(f"bot.py run {n}: exit code on SIGTERM {ours['exit']}; "
              f"roll log: {ours['batches'] or 'no group-commit line in its log'}")  # fmt: skip
    if footprint_row is not None:
        rss, cpu, ready = footprint_row
        shards = f" on {args.shards} shards" if args.shards else ""
        print(f"\nbot.py with {args.guilds} guilds{shards}: READY after {ready:.1f} s, "
              f"RSS {rss:.0f} MB (aim <= 150), idle CPU {cpu:.2f} s over 10 s")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
