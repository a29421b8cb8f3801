"""Plain records the storage hands out and takes in.

They hold no database handles and no SQL, so the cogs (and a later PostgreSQL backend) see the
same shapes whatever stores them. Frozen: a record read from the database is a snapshot, and a
change goes back through the store, where permissions and concurrency are handled.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any, ClassVar

from storage.errors import GmOnly, InvalidValue
from wire import limits

NAME_MAX = 64
"""Longest campaign, character, weapon, attribute, skill or item name (characters)."""
NOTES_MAX = 1000
"""Longest character notes (characters); fits one embed field."""
# The value ranges are the rules core's (wire/limits.py), so a sheet holds exactly what a roll
# accepts; these names only spell them the way the store's checks read them.
STAT_MIN, STAT_MAX = limits.ATTRIBUTE.low, limits.ATTRIBUTE.high
SKILL_MIN, SKILL_MAX = limits.SKILL.low, limits.SKILL.high
BASE_MIN, BASE_MAX = limits.BASE.low, limits.BASE.high
QUALITY_MIN, QUALITY_MAX = limits.QUALITY.low, limits.QUALITY.high
MAX_ATTRIBUTES = 20
MAX_SKILLS = 60
MAX_WEAPONS = 10


MAX_CAMPAIGNS_PER_GUILD = 50
MAX_CHARACTERS_PER_CAMPAIGN = 500
"""Player characters in one campaign."""
MAX_NPCS_PER_CAMPAIGN = 500
MAX_OPEN_PROJECTS_PER_USER = 25
"""Unfinished crafting projects of one user in one campaign."""


class Actor(int):
    """A Discord user acting in a guild: their id, and whether they manage the server.

    Members with Manage Server (or Administrator) are GMs of every campaign in their server,
    always; Discord tells the bot so with each interaction, so the cogs build an Actor from it
    and every store method that takes an actor id takes an Actor unchanged (it is that id). A
    plain int is a member without server-wide rights.
    """

    manages_guild: bool

    def __new__(cls, user_id: int, manages_guild: bool = False) -> Actor:
        actor = super().__new__(cls, user_id)
        actor.manages_guild = manages_guild
        return actor

    def __repr__(self) -> str:
        return f"Actor({int(self)}{', manages the server' if self.manages_guild else ''})"


def manages_guild(user_id: int) -> bool:
    return bool(getattr(user_id, "manages_guild", False))


@dataclass(frozen=True, slots=True)
class Campaign:
    id: int
    guild_id: int
    name: str
    gm_ids: tuple[int, ...]
    """The campaign's player GMs, in the order they got the role; the server's managers are GMs
    as well without being listed."""
    npc_take10: bool = True
    """NPC defences take 10 instead of rolling."""
    gm_channel_id: int | None = None
    """Where hidden rolls are shown to the GMs; None: the GMs get them by direct message."""
    is_default: bool = False
    """The guild's default campaign, made on first use."""
    show_npc_modifiers: bool = False
    """Whether the table sees an NPC's modifiers in roll embeds (else only its total)."""

    def is_gm(self, user_id: int) -> bool:
        return manages_guild(user_id) or user_id in self.gm_ids

    def gm_only(self, action: str) -> GmOnly:
        """The error for a GMs-only action: it names the GMs and how to get the role."""
        return GmOnly(self.name, self.gm_ids, action)


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
    """A character sheet: read from the store, or validated from an import before it is stored.

    One model for both, so an import, an export and the store cannot drift apart; a sheet that is
    not stored yet has id, campaign_id and owner_id 0 (the store assigns them).
    """

    name: str
    is_npc: bool = False
    attributes: dict[str, int] = field(default_factory=dict)
    """Attribute name (as the user wrote it) -> value. Look-ups are case-insensitive."""
    skills: dict[str, int] = field(default_factory=dict)
    weapons: tuple[Weapon, ...] = ()
    shield: bool = False
    """Block needs a shield."""
    notes: str = ""
    id: int = 0
    campaign_id: int = 0
    owner_id: int = 0

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


class RollState(StrEnum):
    """Where a logged roll stands. Only an attack on a player character is ever not resolved:
    it is logged when posted, waits for the defence button, and ends defended or expired."""

    RESOLVED = "resolved"
    WAITING = "waiting"
    DEFENDED = "defended"
    EXPIRED = "expired"


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
    state: RollState = RollState.RESOLVED
    pending_id: int | None = None
    """The pending action a waiting roll waits on; settling that action settles this roll."""


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


@dataclass(frozen=True, slots=True)
class StoredRoll:
    """A roll kept for later (the attack a defence answers): the die and the modifiers."""

    face: int
    source: str
    """rolled, table or take10."""
    modifiers: tuple[tuple[str, int], ...]

    @property
    def total(self) -> int:
        return self.face + sum(value for _, value in self.modifiers)


@dataclass(frozen=True, slots=True)
class PendingAttack:
    """An attack on a player character that waits for its defence: the payload of a pending
    action of kind "attack".

    Versioned and checked when read back, so a payload written by another version of the bot
    (or damaged by hand) is refused with a message, never half-used.
    """

    KIND: ClassVar[str] = "attack"
    VERSION: ClassVar[int] = 1

    attacker: str
    attacker_user: int
    attacker_character: int | None
    weapon: str
    base: int
    attack: StoredRoll
    target: str
    target_id: int
    target_owner: int
    channel_id: int
    attacker_secret: bool = False
    """The attacker is an NPC whose die and modifiers the table does not see."""

    def to_payload(self) -> dict[str, Any]:
        return {
            "v": self.VERSION,
            "attacker": self.attacker,
            "attacker_user": self.attacker_user,
            "attacker_character": self.attacker_character,
            "weapon": self.weapon,
            "base": self.base,
            "attack": {
                "face": self.attack.face,
                "source": self.attack.source,
                "modifiers": [list(m) for m in self.attack.modifiers],
            },
            "target": self.target,
            "target_id": self.target_id,
            "target_owner": self.target_owner,
            "channel_id": self.channel_id,
            "attacker_secret": self.attacker_secret,
        }

    @classmethod
    def from_payload(cls, data: dict[str, Any]) -> PendingAttack:
        """The attack, or InvalidValue if the payload is not one this version wrote."""
        try:
            if data.get("v", 1) != cls.VERSION:
                raise ValueError(f"version {data.get('v')!r}")
            roll = data["attack"]
            attack = StoredRoll(
                _int(roll["face"]),
                _text(roll["source"]),
                tuple((_text(label), _int(value)) for label, value in roll["modifiers"]),
            )
            character = data.get("attacker_character")
            return cls(
                attacker=_text(data["attacker"]),
                attacker_user=_int(data["attacker_user"]),
                attacker_character=None if character is None else _int(character),
                weapon=_text(data["weapon"]),
                base=_int(data["base"]),
                attack=attack,
                target=_text(data["target"]),
                target_id=_int(data["target_id"]),
                target_owner=_int(data["target_owner"]),
                channel_id=_int(data["channel_id"]),
                attacker_secret=_flag(data.get("attacker_secret", False)),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidValue(
                "This attack's stored data cannot be read (it was written by another version "
                "of the bot). Settle it by hand with /defend."
            ) from exc


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected a whole number, got {value!r}")
    return value


def _flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"expected true or false, got {value!r}")
    return value


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected text, got {value!r}")
    return value
