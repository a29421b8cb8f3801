"""Which language a reply speaks: the campaign's, if its GMs fixed one, else the user's.

An interaction starts in the language of the user's Discord client (`interaction.locale`); once
a command knows its campaign, a language fixed with `/campaign settings language:` wins, so a
whole table reads one language. A reply several people see (an attack, a tracker) is thereby in
the campaign's language, or else in that of the user who made it.
"""

from __future__ import annotations

from typing import Protocol

import discord

from wire import i18n


class _HasLanguage(Protocol):
    language: str | None


def speak_for(interaction: discord.Interaction) -> str:
    """Start an interaction in its user's language (English when the bot lacks theirs)."""
    lang = i18n.language_of(interaction.locale)
    i18n.use(lang)
    return lang


def adopt(campaign: object) -> None:
    """Speak the campaign's fixed language from here on, if it has one."""
    i18n.use(getattr(campaign, "language", None))
