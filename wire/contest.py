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


def contest_odds(active_bonus: int, passive_bonus: int) -> Odds:
    """The active side's odds before both sides roll: 400 pairs of faces; it wins ties."""
    return compute_odds(active_bonus - passive_bonus, both_roll=True)


def resolve_contest(active: Roll, passive: Roll) -> ContestResult:
    """Winner's DoS = (winner's total - loser's total) // 2, capped; that is the loser's DoF."""
    if passive.die.source is DieSource.TAKE10:
        odds = compute_odds(active.bonus - passive.total)
    else:
        odds = contest_odds(active.bonus, passive.bonus)
    return ContestResult(
        active=active,
        passive=passive,
        degrees=degrees_of(active.total, passive.total),
        odds=odds,
    )
