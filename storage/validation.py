"""Checks on names and numbers, shared by the store's methods and the import validator.

Each check returns a problem phrase (or None) instead of raising, so the import can collect every
problem under its path ("characters[2].skills.Parry: 14 is above the maximum 10") while a single
store call turns the first one into an InvalidValue with a fix attached. A phrase is a template
with its values (`Problem`), read in the language in use wherever it is shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from storage.errors import InvalidValue
from storage.models import QUALITY_MAX, QUALITY_MIN
from wire import i18n
from wire.health import DamageKind
from wire.i18n import N_, tr
from wire.limits import (
    BASE_MAX,
    BASE_MIN,
    MAX_ATTRIBUTES,
    MAX_SKILLS,
    NAME_MAX,
    NOTES_MAX,
    SKILL_MAX,
    SKILL_MIN,
    STAT_MAX,
    STAT_MIN,
)
from wire.sheet import Weapon
from wire.textcheck import TextProblem, normal_text, text_problem

STAT_KINDS = ("attribute", "skill")
STAT_RANGES = {"attribute": (STAT_MIN, STAT_MAX), "skill": (SKILL_MIN, SKILL_MAX)}
STAT_COUNTS = {"attribute": MAX_ATTRIBUTES, "skill": MAX_SKILLS}


@dataclass(frozen=True, slots=True)
class LongNumber:
    """A number in an import too long to be any value the bot takes, kept as its length only.

    Made into an int, 5,000 digits would stop json.loads with a ValueError (Python refuses more
    than 4,300) and shorter ones would still cost time that grows with the square of the length;
    the import reader keeps its length, so the problem can be named where it is.
    """

    digits: int

    def __repr__(self) -> str:
        return str(self.described())

    def described(self) -> Problem:
        return Problem(N_("a number of {digits} digits"), {"digits": Count(self.digits)})


@dataclass(frozen=True, slots=True)
class NotANumber:
    """NaN, Infinity or -Infinity: Python's json reads them, but JSON has no such values."""

    text: str

    def __repr__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Problem:
    """A problem phrase as an English template and its values, read in the language in use
    (wire.i18n) whenever it is shown: `str()` in English for the CLI and the logs, in German
    when the bot fills it into a German reply.

    Plain data (the values are text, numbers or other problems), so it is pickled back from
    the worker process that reads imports, and can be a value of a storage error's template.
    """

    template: str
    params: dict[str, object] = field(default_factory=dict)

    def __str__(self) -> str:
        return tr(self.template, **self.params)


@dataclass(frozen=True, slots=True)
class Count:
    """A number in a problem written in the language's form when shown: "5,000" / "5.000"."""

    value: int

    def __format__(self, spec: str) -> str:
        return i18n.number(self.value)

    def __str__(self) -> str:
        return i18n.number(self.value)


def type_name(value: object) -> Problem | str:
    """How a JSON value's type reads to someone who wrote the file by hand."""
    if value is None:
        return "null"
    if isinstance(value, LongNumber):
        return value.described()
    if isinstance(value, NotANumber):
        return value.text
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return Problem(N_("a whole number"))
    if isinstance(value, float):
        return Problem(N_("a number with a fraction"))
    if isinstance(value, str):
        return Problem(N_("text"))
    if isinstance(value, list):
        return Problem(N_("a list"))
    if isinstance(value, dict):
        return Problem(N_("an object"))
    return type(value).__name__


def expected_text(value: object) -> Problem:
    return Problem(N_("expected text, got {type}"), {"type": type_name(value)})


def name_problem(value: object) -> Problem | None:
    """Why `value` cannot be a name, or None. Leading and trailing spaces do not count."""
    if not isinstance(value, str):
        return expected_text(value)
    problem = text_problem(value, NAME_MAX)
    return Problem(N_("the name {problem}"), {"problem": problem}) if problem else None


def int_problem(value: object, low: int, high: int) -> Problem | None:
    """Why `value` is not a whole number in low..high, or None. true/false are not numbers."""
    bounds = {"low": low, "high": high}
    if isinstance(value, LongNumber):
        return Problem(
            N_("the number has {digits} digits; values go from {low} to {high}"),
            {"digits": Count(value.digits), **bounds},
        )
    if isinstance(value, NotANumber):
        return Problem(
            N_("{value} is not a number JSON has; values go from {low} to {high}"),
            {"value": value.text, **bounds},
        )
    if isinstance(value, bool) or not isinstance(value, int):
        return Problem(N_("expected a whole number, got {type}"), {"type": type_name(value)})
    if value < low:
        return Problem(N_("{value} is below the minimum {low}"), {"value": value, "low": low})
    if value > high:
        return Problem(N_("{value} is above the maximum {high}"), {"value": value, "high": high})
    return None


def notes_problem(value: object) -> TextProblem | Problem | None:
    """Why `value` cannot be a character's notes, or None. Empty notes are no notes."""
    if not isinstance(value, str):
        return expected_text(value)
    return text_problem(value, NOTES_MAX, multiline=True, empty_ok=True)


# ---- raising forms for single store calls ---------------------------------------------------


def clean_name(value: object, what: str) -> str:
    """The name as stored (see `normal_text`), or InvalidValue saying what is wrong."""
    if not isinstance(value, str):
        raise InvalidValue(
            "The {what} name is not usable: expected text, got {type_name}.",
            what=what,
            type_name=type_name(value),
        )
    problem = text_problem(value, NAME_MAX)
    if problem:
        raise InvalidValue(
            "The {what} name is not usable: the name {problem}. {fix}",
            what=what,
            problem=problem,
            fix=problem.fix,
        )
    return normal_text(value)


def check_kind(kind: str, *, weapon_ok: bool = False) -> str:
    kinds = (*STAT_KINDS, "weapon") if weapon_ok else STAT_KINDS
    if kind not in kinds:
        raise InvalidValue(
            "Unknown kind {kind}: use {value} or {kinds}.",
            kind=repr(kind),
            value=", ".join(kinds[:-1]),
            kinds=kinds[-1],
        )
    return kind


def check_stat(kind: str, name: str, value: int) -> None:
    low, high = STAT_RANGES[kind]
    problem = int_problem(value, low, high)
    if problem:
        raise InvalidValue(
            "{name}: {problem}. {value}s go from {low} to {high}.",
            name=name,
            problem=problem,
            value=kind.capitalize(),
            low=low,
            high=high,
        )


def check_quality(value: int) -> None:
    problem = int_problem(value, QUALITY_MIN, QUALITY_MAX)
    if problem:
        raise InvalidValue(
            "Quality: {problem}. Crafting quality goes from {QUALITY_MIN} to {QUALITY_MAX}.",
            problem=problem,
            QUALITY_MIN=QUALITY_MIN,
            QUALITY_MAX=QUALITY_MAX,
        )


def clean_notes(value: object) -> str:
    """The notes as stored (see `normal_text`), or InvalidValue saying what is wrong."""
    if not isinstance(value, str):
        raise InvalidValue("Notes: expected text, got {type_name}.", type_name=type_name(value))
    problem = text_problem(value, NOTES_MAX, multiline=True, empty_ok=True)
    if problem:
        raise InvalidValue("Notes: {problem}. {fix}", problem=problem, fix=problem.fix)
    return normal_text(value)


def clean_weapon(weapon: Weapon) -> Weapon:
    name = clean_name(weapon.name, "weapon")
    attribute = clean_name(weapon.attribute, "weapon's attribute")
    skill = clean_name(weapon.skill, "weapon's skill")
    problem = int_problem(weapon.base, BASE_MIN, BASE_MAX)
    if problem:
        raise InvalidValue(
            "{name} base damage: {problem}. Base damage goes from {BASE_MIN} to {BASE_MAX}.",
            name=name,
            problem=problem,
            BASE_MIN=BASE_MIN,
            BASE_MAX=BASE_MAX,
        )
    kinds = [kind.value for kind in DamageKind]
    if weapon.kind not in kinds:
        raise InvalidValue(
            "{name} damage kind: use {value}, not {kind}.",
            name=name,
            value=", ".join(kinds),
            kind=repr(weapon.kind),
        )
    return Weapon(name, weapon.base, attribute, skill, weapon.kind)


def clean_attribute_names(names: Sequence[str]) -> tuple[str, ...]:
    """A campaign's list of attribute names checked, every problem named in one error."""
    problems: list[str] = []
    cleaned: list[str] = []
    seen: set[str] = set()
    for raw in names:
        problem = name_problem(raw)
        if problem:
            problems.append(f"{raw!r}: {problem}")
            continue
        name = normal_text(raw)
        if name.casefold() in seen:
            problems.append(f"{name} is listed twice (names ignore case)")
            continue
        seen.add(name.casefold())
        cleaned.append(name)
    if not names:
        problems.append("the list is empty; name at least one attribute")
    if len(cleaned) > MAX_ATTRIBUTES:
        problems.append(f"{len(cleaned)} names, the limit is {MAX_ATTRIBUTES}")
    if problems:
        raise InvalidValue(
            "The attribute names are not usable: {value}.", value="; ".join(problems)
        )
    return tuple(cleaned)


def clean_stats(kind: str, stats: dict[str, int] | None) -> dict[str, int]:
    """A whole attribute or skill table checked: names, values, duplicates, count."""
    cleaned: dict[str, int] = {}
    seen: dict[str, str] = {}
    for raw_name, value in (stats or {}).items():
        name = clean_name(raw_name, kind)
        check_stat(kind, name, value)
        key = name.casefold()
        if key in seen:
            raise InvalidValue(
                "{value} {name} is listed twice (as {seen} too; names ignore case). List it once.",
                value=kind.capitalize(),
                name=repr(name),
                seen=repr(seen[key]),
            )
        seen[key] = name
        cleaned[name] = value
    if len(cleaned) > STAT_COUNTS[kind]:
        raise InvalidValue(
            "{count} {kind}s is over the limit of {STAT_COUNTS}. Remove some.",
            count=len(cleaned),
            kind=kind,
            STAT_COUNTS=STAT_COUNTS[kind],
        )
    return cleaned
