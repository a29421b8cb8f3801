"""Where an interaction's time goes inside bot.py, under bench_e2e's load, in percentages.

    .venv/bin/python -m bench.profile_e2e [--count 4000] [--in-flight 50] [--rate 500]
        [--tree DIR] [--stub-storage] [--top 15] [--keep FILE] [--cprofile] [--command attack]

bot.py answers `/check attr:3 skill:5 vs:13` (--command attack: bench_e2e's /attack) from random
players of the 100,000-character database (bench_e2e's stand-in, database and interactions);
after a warm-up, py-spy (a sampling profiler, from requirements-bench.txt, which `make bench`
installs) attaches to the bot process
for exactly the measured interactions, and every sample's stack is put in one bucket: from the
innermost frame outwards, the first frame that belongs to one of

    storage         storage/, aiosqlite, sqlite3 (the database threads included)
    cogs and rules  cogs/, wire/, bot.py
    discord.py      discord/ (HTTP routes, the gateway, JSON, the app-command tree)
    aiohttp         aiohttp, yarl, multidict (the HTTP client under discord.py)
    logging         logging/
    event loop      asyncio/, selectors (the loop's own work: select, scheduling callbacks)

decides it, so the standard library (json, re, enum, datetime) counts for whoever called it;
"other" is what none of them claims. The table gives the share of all samples where a thread
was running (any thread: the event loop and aiosqlite's threads) and of the event-loop
thread's, and the CPU milliseconds per interaction they add up to. py-spy slows the bot a
little and sees Python frames only (a C call counts for the Python line that made it).

--tree DIR profiles another checkout's bot.py (e.g. `git worktree add --detach DIR dd31c45`:
the code before a change), with the same stand-in and interactions, on the database as that
checkout's own code builds it (its schema); --stub-storage profiles bench/stub_bot.py (storage
stubbed out).

--cprofile counts instead of sampling: cProfile in the bot's event-loop thread, on for exactly
the measured interactions (bench/cprofile_bot.py), prints the functions by their own time and
by calls per interaction, and the database statements one interaction ran (SQLite's execute
calls on the loop, hops to aiosqlite's threads). Its times are inflated by the profiling (every
call pays for it), so compare two trees' figures with each other, not with bench_e2e's.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import pstats
import re
import signal
import sys
import tempfile
import time
from pathlib import Path

from bench.bench_e2e import STUB_BOT, launch, makers, measure, prepare, stop, tree_database
from tests.e2e.standin import Fakecord
from tests.e2e.wire_support import REPO_ROOT, WIRE_BOT, run_bounded

PY_SPY = Path(sys.executable).parent / "py-spy"
CPROFILE_BOT = REPO_ROOT / "bench" / "cprofile_bot.py"
BUCKETS = ("storage", "cogs and rules", "discord.py", "aiohttp", "logging", "event loop", "other")
FRAME = re.compile(r"^(?P<func>.*) \((?P<file>[^():]*)(?::(?P<line>\d+))?\)$")


def bucket_of(path: str, tree: Path) -> str | None:
    """The bucket a frame's file belongs to, or None for the standard library and the rest."""
    tree_prefix = str(tree) + os.sep
    if path.startswith(tree_prefix) and "site-packages" not in path:
        rel = path[len(tree_prefix) :]
        if rel.startswith("storage" + os.sep):
            return "storage"
        if rel.startswith(("cogs" + os.sep, "wire" + os.sep)) or rel == "bot.py":
            return "cogs and rules"
        if rel.startswith("bench" + os.sep + "stub_bot.py"):
            return "storage"
        return None
    parts = Path(path).parts
    if "aiosqlite" in parts or "sqlite3" in parts:
        return "storage"
    if "discord" in parts:
        return "discord.py"
    if {"aiohttp", "yarl", "multidict", "propcache", "aiosignal", "frozenlist"} & set(parts):
        return "aiohttp"
    if "logging" in parts:
        return "logging"
    if "asyncio" in parts or path.endswith(os.sep + "selectors.py"):
        return "event loop"
    return None


def classify(raw: str, tree: Path) -> tuple[dict, dict, collections.Counter]:
    """Samples per bucket, all threads and the event loop's; and our own lines' self samples."""
    every: collections.Counter = collections.Counter()
    loop: collections.Counter = collections.Counter()
    ours: collections.Counter = collections.Counter()
    for line in raw.splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        frames = [FRAME.match(f) for f in stack.split(";")]
        files = [m.group("file") if m else "" for m in frames]
        found = "other"
        for frame in reversed(frames):
            if frame is None:
                continue
            kind = bucket_of(frame.group("file"), tree)
            if kind is not None:
                found = kind
                if kind in ("cogs and rules", "storage") and str(tree) in frame.group("file"):
                    rel = os.path.relpath(frame.group("file"), tree)
                    ours[f"{frame.group('func')} ({rel}:{frame.group('line')})"] += n
                break
        every[found] += n
        if any(f.endswith(os.sep + "launcher.py") for f in files):  # the main thread's root
            loop[found] += n
    return every, loop, ours


async def profile(args: argparse.Namespace, work: Path) -> tuple[str, dict]:
    tree = args.tree.resolve() if args.tree else REPO_ROOT
    bot = STUB_BOT if args.stub_storage else tree / "bot.py"
    if args.tree is None and not args.stub_storage:
        bot = WIRE_BOT
    db, guilds, players = prepare(work)
    if args.tree is not None and not args.stub_storage:  # its own schema
        db = tree_database(tree, work)
    out = work / "profile.txt"
    env = {"PYTHONPATH": os.pathsep.join(dict.fromkeys((str(tree), str(REPO_ROOT))))}
    if args.cprofile:
        env |= {"WIRE_PROFILED_BOT": str(bot), "WIRE_PROFILE_OUT": str(out)}
        bot = CPROFILE_BOT
    async with Fakecord(guilds=guilds) as standin:
        make = makers(standin, players)[args.command]
        proc = await launch(standin, bot, db, work / "bot.log", **env)
        try:
            await standin.wait_ready(60.0)
            await run_bounded(standin, (make() for _ in range(300)), in_flight=args.in_flight)
            if args.cprofile:
                proc.send_signal(signal.SIGUSR1)
                await asyncio.sleep(0.5)
                started = time.perf_counter()
                figures = await measure(standin, make, args.count, args.in_flight, warm_up=0)
                figures["seconds"] = time.perf_counter() - started
                proc.send_signal(signal.SIGUSR2)
                for _ in range(100):
                    await asyncio.sleep(0.2)
                    if out.exists() and out.stat().st_size:
                        await asyncio.sleep(0.5)  # written whole
                        break
                else:
                    raise SystemExit("cProfile wrote nothing")
                return str(out), figures
            spy = await asyncio.create_subprocess_exec(
                str(PY_SPY), "record", "--pid", str(proc.pid), "--rate", str(args.rate),
                "--format", "raw", "--full-filenames", "--threads", "--nonblocking",
                "--output", str(out),
                stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
            )  # fmt: skip
            await asyncio.sleep(1.0)  # py-spy attaches
            started = time.perf_counter()
            figures = await measure(standin, make, args.count, args.in_flight, warm_up=0)
            figures["seconds"] = time.perf_counter() - started
            spy.send_signal(signal.SIGINT)  # py-spy writes its file on SIGINT
            _, err = await asyncio.wait_for(spy.communicate(), 60)
            if not out.exists():
                raise SystemExit(f"py-spy wrote nothing: {err.decode(errors='replace')}")
        finally:
            await stop(proc)
    return out.read_text(), figures


STATEMENTS = (
    ("SQLite statements on the loop", lambda file, func: "sqlite3" in func and "execute" in func),
    ("hops to aiosqlite's threads", lambda file, func: file.endswith("aiosqlite/core.py")
     and func == "_execute"),
)  # fmt: skip


def print_cprofile(path: str, count: int, tree: Path, top: int) -> None:
    """The functions by own time and by calls, per interaction, and the statements run."""
    stats = pstats.Stats(path).stats  # type: ignore[attr-defined]
    rows = []
    for (file, line, func), (_, calls, own, _cumulative, _) in stats.items():
        where = os.path.relpath(file, tree) if file.startswith(str(tree)) else file
        if "site-packages" in where:
            where = where.split("site-packages" + os.sep)[1]
        rows.append((own, calls, f"{func} ({where}:{line})", file, func))
    total = sum(r[0] for r in rows)
    print(f"\ncProfile: {total * 1e3 / count:.3f} ms of profiled own time per interaction "
          f"(inflated by the profiler)")  # fmt: skip
    print(f"\nBy own time (top {top}):{'us/interaction':>40}{'calls/interaction':>20}")
    for own, calls, name, _, _ in sorted(rows, reverse=True)[:top]:
        print(f"  {name[:60]:<60}{own * 1e6 / count:>10.1f}{calls / count:>20.2f}")
    print(f"\nBy calls (top {top}):{'calls/interaction':>60}")
    for _own, calls, name, _, _ in sorted(rows, key=lambda r: r[1], reverse=True)[:top]:
        print(f"  {name[:70]:<70}{calls / count:>10.2f}")
    print("\nDatabase work per interaction:")
    for label, matches in STATEMENTS:
        found = [r for r in rows if matches(r[3], r[4])]
        print(f"  {label:<40}{sum(r[1] for r in found) / count:>8.2f}")
        for _own, calls, name, _, _ in sorted(found, key=lambda r: r[1], reverse=True):
            print(f"      {name[:70]:<70}{calls / count:>8.2f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.profile_e2e", description=__doc__)
    parser.add_argument("--count", type=int, default=4000, help="interactions profiled")
    parser.add_argument("--in-flight", type=int, default=50)
    parser.add_argument("--rate", type=int, default=500, help="py-spy samples per second")
    parser.add_argument("--tree", type=Path, help="another checkout's bot.py (the code before)")
    parser.add_argument("--stub-storage", action="store_true", help="bench/stub_bot.py")
    parser.add_argument("--top", type=int, default=15, help="our own lines to list")
    parser.add_argument("--keep", type=Path, help="also write py-spy's raw stacks here")
    parser.add_argument("--cprofile", action="store_true", help="cProfile instead of py-spy")
    parser.add_argument(
        "--command",
        choices=("check", "attack"),
        default="check",
        help="attack: bench_e2e's `/attack str:3 skill:5 base:5 vs:13` instead of the /check",
    )
    args = parser.parse_args(argv)
    if args.cprofile:
        with tempfile.TemporaryDirectory(prefix="wire-profile-e2e-") as tmp:
            out, figures = asyncio.run(profile(args, Path(tmp)))
            if args.keep:
                args.keep.write_bytes(Path(out).read_bytes())
            tree = args.tree.resolve() if args.tree else REPO_ROOT
            print(f"\n{tree}/bot.py: {args.count} /{args.command}, {args.in_flight} "
                  f"in flight, {figures['rate']:.0f}/s under cProfile")  # fmt: skip
            print_cprofile(out, args.count, tree, args.top)
        return 0
    if not PY_SPY.exists():
        raise SystemExit(f"{PY_SPY} is missing: make bench installs it (requirements-bench.txt)")
    with tempfile.TemporaryDirectory(prefix="wire-profile-e2e-") as tmp:
        raw, figures = asyncio.run(profile(args, Path(tmp)))
    if args.keep:
        args.keep.write_text(raw)
    tree = args.tree.resolve() if args.tree else REPO_ROOT
    every, loop, ours = classify(raw, tree)
    total, on_loop = sum(every.values()), sum(loop.values())
    if not total:
        raise SystemExit("py-spy took no samples")
    # Samples over the measured seconds: CPU time each thread spent, per interaction answered.
    per = 1000 / args.rate / (figures["rate"] * figures["seconds"])
    subject = "bench/stub_bot.py" if args.stub_storage else f"{tree}/bot.py"
    print(
        f"\n{subject}: {args.count} /{args.command}, {args.in_flight} in flight, "
        f"{figures['rate']:.0f}/s p50 {figures['p50']:.1f} ms p99 {figures['p99']:.1f} ms "
        f"(under py-spy at {args.rate}/s); {total} samples, {on_loop} on the event loop"
    )
    print(f"{'where the time goes':<20}{'all threads':>12}{'event loop':>12}{'ms/interaction':>16}")
    for name in BUCKETS:
        share, loop_share = 100 * every[name] / total, 100 * loop[name] / max(on_loop, 1)
        print(f"{name:<20}{share:>11.1f}%{loop_share:>11.1f}%{every[name] * per:>16.3f}")
    print(f"{'total':<20}{100:>11.1f}%{100:>11.1f}%{total * per:>16.3f}")
    print(f"\nOur own frames that were innermost in their bucket (top {args.top}, of all samples):")
    for where, n in ours.most_common(args.top):
        print(f"{100 * n / total:>6.1f}%  {where}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
