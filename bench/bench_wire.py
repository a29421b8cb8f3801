"""How long the rules core takes: `python -m bench.bench_wire [--rounds N] [--reps N]`.

Each case is timed call by call with `time.perf_counter_ns`, over several rounds of many
repetitions (the garbage collector off while timing), and reported as the median and the 99th
percentile of all the calls. Odds are `lru_cache`d, so resolving an attack is timed twice: the
cached path (what the bot sees once a stat line has been used) and the uncached path (the cache
cleared before every call, the first attack with new numbers). The odds themselves are timed
uncached, through `compute_odds.__wrapped__`.

Aims: resolve an attack in under 20 µs, compute the odds in under 100 µs.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from wire.check import Roll, stat_line
from wire.combat import resolve_attack
from wire.dice import Die, DieSource, obtain_die
from wire.odds import DamageRole, compute_odds

ATTACK_AIM_US = 20.0
ODDS_AIM_US = 100.0


@dataclass(frozen=True)
class Case:
    name: str
    call: Callable[[], object]
    aim_us: float
    before: Callable[[], None] | None = None
    """Run untimed before every call (to clear the cache)."""


@dataclass(frozen=True)
class Figures:
    name: str
    median_us: float
    p99_us: float
    aim_us: float
    calls: int


def _cases(rng: random.Random) -> list[Case]:
    jaime = stat_line(3, 5, attribute_label="Strength", skill_label="Heavy melee weapons")
    goblin = Roll(Die(10, DieSource.TABLE), stat_line(1, 2))
    uncached = compute_odds.__wrapped__

    def attack() -> object:
        return resolve_attack(jaime, 5, obtain_die(rng=rng), vs=13)

    def attack_both_roll() -> object:
        return resolve_attack(jaime, 5, obtain_die(rng=rng), defender=goblin)

    return [
        Case("attack, rolled die, odds cached", attack, ATTACK_AIM_US),
        Case("attack, rolled die, odds uncached", attack, ATTACK_AIM_US, compute_odds.cache_clear),
        Case(
            "attack, both roll, odds uncached",
            attack_both_roll,
            ATTACK_AIM_US,
            compute_odds.cache_clear,
        ),
        Case("odds, single roll (20 faces)", lambda: uncached(-5), ODDS_AIM_US),
        Case(
            "odds, single roll + damage",
            lambda: uncached(-5, base=5, role=DamageRole.ATTACKER),
            ODDS_AIM_US,
        ),
        Case("odds, opposed (400 pairs)", lambda: uncached(5, both_roll=True), ODDS_AIM_US),
        Case(
            "odds, opposed + damage",
            lambda: uncached(5, both_roll=True, base=5, role=DamageRole.ATTACKER),
            ODDS_AIM_US,
        ),
    ]


def _time(case: Case, rounds: int, reps: int) -> Figures:
    clock = time.perf_counter_ns
    call, before = case.call, case.before
    for _ in range(min(reps, 200)):  # warm up (and fill the cache for the cached case)
        call()
    samples: list[int] = []
    for _ in range(rounds):
        gc.collect()
        gc.disable()
        try:
            for _ in range(reps):
                if before is not None:
                    before()
                start = clock()
                call()
                samples.append(clock() - start)
        finally:
            gc.enable()
    samples.sort()
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    return Figures(
        case.name, statistics.median(samples) / 1000, p99 / 1000, case.aim_us, len(samples)
    )


def table(figures: Sequence[Figures]) -> str:
    width = max(len(f.name) for f in figures)
    lines = [
        f"{'case':<{width}}  {'median µs':>9}  {'p99 µs':>8}  {'aim µs':>6}  {'calls':>6}  ok",
        "-" * (width + 43),
    ]
    for f in figures:
        ok = "yes" if f.median_us < f.aim_us else "NO"
        lines.append(
            f"{f.name:<{width}}  {f.median_us:>9.1f}  {f.p99_us:>8.1f}  {f.aim_us:>6.0f}"
            f"  {f.calls:>6}  {ok}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_wire", description=__doc__)
    parser.add_argument("--rounds", type=int, default=5, help="rounds per case (default 5)")
    parser.add_argument("--reps", type=int, default=2000, help="calls per round (default 2000)")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.reps < 1:
        parser.error("--rounds and --reps must be at least 1")
    rng = random.Random(20261130)
    figures = [_time(case, args.rounds, args.reps) for case in _cases(rng)]
    print(f"WIRE rules core, Python {sys.version.split()[0]}, {args.rounds} x {args.reps} calls")
    print(table(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
