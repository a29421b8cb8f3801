"""Autocomplete from the campaign's sheets: names a user can pick instead of typing numbers.

Each callback answers within Discord's 3 seconds with at most 25 choices, and never raises: a
user with no campaign data simply sees no suggestions.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from cogs.utils.conditions import condition_text, preset_text
from cogs.utils.discord_limits import CHOICE_NAME_MAX, CHOICE_VALUE_MAX, MAX_CHOICES
from cogs.utils.rolling import actor_of
from storage.errors import StorageError
from storage.models import Campaign, Fight
from wire.conditions import Effect
from wire.i18n import tr
from wire.sheet import Character, find_stat

if TYPE_CHECKING:
    from bot import WireBot

Choices = list[app_commands.Choice[str]]


def choices(names: Iterable[tuple[str, str]], current: str) -> Choices:
    """(label, value) pairs whose value contains what was typed, as Discord choices."""
    folded = current.casefold()
    return [
        app_commands.Choice(name=label[:CHOICE_NAME_MAX], value=value[:CHOICE_VALUE_MAX])
        for label, value in names
        if folded in value.casefold()
    ][:MAX_CHOICES]


def store_of(interaction: discord.Interaction):
    bot: WireBot = interaction.client  # type: ignore[assignment]
    return bot.store


async def campaign_of(interaction: discord.Interaction) -> Campaign | None:
    """This channel's campaign, or None where there is none to suggest from."""
    if interaction.guild_id is None or interaction.channel_id is None:
        return None
    try:
        return await store_of(interaction).campaign_for_channel(
            interaction.guild_id, interaction.channel_id, actor_of(interaction)
        )
    except StorageError:
        return None


async def _character(
    interaction: discord.Interaction, name: str | None, campaign: Campaign | None = None
) -> Character | None:
    """A character of this channel's campaign by name, or the user's active one."""
    campaign = campaign or await campaign_of(interaction)
    if campaign is None or interaction.guild_id is None:
        return None
    store = store_of(interaction)
    try:
        if name:
            found = await store.get_character(interaction.guild_id, campaign.id, name)
        else:
            found = await store.get_active_character(
                interaction.guild_id, campaign.id, interaction.user.id
            )
    except StorageError:
        return None
    if found is not None and found.is_npc and not campaign.is_gm(actor_of(interaction)):
        return None  # an NPC's sheet is for GMs' eyes: no stats, skills or weapons from it
    return found


async def character_option(interaction: discord.Interaction, option: str) -> Character | None:
    """The sheet another option of the command names (`character:`), else the active one;
    None where the user may not see it."""
    return await _character(interaction, getattr(interaction.namespace, option, None))


def _named(interaction: discord.Interaction) -> str | None:
    """The sheet an option names: `npc` on a roll (GMs), `name` on a /character subcommand."""
    return getattr(interaction.namespace, "npc", None) or getattr(
        interaction.namespace, "name", None
    )


async def sheet_for(interaction: discord.Interaction) -> Character | None:
    """The sheet a roll would use: the NPC named in the `npc` option (GMs), else the active one.

    Also the sheet a /character subcommand names in its `name` option.
    """
    return await _character(interaction, _named(interaction))


def _stats(sheet: Character | None, table: str, current: str) -> Choices:
    if sheet is None:
        return []
    values: dict[str, int] = getattr(sheet, table)
    return choices(((f"{k} ({v})", k) for k, v in values.items()), current)


async def attribute_names(interaction: discord.Interaction, current: str) -> Choices:
    """The sheet's attributes with their values, then the campaign's other attribute names.

    So a new sheet is offered the names to use (and a typo is less likely to be typed at all).
    A sheet the option names but the user may not see (an NPC, for a player) offers nothing.
    """
    campaign = await campaign_of(interaction)
    if campaign is None:
        return []
    named = _named(interaction)
    sheet = await _character(interaction, named, campaign)
    if named and sheet is None:
        return []
    on_sheet = sheet.attributes if sheet else {}
    listed = [(f"{k} ({v})", k) for k, v in on_sheet.items()]
    # A campaign name the sheet has in another language ("Stärke" for Strength) is taken too.
    listed += [(name, name) for name in campaign.attributes() if find_stat(on_sheet, name) is None]
    return choices(listed, current)


async def sheet_attribute_names(interaction: discord.Interaction, current: str) -> Choices:
    """Only the sheet's own attributes: for removing one."""
    return _stats(await sheet_for(interaction), "attributes", current)


async def skill_names(interaction: discord.Interaction, current: str) -> Choices:
    return _stats(await sheet_for(interaction), "skills", current)


async def opponent_attribute_names(interaction: discord.Interaction, current: str) -> Choices:
    opponent = getattr(interaction.namespace, "opponent", None)
    return _stats(
        await _character(interaction, opponent) if opponent else None, "attributes", current
    )


async def opponent_skill_names(interaction: discord.Interaction, current: str) -> Choices:
    opponent = getattr(interaction.namespace, "opponent", None)
    return _stats(await _character(interaction, opponent) if opponent else None, "skills", current)


async def weapon_names(interaction: discord.Interaction, current: str) -> Choices:
    sheet = await sheet_for(interaction)
    if sheet is None:
        return []
    return choices(
        ((f"{w.name} (base {w.base}, {w.attribute} + {w.skill})", w.name) for w in sheet.weapons),
        current,
    )


async def _characters(
    interaction: discord.Interaction, current: str, *, is_npc: bool | None, mine: bool
) -> Choices:
    campaign = await campaign_of(interaction)
    if campaign is None or interaction.guild_id is None:
        return []
    user = actor_of(interaction)
    if is_npc and not campaign.is_gm(user):
        return []  # players pick targets from all names, but only GMs roll as NPCs
    try:
        found = await store_of(interaction).find_characters(
            interaction.guild_id,
            campaign.id,
            current,
            owner_id=user if mine and not campaign.is_gm(user) else None,
            is_npc=is_npc,
            limit=MAX_CHOICES,
        )
    except StorageError:
        return []
    npc = " (" + tr("NPC") + ")"
    return choices(((f"{c.name}{npc if c.is_npc else ''}", c.name) for c in found), current)


async def any_character(interaction: discord.Interaction, current: str) -> Choices:
    return await _characters(interaction, current, is_npc=None, mine=False)


async def readable_character(interaction: discord.Interaction, current: str) -> Choices:
    """Characters whose sheet or ledger the user may open: every one for a GM, the player
    characters for a player (a prepared NPC's name offered would give it away, issue 20)."""
    campaign = await campaign_of(interaction)
    gm = campaign is not None and campaign.is_gm(actor_of(interaction))
    return await _characters(interaction, current, is_npc=None if gm else False, mine=False)


async def my_character(interaction: discord.Interaction, current: str) -> Choices:
    """Characters the user may change: their own, or any for a GM."""
    return await _characters(interaction, current, is_npc=None, mine=True)


async def npc_names(interaction: discord.Interaction, current: str) -> Choices:
    return await _characters(interaction, current, is_npc=True, mine=False)


async def _fight_here(interaction: discord.Interaction) -> Fight | None:
    """The running fight in this channel, or None (also where the store cannot answer)."""
    if interaction.guild_id is None or interaction.channel_id is None:
        return None
    try:
        return await store_of(interaction).running_fight(
            interaction.guild_id, interaction.channel_id
        )
    except StorageError:
        return None


async def combatant_names(interaction: discord.Interaction, current: str) -> Choices:
    """The running fight's combatants in this channel."""
    fight = await _fight_here(interaction)
    if fight is None:
        return []
    return choices(((c.name, c.name) for c in fight.order()), current)


async def _fighting_sheets(interaction: discord.Interaction, fight: Fight | None) -> set[str]:
    """The names (casefolded) of the sheets whose copies fight here: in a fight, Goblin is hit
    as Goblin 1 or Goblin 2, so its sheet's own name is no target to offer beside them."""
    if fight is None or interaction.guild_id is None:
        return set()
    names: set[str] = set()
    for character_id in {c.character_id for c in fight.combatants} - {None}:
        try:
            sheet = await store_of(interaction).get_character_by_id(
                interaction.guild_id, fight.campaign_id, character_id
            )
        except StorageError:
            continue
        names.add(sheet.name.casefold())
    return names


async def combatants_or_characters(interaction: discord.Interaction, current: str) -> Choices:
    """For /health and attack targets: the fight's combatants first, then the characters,
    without the sheets that fight here as copies (their copies are the targets).

    A player is offered only the NPCs already in play: those in this channel's fight and those
    that rolled in public lately; the GMs' prepared NPCs stay theirs until they show them.
    """
    fight = await _fight_here(interaction)
    fighting = choices(((c.name, c.name) for c in fight.order()), current) if fight else []
    taken = {c.value.casefold() for c in fighting} | await _fighting_sheets(interaction, fight)
    sheets = [
        c for c in await seen_characters(interaction, current) if c.value.casefold() not in taken
    ]
    return (fighting + sheets)[:MAX_CHOICES]


async def seen_characters(interaction: discord.Interaction, current: str) -> Choices:
    """Characters to name as a target or an opponent: all of them for a GM; for a player, the
    player characters and the NPCs that rolled in public lately."""
    campaign = await campaign_of(interaction)
    if campaign is None or campaign.is_gm(actor_of(interaction)):
        return await any_character(interaction, current)
    sheets = await _characters(interaction, current, is_npc=False, mine=False)
    return sheets + await _npcs_in_play(interaction, campaign, current)


async def _npcs_in_play(
    interaction: discord.Interaction, campaign: Campaign, current: str
) -> Choices:
    if interaction.guild_id is None:
        return []
    try:
        names = await store_of(interaction).npcs_in_play(
            interaction.guild_id, campaign.id, current, limit=MAX_CHOICES
        )
    except StorageError:
        return []
    npc = " (" + tr("NPC") + ")"
    return choices(((f"{name}{npc}", name) for name in names), current)


async def condition_presets(interaction: discord.Interaction, current: str) -> Choices:
    """The campaign's named conditions (its GMs' own: the bot ships none), each with what it
    does in its label ("Prone (-2 all defences)")."""
    campaign = await campaign_of(interaction)
    if campaign is None or interaction.guild_id is None:
        return []
    try:
        presets = await store_of(interaction).condition_presets(interaction.guild_id, campaign.id)
    except StorageError:
        return []
    return choices(((preset_text(p, shown_as=str), p.name) for p in presets), current)


def _borne(
    conditions: Iterable[Effect], current: str, *, gm: bool, until: dict[int, str] | None = None
) -> Choices:
    """Conditions to end, by name: hidden ones only for a GM, and of two by the same name the
    first, the one the store ends. Each label says what it does ("Prone -2 all defences
    (2)"), as typed: a choice's text is never markdown."""
    seen: set[str] = set()
    listed = []
    for effect in conditions:
        folded = effect.name.casefold()
        if (effect.hidden and not gm) or folded in seen:
            continue
        seen.add(folded)
        label = condition_text(effect, until=(until or {}).get(effect.until_id or 0), shown_as=str)
        listed.append((label, effect.name))
    return choices(listed, current)


async def sheet_conditions(interaction: discord.Interaction, current: str) -> Choices:
    """For /condition remove: the conditions on the sheet its `character` option names."""
    campaign = await campaign_of(interaction)
    if campaign is None:
        return []
    sheet = await _character(
        interaction, getattr(interaction.namespace, "character", None), campaign
    )
    if sheet is None:
        return []
    return _borne(sheet.conditions, current, gm=campaign.is_gm(actor_of(interaction)))


async def combatant_effects(interaction: discord.Interaction, current: str) -> Choices:
    """For /fight cure: the conditions on the combatant its `combatant` option names."""
    named = getattr(interaction.namespace, "combatant", None)
    fight = await _fight_here(interaction) if named else None
    bearer = fight.find(named) if fight is not None and named else None
    if fight is None or bearer is None:
        return []
    campaign = await campaign_of(interaction)
    gm = campaign is not None and campaign.is_gm(actor_of(interaction))
    names = {c.id: c.name for c in fight.combatants}
    return _borne(bearer.effects, current, gm=gm, until=names)
