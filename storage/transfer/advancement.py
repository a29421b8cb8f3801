"""Character points in export files (format version 2): the campaign's prices and the ledger.

Part of storage/transfer/ (document.py and export.py call these); pure functions, no
database. Version 2 adds, all optional (a version 1 file is a version 2 file without them, and
still imports)::

    "campaign": {
      ...,
      "skill_categories": {"Parry": "combat"},   skill name -> combat/action/knowledge/language
      "attribute_price": 10,                      CP per attribute point, or null: not priced
      "starting_cp": 100,                         a new character's budget, or null: none
      "approval": false,                          improvements wait for a GM
      "species_costs": {"Elf": 20},               species -> its CP (a table setting)
      "character_species": {"Ash": "Elf"}         character -> the species its sheet names
    },
    "ledger": [                                   oldest first
      {"character": "Ash", "kind": "award", "amount": 50, "reason": "Session 3",
       "at": "2026-12-01T20:00:00.000000Z"},
      {"character": "Ash", "kind": "spend", "amount": -45,
       "stat": {"kind": "skill", "name": "Parry", "from": 3, "to": 5}},
      {"character": "Ash", "kind": "undo", "amount": 45, "undoes": 1, ...}
    ]

`undoes` is the index of an earlier entry of the same character in this list. A character
export carries the categories of its own skills (for `python -m wire cost --sheet`) and its
ledger; who made each entry is not exported (the importer is named in the imported ones).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from storage.models_advancement import (
    MAX_AWARD,
    MAX_EARNED,
    MAX_SPECIES,
    REASON_MAX,
    SPECIES_COST_MAX,
    Advancement,
    LedgerEntry,
)
from storage.transfer.problems import Checker
from storage.validation import STAT_RANGES, int_problem, name_problem
from wire.advancement import ATTRIBUTE_PRICE_MAX, Category
from wire.i18n import N_
from wire.textcheck import normal_text, text_problem

ADVANCEMENT_FIELDS = (
    "skill_categories",
    "attribute_price",
    "starting_cp",
    "approval",
    "species_costs",
    "character_species",
)
ENTRY_FIELDS = ("character", "kind", "amount", "reason", "stat", "undoes", "at")
STAT_FIELDS = ("kind", "name", "from", "to")
ENTRY_KINDS = ("award", "spend", "undo", "ready", "correct")
"""A 'ready' entry (a character ready for play) and a 'correct' one (a GM's change of a stat,
with its stat and reason) move no CP."""
MAX_IMPORT_ENTRIES = 20_000
STARTING_CP_MAX = 100_000
_CATEGORIES = tuple(c.value for c in Category)


@dataclass(frozen=True, slots=True)
class EntryPlan:
    character: str
    kind: str
    amount: int
    reason: str = ""
    stat_kind: str | None = None
    stat_name: str | None = None
    level_before: int | None = None
    level_after: int | None = None
    undoes: int | None = None
    """Index into the plan's ledger."""
    created_at: str | None = None


@dataclass(frozen=True, slots=True)
class AdvancementPlan:
    """What an import brings of character points; None fields: not in the file."""

    categories: Mapping[str, Category] | None = None
    attribute_price: int | None = None
    has_attribute_price: bool = False
    starting_cp: int | None = None
    has_starting_cp: bool = False
    approval: bool | None = None
    ledger: tuple[EntryPlan, ...] = ()
    species_costs: Mapping[str, int] | None = None
    character_species: Mapping[str, str] | None = None
    """Character name (as in the file) -> species."""


# ---- export ---------------------------------------------------------------------------------
def advancement_data(
    advancement: Advancement,
    skills: Sequence[str] | None = None,
    characters: Mapping[int, str] | None = None,
) -> dict:
    """The campaign object's CP fields; `skills`: a character's file, with only these skills'
    categories and its own species' cost. `characters` (id -> name): whose species to write."""
    wanted = {s.casefold() for s in skills} if skills is not None else None
    categories = {
        name: category.value
        for name, category in advancement.categories.items()
        if wanted is None or name.casefold() in wanted
    }
    species = {
        name: advancement.sheet_species[cid]
        for cid, name in (characters or {}).items()
        if cid in advancement.sheet_species
    }
    costs = dict(advancement.species)
    if skills is not None:
        mine = {s.casefold() for s in species.values()}
        costs = {n: c for n, c in costs.items() if n.casefold() in mine}
        return {
            "skill_categories": categories,
            "species_costs": costs,
            "character_species": species,
        }
    return {
        "skill_categories": categories,
        "attribute_price": advancement.attribute_price.per_point,
        "starting_cp": advancement.starting_cp,
        "approval": advancement.approval,
        "species_costs": costs,
        "character_species": species,
    }


def ledger_data(entries: Sequence[LedgerEntry], names: Mapping[int, str]) -> list[dict]:
    """The entries (oldest first) of the characters in `names` (id -> name)."""
    index: dict[int, int] = {}
    out: list[dict[str, Any]] = []
    for entry in entries:
        if entry.character_id not in names:
            continue
        data: dict[str, Any] = {
            "character": names[entry.character_id],
            "kind": entry.kind,
            "amount": entry.amount,
        }
        if entry.reason:
            data["reason"] = entry.reason
        if entry.stat_name is not None:
            data["stat"] = {
                "kind": entry.stat_kind,
                "name": entry.stat_name,
                "from": entry.level_before,
                "to": entry.level_after,
            }
        if entry.undoes is not None and entry.undoes in index:
            data["undoes"] = index[entry.undoes]
        data["at"] = entry.created_at
        index[entry.id] = len(out)
        out.append(data)
    return out


# ---- import ---------------------------------------------------------------------------------
def check_advancement(
    checker: Checker,
    settings: dict[str, Any],
    path: str = "campaign",
    characters: Sequence[str] = (),
) -> AdvancementPlan:
    categories: dict[str, Category] | None = None
    if "skill_categories" in settings:
        raw = settings["skill_categories"]
        categories = {}
        if isinstance(raw, dict):
            categories = _categories(checker, raw, f"{path}.skill_categories")
        else:
            checker.problem(f"{path}.skill_categories", N_("expected an object of skill names"))
    price = _optional_number(checker, settings, path, "attribute_price", ATTRIBUTE_PRICE_MAX)
    starting = _optional_number(checker, settings, path, "starting_cp", STARTING_CP_MAX)
    approval = settings.get("approval")
    if approval is not None and not isinstance(approval, bool):
        checker.problem(f"{path}.approval", N_("expected true or false, got {type}"), type="?")
        approval = None
    return AdvancementPlan(
        categories,
        price,
        "attribute_price" in settings,
        starting,
        "starting_cp" in settings,
        approval,
        species_costs=_species_costs(checker, settings, path),
        character_species=_character_species(checker, settings, path, characters),
    )


def _optional_number(
    checker: Checker, settings: dict[str, Any], path: str, key: str, most: int
) -> int | None:
    """A setting of 0 to `most`, or None: not given (null), or reported."""
    value = settings.get(key)
    if value is not None and (problem := int_problem(value, 0, most)):
        checker.problem(f"{path}.{key}", problem)
        return None
    return value


def _species_costs(checker: Checker, settings: dict[str, Any], path: str) -> dict[str, int] | None:
    if "species_costs" not in settings:
        return None
    raw, path = settings["species_costs"], f"{path}.species_costs"
    if not isinstance(raw, dict):
        checker.problem(path, N_("expected an object of species names"))
        return None
    if len(raw) > MAX_SPECIES:
        checker.limit(
            path, N_("{n} entries is over the limit of {limit}"), n=len(raw), limit=MAX_SPECIES
        )
    found: dict[str, int] = {}
    for name, cost in raw.items():
        problem = name_problem(name) or int_problem(cost, 0, SPECIES_COST_MAX)
        if problem:
            checker.problem(f"{path}.{normal_text(str(name))}", problem)
            continue
        found[normal_text(name)] = cost
    return found


def _character_species(
    checker: Checker, settings: dict[str, Any], path: str, characters: Sequence[str]
) -> dict[str, str] | None:
    if "character_species" not in settings:
        return None
    raw, path = settings["character_species"], f"{path}.character_species"
    if not isinstance(raw, dict):
        checker.problem(path, N_("expected an object of character names"))
        return None
    known = {normal_text(name).casefold(): name for name in characters}
    found: dict[str, str] = {}
    for name, species in raw.items():
        key = normal_text(name).casefold() if isinstance(name, str) else ""
        problem = name_problem(species)
        if key not in known:
            checker.problem(f"{path}.{normal_text(str(name))}", N_("not a character of this file"))
        elif problem:
            checker.problem(f"{path}.{normal_text(name)}", problem)
        else:
            found[known[key]] = normal_text(species)
    return found


def _categories(checker: Checker, raw: dict[str, Any], path: str) -> dict[str, Category]:
    found: dict[str, Category] = {}
    for name, value in raw.items():
        problem = name_problem(name)
        if problem:
            checker.problem(path, problem)
            continue
        if value not in _CATEGORIES:
            checker.problem(
                f"{path}.{normal_text(name)}",
                N_("expected combat, action, knowledge or language, got {value}"),
                value=repr(value),
            )
            continue
        found[normal_text(name)] = Category(value)
    return found


def check_ledger(
    checker: Checker, entries: Any, characters: Sequence[str]
) -> tuple[EntryPlan, ...]:
    if not isinstance(entries, list):
        checker.problem("ledger", N_("expected a list, got {type}"), type=type(entries).__name__)
        return ()
    if len(entries) > MAX_IMPORT_ENTRIES:
        checker.limit(
            "ledger",
            N_("{n} entries is over the limit of {limit}"),
            n=len(entries),
            limit=MAX_IMPORT_ENTRIES,
        )
    known = {name.casefold(): name for name in characters}
    plans: list[EntryPlan] = []
    earned: dict[str, int] = {}
    for index, value in enumerate(entries):
        path = f"ledger[{index}]"
        data = checker.obj(value, path, ENTRY_FIELDS)
        if data is None:
            continue
        plan = _entry(checker, data, path, known, plans)
        if plan is None:
            continue
        if plan.kind == "award":
            earned[plan.character] = earned.get(plan.character, 0) + plan.amount
            if earned[plan.character] > MAX_EARNED:
                checker.problem(
                    f"{path}.amount",
                    N_("{name} would have earned more than {limit} CP"),
                    name=plan.character,
                    limit=MAX_EARNED,
                )
        plans.append(plan)
    return tuple(plans)


def _entry(
    checker: Checker,
    data: dict[str, Any],
    path: str,
    known: Mapping[str, str],
    earlier: Sequence[EntryPlan],
) -> EntryPlan | None:
    before = len(getattr(checker, "problems", []))
    name = data.get("character")
    character = known.get(normal_text(name).casefold()) if isinstance(name, str) else None
    if character is None:
        checker.problem(f"{path}.character", N_("not a character of this file"))
    kind = data.get("kind")
    if kind not in ENTRY_KINDS:
        checker.problem(f"{path}.kind", N_("expected award, spend, undo, ready or correct"))
    amount = data.get("amount")
    _check_amount(checker, f"{path}.amount", kind, amount)
    reason = data.get("reason", "")
    if not isinstance(reason, str) or text_problem(reason, REASON_MAX, empty_ok=True):
        checker.problem(f"{path}.reason", N_("expected one line of at most 200 characters"))
        reason = ""
    stat = _stat(checker, data.get("stat"), f"{path}.stat") if "stat" in data else None
    if kind == "spend" and stat is None and "stat" not in data:
        checker.problem(f"{path}.stat", N_("missing (a spend names the stat it raised)"))
    if kind == "correct" and stat is None and "stat" not in data:
        checker.problem(f"{path}.stat", N_("missing (a correction names the stat it changed)"))
    undoes = data.get("undoes")
    _check_undoes(checker, path, kind, undoes, amount, character, earlier)
    at = data.get("at")
    if at is not None and (not isinstance(at, str) or len(at) > 40):
        checker.problem(f"{path}.at", N_("expected a time as the export writes it"))
        at = None
    if len(getattr(checker, "problems", [])) > before or character is None:
        return None
    return EntryPlan(
        character,
        kind,
        amount,
        normal_text(reason),
        *(stat or (None, None, None, None)),
        undoes if kind == "undo" else None,
        at,
    )


def _check_amount(checker: Checker, path: str, kind: Any, amount: Any) -> None:
    """An entry's amount within the ledger's range and as its kind moves CP."""
    problem = int_problem(amount, -MAX_EARNED, MAX_EARNED)
    if problem:
        checker.problem(path, problem)
    elif kind == "award" and (amount == 0 or abs(amount) > MAX_AWARD):
        checker.problem(path, N_("an award is 1 to {limit} CP either way"), limit=MAX_AWARD)
    elif kind == "spend" and amount > 0:
        checker.problem(path, N_("a spend is 0 CP or less"))
    elif kind in ("ready", "correct") and amount != 0:
        checker.problem(path, N_("a ready or correct entry moves no CP (0)"))


def _check_undoes(
    checker: Checker,
    path: str,
    kind: Any,
    undoes: Any,
    amount: Any,
    character: str | None,
    earlier: Sequence[EntryPlan],
) -> None:
    """An undo names an earlier entry of the same character, not yet undone and not an undo
    itself, and reverses its whole amount; no other entry names one."""
    if kind != "undo":
        if undoes is not None:
            checker.problem(f"{path}.undoes", N_("only an undo undoes an entry"))
        return
    if (
        not isinstance(undoes, int)
        or isinstance(undoes, bool)
        or not 0 <= undoes < len(earlier)
        or earlier[undoes].character != character
        or earlier[undoes].kind == "undo"
        or any(e.undoes == undoes for e in earlier)
    ):
        checker.problem(
            f"{path}.undoes",
            N_("expected the index of an earlier entry of the same character, undone once"),
        )
    elif amount != -earlier[undoes].amount:
        checker.problem(f"{path}.amount", N_("an undo reverses the whole amount"))


def _stat(checker: Checker, value: Any, path: str) -> tuple[str, str, int, int] | None:
    data = checker.obj(value, path, STAT_FIELDS)
    if data is None:
        return None
    kind = data.get("kind")
    if kind not in STAT_RANGES:
        checker.problem(f"{path}.kind", N_("expected attribute or skill"))
        return None
    problem = name_problem(data.get("name"))
    if problem:
        checker.problem(f"{path}.name", problem)
        return None
    low, high = STAT_RANGES[kind]
    levels = []
    for key in ("from", "to"):
        problem = int_problem(data.get(key), low, high)
        if problem:
            checker.problem(f"{path}.{key}", problem)
            return None
        levels.append(data[key])
    return kind, normal_text(data["name"]), levels[0], levels[1]
