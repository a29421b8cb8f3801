"""Errors a user can cause, and the one way every such error is answered.

Anything raised from a command that is a `UserError`, a `wire.RulesError` or a
`storage.StorageError` carries a message fit to show as it is: the global handler answers it
ephemerally. Anything else is a bug: logged with its traceback, and the user still gets an answer.
"""

from __future__ import annotations

import discord

from cogs.utils.discord_limits import CONTENT_MAX
from storage.errors import StorageError
from wire.errors import RulesError
from wire.i18n import N_
from wire.textcheck import clip


class UserError(Exception):
    """Bad input or a missing precondition, with a message naming the problem and the fix."""


USER_ERRORS = (UserError, RulesError, StorageError)

BUG_MESSAGE = N_(
    "Something went wrong on our side and nothing was rolled or saved. "
    "Please try again; if it keeps happening, tell the bot's host."
)


async def answer_ephemeral(interaction: discord.Interaction, message: str) -> None:
    """Answer with an ephemeral message, whether or not the interaction was answered already.

    An error may quote what the user typed (up to 6,000 characters), so it is cut to fit.
    """
    message = clip(message, CONTENT_MAX)
    if interaction.type is discord.InteractionType.autocomplete:
        if not interaction.response.is_done():
            await interaction.response.autocomplete([])
        return
    if interaction.response.is_done():
        await interaction.followup.send(message, ephemeral=True)
    else:
        await interaction.response.send_message(message, ephemeral=True)
