"""The catalogues: every English message has its translation with the same placeholders, no
translation breaks a Discord limit its English text keeps, and numbers take the language's form.
"""

from __future__ import annotations

import string
from decimal import Decimal
from fractions import Fraction

import pytest
from babel.messages.pofile import read_po

from wire import i18n
from wire.i18n import speaking, tr, trc, trn

TRANSLATED = [lang for lang in i18n.LANGUAGES if lang != i18n.DEFAULT]
TEMPLATE = i18n.LOCALES / f"{i18n.DOMAIN}.pot"

LIMITS = {
    "name": (32,),
    "choice": (100,),
    "button": (80,),
    "form": (45,),
    "form description": (100,),
    None: (256, 1024, 2000),
}
"""Discord's lengths a message can meet, by its context: a command or option name (32), a choice
name (100), a button label (80), a form's label (45) and its description (100); any other text
may be an embed title or field name (256), a field value (1024) or a message (2000). Command
descriptions (100) are checked in the synced payload (tests/commands/test_command_payload.py),
whole embeds in the tests that build them."""


def catalogue(path):
    with path.open("rb") as po:
        return read_po(po)


def placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


def forms(message) -> list[str]:
    return list(message.id) if isinstance(message.id, tuple | list) else [message.id]


def strings(message) -> list[str]:
    return list(message.string) if isinstance(message.string, tuple | list) else [message.string]


def test_german_is_there():
    assert "de" in i18n.LANGUAGES


def test_the_languages_are_english_first_then_each_catalogue_once():
    found = i18n.catalogued()
    assert found[0] == "en"
    assert "de" in found
    assert len(set(found)) == len(found)
    assert i18n.available() == found  # Babel is installed: every catalogue can be read


def test_without_babel_only_english_is_spoken(monkeypatch):
    monkeypatch.setattr(i18n, "HAVE_BABEL", False)
    assert i18n.available() == ("en",)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated(lang):
    template = catalogue(TEMPLATE)
    translated = catalogue(i18n.catalogue_path(lang))
    missing = []
    for message in template:
        if not message.id:
            continue
        found = translated.get(message.id, context=message.context)
        if found is None or found.fuzzy or not all(strings(found)):
            missing.append((message.context, message.id))
    assert missing == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_the_placeholders(lang):
    wrong = []
    for message in catalogue(i18n.catalogue_path(lang)):
        if not message.id or not message.string:
            continue
        expected = set().union(*(placeholders(f) for f in forms(message))) - {"n"}
        for text in strings(message):
            if placeholders(text) - {"n"} != expected:
                wrong.append((message.id, text))
    assert wrong == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_translation_breaks_a_limit_its_english_keeps(lang):
    broken = []
    for message in catalogue(i18n.catalogue_path(lang)):
        if not message.id or not message.string:
            continue
        english = max(len(f) for f in forms(message))
        for text in strings(message):
            for limit in LIMITS.get(message.context, LIMITS[None]):
                if english <= limit < len(text):
                    broken.append((limit, message.id, text))
    assert broken == []


def test_the_language_of_a_discord_locale():
    assert i18n.language_of("de") == "de"
    assert i18n.language_of("en-US") == "en"
    assert i18n.language_of("fr") == "en"  # no catalogue: English
    assert i18n.language_of(None) == "en"
    assert i18n.language_of("de-DE") == "de"
    assert i18n.language_of("de_AT") == "de"
    assert i18n.language_of("DE") == "de"


def test_the_language_of_a_locale_enum_is_read_from_its_value():
    class Locale:
        """Like discord.Locale.german: the code is its value, not its str()."""

        value = "de"

        def __str__(self) -> str:
            return "Locale.german"

    assert i18n.language_of(Locale()) == "de"


def test_use_switches_the_language_and_none_keeps_it():
    with speaking("en"):
        i18n.use("de-DE")
        assert i18n.language() == "de"
        i18n.use(None)
        assert i18n.language() == "de"
        i18n.use("fr")
        assert i18n.language() == "en"
    assert i18n.language() == "en"


def test_german_numbers_and_percentages():
    with speaking("de"):
        assert i18n.percent(Fraction(4, 5)) == "80\xa0%"
        assert i18n.percent(Fraction(1, 8)) == "12,5\xa0%"
        assert i18n.percent(Fraction(1, 1000)) == "0,1\xa0%"
        assert i18n.number(1234567) == "1.234.567"
        assert i18n.number(7.3, 2) == "7,30"
    assert i18n.percent(Fraction(4, 5)) == "80%"
    assert i18n.number(7.3, 2) == "7.30"


def test_plural_forms_by_the_count_in_the_languages_number_form():
    assert trn("for {n} round", "for {n} rounds", 1) == "for 1 round"
    assert trn("for {n} round", "for {n} rounds", 3) == "for 3 rounds"
    assert trn("{n} roll on {item}", "{n} rolls on {item}", 1234, item="a sword") == (
        "1,234 rolls on a sword"
    )
    with speaking("de"):
        assert trn("for {n} round", "for {n} rounds", 1) == "für 1 Runde"
        assert trn("for {n} round", "for {n} rounds", 1234) == "für 1.234 Runden"


def test_a_message_without_parameters_is_kept_as_it_is_braces_and_all():
    assert tr("Type {name} here") == "Type {name} here"
    assert trc("form", "Type {name} here") == "Type {name} here"
    assert trc("form", "Type {name} here", name="Jaime") == "Type Jaime here"


def test_a_number_with_no_decimals_is_whole():
    assert i18n.number(1234.6, 0) == "1,235"
    with speaking("de"):
        assert i18n.number(1234.6, 0) == "1.235"


def test_a_fuzzy_translation_is_neither_shown_nor_offered_to_discord(tmp_path, monkeypatch):
    """`make messages` marks a changed message fuzzy until someone translates it again: until
    then its old translation is wrong, so English stands in for it."""
    catalogue_dir = tmp_path / "xx" / "LC_MESSAGES"
    catalogue_dir.mkdir(parents=True)
    (catalogue_dir / f"{i18n.DOMAIN}.po").write_text(
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "Hit"\nmsgstr "Treffer"\n\n'
        '#, fuzzy\nmsgid "Miss"\nmsgstr "Daneben, alt"\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(i18n, "LOCALES", tmp_path)
    i18n.translations.cache_clear()
    i18n._ids.cache_clear()
    try:
        assert i18n.lookup("xx", None, "Hit") == "Treffer"
        assert i18n.lookup("xx", None, "Miss") is None
        with speaking("en"):
            i18n._current.set("xx")  # a language the bot does not list: set as use() would
            assert (tr("Hit"), tr("Miss")) == ("Treffer", "Miss")
    finally:
        i18n.translations.cache_clear()
        i18n._ids.cache_clear()


def test_a_percentage_as_it_is_in_the_languages_form():
    assert i18n.percent_of(Decimal("12.34")) == "12.34%"
    assert i18n.percent_of(Decimal("0.5")) == "0.5%"
    with speaking("de"):
        assert i18n.percent_of(Decimal("12.34")) == "12,34\xa0%"


def test_a_message_in_german_and_back():
    assert tr("Hit: {degrees}, {damage} damage", degrees="5 DoS", damage=10) == (
        "Hit: 5 DoS, 10 damage"
    )
    with speaking("de"):
        assert tr("Hit: {degrees}, {damage} damage", degrees="5 EG", damage=10) == (
            "Treffer: 5 EG, 10 Schaden"
        )
        assert trc("name", "attack") == "angriff"
        assert tr("no such message, kept as it is") == "no such message, kept as it is"
    assert i18n.language() == "en"


def test_the_command_translator_leaves_english_alone():
    assert i18n.lookup("de", "name", "attack") == "angriff"
    assert i18n.lookup("de", "name", "no-such-command") is None
    assert i18n.lookup("en", "name", "attack") is None
    assert i18n.lookup("de", None, "Hit: {degrees}, {damage} damage") == (
        "Treffer: {degrees}, {damage} Schaden"
    )
    assert i18n.lookup("de", "name", "Hit: {degrees}, {damage} damage") is None
