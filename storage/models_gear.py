"""Records of gear, purses and counters: what the store hands the cogs (storage/rules_gear.py).

The rules (the load, the coins, what a counter may do) are the core's (wire/gear.py); these
only hold rows and what a reply needs with them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from wire.gear import Counter, Currency, Item, Load
from wire.sheet import Character

REASON_MAX = 200
"""Characters of a purse entry's reason."""
NOTE_MAX = 200
"""Characters of an item's note."""
LEDGER_SHOWN = 10
"""Purse entries on one page, newest first."""
MAX_WAITING_GIFTS = 5
"""Gifts of one character waiting for their receivers at once (each posts a message)."""


@dataclass(frozen=True, slots=True)
class GearSettings:
    currency: Currency = field(default_factory=Currency)
    gifts_at_once: bool = False
    """Player-to-player gives land without the receiver's Accept."""


@dataclass(frozen=True, slots=True)
class Purse:
    balance: int = 0
    """In the campaign's smallest coin."""
    revision: int = 0
    """How many changes the purse has had: an import compares it with the export's."""


@dataclass(frozen=True, slots=True)
class Gear:
    """A character's whole kit as its reader may see it."""

    sheet: Character
    items: tuple[Item, ...]
    counters: tuple[Counter, ...]
    purse: Purse
    settings: GearSettings
    load: Load

    @property
    def currency(self) -> Currency:
        return self.settings.currency


@dataclass(frozen=True, slots=True)
class PurseEntry:
    """One change to a purse; never changed once written."""

    id: int
    character_id: int
    user_id: int
    kind: str
    """pay, receive, give, grant, take, undo or import."""
    amount: int
    """Signed: what the purse gained (negative: lost)."""
    reason: str
    transfer_id: int | None
    """A give's two entries share it (the giver's entry id)."""
    undoes: int | None
    created_at: str


@dataclass(frozen=True, slots=True)
class PurseChange:
    """What a change did: the purse after it and the entry written."""

    sheet: Character
    purse: Purse
    entry: PurseEntry
    currency: Currency


@dataclass(frozen=True, slots=True)
class PurseLedger:
    sheet: Character
    entries: tuple[PurseEntry, ...]
    purse: Purse
    undone: frozenset[int]
    page: int
    count: int
    currency: Currency


@dataclass(frozen=True, slots=True)
class Gift:
    """A give waiting for the receiver's Accept (an item's name and quantity, or money)."""

    id: int
    campaign_id: int
    giver_id: int
    receiver_id: int
    user_id: int
    item_name: str | None
    quantity: int
    amount: int
    state: str


@dataclass(frozen=True, slots=True)
class GiveOutcome:
    """A give: done at once (`gift` None) or waiting for the receiver (`gift` its record)."""

    giver: Character
    receiver: Character
    gift: Gift | None
    receiver_owner: int
