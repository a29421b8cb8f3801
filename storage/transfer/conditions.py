"""Named conditions in export files (format version 4): a campaign's own conditions, as
/condition save keeps them (storage/rules_conditions.py)::

    "campaign": {
      ...,
      "conditions": [
        {"name": "Prone", "modifier": -2, "applies_to": "defence"},
        {"name": "Blessed", "modifier": 1, "applies_to": "attack", "rounds": 3,
         "timing": "start"},
        {"name": "Shaken", "modifier": -1, "applies_to": "check", "stat": "Resolve"}
      ]
    }

`applies_to` is one of wire.conditions.Target's values; `stat` goes with "check" only;
`rounds` 1..100 (absent: until removed); `timing` "end" (the default) or "start" of the
bearer's turn. At most 25, each name once. An import keeps each (one of the same name is
replaced, as /condition save does).

Conditions put on a bearer are a list of the same objects, so a later kind of bearer (a
character outside a fight) is `condition_list` to write and `check_conditions` to read. No
`hidden` flag is written: a bearer's hidden conditions are the GMs' secret, so a caller leaves
them out of any file a player may export. Conditions on combatants stay with their fights, which
are not exported.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from storage.transfer.format import MAX_IMPORT_CONDITIONS
from storage.transfer.problems import ALREADY_USED, MISSING, Checker, checked_list
from storage.validation import int_problem, name_problem
from wire.conditions import CONDITION_MODIFIER, MAX_ROUNDS, NAME_MAX, Effect, Target, Timing
from wire.i18n import N_
from wire.textcheck import normal_text

CONDITION_FIELDS = ("name", "modifier", "applies_to", "stat", "rounds", "timing")
_TARGETS = tuple(t.value for t in Target)
_TIMINGS = (Timing.END.value, Timing.START.value)


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
    return data


def condition_list(conditions: Sequence[Effect]) -> list[dict[str, Any]]:
    return [condition_data(c) for c in conditions]


# ---- import ---------------------------------------------------------------------------------
def check_conditions(checker: Checker, value: Any, path: str) -> tuple[Effect, ...]:
    """The list at `path`, each condition checked and each name once."""
    found: list[Effect] = []
    seen: dict[str, str] = {}
    for index, entry in enumerate(checked_list(checker, value, path, MAX_IMPORT_CONDITIONS)):
        where = f"{path}[{index}]"
        condition = _condition(checker, entry, where)
        if condition is None:
            continue
        key = condition.name.casefold()
        if key in seen:
            checker.problem(
                f"{where}.name", ALREADY_USED, name=repr(condition.name), path=seen[key]
            )
            continue
        seen[key] = f"{where}.name"
        found.append(condition)
    return tuple(found)


def _condition(checker: Checker, value: Any, path: str) -> Effect | None:
    data = checker.obj(value, path, CONDITION_FIELDS)
    if data is None:
        return None
    problems = len(getattr(checker, "problems", []))
    name = _short_name(checker, data.get("name"), f"{path}.name", required=True)
    modifier = data.get("modifier", 0)
    if problem := int_problem(modifier, CONDITION_MODIFIER.low, CONDITION_MODIFIER.high):
        checker.problem(f"{path}.modifier", problem)
    applies_to = data.get("applies_to", Target.ALL.value)
    if applies_to not in _TARGETS:
        checker.problem(
            f"{path}.applies_to", N_("expected one of {values}"), values=", ".join(_TARGETS)
        )
    stat = _short_name(checker, data.get("stat"), f"{path}.stat", required=False)
    if stat is not None and applies_to != Target.CHECK.value:
        checker.problem(f"{path}.stat", N_("a stat goes with applies_to check only"))
    rounds = data.get("rounds")
    if rounds is not None and (problem := int_problem(rounds, 1, MAX_ROUNDS)):
        checker.problem(f"{path}.rounds", problem)
    timing = data.get("timing", Timing.END.value)
    if timing not in _TIMINGS:
        checker.problem(f"{path}.timing", N_("expected end or start"))
    if len(getattr(checker, "problems", [])) > problems or name is None:
        return None
    return Effect(0, name, rounds, modifier, Target(applies_to), stat, Timing(timing))


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
