"""A bare discord.py bot: the end-to-end suite's test subject and the benchmark baseline.

It does the least a slash-command bot can do, so that measurements of it are the floor that
discord.py itself sets (startup, memory, interaction latency) and so that the stand-in can be
checked against real discord.py behaviour before our own bot exists.  Every interaction is
answered with the same constant embed; the commands differ only in the route they take:

* ``/ping``: an immediate message response (callback type 4);
* ``/roll [sides]``: type 4 with a persistent "Roll again" button, whose click answers with an
  in-place update (type 7);
* ``/gm post <text>``: a subcommand; defers ephemerally (type 5), posts to the channel
  (``POST /channels/{id}/messages``), then sends an ephemeral follow-up (webhook).

Configuration comes from the environment, like the real bot: ``DISCORD_TOKEN`` and
``WIRE_DEV_GUILD`` (the guild to sync commands to; empty syncs globally); ``BAREBOT_SHARDED=1``
makes it an AutoShardedClient that asks ``GET /gateway/bot`` how many shards to run, which is
how the stand-in's shard count is checked against discord.py.  SIGTERM or SIGINT closes the
client cleanly and the process exits 0.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal

import discord
from discord import app_commands

log = logging.getLogger("barebot")

EMBED_TITLE = "Bare bot"
EMBED_DESCRIPTION = "A constant answer from a bare discord.py bot."
AGAIN_CUSTOM_ID = "barebot:again"


def constant_embed() -> discord.Embed:
    """The one answer this bot gives."""
    return discord.Embed(title=EMBED_TITLE, description=EMBED_DESCRIPTION, colour=0x5865F2)


class AgainView(discord.ui.View):
    """A persistent view (no timeout, fixed custom_id), so a click works after a restart too."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Roll again", custom_id=AGAIN_CUSTOM_ID)
    async def again(self, interaction: discord.Interaction, _button: discord.ui.Button) -> None:
        await interaction.response.edit_message(embed=constant_embed(), view=self)


class BareBot(discord.Client):
    """A client with an app-command tree and no privileged intents."""

    def __init__(self, dev_guild: int | None) -> None:
        super().__init__(intents=discord.Intents.none())
        self.tree = app_commands.CommandTree(self)
        self.dev_guild = dev_guild
        self._register_commands()

    def _register_commands(self) -> None:
        @self.tree.command(name="ping", description="Answer with a constant embed.")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(embed=constant_embed())

        @self.tree.command(name="roll", description="Answer with a constant embed and a button.")
        @app_commands.describe(sides="Number of sides (ignored).")
        async def roll(interaction: discord.Interaction, sides: int = 20) -> None:
            await interaction.response.send_message(embed=constant_embed(), view=AgainView())

        gm = app_commands.Group(name="gm", description="Game master tools.")

        @gm.command(name="post", description="Post a constant embed to this channel.")
        async def post(interaction: discord.Interaction, text: str) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            channel = interaction.channel
            if isinstance(channel, discord.abc.Messageable):
                await channel.send(embed=constant_embed())
            await interaction.followup.send(embed=constant_embed(), ephemeral=True)

        self.tree.add_command(gm)

    async def setup_hook(self) -> None:
        self.add_view(AgainView())
        if self.dev_guild is not None:
            guild = discord.Object(id=self.dev_guild)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d commands", len(synced))

    async def on_ready(self) -> None:
        log.info("ready as %s", self.user)


class ShardedBareBot(BareBot, discord.AutoShardedClient):
    """The bare bot on as many shards as Discord recommends."""

    async def on_shard_ready(self, shard_id: int) -> None:
        log.info("shard %d of %s ready", shard_id, self.shard_count)


async def run(token: str, dev_guild: int | None, sharded: bool = False) -> None:
    """Start the bot and close it on SIGTERM/SIGINT, so that the process exits 0."""
    bot = (ShardedBareBot if sharded else BareBot)(dev_guild)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.close()))
    async with bot:
        await bot.start(token)
    log.info("closed cleanly")


def main() -> None:
    """Read the environment and run until signalled."""
    # Plain format: the output goes to a log file that tests attach to failure reports.
    formatter = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    level = getattr(logging, os.environ.get("LOG_LEVEL", "INFO").upper(), logging.INFO)
    discord.utils.setup_logging(level=level, formatter=formatter)
    token = os.environ.get("DISCORD_TOKEN", "")
    if not token:
        raise SystemExit("barebot: DISCORD_TOKEN is not set")
    guild = os.environ.get("WIRE_DEV_GUILD", "").strip()
    sharded = os.environ.get("BAREBOT_SHARDED") == "1"
    asyncio.run(run(token, int(guild) if guild else None, sharded))


if __name__ == "__main__":
    main()
