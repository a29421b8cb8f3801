"""Reading rolls off a character sheet: defences and weapons.

WIRE names the defences parry, block and dodge; the rules text shows a parry as Strength + the
Parry skill. Which attribute goes with each defence is a table choice the rules text leaves open,
so it lives here once (see docs/rules.md): parry and block with Strength, dodge with Reaction.
WIRE's own names are found in any language the bot speaks (wire/names.py): a German sheet's
"Stärke" and "Blocken" are Strength and Block.

One rule for every stat a roll reads off a sheet, attribute or skill: one the sheet lacks counts
as 0 (WIRE's untrained skill), labelled "(not on the sheet)", and the reply says so in a note
(`missing_note`), naming a close name the sheet does have, so a 0 is never silent.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from cogs.utils.sheet_text import near_name
from cogs.utils.text import inert
from storage.models import Character, Weapon, find_stat
from wire import names
from wire.check import Modifier
from wire.combat import Defence, require_shield
from wire.i18n import N_, tr

DEFENCE_ATTRIBUTE = {
    Defence.PARRY: "Strength",
    Defence.BLOCK: "Strength",
    Defence.DODGE: "Reaction",
}


UNTRAINED = N_("(not on the sheet)")


@dataclass(frozen=True, slots=True)
class Absent(Modifier):
    """A stat the roll looked for and the sheet lacks: 0, and what the note says about it."""

    name: str = ""
    """The name looked for, as the reader reads it."""
    sheet: str = ""
    """Whose sheet lacks it."""
    close: str | None = None
    """A name on the sheet close to it (a likely slip), or None."""


def untrained(name: str) -> str:
    """The label of a stat the sheet lacks: WIRE skills go 0 to 10, and an untrained one is 0,
    in checks, contests, defences and weapons alike; the label says so."""
    return f"{name} {tr(UNTRAINED)}"


def sheet_stat(character: Character, kind: str, name: str) -> Modifier:
    """The stat as spelled on the sheet, or an Absent 0 under the asked name (in the reader's
    language if it is one of WIRE's own)."""
    table = character.attributes if kind == "attribute" else character.skills
    found = find_stat(table, name)
    if found is not None:
        return Modifier(*found)
    asked = names.shown(name)
    close = near_name(asked, [*character.attributes, *character.skills])
    return Absent(untrained(asked), 0, asked, character.name, close)


def missing_note(modifiers: Iterable[Modifier]) -> str | None:
    """The line that says which stats a roll counted as 0 because a sheet lacks them; None
    when it lacks none."""
    lines = []
    for mod in modifiers:
        if not isinstance(mod, Absent):
            continue
        line = tr(
            "{name} is not on {sheet}'s sheet, so it counts 0.",
            name=inert(mod.name),
            sheet=inert(mod.sheet),
        )
        if mod.close:
            line += " " + tr(
                "The sheet has {close}: is it the same? Rename one to match.",
                close=inert(mod.close),
            )
        lines.append(line)
    if not lines:
        return None
    return "\n".join([*lines, tr("Add a stat with /character set (a skill at 0 is untrained).")])


def defence_modifiers(character: Character, defence: Defence) -> tuple[Modifier, ...]:
    """The attribute and skill a character defends with; block needs a shield."""
    require_shield(defence, character.shield)
    return (
        sheet_stat(character, "attribute", DEFENCE_ATTRIBUTE[defence]),
        sheet_stat(character, "skill", names.DEFENCE_SKILLS[defence.value]),
    )


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
    return (
        sheet_stat(character, "attribute", weapon.attribute),
        sheet_stat(character, "skill", weapon.skill),
    )


def weapon_gaps(character: Character) -> list[tuple[Weapon, str]]:
    """(weapon, stat) for each attribute or skill a weapon is wielded with that the sheet
    lacks: every roll with it would count that stat 0."""
    gaps = []
    for weapon in character.weapons:
        if find_stat(character.attributes, weapon.attribute) is None:
            gaps.append((weapon, weapon.attribute))
        if find_stat(character.skills, weapon.skill) is None:
            gaps.append((weapon, weapon.skill))
    return gaps
