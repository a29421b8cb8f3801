"""The heartbeat file: touched every EVERY seconds while the bot is connected to Discord, so that
a container's health check (healthcheck.py) can tell a bot that works from a process that merely
lives (logged out, its gateway lost and not coming back, stuck before READY).

Only with WIRE_HEARTBEAT set (the Docker image sets it); a host without a health check needs no
file. No commands: nothing here faces Discord.
"""

from __future__ import annotations

import logging
import math
from pathlib import Path
from typing import TYPE_CHECKING

from discord.ext import commands, tasks

if TYPE_CHECKING:
    from bot import WireBot

log = logging.getLogger("wire.heartbeat")

EVERY = 20.0
"""Seconds between two beats; healthcheck.py allows MAX_AGE (a few missed beats)."""


def connected(bot: WireBot) -> bool:
    """READY, not closing, and every shard's gateway up (discord.py's latency is NaN or
    infinite for a shard without a live connection)."""
    if bot.is_closed() or not bot.is_ready() or bot.closing:
        return False
    shards = getattr(bot, "shards", None)
    if shards:
        return all(
            not shard.is_closed() and math.isfinite(shard.latency) for shard in shards.values()
        )
    return math.isfinite(bot.latency)


def beat(path: Path) -> None:
    """Write the file anew (its time is what counts; the content is for a person looking)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("connected to Discord\n")


class Heartbeat(commands.Cog):
    def __init__(self, bot: WireBot) -> None:
        self.bot = bot
        self.path = bot.config.heartbeat
        self._warned = False

    async def cog_load(self) -> None:
        if self.bot.background_tasks and self.path is not None:
            self.loop.start()

    async def cog_unload(self) -> None:
        self.loop.cancel()

    @tasks.loop(seconds=EVERY)
    async def loop(self) -> None:
        self.tick()

    @loop.before_loop
    async def _before(self) -> None:
        await self.bot.wait_until_ready()

    def tick(self) -> bool:
        """One beat if connected; whether the file was written."""
        if self.path is None or not connected(self.bot):
            return False
        try:
            beat(self.path)
        except OSError as exc:  # the health check then fails, which is what it should say
            if not self._warned:
                log.warning("Cannot write the heartbeat file %s: %s", self.path, exc)
                self._warned = True
            return False
        return True


async def setup(bot: WireBot) -> None:
    await bot.add_cog(Heartbeat(bot))
