"""`python -m bench` (or `make bench`): every benchmark in turn, each printing its own table.

Figures, not assertions: the machines are shared and noisy, so compare medians and ratios taken
in one run. Each benchmark also runs alone: `python -m bench.bench_wire`, `bench.bench_storage`,
`bench.bench_e2e`, `bench.bench_fight`, `bench.bench_roll_log`, `bench.bench_conditions`.
`bench.profile_e2e` is not a benchmark but a profile of bot.py under bench_e2e's load (py-spy),
so it runs only alone.
"""

from __future__ import annotations

import importlib
import sys

BENCHMARKS = (
    "bench.bench_wire",
    "bench.bench_storage",
    "bench.bench_e2e",
    "bench.bench_fight",
    "bench.bench_roll_log",
    "bench.bench_conditions",
)


def main() -> int:
    status = 0
    for name in BENCHMARKS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError:
            print(f"== {name}: not present, skipped")
            continue
        print(f"== {name}")
        status |= module.main([]) or 0
    return status


if __name__ == "__main__":
    sys.exit(main())
