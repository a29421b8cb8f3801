"""The bot with every cog loaded and nothing connected: where the tools (the message catalogue,
the command reference) and the payload tests read the command tree from."""

from __future__ import annotations

import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot import WireBot


@asynccontextmanager
async def loaded_bot() -> AsyncIterator[WireBot]:
    """A WireBot on a scratch database with its extensions loaded; unloaded on the way out.
    It never logs in or syncs, so it needs no token and no network."""
    from bot import EXTENSIONS, WireBot
    from cogs.utils.config import Config

    with tempfile.TemporaryDirectory() as folder:
        bot = WireBot(
            Config(token="x", database=Path(folder) / "wire.db"),
            sync_commands=False,
            background_tasks=False,
        )
        for extension in EXTENSIONS:
            await bot.load_extension(extension)
        try:
            yield bot
        finally:
            for extension in EXTENSIONS:
                await bot.unload_extension(extension)
