"""Autocomplete from the campaign's sheets: names a user can pick instead of typing numbers.

Each callback answers within Discord's 3 seconds with at most 25 choices, and never raises: a
user with no campaign data simply sees no suggestions.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from storage.errors import StorageError
from storage.models import Character

if TYPE_CHECKING:
    from bot import WireBot

log = logging.getLogger("wire.autocomplete")
MAX_CHOICES = 25


def _choices(names: list[tuple[str, str]], current: str) -> list[app_commands.Choice[str]]:
    """(label, value) pairs filtered by what was typed, as Discord choices (100 chars max)."""
    folded = current.casefold()
    return [
        app_commands.Choice(name=label[:100], value=value[:100])
        for label, value in names
        if folded in value.casefold()
    ][:MAX_CHOICES]


async def sheet_for(interaction: discord.Interaction) -> Character | None:
    """The sheet a roll would use: the NPC named in the `npc` option (GMs), else the active one."""
    bot: WireBot = interaction.client  # type: ignore[assignment]
    if interaction.guild_id is None or interaction.channel_id is None:
        return None
    try:
        campaign = await bot.store.campaign_for_channel(
            interaction.guild_id, interaction.channel_id, interaction.user.id
        )
        npc = getattr(interaction.namespace, "npc", None)
        if npc and campaign.is_gm(interaction.user.id):
            return await bot.store.get_character(interaction.guild_id, campaign.id, npc)
        return await bot.store.get_active_character(
            interaction.guild_id, campaign.id, interaction.user.id
        )
    except StorageError:
        return None


async def attribute_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    sheet = await sheet_for(interaction)
    if sheet is None:
        return []
    return _choices([(f"{k} ({v})", k) for k, v in sheet.attributes.items()], current)


async def skill_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    sheet = await sheet_for(interaction)
    if sheet is None:
        return []
    return _choices([(f"{k} ({v})", k) for k, v in sheet.skills.items()], current)


async def weapon_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    sheet = await sheet_for(interaction)
    if sheet is None:
        return []
    return _choices(
        [(f"{w.name} (base {w.base}, {w.attribute} + {w.skill})", w.name) for w in sheet.weapons],
        current,
    )


async def _characters(
    interaction: discord.Interaction, current: str, *, is_npc: bool | None, mine: bool
) -> list[app_commands.Choice[str]]:
    bot: WireBot = interaction.client  # type: ignore[assignment]
    if interaction.guild_id is None or interaction.channel_id is None:
        return []
    try:
        campaign = await bot.store.campaign_for_channel(
            interaction.guild_id, interaction.channel_id, interaction.user.id
        )
        found = await bot.store.find_characters(
            interaction.guild_id,
            campaign.id,
            current,
            owner_id=interaction.user.id
            if mine and not campaign.is_gm(interaction.user.id)
            else None,
            is_npc=is_npc,
            limit=MAX_CHOICES,
        )
    except StorageError:
        return []
    return _choices([(f"{c.name}{' (NPC)' if c.is_npc else ''}", c.name) for c in found], current)


async def any_character(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    return await _characters(interaction, current, is_npc=None, mine=False)


async def my_character(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Characters the user may change: their own, or any for a GM."""
    return await _characters(interaction, current, is_npc=None, mine=True)


async def npc_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    return await _characters(interaction, current, is_npc=True, mine=False)


async def _opponent_sheet(interaction: discord.Interaction) -> Character | None:
    bot: WireBot = interaction.client  # type: ignore[assignment]
    name = getattr(interaction.namespace, "opponent", None)
    if not name or interaction.guild_id is None or interaction.channel_id is None:
        return None
    try:
        campaign = await bot.store.campaign_for_channel(
            interaction.guild_id, interaction.channel_id, interaction.user.id
        )
        return await bot.store.get_character(interaction.guild_id, campaign.id, name)
    except StorageError:
        return None


async def opponent_attribute_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    sheet = await _opponent_sheet(interaction)
    if sheet is None:
        return []
    return _choices([(f"{k} ({v})", k) for k, v in sheet.attributes.items()], current)


async def opponent_skill_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    sheet = await _opponent_sheet(interaction)
    if sheet is None:
        return []
    return _choices([(f"{k} ({v})", k) for k, v in sheet.skills.items()], current)
