"""CP prices: WIRE's two tables exactly, and the properties every sum over them keeps."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wire import advancement as adv
from wire.advancement import AttributePrice, Category
from wire.errors import RulesError

WIRE = settings.get_profile("wire")
levels = st.integers(0, 10)
categories = st.sampled_from(list(Category))

# The rules site's tables, as printed (levels 1..10).
FIVES = [5, 15, 30, 50, 75, 105, 140, 180, 225, 275]
TWOS = [2, 6, 12, 20, 30, 42, 56, 72, 90, 110]


@pytest.mark.parametrize("category", [Category.COMBAT, Category.ACTION])
def test_combat_and_action_table_exact(category: Category) -> None:
    assert [adv.level_cost(category, n) for n in range(1, 11)] == FIVES
    assert adv.level_cost(category, 0) == 0


@pytest.mark.parametrize("category", [Category.KNOWLEDGE, Category.LANGUAGE])
def test_knowledge_and_language_table_exact(category: Category) -> None:
    assert [adv.level_cost(category, n) for n in range(1, 11)] == TWOS


def test_the_rules_examples() -> None:
    assert adv.step_cost(Category.COMBAT, 3, 5) == 45  # Parry 3 -> 5: 20 + 25
    assert adv.step_cost(Category.LANGUAGE, 0, 2) == 6  # Elvish 0 -> 2


@given(categories, levels)
@WIRE
def test_each_step_costs_factor_times_level(category: Category, level: int) -> None:
    if level:
        step = adv.step_cost(category, level - 1, level)
        assert step == adv.STEP_FACTOR[category] * level


@given(categories, levels, levels)
@WIRE
def test_step_is_difference_of_levels(category: Category, a: int, b: int) -> None:
    start, end = sorted((a, b))
    assert adv.step_cost(category, start, end) == adv.level_cost(category, end) - adv.level_cost(
        category, start
    )


@given(categories, levels, levels, levels)
@WIRE
def test_steps_add_up(category: Category, a: int, b: int, c: int) -> None:
    x, y, z = sorted((a, b, c))
    assert adv.step_cost(category, x, z) == adv.step_cost(category, x, y) + adv.step_cost(
        category, y, z
    )


@given(categories, levels, levels)
@WIRE
def test_cost_never_falls_when_a_level_rises(category: Category, a: int, b: int) -> None:
    low, high = sorted((a, b))
    assert adv.level_cost(category, low) <= adv.level_cost(category, high)
    if low < high:
        assert adv.level_cost(category, low) < adv.level_cost(category, high)


def test_lowering_or_out_of_range_is_refused() -> None:
    with pytest.raises(RulesError, match="below"):
        adv.step_cost(Category.COMBAT, 5, 3)
    with pytest.raises(RulesError, match="between 0 and 10"):
        adv.step_cost(Category.COMBAT, 3, 11)


def test_category_names_in_english_and_german() -> None:
    assert adv.category_of(" Combat ") is Category.COMBAT
    from wire.i18n import speaking

    with speaking("de"):
        assert adv.category_of("Wissen") is Category.KNOWLEDGE
    with pytest.raises(RulesError, match="combat, action, knowledge or language"):
        adv.category_of("magic")


def test_sheet_worth_names_unpriced_and_leaves_attributes_unpriced() -> None:
    worth = adv.sheet_worth(
        {"Parry": 3, "Elvish": 2, "Juggling": 4},
        {"Strength": 3, "Agility": 2},
        {"parry": "combat", "ELVISH": Category.LANGUAGE},
    )
    assert [(line.name, line.cost) for line in worth.skills] == [
        ("Parry", 30),
        ("Elvish", 6),
        ("Juggling", None),
    ]
    assert worth.unpriced == ("Juggling",)
    assert (worth.skills_total, worth.attributes, worth.total) == (36, None, 36)
    assert not worth.complete


def test_sheet_worth_with_a_priced_attribute_point() -> None:
    worth = adv.sheet_worth(
        {"Parry": 5}, {"Strength": 3, "Agility": 2}, {"Parry": "combat"}, AttributePrice(5)
    )
    assert (worth.skills_total, worth.attributes, worth.total, worth.complete) == (
        75,
        25,
        100,
        True,
    )
    assert worth.over(90) == 10 and worth.over(100) == 0 and worth.over(None) == 0


@given(st.dictionaries(st.text(min_size=1, max_size=5), levels, max_size=8), categories)
@WIRE
def test_worth_is_the_sum_of_its_lines(skills: dict[str, int], category: Category) -> None:
    names = {name: category for name in skills}
    worth = adv.sheet_worth(skills, {}, names)
    assert worth.skills_total == sum(adv.level_cost(category, v) for v in skills.values())


def test_attribute_price_is_a_table_setting() -> None:
    assert adv.NOT_PRICED.cost(2, 3) is None
    assert AttributePrice(4).cost(2, 5) == 12
    with pytest.raises(RulesError, match="between 0 and 1000"):
        AttributePrice(-1)


def test_a_species_counts_at_the_tables_cost_and_is_named_when_unpriced() -> None:
    from wire.advancement_text import summary_line, worth_lines

    priced = adv.sheet_worth(
        {"Parry": 3}, {}, {"Parry": "combat"}, AttributePrice(0), "elf", {"Elf": 20}
    )
    assert (priced.species.cost, priced.total, priced.complete) == (20, 50, True)
    assert summary_line(priced) == "Sheet: 50 CP: skills 30, attributes 0, species 20 (elf)"
    unknown = adv.sheet_worth({"Parry": 3}, {}, {"Parry": "combat"}, AttributePrice(0), "Troll", {})
    assert (unknown.species.cost, unknown.total, unknown.complete) == (None, 30, False)
    assert "  Species Troll: not priced (not in the table's list)" in worth_lines("Ash", unknown)
    assert adv.sheet_worth({}, {}, {}).species is None
