"""A sheet's saved rolls in an import file: each a name, the command /r runs again with its
options, and a label."""

from __future__ import annotations

from typing import Any

from storage.transfer.format import COMMAND_FIELDS, MAX_SAVED_OPTIONS, MAX_SAVED_ROLLS, SAVED_FIELDS
from storage.transfer.plan import SavedData
from storage.transfer.problems import (
    ALREADY_USED,
    EXPECTED_LIST,
    MISSING,
    OVER_LIMIT,
    Checker,
    show_key,
)
from storage.validation import name_problem, type_name
from wire.i18n import N_
from wire.textcheck import normal_text


def check_saved_rolls(checker: Checker, value: Any, path: str) -> tuple[SavedData, ...]:
    if not isinstance(value, list):
        checker.problem(path, EXPECTED_LIST, type=type_name(value))
        return ()
    if len(value) > MAX_SAVED_ROLLS:
        checker.limit(path, OVER_LIMIT, n=len(value), limit=MAX_SAVED_ROLLS)
        return ()
    found: list[SavedData] = []
    seen: dict[str, str] = {}
    for index, entry in enumerate(value):
        where = f"{path}[{index}]"
        data = checker.obj(entry, where, SAVED_FIELDS)
        if data is None:
            continue
        name = data.get("name")
        problem = name_problem(name) if "name" in data else None
        if "name" not in data:
            checker.problem(f"{where}.name", MISSING)
            continue
        if problem:
            checker.problem(f"{where}.name", problem)
            continue
        key = normal_text(name).casefold()
        if key in seen:
            checker.problem(f"{where}.name", ALREADY_USED, name=repr(name), path=seen[key])
            continue
        seen[key] = f"{where}.name"
        label = data.get("label", "")
        problem = name_problem(label) if label != "" else None
        if problem:
            checker.problem(f"{where}.label", problem)
            continue
        command = _command(checker, data.get("command"), f"{where}.command")
        if command is not None:
            found.append(SavedData(normal_text(name), command, normal_text(label)))
    return tuple(found)


def _command(checker: Checker, value: Any, path: str) -> dict[str, Any] | None:
    data = checker.obj(value, path, COMMAND_FIELDS)
    if data is None:
        return None
    problem = name_problem(data.get("name")) if "name" in data else None
    if "name" not in data or problem:
        checker.problem(f"{path}.name", problem or MISSING)
        return None
    options = checker.obj(
        data.get("options", {}), f"{path}.options", tuple(data.get("options") or {})
    )
    if options is None:
        return None
    if len(options) > MAX_SAVED_OPTIONS:
        checker.limit(f"{path}.options", OVER_LIMIT, n=len(options), limit=MAX_SAVED_OPTIONS)
        return None
    clean: dict[str, Any] = {}
    for key, option in options.items():
        where = f"{path}.options.{show_key(key)}"
        if isinstance(option, bool) or (isinstance(option, int) and abs(option) < 1000):
            clean[key] = option
        elif isinstance(option, str) and name_problem(option) is None:
            clean[key] = normal_text(option)
        else:
            checker.problem(where, N_("expected a name, a whole number or true/false"))
            return None
        if name_problem(key) is not None:
            checker.problem(where, N_("not an option name"))
            return None
    return {"name": normal_text(data["name"]), "options": clean}
