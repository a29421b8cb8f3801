"""The tracker edits' pace (cogs/utils/tracker_pace.py) on a clock of the test's own: a burst of
changes becomes a few edits, the last showing the last change; edits of one tracker keep the
gap; the process's budget spaces the edits of many trackers; a failed edit loses nothing."""

from __future__ import annotations

import asyncio

from cogs.utils.tracker_pace import TrackerPace


class Clock:
    """Time that moves only when the test moves it; sleepers wake when their time comes."""

    def __init__(self) -> None:
        self.now = 1000.0
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._sleepers.append((self.now + seconds, future))
        await future

    async def run(self, seconds: float, step: float = 0.01) -> None:
        """Move time on by `seconds`, waking each sleeper at its time."""
        end = self.now + seconds
        while self.now < end:
            self.now = round(self.now + step, 6)
            for wake, future in list(self._sleepers):
                if wake <= self.now + 1e-9:
                    self._sleepers.remove((wake, future))
                    future.set_result(None)
            for _ in range(5):
                await asyncio.sleep(0)


class Fight:
    """A fight whose state is a counter; an edit shows the counter as it is when sent."""

    def __init__(self, clock: Clock, takes: float = 0.2) -> None:
        self.clock, self.takes = clock, takes
        self.state = 0
        self.shown: list[tuple[float, int]] = []
        self.fail_next = False

    async def edit(self) -> bool:
        state = self.state  # read when the edit is sent
        await self.clock.sleep(self.takes)
        if self.fail_next:
            self.fail_next = False
            raise RuntimeError("Discord said no")
        self.shown.append((self.clock.now, state))
        return False


async def change(pace: TrackerPace, fight: Fight, fight_id: int = 1) -> asyncio.Future[None]:
    fight.state += 1
    return pace.request(fight_id, fight.edit)


async def test_ten_changes_at_once_give_one_edit_of_the_last_state() -> None:
    clock = Clock()
    pace = TrackerPace(gap=1.25, rate=25, clock=clock, sleep=clock.sleep)
    fight = Fight(clock)
    waiters = [await change(pace, fight) for _ in range(10)]
    await clock.run(1.0)
    assert all(w.done() for w in waiters)
    assert [state for _, state in fight.shown] == [10]


async def test_ten_changes_over_a_second_give_two_edits_the_last_with_the_last_state() -> None:
    clock = Clock()
    pace = TrackerPace(gap=1.25, rate=25, clock=clock, sleep=clock.sleep)
    fight = Fight(clock, takes=0.0)
    waiters = []
    for _ in range(10):
        waiters.append(await change(pace, fight))
        await clock.run(0.1)
    await clock.run(3.0)
    assert all(w.done() for w in waiters)
    assert [state for _, state in fight.shown] == [1, 10]  # the first at once, then the rest
    assert fight.shown[1][0] - fight.shown[0][0] >= 1.25


async def test_changes_while_an_edit_is_in_flight_wait_for_the_next_one() -> None:
    clock = Clock()
    pace = TrackerPace(gap=1.25, rate=25, clock=clock, sleep=clock.sleep)
    fight = Fight(clock, takes=3.0)  # a slow edit (a 429 retried by discord.py)
    first = await change(pace, fight)
    await clock.run(0.5)  # the first edit is in flight
    later = [await change(pace, fight) for _ in range(5)]
    await clock.run(10.0)
    assert first.done() and all(w.done() for w in later)
    assert [state for _, state in fight.shown] == [1, 6]
    assert fight.shown[1][0] - fight.shown[0][0] >= 3.0


async def test_the_budget_spaces_the_edits_of_many_trackers() -> None:
    clock = Clock()
    pace = TrackerPace(gap=1.25, rate=2, clock=clock, sleep=clock.sleep)
    fights = [Fight(clock, takes=0.0) for _ in range(6)]
    started = clock.now
    waiters = [await change(pace, fight, fight_id=n) for n, fight in enumerate(fights)]
    await clock.run(5.0)
    assert all(w.done() for w in waiters)
    times = sorted(at for fight in fights for at, _ in fight.shown)
    assert len(times) == 6
    # A burst of 2 (the bucket's second), then 2 a second: 6 edits take 2 s.
    assert times[1] - started < 0.1 and 1.9 <= times[-1] - started <= 2.1


async def test_a_failed_edit_is_logged_and_the_next_change_is_shown(caplog) -> None:
    clock = Clock()
    pace = TrackerPace(gap=1.25, rate=25, clock=clock, sleep=clock.sleep)
    fight = Fight(clock)
    fight.fail_next = True
    failed = await change(pace, fight)
    await clock.run(1.0)
    assert failed.done()  # answered although it failed
    assert fight.shown == [] and "Could not show the tracker of fight 1" in caplog.text
    again = await change(pace, fight)
    await clock.run(2.0)
    assert again.done() and [state for _, state in fight.shown] == [2]
