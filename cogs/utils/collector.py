"""Python's garbage collector set for a long-running bot process: the start-up heap frozen,
young objects collected ten times less often.

With CPython's defaults the collector took about 150 us of each `/check`'s 1 ms on the event
loop (measured with gc.callbacks under bench_e2e's load; docs/scaling.md, "Measured for issue
26"): every 700 new objects a young collection (an interaction makes a few hundred:
coroutines, frames, payload dicts), and every few thousand interactions a full one through
the ~80,000 objects of the loaded modules, discord.py's caches and the catalogues, 60 to 100
ms each with the loop stopped. Those objects live as long as the process, so they go to the
permanent generation (`gc.freeze`), which no collection walks: once after login (setup_hook
has loaded the store, the cogs and the commands; no interaction waits yet for the full
collection before it, some 100 ms), and again after READY for the servers' caches (that
collection walks only what is not frozen yet). And a young collection every 7,000 objects
instead of 700 promotes fewer short-lived ones. Together about a seventh of the bot's CPU
per interaction, with nothing else changed: cycles are still collected, only later.

Only bot.py's process does this (`run`): a test that builds many bots in one process must not
freeze each one's heap for good.
"""

from __future__ import annotations

import gc
import logging
import time
from typing import Protocol

log = logging.getLogger("wire")

THRESHOLDS = (7_000, 10, 10)
"""Young, middle and old generation thresholds; CPython's are (700, 10, 10)."""


class _Readies(Protocol):
    async def wait_until_ready(self) -> None: ...


def tune() -> None:
    """Collect the young generation every THRESHOLDS[0] new objects."""
    gc.set_threshold(*THRESHOLDS)


def freeze_heap() -> int:
    """Collect what is garbage now, then keep every live object out of later collections;
    the number of objects frozen."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


async def freeze_when_ready(bot: _Readies) -> None:
    """Freeze the start-up heap once the bot is connected and has its servers."""
    await bot.wait_until_ready()
    started = time.perf_counter()
    frozen = freeze_heap()
    log.info(
        "Start-up heap frozen: %d objects kept out of garbage collection (%.0f ms).",
        frozen,
        (time.perf_counter() - started) * 1000,
    )
