"""Who acts: the user of an interaction as the store's permission rule sees them.

Every cog passes this `Actor` to the store, which decides with `storage.models.change_refusal`
who may change what; so the one thing read from Discord here is whether the user manages the
server. Who may act *as* a character (`may_act_as`) is the other half of that family.
"""

from __future__ import annotations

import discord

from storage.models import Actor, Campaign
from wire.sheet import Character


def actor_of(interaction: discord.Interaction) -> Actor:
    """The user as the store sees them: with Manage Server (or Administrator) they are a GM of
    every campaign in the server. Discord sends the member's permissions with each interaction,
    so a change of role counts from the next interaction on."""
    permissions = interaction.permissions
    return Actor(
        interaction.user.id,
        manages_guild=interaction.guild_id is not None
        and (permissions.manage_guild or permissions.administrator),
    )


def may_act_as(campaign: Campaign, user_id: int, character: Character) -> bool:
    """Whether the user may *be* this character: speak as it (/say, /me) or use its quick
    actions (the panel, the turn ping). Its player may, for a player character; a GM (Manage
    Server included) may, for an NPC.

    One of a family with `storage.models.change_refusal`, the rule for *changing* a sheet,
    which lets a GM change a player's sheet too. Acting as a player's character is the
    player's alone, GM or not: a quick action rolls with the presser's active character, and
    words said under a player's name are theirs to say. The callers word the refusal for
    what was tried."""
    if character.is_npc:
        return campaign.is_gm(user_id)
    return character.owner_id == user_id
