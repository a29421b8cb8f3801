"""`python -m wire cost`: CP prices from a terminal, a step's or an exported sheet's.

Kept apart from wire/cli.py's dice commands; it reads an export file itself (the rules core
imports no storage), taking only what pricing needs: each sheet's name, skills and attributes,
and the campaign's skill categories and attribute price where the file carries them.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from wire import advancement as adv
from wire.advancement_text import step_json, step_line, worth_json, worth_lines
from wire.errors import RulesError
from wire.i18n import tr

MAX_SHEET_BYTES = 1024 * 1024
"""The size limit of an import file (storage/transfer.py), for the same reason."""


def add_cost_parser(sub: Any) -> None:
    cost = sub.add_parser(
        "cost",
        help="CP: a skill step's price, or what an exported sheet is worth",
        epilog="categories: combat and action (step to n costs 5n), knowledge and language "
        "(2n); levels 0..10",
    )
    what = cost.add_mutually_exclusive_group(required=True)
    what.add_argument("--category", help="the skill's category (with --from and --to)")
    what.add_argument("--sheet", type=Path, metavar="FILE", help="an exported sheet or campaign")
    cost.add_argument("--from", dest="start", type=int, default=0, metavar="N")
    cost.add_argument("--to", dest="end", type=int, metavar="N")
    cost.add_argument(
        "--skill-category",
        action="append",
        default=[],
        metavar="SKILL=CATEGORY",
        help="a skill's category, over the file's (repeatable)",
    )
    cost.add_argument(
        "--attribute-price", type=int, metavar="CP", help="CP per attribute point (default: none)"
    )
    cost.add_argument("--json", action="store_true", help="print one JSON object")


def run_cost(args: argparse.Namespace) -> tuple[list[str], dict[str, Any]]:
    if args.sheet is None:
        if args.end is None:
            raise RulesError(tr("--category needs --to (the level to reach)."))
        category = adv.category_of(args.category)
        cost = adv.step_cost(category, args.start, args.end)
        return [step_line(category, args.start, args.end, cost)], step_json(
            category, args.start, args.end, cost
        )
    document = read_export(args.sheet)
    campaign = document.get("campaign") if isinstance(document.get("campaign"), dict) else {}
    categories: dict[str, Any] = dict(campaign.get("skill_categories") or {})
    for pair in args.skill_category:
        name, sep, category = pair.partition("=")
        if not sep or not name.strip():
            raise RulesError(tr("--skill-category takes SKILL=CATEGORY, not {pair}.", pair=pair))
        categories[name.strip()] = adv.category_of(category)
    try:
        known = {name: adv.category_of(str(value)) for name, value in categories.items()}
    except RulesError as exc:
        raise RulesError(tr("The file's skill categories: {problem}", problem=exc)) from None
    price = args.attribute_price
    if price is None and isinstance(campaign.get("attribute_price"), int):
        price = campaign["attribute_price"]
    attribute_price = adv.AttributePrice(price)
    costs, species = _species(campaign)
    lines: list[str] = []
    sheets = []
    for sheet in export_sheets(document):
        worth = adv.sheet_worth(
            sheet["skills"],
            sheet["attributes"],
            known,
            attribute_price,
            species.get(sheet["name"].casefold()),
            costs,
        )
        lines += worth_lines(sheet["name"], worth)
        sheets.append(worth_json(sheet["name"], worth))
    return lines, {"sheets": sheets}


def _species(campaign: dict[str, Any]) -> tuple[dict[str, int], dict[str, str]]:
    """The file's species costs and each character's species (by name, any case); what is
    not of the right shape is left out, so that sheet's species shows as not priced."""
    raw_costs = campaign.get("species_costs")
    raw_named = campaign.get("character_species")
    costs = {
        str(name): cost
        for name, cost in (raw_costs.items() if isinstance(raw_costs, dict) else ())
        if isinstance(cost, int) and not isinstance(cost, bool) and cost >= 0
    }
    named = {
        str(name).casefold(): species
        for name, species in (raw_named.items() if isinstance(raw_named, dict) else ())
        if isinstance(species, str) and species
    }
    return costs, named


def read_export(path: Path) -> dict[str, Any]:
    """An export file's JSON object, refused clearly when it is none (`cost`, `load`)."""
    try:
        data = path.read_bytes()[: MAX_SHEET_BYTES + 1]
    except OSError as exc:
        raise RulesError(
            tr("Cannot read {path}: {reason}.", path=str(path), reason=exc.strerror)
        ) from None
    if len(data) > MAX_SHEET_BYTES:
        raise RulesError(tr("{path} is over 1 MiB: not an export.", path=str(path)))
    try:
        document = json.loads(data)
    except (ValueError, RecursionError):
        raise RulesError(
            tr("{path} is not JSON: give a file /character export made.", path=str(path))
        ) from None
    if not isinstance(document, dict):
        raise RulesError(tr("{path} is not an export of this bot.", path=str(path)))
    return document


def export_sheets(document: dict[str, Any]) -> list[dict[str, Any]]:
    """Each sheet's name, skills and attributes (checked whole numbers), and its raw entry."""
    if isinstance(document.get("character"), dict):
        raw = [document["character"]]
    elif isinstance(document.get("characters"), list):
        raw = document["characters"]
    else:
        raise RulesError(tr("The file holds no character: give a file /character export made."))
    sheets = []
    for item in raw:
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise RulesError(tr("A character in the file has no name."))
        stats = {}
        for kind in ("skills", "attributes"):
            values = item.get(kind) or {}
            if not isinstance(values, dict) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in values.values()
            ):
                raise RulesError(
                    tr("{name}'s {kind} are not whole numbers.", name=item["name"], kind=kind)
                )
            stats[kind] = values
        sheets.append({"name": item["name"], **stats, "entry": item})
    return sheets
