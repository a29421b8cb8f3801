"""Plain records the storage hands out and takes in.

They hold no database handles and no SQL, so the cogs (and a later PostgreSQL backend) see the
same shapes whatever stores them. Frozen: a record read from the database is a snapshot, and a
change goes back through the store, where permissions and concurrency are handled.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

NAME_MAX = 64
"""Longest campaign, character, weapon, attribute, skill or item name (characters)."""
NOTES_MAX = 1000
"""Longest character notes (characters); fits one embed field."""
STAT_MIN, STAT_MAX = -10, 30
"""Range of an attribute value on a sheet."""
SKILL_MIN, SKILL_MAX = 0, 10
"""Range of a skill value on a sheet (WIRE skills go 0 to 10)."""
BASE_MIN, BASE_MAX = 0, 50
"""Range of a weapon's base damage."""
QUALITY_MIN, QUALITY_MAX = -1000, 1000
"""Range of a crafting project's quality."""
MAX_ATTRIBUTES = 20
MAX_SKILLS = 60
MAX_WEAPONS = 10


@dataclass(frozen=True, slots=True)
class Campaign:
    id: int
    guild_id: int
    name: str
    gm_ids: tuple[int, ...]
    """The campaign's GMs, the creator first."""
    npc_take10: bool = True
    """NPC defences take 10 instead of rolling."""
    gm_channel_id: int | None = None
    """Where hidden rolls are shown to the GMs; None: the GMs get them by direct message."""
    is_default: bool = False
    """The guild's default campaign, made on first use."""

    def is_gm(self, user_id: int) -> bool:
        return user_id in self.gm_ids


@dataclass(frozen=True, slots=True)
class Weapon:
    name: str
    base: int
    attribute: str
    """The attribute the weapon is wielded with (e.g. "Strength")."""
    skill: str
    """The skill the weapon is wielded with (e.g. "Heavy melee weapons")."""


@dataclass(frozen=True, slots=True)
class Character:
    id: int
    campaign_id: int
    name: str
    owner_id: int
    is_npc: bool = False
    attributes: dict[str, int] = field(default_factory=dict)
    """Attribute name (as the user wrote it) -> value. Look-ups are case-insensitive."""
    skills: dict[str, int] = field(default_factory=dict)
    weapons: tuple[Weapon, ...] = ()
    shield: bool = False
    """Block needs a shield."""
    notes: str = ""

    def attribute(self, name: str) -> int | None:
        return _lookup(self.attributes, name)

    def skill(self, name: str) -> int | None:
        return _lookup(self.skills, name)

    def weapon(self, name: str) -> Weapon | None:
        folded = name.casefold()
        return next((w for w in self.weapons if w.name.casefold() == folded), None)


def find_stat(table: dict[str, int], name: str) -> tuple[str, int] | None:
    """(the stored spelling, the value) of a stat, matched case-insensitively."""
    folded = name.casefold()
    return next(((k, v) for k, v in table.items() if k.casefold() == folded), None)


def _lookup(table: dict[str, int], name: str) -> int | None:
    found = find_stat(table, name)
    return found[1] if found else None


@dataclass(frozen=True, slots=True)
class CraftProject:
    id: int
    campaign_id: int
    owner_id: int
    item: str
    quality: int
    character_id: int | None = None
    finished: bool = False
    rolls: int = 0
    """How many crafting rolls have been applied."""


@dataclass(frozen=True, slots=True)
class RollRecord:
    """One resolved roll as it goes into the roll log.

    `interaction_id` makes logging idempotent: logging the same interaction twice (a retried
    answer) keeps one row.
    """

    guild_id: int
    campaign_id: int
    channel_id: int
    user_id: int
    kind: str
    """check, attack, defend, contest, craft, ..."""
    inputs: dict[str, Any]
    """The options the roll was made with (JSON-serialisable)."""
    die: int
    die_source: str
    """rolled, table (a physical die rolled at the table) or take10."""
    total: int
    target: int | None
    success: bool
    degrees: int
    """Capped degrees (DoS on success, DoF on failure)."""
    raw_degrees: int
    damage: int | None = None
    hidden: bool = False
    character_id: int | None = None
    character_name: str | None = None
    interaction_id: int | None = None
    id: int | None = None
    created_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class PendingAction:
    """Something posted with buttons that waits for a user (an attack waiting for a defence).

    Kept in the database, not in memory, so the buttons still work after a restart; claimed at
    most once, so two presses cannot both resolve it.
    """

    id: int
    guild_id: int
    campaign_id: int
    kind: str
    payload: dict[str, Any]
    expires_at: datetime
    channel_id: int | None = None
    message_id: int | None = None
