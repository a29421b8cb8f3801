"""An import file checked whole: its header (format, version, kind), then a character's or a
campaign's body, into an ImportPlan, or the problems found.

`read_import` runs the check in a worker process (storage/offload.py): reading a 1 MiB file
takes long enough (around 100 ms, more for a hostile one) that on the event loop, or on a
thread holding the GIL, it would delay every other guild's rolls.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from storage import offload
from storage.errors import ImportRejected
from storage.transfer.advancement import (
    ADVANCEMENT_FIELDS,
    AdvancementPlan,
    check_advancement,
    check_ledger,
)
from storage.transfer.checker import ImportChecker
from storage.transfer.conditions import check_conditions
from storage.transfer.format import (
    BODY_FIELDS,
    CAMPAIGN_FIELDS,
    FORMAT,
    GEAR_VERSION,
    HEADER_FIELDS,
    KINDS,
    MAX_IMPORT_CHARACTERS,
    POINTS_VERSION,
    READ_VERSIONS,
    SESSIONS_FIELDS,
    SESSIONS_VERSION,
    VERSION,
)
from storage.transfer.gear import check_currency
from storage.transfer.plan import ImportPlan
from storage.transfer.problems import (
    ALREADY_USED,
    EXPECTED_LIST,
    MISSING,
    OVER_LIMIT,
    ImportProblem,
    LimitPassed,
    show_value,
)
from storage.transfer.reading import load
from storage.transfer.sessions import SettingsData, check_sessions, check_settings
from storage.transfer.sheets import check_character
from storage.validation import Problem, expected_text, name_problem, type_name
from wire.i18n import N_
from wire.sheet import Character
from wire.textcheck import normal_text


async def read_import(data: dict[str, Any] | bytes | str) -> ImportPlan:
    """`parse_import` in a worker process, so the bot goes on answering meanwhile."""
    return await offload.run(parse_import, data)


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

    Every problem up to the first limit passed (storage/transfer/format.py), where it stops.
    """
    checker = ImportChecker()
    try:
        document = load(checker, data)
        plan = _document(checker, document) if document is not None else None
    except LimitPassed:
        plan = None
    return (plan if not checker.problems else None), checker.problems


def _document(checker: ImportChecker, document: Any) -> ImportPlan | None:
    if not isinstance(document, dict):
        checker.problem("input", N_("expected a JSON object, got {type}"), type=type_name(document))
        return None
    kind = _header(checker, document)
    if kind == "character":
        return _character_document(checker, document)
    if kind == "campaign":
        return _campaign_document(checker, document)
    return None


def _header(checker: ImportChecker, document: dict[str, Any]) -> str | None:
    """The document's kind when its header reads (a version this bot reads), else None; the
    version is kept on the checker, since it decides which fields the body may have."""
    kind = document.get("kind")
    body = BODY_FIELDS.get(kind) if isinstance(kind, str) else None
    version = document.get("version")
    checker.version = version if isinstance(version, int) else 0
    body = (body or ("character", "campaign", "characters")) + (
        ("campaign", "ledger") if checker.version >= POINTS_VERSION else ()
    )
    if kind == "campaign" and checker.version >= SESSIONS_VERSION:
        body += ("sessions",)
    checker.obj(document, "", HEADER_FIELDS + body)
    if document.get("format") != FORMAT:
        checker.problem(
            "format",
            N_("expected {expected}, got {value}; is this a WIRE bot export?"),
            expected=repr(FORMAT),
            value=show_value(document.get("format")),
        )
    if "version" not in document:
        checker.problem(
            "version", N_("missing (this bot reads version {version})"), version=VERSION
        )
        return None
    if version not in READ_VERSIONS or isinstance(version, bool):
        checker.problem(
            "version",
            N_(
                "{value} is not a version this bot reads (it reads {version}); export it "
                "again with a matching bot"
            ),
            value=show_value(version),
            version=", ".join(str(v) for v in READ_VERSIONS),
        )
        return None  # another version's body means something else: stop here
    if kind not in KINDS:
        checker.problem(
            "kind",
            N_("expected 'character' or 'campaign', got {value}"),
            value=show_value(kind),
        )
        return None
    exported_at = document.get("exported_at")
    if exported_at is not None and not isinstance(exported_at, str):
        checker.problem("exported_at", expected_text(exported_at))
    return kind


def _character_document(checker: ImportChecker, document: dict[str, Any]) -> ImportPlan | None:
    if "character" not in document:
        checker.problem("character", MISSING)
        return None
    sheet = check_character(checker, document["character"], "character")
    sheets = (sheet,) if sheet else ()
    advancement = None
    if checker.version >= POINTS_VERSION:
        settings = document.get("campaign")
        if settings is not None:
            checker.obj(settings, "campaign", ADVANCEMENT_FIELDS)
        advancement = _advancement(checker, document, settings, sheets)
    return ImportPlan(
        "character",
        sheets,
        advancement=advancement,
        saved_rolls=tuple(checker.saved.items()),
        gear=tuple(checker.gear.items()),
        sheet_conditions=tuple(checker.conditions.items()),
    )


def _advancement(
    checker: ImportChecker, document: dict[str, Any], settings: Any, sheets: tuple[Character, ...]
) -> AdvancementPlan:
    plan = check_advancement(
        checker,
        settings if isinstance(settings, dict) else {},
        characters=[s.name for s in sheets],
    )
    if "ledger" in document:
        ledger = check_ledger(checker, document["ledger"], [s.name for s in sheets])
        plan = dataclasses.replace(plan, ledger=ledger)
    return plan


def _campaign_document(checker: ImportChecker, document: dict[str, Any]) -> ImportPlan | None:
    settings = document.get("campaign")
    found = _campaign_settings(checker, settings)
    sheets = _sheets(checker, document)
    if sheets is None:
        return None
    v2 = checker.version >= POINTS_VERSION
    advancement = _advancement(checker, document, settings, sheets) if v2 else None
    sessions = (
        check_sessions(checker, document["sessions"], "sessions")
        if "sessions" in document and checker.version >= SESSIONS_VERSION
        else ()
    )
    return ImportPlan(
        "campaign",
        sheets,
        found.name,
        found.npc_take10,
        advancement,
        saved_rolls=tuple(checker.saved.items()),
        gear=tuple(checker.gear.items()),
        sheet_conditions=tuple(checker.conditions.items()),
        currency=found.currency,
        conditions=found.conditions,
        sessions=sessions,
        session_settings=found.session_settings,
    )


@dataclasses.dataclass(slots=True)
class _CampaignSettings:
    """What a campaign file's "campaign" object gives beyond character points."""

    name: str | None = None
    npc_take10: bool | None = None
    currency: Any = None
    conditions: tuple[Any, ...] = ()
    session_settings: SettingsData | None = None


def _campaign_settings(checker: ImportChecker, settings: Any) -> _CampaignSettings:
    found = _CampaignSettings()
    fields = CAMPAIGN_FIELDS + (ADVANCEMENT_FIELDS if checker.version >= POINTS_VERSION else ())
    fields += ("currency",) if checker.version >= GEAR_VERSION else ()
    fields += SESSIONS_FIELDS if checker.version >= SESSIONS_VERSION else ()
    if settings is None or checker.obj(settings, "campaign", fields) is None:
        return found
    if "name" in settings:
        problem = name_problem(settings["name"])
        if problem:
            checker.problem("campaign.name", problem)
        else:
            found.name = normal_text(settings["name"])
    if "npc_take10" in settings:
        found.npc_take10 = checker.boolean(settings["npc_take10"], "campaign.npc_take10")
    if "currency" in settings and checker.version >= GEAR_VERSION:
        found.currency = check_currency(checker, settings["currency"], "campaign.currency")
    if checker.version >= SESSIONS_VERSION:
        if "conditions" in settings:
            found.conditions = check_conditions(
                checker, settings["conditions"], "campaign.conditions"
            )
        if "session_settings" in settings:
            found.session_settings = check_settings(
                checker, settings["session_settings"], "campaign.session_settings"
            )
    return found


def _sheets(checker: ImportChecker, document: dict[str, Any]) -> tuple[Character, ...] | None:
    """The campaign file's sheets, each name once; None where "characters" is no list."""
    if "characters" not in document:
        checker.problem("characters", MISSING)
        return None
    entries = document["characters"]
    if not isinstance(entries, list):
        checker.problem("characters", EXPECTED_LIST, type=type_name(entries))
        return None
    if len(entries) > MAX_IMPORT_CHARACTERS:
        checker.limit("characters", OVER_LIMIT, n=len(entries), limit=MAX_IMPORT_CHARACTERS)
    sheets: list[Character] = []
    first_path: dict[str, str] = {}
    for index, entry in enumerate(entries):
        path = f"characters[{index}]"
        sheet = check_character(checker, entry, path)
        entry_name = entry.get("name") if isinstance(entry, dict) else None
        if isinstance(entry_name, str) and normal_text(entry_name):
            key = normal_text(entry_name).casefold()
            if key in first_path:
                checker.problem(
                    f"{path}.name",
                    ALREADY_USED,
                    name=repr(normal_text(entry_name)),
                    path=first_path[key],
                )
            else:
                first_path[key] = path
        if sheet:
            sheets.append(sheet)
    return tuple(sheets)
