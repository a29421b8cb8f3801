"""Sane ranges for every number the rules take.

WIRE gives skills 0-10; attributes, modifiers and target numbers have no printed bounds, so these
are generous enough for any real table and tight enough that a typo (a skill of 55) is caught.
The CLI and the bot check against the same figures (the bot also hands them to Discord as option
min/max), so the ranges live here once.
"""

from __future__ import annotations

from dataclasses import dataclass

from wire.errors import RulesError
from wire.i18n import N_, tr


@dataclass(frozen=True, slots=True)
class Limit:
    name: str
    low: int
    high: int

    def check(self, value: int, label: str | None = None) -> int:
        """Return `value` if it is in range, else raise RulesError naming the range."""
        if not self.low <= value <= self.high:
            raise RulesError(
                tr(
                    "{what} must be between {low} and {high}, not {value}.",
                    what=tr(label or self.name),
                    low=self.low,
                    high=self.high,
                    value=value,
                )
            )
        return value


DIE = Limit(N_("the die"), 1, 20)
ATTRIBUTE = Limit(N_("an attribute"), -10, 30)
SKILL = Limit(N_("a skill"), 0, 10)
MODIFIER = Limit(N_("the modifier"), -50, 50)
TARGET = Limit(N_("the target number"), -60, 150)
BONUS = Limit(
    N_("a bonus"),
    ATTRIBUTE.low + SKILL.low + MODIFIER.low,
    ATTRIBUTE.high + SKILL.high + MODIFIER.high,
)
"""Everything one side adds to its d20: attribute + skill + modifier."""
BASE = Limit(N_("base damage"), 0, 50)
QUALITY = Limit(N_("quality"), -1000, 1000)
SURPRISE = Limit(N_("the surprise penalty"), 0, 20)
HEALTH = Limit(N_("a health value"), 0, 999)
"""A pool's maximum, and any amount of damage or healing given by hand."""
ARMOUR = Limit(N_("armour"), 0, 50)
ATTACKS_PER_TURN = Limit(N_("attacks per turn"), 0, 20)
"""A campaign's attacks in one turn (wire.fight.TurnRules); 0 stands for any number."""

# The sizes of a sheet (wire/sheet.py) and of what names it.
NAME_MAX = 64
"""Longest campaign, character, weapon, attribute, skill or item name (characters)."""
NOTES_MAX = 1000
"""Longest character notes (characters); fits one embed field."""
# A sheet holds exactly what a roll accepts: these spell the ranges above the way the store's
# checks and the sheet text read them.
STAT_MIN, STAT_MAX = ATTRIBUTE.low, ATTRIBUTE.high
SKILL_MIN, SKILL_MAX = SKILL.low, SKILL.high
BASE_MIN, BASE_MAX = BASE.low, BASE.high
MAX_ATTRIBUTES = 20
MAX_SKILLS = 60
MAX_WEAPONS = 10
