"""Who acts: the user of an interaction as the store's permission rule sees them.

Every cog passes this `Actor` to the store, which decides with `storage.models.change_refusal`
who may change what; so the one thing read from Discord here is whether the user manages the
server.
"""

from __future__ import annotations

import discord

from storage.models import Actor


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
