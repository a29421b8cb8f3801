"""Run a bot under cProfile, switched on and off by signals, for bench/profile_e2e.py --cprofile.

tests/e2e/launcher.py runs this file as the bot (`--bot bench/cprofile_bot.py`); it runs the
real one (WIRE_PROFILED_BOT) as `__main__` in the same process, so the launcher's repointing of
discord.py holds. SIGUSR1 starts the profiler, SIGUSR2 stops it and writes its stats to
WIRE_PROFILE_OUT: only the measured interactions are counted, not start-up and warm-up.

cProfile sees the thread that switched it on, the event loop's: a cached read (on the loop)
shows, a statement on aiosqlite's thread shows as the loop's wait for it. Deterministic
profiling slows every Python call, so its times say where and how often, not how fast.
"""

from __future__ import annotations

import cProfile
import os
import runpy
import signal
import sys
from pathlib import Path


def main() -> None:
    bot = Path(os.environ["WIRE_PROFILED_BOT"])
    out = os.environ["WIRE_PROFILE_OUT"]
    profiler = cProfile.Profile()

    def start(*_: object) -> None:
        profiler.enable()

    def finish(*_: object) -> None:
        profiler.disable()
        profiler.dump_stats(out)

    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, finish)
    sys.path[0] = str(bot.parent)  # as `python bot.py` would have it
    sys.argv[0] = str(bot)
    runpy.run_path(str(bot), run_name="__main__")


if __name__ == "__main__":
    main()
