"""`python -m wire cost`: CP prices from a terminal, a step's or an exported sheet's.

Kept apart from wire/cli.py's dice commands. The export file is read by the rules core's one
reader of the format (wire/sheet_file.py, as `check --sheet` reads it, versions 1 and 2); from it
pricing takes each sheet's name, skills and attributes, and the campaign's skill categories,
attribute price and species where the file carries them.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from wire import advancement as adv
from wire.advancement_text import step_json, step_line, worth_json, worth_lines
from wire.errors import RulesError
from wire.i18n import tr
from wire.sheet_file import read_export, sheets_of_document


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
    cost.add_argument(
        "--from", dest="start", type=int, default=0, metavar="N", help="the level now (default 0)"
    )
    cost.add_argument("--to", dest="end", type=int, metavar="N", help="the level to reach")
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
    for sheet in sheets_of_document(document):
        worth = adv.sheet_worth(
            sheet.skills,
            sheet.attributes,
            known,
            attribute_price,
            species.get(sheet.name.casefold()),
            costs,
        )
        lines += worth_lines(sheet.name, worth)
        sheets.append(worth_json(sheet.name, worth))
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
