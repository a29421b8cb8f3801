"""Records of character points (CP): a campaign's prices, a character's ledger, an improvement.

Kept apart from storage/models.py: the advancement tables are their own (migration 0012), and
the prices themselves are the rules core's (wire/advancement.py), so these only hold rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from wire.advancement import (
    NOT_PRICED,
    AttributePrice,
    Category,
    Worth,
    category_for,
    sheet_worth,
)
from wire.sheet import Character

MAX_AWARD = 1000
"""The most CP one award (or correction) moves: a typo guard, far above any session's award."""
MAX_EARNED = 100_000
"""The most CP a character may have earned in all: keeps every sum far inside the columns."""
MAX_SKILL_CATEGORIES = 200
"""Skills a campaign can give a category (a sheet holds at most 60)."""
MAX_SPECIES = 50
"""Species a campaign's list prices."""
SPECIES_COST_MAX = 10_000
"""The most CP a species may cost: a typo guard (the migration's CHECK says the same)."""
REASON_MAX = 200
"""Characters in an entry's reason ("Session 3: the warrens")."""
REQUEST_DAYS = 7
MAX_WAITING = 5
"""Improvements of one character waiting for a GM at once (each posts a message for the GMs)."""
"""Days an improvement waits for a GM's approval; then it closes, nothing spent, CP freed."""
FORGOTTEN_USER = 0
"""The user of a ledger entry or request whose maker used /privacy forget-me."""
LEDGER_SHOWN = 10
"""Entries on one page of `/cp show` (newest first); the totals always count them all. Ten
lines of at most ~350 characters (a reason is cut to REASON_SHOWN there) stay inside an
embed description's 4,096."""
REASON_SHOWN = 100
"""Characters of a reason a ledger page shows (the export keeps it whole)."""


@dataclass(frozen=True, slots=True)
class Advancement:
    """A campaign's advancement settings: every one a table's choice, none a silent default."""

    categories: Mapping[str, Category] = field(default_factory=dict)
    """Skill name (as the GM wrote it) -> its category; look-ups ignore case."""
    attribute_price: AttributePrice = NOT_PRICED
    starting_cp: int | None = None
    """A new character's budget; None: no budget, so nothing is flagged."""
    approval: bool = False
    """Improvements wait for a GM's Approve."""
    species: Mapping[str, int] = field(default_factory=dict)
    """The table's species list: name (as the GM wrote it) -> its CP cost."""
    sheet_species: Mapping[int, str] = field(default_factory=dict)
    """Character id -> the species its sheet names (priced or not)."""

    def category(self, skill: str) -> Category | None:
        return category_for(self.categories, skill)

    @property
    def holds_sheets(self) -> bool:
        """The table uses CP: a starting budget or approval is set, so a character ready for
        play moves its priced stats only through the ledger (docs/rules.md)."""
        return self.starting_cp is not None or self.approval

    def species_cost(self, species: str) -> int | None:
        wanted = species.casefold()
        return next((c for name, c in self.species.items() if name.casefold() == wanted), None)

    def worth(self, character: Character) -> Worth:
        return sheet_worth(
            character.skills,
            character.attributes,
            self.categories,
            self.attribute_price,
            self.sheet_species.get(character.id),
            self.species,
        )


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One award, spend or undo; never changed once written."""

    id: int
    character_id: int
    user_id: int
    kind: str
    """award, spend, undo, ready (for play) or correct (a GM's change of a stat)."""
    amount: int
    """CP gained (an award; a correction is negative) or lost (a spend is negative)."""
    reason: str
    stat_kind: str | None
    stat_name: str | None
    level_before: int | None
    level_after: int | None
    undoes: int | None
    created_at: str
    number: int = 0
    """The entry's place in its character's ledger: 1, 2, 3 (the id is campaign-wide)."""


@dataclass(frozen=True, slots=True)
class Totals:
    earned: int
    spent: int
    waiting: int = 0
    """CP held by improvements waiting for a GM."""

    @property
    def unspent(self) -> int:
        return self.earned - self.spent

    @property
    def available(self) -> int:
        """What a new improvement may spend: unspent, less what waiting ones hold."""
        return self.unspent - self.waiting


@dataclass(frozen=True, slots=True)
class Ledger:
    character: Character
    entries: tuple[LedgerEntry, ...]
    """One page of LEDGER_SHOWN, newest first."""
    totals: Totals
    undone: frozenset[int] = frozenset()
    """Ids of the shown entries an undo has reversed."""
    page: int = 0
    """Which page `entries` is: 0 the newest (a page past the last shows the last)."""
    count: int = 0
    """Entries in all."""

    @property
    def pages(self) -> int:
        return max(1, -(-self.count // LEDGER_SHOWN))


@dataclass(frozen=True, slots=True)
class Quote:
    """The price of an improvement, shown before it is paid."""

    character: Character
    stat_kind: str
    stat_name: str
    before: int
    after: int
    cost: int
    category: Category | None
    totals: Totals
    approval: bool

    @property
    def affordable(self) -> bool:
        return self.cost <= self.totals.available

    @property
    def missing(self) -> int:
        return max(0, self.cost - self.totals.available)


@dataclass(frozen=True, slots=True)
class Improvement:
    """A paid improvement (entry set) or one waiting for a GM (request_id set)."""

    quote: Quote
    character: Character
    entry: LedgerEntry | None = None
    request_id: int | None = None

    @property
    def waiting(self) -> bool:
        return self.entry is None


@dataclass(frozen=True, slots=True)
class Request:
    """An improvement waiting for (or decided by) a GM."""

    id: int
    campaign_id: int
    character_id: int
    user_id: int
    stat_kind: str
    stat_name: str
    level_before: int
    level_after: int
    cost: int
    state: str
    """waiting, approved, refused or expired."""
    decided_by: int | None
    created_at: str
    expires_at: str
    """UTC text (storage/rows.py's utc_text); pressed after it, the request closes as expired."""
    channel_id: int | None = None
    message_id: int | None = None
    """Where the GMs' message was posted (None before it is, and for requests filed before
    migration 16): the expiry sweep closes that message."""
    language: str | None = None
    """The language the GMs' message was written in: its later edits keep it."""
    asked_channel_id: int | None = None
    """Where the player asked (None for requests filed before migration 19): the answer is
    told to them there."""
    asked_language: str | None = None
    """The asking player's language, for the answer they are told."""

    def expired(self, now: str) -> bool:
        return self.state == "waiting" and self.expires_at <= now
