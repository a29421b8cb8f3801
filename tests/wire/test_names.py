"""WIRE's own stat names in every catalogued language (wire/names.py)."""

from __future__ import annotations

from wire import i18n, names


def test_each_wire_name_has_its_german_spelling():
    assert names.spellings("Strength") == ("Strength", "Stärke")
    assert names.spellings("Block") == ("Block", "Blocken")
    assert names.spellings("Resolve") == ("Resolve", "Entschlossenheit")


def test_aliases_put_the_asked_spelling_first_and_leave_a_tables_own_names_alone():
    assert names.aliases("reaktion") == ("reaktion", "Reaction")
    assert names.aliases("Parry") == ("Parry", "Parieren")
    assert names.aliases("Klettern") == ("Klettern",)
    assert names.own_name("AUSWEICHEN") == "Dodge"
    assert names.own_name("Long swords") is None


def test_a_wire_name_is_shown_in_the_language_in_use_and_a_tables_own_as_written():
    assert names.shown("Stärke") == "Strength"
    assert names.shown("long swords") == "long swords"
    with i18n.speaking("de"):
        assert names.shown("strength") == "Stärke"
        assert names.shown("Dodge") == "Ausweichen"
        assert names.shown("Klettern") == "Klettern"
