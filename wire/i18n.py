"""Every word a user reads, in their language: gettext catalogues read with Babel.

The English text in the code is the message id; each other language is one catalogue,
`wire/locales/<lang>/LC_MESSAGES/wire.po`, read at the first use and compiled in memory (so a
fresh clone needs no build step). A missing or untranslated message falls back to English.

The language in use is a context variable: each interaction runs in its own asyncio task, so
the bot sets it once when an interaction arrives (the user's Discord language, or the campaign's
fixed one) and every builder of text below reads it, without a language argument threaded
through every function; two interactions in flight never see each other's. The CLI sets it from
`--lang`. Builders that must speak a given language whatever the context use `speaking(lang)`.

Placeholders are named and in braces, `{name}`, filled by `str.format`, so a translation can
move them; every catalogue is tested to keep the same placeholders as its message id.

docs/i18n.md explains how to extract the template and add a language.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

try:
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    from babel.numbers import format_decimal, format_percent
except ImportError:  # `python3 -m wire` outside .venv: the standard library only, English only
    HAVE_BABEL = False
else:
    HAVE_BABEL = True

DOMAIN = "wire"
LOCALES = Path(__file__).resolve().parent / "locales"
DEFAULT = "en"
"""The language of the message ids, and the fallback."""


def catalogued() -> tuple[str, ...]:
    """English and every language with a catalogue file."""
    found = sorted(p.parent.parent.name for p in LOCALES.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    return (DEFAULT, *[lang for lang in found if lang != DEFAULT])


def available() -> tuple[str, ...]:
    """The languages the bot speaks: the catalogued ones (English alone without Babel, which
    reads the catalogues)."""
    return catalogued() if HAVE_BABEL else (DEFAULT,)


LANGUAGES = available()

_current: ContextVar[str] = ContextVar("wire_language", default=DEFAULT)


def catalogue_path(lang: str) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The language's catalogue compiled in memory (fuzzy entries left out), or none."""
    path = catalogue_path(lang)
    if lang == DEFAULT or not HAVE_BABEL or not path.exists():
        return gettext.NullTranslations()
    with path.open("rb") as po:
        catalog = read_po(po, locale=lang, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def language_of(locale: object) -> str:
    """The language for a Discord locale ("de", "en-US", `discord.Locale.german`): one with a
    catalogue, else English."""
    code = str(getattr(locale, "value", locale) or "").replace("_", "-").split("-")[0].lower()
    return code if code in LANGUAGES else DEFAULT


def language() -> str:
    """The language in use here."""
    return _current.get()


def use(lang: str | None) -> None:
    """Speak `lang` from here on in this task (an interaction's): None keeps the current one."""
    if lang:
        _current.set(language_of(lang))


@contextmanager
def speaking(lang: str | None) -> Iterator[str]:
    """Speak `lang` inside the block (None: keep the current language), then as before."""
    token = _current.set(language_of(lang) if lang else _current.get())
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def _fill(text: str, params: dict[str, Any]) -> str:
    return text.format(**params) if params else text


def tr(message: str, /, **params: Any) -> str:
    """`message` (English, the id) in the language in use, its {placeholders} filled. (Most
    messages have none: no call to fill them, for the dozen an answer asks.)"""
    text = translations(_current.get()).gettext(message)
    return text.format(**params) if params else text


def trn(singular: str, plural: str, n: int, /, **params: Any) -> str:
    """The singular or plural form for `n`, by the language's plural rule; `{n}` is `n`."""
    text = translations(_current.get()).ngettext(singular, plural, n)
    return _fill(text, {"n": number(n), **params})


def trc(context: str, message: str, /, **params: Any) -> str:
    """`message` in a context (msgctxt): the same English word meaning two things, such as a
    command's name and a word in a sentence."""
    return _fill(translations(_current.get()).pgettext(context, message), params)


def N_(message: str) -> str:
    """Marks a message for the catalogue where it is defined (a constant); translated where it
    is shown, with `tr`."""
    return message


def lookup(lang: str, context: str | None, message: str) -> str | None:
    """The translation of a message in `lang`, or None when the catalogue lacks it (the command
    translator needs to know, to leave English names alone)."""
    if (context, message) not in _ids(lang):
        return None
    found = translations(lang)
    return found.gettext(message) if context is None else found.pgettext(context, message)


@cache
def _ids(lang: str) -> frozenset[tuple[str | None, str]]:
    """(context, id) of each message the language's catalogue translates."""
    path = catalogue_path(lang)
    if lang == DEFAULT or not HAVE_BABEL or not path.exists():
        return frozenset()
    with path.open("rb") as po:
        catalog = read_po(po, locale=lang, domain=DOMAIN)
    return frozenset((m.context, m.id) for m in catalog if m.id and m.string and not m.fuzzy)


def number(value: int | float | Decimal, decimals: int | None = None) -> str:
    """A number in the language's form: "1,234.5" / "1.234,5"; with exactly `decimals`
    decimals if given ("7.30" / "7,30")."""
    return _number(_current.get(), value, decimals)


@lru_cache(maxsize=4096)
def _number(lang: str, value: int | float | Decimal, decimals: int | None) -> str:
    """Cached: Babel takes microseconds a number, and replies show the same few again."""
    if not HAVE_BABEL:
        return f"{value:,}" if decimals is None else f"{value:,.{decimals}f}"
    if decimals is None:
        return format_decimal(value, locale=lang)
    pattern = "#,##0." + "0" * decimals if decimals else "#,##0"
    return format_decimal(value, format=pattern, locale=lang)


def percent(chance: Fraction) -> str:
    """A probability in the language's form, whole where exact, else one decimal (half to
    even): "80%", "80 %", "12.5%", "12,5 %".

    Never a false 0% or 100%: a chance that rounds to either is shown as 0.1% or 99.9%.
    """
    return _percent(_current.get(), chance)


@lru_cache(maxsize=4096)
def _percent(lang: str, chance: Fraction) -> str:
    """Cached: a d20's chances are a few hundred fractions (n/20, n/400), shown again and
    again, and Babel takes microseconds each."""
    value = chance * 100
    if value.denominator == 1:
        shown = Decimal(value.numerator)
    else:
        shown = (Decimal(value.numerator) / Decimal(value.denominator)).quantize(
            Decimal("0.1"), rounding=ROUND_HALF_EVEN
        )
        shown = min(max(shown, Decimal("0.1")), Decimal("99.9"))
    return _percent_of(lang, shown)


def percent_of(value: Decimal) -> str:
    """A percentage (0 to 100) as it is, with all its decimals, in the language's form."""
    return _percent_of(_current.get(), value)


@lru_cache(maxsize=4096)
def _percent_of(lang: str, value: Decimal) -> str:
    if not HAVE_BABEL:
        return f"{value.normalize():f}%"
    return format_percent(value / 100, locale=lang, decimal_quantization=False)


__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "N_",
    "available",
    "language",
    "language_of",
    "lookup",
    "number",
    "percent",
    "speaking",
    "tr",
    "trc",
    "trn",
    "use",
]
