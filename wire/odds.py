"""Exact odds before the die is rolled, as fractions.

A result depends only on the difference between the two totals, so the odds come from the
distribution of that difference: 20 equally likely faces against a known total, or, when both
sides roll, the 400 pairs of faces grouped by their difference (d = a - b occurs 20 - |d| times).
Each capped result (0 to 5 DoS or DoF) is a range of differences, so its count is a difference of
two cumulative sums over those cases: a dozen lookups, cheap enough for every reply, and cached
besides.

`Outcome` and `DamageRole` live here, not in wire/combat.py with the damage rule
(`combat.damage_for`): the odds of checks and contests are made of outcomes too, and the damage
table needs the role, while combat imports these odds; the other way round would be a circle.
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


def _cumulative(weights: dict[int, int]) -> tuple[int, tuple[int, ...]]:
    """(lowest d, c) where c[i] is the weight of the cases with d < lowest + i."""
    low = min(weights)
    sums = [0]
    for d in range(low, max(weights) + 1):
        sums.append(sums[-1] + weights[d])
    return low, tuple(sums)


_SINGLE = _cumulative({face: 1 for face in range(1, 21)})
"""The 20 faces of the roller's d20, each once."""
_PAIRS = _cumulative({d: 20 - abs(d) for d in range(-19, 20)})
"""The 400 pairs of faces grouped by their difference d = a - b: it occurs 20 - |d| times."""

_OUTCOMES = (
    *(Outcome(False, d) for d in range(CAP, -1, -1)),
    *(Outcome(True, d) for d in range(CAP + 1)),
)
"""Every capped result in the order of the difference: 5 DoF, ..., 0 DoF, 0 DoS, ..., 5 DoS."""
_SORTED = (*range(CAP, -1, -1), *range(CAP + 1, 2 * CAP + 2))
"""Indexes into _OUTCOMES in Outcome order: failures from 0 DoF up, then successes from 0 DoS."""
_ATTACKER_SHIFTS = tuple(
    (o.degrees if o.success else -o.degrees, i) for i, o in enumerate(_OUTCOMES)
)
"""(how the outcome moves the base damage, its index) for an attacker, damage rising."""
_DEFENDER_SHIFTS = tuple((-shift, i) for shift, i in reversed(_ATTACKER_SHIFTS))
"""The same for a defender, whose DoS take damage away: again damage rising."""


def _upper_bounds(wins_ties: bool) -> tuple[int, ...]:
    """The highest difference (total minus target) giving each of _OUTCOMES but the last.

    One degree per full two points: 1 DoF is a difference of -2 or -3, 0 DoF is -1 (and 0 when
    the roller does not win ties), 0 DoS is 0 (if it wins ties) and 1, and so on to the cap.
    """
    failures = [-2 * d for d in range(CAP, 0, -1)] + [-1 if wins_ties else 0]
    successes = [2 * d + 1 for d in range(CAP)]
    return (*failures, *successes)


_BOUNDS = {wins_ties: _upper_bounds(wins_ties) for wins_ties in (False, True)}

_FRACTIONS = {cases: tuple(Fraction(c, cases) for c in range(cases + 1)) for cases in (20, 400)}
"""Fraction(count, cases) made once: building (and reducing) fractions took most of the time."""


def _outcome_counts(offset: int, both_roll: bool, wins_ties: bool) -> list[int]:
    """How many of the cases give each of _OUTCOMES, for total minus target = offset + d.

    Each outcome is a range of differences, so its count is a difference of cumulative weights.
    """
    low, cumulative = _PAIRS if both_roll else _SINGLE
    top = len(cumulative) - 1
    total = cumulative[top]
    counts = []
    below = 0
    for upper in _BOUNDS[wins_ties]:
        i = upper - offset - low + 1  # cases with d <= upper - offset
        upto = 0 if i <= 0 else total if i >= top else cumulative[i]
        counts.append(upto - below)
        below = upto
    counts.append(total - below)
    return counts


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
    fraction = _FRACTIONS[cases]
    counts = _outcome_counts(offset, both_roll, wins_ties)
    outcomes = {_OUTCOMES[i]: fraction[counts[i]] for i in _SORTED if counts[i]}
    damage = None
    if base is not None:
        # wire.combat.damage_for, unrolled: the attacker's DoS add to the base, the defender's
        # take from it (never below 0). The shifts run from the least damage to the most, so the
        # figures come out in order.
        damage_counts: dict[int, int] = {}
        for shift, i in _ATTACKER_SHIFTS if role is DamageRole.ATTACKER else _DEFENDER_SHIFTS:
            count = counts[i]
            if count:
                amount = base + shift
                if amount < 0:
                    amount = 0
                if amount in damage_counts:
                    damage_counts[amount] += count
                else:
                    damage_counts[amount] = count
        damage = MappingProxyType({a: fraction[c] for a, c in damage_counts.items()})
    return Odds(
        chance=fraction[sum(counts[CAP + 1 :])],
        outcomes=MappingProxyType(outcomes),
        damage=damage,
        cases=cases,
    )
