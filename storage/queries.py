"""The SQLite store's SQL text and its conversions between rows and records.

Kept apart from storage/sqlite.py so the store's methods read as the steps of each operation.
Column order here and in the converters must match; each SELECT sits next to its converter's
expectations.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import aiosqlite

from storage.errors import InvalidValue
from storage.models import (
    Campaign,
    Character,
    CraftProject,
    PendingAction,
    RollRecord,
    RollState,
    Weapon,
)

NOW_SQL = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"


def utc_text(moment: datetime | None = None) -> str:
    """A moment as fixed-width UTC text, so that text order is time order. Naive means UTC."""
    moment = moment or datetime.now(UTC)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def json_text(value: Any, what: str) -> str:
    try:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise InvalidValue(f"The {what} cannot be stored: it is not JSON data ({exc}).") from exc


async def fetch_rows(db: aiosqlite.Connection, sql: str, params: Any = ()) -> list[Any]:
    """Every row of one statement, as a list (aiosqlite hands back an iterable)."""
    return list(await db.execute_fetchall(sql, params))


# ---- SQL ------------------------------------------------------------------------------------
CAMPAIGN_SELECT = """
SELECT c.id, c.guild_id, c.name, c.npc_take10, c.gm_channel_id, c.is_default,
       (SELECT json_group_array(g.user_id)
          FROM (SELECT user_id FROM campaign_gms WHERE campaign_id = c.id ORDER BY position) AS g),
       c.show_npc_modifiers, c.show_npc_health, c.attribute_names
  FROM campaigns AS c
"""

CAMPAIGN_FOR_CHANNEL = (
    CAMPAIGN_SELECT
    + """
 WHERE c.guild_id = :guild_id
   AND c.id = coalesce(
        (SELECT campaign_id FROM channel_bindings
          WHERE guild_id = :guild_id AND channel_id = :channel_id),
        (SELECT id FROM campaigns WHERE guild_id = :guild_id AND is_default = 1))
"""
)

CHARACTER_COLUMNS = """
SELECT ch.id, ch.campaign_id, ch.name, ch.owner_id, ch.is_npc, ch.shield, ch.notes,
       (SELECT json_group_array(json_array(s.kind, s.name, s.value))
          FROM (SELECT kind, name, value FROM character_stats
                 WHERE character_id = ch.id ORDER BY position) AS s),
       (SELECT json_group_array(json_array(w.name, w.base, w.attribute, w.skill, w.kind))
          FROM (SELECT name, base, attribute, skill, kind FROM weapons
                 WHERE character_id = ch.id ORDER BY position) AS w),
       ch.hp_max, ch.thp_max, ch.wp_max, ch.armour, ch.hp_lost, ch.thp_lost, ch.wp_lost
"""
"""A character with its whole sheet in one statement: one consistent read, one thread hop."""

CHARACTER_SELECT = (
    CHARACTER_COLUMNS
    + """
  FROM characters AS ch
  JOIN campaigns AS c ON c.id = ch.campaign_id
"""
)

ACTIVE_CHARACTER = (
    CHARACTER_COLUMNS
    + """
  FROM active_characters AS a
  JOIN characters AS ch ON ch.id = a.character_id AND ch.campaign_id = a.campaign_id
  JOIN campaigns AS c ON c.id = ch.campaign_id
 WHERE a.campaign_id = ? AND a.user_id = ? AND c.guild_id = ?
"""
)

ROLLER_CONTEXT = (
    CAMPAIGN_SELECT.replace("\n  FROM campaigns AS c\n", ",")
    + CHARACTER_COLUMNS.removeprefix("\nSELECT ")
    + """
  FROM campaigns AS c
  LEFT JOIN active_characters AS a ON a.campaign_id = c.id AND a.user_id = :user_id
  LEFT JOIN characters AS ch ON ch.id = a.character_id AND ch.campaign_id = a.campaign_id
 WHERE c.guild_id = :guild_id
   AND c.id = coalesce(
        (SELECT campaign_id FROM channel_bindings
          WHERE guild_id = :guild_id AND channel_id = :channel_id),
        (SELECT id FROM campaigns WHERE guild_id = :guild_id AND is_default = 1))
"""
)
"""The channel's campaign and the user's active character in it (NULLs if none): every roll
reads both, so one statement and one thread hop instead of two."""
CAMPAIGN_WIDTH = 10
"""Columns of CAMPAIGN_SELECT, where ROLLER_CONTEXT's character columns start."""

INSERT_STAT = """
INSERT INTO character_stats (character_id, kind, name_key, name, value, position)
VALUES (?1, ?2, ?3, ?4, ?5,
        (SELECT coalesce(max(position), 0) + 1 FROM character_stats WHERE character_id = ?1))
ON CONFLICT (character_id, kind, name_key) DO UPDATE SET value = excluded.value
"""

INSERT_WEAPON = """
INSERT INTO weapons (character_id, name_key, name, base, attribute, skill, kind, position)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7,
        (SELECT coalesce(max(position), 0) + 1 FROM weapons WHERE character_id = ?1))
ON CONFLICT (character_id, name_key) DO UPDATE
   SET name = excluded.name, base = excluded.base,
       attribute = excluded.attribute, skill = excluded.skill, kind = excluded.kind
"""

# An import's statements take all rows of a table as one JSON text (see sqlite._import_rows):
# one statement each, whatever the import's size, which SQLite runs without taking Python's GIL.
_IMPORTED_KEYS = "SELECT value FROM json_each(?2)"

IMPORT_CLASHES = f"""
SELECT json_group_array(json_array(name_key, id, name, owner_id, is_npc)) FROM characters
 WHERE campaign_id = ?1 AND name_key IN ({_IMPORTED_KEYS})
"""
"""One row whatever the number: a row each would be a trip back to Python each."""

IMPORT_CLEAR_STATS = f"""
DELETE FROM character_stats WHERE character_id IN
    (SELECT id FROM characters WHERE campaign_id = ?1 AND name_key IN ({_IMPORTED_KEYS}))
"""

IMPORT_CLEAR_WEAPONS = f"""
DELETE FROM weapons WHERE character_id IN
    (SELECT id FROM characters WHERE campaign_id = ?1 AND name_key IN ({_IMPORTED_KEYS}))
"""

IMPORT_CHARACTERS = """
INSERT INTO characters (campaign_id, name, name_key, owner_id, is_npc, shield, notes,
                        armour, wp_max, hp_max, thp_max)
SELECT ?1, json_extract(value, '$[0]'), json_extract(value, '$[1]'), ?2,
       json_extract(value, '$[2]'), json_extract(value, '$[3]'), json_extract(value, '$[4]'),
       json_extract(value, '$[5]'), json_extract(value, '$[6]'), json_extract(value, '$[7]'),
       json_extract(value, '$[8]')
  FROM json_each(?3) WHERE true
    ON CONFLICT (campaign_id, name_key) DO UPDATE
   SET name = excluded.name, is_npc = excluded.is_npc, shield = excluded.shield,
       notes = excluded.notes, armour = excluded.armour, wp_max = excluded.wp_max,
       hp_max = excluded.hp_max, thp_max = excluded.thp_max
"""
"""New sheets are the importer's; a replaced one keeps its id and owner."""

IMPORT_STATS = """
INSERT INTO character_stats (character_id, kind, name_key, name, value, position)
SELECT ch.id, json_extract(s.value, '$[1]'), json_extract(s.value, '$[2]'),
       json_extract(s.value, '$[3]'), json_extract(s.value, '$[4]'),
       json_extract(s.value, '$[5]')
  FROM json_each(?2) AS s
  CROSS JOIN characters AS ch
    ON ch.campaign_id = ?1 AND ch.name_key = json_extract(s.value, '$[0]')
"""

IMPORT_WEAPONS = """
INSERT INTO weapons (character_id, name_key, name, base, attribute, skill, position, kind)
SELECT ch.id, json_extract(w.value, '$[1]'), json_extract(w.value, '$[2]'),
       json_extract(w.value, '$[3]'), json_extract(w.value, '$[4]'),
       json_extract(w.value, '$[5]'), json_extract(w.value, '$[6]'),
       json_extract(w.value, '$[7]')
  FROM json_each(?2) AS w
  CROSS JOIN characters AS ch
    ON ch.campaign_id = ?1 AND ch.name_key = json_extract(w.value, '$[0]')
"""

IMPORT_WRITTEN = f"""
SELECT json_group_object(name_key, json_array(id, owner_id)) FROM characters
 WHERE campaign_id = ?1 AND name_key IN ({_IMPORTED_KEYS})
"""

ROLL_COLUMNS = """guild_id, campaign_id, channel_id, user_id, kind, inputs, die, die_source,
    total, target, success, degrees, raw_degrees, damage, hidden, character_id, character_name,
    interaction_id, created_at, id, state, pending_id"""

INSERT_ROLL = f"""
INSERT INTO roll_log (guild_id, campaign_id, channel_id, user_id, kind, inputs, die, die_source,
    total, target, success, degrees, raw_degrees, damage, hidden, character_id, character_name,
    interaction_id, project_id, created_at, state, pending_id)
SELECT c.guild_id, c.id, :channel_id, :user_id, :kind, :inputs, :die, :die_source,
    :total, :target, :success, :degrees, :raw_degrees, :damage, :hidden, :character_id,
    :character_name, :interaction_id, :project_id, coalesce(:created_at, {NOW_SQL}), :state,
    :pending_id
  FROM campaigns AS c
 WHERE c.id = :campaign_id AND c.guild_id = :guild_id
ON CONFLICT (interaction_id) DO NOTHING
RETURNING id
"""

PROJECT_SELECT = """
SELECT p.id, p.campaign_id, p.owner_id, p.item, p.quality, p.character_id, p.finished, p.rolls,
       p.attribute, p.skill, p.target, p.goal
  FROM craft_projects AS p
  JOIN campaigns AS c ON c.id = p.campaign_id
"""


PENDING_SELECT = """
SELECT id, guild_id, campaign_id, kind, payload, expires_at, channel_id, message_id
  FROM pending_actions
"""


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
        shield=bool(row[5]),
        notes=row[6],
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
