"""Export and import of characters and campaigns as versioned JSON, and import validation.

Pure functions, no database: the store calls them, and the tests check every rule without one.
`read_import` runs the validation in a worker process (storage/offload.py): reading a 1 MiB
file takes long enough (around 100 ms, more for a hostile one) that on the event loop, or on a
thread holding the GIL, it would delay every other guild's rolls.

Format version 2: version 1 with character points added (the campaign's skill categories and
prices, and the ledger: storage/transfer_advancement.py); a version 1 file still imports, as
the same document without them, and an export without character points is written as version
1, exactly as before. Format version 3 adds gear (items, purse, counters and the campaign's
currency: storage/transfer_gear.py) the same way: a file without gear is written as version 1
or 2, and every earlier version still imports. A character export::

    {
      "format": "wire-bot",
      "version": 1,
      "kind": "character",
      "exported_at": "2026-11-30T12:00:00Z",
      "character": CHARACTER
    }

A campaign export::

    {
      "format": "wire-bot",
      "version": 1,
      "kind": "campaign",
      "exported_at": "2026-11-30T12:00:00Z",
      "campaign": {"name": "Night Market", "npc_take10": true},
      "characters": [CHARACTER, ...]
    }

where CHARACTER is::

    {
      "name": "Ash",                          required; 1-64 characters, one line (*)
      "is_npc": false,                        optional, default false
      "attributes": {"Strength": 3},          optional; at most 20; values -10..30
      "skills": {"Parry": 4},                 optional; at most 60; values 0..10
      "weapons": [                            optional; at most 10
        {"name": "Sabre", "base": 4, "attribute": "Strength", "skill": "Melee weapons"}
      ],                                      base 0..50; these four fields required
      "shield": false,                        optional, default false
      "notes": "",                            optional; at most 1000 characters (*)
      "armour": 0,                            optional, default 0; 0..50 (a table setting)
      "wp_max": 0,                            optional, default 0 (willpower not tracked)
      "hp_max": null, "thp_max": null         optional overrides, 0..999 (null: worked out)
      "portrait": "https://..."               optional; an https link, at most 512 characters
    }

A character may also have "saved_rolls" (at most 25): each {"name": "climb", "command":
{"name": "check", "options": {"attr_name": "Dexterity", "skill_name": "Climbing"}}, "label": ""},
the command and options /r runs again (option values are text, whole numbers or true/false); a
file without them imports as before, and an import that has them replaces the sheet's own.

A weapon may also have "kind": "lethal" (the default), "non-lethal" or "mental". These fight
fields came after version 1's first files, as optional fields, so every earlier file still
reads; an export writes them only where they differ from the default. "portrait" came the same
way (storage/portraits.py checks it as the bot does on arrival): a sheet without one exports
exactly as before, so the bots that read version 1 before portraits still read it; the
version stays 1, since a new number would make every export unreadable to them, portrait or not.

(*) Text is stored NFC-normalised and without surrounding spaces; control and format characters
(invisible or direction-changing ones) are refused, but for line breaks in notes.

`exported_at` and the whole `campaign` object (and each of its fields) are optional. Names are
unique case-insensitively (characters within the file, stats and weapons within a character).
Unknown fields are errors, so a typo ("skils") is reported rather than silently dropped. Owners,
ids, crafting projects and the roll log are not exported: an import lands in the importing
server's campaign, owned by the importing user. Input is capped at 1 MiB and 1,000 characters.

Every problem is reported with its path, but the reading stops at the first limit passed (the
size, the number of characters, a sheet's number of attributes, skills or weapons, and
MAX_IMPORT_PROBLEMS problems), so an oversized file costs no more than reading up to the limit.
Numbers are never longer than the largest value allowed (three digits) nor NaN or Infinity: such
a number is refused where it stands, and is never made into a Python int (5,000 digits would
make json.loads raise).

A reader of version N accepts the versions it can convert (READ_VERSIONS); a later format gets a
new number and this module a converter from the old one.
"""

from __future__ import annotations

import dataclasses
import json
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from storage import offload
from storage.errors import ImportRejected
from storage.models import Campaign
from storage.models_advancement import Advancement, LedgerEntry
from storage.models_gear import GearSettings
from storage.portraits import portrait_problem
from storage.transfer_advancement import (
    ADVANCEMENT_FIELDS,
    AdvancementPlan,
    advancement_data,
    check_advancement,
    check_ledger,
    ledger_data,
)
from storage.transfer_gear import MAX_REVISION, GearData, check_currency, check_gear
from storage.validation import (
    STAT_COUNTS,
    STAT_RANGES,
    Count,
    LongNumber,
    NotANumber,
    Problem,
    expected_text,
    int_problem,
    name_problem,
    notes_problem,
    type_name,
)
from wire import limits
from wire.gear import MAX_AMOUNT, MAX_COUNTERS, MAX_ITEMS
from wire.health import DamageKind
from wire.i18n import N_
from wire.limits import BASE_MAX, BASE_MIN, MAX_WEAPONS, SKILL_MAX, SKILL_MIN, STAT_MAX, STAT_MIN
from wire.sheet import Character, Weapon
from wire.textcheck import TextProblem, normal_text

FORMAT = "wire-bot"
VERSION = 3
READ_VERSIONS = (1, 2, 3)
"""Version 1 is version 2 without character points (storage/transfer_advancement.py); version
2 is version 3 without gear (storage/transfer_gear.py)."""
POINTS_VERSION = 2
"""The first version with character points."""
KINDS = ("character", "campaign")
MAX_IMPORT_BYTES = 1024 * 1024
MAX_IMPORT_CHARACTERS = 1000
MAX_IMPORT_PROBLEMS = 100
"""Past this many problems the file is not worth reading further."""
LONGEST_NUMBER = max(
    len(str(abs(n)))
    for n in (
        VERSION,
        STAT_MIN,
        STAT_MAX,
        SKILL_MIN,
        SKILL_MAX,
        BASE_MIN,
        BASE_MAX,
        limits.HEALTH.high,
        limits.ARMOUR.high,
        MAX_AMOUNT,
        MAX_REVISION,
    )
)
"""Digits of the largest value any number in the format may take; a longer one is refused."""
MAX_SAVED_ROLLS = 25
"""Saved rolls per character (storage/rules_saved.py keeps the same limit)."""
MAX_SAVED_OPTIONS = 25
"""Options of one saved roll's command: more than any command has."""
MAX_IMPORT_OBJECTS = 2 + MAX_IMPORT_CHARACTERS * (
    3 + MAX_WEAPONS + 3 * MAX_SAVED_ROLLS + 2 + MAX_ITEMS + MAX_COUNTERS
)
"""The most JSON objects a valid file holds: the document, the campaign, and per character the
sheet, its attributes, its skills, its weapons, its saved rolls (each with its command and
options) and its gear (its purse, items and counters). Counting them stops a file of a million `{}`
while it is parsed, before it costs a million Python dicts."""

_HEADER_FIELDS = ("format", "version", "kind", "exported_at")
_BODY_FIELDS = {"character": ("character",), "campaign": ("campaign", "characters")}
_CAMPAIGN_FIELDS = ("name", "npc_take10")
_CHARACTER_FIELDS = (
    "name",
    "is_npc",
    "attributes",
    "skills",
    "weapons",
    "shield",
    "notes",
    "armour",
    "wp_max",
    "hp_max",
    "thp_max",
    "portrait",
    "saved_rolls",
)
GEAR_FIELD = ("gear",)
"""A sheet's field from version 3 on (storage/transfer_gear.py)."""
_SAVED_FIELDS = ("name", "command", "label")
_COMMAND_FIELDS = ("name", "options")
_WEAPON_FIELDS = ("name", "base", "attribute", "skill", "kind")
_KINDS = tuple(kind.value for kind in DamageKind)

# The import's problem phrases used in more than one place (`_Checker.problem` takes each as a
# template, with its values as keywords).
MISSING = N_("missing")
WRITTEN_TWICE = N_("written twice; keep one")
EXPECTED_LIST = N_("expected a list, got {type}")
OVER_LIMIT = N_("{n} entries is over the limit of {limit}")
ALREADY_USED = N_("{name} is already used by {path} (names are case-insensitive)")


@dataclass(frozen=True, slots=True)
class ImportProblem:
    """One problem of an import file: where (a JSON field path, "characters[3].name", as it
    is in any language) and what, a template with its values (`Problem`).

    `str()` reads "characters[3].name: missing" in the language in use: English in the worker
    process, the CLI and the logs; the bot shows the list in its user's language. Plain data,
    pickled back from the worker process with the ImportRejected that lists it.
    """

    path: str
    problem: Problem | TextProblem

    def __str__(self) -> str:
        return f"{self.path}: {self.problem}"


@dataclass(frozen=True, slots=True)
class ImportPlan:
    """A validated import: what to write, nothing of how."""

    kind: str
    characters: tuple[Character, ...]
    campaign_name: str | None = None
    npc_take10: bool | None = None
    advancement: AdvancementPlan | None = None
    """Character points: the campaign's prices and the ledger (version 2)."""
    saved_rolls: tuple[tuple[str, tuple[SavedData, ...]], ...] = ()
    """(a character's name key, its saved rolls) for the sheets whose entry lists them."""
    gear: tuple[tuple[str, GearData], ...] = ()
    """(a character's name key, its gear) for the sheets whose entry has some (version 3)."""
    currency: GearSettings | None = None
    """The campaign's currency and gift setting, where the file gives them (version 3)."""

    def gear_of(self, name: str) -> GearData | None:
        key = name.casefold()
        return next((gear for k, gear in self.gear if k == key), None)

    def saved_of(self, name: str) -> tuple[SavedData, ...] | None:
        """The saved rolls the file gives this sheet, or None where it gives none."""
        key = name.casefold()
        return next((rolls for k, rolls in self.saved_rolls if k == key), None)


@dataclass(frozen=True, slots=True)
class SavedData:
    """A saved roll as a file holds it: no id and no character, just what /r runs."""

    name: str
    command: dict[str, Any]
    label: str = ""


# ---- export ---------------------------------------------------------------------------------


def character_data(
    character: Character, saved: Sequence[Any] = (), gear: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """A sheet as exported; the fight fields (armour, willpower, health overrides, a weapon's
    damage kind) only where they differ from the default, so a plain sheet exports as before."""
    data: dict[str, Any] = {
        "name": character.name,
        "is_npc": character.is_npc,
        "attributes": dict(character.attributes),
        "skills": dict(character.skills),
        "weapons": [_weapon_data(w) for w in character.weapons],
        "shield": character.shield,
        "notes": character.notes,
    }
    for key, value, default in (
        ("armour", character.armour, 0),
        ("wp_max", character.wp_max, 0),
        ("hp_max", character.hp_max, None),
        ("thp_max", character.thp_max, None),
    ):
        if value != default:
            data[key] = value
    if character.portrait:
        data["portrait"] = character.portrait
    if saved:
        data["saved_rolls"] = [
            {"name": r.name, "command": r.command, **({"label": r.label} if r.label else {})}
            for r in saved
        ]
    if gear:
        data["gear"] = dict(gear)
    return data


def _weapon_data(weapon: Weapon) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": weapon.name,
        "base": weapon.base,
        "attribute": weapon.attribute,
        "skill": weapon.skill,
    }
    if weapon.kind != DamageKind.LETHAL.value:
        data["kind"] = weapon.kind
    return data


def _header(kind: str, now: datetime | None, version: int = VERSION) -> dict[str, Any]:
    moment = (now or datetime.now(UTC)).astimezone(UTC)
    return {
        "format": FORMAT,
        "version": version,
        "kind": kind,
        "exported_at": moment.strftime("%Y-%m-%dT%H:%M:%SZ"),
    }


def _points(
    settings: dict[str, Any], ledger: list[dict[str, Any]]
) -> tuple[int, dict[str, Any], list[dict[str, Any]]]:
    """Character points are written only where a table has them: a file without is exactly a
    version 1 file, which bots that read only version 1 still read; with them it is version 2."""
    used = {k: v for k, v in settings.items() if v not in (None, False, {})}
    return (POINTS_VERSION if used or ledger else 1), used, ledger


def _with_gear(version: int, gear: Mapping[int, Mapping[str, Any]], currency: Mapping) -> int:
    """Gear is written only where a table has some: then the file is version 3."""
    return VERSION if any(gear.values()) or currency else version


def character_document(
    character: Character,
    now: datetime | None = None,
    advancement: Advancement | None = None,
    ledger: Sequence[LedgerEntry] = (),
    saved: Sequence[Any] = (),
    gear: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """`gear`: the sheet's (storage/transfer_gear.py `gear_data`)."""
    version, settings, entries = 1, {}, []
    if advancement is not None:
        version, settings, entries = _points(
            advancement_data(advancement, list(character.skills), {character.id: character.name}),
            ledger_data(ledger, {character.id: character.name}),
        )
    version = _with_gear(version, {character.id: gear or {}}, {})
    document = {
        **_header("character", now, version),
        "character": character_data(character, saved, gear),
    }
    if settings:
        document["campaign"] = settings
    if entries:
        document["ledger"] = entries
    return document


def campaign_document(
    campaign: Campaign,
    characters: list[Character],
    now: datetime | None = None,
    advancement: Advancement | None = None,
    ledger: Sequence[LedgerEntry] = (),
    saved: Mapping[int, Sequence[Any]] | None = None,
    gear: Mapping[int, Mapping[str, Any]] | None = None,
    currency: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """`saved`: each character's saved rolls, by its id; `gear` each one's gear, `currency`
    the campaign's (storage/transfer_gear.py)."""
    saved, gear, currency = saved or {}, gear or {}, currency or {}
    version, settings, entries = 1, {}, []
    if advancement is not None:
        version, settings, entries = _points(
            advancement_data(advancement, None, {c.id: c.name for c in characters}),
            ledger_data(ledger, {c.id: c.name for c in characters}),
        )
    version = _with_gear(version, gear, currency)
    document = {
        **_header("campaign", now, version),
        "campaign": {
            "name": campaign.name,
            "npc_take10": campaign.npc_take10,
            **settings,
            **currency,
        },
        "characters": [character_data(c, saved.get(c.id, ()), gear.get(c.id)) for c in characters],
    }
    if entries:
        document["ledger"] = entries
    return document


# ---- import validation ----------------------------------------------------------------------


async def read_import(data: dict[str, Any] | bytes | str) -> ImportPlan:
    """`parse_import` in a worker process, so the bot goes on answering meanwhile."""
    return await offload.run(parse_import, data)


class _LimitPassed(Exception):
    """A limit was passed: the check ends with the problems found so far."""


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


def parse_import(data: dict[str, Any] | bytes | str) -> ImportPlan:
    """The import plan, or ImportRejected listing the problems found (see check_import)."""
    plan, problems = check_import(data)
    if problems or plan is None:
        raise ImportRejected(problems or [ImportProblem("input", Problem(N_("nothing to import")))])
    return plan


def check_import(
    data: dict[str, Any] | bytes | str,
) -> tuple[ImportPlan | None, list[ImportProblem]]:
    """Validate an export document; return the plan (None if any problem) and the problems.

    Every problem up to the first limit passed (see the module's docstring), where it stops.
    """
    checker = _Checker()
    try:
        document = checker.load(data)
        plan = checker.document(document) if document is not None else None
    except _LimitPassed:
        plan = None
    return (plan if not checker.problems else None), checker.problems


class _Checker:
    def __init__(self) -> None:
        self.problems: list[ImportProblem] = []
        self.saved: dict[str, tuple[SavedData, ...]] = {}
        """Each sheet's saved rolls, by its name key, where its entry lists them."""
        self.gear: dict[str, GearData] = {}
        """Each sheet's gear, by its name key, where its entry has some (version 3)."""
        self.version = 0

    def problem(self, path: str, what: str | Problem | TextProblem, /, **params: object) -> None:
        """Report a problem at `path`: a template marked with N_ and its values, or a problem
        a validation helper named."""
        problem = Problem(what, params) if isinstance(what, str) else what
        self.problems.append(ImportProblem(path, problem))
        if len(self.problems) >= MAX_IMPORT_PROBLEMS:
            stop = N_("stopped reading after {n} problems; fix these first")
            self.problems.append(ImportProblem("input", Problem(stop, {"n": MAX_IMPORT_PROBLEMS})))
            raise _LimitPassed

    def limit(self, path: str, what: str, /, **params: object) -> None:
        """Report a limit passed, and stop reading: what lies past it is not worth checking."""
        self.problem(path, what, **params)
        raise _LimitPassed

    # -- raw input --------------------------------------------------------------------------
    def load(self, data: dict[str, Any] | bytes | str) -> Any:
        if isinstance(data, dict):
            try:
                size = len(json.dumps(data, ensure_ascii=False).encode())
            except (TypeError, ValueError) as exc:
                self.problem("input", N_("not JSON data ({error})"), error=str(exc))
                return None
            self._too_big(size)
            return data
        if isinstance(data, str):
            data = data.encode()
        if not isinstance(data, bytes | bytearray):
            self.problem("input", N_("expected JSON text, got {type}"), type=type(data).__name__)
            return None
        self._too_big(len(data))
        try:
            text = bytes(data).decode("utf-8-sig")
        except UnicodeDecodeError:
            self.problem("input", N_("not UTF-8 text; save the file as UTF-8"))
            return None
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
            self.limit(
                "input",
                N_(
                    "more than {objects} JSON objects, more than {characters} characters can "
                    "hold; is this a WIRE bot export?"
                ),
                objects=Count(MAX_IMPORT_OBJECTS),
                characters=Count(MAX_IMPORT_CHARACTERS),
            )
        except json.JSONDecodeError as exc:
            self.problem(
                "input",
                N_("not valid JSON ({error} at line {line}, column {column})"),
                error=exc.msg,
                line=exc.lineno,
                column=exc.colno,
            )
            return None
        except RecursionError:
            self.problem("input", N_("nested too deeply"))
            return None

    def _too_big(self, size: int) -> None:
        if size > MAX_IMPORT_BYTES:
            self.limit(
                "input",
                N_("{size} bytes is over the limit of 1 MiB ({limit})"),
                size=Count(size),
                limit=Count(MAX_IMPORT_BYTES),
            )

    # -- structure --------------------------------------------------------------------------
    def obj(self, value: Any, path: str, fields: tuple[str, ...]) -> dict[str, Any] | None:
        """The object at `path` after reporting unknown and repeated keys; None if no object."""
        if not isinstance(value, dict):
            self.problem(path, N_("expected an object, got {type}"), type=type_name(value))
            return None
        prefix = f"{path}." if path else ""
        for key in getattr(value, "repeated", []):
            self.problem(f"{prefix}{_show(key)}", WRITTEN_TWICE)
        for key in value:
            if key not in fields:
                self.problem(f"{prefix}{_show(key)}", N_("unknown field"))
        return value

    def document(self, document: Any) -> ImportPlan | None:
        if not isinstance(document, dict):
            self.problem(
                "input", N_("expected a JSON object, got {type}"), type=type_name(document)
            )
            return None
        kind = document.get("kind")
        body = _BODY_FIELDS.get(kind) if isinstance(kind, str) else None
        version = document.get("version")
        self.version = version if isinstance(version, int) else 0
        body = (body or ("character", "campaign", "characters")) + (
            ("campaign", "ledger") if self.version >= POINTS_VERSION else ()
        )
        self.obj(document, "", _HEADER_FIELDS + body)
        if document.get("format") != FORMAT:
            self.problem(
                "format",
                N_("expected {expected}, got {value}; is this a WIRE bot export?"),
                expected=repr(FORMAT),
                value=_show_value(document.get("format")),
            )
        if "version" not in document:
            self.problem(
                "version", N_("missing (this bot reads version {version})"), version=VERSION
            )
            return None
        if version not in READ_VERSIONS or isinstance(version, bool):
            self.problem(
                "version",
                N_(
                    "{value} is not a version this bot reads (it reads {version}); export it "
                    "again with a matching bot"
                ),
                value=_show_value(version),
                version=", ".join(str(v) for v in READ_VERSIONS),
            )
            return None  # another version's body means something else: stop here
        if kind not in KINDS:
            self.problem(
                "kind",
                N_("expected 'character' or 'campaign', got {value}"),
                value=_show_value(kind),
            )
            return None
        exported_at = document.get("exported_at")
        if exported_at is not None and not isinstance(exported_at, str):
            self.problem("exported_at", expected_text(exported_at))
        if kind == "character":
            if "character" not in document:
                self.problem("character", MISSING)
                return None
            sheet = self.character(document["character"], "character")
            sheets = (sheet,) if sheet else ()
            advancement = None
            if version >= POINTS_VERSION:
                settings = document.get("campaign")
                if settings is not None:
                    self.obj(settings, "campaign", ADVANCEMENT_FIELDS)
                advancement = self.advancement(document, settings, sheets)
            return ImportPlan(
                "character",
                sheets,
                advancement=advancement,
                saved_rolls=tuple(self.saved.items()),
                gear=tuple(self.gear.items()),
            )
        return self.campaign(document)

    def advancement(
        self, document: dict[str, Any], settings: Any, sheets: tuple[Character, ...]
    ) -> AdvancementPlan:
        plan = check_advancement(
            self,
            settings if isinstance(settings, dict) else {},
            characters=[s.name for s in sheets],
        )
        if "ledger" in document:
            ledger = check_ledger(self, document["ledger"], [s.name for s in sheets])
            plan = dataclasses.replace(plan, ledger=ledger)
        return plan

    def campaign(self, document: dict[str, Any]) -> ImportPlan | None:
        name: str | None = None
        npc_take10: bool | None = None
        settings = document.get("campaign")
        v2 = self.version >= POINTS_VERSION
        fields = _CAMPAIGN_FIELDS + (ADVANCEMENT_FIELDS if v2 else ())
        fields += ("currency",) if self.version >= VERSION else ()
        currency = None
        if settings is not None and self.obj(settings, "campaign", fields) is not None:
            if "name" in settings:
                problem = name_problem(settings["name"])
                if problem:
                    self.problem("campaign.name", problem)
                else:
                    name = normal_text(settings["name"])
            if "npc_take10" in settings:
                npc_take10 = self.boolean(settings["npc_take10"], "campaign.npc_take10")
            if "currency" in settings and self.version >= VERSION:
                currency = check_currency(self, settings["currency"], "campaign.currency")
        if "characters" not in document:
            self.problem("characters", MISSING)
            return None
        entries = document["characters"]
        if not isinstance(entries, list):
            self.problem("characters", EXPECTED_LIST, type=type_name(entries))
            return None
        if len(entries) > MAX_IMPORT_CHARACTERS:
            self.limit("characters", OVER_LIMIT, n=len(entries), limit=MAX_IMPORT_CHARACTERS)
        sheets: list[Character] = []
        first_path: dict[str, str] = {}
        for index, entry in enumerate(entries):
            path = f"characters[{index}]"
            sheet = self.character(entry, path)
            entry_name = entry.get("name") if isinstance(entry, dict) else None
            if isinstance(entry_name, str) and normal_text(entry_name):
                key = normal_text(entry_name).casefold()
                if key in first_path:
                    self.problem(
                        f"{path}.name",
                        ALREADY_USED,
                        name=repr(normal_text(entry_name)),
                        path=first_path[key],
                    )
                else:
                    first_path[key] = path
            if sheet:
                sheets.append(sheet)
        advancement = self.advancement(document, settings, tuple(sheets)) if v2 else None
        return ImportPlan(
            "campaign",
            tuple(sheets),
            name,
            npc_take10,
            advancement,
            saved_rolls=tuple(self.saved.items()),
            gear=tuple(self.gear.items()),
            currency=currency,
        )

    def boolean(self, value: Any, path: str) -> bool | None:
        if not isinstance(value, bool):
            self.problem(path, N_("expected true or false, got {type}"), type=type_name(value))
            return None
        return value

    def character(self, value: Any, path: str) -> Character | None:
        before = len(self.problems)
        fields = _CHARACTER_FIELDS + (GEAR_FIELD if self.version >= VERSION else ())
        data = self.obj(value, path, fields)
        if data is None:
            return None
        name = ""
        if "name" not in data:
            self.problem(f"{path}.name", MISSING)
        else:
            problem = name_problem(data["name"])
            if problem:
                self.problem(f"{path}.name", problem)
            else:
                name = normal_text(data["name"])
        is_npc = self.boolean(data.get("is_npc", False), f"{path}.is_npc")
        shield = self.boolean(data.get("shield", False), f"{path}.shield")
        notes = data.get("notes", "")
        problem = notes_problem(notes)
        if problem:
            self.problem(f"{path}.notes", problem)
        attributes = self.stats(data.get("attributes", {}), f"{path}.attributes", "attribute")
        skills = self.stats(data.get("skills", {}), f"{path}.skills", "skill")
        weapons = self.weapons(data.get("weapons", []), f"{path}.weapons")
        saved = (
            self.saved_rolls(data["saved_rolls"], f"{path}.saved_rolls")
            if "saved_rolls" in data
            else None
        )
        health: dict[str, int | None] = {}
        for key, limit, default in (
            ("armour", limits.ARMOUR, 0),
            ("wp_max", limits.HEALTH, 0),
            ("hp_max", limits.HEALTH, None),
            ("thp_max", limits.HEALTH, None),
        ):
            value = data.get(key, default)
            if value is not None:
                problem = int_problem(value, limit.low, limit.high)
                if problem:
                    self.problem(f"{path}.{key}", problem)
            health[key] = value
        portrait = data.get("portrait")
        if portrait is not None and (problem := portrait_problem(portrait)):
            self.problem(f"{path}.portrait", problem)
        if len(self.problems) > before:
            return None
        gear = check_gear(self, data["gear"], f"{path}.gear") if "gear" in data else None
        if len(self.problems) > before:
            return None
        if saved is not None:
            self.saved[name.casefold()] = saved
        if gear is not None:
            self.gear[name.casefold()] = gear
        return Character(
            name,
            bool(is_npc),
            attributes,
            skills,
            tuple(weapons),
            bool(shield),
            normal_text(notes),
            armour=health["armour"] or 0,
            wp_max=health["wp_max"] or 0,
            hp_max=health["hp_max"],
            thp_max=health["thp_max"],
            portrait=normal_text(portrait) if portrait is not None else None,
        )

    def saved_rolls(self, value: Any, path: str) -> tuple[SavedData, ...]:
        if not isinstance(value, list):
            self.problem(path, EXPECTED_LIST, type=type_name(value))
            return ()
        if len(value) > MAX_SAVED_ROLLS:
            self.limit(path, OVER_LIMIT, n=len(value), limit=MAX_SAVED_ROLLS)
            return ()
        found: list[SavedData] = []
        seen: dict[str, str] = {}
        for index, entry in enumerate(value):
            where = f"{path}[{index}]"
            data = self.obj(entry, where, _SAVED_FIELDS)
            if data is None:
                continue
            name = data.get("name")
            problem = name_problem(name) if "name" in data else None
            if "name" not in data:
                self.problem(f"{where}.name", MISSING)
                continue
            if problem:
                self.problem(f"{where}.name", problem)
                continue
            key = normal_text(name).casefold()
            if key in seen:
                self.problem(f"{where}.name", ALREADY_USED, name=repr(name), path=seen[key])
                continue
            seen[key] = f"{where}.name"
            label = data.get("label", "")
            problem = name_problem(label) if label != "" else None
            if problem:
                self.problem(f"{where}.label", problem)
                continue
            command = self.saved_command(data.get("command"), f"{where}.command")
            if command is not None:
                found.append(SavedData(normal_text(name), command, normal_text(label)))
        return tuple(found)

    def saved_command(self, value: Any, path: str) -> dict[str, Any] | None:
        data = self.obj(value, path, _COMMAND_FIELDS)
        if data is None:
            return None
        problem = name_problem(data.get("name")) if "name" in data else None
        if "name" not in data or problem:
            self.problem(f"{path}.name", problem or MISSING)
            return None
        options = self.obj(
            data.get("options", {}), f"{path}.options", tuple(data.get("options") or {})
        )
        if options is None:
            return None
        if len(options) > MAX_SAVED_OPTIONS:
            self.limit(f"{path}.options", OVER_LIMIT, n=len(options), limit=MAX_SAVED_OPTIONS)
            return None
        clean: dict[str, Any] = {}
        for key, option in options.items():
            where = f"{path}.options.{_show(key)}"
            if isinstance(option, bool) or (isinstance(option, int) and abs(option) < 1000):
                clean[key] = option
            elif isinstance(option, str) and name_problem(option) is None:
                clean[key] = normal_text(option)
            else:
                self.problem(where, N_("expected a name, a whole number or true/false"))
                return None
            if name_problem(key) is not None:
                self.problem(where, N_("not an option name"))
                return None
        return {"name": normal_text(data["name"]), "options": clean}

    def stats(self, value: Any, path: str, kind: str) -> dict[str, int]:
        if not isinstance(value, dict):
            self.problem(
                path,
                N_("expected an object of names and numbers, got {type}"),
                type=type_name(value),
            )
            return {}
        for key in getattr(value, "repeated", []):
            self.problem(f"{path}.{_show(key)}", WRITTEN_TWICE)
        if len(value) > STAT_COUNTS[kind]:
            self.limit(path, OVER_LIMIT, n=len(value), limit=STAT_COUNTS[kind])
        low, high = STAT_RANGES[kind]
        result: dict[str, int] = {}
        seen: dict[str, str] = {}
        for raw_name, number in value.items():
            entry = f"{path}.{_show(raw_name)}"
            problem = name_problem(raw_name)
            if problem:
                self.problem(entry, problem)
                continue
            stat = normal_text(raw_name)
            if stat.casefold() in seen:
                self.problem(
                    entry,
                    N_("same name as {name} (names are case-insensitive)"),
                    name=repr(seen[stat.casefold()]),
                )
                continue
            seen[stat.casefold()] = stat
            problem = int_problem(number, low, high)
            if problem:
                self.problem(entry, problem)
                continue
            result[stat] = number
        return result

    def weapons(self, value: Any, path: str) -> list[Weapon]:
        if not isinstance(value, list):
            self.problem(path, EXPECTED_LIST, type=type_name(value))
            return []
        if len(value) > MAX_WEAPONS:
            self.limit(path, OVER_LIMIT, n=len(value), limit=MAX_WEAPONS)
        result: list[Weapon] = []
        seen: dict[str, str] = {}
        for index, entry in enumerate(value):
            entry_path = f"{path}[{index}]"
            before = len(self.problems)
            data = self.obj(entry, entry_path, _WEAPON_FIELDS)
            if data is None:
                continue
            texts: dict[str, str] = {}
            for key in ("name", "attribute", "skill"):
                if key not in data:
                    self.problem(f"{entry_path}.{key}", MISSING)
                    continue
                problem = name_problem(data[key])
                if problem:
                    self.problem(f"{entry_path}.{key}", problem)
                else:
                    texts[key] = normal_text(data[key])
            if "base" not in data:
                self.problem(f"{entry_path}.base", MISSING)
            else:
                problem = int_problem(data["base"], BASE_MIN, BASE_MAX)
                if problem:
                    self.problem(f"{entry_path}.base", problem)
            kind = data.get("kind", DamageKind.LETHAL.value)
            if kind not in _KINDS:
                self.problem(
                    f"{entry_path}.kind",
                    N_("use {kinds}, not {kind}"),
                    kinds=", ".join(_KINDS),
                    kind=repr(kind),
                )
            name = texts.get("name")
            if name is not None:
                if name.casefold() in seen:
                    self.problem(
                        f"{entry_path}.name",
                        ALREADY_USED,
                        name=repr(name),
                        path=seen[name.casefold()],
                    )
                else:
                    seen[name.casefold()] = entry_path
            if len(self.problems) == before:
                result.append(
                    Weapon(texts["name"], data["base"], texts["attribute"], texts["skill"], kind)
                )
        return result


def _show(key: str) -> str:
    """A key as it appears in a problem's path: long ones are cut so the message stays short,
    and invisible or control characters are written as escapes (\\u200b), so the message shows
    where they are and a direction override (U+202E) cannot turn the rest of it around."""
    cut = key if len(key) <= 40 else key[:37] + "..."
    return "".join(
        ch.encode("unicode_escape").decode()
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp")
        else ch
        for ch in cut
    )


def _show_value(value: Any) -> str | Problem:
    if value is None:
        return Problem(N_("nothing"))
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
