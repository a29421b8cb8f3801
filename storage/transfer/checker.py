"""The import's checker: the problems found so far, what the checks of the sheets collect on
the way (saved rolls, gear, conditions), and the checks every part uses (an object's fields,
true/false)."""

from __future__ import annotations

from typing import Any

from storage.transfer.format import MAX_IMPORT_PROBLEMS
from storage.transfer.gear import GearData
from storage.transfer.plan import SavedData
from storage.transfer.problems import (
    WRITTEN_TWICE,
    ImportProblem,
    LimitPassed,
    show_key,
)
from storage.validation import Problem, type_name
from wire.conditions import Effect
from wire.i18n import N_
from wire.textcheck import TextProblem


class ImportChecker:
    """One file's check: every problem up to the first limit passed, where it stops."""

    def __init__(self) -> None:
        self.problems: list[ImportProblem] = []
        self.saved: dict[str, tuple[SavedData, ...]] = {}
        """Each sheet's saved rolls, by its name key, where its entry lists them."""
        self.gear: dict[str, GearData] = {}
        """Each sheet's gear, by its name key, where its entry has some (version 3)."""
        self.conditions: dict[str, tuple[Effect, ...]] = {}
        """Each sheet's conditions, by its name key, where its entry lists them (version 5)."""
        self.version = 0

    def problem(self, path: str, what: str | Problem | TextProblem, /, **params: object) -> None:
        """Report a problem at `path`: a template marked with N_ and its values, or a problem
        a validation helper named."""
        problem = Problem(what, params) if isinstance(what, str) else what
        self.problems.append(ImportProblem(path, problem))
        if len(self.problems) >= MAX_IMPORT_PROBLEMS:
            stop = N_("stopped reading after {n} problems; fix these first")
            self.problems.append(ImportProblem("input", Problem(stop, {"n": MAX_IMPORT_PROBLEMS})))
            raise LimitPassed

    def limit(self, path: str, what: str, /, **params: object) -> None:
        """Report a limit passed, and stop reading: what lies past it is not worth checking."""
        self.problem(path, what, **params)
        raise LimitPassed

    def obj(self, value: Any, path: str, fields: tuple[str, ...]) -> dict[str, Any] | None:
        """The object at `path` after reporting unknown and repeated keys; None if no object."""
        if not isinstance(value, dict):
            self.problem(path, N_("expected an object, got {type}"), type=type_name(value))
            return None
        prefix = f"{path}." if path else ""
        for key in getattr(value, "repeated", []):
            self.problem(f"{prefix}{show_key(key)}", WRITTEN_TWICE)
        for key in value:
            if key not in fields:
                self.problem(f"{prefix}{show_key(key)}", N_("unknown field"))
        return value

    def boolean(self, value: Any, path: str) -> bool | None:
        if not isinstance(value, bool):
            self.problem(path, N_("expected true or false, got {type}"), type=type_name(value))
            return None
        return value
