"""Quick play: saved rolls (/save, /r) and the action panel (/panel).

A saved roll keeps a roll's command and options, never its numbers: /r calls that command
again (`replay.rerun`), so the sheet is read as it is now and the roll is logged, answered and
offered Roll again like the typed one. The panel's buttons live beside this, in panel.py.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.quickplay.panel import ITEMS, Pressed, acting_copy, roll_saved, send_panel
from cogs.utils import autocomplete as ac
from cogs.utils.errors import UserError
from cogs.utils.options import Mod, Name
from cogs.utils.replay import OPTIONS_KEY
from cogs.utils.rolling import Roller, channel_fight, load_roller
from cogs.utils.save_button import FORM_ID, SaveButton, answer_save_form, saved_text
from cogs.utils.text import inert
from storage.errors import StorageError
from wire.i18n import N_, tr
from wire.sheet import Character

if TYPE_CHECKING:
    from bot import WireBot

LAST_ROLLS_LOOKED_AT = 20


def _sheet(roller: Roller) -> Character:
    return roller.sheet()


async def saved_names(interaction: discord.Interaction, current: str) -> ac.Choices:
    """The saved rolls of the sheet a roll would use (the active one, or npc: for GMs)."""
    sheet = await ac.sheet_for(interaction)
    if sheet is None or interaction.guild_id is None:
        return []
    try:
        saved = await ac.store_of(interaction).saved_rolls(
            interaction.guild_id, sheet.campaign_id, sheet.id
        )
    except StorageError:
        return []
    return ac.choices(((s.name, s.name) for s in saved), current)


class QuickPlay(commands.Cog):
    def __init__(self, bot: WireBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(SaveButton, *ITEMS)
        self.bot.add_form(FORM_ID, self.on_save_form)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(SaveButton, *ITEMS)
        self.bot.remove_form(FORM_ID)

    async def on_save_form(self, interaction: discord.Interaction, match: re.Match[str]) -> None:
        """Answer the Save button's form wherever and whenever it was opened: its id names
        the roll, the typed name is the rest."""
        roll_id = int(match["roll"])
        await self.bot.tree.run(
            interaction, lambda: answer_save_form(self.bot, interaction, roll_id)
        )

    @app_commands.command(
        name="save", description="Save your last roll under a name, or rename, delete, list them"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        name="The saved roll's name (without it: list the saved rolls)",
        rename="A new name for the saved roll",
        delete="Delete the saved roll",
        npc="GMs: the NPC whose rolls these are",
    )
    @app_commands.autocomplete(name=saved_names, npc=ac.npc_names)
    async def save(
        self,
        interaction: discord.Interaction,
        name: Name | None = None,
        rename: Name | None = None,
        delete: bool = False,
        npc: Name | None = None,
    ) -> None:
        roller = await load_roller(
            self.bot, interaction, npc, as_npc=N_("list or change an NPC's saved rolls")
        )
        sheet = _sheet(roller)
        store, guild, campaign = self.bot.store, roller.guild_id, roller.campaign.id
        if name is None:
            if rename or delete:
                raise UserError(tr("Name the saved roll to rename or delete with name:."))
            saved = await store.saved_rolls(guild, campaign, sheet.id)
            if not saved:
                text = tr(
                    "{name} has no saved rolls yet. Roll, then press Save or use /save name:.",
                    name=inert(sheet.name),
                )
            else:
                listed = "\n".join(f"• **{inert(s.name)}**" for s in saved)
                text = tr("Saved rolls of {name}:", name=inert(sheet.name)) + "\n" + listed
            await interaction.response.send_message(text, ephemeral=True)
            return
        if delete and rename:
            raise UserError(tr("Give rename or delete, not both."))
        if delete:
            gone = await store.delete_saved_roll(guild, campaign, roller.user_id, sheet.id, name)
            await interaction.response.send_message(
                tr("Deleted the saved roll **{name}**.", name=inert(gone.name)), ephemeral=True
            )
            return
        if rename:
            renamed = await store.rename_saved_roll(
                guild, campaign, roller.user_id, sheet.id, name, rename
            )
            await interaction.response.send_message(
                tr("Renamed: now **{name}**.", name=inert(renamed.name)), ephemeral=True
            )
            return
        recent = await store.recent_rolls(
            guild, campaign, user_id=roller.user_id, limit=LAST_ROLLS_LOOKED_AT, include_hidden=True
        )
        last = next(
            (
                r
                for r in recent
                if r.character_id == sheet.id and isinstance(r.inputs.get(OPTIONS_KEY), dict)
            ),
            None,
        )
        if last is None:
            raise UserError(
                tr(
                    "{name} has no roll to save yet: roll first (a check, an attack...), then "
                    "/save name:.",
                    name=inert(sheet.name),
                )
            )
        change = await store.save_roll(
            guild, campaign, roller.user_id, sheet.id, name, last.inputs[OPTIONS_KEY]
        )
        await interaction.response.send_message(saved_text(change, sheet.name), ephemeral=True)

    @app_commands.command(
        name="r", description="Roll a saved roll again, from your sheet as it is now"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        name="The saved roll",
        mod="A modifier on top of the saved roll's",
        npc="GMs: roll an NPC's saved roll",
    )
    @app_commands.autocomplete(name=saved_names, npc=ac.npc_names)
    async def r(
        self,
        interaction: discord.Interaction,
        name: Name,
        mod: Mod = 0,
        npc: Name | None = None,
    ) -> None:
        roller = await load_roller(self.bot, interaction, npc)
        sheet = _sheet(roller)
        saved = await self.bot.store.find_saved_roll(
            roller.guild_id, roller.campaign.id, sheet.id, name
        )
        await roll_saved(interaction, await self._as_roller(roller, sheet), saved, mod)

    async def _as_roller(self, roller: Roller, sheet: Character) -> Pressed:
        """Who rolls: a GM's npc:Goblin 1 is that copy in this channel's fight (named and
        credited as Goblin 1, as /attack npc:Goblin 1 is), else the sheet."""
        fight = None
        if sheet.is_npc and roller.name != sheet.name:
            fight = await channel_fight(self.bot, roller)
        copy = acting_copy(fight, sheet, roller.name)
        return Pressed(roller.campaign, sheet, fight if copy else None, copy)

    @app_commands.command(name="panel", description="Your character's quick actions, for you alone")
    @app_commands.guild_only()
    @app_commands.describe(npc="GMs: an NPC's panel")
    @app_commands.autocomplete(npc=ac.npc_names)
    async def panel(self, interaction: discord.Interaction, npc: Name | None = None) -> None:
        roller = await load_roller(self.bot, interaction, npc, as_npc=N_("open an NPC's panel"))
        await send_panel(interaction, _sheet(roller), roller.campaign, roller.name)
