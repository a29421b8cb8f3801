"""Machine instructions an interaction costs each bot, counted by valgrind: a figure the noise of
a shared machine does not move.

    .venv/bin/python -m bench.instructions_e2e [--command attack] [--tree DIR] [--counts 100 400]
        [--in-flight 10] [--no-shaped] [--keep DIR]

bench_e2e's rates and CPU milliseconds drift by 5 to 10% between runs on a virtual machine
(another tenant, the clock), which is as large as the differences a change to the hot path
makes. So this runs the same bots on the same stand-in, database and interactions as bench_e2e
(bot.py, --tree DIR's bot.py on its own schema, bench/shaped_barebot.py), each under valgrind's
callgrind, which counts the instructions the bot's process executes (every thread), and does it
twice per bot: once with the smaller count of interactions after the warm-up, once with the
larger. The difference over the difference in interactions is the instructions an interaction
costs, start-up, warm-up and stop cancelled out (byte code compiled at start-up too, whether
or not .pyc files are written).

Not free of all noise: what a run does depends a little on timing (how many rolls share a
group commit, whether a full garbage collection falls inside the measured interactions), which
moved one bot's figure by up to 3% between runs at 200 interactions (--counts 100 300); more
interactions average it out. --no-shaped leaves the shaped bot out (two trees compared);
--keep DIR keeps callgrind's files there, for `callgrind_annotate --inclusive=yes
DIR/cg-0-1.out` (which C functions the instructions went to: SQLite, the collector, the
interpreter).

Instructions are not time (a cache miss or a system call's wait costs time and few
instructions), so this stands beside bench_e2e's timed runs, not in place of them. Needs
valgrind (Debian's package); a bot under callgrind runs some 50 times slower, hence the few
interactions and the low concurrency.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import shutil
import sys
import tempfile
from pathlib import Path

from bench.bench_e2e import (
    SHAPED,
    SHAPED_NAME,
    launch,
    makers,
    prepare,
    stop,
    tree_database,
    with_path,
)
from tests.e2e.standin import Fakecord
from tests.e2e.wire_support import WIRE_BOT, run_bounded

WARM_UP = 50
TOTALS = re.compile(r"^(?:summary|totals):\s*(\d+)", re.M)


async def instructions(
    standin: Fakecord,
    bot: Path,
    env: dict[str, str],
    db: Path,
    make,
    count: int,
    in_flight: int,
    out: Path,
) -> int:
    """The instructions of one run of `bot` under callgrind: start, warm-up, `count`, stop."""
    before = len(standin.handshakes)
    prefix = ("valgrind", "--tool=callgrind", f"--callgrind-out-file={out}")
    proc = await launch(standin, bot, db, out.with_suffix(".log"), prefix, **env)
    try:
        await standin.wait_ready(900.0, after=before)
        for n in (WARM_UP, count):
            _, missing = await run_bounded(
                standin, (make() for _ in range(n)), in_flight=in_flight, timeout=120.0
            )
            if missing:
                raise SystemExit(f"{bot.name}: {len(missing)} interactions unanswered")
    finally:
        await stop(proc)
    found = TOTALS.search(out.read_text(errors="replace"))
    if found is None:
        raise SystemExit(f"callgrind wrote no totals to {out}")
    return int(found.group(1))


async def measure(args: argparse.Namespace, work: Path) -> list[tuple[str, float]]:
    db, guilds, players = prepare(work)
    subjects = [(f"bot.py /{args.command}", WIRE_BOT, {}, db)]
    if args.tree is not None:
        tree = args.tree.resolve()
        subjects.insert(
            0, (f"bot.py /{args.command}, {tree.name}", tree / "bot.py", with_path(tree),
                tree_database(tree, work))
        )  # fmt: skip
    if not args.no_shaped:
        subjects.append((f"{SHAPED_NAME} /{args.command}", SHAPED, {}, db))
    small, large = args.counts
    figures = []
    async with Fakecord(guilds=guilds) as standin:
        make = makers(standin, players)[args.command]
        for i, (name, bot, env, source) in enumerate(subjects):
            totals = []
            for run, count in enumerate((small, large)):
                out, db = work / f"cg-{i}-{run}.out", work / f"run-{i}-{run}.db"
                shutil.copyfile(source, db)
                totals.append(
                    await instructions(standin, bot, env, db, make, count, args.in_flight, out)
                )
                db.unlink()
                if args.keep is not None:
                    args.keep.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(out, args.keep / out.name)
                print(f"  {name}: {count} interactions after the warm-up, "
                      f"{totals[-1]:,} instructions", flush=True)  # fmt: skip
            figures.append((name, (totals[1] - totals[0]) / (large - small)))
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.instructions_e2e", description=__doc__)
    parser.add_argument("--command", choices=("check", "attack"), default="attack")
    parser.add_argument("--tree", type=Path, help="add another checkout's bot.py")
    parser.add_argument("--counts", type=int, nargs=2, default=(100, 400), metavar=("FEW", "MANY"))
    parser.add_argument("--in-flight", type=int, default=10)
    parser.add_argument("--no-shaped", action="store_true", help="leave the shaped bot out")
    parser.add_argument("--keep", type=Path, help="keep callgrind's files in this folder")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        parser.error("valgrind is not installed (Debian: apt-get install valgrind)")
    if not 0 < args.counts[0] < args.counts[1]:
        parser.error("--counts takes two counts, the first smaller")
    with tempfile.TemporaryDirectory(prefix="wire-bench-instr-") as tmp:
        figures = asyncio.run(measure(args, Path(tmp)))
    print(f"\nInstructions an interaction (valgrind callgrind, {args.counts[1]} minus "
          f"{args.counts[0]} interactions, {args.in_flight} in flight, Python "
          f"{sys.version.split()[0]})")  # fmt: skip
    shaped = figures[-1][1]
    for name, per in figures:
        ratio = "" if args.no_shaped else f"{per / shaped:>8.2f} x shaped"
        print(f"{name:<46}{per:>14,.0f}{ratio}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
