"""bot.py's process sets the garbage collector for a long run (cogs/utils/collector.py): what the
host would see is a bot that answers faster; what can be checked is that the start-up heap is
frozen only once the bot is ready, and the young generation's threshold."""

from __future__ import annotations

import asyncio
import gc

import pytest

from cogs.utils import collector


@pytest.fixture
def restored_collector():
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()  # back into the oldest generation: this test process collects them again
    gc.set_threshold(*thresholds)


class _Bot:
    def __init__(self) -> None:
        self.ready = asyncio.Event()

    async def wait_until_ready(self) -> None:
        await self.ready.wait()


async def test_the_start_up_heap_is_frozen_once_the_bot_is_ready(
    restored_collector, caplog: pytest.LogCaptureFixture
) -> None:
    gc.unfreeze()
    bot = _Bot()
    freezer = asyncio.create_task(collector.freeze_when_ready(bot))
    await asyncio.sleep(0.01)
    assert gc.get_freeze_count() == 0  # not before READY: the caches are not filled yet
    caplog.set_level("INFO", logger="wire")
    bot.ready.set()
    await asyncio.wait_for(freezer, 10)
    assert gc.get_freeze_count() > 1000
    assert "Start-up heap frozen" in caplog.text


def test_the_young_generation_is_collected_ten_times_less_often(restored_collector) -> None:
    collector.tune()
    young, middle, old = gc.get_threshold()
    assert young == 10 * 700 and (middle, old) == (10, 10)
