"""A validated import, what the checks hand the store to write: nothing of how."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from storage.models_gear import GearSettings
from storage.transfer.advancement import AdvancementPlan
from storage.transfer.gear import GearData
from storage.transfer.sessions import SessionData, SettingsData
from wire.conditions import Condition
from wire.sheet import Character


@dataclass(frozen=True, slots=True)
class SavedData:
    """A saved roll as a file holds it: no id and no character, just what /r runs."""

    name: str
    command: dict[str, Any]
    label: str = ""


@dataclass(frozen=True, slots=True)
class ImportPlan:
    """A validated import: what to write, nothing of how."""

    kind: str
    characters: tuple[Character, ...]
    campaign_name: str | None = None
    npc_take10: bool | None = None
    advancement: AdvancementPlan | None = None
    """Character points: the campaign's prices and the ledger (version 2)."""
    saved_rolls: tuple[tuple[str, tuple[SavedData, ...]], ...] = ()
    """(a character's name key, its saved rolls) for the sheets whose entry lists them."""
    gear: tuple[tuple[str, GearData], ...] = ()
    """(a character's name key, its gear) for the sheets whose entry has some (version 3)."""
    sheet_conditions: tuple[tuple[str, tuple[Condition, ...]], ...] = ()
    """(a character's name key, its conditions) for the sheets whose entry lists them
    (version 5)."""
    currency: GearSettings | None = None
    """The campaign's currency and gift setting, where the file gives them (version 3)."""
    conditions: tuple[Condition, ...] = ()
    """The campaign's named conditions (version 4)."""
    sessions: tuple[SessionData, ...] = ()
    """The campaign's sessions (version 4)."""
    session_settings: SettingsData | None = None
    """The campaign's session settings, where the file gives them (version 4)."""

    def gear_of(self, name: str) -> GearData | None:
        key = name.casefold()
        return next((gear for k, gear in self.gear if k == key), None)

    def conditions_of(self, name: str) -> tuple[Condition, ...] | None:
        """The conditions the file gives this sheet, or None where it gives none."""
        key = name.casefold()
        return next((found for k, found in self.sheet_conditions if k == key), None)

    def saved_of(self, name: str) -> tuple[SavedData, ...] | None:
        """The saved rolls the file gives this sheet, or None where it gives none."""
        key = name.casefold()
        return next((rolls for k, rolls in self.saved_rolls if k == key), None)
