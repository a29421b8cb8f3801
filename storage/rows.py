"""Conversions between rows and records, the same for every backend.

The backends keep column values alike (JSON as text, times as `utc_text`'s fixed-width UTC
text, flags as 0/1 integers), so one converter serves both. Column order here and in the
statements of storage/sql/common.py must match.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from storage.errors import InvalidValue
from storage.models import Campaign, CraftProject, PendingAction, RollRecord, RollState
from wire.conditions import Effect, Target, Timing
from wire.sheet import Character, Weapon


def utc_text(moment: datetime | None = None) -> str:
    """A moment as fixed-width UTC text, so that text order is time order. Naive means UTC."""
    moment = moment or datetime.now(UTC)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


_JSON = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False)
"""One encoder for every stored JSON text: json.dumps with options builds one per call."""


def json_text(value: Any, what: str) -> str:
    try:
        return _JSON.encode(value)
    except (TypeError, ValueError) as exc:
        raise InvalidValue(
            "The {what} cannot be stored: it is not JSON data ({exc}).", what=what, exc=exc
        ) from exc


# ---- row conversion -------------------------------------------------------------------------
def campaign_from_row(row: Sequence[Any]) -> Campaign:
    return Campaign(
        id=row[0],
        guild_id=row[1],
        name=row[2],
        gm_ids=tuple(json.loads(row[6])),
        npc_take10=bool(row[3]),
        gm_channel_id=row[4],
        is_default=bool(row[5]),
        show_npc_modifiers=bool(row[7]),
        show_npc_health=bool(row[8]),
        attribute_names=tuple(json.loads(row[9])) if row[9] is not None else None,
        language=row[10],
        attacks_per_turn=row[11],
        out_of_turn_attacks=bool(row[12]),
        players_conditions=bool(row[13]),
    )


def character_from_row(row: Sequence[Any]) -> Character:
    attributes: dict[str, int] = {}
    skills: dict[str, int] = {}
    for kind, name, value in json.loads(row[7]):
        (attributes if kind == "attribute" else skills)[name] = value
    return Character(
        id=row[0],
        campaign_id=row[1],
        name=row[2],
        owner_id=row[3],
        is_npc=bool(row[4]),
        attributes=attributes,
        skills=skills,
        weapons=tuple(Weapon(*w) for w in json.loads(row[8])),
        hp_max=row[9],
        thp_max=row[10],
        wp_max=row[11],
        armour=row[12],
        lost=(row[13], row[14], row[15]),
        portrait=row[16],
        shield=bool(row[5]),
        notes=row[6],
        conditions=sheet_conditions(row[17]),
    )


_NONE = "[]"


def sheet_conditions(text: str | None) -> tuple[Effect, ...]:
    """A sheet's conditions from their JSON column (storage/sql/common.py's `conditions`):
    most sheets have none, and then nothing is parsed; the same text read again (every roll
    of a marked character reads its cached row anew) is parsed once (conditions are frozen)."""
    if not text or text == _NONE:
        return ()
    return _parsed_conditions(text)


@lru_cache(maxsize=1024)
def _parsed_conditions(text: str) -> tuple[Effect, ...]:
    return tuple(sheet_condition_from_row(row) for row in json.loads(text))


def sheet_condition_from_row(row: Sequence[Any]) -> Effect:
    """A sheet's condition from (id, name, rounds, modifier, applies_to, stat, timing,
    hidden), the columns of character_conditions as every read of them lists them."""
    condition_id, name, rounds, modifier, applies_to, stat, timing, hidden = row
    return Effect(
        id=condition_id,
        name=name,
        rounds_left=rounds,
        modifier=modifier,
        applies_to=Target(applies_to),
        stat=stat,
        timing=Timing(timing),
        hidden=bool(hidden),
    )


def project_from_row(row: Sequence[Any]) -> CraftProject:
    return CraftProject(
        id=row[0],
        campaign_id=row[1],
        owner_id=row[2],
        item=row[3],
        quality=row[4],
        character_id=row[5],
        finished=bool(row[6]),
        rolls=row[7],
        attribute=row[8],
        skill=row[9],
        target=row[10],
        goal=row[11],
    )


def roll_from_row(row: Sequence[Any]) -> RollRecord:
    return RollRecord(
        guild_id=row[0],
        campaign_id=row[1],
        channel_id=row[2],
        user_id=row[3],
        kind=row[4],
        inputs=json.loads(row[5]),
        die=row[6],
        die_source=row[7],
        total=row[8],
        target=row[9],
        success=bool(row[10]),
        degrees=row[11],
        raw_degrees=row[12],
        damage=row[13],
        hidden=bool(row[14]),
        character_id=row[15],
        character_name=row[16],
        interaction_id=row[17],
        created_at=datetime.fromisoformat(row[18]),
        id=row[19],
        state=RollState(row[20]),
        pending_id=row[21],
    )


def roll_params(record: RollRecord, project_id: int | None = None) -> dict[str, Any]:
    return {
        "guild_id": record.guild_id,
        "campaign_id": record.campaign_id,
        "channel_id": record.channel_id,
        "user_id": record.user_id,
        "kind": record.kind,
        "inputs": json_text(record.inputs, "roll's inputs"),
        "die": record.die,
        "die_source": record.die_source,
        "total": record.total,
        "target": record.target,
        "success": int(bool(record.success)),
        "degrees": record.degrees,
        "raw_degrees": record.raw_degrees,
        "damage": record.damage,
        "hidden": int(bool(record.hidden)),
        "character_id": record.character_id,
        "character_name": record.character_name,
        "interaction_id": record.interaction_id,
        "project_id": project_id,
        "created_at": utc_text(record.created_at) if record.created_at else None,
        "state": str(record.state),
        "pending_id": record.pending_id,
    }


def pending_from_row(row: Sequence[Any]) -> PendingAction:
    return PendingAction(
        id=row[0],
        guild_id=row[1],
        campaign_id=row[2],
        kind=row[3],
        payload=json.loads(row[4]),
        expires_at=datetime.fromisoformat(row[5]),
        channel_id=row[6],
        message_id=row[7],
    )
