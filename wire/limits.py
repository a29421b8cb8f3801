"""Sane ranges for every number the rules take.

WIRE gives skills 0-10; attributes, modifiers and target numbers have no printed bounds, so these
are generous enough for any real table and tight enough that a typo (a skill of 55) is caught.
The CLI and the bot check against the same figures (the bot also hands them to Discord as option
min/max), so the ranges live here once.
"""

from __future__ import annotations

from dataclasses import dataclass

from wire.errors import RulesError


@dataclass(frozen=True, slots=True)
class Limit:
    name: str
    low: int
    high: int

    def check(self, value: int, label: str | None = None) -> int:
        """Return `value` if it is in range, else raise RulesError naming the range."""
        if not self.low <= value <= self.high:
            raise RulesError(
                f"{label or self.name} must be between {self.low} and {self.high}, not {value}."
            )
        return value


DIE = Limit("the die", 1, 20)
ATTRIBUTE = Limit("an attribute", -10, 30)
SKILL = Limit("a skill", 0, 10)
MODIFIER = Limit("the modifier", -50, 50)
TARGET = Limit("the target number", -60, 150)
BONUS = Limit(
    "a bonus",
    ATTRIBUTE.low + SKILL.low + MODIFIER.low,
    ATTRIBUTE.high + SKILL.high + MODIFIER.high,
)
"""Everything one side adds to its d20: attribute + skill + modifier."""
BASE = Limit("base damage", 0, 50)
QUALITY = Limit("quality", -1000, 1000)
SURPRISE = Limit("the surprise penalty", 0, 20)
HEALTH = Limit("a health value", 0, 999)
"""A pool's maximum, and any amount of damage or healing given by hand."""
ARMOUR = Limit("armour", 0, 50)
