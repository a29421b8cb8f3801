"""The pace of tracker edits: at most one in flight per tracker, the latest state wins, and
edits spaced so that a busy fight stays inside Discord's rate limits.

Why a layer of its own: every change to a fight (each attack's damage, each /health, each
effect, each turn) asks for its tracker to be shown again, and at five attacks a second that
is five edits a second of one message. Discord limits edits of one channel's messages (the
bucket of `PATCH /channels/{id}/messages/{id}` is per channel; the limit is not documented, it
is read from the X-RateLimit-* headers, and is 5 per 5 s as observed) and every request of the
bot counts against its global 50 a second, shared by all its processes. discord.py waits for a
bucket before sending, so edits queued past the limit lag further and further behind the fight.
Only the latest state matters, so a change asked for while an edit is in flight or waiting for
its slot is merged into the next edit, which reads the fight when it is sent.

What to show and how is the tracker's business (cogs/utils/tracker.py); this module only says
when. One per bot: its tasks belong to the bot's event loop.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

log = logging.getLogger("wire.fights")

Edit = Callable[[], Awaitable[bool]]
"""Show the fight's latest state; True when it must be shown again (an older edit landed
last, see tracker.TrackerEdits)."""

GAP = 1.25
"""Seconds between two edits of one tracker: 4 in 5 s, one below the per-channel bucket of 5 in
5 s, so the channel keeps room for the other edits there (an attack's expiry, /fight show)."""
GLOBAL_SHARE = 25.0
"""Tracker edits a second the whole bot may send, all processes together: half of Discord's
global 50, the rest left to hidden rolls, direct messages and the expiry sweep."""


@dataclass
class _Tracker:
    edit: Edit
    dirty: bool = True
    """A change not yet shown by an edit that began after it."""
    last: float = float("-inf")
    """When the last edit of this tracker ended (its answer came, or it failed)."""
    waiters: list[asyncio.Future[None]] = field(default_factory=list)
    task: asyncio.Task[None] | None = None


class Budget:
    """A token bucket: `rate` a second, bursts of up to one second's worth."""

    def __init__(self, rate: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self._clock = clock
        self._tokens = max(1.0, rate)
        self._at = clock()

    def wait(self) -> float:
        """Seconds until a token is free (0: take it now, and it is taken)."""
        now = self._clock()
        self._tokens = min(max(1.0, self.rate), self._tokens + (now - self._at) * self.rate)
        self._at = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return 0.0
        return (1.0 - self._tokens) / self.rate


class TrackerPace:
    """Schedules tracker edits: one in flight per fight, merged while it waits, spaced by
    `gap` per tracker and by `budget` across all of this process's trackers."""

    KEEP = 4096
    """Idle trackers remembered (for their last edit's time); the oldest go first."""

    def __init__(
        self,
        *,
        gap: float = GAP,
        rate: float = GLOBAL_SHARE,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        self.gap = gap
        self.budget = Budget(rate, clock)
        self._clock = clock
        self._sleep = sleep
        self._trackers: OrderedDict[int, _Tracker] = OrderedDict()
        self.edits = 0
        """Edits sent, for the benchmark."""

    @classmethod
    def for_shards(cls, shard_count: int | None, shard_ids: tuple[int, ...] | None) -> TrackerPace:
        """This process's share of the bot's budget: its shards' part of GLOBAL_SHARE (the
        processes of a bot share its global limit, and each carries its shards' servers)."""
        share = 1.0
        if shard_count and shard_ids is not None:
            share = len(shard_ids) / shard_count
        return cls(rate=GLOBAL_SHARE * share)

    def request(self, fight_id: int, edit: Edit) -> asyncio.Future[None]:
        """Ask for the fight's tracker to show its latest state; done once an edit that began
        after this call has finished (or failed: the next change tries again)."""
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        tracker = self._trackers.get(fight_id)
        if tracker is None:
            tracker = self._trackers[fight_id] = _Tracker(edit)
            self._forget_idle()
        else:
            self._trackers.move_to_end(fight_id)
        tracker.edit, tracker.dirty = edit, True
        tracker.waiters.append(waiter)
        if tracker.task is None or tracker.task.done():
            tracker.task = asyncio.create_task(self._run(fight_id, tracker))
        return waiter

    def _forget_idle(self) -> None:
        for fight_id in list(self._trackers):
            if len(self._trackers) <= self.KEEP:
                return
            tracker = self._trackers[fight_id]
            if tracker.task is None or tracker.task.done():
                del self._trackers[fight_id]

    async def _run(self, fight_id: int, tracker: _Tracker) -> None:
        """Edit until no change is left unshown; each edit reads the fight when it is sent."""
        try:
            while tracker.dirty:
                await self._wait_turn(tracker)
                waiters, tracker.waiters = tracker.waiters, []
                tracker.dirty = False
                self.edits += 1
                try:
                    if await tracker.edit():
                        tracker.dirty = True  # an older state landed last: show the latest
                except Exception:  # the change is stored; the next one tries again
                    log.exception("Could not show the tracker of fight %s", fight_id)
                finally:
                    # The gap counts from the edit's end: one slow to go out (its read waiting
                    # behind a burst of writes) must not bring the next closer to it at Discord.
                    tracker.last = self._clock()
                    for waiter in waiters:
                        if not waiter.done():
                            waiter.set_result(None)
        finally:
            for waiter in tracker.waiters:  # cancelled (the bot closes): nobody waits forever
                if not waiter.done():
                    waiter.set_result(None)
            tracker.waiters = []

    async def _wait_turn(self, tracker: _Tracker) -> None:
        """Until the tracker's gap has passed and a token of the budget is free."""
        while True:
            due = tracker.last + self.gap - self._clock()
            if due > 0:
                await self._sleep(due)
                continue
            wait = self.budget.wait()
            if wait <= 0:
                return
            await self._sleep(wait)
