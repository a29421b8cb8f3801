"""The gear's Edit form text (wire/gear_text.py): lines read back to the same items."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wire import i18n
from wire.errors import RulesError
from wire.gear import Item
from wire.gear_text import items_text, parse_items

WIRE = settings.get_profile("wire")

names = st.text(
    st.characters(whitelist_categories=("L", "N"), max_codepoint=0x24F), min_size=1, max_size=20
)
items = st.builds(
    Item,
    name=names,
    quantity=st.integers(1, 10_000),
    grams=st.integers(0, 1_000_000),
    note=st.sampled_from(["", "hemp, 10 m", "for Bo: later"]),
    carried=st.booleans(),
)


def test_lines_read_as_items_in_english_and_german() -> None:
    text = "2 x Rope; 1.5 kg: hemp, 10 m\nTent; 9 kg; stored\n\nLetter\n3× Arrow;0,05"
    assert parse_items(text) == [
        Item("Rope", 2, 1500, "hemp, 10 m"),
        Item("Tent", 1, 9000, "", False),
        Item("Letter"),
        Item("Arrow", 3, 50),
    ]
    assert parse_items("Zelt; 9 kg; eingelagert") == [Item("Zelt", 1, 9000, "", False)]
    with i18n.speaking("de"):
        assert items_text([Item("Seil", 2, 1500, "Hanf")]) == "2 x Seil; 1,5 kg: Hanf"
        assert items_text([Item("Amboss", 1, 1_000_000)]) == "1 x Amboss; 1000 kg"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("Rope; heavy", "Line 1: heavy is not a weight"),
        ("Rope\n0 x Arrow", "Line 2: write a quantity of 1 to 10000"),
        ("Rope\nrope", "Line 2: rope is listed twice"),
    ],
)
def test_a_bad_line_is_named(text: str, says: str) -> None:
    with pytest.raises(RulesError, match=says):
        parse_items(text)


@WIRE
@given(
    st.lists(items, max_size=8, unique_by=lambda i: i.name.casefold()),
    st.sampled_from(["en", "de"]),
)
def test_items_as_text_read_back_to_the_same_items(kit: list[Item], lang: str) -> None:
    kit = [Item(i.name.strip() or "x", i.quantity, i.grams, i.note, i.carried) for i in kit]
    if len({i.name.casefold() for i in kit}) != len(kit):
        return
    with i18n.speaking(lang):
        assert parse_items(items_text(kit)) == kit
