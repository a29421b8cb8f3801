"""bot.py with its storage stubbed out: the ceiling `python -m bench.bench_e2e --stub-storage`
measures.

The bot is bot.py's own (same cogs, same tree, same start-up and shutdown); only the store it
opens is wrapped: the two calls a roll makes return at once, without touching the database:

* `roller_context` answers every user with the first campaign and character it read (one real
  read, then the same pair);
* `log_roll` discards the roll and returns a made-up id.

Everything else (the command-hash meta at start-up, close) goes to the real store. Subtracting
this bot's figures from bot.py's gives what storage costs per interaction; comparing it with the
bare bot gives the ratio our own Python leaves with storage free. Never used by the bot itself.

    python tests/e2e/launcher.py ... --bot bench/stub_bot.py
"""

from __future__ import annotations

import itertools
import sys

import bot  # the repository is on PYTHONPATH (bench_e2e's launch puts it there)
from storage import RuleStore


class StubStore:
    """A real store behind it; the roll path's two calls answered from memory."""

    def __init__(self, real: RuleStore) -> None:
        self._real = real
        self._context = None
        self._ids = itertools.count(10**12)

    def __getattr__(self, name: str):
        return getattr(self._real, name)

    async def roller_context(self, guild_id: int, channel_id: int, user_id: int):
        if self._context is None:
            self._context = await self._real.roller_context(guild_id, channel_id, user_id)
        return self._context

    async def log_roll(self, record) -> int:
        return next(self._ids)


async def open_stub_store(*args, **kwargs) -> StubStore:
    return StubStore(await _open_real(*args, **kwargs))


_open_real = bot.open_store
bot.open_store = open_stub_store  # setup_hook looks the name up in bot's module at call time

if __name__ == "__main__":
    sys.exit(bot.main())
