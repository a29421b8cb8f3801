"""What the parts of `RuleStore` (storage/rules.py) need of each other, as Protocols.

`RuleStore` is one class built from mixins, one a module (storage/rules_*.py); a mixin calls
methods another defines (a spend reads the sheet through `RuleCharacters._access`). Each mixin
names what it needs as its Protocol below and subclasses it for the type checker only:

    if TYPE_CHECKING:
        from storage.rules_needs import LedgerNeeds as _Needs
    else:
        _Needs = object

    class RuleLedger(_Needs): ...

State a mixin keeps itself (the roll queue, the imports' turn) it declares in its own class
body, typed; RuleStore's `__init__` sets it. At run time the base is `object`, so the MRO and
the methods are the mixins' own. A type checker (mypy, pyright) checks every call between the
parts against these signatures, and, where `RuleStore` joins the mixins, that each part's real
method matches the Protocol the others call ("Definition of _access in base class
RuleCharacters is incompatible with ..."). tests/storage/test_rules_needs.py checks the
same without a type checker: every member named here exists on `RuleStore` with these
parameters.

The parts, by the mixin that provides them: `Store` (storage/rules.py itself), `Sheets`
(rules_characters), `Prices` (rules_advancement), `Ledger` (rules_ledger), `Gear`
(rules_gear), `Purses` (rules_purse), `Counters` (rules_counters), `SavedRolls` (rules_saved),
`Conditions` (rules_conditions), `Sessions` (rules_sessions), `Fights` (rules_fights).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from storage.backend import Backend, Transaction
    from storage.models import Campaign, Fight
    from storage.models_advancement import Advancement, LedgerEntry, Totals
    from storage.models_gear import GearSettings, Purse, PurseEntry
    from storage.rules_characters import _Access
    from storage.rules_saved import SavedRoll
    from storage.rules_sessions import Session, SessionSettings
    from wire.advancement import Category
    from wire.conditions import Effect
    from wire.gear import Counter
    from wire.sessions import Answer, State
    from wire.sheet import Character

SheetChange = Callable[["Character"], tuple[Mapping[str, int], Mapping[str, int]]]
"""A sheet's attributes and skills after a change (`Ledger._hold_sheet`)."""


class Store(Protocol):
    """RuleStore's own: the backend, its transactions, the campaign and its GMs."""

    backend: Backend

    def _write(self, guild_id: int | None) -> AbstractAsyncContextManager[Transaction]: ...

    def _read(self) -> AbstractAsyncContextManager[Transaction]: ...

    async def _campaign_by_id(
        self, tx: Transaction, guild_id: int, campaign_id: int
    ) -> Campaign: ...

    async def campaign_for_channel(
        self, guild_id: int, channel_id: int, user_id: int
    ) -> Campaign: ...

    async def _require_gm(
        self,
        tx: Transaction,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        action: str = ...,
    ) -> Campaign: ...


class Sheets(Protocol):
    """RuleCharacters' (storage/rules_characters.py): sheets and who may change them."""

    async def _access(
        self, tx: Transaction, guild_id: int, campaign_id: int, actor_id: int, name: str | int
    ) -> _Access: ...

    async def _character_by_id(
        self, tx: Transaction, guild_id: int, campaign_id: int, character_id: int
    ) -> Character: ...

    async def _write_stats(
        self, tx: Transaction, character_id: int, kind: str, stats: dict[str, int]
    ) -> None: ...

    async def _check_room(
        self, tx: Transaction, campaign_id: int, npcs: bool, adding: int
    ) -> None: ...

    async def _activate_if_first(
        self, tx: Transaction, campaign_id: int, user_id: int, character_id: int
    ) -> None: ...

    async def get_character(self, guild_id: int, campaign_id: int, name: str) -> Character: ...


class Prices(Protocol):
    """RuleAdvancement's (storage/rules_advancement.py): the table's CP settings."""

    async def _advancement(self, tx: Transaction, campaign_id: int) -> Advancement: ...

    async def _write_species(
        self, tx: Transaction, campaign_id: int, cleaned: Mapping[str, int | None]
    ) -> None: ...

    async def _sheet_categories(
        self,
        tx: Transaction,
        campaign: Campaign,
        actor_id: int,
        categories: Mapping[str, Category] | None,
    ) -> None: ...


class Ledger(Protocol):
    """RuleLedger's (storage/rules_ledger.py): the CP ledger, and a ready sheet held to it."""

    async def _totals(self, tx: Transaction, campaign_id: int, character_id: int) -> Totals: ...

    async def _add_entry(self, tx: Transaction, **values: Any) -> LedgerEntry: ...

    async def _award(
        self,
        tx: Transaction,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        characters: Sequence[str | int],
        amount: int,
        reason: str,
    ) -> list[tuple[Character, Totals, LedgerEntry]]: ...

    async def _hold_sheet(self, tx: Transaction, access: _Access, change: SheetChange) -> None: ...

    async def _import_advancement(
        self,
        tx: Transaction,
        campaign: Campaign,
        actor_id: int,
        plan: Any,
        written: Mapping[str, Sequence[int]],
    ) -> None: ...

    async def advancement_for_export(
        self, guild_id: int, campaign_id: int
    ) -> tuple[Advancement, list[LedgerEntry]]: ...


class Gear(Protocol):
    """RuleGear's (storage/rules_gear.py): who may see a character's gear, its settings."""

    async def _gear_access(
        self, tx: Transaction, guild_id: int, campaign_id: int, actor_id: int, character: Any
    ) -> _Access: ...

    async def _gear_settings(self, tx: Transaction, campaign_id: int) -> GearSettings: ...

    async def _import_gear(
        self,
        tx: Transaction,
        campaign: Campaign,
        actor_id: int,
        plan: Any,
        sheets: Sequence[Character],
        stored: Sequence[Sequence[int]],
    ) -> None: ...

    async def gear_for_export(
        self, guild_id: int, campaign_id: int
    ) -> tuple[dict[int, dict[str, Any]], dict[str, Any]]: ...


class Purses(Protocol):
    """RulePurse's (storage/rules_purse.py): the characters' money."""

    async def _purse(self, tx: Transaction, campaign_id: int, character_id: int) -> Purse: ...

    async def _move_purse(
        self,
        tx: Transaction,
        campaign_id: int,
        actor_id: int,
        access: Any,
        kind: str,
        delta: int,
        reason: str,
        *,
        press_id: int | None = None,
        transfer_id: int | None = None,
        undoes: int | None = None,
    ) -> PurseEntry: ...

    async def _campaign_purses(self, tx: Transaction, campaign_id: int) -> dict[int, Purse]: ...


class Counters(Protocol):
    """RuleCounters' (storage/rules_counters.py): a character's counters."""

    async def _counters(
        self, tx: Transaction, campaign_id: int, character_id: int
    ) -> list[Counter]: ...

    async def _reset_after_fight(self, tx: Transaction, fight_id: int) -> None: ...

    async def _loaded_ammunition(
        self, tx: Transaction, campaign_id: int, character_id: int, weapon: str
    ) -> Counter | None: ...

    async def _spend_shot(self, tx: Transaction, counter: Counter) -> tuple[Counter, Counter]: ...


class SavedRolls(Protocol):
    """RuleSaved's (storage/rules_saved.py): a character's saved rolls."""

    async def saved_rolls(
        self, guild_id: int, campaign_id: int, character_id: int
    ) -> list[SavedRoll]: ...

    async def _campaign_saved_rolls(
        self, tx: Any, guild_id: int, campaign_id: int
    ) -> dict[int, list[SavedRoll]]: ...

    async def _import_saved_rolls(
        self, tx: Any, plan: Any, sheets: Sequence[Any], stored: Sequence[Any]
    ) -> None: ...


# ---- what each mixin needs -------------------------------------------------------------------
class AdvancementNeeds(Store, Sheets, Protocol):
    """storage/rules_advancement.py's `RuleAdvancement`."""


class InCharacterNeeds(Store, Sheets, Protocol):
    """storage/rules_incharacter.py's `RuleInCharacter`."""


class LedgerNeeds(Store, Sheets, Prices, Protocol):
    """storage/rules_ledger.py's `RuleLedger`."""


class SpendingNeeds(Store, Sheets, Prices, Ledger, Protocol):
    """storage/rules_spending.py's `RuleSpending`."""


class CharactersNeeds(Store, Prices, Ledger, Protocol):
    """storage/rules_characters.py's `RuleCharacters`."""


class ConditionsNeeds(Store, Protocol):
    """storage/rules_conditions.py's `RuleConditions`."""


class SheetConditionsNeeds(Store, Sheets, Protocol):
    """storage/rules_sheet_conditions.py's `RuleSheetConditions`."""


class CountersNeeds(Store, Sheets, Gear, Protocol):
    """storage/rules_counters.py's `RuleCounters`."""


class CraftingNeeds(Store, Protocol):
    """storage/rules_crafting.py's `RuleCrafting`."""


class Fights(Protocol):
    """RuleFights' (storage/rules_fights.py): the running fight."""

    async def _running(self, tx: Transaction, guild_id: int, fight_id: int) -> Fight: ...


class FightsNeeds(Store, Sheets, Counters, Protocol):
    """storage/rules_fights.py's `RuleFights`."""


class HealthNeeds(Store, Sheets, Fights, Protocol):
    """storage/rules_health.py's `RuleHealth`."""


class GearNeeds(Store, Sheets, Purses, Counters, Protocol):
    """storage/rules_gear.py's `RuleGear`."""


class PurseNeeds(Store, Sheets, Gear, Protocol):
    """storage/rules_purse.py's `RulePurse`."""


class RollsNeeds(Store, Protocol):
    """storage/rules_rolls.py's `RuleRolls`."""


class SavedNeeds(Store, Sheets, Protocol):
    """storage/rules_saved.py's `RuleSaved`."""


class SessionsNeeds(Store, Ledger, Protocol):
    """storage/rules_sessions.py's `RuleSessions`."""


class StatsNeeds(Store, Protocol):
    """storage/rules_stats.py's `RuleStats`."""


class Conditions(Protocol):
    """RuleConditions' (storage/rules_conditions.py): the campaign's named conditions."""

    async def condition_presets(self, guild_id: int, campaign_id: int) -> list[Effect]: ...


class Sessions(Protocol):
    """RuleSessions' (storage/rules_sessions.py): planned and past sessions, their answers."""

    async def sessions_in(
        self, guild_id: int, campaign_id: int, states: tuple[State, State], limit: int = ...
    ) -> list[Session]: ...

    async def session_answers(self, guild_id: int, session_id: int) -> dict[int, Answer]: ...

    async def session_settings(self, guild_id: int, campaign_id: int) -> SessionSettings: ...


class TransferNeeds(Store, Sheets, Ledger, Gear, SavedRolls, Conditions, Sessions, Protocol):
    """storage/rules_transfer.py's `RuleTransfer`."""
