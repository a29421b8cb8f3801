"""Logged rolls as CSV, one row a roll, and back: for tables who chart in a spreadsheet, and for
`python -m wire stats FILE` offline.

A name is user text: a cell that begins like a formula (=, +, -, @, a tab or a carriage return)
gets a leading apostrophe, so a spreadsheet shows it as text instead of running it; the reader
takes the apostrophe off again, so a file re-reads to the same rolls.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from datetime import datetime

from wire.stats import LoggedRoll, roll_odds

COLUMNS = (
    "when",
    "who",
    "kind",
    "die",
    "die_source",
    "modifiers",
    "total",
    "target",
    "success",
    "degrees",
    "damage",
    "chance",
)
"""The header row; `chance` is the chance of success the roll had (empty without a target)."""

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _text(value: str) -> str:
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def _untext(value: str) -> str:
    return value[1:] if value.startswith("'") and value[1:].startswith(FORMULA_STARTS) else value


def _chance(roll: LoggedRoll) -> str:
    if roll.target is None or roll.die_source == "expression":
        return ""
    return f"{float(roll_odds(roll).chance):.4f}"


def rolls_csv(rolls: Iterable[LoggedRoll]) -> str:
    """The rolls as CSV text with a header row (times in UTC, ISO 8601)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for roll in rolls:
        writer.writerow(
            (
                roll.when.isoformat() if roll.when else "",
                _text(roll.who),
                _text(roll.kind),
                roll.die,
                roll.die_source,
                roll.modifiers,
                roll.total,
                "" if roll.target is None else roll.target,
                int(roll.success),
                roll.degrees,
                "" if roll.damage is None else roll.damage,
                _chance(roll),
            )
        )
    return out.getvalue()


class BadCsv(ValueError):
    """The file is not a roll export of this shape; the message says which line and why."""


def read_rolls_csv(text: str) -> list[LoggedRoll]:
    """The rolls of a CSV written by `rolls_csv` (the `chance` column is recomputed, not read)."""
    reader = csv.DictReader(io.StringIO(text))
    missing = [c for c in COLUMNS if c not in (reader.fieldnames or ())]
    if missing:
        raise BadCsv(f"not a roll export: no column {', '.join(missing)}")
    rolls = []
    for line, row in enumerate(reader, start=2):
        try:
            rolls.append(
                LoggedRoll(
                    kind=_untext(row["kind"]),
                    die=int(row["die"]),
                    die_source=row["die_source"],
                    total=int(row["total"]),
                    target=int(row["target"]) if row["target"] else None,
                    success=row["success"] == "1",
                    degrees=int(row["degrees"]),
                    damage=int(row["damage"]) if row["damage"] else None,
                    when=datetime.fromisoformat(row["when"]) if row["when"] else None,
                    who=_untext(row["who"]),
                )
            )
        except (TypeError, ValueError) as exc:
            raise BadCsv(f"line {line}: {exc}") from None
    return rolls
