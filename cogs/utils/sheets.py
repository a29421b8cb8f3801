"""Reading rolls off a character sheet: defences and weapons.

WIRE names the defences parry, block and dodge; the rules text shows a parry as Strength + the
Parry skill. Which attribute goes with each defence is a table choice the rules text leaves open,
so it lives here once (see docs/rules.md): parry and block with Strength, dodge with Reaction.
A missing skill counts as 0 (untrained), a missing attribute as 0, each labelled "(not on the
sheet)" so the table sees why.
"""

from __future__ import annotations

from storage.models import Character, Weapon, find_stat
from wire.check import Modifier
from wire.combat import Defence, require_shield
from wire.i18n import N_, tr

DEFENCE_ATTRIBUTE = {
    Defence.PARRY: "Strength",
    Defence.BLOCK: "Strength",
    Defence.DODGE: "Reaction",
}


UNTRAINED = N_("(not on the sheet)")


def untrained(name: str) -> str:
    """The label of a skill the sheet lacks: WIRE skills go 0 to 10, and an untrained one is 0,
    in checks, contests, defences and weapons alike; the label says so."""
    return f"{name} {tr(UNTRAINED)}"


def _stat(table: dict[str, int], name: str) -> tuple[str, int]:
    """The stat as spelled on the sheet, or 0 under the asked name, marked as not on the sheet."""
    return find_stat(table, name) or (untrained(name), 0)


def defence_modifiers(character: Character, defence: Defence) -> tuple[Modifier, ...]:
    """The attribute and skill a character defends with; block needs a shield."""
    require_shield(defence, character.shield)
    attr_label, attr = _stat(character.attributes, DEFENCE_ATTRIBUTE[defence])
    skill_label, skill = _stat(character.skills, defence.value)
    return (Modifier(attr_label, attr), Modifier(skill_label.capitalize(), skill))


def available_defences(character: Character) -> list[Defence]:
    """Parry and dodge always; block only with a shield."""
    return [d for d in Defence if d is not Defence.BLOCK or character.shield]


def best_defence(character: Character) -> Defence:
    """The defence with the highest bonus (parry first on a tie, then block, then dodge)."""
    return max(
        available_defences(character),
        key=lambda d: sum(m.value for m in defence_modifiers(character, d)),
    )


def weapon_modifiers(character: Character, weapon: Weapon) -> tuple[Modifier, ...]:
    attr_label, attr = _stat(character.attributes, weapon.attribute)
    skill_label, skill = _stat(character.skills, weapon.skill)
    return (Modifier(attr_label, attr), Modifier(skill_label, skill))
