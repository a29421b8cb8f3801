"""Conditions in export files: a campaign's named conditions (format version 4), as /condition
save keeps them (storage/rules_conditions.py), and the conditions on a sheet (version 5), as
/condition add puts them on a character outside a fight (storage/rules_sheet_conditions.py)::

    "campaign": {
      ...,
      "conditions": [
        {"name": "Prone", "modifier": -2, "applies_to": "defence"},
        {"name": "Blessed", "modifier": 1, "applies_to": "attack", "rounds": 3,
         "timing": "start"},
        {"name": "Shaken", "modifier": -1, "applies_to": "check", "stat": "Resolve"}
      ]
    }
    "characters": [{"name": "Ash", ..., "conditions": [
        {"name": "Cursed", "modifier": -1, "hidden": true}
    ]}]

`applies_to` is one of wire.conditions.Target's values; `stat` goes with "check" only;
`rounds` 1..100 (absent: until removed); `timing` "end" (the default) or "start" of the
bearer's turn. A campaign's: at most 25, each name once; an import keeps each (one of the same
name is replaced, as /condition save does). A sheet's: at most 10 (wire.conditions'
MAX_CONDITIONS), a name may come twice (a sheet may bear two of a name), and `hidden` (default
false) marks one the GMs hid. A sheet's rounds are the ones it was given: they count down only
on its combatant in a fight, so the sheet's own never move.

Hidden ones are the GMs' secret: only a file no one but a GM reads holds them (a campaign's
export, an NPC's), never a player's export of their character. Conditions on combatants stay
with their fights, which are not exported.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from storage.transfer.format import MAX_IMPORT_CONDITIONS
from storage.transfer.problems import ALREADY_USED, MISSING, Checker, checked_list
from storage.validation import int_problem, name_problem, type_name
from wire.conditions import (
    CONDITION_MODIFIER,
    MAX_CONDITIONS,
    MAX_ROUNDS,
    NAME_MAX,
    SAVED_TIMINGS,
    TARGET_NAMES,
    Effect,
    Target,
    Timing,
)
from wire.i18n import N_
from wire.textcheck import normal_text

CONDITION_FIELDS = ("name", "modifier", "applies_to", "stat", "rounds", "timing")
SHEET_CONDITION_FIELDS = (*CONDITION_FIELDS, "hidden")


# ---- export ---------------------------------------------------------------------------------
def condition_data(condition: Effect) -> dict[str, Any]:
    """A condition as a file holds it: what is at its default left out."""
    data: dict[str, Any] = {
        "name": condition.name,
        "modifier": condition.modifier,
        "applies_to": condition.applies_to.value,
    }
    if condition.stat:
        data["stat"] = condition.stat
    if condition.rounds_left is not None:
        data["rounds"] = condition.rounds_left
    if condition.timing is not Timing.END:
        data["timing"] = condition.timing.value
    if condition.hidden:
        data["hidden"] = True
    return data


def condition_list(conditions: Sequence[Effect]) -> list[dict[str, Any]]:
    return [condition_data(c) for c in conditions]


def sheet_condition_list(conditions: Sequence[Effect], *, hidden: bool) -> list[dict[str, Any]]:
    """A sheet's conditions as its entry holds them; the hidden ones only with `hidden`, which
    the caller gives where no one but a GM reads the file."""
    return condition_list([c for c in conditions if hidden or not c.hidden])


# ---- import ---------------------------------------------------------------------------------
def check_conditions(checker: Checker, value: Any, path: str) -> tuple[Effect, ...]:
    """A campaign's named conditions at `path`, each checked and each name once."""
    return _conditions(checker, value, path, MAX_IMPORT_CONDITIONS, CONDITION_FIELDS)


def check_sheet_conditions(checker: Checker, value: Any, path: str) -> tuple[Effect, ...]:
    """A sheet's conditions at `path`, each checked, at most MAX_CONDITIONS; a name may come
    twice, as a sheet may bear two of one name."""
    return _conditions(checker, value, path, MAX_CONDITIONS, SHEET_CONDITION_FIELDS)


def _conditions(
    checker: Checker, value: Any, path: str, most: int, fields: tuple[str, ...]
) -> tuple[Effect, ...]:
    found: list[Effect] = []
    seen: dict[str, str] = {}
    unique = "hidden" not in fields  # a campaign's named conditions, not a sheet's
    for index, entry in enumerate(checked_list(checker, value, path, most)):
        where = f"{path}[{index}]"
        condition = _condition(checker, entry, where, fields)
        if condition is None:
            continue
        key = condition.name.casefold()
        if unique and key in seen:
            checker.problem(
                f"{where}.name", ALREADY_USED, name=repr(condition.name), path=seen[key]
            )
            continue
        seen.setdefault(key, f"{where}.name")
        found.append(condition)
    return tuple(found)


def _condition(checker: Checker, value: Any, path: str, fields: tuple[str, ...]) -> Effect | None:
    data = checker.obj(value, path, fields)
    if data is None:
        return None
    problems = len(getattr(checker, "problems", []))
    name = _short_name(checker, data.get("name"), f"{path}.name", required=True)
    modifier = data.get("modifier", 0)
    if problem := int_problem(modifier, CONDITION_MODIFIER.low, CONDITION_MODIFIER.high):
        checker.problem(f"{path}.modifier", problem)
    applies_to = data.get("applies_to", Target.ALL.value)
    if applies_to not in TARGET_NAMES:
        checker.problem(
            f"{path}.applies_to", N_("expected one of {values}"), values=", ".join(TARGET_NAMES)
        )
    stat = _short_name(checker, data.get("stat"), f"{path}.stat", required=False)
    if stat is not None and applies_to != Target.CHECK.value:
        checker.problem(f"{path}.stat", N_("a stat goes with applies_to check only"))
    rounds = data.get("rounds")
    if rounds is not None and (problem := int_problem(rounds, 1, MAX_ROUNDS)):
        checker.problem(f"{path}.rounds", problem)
    timing = data.get("timing", Timing.END.value)
    if timing not in SAVED_TIMINGS:
        checker.problem(f"{path}.timing", N_("expected end or start"))
    hidden = data.get("hidden", False)
    if not isinstance(hidden, bool):
        checker.problem(
            f"{path}.hidden", N_("expected true or false, got {type}"), type=type_name(hidden)
        )
    if len(getattr(checker, "problems", [])) > problems or name is None:
        return None
    return Effect(
        0, name, rounds, modifier, Target(applies_to), stat, Timing(timing), hidden=hidden
    )


def _short_name(checker: Checker, value: Any, path: str, *, required: bool) -> str | None:
    """A condition's or a stat's name: a name of at most NAME_MAX characters."""
    if value is None:
        if required:
            checker.problem(path, MISSING)
        return None
    problem = name_problem(value)
    if problem is None and len(normal_text(value)) > NAME_MAX:
        checker.problem(path, N_("at most {most} characters"), most=NAME_MAX)
        return None
    if problem:
        checker.problem(path, problem)
        return None
    return normal_text(value)


# ---- a sheet's conditions replaced ----------------------------------------------------------
def _same(condition: Effect) -> tuple[Any, ...]:
    """What makes two conditions the same one (all but the id a database gave it)."""
    c = condition
    return (c.name, c.modifier, c.applies_to, c.stat, c.rounds_left, c.timing, c.hidden)


def condition_changes(
    had: Sequence[Effect], wanted: Sequence[Effect]
) -> tuple[tuple[Effect, ...], tuple[Effect, ...]]:
    """(those of `had` to take off, those of `wanted` to put on) so a sheet bears `wanted`:
    one it bears already stays as it is (its id, its copies in a running fight), so a file
    imported twice changes nothing the second time, and only a real change needs the right to
    change a sheet's conditions."""
    left = list(wanted)
    gone: list[Effect] = []
    for condition in had:
        match = next((w for w in left if _same(w) == _same(condition)), None)
        if match is None:
            gone.append(condition)
        else:
            left.remove(match)
    return tuple(gone), tuple(left)
