"""Slash commands in the user's language: German names and descriptions through Discord's own
localisations.

discord.py hands every command, group, option and choice name and description to the tree's
translator when it builds the synced payload; this one looks each up in the catalogues of
`wire.i18n`. Names are looked up under the context "name" and choices under "choice", so a
command's name ("roll") and the same English word in a sentence are separate messages. Discord
still sends the English names back in interactions, so only what a user sees changes.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from wire import i18n

NAME = "name"
"""The msgctxt of command, group and option names (Discord's naming rules apply to them)."""
CHOICE = "choice"
"""The msgctxt of choice names (shown, not typed: any text up to 100 characters)."""

OWN_CONTEXT = "msgctxt"
"""A command's name may carry its own msgctxt (`locale_str("next", msgctxt="name (session)")`)
where one English word must read differently in two places: /fight next is "weiter" (the turn
goes on), /session next "nächste" (the one to come)."""

_CONTEXTS = {
    Where.command_name: NAME,
    Where.group_name: NAME,
    Where.parameter_name: NAME,
    Where.choice_name: CHOICE,
}


def context_of(location: Where) -> str | None:
    """The catalogue context for a place in a command; descriptions have none."""
    return _CONTEXTS.get(location)


class WireTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext,
    ) -> str | None:
        lang = i18n.language_of(locale)
        if lang == i18n.DEFAULT or locale.value.split("-")[0] != lang:
            return None
        own = string.extras.get(OWN_CONTEXT) if context.location is Where.command_name else None
        return i18n.lookup(lang, own or context_of(context.location), string.message)
