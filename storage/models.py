"""Plain records the storage hands out and takes in.

They hold no database handles and no SQL, so the cogs see the same shapes whichever backend
stores them (SQLite or PostgreSQL). Frozen: a record read from the database is a snapshot, and a
change goes back through the store, where permissions and concurrency are handled.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, ClassVar, NotRequired, TypedDict, Unpack

from storage.errors import GmOnly, InvalidValue, PermissionDenied
from wire import limits, names
from wire.conditions import Effect as Effect  # the fight's records live in the rules core;
from wire.fight import Combatant as Combatant  # imported back so old imports keep working
from wire.fight import Fight as Fight
from wire.fight import MayAttack, TurnRules
from wire.fight import NextTurn as NextTurn
from wire.fight import TurnChange as TurnChange
from wire.gear import Counter
from wire.health import DamageKind, Health, HealthChange
from wire.i18n import N_
from wire.initiative import Initiative
from wire.sheet import Character

QUALITY_MIN, QUALITY_MAX = limits.QUALITY.low, limits.QUALITY.high


WIRE_ATTRIBUTES = names.ATTRIBUTES
"""The attributes WIRE's public rules name (the full list is not confirmed in our sources: a
GM adds the rest to the campaign's list), as English ids; shown in the reader's language."""
LANGUAGE_CODE = re.compile(r"[a-z]{2,3}(-[A-Za-z0-9]{2,8})?")
"""A campaign's language: a catalogue's code ("de"), as wire.i18n names them."""

MAX_CAMPAIGNS_PER_GUILD = 50
MAX_CHARACTERS_PER_CAMPAIGN = 1000
"""Player characters in one campaign (as many as one import may bring)."""
MAX_NPCS_PER_CAMPAIGN = 1000
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
    show_npc_health: bool = False
    """Whether the table sees an NPC's health as numbers (else as a descriptor)."""
    attribute_names: tuple[str, ...] | None = None
    """The campaign's attribute names; None: WIRE's own (WIRE_ATTRIBUTES)."""
    language: str | None = None
    """The language every reply in the campaign speaks ("de"); None: each user's own."""
    attacks_per_turn: int | None = 1
    """Attacks a combatant makes in its turn (WIRE's Action Point limit, whose number our
    sources lack: the table's); None: any number."""
    out_of_turn_attacks: bool = False
    """Whether a player's combatant may attack in another's turn (else only with a reaction)."""
    players_conditions: bool = False
    """Whether players may put conditions on their own characters outside a fight (else GMs
    only; nobody but a GM ever on another's character or an NPC)."""

    @property
    def turn_rules(self) -> TurnRules:
        """The campaign's rules of a turn, as the fight (wire.fight) asks for them."""
        return TurnRules(self.attacks_per_turn, self.out_of_turn_attacks)

    def attributes(self) -> tuple[str, ...]:
        """What autocomplete offers: the campaign's own list as written, or WIRE's attributes
        in the language in use (the campaign's fixed one, else the reader's)."""
        if self.attribute_names is not None:
            return self.attribute_names
        return tuple(names.shown(name) for name in WIRE_ATTRIBUTES)

    def known_attributes(self) -> tuple[str, ...]:
        """What a new attribute's name is checked against for typos: the campaign's names and,
        for those of WIRE's own, their spellings in every language ("Reaktion" is no typo of
        "Reaction" but the same attribute in German)."""
        listed = self.attribute_names if self.attribute_names is not None else WIRE_ATTRIBUTES
        return tuple(dict.fromkeys(alias for name in listed for alias in names.aliases(name)))

    def is_gm(self, user_id: int) -> bool:
        return manages_guild(user_id) or user_id in self.gm_ids

    def gm_only(self, action: str, /, **names: str) -> GmOnly:
        """The error for a GMs-only action: it names the GMs and how to get the role.

        `action` is a template marked with N_, `names` the names it holds ("remove {name}
        from the fight", name=...), so it is translated with the names shown as they are."""
        return GmOnly(self.name, self.gm_ids, action, names)


NOT_YOURS = N_("Only {name}'s player or a GM can change {name} or act for them.")
"""The one wording of the rule below, for a player character; an NPC's refusal names the GMs."""
NPCS_ARE_THE_GMS = N_("change or act for {name}, an NPC")


def may_change(campaign: Campaign, user_id: int, *, owner_id: int | None, is_npc: bool) -> bool:
    """The one rule of who may change something of a campaign or act for it (a sheet, a
    fight's combatant, a crafting project): a GM of the campaign, and everyone with Manage
    Server is one; otherwise only its owner, and only for what a player may own: an NPC (or
    what nobody owns, `owner_id` None) is the GMs' alone, so whoever made it may no longer
    touch it once they stop being a GM.

    The family built on it, so every entry point of the store asks the same question:
    `change_refusal` / `require_change` give the refusal for a character (its one wording);
    crafting words its own for a project (storage/rules_crafting.py)."""
    if campaign.is_gm(user_id):
        return True
    return not is_npc and owner_id is not None and owner_id == user_id


def change_refusal(
    campaign: Campaign,
    user_id: int,
    *,
    name: str,
    player_id: int | None,
    is_npc: bool,
    npc_action: str = NPCS_ARE_THE_GMS,
) -> PermissionDenied | None:
    """`may_change` for a character, as one rule for every entry point (a command, a button,
    the Edit form, an import, a fight's combatant, a CP spend, a change of health): None if
    `user_id` may, else the refusal to raise.

    A player character's refusal has one wording (NOT_YOURS); an NPC's names its GMs, and
    `npc_action` (a template with `{name}`, marked with N_) may say what was refused, as
    "change {name}'s health" does."""
    if may_change(campaign, user_id, owner_id=player_id, is_npc=is_npc):
        return None
    if is_npc or player_id is None:
        return campaign.gm_only(npc_action, name=name)
    return PermissionDenied(NOT_YOURS, name=name)


PLAYERS_CONDITIONS = N_(
    "put conditions on characters (a GM lets players put them on their own with "
    "/campaign settings players_conditions:true)"
)


def condition_refusal(
    campaign: Campaign, user_id: int, *, name: str, player_id: int | None, is_npc: bool
) -> PermissionDenied | None:
    """Who may put a condition on a character (on its sheet, or on its combatant in a fight:
    storage/rules_fights.py), or take one off: a GM; a player on their own character only, and
    only where the table lets players (`Campaign.players_conditions`); never on another's
    character nor an NPC. One member of `may_change`'s family: the change rule, then the
    table's setting."""
    refusal = change_refusal(campaign, user_id, name=name, player_id=player_id, is_npc=is_npc)
    if refusal is None and not campaign.is_gm(user_id) and not campaign.players_conditions:
        return campaign.gm_only(PLAYERS_CONDITIONS)
    return refusal


@dataclass(frozen=True, slots=True)
class RollerScene:
    """What a roll reads before anything else, in one cached read: the channel's campaign, the
    roller's active character, and whether the channel has a fight running (None: not known,
    so ask `running_fight`). A channel without a fight then costs a roll no second read."""

    campaign: Campaign
    character: Character | None
    in_fight: bool | None


def require_condition(
    campaign: Campaign, user_id: int, name: str, player_id: int | None, is_npc: bool
) -> None:
    """`condition_refusal` for the character `name` (played by `player_id`), raised: the one
    check of the sheet's conditions and of a fight's combatant's alike."""
    refusal = condition_refusal(campaign, user_id, name=name, player_id=player_id, is_npc=is_npc)
    if refusal is not None:
        raise refusal


class Whose(TypedDict):
    """`change_refusal`'s keywords: the character asked about."""

    name: str
    player_id: int | None
    is_npc: bool
    npc_action: NotRequired[str]


def require_change(campaign: Campaign, user_id: int, **whose: Unpack[Whose]) -> None:
    """`change_refusal`, raised."""
    refusal = change_refusal(campaign, user_id, **whose)
    if refusal is not None:
        raise refusal


@dataclass(frozen=True, slots=True)
class ImportClash:
    """A sheet of an import whose name the campaign has already: the sheet there."""

    name: str
    character_id: int
    owner_id: int
    is_npc: bool


@dataclass(frozen=True, slots=True)
class ImportOutcome:
    """What an import did: the sheets written, and the clashes it left out or replaced."""

    imported: list[Character]
    left_out: list[ImportClash]
    """Sheets already in the campaign that the import left as they were."""
    replaced: list[ImportClash]
    """Sheets already in the campaign that the import overwrote (they keep id and owner)."""


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
    attribute: str | None = None
    """The recipe: the attribute and skill from the crafter's sheet each roll uses, the TN of
    each roll, and the quality aimed for (None: given with each roll, or no goal)."""
    skill: str | None = None
    target: int | None = None
    goal: int | None = None


class RollState(StrEnum):
    """Where a logged roll stands. Only an attack on a player character is ever not resolved:
    it is logged when posted, waits for the defence button, and ends defended or expired."""

    RESOLVED = "resolved"
    WAITING = "waiting"
    DEFENDED = "defended"
    EXPIRED = "expired"


@dataclass(frozen=True, slots=True)
class SettledAttack:
    """The attacker's side of an attack its defender's roll settled: the defender's total is
    its target, so the attack's odds and luck are known exactly (wire/stats.py)."""

    target: int
    success: bool
    degrees: int
    """Capped degrees, the attacker's (DoS when the attack hit)."""
    raw_degrees: int


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
    """rolled, table (a physical die rolled at the table) or take10; for a free /roll,
    expression (then `die` is 0 and the dice rolled are in `inputs`)."""
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
class PrunedRolls:
    """One batch of the roll log's retention job: how many rows went, and the highest id that
    did (the next batch starts after it; None when none went: the old rows are gone)."""

    count: int
    last_id: int | None


@dataclass(frozen=True, slots=True)
class Shards:
    """The shards a process runs, of `count` in all: its guilds are those with
    `(guild_id >> 22) % count` in `ids` (Discord's rule)."""

    count: int
    ids: tuple[int, ...]

    def owns(self, guild_id: int) -> bool:
        return (guild_id >> 22) % self.count in self.ids


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
class Shot:
    """The ammunition an attack in a fight spends, in the transaction that takes its turn: the
    attacking sheet and its weapon (its ammunition counter, if it has one)."""

    character_id: int
    weapon: str


@dataclass(frozen=True, slots=True)
class Press:
    """A saved-roll button's press that attacks in a fight: the message it is on and the saved
    roll, so a press attacks once per turn of the fight (a double tap, a second client or a
    press after a restart in the same turn is refused; the next turn's press works)."""

    message_id: int
    saved_id: int


@dataclass(frozen=True, slots=True)
class AttackTaken:
    """An attack counted in a fight: what it used (wire.fight.MayAttack) and, for a weapon with
    ammunition, its counter before and after the shot."""

    verdict: MayAttack
    shot: tuple[Counter, Counter] | None = None


@dataclass(frozen=True, slots=True)
class Blow:
    """Where an attack's damage goes in a running fight: the target combatant's pool of the
    weapon's damage kind, credited to the attacking combatant (if it is in the fight)."""

    fight_id: int
    combatant_id: int
    kind: str = DamageKind.LETHAL.value
    attacker_id: int | None = None

    def to_payload(self) -> dict[str, Any]:
        return {
            "fight_id": self.fight_id,
            "combatant_id": self.combatant_id,
            "kind": self.kind,
            "attacker_id": self.attacker_id,
        }

    @classmethod
    def from_payload(cls, data: dict[str, Any]) -> Blow:
        attacker = data.get("attacker_id")
        kind = _text(data.get("kind", DamageKind.LETHAL.value))
        DamageKind(kind)  # ValueError if unknown
        return cls(
            _int(data["fight_id"]),
            _int(data["combatant_id"]),
            kind,
            None if attacker is None else _int(attacker),
        )


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
    blow: Blow | None = None
    """In a running fight: where the damage goes once the defence settles it."""
    language: str | None = None
    """The table's language when the attack was posted (the campaign's fixed one, else the
    server's): the message keeps it when settled or expired, whoever presses."""

    def to_payload(self) -> dict[str, Any]:
        return {
            "lang": self.language,
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
            "blow": self.blow.to_payload() if self.blow else None,
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
                blow=Blow.from_payload(data["blow"]) if data.get("blow") else None,
                language=_text(data["lang"]) if data.get("lang") else None,
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


@dataclass(frozen=True, slots=True)
class NewCombatant:
    """A combatant to add: from a sheet, with its initiative rolled."""

    name: str
    character_id: int
    controller_id: int | None
    is_npc: bool
    initiative: Initiative
    maxima: tuple[int, int, int] = (0, 0, 0)
    """An NPC copy's HP, THP and WP maxima (a player character's health stays on its sheet)."""
    armour: int = 0


@dataclass(frozen=True, slots=True)
class HealthTarget:
    """Whose health changes: a combatant of a running fight, or a character's sheet."""

    combatant_id: int | None = None
    character_id: int | None = None


@dataclass(frozen=True, slots=True)
class HealthEntry:
    """One logged change of health, as /history and the undo read it."""

    id: int
    target_name: str
    is_npc: bool
    change: HealthChange
    reason: str
    user_id: int
    undone: bool
    created_at: datetime | None
    maximum: int
    """The pool's maximum now, for showing it as a descriptor."""
    health: Health | None = None
    """Every pool of the target just after the change (None when read back from the log)."""
