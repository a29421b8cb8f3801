"""A standard check: d20 plus modifiers against a target number."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from wire import limits
from wire.degrees import Degrees, degrees_of
from wire.dice import Die
from wire.i18n import tr
from wire.odds import Odds, compute_odds


@dataclass(frozen=True, slots=True)
class Modifier:
    """One number added to the die, with the name a reply shows for it ("Strength", "Parry")."""

    label: str
    value: int


@dataclass(frozen=True, slots=True)
class Roll:
    """One side's roll: the die and what is added to it."""

    die: Die
    modifiers: tuple[Modifier, ...]

    @property
    def bonus(self) -> int:
        return sum(m.value for m in self.modifiers)

    @property
    def total(self) -> int:
        return self.die.face + self.bonus


def stat_line(
    attribute: int,
    skill: int,
    modifier: int = 0,
    *,
    attribute_label: str | None = None,
    skill_label: str | None = None,
) -> tuple[Modifier, ...]:
    """The usual modifiers, attribute + skill (+ a situational modifier), range-checked; the
    labels in the language in use unless given."""
    attribute_label = attribute_label or tr("Attribute")
    skill_label = skill_label or tr("Skill")
    mods = [
        Modifier(attribute_label, limits.ATTRIBUTE.check(attribute, attribute_label)),
        Modifier(skill_label, limits.SKILL.check(skill, skill_label)),
    ]
    if modifier:
        mods.append(Modifier(tr("Modifier"), limits.MODIFIER.check(modifier)))
    return tuple(mods)


@dataclass(frozen=True, slots=True)
class CheckResult:
    roll: Roll
    target: int
    degrees: Degrees
    odds: Odds
    """Before the roll: the chance of success and of each capped result."""

    @property
    def success(self) -> bool:
        return self.degrees.success

    @property
    def total(self) -> int:
        return self.roll.total

    @property
    def die(self) -> Die:
        return self.roll.die


def check_odds(bonus: int, target: int) -> Odds:
    """Odds before the roll of d20 + `bonus` against a target number: 20 equally likely faces."""
    return compute_odds(bonus - limits.TARGET.check(target))


def resolve_check(modifiers: Sequence[Modifier], target: int, die: Die) -> CheckResult:
    """Total = die + modifiers; success when the total meets the target number."""
    limits.TARGET.check(target)
    roll = Roll(die, tuple(modifiers))
    return CheckResult(
        roll=roll,
        target=target,
        degrees=degrees_of(roll.total, target),
        odds=check_odds(roll.bonus, target),
    )
