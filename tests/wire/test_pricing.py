"""The rules core's CP prices read off a sheet (wire/pricing.py): one name look-up for rolls and
prices, and what a sheet change is worth."""

from __future__ import annotations

import pytest

from wire.advancement import AttributePrice, Category
from wire.errors import RulesError
from wire.pricing import price_step, priced_moves
from wire.sheet import Character

CATEGORIES = {"Parry": Category.COMBAT, "Elvish": Category.LANGUAGE}
GERMAN = Character("Jorun", attributes={"Stärke": 2}, skills={"Parieren": 3, "Elvish": 1})


def test_a_german_sheet_is_priced_under_wire_names_in_either_language() -> None:
    step = price_step(GERMAN, "attribute", "Strength", None, CATEGORIES, AttributePrice(10))
    assert (step.name, step.before, step.after, step.cost) == ("Stärke", 2, 3, 10)
    step = price_step(GERMAN, "skill", "parry", 5, CATEGORIES)
    assert (step.name, step.category, step.cost, step.new) == (
        "Parieren",
        Category.COMBAT,
        45,
        False,
    )
    english = Character("Ash", attributes={"Strength": 3})
    step = price_step(english, "attribute", "Stärke", None, {}, AttributePrice(5))
    assert (step.name, step.cost) == ("Strength", 5)


def test_a_new_skill_starts_at_0_and_a_missing_attribute_is_refused() -> None:
    step = price_step(GERMAN, "skill", "Elfisch", 2, {"Elfisch": Category.LANGUAGE})
    assert (step.name, step.before, step.cost, step.new) == ("Elfisch", 0, 6, True)
    with pytest.raises(RulesError, match="no attribute named 'Reaction'"):
        price_step(GERMAN, "attribute", "Reaction", None, {}, AttributePrice(5))
    with pytest.raises(RulesError, match="Parieren is at 3 already"):
        price_step(GERMAN, "skill", "Parry", 3, CATEGORIES)


def test_priced_moves_name_each_priced_change_and_its_worth() -> None:
    moves = priced_moves(
        GERMAN,
        {"Stärke": 4},
        {"Parry": 2, "Elvish": 3, "Juggling": 5},
        CATEGORIES,
        AttributePrice(10),
    )
    found = {(m.kind, m.name): (m.before, m.after, m.worth, m.raised) for m in moves}
    assert found == {
        ("attribute", "Stärke"): (2, 4, 20, True),
        ("skill", "Parieren"): (3, 2, -15, False),
        ("skill", "Elvish"): (1, 3, 10, True),
    }
    assert priced_moves(GERMAN, {"Stärke": 9}, dict(GERMAN.skills), CATEGORIES) == ()
