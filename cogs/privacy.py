"""/privacy: what the bot keeps about a user, and deleting all of it on request.

Discord's developer policy expects a bot to delete a user's data when they ask; the data lives
in every server the user played in, so this works from any server and from direct messages.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.utils.confirm import Confirm
from cogs.utils.embeds import NEUTRAL
from wire.i18n import N_, tr, trc

if TYPE_CHECKING:
    from bot import WireBot

STORED = N_(
    "**What the bot keeps about you**, in every server you play in: your characters (their "
    "sheets, notes and health), which one is active in each campaign, your crafting projects, "
    "the rolls and changes of health you made (the log behind /history), the fights you are "
    "in, the campaigns you are a GM of, and a record of each in-character post you made "
    '(`/say`, `/me`: the message, its channel, the character and you, so that "Who wrote '
    'this" can answer; not the words). It keeps them '
    "until you delete them: `/character delete` one at a time, or `/privacy forget-me` all "
    'at once (your posts stay in Discord; delete them with "Delete post" first). It keeps no '
    "other messages, no member lists and nothing from servers you do not use it "
    "in. NPCs belong to their campaign and stay when their GM leaves; CP you gave others' "
    "characters stay in their ledgers, without your name."
)


class Privacy(commands.GroupCog, group_name="privacy"):
    """What is stored about you, and deleting it."""

    def __init__(self, bot: WireBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="info", description="What the bot keeps about you, and for how long")
    async def info(self, interaction: discord.Interaction) -> None:
        embed = discord.Embed(title=tr("Your data"), description=tr(STORED), colour=NEUTRAL)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(
        name="forget-me", description="Delete your characters, rolls and settings in every server"
    )
    async def forget_me(self, interaction: discord.Interaction) -> None:
        user_id = interaction.user.id

        async def forget() -> str:
            counts = await self.bot.store.delete_user_data(user_id)
            done = ", ".join(f"{n} {tr(what)}" for what, n in counts.items())
            return tr("Done: the bot forgot you in every server ({done}).", done=done)

        await interaction.response.send_message(
            tr(
                "Delete **everything** the bot keeps about you in **every** server: your "
                "characters, your roll history, your crafting projects, your active choices, GM "
                "roles and the records of your in-character posts? This cannot be undone; export "
                "characters you want to keep first "
                "(`/character export`)."
            ),
            view=Confirm(
                self.bot,
                user_id,
                interaction,
                forget,
                confirm_label=trc("button", "Delete all my data"),
                nothing_done=tr("Nothing was deleted."),
            ),
            ephemeral=True,
        )


async def setup(bot: WireBot) -> None:
    await bot.add_cog(Privacy(bot))
