"""What runs out: `/counter` (add, set, use, reset, remove) on a character.

A counter (arrows 12/20, luck 1/3) stays between 0 and its maximum and fills again on a GM's
word, at a fight's end (/fight end does it) or at a session's end (a GM's `/counter reset
session:True`), as it says. A counter tied to a weapon is its ammunition: an attack with the
weapon spends one and is refused at 0; a defence never spends (cogs/combat.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.gear import target_of
from cogs.utils import autocomplete as ac
from cogs.utils.errors import UserError
from cogs.utils.options import Name
from cogs.utils.rolling import Roller, load_roller
from cogs.utils.text import inert
from wire.gear import MAX_COUNTER, Counter, Reset
from wire.i18n import tr

if TYPE_CHECKING:
    from bot import WireBot
    from wire.sheet import Weapon

Count = app_commands.Range[int, 0, MAX_COUNTER]
RESET_CHOICES = [
    app_commands.Choice(name="on a GM's word", value=Reset.GM.value),
    app_commands.Choice(name="at a fight's end", value=Reset.FIGHT.value),
    app_commands.Choice(name="at a session's end", value=Reset.SESSION.value),
]


async def spend_ammunition(
    bot: WireBot, roller: Roller, weapon: Weapon | None
) -> tuple[Counter, Counter] | None:
    """The one hook of the attack paths: an attack with a weapon that has an ammunition
    counter spends one, refused at 0 saying so before anything is rolled. A defence never
    calls it."""
    if weapon is None or roller.character is None:
        return None
    return await bot.store.spend_ammunition(
        roller.guild_id, roller.campaign.id, roller.character.id, weapon.name
    )


async def tell_ammunition(
    interaction: discord.Interaction, shot: tuple[Counter, Counter] | None
) -> None:
    """What is left of the ammunition, to the attacker alone, after the attack's reply."""
    if shot is not None:
        await interaction.followup.send(
            tr("{counter} left.", counter=inert(shot[1].line())), ephemeral=True
        )


def counter_text(sheet_name: str, counter: Counter) -> str:
    return f"**{inert(sheet_name)}**: {inert(counter.line())}"


class CountersCog(commands.GroupCog, group_name="counter"):
    """Named counters with a maximum on a character."""

    def __init__(self, bot: WireBot) -> None:
        self.bot = bot
        super().__init__()

    async def _reply(self, interaction: discord.Interaction, text: str, npc: bool) -> None:
        await interaction.response.send_message(text, ephemeral=npc)

    async def _sheet(self, interaction: discord.Interaction, character: str | None) -> tuple:
        roller = await load_roller(self.bot, interaction)
        target = target_of(roller, character)
        gear = await self.bot.store.gear(
            roller.guild_id, roller.campaign.id, roller.user_id, target
        )
        return roller, gear.sheet

    @app_commands.command(name="add", description="Add a counter to a character, or reshape one")
    @app_commands.guild_only()
    @app_commands.describe(
        name="e.g. Arrows, Luck",
        maximum="The most it holds",
        value="What it holds now (default: full)",
        reset="When it fills again (default: on a GM's word)",
        weapon="A weapon of the sheet that spends it as ammunition",
        character="The character (default: your active one)",
    )
    @app_commands.choices(reset=RESET_CHOICES)
    @app_commands.autocomplete(weapon=ac.weapon_names, character=ac.my_character)
    async def add(
        self,
        interaction: discord.Interaction,
        name: Name,
        maximum: app_commands.Range[int, 1, MAX_COUNTER],
        value: Count | None = None,
        reset: app_commands.Choice[str] | None = None,
        weapon: Name | None = None,
        character: Name | None = None,
    ) -> None:
        roller, sheet = await self._sheet(interaction, character)
        counter = await self.bot.store.add_counter(
            roller.guild_id,
            roller.campaign.id,
            roller.user_id,
            sheet.id,
            name,
            maximum,
            value,
            Reset(reset.value) if reset else Reset.GM,
            weapon,
        )
        text = counter_text(sheet.name, counter) + f" ({counter.reset.label})"
        if weapon:
            text += " " + tr("· ammunition of {weapon}", weapon=inert(weapon))
        await self._reply(interaction, text, sheet.is_npc)

    @app_commands.command(name="use", description="Spend from a counter (default one)")
    @app_commands.guild_only()
    @app_commands.describe(
        name="The counter", count="How many (default 1)", character="The character (default: yours)"
    )
    @app_commands.autocomplete(character=ac.my_character)
    async def use(
        self,
        interaction: discord.Interaction,
        name: Name,
        count: app_commands.Range[int, 1, MAX_COUNTER] = 1,
        character: Name | None = None,
    ) -> None:
        await self._change(interaction, name, character, spend=count)

    @app_commands.command(name="set", description="Set what a counter holds")
    @app_commands.guild_only()
    @app_commands.describe(
        name="The counter", value="What it holds now", character="The character (default: yours)"
    )
    @app_commands.autocomplete(character=ac.my_character)
    async def set_value(
        self,
        interaction: discord.Interaction,
        name: Name,
        value: Count,
        character: Name | None = None,
    ) -> None:
        await self._change(interaction, name, character, value=value)

    async def _change(
        self,
        interaction: discord.Interaction,
        name: str,
        character: str | None,
        *,
        spend: int = 0,
        value: int | None = None,
    ) -> None:
        roller, sheet = await self._sheet(interaction, character)
        before, after = await self.bot.store.change_counter(
            roller.guild_id,
            roller.campaign.id,
            roller.user_id,
            sheet.id,
            name,
            spend=spend,
            value=value,
        )
        text = counter_text(sheet.name, after) + " " + tr("(was {value})", value=before.value)
        await self._reply(interaction, text, sheet.is_npc)

    @app_commands.command(name="remove", description="Remove a counter from a character")
    @app_commands.guild_only()
    @app_commands.describe(name="The counter", character="The character (default: yours)")
    @app_commands.autocomplete(character=ac.my_character)
    async def remove(
        self, interaction: discord.Interaction, name: Name, character: Name | None = None
    ) -> None:
        roller, sheet = await self._sheet(interaction, character)
        counter = await self.bot.store.remove_counter(
            roller.guild_id, roller.campaign.id, roller.user_id, sheet.id, name
        )
        text = tr(
            "**{name}** no longer counts {counter}.",
            name=inert(sheet.name),
            counter=inert(counter.name),
        )
        await self._reply(interaction, text, sheet.is_npc)

    @app_commands.command(name="reset", description="GMs: fill counters again, or end the session")
    @app_commands.guild_only()
    @app_commands.describe(
        character="Fill this character's counters",
        name="Only this counter",
        session="The session ends: fill every counter that fills then",
    )
    @app_commands.autocomplete(character=ac.readable_character)
    async def reset(
        self,
        interaction: discord.Interaction,
        character: Name | None = None,
        name: Name | None = None,
        session: bool = False,
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        if session == (character is not None):
            raise UserError(
                tr("Name a character to fill its counters, or choose session:True, one of them.")
            )
        filled = await self.bot.store.reset_counters(
            roller.guild_id, roller.campaign.id, roller.user_id, character, name
        )
        await interaction.response.send_message(
            tr("Filled {count} counters.", count=filled), ephemeral=True
        )


async def setup(bot: WireBot) -> None:
    await bot.add_cog(CountersCog(bot))
