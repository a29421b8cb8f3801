"""/roll: dice outside the rules.

For what WIRE's rules do not cover (a random encounter, loot, another game's dice); it is
logged like any roll, and can be hidden like one. The odds before a WIRE roll are /odds
(cogs/odds.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.utils import dice_expression
from cogs.utils.embeds import free_roll_embed
from cogs.utils.options import ROLL_DESCRIPTIONS, DiceText, Name
from cogs.utils.rolling import deliver, free_roll_record, load_roller
from wire.i18n import N_

if TYPE_CHECKING:
    from bot import WireBot


class Table(commands.Cog):
    def __init__(self, bot: WireBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="roll", description="Roll dice outside the rules: 2d6+3, 4d6kh3 (keep highest 3), d100"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        expression="Dice, e.g. 2d6+3, 4d6kh3, d100, 2d20kl1 (keep lowest), 3d6rr1 (reroll 1s)",
        label="What the roll is for, e.g. Random encounter (shown in the reply)",
        private=ROLL_DESCRIPTIONS["private"],
    )
    async def roll(
        self,
        interaction: discord.Interaction,
        expression: DiceText,
        label: Name | None = None,
        private: bool = False,
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        rolled = dice_expression.roll(expression, self.bot.rng)
        embed = free_roll_embed(roller.name, rolled.shown, label, hint=rolled.hint)
        record = free_roll_record(
            interaction,
            roller,
            inputs={"expression": rolled.expression, "label": label, "dice": rolled.plain},
            total=rolled.total,
            hidden=private,
        )
        await deliver(self.bot, interaction, roller, embed, record, what=N_("roll"))


async def setup(bot: WireBot) -> None:
    await bot.add_cog(Table(bot))
