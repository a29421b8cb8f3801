"""A character sheet and the rules read off it: the model, its look-ups, defences and weapons.

The sheet is what every roll is rolled from, so it lives in the rules core beside the dice and
degrees: the bot's store keeps it, the CLI reads it from an exported file, and both roll the same
numbers from it.

WIRE names the defences parry, block and dodge; the rules text shows a parry as Strength + the
Parry skill. Which attribute goes with each defence is a table choice the rules text leaves open,
so it lives here once (see docs/rules.md): parry and block with Strength, dodge with Reaction.
WIRE's own names are found in any language the bot speaks (wire/names.py): a German sheet's
"Stärke" and "Blocken" are Strength and Block.

One rule for every stat a roll reads off a sheet, attribute or skill: one the sheet lacks counts
as 0 (WIRE's untrained skill), labelled "(not on the sheet)" (`Absent`), so the reply can say so
in a note naming a close name the sheet does have, and a 0 is never silent.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from wire import names
from wire.check import Modifier
from wire.combat import Defence, require_shield
from wire.errors import RulesError
from wire.health import DamageKind, Health, permanent_health
from wire.i18n import N_, tr
from wire.sheet_text import near_name

if TYPE_CHECKING:
    from wire.conditions import Effect


@dataclass(frozen=True, slots=True)
class Weapon:
    name: str
    base: int
    attribute: str
    """The attribute the weapon is wielded with (e.g. "Strength")."""
    skill: str
    """The skill the weapon is wielded with (e.g. "Heavy melee weapons")."""
    kind: str = DamageKind.LETHAL.value
    """lethal (to HP), non-lethal (to THP) or mental (to WP)."""

    @property
    def damage_kind(self) -> DamageKind:
        return DamageKind(self.kind)


@dataclass(frozen=True, slots=True)
class Character:
    """A character sheet: read from the store, or validated from an import before it is stored.

    One model for both, so an import, an export and the store cannot drift apart; a sheet that is
    not stored yet has id, campaign_id and owner_id 0 (the store assigns them).
    """

    name: str
    is_npc: bool = False
    attributes: dict[str, int] = field(default_factory=dict)
    """Attribute name (as the user wrote it) -> value. Look-ups are case-insensitive."""
    skills: dict[str, int] = field(default_factory=dict)
    weapons: tuple[Weapon, ...] = ()
    shield: bool = False
    """Block needs a shield."""
    notes: str = ""
    id: int = 0
    campaign_id: int = 0
    owner_id: int = 0
    hp_max: int | None = None
    """An override of HP = 20 + Constitution + Resolve (None: worked out from the sheet)."""
    thp_max: int | None = None
    """An override of THP (None: equal to HP)."""
    wp_max: int = 0
    """Willpower: a value on the sheet (its formula is not in our sources); 0: not tracked."""
    armour: int = 0
    """A table setting: points taken off lethal and non-lethal damage (docs/rules.md)."""
    lost: tuple[int, int, int] = (0, 0, 0)
    """Damage taken so far from HP, THP and WP; kept between fights until healed."""
    portrait: str | None = None
    """An https link to the character's picture (storage/portraits.py), or None."""
    conditions: tuple[Effect, ...] = ()
    """Conditions a GM put on the character outside a fight (wire/conditions.py): read with
    the sheet, so a roll that reads the sheet has them without another query. Not part of an
    export: they are the table's state, like health lost in a fight."""

    def health_maxima(self) -> tuple[int, int, int]:
        hp = self.hp_max
        if hp is None:
            hp = permanent_health(
                self.attribute("Constitution") or 0, self.attribute("Resolve") or 0
            )
        thp = hp if self.thp_max is None else self.thp_max
        return hp, thp, self.wp_max

    def health(self) -> Health:
        (hp, thp, wp), (hp_lost, thp_lost, wp_lost) = self.health_maxima(), self.lost
        return Health(hp - hp_lost, hp, thp - thp_lost, thp, wp - wp_lost, wp)

    def attribute(self, name: str) -> int | None:
        return _lookup(self.attributes, name)

    def skill(self, name: str) -> int | None:
        return _lookup(self.skills, name)

    def weapon(self, name: str) -> Weapon | None:
        folded = name.casefold()
        return next((w for w in self.weapons if w.name.casefold() == folded), None)


def find_stat(table: dict[str, int], name: str) -> tuple[str, int] | None:
    """(the stored spelling, the value) of a stat, matched case-insensitively; one of WIRE's
    own names also under its spelling in another language ("Strength" finds "Stärke",
    wire/names.py), the name as asked first."""
    for alias in names.aliases(name):
        folded = alias.casefold()
        found = next(((k, v) for k, v in table.items() if k.casefold() == folded), None)
        if found is not None:
            return found
    return None


def _lookup(table: dict[str, int], name: str) -> int | None:
    found = find_stat(table, name)
    return found[1] if found else None


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


class NoSuchWeapon(RulesError):
    """The sheet has no weapon of that name; `sheet` and `name` say which, for the caller's own
    wording of the fix (a slash command, a CLI option)."""

    def __init__(self, sheet: str, name: str) -> None:
        self.sheet = sheet
        self.name = name
        super().__init__(tr("{sheet} has no weapon {name}.", sheet=sheet, name=name))


def best_attack(character: Character) -> tuple[Weapon, int] | None:
    """The sheet's weapon with the highest attack bonus (attribute + skill) and that bonus, the
    first listed on a tie; None without weapons. What an opponent is most likely to swing."""
    best: tuple[Weapon, int] | None = None
    for weapon in character.weapons:
        bonus = sum(m.value for m in weapon_modifiers(character, weapon))
        if best is None or bonus > best[1]:
            best = (weapon, bonus)
    return best


def sheet_weapon(character: Character, name: str) -> tuple[Weapon, tuple[Modifier, ...]]:
    """The named weapon of the sheet and what an attack with it rolls (attribute + skill), or
    NoSuchWeapon."""
    weapon = character.weapon(name)
    if weapon is None:
        raise NoSuchWeapon(character.name, name)
    return weapon, weapon_modifiers(character, weapon)
