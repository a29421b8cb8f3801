"""Opposed checks outside combat: both sides roll, the higher total wins."""

from __future__ import annotations

from dataclasses import dataclass

from wire.check import Roll
from wire.degrees import Degrees, degrees_of
from wire.dice import DieSource
from wire.odds import Odds, compute_odds


@dataclass(frozen=True, slots=True)
class ContestResult:
    active: Roll
    """The side that acts (the one sneaking, the attacker): it wins ties, with 0 DoS."""
    passive: Roll
    degrees: Degrees
    """From the active side: success means it won. The winner's DoS are the loser's DoF."""
    odds: Odds
    """The active side's chance, over the 400 pairs of faces (20 if the passive side took 10)."""

    @property
    def active_won(self) -> bool:
        return self.degrees.success

    @property
    def winner(self) -> Roll:
        return self.active if self.active_won else self.passive

    @property
    def loser(self) -> Roll:
        return self.passive if self.active_won else self.active


def resolve_contest(active: Roll, passive: Roll) -> ContestResult:
    """Winner's DoS = (winner's total - loser's total) // 2, capped; that is the loser's DoF."""
    passive_rolls = passive.die.source is not DieSource.TAKE10
    offset = active.bonus - (passive.bonus if passive_rolls else passive.total)
    return ContestResult(
        active=active,
        passive=passive,
        degrees=degrees_of(active.total, passive.total),
        odds=compute_odds(offset, both_roll=passive_rolls),
    )
