"""The one reader of the export format for the offline CLI: a character sheet read from an
exported file, for rolling from it (`check --sheet`) or pricing it (`cost --sheet`).

The file is the one `/character export` or `/campaign export` writes (the format is described
in storage/transfer/format.py; storage/transfer/ checks every field before an import is
stored): version 1, or version 2, which is version 1 with character points (the campaign's
prices and the ledger) added, as every export of a table with CP is, version 3, which adds
gear, version 4, which adds a campaign's named conditions and sessions, or version 5, which adds
the conditions on a sheet. This reader takes only what a roll or a price reads off a sheet: the
name, attributes, skills, weapons and shield, each checked against the same ranges
(wire/limits.py), and from version 5 the sheet's conditions, checked as /condition add checks
them (wire/conditions.py): the CLI rolls and prices the numbers the bot does, a roll off a sheet
counting its conditions as the bot's /check and /attack count them outside a fight. The other
fields (notes, health, armour, gear) are left alone. It needs no database and no Discord, so
the rules core keeps its one-way imports.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from wire import limits
from wire.conditions import (
    CONDITION_MODIFIER,
    MAX_CONDITIONS,
    MAX_ROUNDS,
    SAVED_TIMINGS,
    TARGET_NAMES,
    Effect,
    Target,
    Timing,
    check_sheet_condition,
)
from wire.errors import RulesError
from wire.health import DamageKind
from wire.i18n import N_, tr
from wire.sheet import Character, Weapon

FORMAT = "wire-bot"
READ_VERSIONS = (1, 2, 3, 4, 5)
"""The export versions read (storage/transfer/format.py's READ_VERSIONS): 2 is 1 with CP added,
3 is 2 with gear, 4 is 3 with a campaign's named conditions and sessions (which no sheet
holds, so this reader passes them by), 5 is 4 with the conditions on sheets (read: a roll off
the sheet counts them)."""
MAX_FILE_BYTES = 1024 * 1024
"""The largest file the bot imports; a sheet file is far smaller."""


def read_export(path: str | Path) -> dict[str, Any]:
    """The parsed export at `path` (a character's or a campaign's, version 1 to 5), or
    RulesError naming the problem: unreadable, too big, not JSON, not a WIRE export."""
    try:
        raw = Path(path).read_bytes()[: MAX_FILE_BYTES + 1]
    except OSError as exc:
        raise RulesError(
            tr("Cannot read {file}: {error}.", file=str(path), error=exc.strerror)
        ) from None
    if len(raw) > MAX_FILE_BYTES:
        raise RulesError(tr("{file} is over 1 MiB: it is not a sheet export.", file=str(path)))
    try:
        document = json.loads(raw)
    except (ValueError, RecursionError):
        raise RulesError(
            tr("{file} is not JSON: export a sheet with /character export.", file=str(path))
        ) from None
    if (
        not isinstance(document, dict)
        or document.get("format") != FORMAT
        or document.get("version") not in READ_VERSIONS
    ):
        raise RulesError(
            tr(
                "This is not a WIRE sheet export (format wire-bot, version {first} to {last}): "
                "export one with /character export.",
                first=READ_VERSIONS[0],
                last=READ_VERSIONS[-1],
            )
        )
    return document


def read_sheet_file(path: str | Path, character: str | None = None) -> Character:
    """The sheet of a character export, or of the named character of a campaign export (the
    only one when the file holds one), or RulesError naming the problem and where it is."""
    return sheet_of_document(read_export(path), character)


def _raw_sheets(document: dict[str, Any]) -> list[tuple[str, Any]]:
    """(where in the file, the raw sheet) for each sheet of a parsed export."""
    if document.get("kind") == "character":
        return [("character", document.get("character"))]
    sheets = document.get("characters")
    if document.get("kind") != "campaign" or not isinstance(sheets, list):
        raise RulesError(tr("This export holds no character sheet."))
    return [(f"characters[{i}]", data) for i, data in enumerate(sheets)]


def sheets_of_document(document: dict[str, Any]) -> list[Character]:
    """Every sheet a parsed export holds: a character export's one, a campaign's all."""
    return [_character(data, path) for path, data in _raw_sheets(document)]


def entries_of_document(document: dict[str, Any]) -> list[tuple[Character, dict[str, Any]]]:
    """Every sheet a parsed export holds, with its raw entry (for what the sheet does not
    carry, such as its gear: `python -m wire load`)."""
    return [
        (_character(data, path), data if isinstance(data, dict) else {})
        for path, data in _raw_sheets(document)
    ]


def sheet_of_document(document: dict[str, Any], character: str | None = None) -> Character:
    """The sheet a parsed export holds (see `read_sheet_file`)."""
    raw = _raw_sheets(document)
    named = [
        (path, data)
        for path, data in raw
        if character is None
        or (isinstance(data, dict) and str(data.get("name", "")).casefold() == character.casefold())
    ]
    if character is not None and not named:
        raise RulesError(tr("This export has no character named {name}.", name=character))
    if len(named) != 1:
        raise RulesError(
            tr("This export holds {count} characters: name one with --character.", count=len(named))
        )
    ((path, data),) = named
    return _character(data, path)


def _problem(path: str, problem: str, **params: object) -> RulesError:
    return RulesError(tr("{path}: {problem}", path=path, problem=tr(problem, **params)))


def _text(value: Any, path: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _problem(path, N_("expected a name"))
    return value


def _number(value: Any, path: str, limit: limits.Limit) -> int:
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or not (limit.low <= value <= limit.high)
    ):
        raise _problem(
            path, N_("expected a whole number from {low} to {high}"), low=limit.low, high=limit.high
        )
    return value


def _stats(value: Any, path: str, limit: limits.Limit) -> dict[str, int]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _problem(path, N_("expected an object of names and numbers"))
    return {_text(k, path): _number(v, f"{path}.{k}", limit) for k, v in value.items()}


def _weapon(value: Any, path: str) -> Weapon:
    if not isinstance(value, dict):
        raise _problem(path, N_("expected an object of names and numbers"))
    kind = value.get("kind", DamageKind.LETHAL.value)
    if kind not in {k.value for k in DamageKind}:
        raise _problem(f"{path}.kind", N_("expected lethal, non-lethal or mental"))
    return Weapon(
        name=_text(value.get("name"), f"{path}.name"),
        base=_number(value.get("base"), f"{path}.base", limits.BASE),
        attribute=_text(value.get("attribute"), f"{path}.attribute"),
        skill=_text(value.get("skill"), f"{path}.skill"),
        kind=kind,
    )


def _character(value: Any, path: str) -> Character:
    if not isinstance(value, dict):
        raise _problem(path, N_("expected a character sheet"))
    weapons = value.get("weapons") or []
    if not isinstance(weapons, list):
        raise _problem(f"{path}.weapons", N_("expected a list of weapons"))
    shield = value.get("shield", False)
    if not isinstance(shield, bool):
        raise _problem(f"{path}.shield", N_("expected true or false"))
    return Character(
        name=_text(value.get("name"), f"{path}.name"),
        is_npc=value.get("is_npc") is True,
        attributes=_stats(value.get("attributes"), f"{path}.attributes", limits.ATTRIBUTE),
        skills=_stats(value.get("skills"), f"{path}.skills", limits.SKILL),
        weapons=tuple(_weapon(w, f"{path}.weapons[{i}]") for i, w in enumerate(weapons)),
        shield=shield,
        conditions=_conditions(value.get("conditions"), f"{path}.conditions"),
    )


_ROUNDS = limits.Limit(N_("a condition's rounds"), 1, MAX_ROUNDS)


def _conditions(value: Any, path: str) -> tuple[Effect, ...]:
    """A sheet's conditions (version 5), as storage/transfer/conditions.py writes them, each
    checked as /condition add checks one, so a hand-edited file rolls nothing the bot would
    refuse. A hidden one counts like the others and is named: whoever holds the file reads it."""
    if value is None:
        return ()
    if not isinstance(value, list) or len(value) > MAX_CONDITIONS:
        raise _problem(
            path, N_("expected a list of at most {most} conditions"), most=MAX_CONDITIONS
        )
    return tuple(_condition(entry, f"{path}[{i}]", i + 1) for i, entry in enumerate(value))


def _condition(value: Any, path: str, number: int) -> Effect:
    if not isinstance(value, dict):
        raise _problem(path, N_("expected a condition: a name, a modifier, what it applies to"))
    applies_to = value.get("applies_to", Target.ALL.value)
    if applies_to not in TARGET_NAMES:
        raise _problem(
            f"{path}.applies_to", N_("expected one of {values}"), values=", ".join(TARGET_NAMES)
        )
    timing = value.get("timing", Timing.END.value)
    if timing not in SAVED_TIMINGS:
        raise _problem(
            f"{path}.timing", N_("expected one of {values}"), values=", ".join(SAVED_TIMINGS)
        )
    rounds, stat = value.get("rounds"), value.get("stat")
    effect = Effect(
        id=number,
        name=_text(value.get("name"), f"{path}.name"),
        rounds_left=None if rounds is None else _number(rounds, f"{path}.rounds", _ROUNDS),
        modifier=_number(value.get("modifier", 0), f"{path}.modifier", CONDITION_MODIFIER),
        applies_to=Target(applies_to),
        stat=None if stat is None else _text(stat, f"{path}.stat"),
        timing=Timing(timing),
    )
    try:
        return check_sheet_condition(effect)
    except RulesError as exc:
        raise RulesError(tr("{path}: {problem}", path=path, problem=str(exc))) from None
