"""An import file's problems: where and what, the phrases several checks share, and how a key
or a value is shown inside a problem."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any, Protocol

from storage.validation import Problem
from wire.i18n import N_
from wire.textcheck import TextProblem

# The import's problem phrases used in more than one place (`Checker.problem` takes each as a
# template, with its values as keywords).
MISSING = N_("missing")
WRITTEN_TWICE = N_("written twice; keep one")
EXPECTED_LIST = N_("expected a list, got {type}")
OVER_LIMIT = N_("{n} entries is over the limit of {limit}")
ALREADY_USED = N_("{name} is already used by {path} (names are case-insensitive)")


@dataclass(frozen=True, slots=True)
class ImportProblem:
    """One problem of an import file: where (a JSON field path, "characters[3].name", as it
    is in any language) and what, a template with its values (`Problem`).

    `str()` reads "characters[3].name: missing" in the language in use: English in the worker
    process, the CLI and the logs; the bot shows the list in its user's language. Plain data,
    pickled back from the worker process with the ImportRejected that lists it.
    """

    path: str
    problem: Problem | TextProblem

    def __str__(self) -> str:
        return f"{self.path}: {self.problem}"


class LimitPassed(Exception):
    """A limit was passed: the check ends with the problems found so far."""


def show_key(key: str) -> str:
    """A key as it appears in a problem's path: long ones are cut so the message stays short,
    and invisible or control characters are written as escapes (\\u200b), so the message shows
    where they are and a direction override (U+202E) cannot turn the rest of it around."""
    cut = key if len(key) <= 40 else key[:37] + "..."
    return "".join(
        ch.encode("unicode_escape").decode()
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp")
        else ch
        for ch in cut
    )


def show_value(value: Any) -> str | Problem:
    """A value as a problem quotes it, cut short."""
    if value is None:
        return Problem(N_("nothing"))
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class Checker(Protocol):
    """What a part's checks need of the import's checker (storage/transfer/checker.py): to
    report a problem, to stop at a limit, and an object's known fields checked."""

    def problem(self, path: str, what: Any, /, **params: object) -> None: ...
    def obj(self, value: Any, path: str, fields: tuple[str, ...]) -> dict[str, Any] | None: ...
    def limit(self, path: str, what: str, /, **params: object) -> None: ...


def checked_list(checker: Checker, value: Any, path: str, most: int) -> list[Any]:
    """The list at `path`, or [] with the problem reported; more than `most` entries stops."""
    if not isinstance(value, list):
        checker.problem(path, EXPECTED_LIST, type=type(value).__name__)
        return []
    if len(value) > most:
        checker.limit(path, OVER_LIMIT, n=len(value), limit=most)
    return value
