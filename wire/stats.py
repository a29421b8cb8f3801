"""Roll statistics and luck: how the dice treated a character, a player or an evening.

Counting faces says little in WIRE, where a 12 can be a triumph or a disaster: what matters is
the result against the odds the roll had. So each roll's luck is its percentile under its own
exact distribution (wire/odds.py): of the outcomes the roll could have had (5 DoF ... 5 DoS,
capped), the chance of a worse one plus half the chance of the one it got (the mid-percentile).
Under fair dice this is 1/2 on average for every roll, whatever its odds, so rolls of every
difficulty add up on one scale: an evening's luck is the mean of its rolls' percentiles, and how
unusual it was is where that sum falls in its own distribution under fair dice (exact for small
evenings, the normal approximation beyond). docs/stats.md explains the method.

The odds of a logged roll come from what the log stores: the roller's modifiers are the total
minus the die, the target is the total it had to meet, so no chance needs storing. Only the
roller's own d20 is chance here: against an opponent who rolled too, the opponent's total is the
target (their die is their luck, not this roll's). Take 10 carries no luck (no die), nor does a
free /roll (no target) or an attack still waiting for its defence.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from functools import lru_cache

from wire.degrees import CAP
from wire.odds import Odds, Outcome, compute_odds

OUTCOME_ORDER: tuple[Outcome, ...] = (
    *(Outcome(False, d) for d in range(CAP, -1, -1)),
    *(Outcome(True, d) for d in range(CAP + 1)),
)
"""Every capped result from the worst to the best: 5 DoF, ..., 0 DoF, 0 DoS, ..., 5 DoS."""

DICE_SOURCES = frozenset({"rolled", "table"})
"""Die sources where chance chose the face (a die typed in from the table was rolled too)."""
TAKE10 = "take10"

EXACT_MAX_ROLLS = 60
"""Up to this many rolls the distribution of the evening's sum is convolved exactly; beyond, the
normal approximation (by then within a fraction of a percent, docs/stats.md)."""

ATTACK = "attack"
DEFEND = "defend"
SIDES = 20
"""A d20: each roll's percentile is a multiple of 1/40 (half of 1/20)."""


@dataclass(frozen=True, slots=True)
class LoggedRoll:
    """What statistics need of one logged roll (storage and the CSV reader both make these)."""

    kind: str
    die: int
    die_source: str
    total: int
    target: int | None
    success: bool
    degrees: int
    """Capped degrees, DoS on success, DoF on failure."""
    damage: int | None = None
    when: datetime | None = None
    who: str = ""
    count: int = 1
    """How many rolls alike this stands for (storage groups a big log; `damage` is their sum)."""

    @property
    def modifiers(self) -> int:
        """Everything the roller added to the die."""
        return self.total - self.die

    @property
    def settled(self) -> bool:
        """A result against a target (not a free /roll, not an attack waiting for defence)."""
        return self.target is not None

    @property
    def outcome(self) -> Outcome:
        return Outcome(self.success, self.degrees)

    @property
    def wins_ties(self) -> bool:
        """A defender does not win ties (docs/rules.md); every other roller does."""
        return self.kind != DEFEND

    @property
    def has_luck(self) -> bool:
        return self.settled and self.die_source in DICE_SOURCES and 1 <= self.die <= SIDES


LuckKey = tuple[int, bool, Outcome]
"""(modifiers minus target, wins ties, outcome): all a roll's luck depends on."""


@dataclass(frozen=True, slots=True)
class RollLuck:
    """One roll against its own odds."""

    odds: Odds
    percentile: Fraction
    """Chance of a worse outcome plus half the chance of this one: 1/2 on average."""
    key: LuckKey
    """What the luck depends on: modifiers minus target, wins ties, the outcome."""


def roll_odds(roll: LoggedRoll) -> Odds:
    """The exact odds the roll had before its die was cast."""
    assert roll.target is not None
    return compute_odds(roll.modifiers - roll.target, wins_ties=roll.wins_ties)


@lru_cache(maxsize=4096)
def _percentile(offset: int, wins_ties: bool, outcome: Outcome) -> Fraction:
    return outcome_percentile(compute_odds(offset, wins_ties=wins_ties).outcomes, outcome)


def outcome_percentile(odds: Mapping[Outcome, Fraction], outcome: Outcome) -> Fraction:
    """The mid-percentile of `outcome` under `odds` (worse ones plus half of its own)."""
    below = Fraction(0)
    for candidate in OUTCOME_ORDER:
        chance = odds.get(candidate, Fraction(0))
        if candidate == outcome:
            return below + chance / 2
        below += chance
    raise ValueError(f"not an outcome: {outcome}")


def roll_luck(roll: LoggedRoll) -> RollLuck | None:
    """The roll's luck, or None where chance did not decide it (take 10, no target)."""
    if not roll.has_luck:
        return None
    assert roll.target is not None
    offset = roll.modifiers - roll.target
    return RollLuck(
        compute_odds(offset, wins_ties=roll.wins_ties),
        _percentile(offset, roll.wins_ties, roll.outcome),
        (offset, roll.wins_ties, roll.outcome),
    )


@dataclass(frozen=True, slots=True)
class Luck:
    """An evening's luck: the mean percentile and how unusual its sum is under fair dice."""

    rolls: int
    mean: float
    """Mean of the rolls' percentiles, 0 to 1; 0.5 is exactly as expected."""
    better_than: float
    """Share of evenings with the same rolls (same odds, fair dice) that came out worse, 0 to 1
    (plus half of those that came out the same)."""
    exact: bool
    """True when `better_than` is exact, False when from the normal approximation."""


@lru_cache(maxsize=4096)
def _distribution(offset: int, wins_ties: bool) -> tuple[tuple[int, float], ...]:
    """A roll's possible percentiles in 40ths (integers) with their probabilities."""
    odds = compute_odds(offset, wins_ties=wins_ties).outcomes
    return tuple(
        (int(_percentile(offset, wins_ties, outcome) * 2 * SIDES), float(chance))
        for outcome, chance in odds.items()
    )


@lru_cache(maxsize=4096)
def _variance(offset: int, wins_ties: bool) -> float:
    """The variance of a roll's percentile in 40ths (its mean is always 20: one half)."""
    spread = _distribution(offset, wins_ties)
    mean = sum(k * p for k, p in spread)
    return sum(p * (k - mean) ** 2 for k, p in spread)


def _exact_better_than(keys: Mapping[LuckKey, int], observed: int) -> float:
    """P(sum < observed) + P(sum = observed) / 2, the sum in 40ths, by convolution."""
    total: dict[int, float] = {0: 1.0}
    for (offset, wins_ties, _), count in keys.items():
        spread = _distribution(offset, wins_ties)
        for _ in range(count):
            step: dict[int, float] = {}
            for key, chance in total.items():
                for value, p in spread:
                    step[key + value] = step.get(key + value, 0.0) + chance * p
            total = step
    below = sum(p for key, p in total.items() if key < observed)
    return below + total.get(observed, 0.0) / 2


def _normal_better_than(keys: Mapping[LuckKey, int], observed: float) -> float:
    """The same by the normal approximation: mean n/2, variance the sum of each roll's."""
    variance = sum(count * _variance(offset, ties) for (offset, ties, _), count in keys.items())
    if variance <= 0:
        return 0.5
    z = (observed - SIDES * sum(keys.values())) / math.sqrt(variance)
    return 0.5 * (1 + math.erf(z / math.sqrt(2)))


def evening_luck(keys: Mapping[LuckKey, int]) -> Luck | None:
    """How lucky these rolls were together (each key: how many rolls had it); None without a
    roll that carries luck."""
    rolls = sum(keys.values())
    if not rolls:
        return None
    observed = sum(count * _percentile(*key) for key, count in keys.items())
    scaled = observed * 2 * SIDES
    assert scaled.denominator == 1
    exact = rolls <= EXACT_MAX_ROLLS
    if exact:
        better = _exact_better_than(keys, int(scaled))
    else:
        better = _normal_better_than(keys, float(scaled))
    return Luck(rolls, float(observed) / rolls, min(max(better, 0.0), 1.0), exact)


def luck_of(rolls: Iterable[RollLuck | None]) -> Luck | None:
    """`evening_luck` of single rolls' lucks (those that carry none left out)."""
    keys: Counter[LuckKey] = Counter()
    for luck in rolls:
        if luck is not None:
            keys[luck.key] += 1
    return evening_luck(keys)


@dataclass(frozen=True, slots=True)
class RollStats:
    """Everything /stats shows of a set of rolls; the text and the chart both read it."""

    rolls: int = 0
    by_kind: Mapping[str, int] = field(default_factory=dict)
    successes: int = 0
    failures: int = 0
    degrees: Mapping[Outcome, int] = field(default_factory=dict)
    """How often each capped result was rolled (rolls with a target)."""
    expected: Mapping[Outcome, float] = field(default_factory=dict)
    """How often each was expected: the sum of each roll's odds (a take 10 expects its own)."""
    natural_1s: int = 0
    natural_20s: int = 0
    damage_dealt: int = 0
    damage_taken: int = 0
    take10s: int = 0
    luck: Luck | None = None
    luck_over_time: tuple[float, ...] = ()
    """The running mean percentile after each roll that carries luck, in order (empty when the
    rolls came grouped, without their order)."""


@lru_cache(maxsize=4096)
def _expected(offset: int, wins_ties: bool) -> tuple[tuple[Outcome, float], ...]:
    return tuple(
        (outcome, float(chance))
        for outcome, chance in compute_odds(offset, wins_ties=wins_ties).outcomes.items()
    )


def summarise(rolls: Iterable[LoggedRoll], *, ordered: bool = True) -> RollStats:
    """The statistics of `rolls`, given oldest first (the luck line follows their order).

    A roll with `count` > 1 stands for that many alike (storage groups a big log in SQL); the
    luck line is drawn only when every roll comes alone, in order (`ordered` False: rolls that
    came grouped, even if each group holds one, have no order to draw).
    """
    by_kind: Counter[str] = Counter()
    degrees: Counter[Outcome] = Counter()
    expected: dict[Outcome, float] = {}
    keys: Counter[LuckKey] = Counter()
    running: list[float] = []
    grouped = False
    luck_sum = 0.0
    lucky = count = successes = failures = ones = twenties = dealt = taken = take10s = 0
    for roll in rolls:
        n = roll.count
        grouped = grouped or n != 1
        count += n
        by_kind[roll.kind] += n
        if roll.die_source == TAKE10:
            take10s += n
        elif roll.die_source in DICE_SOURCES:
            ones += n * (roll.die == 1)
            twenties += n * (roll.die == SIDES)
        if roll.damage is not None:
            if roll.kind == ATTACK:
                dealt += roll.damage
            elif roll.kind == DEFEND:
                taken += roll.damage
        if not roll.settled:
            continue
        outcome = roll.outcome
        successes += n * roll.success
        failures += n * (not roll.success)
        degrees[outcome] += n
        if not roll.has_luck:
            expected[outcome] = expected.get(outcome, 0.0) + n
            continue
        assert roll.target is not None
        offset, ties = roll.modifiers - roll.target, roll.wins_ties
        for each, chance in _expected(offset, ties):
            expected[each] = expected.get(each, 0.0) + n * chance
        keys[offset, ties, outcome] += n
        lucky += n
        luck_sum += n * _float_percentile(offset, ties, outcome)
        running.append(luck_sum / lucky)
    return RollStats(
        rolls=count,
        by_kind=dict(by_kind),
        successes=successes,
        failures=failures,
        degrees=dict(degrees),
        expected=expected,
        natural_1s=ones,
        natural_20s=twenties,
        damage_dealt=dealt,
        damage_taken=taken,
        take10s=take10s,
        luck=evening_luck(keys),
        luck_over_time=tuple(running) if ordered and not grouped else (),
    )


@lru_cache(maxsize=4096)
def _float_percentile(offset: int, wins_ties: bool, outcome: Outcome) -> float:
    return float(_percentile(offset, wins_ties, outcome))
