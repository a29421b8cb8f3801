"""Character points (CP): what a skill level costs, what a step costs, what a sheet is worth.

WIRE has no classes and no levels; a character is bought with CP and grows by spending more.
The rules site prices skills by category: a combat or action skill's step to level n costs 5n
CP, a knowledge or language skill's 2n, so a level's cost from 0 is the sum of its steps
(5, 15, 30, ... 275; 2, 6, 12, ... 110). The tables are written out below as the rules print
them, and the tests check them against the step rule, so a typo in either is caught.

What the sources do not give is never guessed here: the price of an attribute point is a table
setting (`AttributePrice`, "not priced" until a GM sets one), and a skill whose category the
campaign does not know is named as unpriced instead of being priced as something.
Derived attributes (HP, THP, lift, load) are not bought with CP and so have no price at all.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from wire import names
from wire.errors import RulesError
from wire.i18n import N_, catalogued, lookup, tr
from wire.limits import SKILL


class Category(StrEnum):
    """A skill's category, which sets its price table."""

    COMBAT = "combat"
    ACTION = "action"
    KNOWLEDGE = "knowledge"
    LANGUAGE = "language"

    @property
    def label(self) -> str:
        """The category's name in the language in use."""
        return tr(_LABELS[self])


_LABELS = {
    Category.COMBAT: N_("combat"),
    Category.ACTION: N_("action"),
    Category.KNOWLEDGE: N_("knowledge"),
    Category.LANGUAGE: N_("language"),
}

_FIVES = (0, 5, 15, 30, 50, 75, 105, 140, 180, 225, 275)
_TWOS = (0, 2, 6, 12, 20, 30, 42, 56, 72, 90, 110)
PRICE_TABLES: Mapping[Category, tuple[int, ...]] = {
    Category.COMBAT: _FIVES,
    Category.ACTION: _FIVES,
    Category.KNOWLEDGE: _TWOS,
    Category.LANGUAGE: _TWOS,
}
"""CP of each level 0..10 from level 0, as the rules site prints them."""

STEP_FACTOR: Mapping[Category, int] = {
    Category.COMBAT: 5,
    Category.ACTION: 5,
    Category.KNOWLEDGE: 2,
    Category.LANGUAGE: 2,
}
"""The step to level n costs factor x n CP."""

ATTRIBUTE_PRICE_MAX = 1000
"""The most CP a table may set for one attribute point: a typo guard, not a rule."""


def category_of(text: str) -> Category:
    """A category from its name in English or any catalogued language ("combat", "Kampf"),
    any case: a German GM's list reads the same in an English channel."""
    wanted = text.strip().casefold()
    for category in Category:
        names = {category.value, category.label.casefold()}
        names |= {(lookup(lang, None, _LABELS[category]) or "").casefold() for lang in catalogued()}
        if wanted in names:
            return category
    raise RulesError(
        tr(
            "{text} is not a skill category: use combat, action, knowledge or language.",
            text=repr(text),
        )
    )


def level_cost(category: Category, level: int) -> int:
    """The CP of a skill at `level`, bought from level 0."""
    SKILL.check(level)
    return PRICE_TABLES[category][level]


def step_cost(category: Category, start: int, end: int) -> int:
    """The CP of raising a skill from `start` to `end` (equal: nothing)."""
    SKILL.check(start)
    SKILL.check(end)
    if end < start:
        raise RulesError(
            tr(
                "A skill only rises with CP: {end} is below {start}.",
                start=start,
                end=end,
            )
        )
    return level_cost(category, end) - level_cost(category, start)


@dataclass(frozen=True, slots=True)
class AttributePrice:
    """The table's price of one attribute point, or None: not priced (the rules give none)."""

    per_point: int | None = None

    def __post_init__(self) -> None:
        if self.per_point is not None and not 0 <= self.per_point <= ATTRIBUTE_PRICE_MAX:
            raise RulesError(
                tr(
                    "An attribute point's price must be between 0 and {high} CP, not {value}.",
                    high=ATTRIBUTE_PRICE_MAX,
                    value=self.per_point,
                )
            )

    @property
    def priced(self) -> bool:
        return self.per_point is not None

    def cost(self, start: int, end: int) -> int | None:
        """CP of raising an attribute from `start` to `end`; None while not priced."""
        if self.per_point is None:
            return None
        if end < start:
            raise RulesError(
                tr("An attribute only rises with CP: {end} is below {start}.", start=start, end=end)
            )
        return (end - start) * self.per_point


NOT_PRICED = AttributePrice(None)


@dataclass(frozen=True, slots=True)
class SkillLine:
    """One skill of a sheet as `/character cost` shows it: cost None when its category is
    unknown (unpriced, and so left out of the sum)."""

    name: str
    level: int
    category: Category | None
    cost: int | None


@dataclass(frozen=True, slots=True)
class SpeciesLine:
    """A sheet's species and its CP: cost None when the table's list does not price it."""

    name: str
    cost: int | None


@dataclass(frozen=True, slots=True)
class Worth:
    """What a sheet is worth in CP, item by item, with what could not be priced named."""

    skills: tuple[SkillLine, ...]
    attribute_points: int
    attributes: int | None
    """CP of the attributes; None while the table has not priced attribute points."""
    species: SpeciesLine | None = None
    """The sheet's species, when it has one (a table setting: the rules price none)."""

    @property
    def skills_total(self) -> int:
        return sum(line.cost for line in self.skills if line.cost is not None)

    @property
    def total(self) -> int:
        """The priced part: skills, plus attributes and species once priced."""
        species = self.species.cost if self.species and self.species.cost is not None else 0
        return self.skills_total + (self.attributes or 0) + species

    @property
    def unpriced(self) -> tuple[str, ...]:
        """The skills whose category the campaign does not know."""
        return tuple(line.name for line in self.skills if line.cost is None)

    @property
    def complete(self) -> bool:
        """Every skill and the attributes priced: `total` is the whole sheet's worth."""
        return (
            not self.unpriced
            and self.attributes is not None
            and (self.species is None or self.species.cost is not None)
        )

    def over(self, budget: int | None) -> int:
        """CP over a starting budget (0 when within it or when there is none)."""
        return max(0, self.total - budget) if budget is not None else 0


def category_keys(categories: Mapping[str, Category | str]) -> dict[str, Category]:
    """Categories keyed case-insensitively, as skill names are matched everywhere."""
    return {name.casefold(): Category(value) for name, value in categories.items()}


def category_for(categories: Mapping[str, Category | str], skill: str) -> Category | None:
    """A skill's category, found as a roll finds the skill (wire/names.py): case-insensitive,
    and one of WIRE's own names under any of its spellings ("Parieren" is priced as "Parry")."""
    known = category_keys(categories)
    for alias in names.aliases(skill):
        category = known.get(alias.casefold())
        if category is not None:
            return category
    return None


def sheet_worth(
    skills: Mapping[str, int],
    attributes: Mapping[str, int],
    categories: Mapping[str, Category | str],
    attribute_price: AttributePrice = NOT_PRICED,
    species: str | None = None,
    species_costs: Mapping[str, int] | None = None,
) -> Worth:
    """A sheet's worth: each skill priced by its category from level 0, attribute points at the
    table's price (their sum; a score below 0 gives points back, as point-buy does), and its
    species at the table's cost for it (not priced when the list lacks it)."""
    lines = []
    for name, level in skills.items():
        category = category_for(categories, name)
        cost = level_cost(category, level) if category is not None else None
        lines.append(SkillLine(name, level, category, cost))
    points = sum(attributes.values())
    priced = attribute_price.per_point * points if attribute_price.per_point is not None else None
    line = None
    if species:
        costs = {name.casefold(): cost for name, cost in (species_costs or {}).items()}
        line = SpeciesLine(species, costs.get(species.casefold()))
    return Worth(tuple(lines), points, priced, line)


__all__ = [
    "ATTRIBUTE_PRICE_MAX",
    "NOT_PRICED",
    "PRICE_TABLES",
    "STEP_FACTOR",
    "AttributePrice",
    "Category",
    "SkillLine",
    "SpeciesLine",
    "Worth",
    "category_for",
    "category_keys",
    "category_of",
    "level_cost",
    "sheet_worth",
    "step_cost",
]
