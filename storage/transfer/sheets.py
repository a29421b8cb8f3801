"""A character sheet in an import file: its name, flags and notes, its stats and weapons, its
fight fields and portrait; its saved rolls, gear and conditions are collected on the checker."""

from __future__ import annotations

from typing import Any

from storage.portraits import portrait_problem
from storage.transfer.checker import ImportChecker
from storage.transfer.conditions import check_sheet_conditions
from storage.transfer.format import (
    CHARACTER_FIELDS,
    DAMAGE_KINDS,
    GEAR_FIELD,
    GEAR_VERSION,
    SHEET_CONDITIONS_FIELD,
    SHEET_CONDITIONS_VERSION,
    WEAPON_FIELDS,
)
from storage.transfer.gear import check_gear
from storage.transfer.problems import (
    ALREADY_USED,
    EXPECTED_LIST,
    MISSING,
    OVER_LIMIT,
    WRITTEN_TWICE,
    show_key,
)
from storage.transfer.saved import check_saved_rolls
from storage.validation import (
    STAT_COUNTS,
    STAT_RANGES,
    int_problem,
    name_problem,
    notes_problem,
    type_name,
)
from wire import limits
from wire.health import DamageKind
from wire.i18n import N_
from wire.limits import BASE_MAX, BASE_MIN, MAX_WEAPONS
from wire.sheet import Character, Weapon
from wire.textcheck import normal_text

_HEALTH_FIELDS = (
    ("armour", limits.ARMOUR, 0),
    ("wp_max", limits.HEALTH, 0),
    ("hp_max", limits.HEALTH, None),
    ("thp_max", limits.HEALTH, None),
)
"""The fight fields of a sheet: (field, its range, its default)."""


def check_character(checker: ImportChecker, value: Any, path: str) -> Character | None:
    """The sheet at `path`, or None with its problems reported; its saved rolls, gear and
    conditions go onto the checker, by the sheet's name key."""
    before = len(checker.problems)
    fields = CHARACTER_FIELDS + (GEAR_FIELD if checker.version >= GEAR_VERSION else ())
    fields += SHEET_CONDITIONS_FIELD if checker.version >= SHEET_CONDITIONS_VERSION else ()
    data = checker.obj(value, path, fields)
    if data is None:
        return None
    name = _name(checker, data, path)
    is_npc = checker.boolean(data.get("is_npc", False), f"{path}.is_npc")
    shield = checker.boolean(data.get("shield", False), f"{path}.shield")
    notes = data.get("notes", "")
    problem = notes_problem(notes)
    if problem:
        checker.problem(f"{path}.notes", problem)
    attributes = _stats(checker, data.get("attributes", {}), f"{path}.attributes", "attribute")
    skills = _stats(checker, data.get("skills", {}), f"{path}.skills", "skill")
    weapons = _weapons(checker, data.get("weapons", []), f"{path}.weapons")
    saved = (
        check_saved_rolls(checker, data["saved_rolls"], f"{path}.saved_rolls")
        if "saved_rolls" in data
        else None
    )
    health = _health(checker, data, path)
    portrait = data.get("portrait")
    if portrait is not None and (problem := portrait_problem(portrait)):
        checker.problem(f"{path}.portrait", problem)
    if len(checker.problems) > before:
        return None
    gear = check_gear(checker, data["gear"], f"{path}.gear") if "gear" in data else None
    conditions = (
        check_sheet_conditions(checker, data["conditions"], f"{path}.conditions")
        if "conditions" in data
        else None
    )
    if len(checker.problems) > before:
        return None
    if saved is not None:
        checker.saved[name.casefold()] = saved
    if gear is not None:
        checker.gear[name.casefold()] = gear
    if conditions is not None:
        checker.conditions[name.casefold()] = conditions
    return Character(
        name,
        bool(is_npc),
        attributes,
        skills,
        tuple(weapons),
        bool(shield),
        normal_text(notes),
        armour=health["armour"] or 0,
        wp_max=health["wp_max"] or 0,
        hp_max=health["hp_max"],
        thp_max=health["thp_max"],
        portrait=normal_text(portrait) if portrait is not None else None,
    )


def _name(checker: ImportChecker, data: dict[str, Any], path: str) -> str:
    if "name" not in data:
        checker.problem(f"{path}.name", MISSING)
        return ""
    problem = name_problem(data["name"])
    if problem:
        checker.problem(f"{path}.name", problem)
        return ""
    return normal_text(data["name"])


def _health(checker: ImportChecker, data: dict[str, Any], path: str) -> dict[str, int | None]:
    """Armour, willpower and the health overrides, each its default where the file has none."""
    health: dict[str, int | None] = {}
    for key, limit, default in _HEALTH_FIELDS:
        value = data.get(key, default)
        if value is not None:
            problem = int_problem(value, limit.low, limit.high)
            if problem:
                checker.problem(f"{path}.{key}", problem)
        health[key] = value
    return health


def _stats(checker: ImportChecker, value: Any, path: str, kind: str) -> dict[str, int]:
    if not isinstance(value, dict):
        checker.problem(
            path,
            N_("expected an object of names and numbers, got {type}"),
            type=type_name(value),
        )
        return {}
    for key in getattr(value, "repeated", []):
        checker.problem(f"{path}.{show_key(key)}", WRITTEN_TWICE)
    if len(value) > STAT_COUNTS[kind]:
        checker.limit(path, OVER_LIMIT, n=len(value), limit=STAT_COUNTS[kind])
    low, high = STAT_RANGES[kind]
    result: dict[str, int] = {}
    seen: dict[str, str] = {}
    for raw_name, number in value.items():
        entry = f"{path}.{show_key(raw_name)}"
        problem = name_problem(raw_name)
        if problem:
            checker.problem(entry, problem)
            continue
        stat = normal_text(raw_name)
        if stat.casefold() in seen:
            checker.problem(
                entry,
                N_("same name as {name} (names are case-insensitive)"),
                name=repr(seen[stat.casefold()]),
            )
            continue
        seen[stat.casefold()] = stat
        problem = int_problem(number, low, high)
        if problem:
            checker.problem(entry, problem)
            continue
        result[stat] = number
    return result


def _weapons(checker: ImportChecker, value: Any, path: str) -> list[Weapon]:
    if not isinstance(value, list):
        checker.problem(path, EXPECTED_LIST, type=type_name(value))
        return []
    if len(value) > MAX_WEAPONS:
        checker.limit(path, OVER_LIMIT, n=len(value), limit=MAX_WEAPONS)
    result: list[Weapon] = []
    seen: dict[str, str] = {}
    for index, entry in enumerate(value):
        weapon = _weapon(checker, entry, f"{path}[{index}]", seen)
        if weapon is not None:
            result.append(weapon)
    return result


def _weapon(checker: ImportChecker, entry: Any, path: str, seen: dict[str, str]) -> Weapon | None:
    """One weapon; `seen` (name key -> its path) finds a name written twice."""
    before = len(checker.problems)
    data = checker.obj(entry, path, WEAPON_FIELDS)
    if data is None:
        return None
    texts: dict[str, str] = {}
    for key in ("name", "attribute", "skill"):
        if key not in data:
            checker.problem(f"{path}.{key}", MISSING)
            continue
        problem = name_problem(data[key])
        if problem:
            checker.problem(f"{path}.{key}", problem)
        else:
            texts[key] = normal_text(data[key])
    if "base" not in data:
        checker.problem(f"{path}.base", MISSING)
    else:
        problem = int_problem(data["base"], BASE_MIN, BASE_MAX)
        if problem:
            checker.problem(f"{path}.base", problem)
    kind = data.get("kind", DamageKind.LETHAL.value)
    if kind not in DAMAGE_KINDS:
        checker.problem(
            f"{path}.kind",
            N_("use {kinds}, not {kind}"),
            kinds=", ".join(DAMAGE_KINDS),
            kind=repr(kind),
        )
    name = texts.get("name")
    if name is not None:
        if name.casefold() in seen:
            checker.problem(
                f"{path}.name", ALREADY_USED, name=repr(name), path=seen[name.casefold()]
            )
        else:
            seen[name.casefold()] = path
    if len(checker.problems) > before:
        return None
    return Weapon(texts["name"], data["base"], texts["attribute"], texts["skill"], kind)
