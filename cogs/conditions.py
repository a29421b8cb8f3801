"""/condition: a campaign's own named conditions, made by its GMs, and conditions on a
character outside a fight (/condition add, /condition remove).

WIRE's sources define no conditions, so the bot ships none: a table names "Prone: -2 to all
defences" once with /condition save, and /fight effect offers it by name and fills in what a
GM leaves out. The rules of a condition are wire/conditions.py; the presets are kept by
storage/rules_conditions.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.utils import autocomplete as ac
from cogs.utils.conditions import (
    TARGET_CHOICES,
    TIMING_CHOICES,
    ConditionModifier,
    condition_text,
    preset_text,
    sheet_lasting_text,
    wanted_condition,
)
from cogs.utils.discord_limits import CONTENT_MAX
from cogs.utils.options import Name
from cogs.utils.rolling import load_roller
from cogs.utils.text import inert
from cogs.utils.tracker import refresh_for_sheet
from wire.conditions import CONDITION_MODIFIER, MAX_ROUNDS, Effect, Target, Timing
from wire.i18n import tr
from wire.textcheck import clip

if TYPE_CHECKING:
    from bot import WireBot

Rounds = app_commands.Range[int, 1, MAX_ROUNDS]


class Conditions(commands.GroupCog, group_name="condition"):
    """A campaign's named conditions (save, delete, list) and a sheet's (add, remove)."""

    def __init__(self, bot: WireBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="save", description="GMs: name a condition of this campaign")
    @app_commands.guild_only()
    @app_commands.describe(
        name="Its name, e.g. Prone (one of the same name is replaced)",
        modifier=f"Added to the rolls it applies to ({CONDITION_MODIFIER.low} to "
        f"+{CONDITION_MODIFIER.high}; default 0: a reminder only)",
        applies_to="Which rolls it changes (default: all rolls)",
        stat="With Checks: the one attribute or skill whose checks it changes",
        rounds="How many of its bearer's turns it lasts (default: until the fight ends)",
        counted="When its rounds count down (default: as its turn ends)",
    )
    @app_commands.choices(applies_to=TARGET_CHOICES, counted=TIMING_CHOICES)
    async def save(
        self,
        interaction: discord.Interaction,
        name: Name,
        modifier: ConditionModifier = 0,
        applies_to: app_commands.Choice[str] | None = None,
        stat: Name | None = None,
        rounds: Rounds | None = None,
        counted: app_commands.Choice[str] | None = None,
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        preset = Effect(
            0,
            name,
            rounds,
            modifier,
            Target(applies_to.value if applies_to else Target.ALL.value),
            stat,
            Timing(counted.value if counted else Timing.END.value),
        )
        kept, replaced = await self.bot.store.save_condition_preset(
            roller.guild_id, roller.campaign.id, roller.user_id, preset
        )
        said = (
            tr("Replaced: {condition}.", condition=preset_text(kept))
            if replaced
            else tr("Saved: {condition}.", condition=preset_text(kept))
        )
        await interaction.response.send_message(said, ephemeral=True)

    @app_commands.command(name="delete", description="GMs: forget a named condition")
    @app_commands.guild_only()
    @app_commands.describe(name="The named condition")
    @app_commands.autocomplete(name=ac.condition_presets)
    async def delete(self, interaction: discord.Interaction, name: Name) -> None:
        roller = await load_roller(self.bot, interaction)
        gone = await self.bot.store.delete_condition_preset(
            roller.guild_id, roller.campaign.id, roller.user_id, name
        )
        await interaction.response.send_message(
            tr(
                "Deleted {name}. Conditions already on a combatant stay as they are.",
                name=inert(gone.name),
            ),
            ephemeral=True,
        )

    @app_commands.command(name="add", description="Put a condition on a character outside a fight")
    @app_commands.guild_only()
    @app_commands.describe(
        character="Who bears it (a player may name their own, where the table lets them)",
        name="The condition, e.g. Prone (the campaign's named ones are offered)",
        modifier=f"Added to the rolls it applies to ({CONDITION_MODIFIER.low} to "
        f"+{CONDITION_MODIFIER.high}; default: the named condition's, else 0)",
        applies_to="Which rolls it changes (default: all rolls)",
        stat="With Checks: the one attribute or skill whose checks it changes",
        rounds="Rounds it lasts once the character is in a fight (default: until removed)",
        counted="When its rounds count down in a fight (default: as its turn ends)",
        hidden="GMs: only GMs see it (the rolls count it all the same)",
    )
    @app_commands.choices(applies_to=TARGET_CHOICES, counted=TIMING_CHOICES)
    @app_commands.autocomplete(character=ac.my_character, name=ac.condition_presets)
    async def add(
        self,
        interaction: discord.Interaction,
        character: Name,
        name: Name,
        modifier: ConditionModifier | None = None,
        applies_to: app_commands.Choice[str] | None = None,
        stat: Name | None = None,
        rounds: Rounds | None = None,
        counted: app_commands.Choice[str] | None = None,
        hidden: bool = False,
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        wanted = await wanted_condition(
            self.bot,
            roller,
            name,
            modifier=modifier,
            applies_to=applies_to,
            stat=stat,
            rounds=rounds,
            counted=counted,
            hidden=hidden,
        )
        sheet, kept = await self.bot.store.add_sheet_condition(
            roller.guild_id, roller.campaign.id, roller.user_id, character, wanted
        )
        await interaction.response.send_message(
            f"**{inert(sheet.name)}**: {condition_text(kept, left=False)}, "
            f"{sheet_lasting_text(kept)}.",
            ephemeral=hidden or sheet.is_npc,
        )
        await refresh_for_sheet(
            self.bot, roller.guild_id, roller.channel_id, roller.campaign, sheet
        )

    @app_commands.command(name="remove", description="Take a condition off a character")
    @app_commands.guild_only()
    @app_commands.describe(character="Who bears it", name="The condition's name")
    @app_commands.autocomplete(character=ac.my_character, name=ac.sheet_conditions)
    async def remove(self, interaction: discord.Interaction, character: Name, name: Name) -> None:
        roller = await load_roller(self.bot, interaction)
        sheet, gone = await self.bot.store.remove_sheet_condition(
            roller.guild_id, roller.campaign.id, roller.user_id, character, name
        )
        await interaction.response.send_message(
            tr(
                "{condition} on {name} has ended.",
                condition=inert(gone.name),
                name=inert(sheet.name),
            ),
            ephemeral=gone.hidden or sheet.is_npc,
        )
        await refresh_for_sheet(
            self.bot, roller.guild_id, roller.channel_id, roller.campaign, sheet
        )

    @app_commands.command(name="list", description="This campaign's named conditions")
    @app_commands.guild_only()
    async def list_(self, interaction: discord.Interaction) -> None:
        roller = await load_roller(self.bot, interaction)
        presets = await self.bot.store.condition_presets(roller.guild_id, roller.campaign.id)
        if not presets:
            text = tr(
                "This campaign has no named conditions. WIRE defines none: a GM names the "
                "table's own with /condition save."
            )
        else:
            text = "\n".join(f"• {preset_text(p)}" for p in presets)
        await interaction.response.send_message(clip(text, CONTENT_MAX), ephemeral=True)


async def setup(bot: WireBot) -> None:
    await bot.add_cog(Conditions(bot))
