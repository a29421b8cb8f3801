"""CP prices read off a sheet: the price of one raise, and the priced stats a sheet change moves.

One name look-up for rolls and prices: a stat is found on the sheet as a roll finds it
(`wire.sheet.find_stat`, WIRE's own names in any language the bot speaks), so "Stärke" is
priced on a sheet that reads "Strength". The store only keeps and loads (the ledger, the
requests); which stat costs what, and what a sheet change is worth, is decided here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from wire.advancement import (
    NOT_PRICED,
    AttributePrice,
    Category,
    category_for,
    level_cost,
    step_cost,
)
from wire.errors import RulesError
from wire.i18n import tr
from wire.limits import ATTRIBUTE, SKILL
from wire.sheet import Character, find_stat


@dataclass(frozen=True, slots=True)
class Step:
    """A raise of one stat and its price, before it is paid: what `/character improve` shows,
    the ledger's spend, and a GMs' request."""

    kind: str
    """attribute or skill."""
    name: str
    """As the sheet spells it (a German sheet's "Stärke" asked for as "Strength"), or as asked
    for a skill the sheet lacks (learned from 0)."""
    before: int
    after: int
    cost: int
    category: Category | None
    new: bool
    """The sheet lacks it: the raise adds it."""


def stat_on(sheet: Character, kind: str, name: str) -> tuple[str, int] | None:
    """(the sheet's spelling, the level) of the attribute or skill `name`, found as a roll finds
    it (`find_stat`): the one look-up behind a price, a spend, a correction and an undo, so
    the ledger never names a stat the sheet spells otherwise."""
    return find_stat(sheet.skills if kind == "skill" else sheet.attributes, name)


def price_step(
    sheet: Character,
    kind: str,
    stat: str,
    to_level: int | None,
    categories: Mapping[str, Category | str],
    attribute_price: AttributePrice = NOT_PRICED,
) -> Step:
    """The price of raising `stat` by one level (or to `to_level`): the stat found by the look-up
    every roll uses (`find_stat`), so the name a roll reads is the name priced. A skill the
    sheet lacks starts at 0 (WIRE's untrained skill); an attribute must be on the sheet."""
    found = stat_on(sheet, kind, stat)
    if found is None and kind == "attribute":
        raise RulesError(
            tr(
                "{name} has no attribute named {stat}. Add it to the sheet first.",
                name=sheet.name,
                stat=repr(stat),
            )
        )
    name, start = found if found is not None else (stat, 0)
    after = to_level if to_level is not None else start + 1
    limit = SKILL if kind == "skill" else ATTRIBUTE
    if not limit.low <= after <= limit.high:
        raise RulesError(
            tr("{stat} can go up to {high}, not {after}.", stat=name, high=limit.high, after=after)
        )
    if after <= start:
        raise RulesError(
            tr(
                "{stat} is at {level} already: CP only raise it (give a higher level).",
                stat=name,
                level=start,
            )
        )
    if kind == "skill":
        category = category_for(categories, name)
        if category is None:
            raise RulesError(
                tr(
                    "{stat} has no category, so it has no price. A GM sets it with /cp categories.",
                    stat=name,
                )
            )
        return Step(
            kind, name, start, after, step_cost(category, start, after), category, not found
        )
    cost = attribute_price.cost(start, after)
    if cost is None:
        raise RulesError(
            tr(
                "This table has not priced attribute points, so attributes are not "
                "bought with CP. A GM sets a price with /cp settings."
            )
        )
    return Step(kind, name, start, after, cost, None, False)


@dataclass(frozen=True, slots=True)
class StatMove:
    """A priced stat a sheet change moves, and what the move is worth in CP (negative: the
    sheet is worth less; the CP a lowering frees come back only by a GM's award)."""

    kind: str
    name: str
    before: int
    after: int
    worth: int

    @property
    def raised(self) -> bool:
        return self.after > self.before


def priced_moves(
    sheet: Character,
    attributes: Mapping[str, int],
    skills: Mapping[str, int],
    categories: Mapping[str, Category | str],
    attribute_price: AttributePrice = NOT_PRICED,
) -> tuple[StatMove, ...]:
    """The priced stats that differ between `sheet` and the new `attributes` and `skills` (a
    stat missing on either side is 0): a skill with a category, an attribute once the table
    prices them. What the CP ledger must account for; unpriced stats are the table's own."""
    moves: list[StatMove] = []
    for kind, old, new in (
        ("attribute", sheet.attributes, attributes),
        ("skill", sheet.skills, skills),
    ):
        if kind == "attribute" and not attribute_price.priced:
            continue
        seen: set[str] = set()
        for name in [*old, *new]:
            if name.casefold() in seen:
                continue
            was, now = find_stat(dict(old), name), find_stat(dict(new), name)
            seen |= {n.casefold() for n in (name, *(x[0] for x in (was, now) if x))}
            before, after = (was[1] if was else 0), (now[1] if now else 0)
            if before == after:
                continue
            if kind == "attribute":
                worth = (after - before) * (attribute_price.per_point or 0)
            else:
                category = category_for(categories, name)
                if category is None:
                    continue
                worth = level_cost(category, after) - level_cost(category, before)
            moves.append(StatMove(kind, (was or now or (name, 0))[0], before, after, worth))
    return tuple(moves)
