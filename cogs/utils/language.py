"""Which language a message speaks: the table's for what the whole table shares, the reader's
for what one person reads.

An interaction starts in the language of the user's Discord client (`interaction.locale`), and
its replies speak it. A language the GMs fixed with `/campaign settings language:` wins once a
command knows its campaign (`adopt`), so that whole table reads one language.

A message several people act on or that the bot edits for several people (the fight tracker
and its button, the turn announcements, a defence prompt and its outcome, the fight's summary)
speaks the table's language whoever's interaction writes it (`for_table`): the campaign's
fixed one, else the server's preferred locale (`interaction.guild_locale`). Otherwise it would
change language with every edit. docs/i18n.md has the whole rule.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

import discord
from babel import Locale

from wire import i18n

_table: ContextVar[str | None] = ContextVar("wire_table_language", default=None)
"""The table's language in this interaction's task; None outside one (the language in use)."""


def speak_for(interaction: discord.Interaction) -> str:
    """Start an interaction in its user's language (English when the bot lacks theirs), and
    note the server's preferred one as the table's."""
    lang = i18n.language_of(interaction.locale)
    i18n.use(lang)
    server = getattr(interaction, "guild_locale", None)
    _table.set(i18n.language_of(server) if server else lang)
    return lang


def adopt(campaign: object) -> None:
    """Speak the campaign's fixed language from here on, if it has one; it is the table's too."""
    fixed = getattr(campaign, "language", None)
    if fixed:
        i18n.use(fixed)
        _table.set(i18n.language_of(fixed))


def table_language() -> str:
    """The language of what the whole table shares: the campaign's fixed one, else the server's
    preferred locale (the language in use outside an interaction)."""
    return _table.get() or i18n.language()


@contextmanager
def for_table() -> Iterator[str]:
    """Speak the table's language inside the block (a shared message), then as before."""
    with i18n.speaking(table_language()) as lang:
        yield lang


def language_name(lang: str) -> str:
    """A language by its own name: "English", "Deutsch"."""
    return Locale.parse(lang).get_display_name(lang).capitalize()
