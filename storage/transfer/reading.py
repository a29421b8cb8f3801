"""An import file's raw input read into JSON, within its limits: its size, its number of
objects, numbers no longer than any allowed value, and no key written twice unnoticed."""

from __future__ import annotations

import json
from typing import Any

from storage.transfer.checker import ImportChecker
from storage.transfer.format import (
    LONGEST_NUMBER,
    MAX_IMPORT_BYTES,
    MAX_IMPORT_CHARACTERS,
    MAX_IMPORT_OBJECTS,
)
from storage.validation import Count, LongNumber, NotANumber
from wire.i18n import N_


def _whole_number(text: str) -> int | LongNumber:
    digits = len(text) - text.startswith("-")
    return LongNumber(digits) if digits > LONGEST_NUMBER else int(text)


def _fraction(text: str) -> float | LongNumber:
    # No fraction is ever valid; a long one is measured for the message, never converted.
    if len(text) > 40:
        return LongNumber(sum(ch.isdigit() for ch in text))
    return float(text)


class _JsonObject(dict):
    """A parsed JSON object that remembers keys written twice (json keeps only the last)."""

    repeated: list[str]


def _object_pairs(pairs: list[tuple[str, Any]]) -> _JsonObject:
    result = _JsonObject()
    result.repeated = []
    for key, value in pairs:
        if key in result:
            result.repeated.append(key)
        result[key] = value
    return result


class _TooManyObjects(Exception):
    """Raised from inside json.loads, which is the only way to stop it early."""


def load(checker: ImportChecker, data: dict[str, Any] | bytes | str) -> Any:
    """The parsed document, or None with the problem reported (a limit passed stops)."""
    if isinstance(data, dict):
        try:
            size = len(json.dumps(data, ensure_ascii=False).encode())
        except (TypeError, ValueError) as exc:
            checker.problem("input", N_("not JSON data ({error})"), error=str(exc))
            return None
        _too_big(checker, size)
        return data
    if isinstance(data, str):
        data = data.encode()
    if not isinstance(data, bytes | bytearray):
        checker.problem("input", N_("expected JSON text, got {type}"), type=type(data).__name__)
        return None
    _too_big(checker, len(data))
    try:
        text = bytes(data).decode("utf-8-sig")
    except UnicodeDecodeError:
        checker.problem("input", N_("not UTF-8 text; save the file as UTF-8"))
        return None
    return _parse(checker, text)


def _parse(checker: ImportChecker, text: str) -> Any:
    objects = 0

    def counted_object(pairs: list[tuple[str, Any]]) -> _JsonObject:
        nonlocal objects
        objects += 1
        if objects > MAX_IMPORT_OBJECTS:
            raise _TooManyObjects
        return _object_pairs(pairs)

    try:
        return json.loads(
            text,
            object_pairs_hook=counted_object,
            parse_int=_whole_number,
            parse_float=_fraction,
            parse_constant=NotANumber,
        )
    except _TooManyObjects:
        checker.limit(
            "input",
            N_(
                "more than {objects} JSON objects, more than {characters} characters can "
                "hold; is this a WIRE bot export?"
            ),
            objects=Count(MAX_IMPORT_OBJECTS),
            characters=Count(MAX_IMPORT_CHARACTERS),
        )
    except json.JSONDecodeError as exc:
        checker.problem(
            "input",
            N_("not valid JSON ({error} at line {line}, column {column})"),
            error=exc.msg,
            line=exc.lineno,
            column=exc.colno,
        )
        return None
    except RecursionError:
        checker.problem("input", N_("nested too deeply"))
        return None


def _too_big(checker: ImportChecker, size: int) -> None:
    if size > MAX_IMPORT_BYTES:
        checker.limit(
            "input",
            N_("{size} bytes is over the limit of 1 MiB ({limit})"),
            size=Count(size),
            limit=Count(MAX_IMPORT_BYTES),
        )
