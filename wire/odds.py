"""Exact odds before the die is rolled, as fractions.

A result depends only on the difference between the two totals, so the odds come from the
distribution of that difference: 20 equally likely faces against a known total, or, when both
sides roll, the 400 pairs of faces grouped by their difference (d = a - b occurs 20 - |d| times).
That is at most 39 cases, cheap enough for every reply, and cached besides.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
from types import MappingProxyType
from typing import NamedTuple

from wire.degrees import CAP


class Outcome(NamedTuple):
    success: bool
    degrees: int
    """Capped degrees."""


class DamageRole(StrEnum):
    """Whose side the roller is on, which decides how degrees move the damage."""

    ATTACKER = "attacker"
    DEFENDER = "defender"


@dataclass(frozen=True, slots=True)
class Odds:
    chance: Fraction
    """Probability that the roller succeeds (hits, defends, wins the contest)."""
    outcomes: Mapping[Outcome, Fraction]
    """Probability of each capped result, successes and failures."""
    damage: Mapping[int, Fraction] | None
    """Probability of each damage figure, for combat; None otherwise."""
    cases: int
    """20 against a known total, 400 when both sides roll."""


def damage_for(base: int, role: DamageRole, outcome: Outcome) -> int:
    """Damage after an exchange, seen from the roller's side.

    The attacker's DoS add to the base; the defender's DoS take from it, never below 0.
    """
    attacker_won = outcome.success == (role is DamageRole.ATTACKER)
    if attacker_won:
        return base + outcome.degrees
    return max(0, base - outcome.degrees)


def _outcome(diff: int, wins_ties: bool) -> Outcome:
    success = diff >= 0 if wins_ties else diff > 0
    return Outcome(success, min(abs(diff) // 2, CAP))


def _differences(offset: int, both_roll: bool) -> list[tuple[int, int]]:
    """(total minus target, how many cases give it) for every case."""
    if both_roll:
        return [(d + offset, 20 - abs(d)) for d in range(-19, 20)]
    return [(face + offset, 1) for face in range(1, 21)]


@lru_cache(maxsize=4096)
def compute_odds(
    offset: int,
    *,
    both_roll: bool = False,
    wins_ties: bool = True,
    base: int | None = None,
    role: DamageRole = DamageRole.ATTACKER,
) -> Odds:
    """Odds for a roller whose total minus the target is `offset` plus the dice.

    Against a known target: offset = bonus - target, and the roller's d20 is the only die. When
    both sides roll: offset = roller's bonus - opponent's bonus, over the 400 pairs of faces.
    With `base`, also the distribution of damage (the roller being `role`).
    """
    cases = 400 if both_roll else 20
    outcome_counts: dict[Outcome, int] = {}
    damage_counts: dict[int, int] = {}
    wins = 0
    for diff, count in _differences(offset, both_roll):
        outcome = _outcome(diff, wins_ties)
        outcome_counts[outcome] = outcome_counts.get(outcome, 0) + count
        if outcome.success:
            wins += count
        if base is not None:
            damage = damage_for(base, role, outcome)
            damage_counts[damage] = damage_counts.get(damage, 0) + count
    return Odds(
        chance=Fraction(wins, cases),
        outcomes=MappingProxyType(
            {o: Fraction(c, cases) for o, c in sorted(outcome_counts.items())}
        ),
        damage=(
            MappingProxyType({d: Fraction(c, cases) for d, c in sorted(damage_counts.items())})
            if base is not None
            else None
        ),
        cases=cases,
    )
