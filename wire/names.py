"""WIRE's own stat names, the same stats in every language the bot speaks.

A table writes its sheets in its own language: a German player writes "Stärke 2, Reaktion 3;
Blocken 4", an English one "Strength 2, Reaction 3; Block 4". The rules read the same stats in
both: a defence, an initiative or the health formula looks for Strength and finds "Stärke" as
well. Only WIRE's own names (the attributes the rules name, the defence skills) are matched so;
every other name is the table's own and is matched as written (but for case).

The spellings come from the catalogues (the English id and each language's translation), so a
new language brings its spellings with it.
"""

from __future__ import annotations

from functools import cache

from wire import i18n
from wire.i18n import N_

ATTRIBUTES = (N_("Strength"), N_("Constitution"), N_("Reaction"), N_("Resolve"))
"""The attributes WIRE's public rules name (English: the message ids)."""
DEFENCE_SKILLS = {"parry": N_("Parry"), "block": N_("Block"), "dodge": N_("Dodge")}
"""The skill each defence rolls with."""
OWN_NAMES = (*ATTRIBUTES, *DEFENCE_SKILLS.values())


@cache
def spellings(name: str) -> tuple[str, ...]:
    """A WIRE name (its English id) in every language the bot speaks, English first."""
    found = [name]
    for lang in i18n.LANGUAGES:
        with i18n.speaking(lang):
            spelled = i18n.tr(name)
        if spelled.casefold() not in {f.casefold() for f in found}:
            found.append(spelled)
    return tuple(found)


@cache
def _by_spelling() -> dict[str, str]:
    return {spelled.casefold(): name for name in OWN_NAMES for spelled in spellings(name)}


def own_name(name: str) -> str | None:
    """The WIRE name (English id) `name` spells in some language ("Blocken": "Block"), or
    None for a table's own name."""
    return _by_spelling().get(name.strip().casefold())


def aliases(name: str) -> tuple[str, ...]:
    """The names the same stat goes by: `name` first, then its other spellings if it is one
    of WIRE's own ("Reaktion": Reaktion, Reaction); a table's own name alone."""
    own = own_name(name)
    if own is None:
        return (name,)
    return (name, *(s for s in spellings(own) if s.casefold() != name.casefold()))


def shown(name: str) -> str:
    """A WIRE name in the language in use (a table's own name as it is)."""
    own = own_name(name)
    return i18n.tr(own) if own is not None else name
