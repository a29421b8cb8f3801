"""Gear in export files (format version 3): items, purse and counters, and the currency.

Part of storage/transfer/ (document.py and export.py call these); pure functions, no
database. Version 3 adds, all optional (a version 1 or 2 file is a version 3 file without them,
and still imports; an export without gear is written as before)::

    "campaign": {
      ...,
      "currency": {"coins": ["copper", "silver", "gold"], "rates": [10, 10],
                   "gifts_at_once": false}
    },
    CHARACTER: {
      ...,
      "gear": {
        "items": [{"name": "Rope", "quantity": 2, "grams": 1500, "note": "hemp",
                   "carried": true}],
        "purse": {"balance": 345, "revision": 4},
        "counters": [{"name": "Arrows", "value": 12, "maximum": 20, "reset": "fight",
                      "weapon": "longbow"}]
      }
    }

Weights are whole grams, money whole smallest coins, as the store keeps them. A purse's
`revision` counts its changes when it was exported: an import that would replace a purse the bot
has changed since (its revision is past the file's) is refused, saying so, rather than silently
undoing those changes (docs/gear.md). The purse's ledger stays in the bot; the import writes one
entry for the difference.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from storage.models_gear import NOTE_MAX, GearSettings, Purse
from storage.transfer.problems import Checker, checked_list
from storage.validation import int_problem, name_problem
from wire.errors import RulesError
from wire.gear import (
    MAX_AMOUNT,
    MAX_COUNTER,
    MAX_COUNTERS,
    MAX_ITEMS,
    MAX_QUANTITY,
    MAX_WEIGHT_G,
    Counter,
    Currency,
    Item,
    Reset,
)
from wire.i18n import N_
from wire.textcheck import normal_text, text_problem

GEAR_FIELDS = ("items", "purse", "counters")
ITEM_FIELDS = ("name", "quantity", "grams", "note", "carried")
PURSE_FIELDS = ("balance", "revision")
COUNTER_FIELDS = ("name", "value", "maximum", "reset", "weapon")
CURRENCY_FIELDS = ("coins", "rates", "gifts_at_once")
MAX_REVISION = 10**12
_RESETS = tuple(r.value for r in Reset)


@dataclass(frozen=True, slots=True)
class GearData:
    """A sheet's gear as a file gives it; None where the file says nothing of that part."""

    items: tuple[Item, ...] | None = None
    purse: Purse | None = None
    counters: tuple[tuple[Counter, str | None], ...] | None = None
    """Each counter with the weapon (its name key) it feeds, if any."""


# ---- export ---------------------------------------------------------------------------------
def gear_data(
    items: Sequence[Item], counters: Sequence[tuple[Counter, str | None]], purse: Purse | None
) -> dict[str, Any]:
    """A sheet's "gear", or {} for a sheet without any (it exports as before)."""
    data: dict[str, Any] = {}
    if items:
        data["items"] = [
            {
                "name": i.name,
                "quantity": i.quantity,
                "grams": i.grams,
                **({"note": i.note} if i.note else {}),
                "carried": i.carried,
            }
            for i in items
        ]
    if purse is not None and (purse.balance or purse.revision):
        data["purse"] = {"balance": purse.balance, "revision": purse.revision}
    if counters:
        data["counters"] = [
            {
                "name": c.name,
                "value": c.value,
                "maximum": c.maximum,
                "reset": c.reset.value,
                **({"weapon": weapon} if weapon else {}),
            }
            for c, weapon in counters
        ]
    return data


def currency_data(settings: GearSettings) -> dict[str, Any]:
    """The campaign's "currency", or {} for the default (one coin, gifts wait)."""
    if not settings.currency.names and not settings.gifts_at_once:
        return {}
    return {
        "currency": {
            "coins": list(settings.currency.names),
            "rates": list(settings.currency.rates),
            "gifts_at_once": settings.gifts_at_once,
        }
    }


# ---- import ---------------------------------------------------------------------------------
def _number(checker: Checker, value: Any, path: str, low: int, high: int) -> int | None:
    problem = int_problem(value, low, high)
    if problem:
        checker.problem(path, problem)
        return None
    return int(value)


def _flag(checker: Checker, value: Any, path: str) -> bool | None:
    if not isinstance(value, bool):
        checker.problem(path, N_("expected true or false, got {type}"), type=type(value).__name__)
        return None
    return value


def _name(checker: Checker, data: dict[str, Any], path: str) -> str | None:
    problem = name_problem(data["name"]) if "name" in data else N_("missing")
    if problem:
        checker.problem(f"{path}.name", problem)
        return None
    return normal_text(data["name"])


def check_currency(checker: Checker, value: Any, path: str) -> GearSettings | None:
    data = checker.obj(value, path, CURRENCY_FIELDS)
    if data is None:
        return None
    coins, rates = data.get("coins", []), data.get("rates", [])
    at_once = _flag(checker, data.get("gifts_at_once", False), f"{path}.gifts_at_once")
    if not isinstance(coins, list) or not all(isinstance(c, str) for c in coins):
        checker.problem(f"{path}.coins", N_("expected a list of coin names"))
        return None
    if not isinstance(rates, list) or not all(isinstance(r, int) for r in rates):
        checker.problem(f"{path}.rates", N_("expected a list of whole numbers"))
        return None
    try:
        currency = Currency(tuple(normal_text(c) for c in coins), tuple(rates))
    except RulesError as exc:
        checker.problem(path, N_("not a currency: {reason}"), reason=str(exc))
        return None
    return GearSettings(currency, bool(at_once)) if at_once is not None else None


def check_gear(checker: Checker, value: Any, path: str) -> GearData | None:
    data = checker.obj(value, path, GEAR_FIELDS)
    if data is None:
        return None
    items = _items(checker, data["items"], f"{path}.items") if "items" in data else None
    purse = _purse(checker, data["purse"], f"{path}.purse") if "purse" in data else None
    counters = (
        _counters(checker, data["counters"], f"{path}.counters") if "counters" in data else None
    )
    return GearData(items, purse, counters)


def _named_entries(
    checker: Checker, value: Any, path: str, most: int, fields: tuple[str, ...]
) -> Iterator[tuple[str, dict[str, Any], str]]:
    """(path, object, name) of each entry of a list of named objects, each name once; the
    problems of the others reported."""
    seen: set[str] = set()
    for index, entry in enumerate(checked_list(checker, value, path, most)):
        where = f"{path}[{index}]"
        data = checker.obj(entry, where, fields)
        if data is None or (name := _name(checker, data, where)) is None:
            continue
        if name.casefold() in seen:
            checker.problem(f"{where}.name", N_("written twice; keep one"))
            continue
        seen.add(name.casefold())
        yield where, data, name


def _items(checker: Checker, value: Any, path: str) -> tuple[Item, ...]:
    found: list[Item] = []
    for where, data, name in _named_entries(checker, value, path, MAX_ITEMS, ITEM_FIELDS):
        quantity = _number(checker, data.get("quantity", 1), f"{where}.quantity", 1, MAX_QUANTITY)
        grams = _number(checker, data.get("grams", 0), f"{where}.grams", 0, MAX_WEIGHT_G)
        carried = _flag(checker, data.get("carried", True), f"{where}.carried")
        note = data.get("note", "")
        problem = text_problem(note, NOTE_MAX, empty_ok=True) if isinstance(note, str) else None
        if not isinstance(note, str) or problem:
            checker.problem(f"{where}.note", problem or N_("expected text"))
            continue
        if quantity is None or grams is None or carried is None:
            continue
        found.append(Item(name, quantity, grams, normal_text(note), carried))
    return tuple(found)


def _purse(checker: Checker, value: Any, path: str) -> Purse | None:
    data = checker.obj(value, path, PURSE_FIELDS)
    if data is None:
        return None
    balance = _number(checker, data.get("balance", 0), f"{path}.balance", 0, MAX_AMOUNT)
    revision = _number(checker, data.get("revision", 0), f"{path}.revision", 0, MAX_REVISION)
    if balance is None or revision is None:
        return None
    return Purse(balance, revision)


def _counters(checker: Checker, value: Any, path: str) -> tuple[tuple[Counter, str | None], ...]:
    found: list[tuple[Counter, str | None]] = []
    for where, data, name in _named_entries(checker, value, path, MAX_COUNTERS, COUNTER_FIELDS):
        most = _number(checker, data.get("maximum"), f"{where}.maximum", 1, MAX_COUNTER)
        if most is None:
            continue
        now = _number(checker, data.get("value", most), f"{where}.value", 0, most)
        reset = data.get("reset", Reset.GM.value)
        if reset not in _RESETS:
            checker.problem(f"{where}.reset", N_("expected gm, fight or session"))
            continue
        weapon = data.get("weapon")
        if weapon is not None and name_problem(weapon):
            checker.problem(f"{where}.weapon", name_problem(weapon))
            continue
        if now is None:
            continue
        weapon_key = normal_text(weapon).casefold() if weapon else None
        found.append((Counter(name, now, most, Reset(reset)), weapon_key))
    return tuple(found)
