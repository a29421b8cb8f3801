"""Conditions on a combatant: what the fight keeps beside a sheet for a number of rounds."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Effect:
    """A condition on a combatant; `rounds_left` counts down at the end of its turn."""

    id: int
    name: str
    rounds_left: int | None
    """None: lasts until removed."""


__all__ = ["Effect"]
