"""`python -m wire stats FILE`: the statistics and luck of exported rolls, offline.

The bot's campaign export (storage/transfer/) holds no roll log, so this reads the CSV that
`/stats csv:true` attaches (wire/stats_csv.py): the same numbers, sentence and chart as the bot's
reply, in English or (--lang de) German, or as JSON (--json); --chart PNG writes the picture.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from wire.errors import RulesError
from wire.i18n import tr
from wire.stats import summarise
from wire.stats_csv import BadCsv, read_rolls_csv
from wire.stats_text import luck_sentence, stats_chart, stats_fields, stats_json

MAX_CSV_BYTES = 16 * 1024 * 1024
"""Four times the largest export the bot attaches (storage/rules_stats.py CSV_ROWS_MAX)."""


def add_stats_parser(sub: Any) -> None:
    stats = sub.add_parser(
        "stats",
        help="statistics and luck of the rolls in a CSV from /stats csv:true",
        epilog="the campaign export holds no rolls: give the CSV /stats csv:true attaches",
    )
    stats.add_argument("file", type=Path, metavar="FILE", help="a CSV from /stats csv:true")
    stats.add_argument("--who", default="", help="whose rolls, for the sentence (default: none)")
    stats.add_argument("--chart", type=Path, metavar="PNG", help="write the chart to this file")
    stats.add_argument("--json", action="store_true", help="print one JSON object")


def run_stats(args: argparse.Namespace) -> tuple[list[str], dict[str, Any]]:
    try:
        data = args.file.read_bytes()[: MAX_CSV_BYTES + 1]
    except OSError as exc:
        raise RulesError(
            tr("Cannot read {path}: {reason}.", path=str(args.file), reason=exc.strerror)
        ) from None
    if len(data) > MAX_CSV_BYTES:
        raise RulesError(tr("{path} is over 16 MiB: not a roll export.", path=str(args.file)))
    try:
        rolls = read_rolls_csv(data.decode("utf-8-sig"))
    except (BadCsv, UnicodeDecodeError) as exc:
        raise RulesError(
            tr("{path} is not a roll export: {problem}", path=str(args.file), problem=str(exc))
        ) from None
    stats = summarise(rolls)
    who = args.who or tr("the table")
    lines = [luck_sentence(who[:1].upper() + who[1:], stats.luck)]
    lines += [f"{name}: {value}" for name, value in stats_fields(stats)]
    if args.chart is not None:
        _write_chart(args.chart, stats_chart(stats, tr("Dice statistics: {who}", who=who)))
        lines.append(tr("Chart written to {path}.", path=str(args.chart)))
    return lines, stats_json(stats)


def _write_chart(path: Path, spec: Any) -> None:
    try:
        from wire.chart import render

        png = render(spec)
    except ImportError:
        raise RulesError(
            tr("--chart needs Pillow: run it with .venv/bin/python (make run installs it).")
        ) from None
    try:
        path.write_bytes(png)
    except OSError as exc:
        raise RulesError(
            tr("Cannot write {path}: {reason}.", path=str(path), reason=exc.strerror)
        ) from None
