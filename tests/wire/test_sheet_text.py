"""The sheet text on its own: reading it, every problem at once, did-you-mean, and the text the
Edit form shows reading back to the same sheet."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wire import limits
from wire.limits import MAX_ATTRIBUTES
from wire.names import ATTRIBUTES as WIRE_ATTRIBUTES
from wire.sheet_text import (
    SheetStats,
    SheetTextError,
    edit_distance,
    near_name,
    read_sheet,
    sheet_text,
    unwritable,
)
from wire.textcheck import normal_text, text_problem


def problems(text: str, **known) -> list[str]:
    with pytest.raises(SheetTextError) as raised:
        read_sheet(text, **known)
    return raised.value.problems


def test_the_issues_example():
    sheet = read_sheet(
        "Strength 3, Reaction 2, Constitution 2, Resolve 1; Long swords 5, Parry 3, Dodge 1",
        known_attributes=WIRE_ATTRIBUTES,
    )
    assert sheet == SheetStats(
        {"Strength": 3, "Reaction": 2, "Constitution": 2, "Resolve": 1},
        {"Long swords": 5, "Parry": 3, "Dodge": 1},
    )


@pytest.mark.parametrize(
    ("text", "attributes", "skills"),
    [
        ("", {}, {}),
        ("Strength 3", {"Strength": 3}, {}),
        ("; Parry 3", {}, {"Parry": 3}),
        ("Strength 3;", {"Strength": 3}, {}),
        ("Strength -2, Reaction \u22121", {"Strength": -2, "Reaction": -1}, {}),
        ("Strength +3", {"Strength": 3}, {}),
        ("Strength 3\nReaction 2;\nParry 3\nDodge 1", {"Strength": 3, "Reaction": 2},
         {"Parry": 3, "Dodge": 1}),
        ("  Strength   3 ,, Reaction 2 ;  Long  swords 5 ", {"Strength": 3, "Reaction": 2},
         {"Long  swords": 5}),
        ('"Strength 3; Parry 3"', {"Strength": 3}, {"Parry": 3}),
        ("\u201cStrength 3\u201d", {"Strength": 3}, {}),
        ("Language 2 4; Lore 1 0", {"Language 2": 4}, {"Lore 1": 0}),
    ],
)  # fmt: skip
def test_forms_that_read(text, attributes, skills):
    assert read_sheet(text, new_names=True) == SheetStats(attributes, skills)


def test_every_problem_is_named_at_once():
    assert problems(
        "Strength three, Strength, Reaction 31, Reaction 2, Str\u200bength 1; "
        "Parry 14, Parry 3, PARRY 2, Dodge 99999999; more; x 1",
        known_attributes=WIRE_ATTRIBUTES,
    ) == [
        "3 semicolons: use one, between the attributes and the skills",
        "'Strength three': the value must be a number",
        "'Strength': no value; write the name, then a number",
        "Reaction 31: attributes go -10 to 30",
        "'Str\u200bength': the name contains an invisible or direction-changing character (U+200B)",
        "Parry 14: skills go 0 to 10",
        "PARRY is listed twice",
        "Dodge 99999999: skills go 0 to 10",
        "'more': no value; write the name, then a number",
    ]


def test_too_many_and_too_long():
    many = ", ".join(f"A{i} 1" for i in range(MAX_ATTRIBUTES + 1))
    assert problems(many) == ["21 attributes: a sheet holds at most 20"]
    long = "x" * 65
    (problem,) = problems(f"{long} 3")
    assert problem.startswith("'xxxx") and "65 characters long, the limit is 64" in problem
    assert len(problem) < 100  # the name is cut in the message


def test_did_you_mean_and_its_override():
    with pytest.raises(SheetTextError) as raised:
        read_sheet(
            "Strenght 3, reacton 2; Long sword 1",
            known_attributes=WIRE_ATTRIBUTES,
            known_skills=["Long swords"],
        )
    error = raised.value
    assert error.problems == [
        "Strenght: did you mean Strength?",
        "reacton: did you mean Reaction?",
        "Long sword: did you mean Long swords?",
    ]
    assert error.near_names
    kept = read_sheet("Strenght 3", known_attributes=WIRE_ATTRIBUTES, new_names=True)
    assert kept.attributes == {"Strenght": 3}
    # A form problem alone is no did-you-mean.
    with pytest.raises(SheetTextError) as raised:
        read_sheet("Parry")
    assert not raised.value.near_names


def test_known_names_take_their_known_spelling():
    sheet = read_sheet("STRENGTH 3; parry 2", known_attributes=WIRE_ATTRIBUTES)
    assert sheet.attributes == {"Strength": 3}
    assert sheet.skills == {"parry": 2}  # skills are free-form: no list to spell them by


@pytest.mark.parametrize(
    ("name", "known", "close"),
    [
        ("Strenght", WIRE_ATTRIBUTES, "Strength"),
        ("strentgh", WIRE_ATTRIBUTES, "Strength"),
        ("Stength", WIRE_ATTRIBUTES, "Strength"),
        ("Constitusion", WIRE_ATTRIBUTES, "Constitution"),
        ("Constituton", WIRE_ATTRIBUTES, "Constitution"),
        ("Resolv", WIRE_ATTRIBUTES, "Resolve"),
        ("Strength", WIRE_ATTRIBUTES, None),  # itself
        ("STRENGTH", WIRE_ATTRIBUTES, None),  # case is no typo
        ("Wits", WIRE_ATTRIBUTES, None),  # far from all: a table's own attribute
        ("Charisma", WIRE_ATTRIBUTES, None),
        ("Relation", WIRE_ATTRIBUTES, "Reaction"),  # two edits, and 8 letters: close
        ("Pary", ["Parry", "Dodge"], "Parry"),
        ("Dodge", ["Parry", "Lodge"], "Lodge"),
        ("STA", ["STR"], None),  # short: abbreviations differ by a letter
        ("Language 2", ["Language 1"], None),  # different numbers: different names
        ("Lnguage 1", ["Language 1"], "Language 1"),
        ("Long swords", ["Short swords"], None),
    ],
)
def test_near_names(name, known, close):
    assert near_name(name, known) == close


@pytest.mark.parametrize(
    ("a", "b", "distance"),
    [("", "", 0), ("abc", "", 3), ("kitten", "sitting", 3), ("ab", "ba", 1), ("abcd", "acbd", 1)],
)
def test_edit_distance(a, b, distance):
    assert edit_distance(a, b) == distance == edit_distance(b, a)


def test_names_with_separators_cannot_be_written():
    assert unwritable(["Strength", "Lore, history", "a;b"]) == ["Lore, history", "a;b"]


# ---- the form's text reads back to the same sheet --------------------------------------------

_name = (
    st.text(st.characters(categories=("L", "N", "P", "S", "Zs")), min_size=1, max_size=64)
    .map(normal_text)
    .filter(lambda n: not text_problem(n, 64) and not unwritable([n]))
    .filter(lambda n: not n.startswith(('"', "'", "\u201c", "\u2018", "\u00ab")))
)


def _table(low: int, high: int, most: int):
    return st.dictionaries(_name, st.integers(low, high), max_size=most).filter(
        lambda t: len({k.casefold() for k in t}) == len(t)
    )


@settings(max_examples=200, deadline=None)
@given(
    attributes=_table(limits.ATTRIBUTE.low, limits.ATTRIBUTE.high, 20),
    skills=_table(limits.SKILL.low, limits.SKILL.high, 60),
)
def test_the_text_of_a_sheet_reads_back_to_it(attributes, skills):
    text = sheet_text(attributes, skills)
    back = read_sheet(text, known_attributes=attributes, known_skills=skills)
    assert back == SheetStats(attributes, skills)
    assert list(back.attributes) == list(attributes)  # the order too


def test_a_skill_carries_its_category_in_brackets_english_or_german() -> None:
    from wire.advancement import Category

    stats = read_sheet("Strength 3; Parry 3 (combat), Elvish 2 (Sprache), Lore (elves) 2")
    assert stats.skills == {"Parry": 3, "Elvish": 2, "Lore (elves)": 2}
    assert stats.categories == {"Parry": Category.COMBAT, "Elvish": Category.LANGUAGE}
    text = sheet_text(stats.attributes, stats.skills, {"parry": Category.COMBAT})
    assert text == "Strength 3; Parry 3 (combat), Elvish 2, Lore (elves) 2"
    assert read_sheet(text).categories == {"Parry": Category.COMBAT}
    with pytest.raises(SheetTextError) as raised:
        read_sheet("Strength 3 (combat); Parry 3 (magic)")
    assert raised.value.problems == [
        "Strength (combat): only skills have a category; write the attribute without brackets",
        "'magic' is not a skill category: use combat, action, knowledge or language.",
    ]
