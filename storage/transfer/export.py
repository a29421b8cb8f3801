"""Export documents: a character's or a campaign's, written with the lowest version that holds
what the table has, so a file without the newer parts reads in every bot that read it before."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from storage.models import Campaign
from storage.models_advancement import Advancement, LedgerEntry
from storage.transfer.advancement import advancement_data, ledger_data
from storage.transfer.conditions import condition_list, sheet_condition_list
from storage.transfer.format import (
    FORMAT,
    GEAR_VERSION,
    POINTS_VERSION,
    SESSIONS_VERSION,
    SHEET_CONDITIONS_VERSION,
    VERSION,
)
from storage.transfer.sessions import sessions_list, settings_data
from wire.conditions import Effect
from wire.health import DamageKind
from wire.sessions import Answer
from wire.sheet import Character, Weapon


def character_data(
    character: Character,
    saved: Sequence[Any] = (),
    gear: Mapping[str, Any] | None = None,
    *,
    hidden: bool = False,
) -> dict[str, Any]:
    """A sheet as exported; the fight fields (armour, willpower, health overrides, a weapon's
    damage kind) only where they differ from the default, so a plain sheet exports as before.
    Its conditions where it has some, the hidden ones only with `hidden` (a file no one but a
    GM reads)."""
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
    if conditions := sheet_condition_list(character.conditions, hidden=hidden):
        data["conditions"] = conditions
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
    return GEAR_VERSION if any(gear.values()) or currency else version


def _with_sheet_conditions(version: int, entries: Sequence[Mapping[str, Any]]) -> int:
    """A sheet's conditions are written only where one has some: then the file is version 5."""
    return SHEET_CONDITIONS_VERSION if any("conditions" in e for e in entries) else version


def character_document(
    character: Character,
    now: datetime | None = None,
    advancement: Advancement | None = None,
    ledger: Sequence[LedgerEntry] = (),
    saved: Sequence[Any] = (),
    gear: Mapping[str, Any] | None = None,
    *,
    hidden: bool = False,
) -> dict[str, Any]:
    """`gear`: the sheet's (storage/transfer/gear.py `gear_data`); `hidden`: its hidden
    conditions too, for a file no one but a GM reads (an NPC's)."""
    version, settings, entries = 1, {}, []
    if advancement is not None:
        version, settings, entries = _points(
            advancement_data(advancement, list(character.skills), {character.id: character.name}),
            ledger_data(ledger, {character.id: character.name}),
        )
    version = _with_gear(version, {character.id: gear or {}}, {})
    sheet = character_data(character, saved, gear, hidden=hidden)
    version = _with_sheet_conditions(version, [sheet])
    document = {**_header("character", now, version), "character": sheet}
    if settings:
        document["campaign"] = settings
    if entries:
        document["ledger"] = entries
    return document


def version4_parts(
    conditions: Sequence[Effect],
    sessions: Sequence[Any],
    answers: Mapping[int, Mapping[int, Answer]],
    settings: Any,
) -> dict[str, Any]:
    """What version 4 adds to a campaign file: its named conditions and session settings (in
    the "campaign" object) and its sessions; empty where the table has none of them."""
    return {
        "conditions": condition_list(conditions),
        **settings_data(settings),
        "sessions": sessions_list(sessions, answers),
    }


def campaign_document(
    campaign: Campaign,
    characters: list[Character],
    now: datetime | None = None,
    advancement: Advancement | None = None,
    ledger: Sequence[LedgerEntry] = (),
    saved: Mapping[int, Sequence[Any]] | None = None,
    gear: Mapping[int, Mapping[str, Any]] | None = None,
    currency: Mapping[str, Any] | None = None,
    version4: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """`saved`: each character's saved rolls, by its id; `gear` each one's gear, `currency`
    the campaign's (storage/transfer/gear.py); `version4` what version 4 adds, as
    `version4_parts` gives it. The sheets' hidden conditions are in it: a campaign's export is
    its GMs' only."""
    saved, gear, currency = saved or {}, gear or {}, currency or {}
    added = {key: value for key, value in (version4 or {}).items() if value}
    version, settings, entries = 1, {}, []
    if advancement is not None:
        version, settings, entries = _points(
            advancement_data(advancement, None, {c.id: c.name for c in characters}),
            ledger_data(ledger, {c.id: c.name for c in characters}),
        )
    version = _with_gear(version, gear, currency)
    version = SESSIONS_VERSION if added else version
    sheets = [
        character_data(c, saved.get(c.id, ()), gear.get(c.id), hidden=True) for c in characters
    ]
    version = _with_sheet_conditions(version, sheets)
    document = {
        **_header("campaign", now, version),
        "campaign": {
            "name": campaign.name,
            "npc_take10": campaign.npc_take10,
            **settings,
            **currency,
            **{k: v for k, v in added.items() if k != "sessions"},
        },
        "characters": sheets,
    }
    if entries:
        document["ledger"] = entries
    if "sessions" in added:
        document["sessions"] = added["sessions"]
    return document
