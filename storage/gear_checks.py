"""The checks on what a user gives the gear, purse and counter commands, and the row readers:
shared by storage/rules_gear.py, rules_purse.py and rules_counters.py.

Every refusal is an InvalidValue with an English template the bot translates, naming the
bounds, so the user reads what to type instead.
"""

from __future__ import annotations

import json
from typing import Any

from storage.backend import Row, Transaction
from storage.errors import InvalidValue, StorageError
from storage.models_gear import GearSettings, Gift, PurseEntry
from storage.rules_common import name_key
from wire.gear import (
    MAX_AMOUNT,
    MAX_COUNTER,
    MAX_QUANTITY,
    MAX_WEIGHT_G,
    Counter,
    Currency,
    Item,
    Reset,
)
from wire.i18n import N_
from wire.textcheck import normal_text, text_problem

NOTE_PROBLEM = N_("The note {problem}. {fix}")
REASON_PROBLEM = N_("The reason {problem}. {fix}")


def clean_text(value: str, limit: int, template: str) -> str:
    """User text as stored, or InvalidValue naming the problem and the fix."""
    problem = text_problem(value, limit, empty_ok=True)
    if problem:
        raise InvalidValue(template, problem=problem, fix=problem.fix)
    return normal_text(value)


def bounded(value: int, low: int, high: int, template: str) -> int:
    """`value` if it is within low..high, else InvalidValue(template) naming the bounds."""
    if not low <= value <= high:
        raise InvalidValue(template, low=low, limit=high, value=value)
    return value


def quantity(value: int) -> int:
    return bounded(value, 1, MAX_QUANTITY, N_("A quantity is 1 to {limit}, not {value}."))


def amount(value: int) -> int:
    return bounded(value, 1, MAX_AMOUNT, N_("An amount is 1 to {limit}, not {value}."))


def grams(value: int) -> int:
    return bounded(value, 0, MAX_WEIGHT_G, N_("An item weighs 0 to {limit} g, not {value}."))


def maximum(value: int) -> int:
    return bounded(value, 1, MAX_COUNTER, N_("A counter's maximum is 1 to {limit}, not {value}."))


def counter_value(value: int, most: int) -> int:
    return bounded(
        value, 0, most, N_("A counter's value is 0 to its maximum {limit}, not {value}.")
    )


def item_of(row: Row) -> Item:
    name, count, weight, note, carried, item_id = row[:6]
    return Item(name, int(count), int(weight), note, bool(carried), int(item_id))


def counter_of(row: Row) -> Counter:
    name, value, most, reset_on, counter_id = row[:5]
    return Counter(name, int(value), int(most), Reset(reset_on), int(counter_id))


def entry_of(row: Row) -> PurseEntry:
    return PurseEntry(*row)


def gift_of(row: Row) -> Gift:
    return Gift(*row)


def settings_of(row: Row | None) -> GearSettings:
    if row is None:
        return GearSettings()
    coins, rates, at_once = row
    currency = Currency(tuple(json.loads(coins)), tuple(json.loads(rates)))
    return GearSettings(currency, bool(at_once))


async def named_row(
    tx: Transaction, statement: str, campaign_id: int, access: Any, name: str, missing: StorageError
) -> Row:
    """The character's row of that name (an item, a counter), or `missing` raised."""
    where = {"campaign_id": campaign_id, "character_id": access.id, "name_key": name_key(name)}
    rows = await tx.fetch(statement, where)
    if not rows:
        raise missing
    return rows[0]
