"""The roll log's retention: rolls older than the host's WIRE_ROLL_LOG_DAYS are deleted, a
minute after start and then daily.

Why a job of its own: the roll log only grows (about 47 million rows and 12 GB a year at 10,000
servers, docs/scaling.md), and how long a campaign's history is kept is the host's choice.
The deletion goes in small batches, one statement each, with a pause between them, so a roll
made meanwhile waits for one batch at most; the batch shrinks when one holds the writer past
HOLD (bench/bench_long_log.py measures the hold and the rolls beside it).
With several processes the one with shard 0 runs it (the roll log is shared; as with the
command sync, that process always exists). No commands: nothing here faces Discord.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from discord.ext import commands, tasks

from storage import Store
from storage.errors import Busy
from storage.models import PrunedRolls

if TYPE_CHECKING:
    from bot import WireBot

log = logging.getLogger("wire.storage")

BATCH = 500
"""Rows a batch reads at most (and so deletes at most)."""
MIN_BATCH = 50
HOLD = 0.010
"""Seconds a batch should hold the writer at most: the first batch is MIN_BATCH rows, a slower
batch halves the next one (down to MIN_BATCH), a batch at under half of it doubles the next (up
to BATCH). Deleting a row costs its six index entries, so on a 10-million-row log a batch
settles near 100 rows (about 0.1 ms a row, measured by bench/bench_long_log.py)."""
PAUSE = 0.05
"""Seconds between two batches, in which the rolls queued behind a batch are written."""
START_DELAY = 60.0
"""Seconds after READY before the first run: start-up's own work goes first."""


async def prune_rolls(
    store: Store,
    before: datetime,
    *,
    stop: Callable[[], bool] = lambda: False,
    batches: int | None = None,
    on_batch: Callable[[PrunedRolls, float], None] | None = None,
) -> int:
    """Delete the rolls logged before `before`, batch after batch, oldest first; how many went.

    Stops when no old row is left, when `stop()` says so, or after `batches` batches.
    `on_batch(batch, seconds)`: each batch and the time its statement took (the benchmark's).
    """
    after, deleted, size, done = 0, 0, MIN_BATCH, 0  # from small: the first pages are cold
    while not stop() and (batches is None or done < batches):
        started = time.monotonic()
        batch = await store.delete_old_rolls(before, after_id=after, batch=size)
        took = time.monotonic() - started
        done += 1
        if on_batch is not None:
            on_batch(batch, took)
        if batch.last_id is None:
            break
        deleted, after = deleted + batch.count, batch.last_id
        if took > HOLD:
            size = max(MIN_BATCH, size // 2)
        elif took < HOLD / 2:
            size = min(BATCH, size * 2)
        await asyncio.sleep(PAUSE)
    return deleted


class RollRetention(commands.Cog):
    def __init__(self, bot: WireBot) -> None:
        self.bot = bot

    @property
    def days(self) -> int | None:
        return self.bot.config.roll_log_days

    async def cog_load(self) -> None:
        if self.bot.background_tasks and self.days is not None and self.bot.config.syncs_commands:
            self.daily.start()

    async def cog_unload(self) -> None:
        self.daily.cancel()

    @tasks.loop(hours=24)
    async def daily(self) -> None:
        try:
            await self.prune()
        except Exception:  # discord.ext.tasks ends a loop for good on an unhandled error
            log.exception("The roll log's retention job failed; it runs again tomorrow")

    @daily.before_loop
    async def _before_daily(self) -> None:
        await self.bot.wait_until_ready()
        await asyncio.sleep(START_DELAY)

    async def prune(self) -> int:
        """Delete the rolls logged more than `days` days ago; how many went."""
        if self.days is None:
            return 0
        before = self.bot.now() - timedelta(days=self.days)
        started = time.monotonic()
        try:
            deleted = await prune_rolls(self.bot.store, before, stop=lambda: self.bot.closing)
        except Busy:
            log.warning("Roll log retention: the database is busy; the rest tomorrow")
            return 0
        if deleted:
            log.info(
                "Roll log retention: deleted %d rolls older than %d days in %.1f s",
                deleted,
                self.days,
                time.monotonic() - started,
            )
        return deleted


async def setup(bot: WireBot) -> None:
    await bot.add_cog(RollRetention(bot))
