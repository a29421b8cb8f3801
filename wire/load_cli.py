"""`python -m wire load --sheet FILE`: an exported sheet's carried load against its maximum.

Kept apart from wire/cli.py's dice commands, as `cost` is; it reads the export itself (the rules
core imports no storage): each sheet's Strength and Resolve (German names too) and the items of
its "gear" (format version 3, storage/transfer/gear.py), and applies the weight rule of
wire/gear.py: maximum load = (Strength + Resolve) x 2 kg, maximum lift x 10 kg.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from wire.errors import RulesError
from wire.gear import MAX_QUANTITY, MAX_WEIGHT_G, Item, load_of
from wire.i18n import tr
from wire.sheet import Character
from wire.sheet_file import entries_of_document, read_export


def add_load_parser(sub: Any) -> None:
    load = sub.add_parser(
        "load",
        help="an exported sheet's carried load against (Strength + Resolve) x 2 kg",
    )
    load.add_argument(
        "--sheet", type=Path, metavar="FILE", required=True, help="a /character export file"
    )
    load.add_argument("--character", metavar="NAME", help="one character of a campaign file")
    load.add_argument("--json", action="store_true", help="print one JSON object")


def _items(sheet: Character, entry: dict[str, Any]) -> list[Item]:
    gear = entry.get("gear") or {}
    raw = gear.get("items") if isinstance(gear, dict) else None
    items = []
    for entry in raw if isinstance(raw, list) else []:
        quantity, grams = entry.get("quantity", 1), entry.get("grams", 0)
        numbers = (quantity, grams)
        if not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers) or not (
            0 <= quantity <= MAX_QUANTITY and 0 <= grams <= MAX_WEIGHT_G
        ):
            raise RulesError(
                tr("{name}'s items have weights that are not whole grams.", name=sheet.name)
            )
        items.append(
            Item(
                str(entry.get("name", "")),
                quantity,
                grams,
                "",
                entry.get("carried", True) is not False,
            )
        )
    return items


def run_load(args: argparse.Namespace) -> tuple[list[str], dict[str, Any]]:
    sheets = entries_of_document(read_export(args.sheet))
    if args.character:
        sheets = [s for s in sheets if s[0].name.casefold() == args.character.casefold()]
        if not sheets:
            raise RulesError(tr("This export has no character named {name}.", name=args.character))
    lines, found = [], []
    for sheet, entry in sheets:
        load = load_of(sheet.attributes, _items(sheet, entry))
        lines.append(f"{sheet.name}: {load.line()}")
        found.append(
            {
                "name": sheet.name,
                "carried_g": load.carried_g,
                "max_load_g": load.max_load_g,
                "max_lift_g": load.max_lift_g,
                "over": load.over,
            }
        )
    return lines, {"sheets": found}
