"""Roll statistics and luck (wire/stats.py), checked against counting every face.

The reference percentile here counts the 20 faces of the d20 directly from the rules text (one
degree per full two points, at most 5, the defender loses ties), independently of wire/odds.py.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from wire.degrees import degrees_of
from wire.odds import Outcome
from wire.stats import (
    EXACT_MAX_ROLLS,
    OUTCOME_ORDER,
    LoggedRoll,
    _exact_better_than,
    _normal_better_than,
    luck_of,
    roll_luck,
    summarise,
)

WIRE = settings.get_profile("wire")
kinds = st.sampled_from(["check", "attack", "defend", "contest", "craft"])


def rank(outcome: Outcome) -> int:
    return OUTCOME_ORDER.index(outcome)


def logged(kind: str, die: int, modifiers: int, target: int, source: str = "rolled") -> LoggedRoll:
    result = degrees_of(die + modifiers, target, wins_ties=kind != "defend")
    return LoggedRoll(
        kind=kind,
        die=die,
        die_source=source,
        total=die + modifiers,
        target=target,
        success=result.success,
        degrees=result.capped,
    )


def counted_percentile(kind: str, die: int, modifiers: int, target: int) -> Fraction:
    """Faces giving a worse outcome, plus half of those giving the same, over 20."""
    mine = rank(logged(kind, die, modifiers, target).outcome)
    worse = same = 0
    for face in range(1, 21):
        other = rank(logged(kind, face, modifiers, target).outcome)
        worse += other < mine
        same += other == mine
    return Fraction(2 * worse + same, 40)


@WIRE
@given(kinds, st.integers(1, 20), st.integers(-15, 25), st.integers(0, 40))
def test_percentile_is_counted_faces(kind, die, modifiers, target):
    luck = roll_luck(logged(kind, die, modifiers, target))
    assert luck is not None
    assert luck.percentile == counted_percentile(kind, die, modifiers, target)


def test_percentile_of_the_seed_attack():
    # Jaime: d20 15 + 8 = 23 against the goblin's 13: 5 DoS, which faces 15 to 20 give
    # (a 14 gives 4 DoS...). 14 faces worse, 6 the same: (14 + 3) / 20.
    luck = roll_luck(logged("attack", 15, 8, 13))
    assert luck.percentile == Fraction(17, 20)


def test_take10_and_free_rolls_carry_no_luck():
    assert roll_luck(logged("check", 10, 3, 12, source="take10")) is None
    free = LoggedRoll("roll", 0, "expression", 9, None, False, 0)
    assert roll_luck(free) is None
    stats = summarise([logged("check", 10, 3, 12, source="take10"), free])
    assert stats.luck is None
    assert stats.take10s == 1
    assert stats.rolls == 2 and stats.by_kind == {"check": 1, "roll": 1}
    # A take 10 expects exactly what it got: it moves both bars alike.
    assert stats.degrees == {Outcome(True, 0): 1}
    assert stats.expected == {Outcome(True, 0): 1.0}


def test_counts_of_an_evening():
    rolls = [
        logged("attack", 20, 8, 13),
        logged("attack", 1, 8, 13),
        logged("check", 1, 0, 30),
        logged("defend", 12, 2, 14),
    ]
    rolls[0] = LoggedRoll(**{**_fields(rolls[0]), "damage": 10})
    rolls[3] = LoggedRoll(**{**_fields(rolls[3]), "damage": 5})
    stats = summarise(rolls)
    assert stats.rolls == 4
    assert stats.by_kind == {"attack": 2, "check": 1, "defend": 1}
    assert (stats.successes, stats.failures) == (1, 3)  # the defender loses the tie
    assert stats.natural_1s == 2 and stats.natural_20s == 1
    assert (stats.damage_dealt, stats.damage_taken) == (10, 5)
    assert stats.degrees[Outcome(True, 5)] == 1
    assert stats.degrees[Outcome(False, 5)] == 1
    assert abs(sum(stats.expected.values()) - 4) < 1e-9
    assert len(stats.luck_over_time) == 4
    assert stats.luck is not None and stats.luck.exact


def _fields(roll: LoggedRoll) -> dict:
    return {name: getattr(roll, name) for name in LoggedRoll.__slots__}


def test_exact_sum_matches_counting_every_evening():
    # Three small rolls: every one of the 8000 evenings counted.
    setups = [("check", 3, 14), ("attack", 8, 13), ("defend", 2, 11)]
    for faces in [(1, 20, 7), (15, 15, 15), (20, 20, 20), (1, 1, 1), (10, 11, 9)]:
        rolls = [logged(k, f, m, t) for (k, m, t), f in zip(setups, faces, strict=True)]
        lucks = [roll_luck(r) for r in rolls]
        observed = sum(luck.percentile for luck in lucks)
        worse = same = 0
        for others in product(range(1, 21), repeat=3):
            total = sum(
                roll_luck(logged(k, f, m, t)).percentile
                for (k, m, t), f in zip(setups, others, strict=True)
            )
            worse += total < observed
            same += total == observed
        expected = (worse + same / 2) / 8000
        assert abs(luck_of(lucks).better_than - expected) < 1e-9


def _evening(rng: random.Random, count: int, loaded: bool) -> list[LoggedRoll]:
    rolls = []
    for _ in range(count):
        kind = rng.choice(["check", "attack", "defend"])
        modifiers, target = rng.randint(-2, 12), rng.randint(8, 22)
        die = max(rng.randint(1, 20), rng.randint(1, 20)) if loaded else rng.randint(1, 20)
        rolls.append(logged(kind, die, modifiers, target))
    return rolls


@WIRE
@given(st.integers(0, 2**32), st.integers(80, 200))
def test_a_fair_evening_sits_near_the_middle(seed, count):
    luck = summarise(_evening(random.Random(seed), count, loaded=False)).luck
    # Within about 4 standard deviations of a half: the percentile of the mean is not extreme
    # (a 1 in 30,000 chance each way; the seeds are drawn, never tuned).
    assert 0.35 < luck.mean < 0.65
    assert 0.00003 < luck.better_than < 0.99997


@WIRE
@given(st.integers(0, 2**32), st.integers(150, 300))
def test_a_loaded_evening_does_not(seed, count):
    # The better of two d20s: a roller who always had advantage (the mean shift is about 0.1
    # before the cap, a dozen standard deviations of an evening this long).
    luck = summarise(_evening(random.Random(seed), count, loaded=True)).luck
    assert luck.mean > 0.55
    assert luck.better_than > 0.999


def test_normal_approximation_close_to_exact_at_the_switch():
    rolls = _evening(random.Random(7), EXACT_MAX_ROLLS, loaded=False)
    lucks = [roll_luck(r) for r in rolls]
    observed = sum(luck.percentile for luck in lucks) * 40
    keys = Counter(luck.key for luck in lucks)
    exact = _exact_better_than(keys, int(observed))
    normal = _normal_better_than(keys, float(observed))
    assert abs(exact - normal) < 0.02


def test_luck_over_time_is_the_running_mean():
    rolls = _evening(random.Random(3), 10, loaded=False)
    stats = summarise(rolls)
    percentiles = [float(roll_luck(r).percentile) for r in rolls]
    for i, value in enumerate(stats.luck_over_time):
        assert abs(value - sum(percentiles[: i + 1]) / (i + 1)) < 1e-12
    assert abs(stats.luck.mean - stats.luck_over_time[-1]) < 1e-12


def test_grouped_rolls_give_the_same_numbers():
    rolls = _evening(random.Random(11), 300, loaded=False)
    alone = summarise(rolls)
    groups = Counter(rolls)
    grouped = summarise(LoggedRoll(**{**_fields(roll), "count": n}) for roll, n in groups.items())
    assert grouped.luck_over_time == ()
    assert grouped.rolls == alone.rolls and grouped.degrees == alone.degrees
    assert (grouped.successes, grouped.natural_1s) == (alone.successes, alone.natural_1s)
    assert abs(grouped.luck.mean - alone.luck.mean) < 1e-12
    assert abs(grouped.luck.better_than - alone.luck.better_than) < 1e-12
    for outcome, expected in alone.expected.items():
        assert abs(grouped.expected[outcome] - expected) < 1e-9
