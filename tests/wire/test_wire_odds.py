"""The exact odds before the roll, checked against counting every face (and every pair of faces).

The reference here is written from the rules text, independently of wire/odds.py: total minus
target decides success (meeting it succeeds for the side that wins ties), one degree per full two
points, at most 5; the attacker's DoS add to the base damage, the defender's take from it, never
below 0.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wire.odds as wire_odds
from tests.wire.refusals import refused
from wire import limits
from wire.check import Modifier, Roll, check_odds, resolve_check, stat_line
from wire.combat import defence_chance, exchange_odds, resolve_attack, resolve_defence
from wire.contest import contest_odds, resolve_contest
from wire.dice import Die, DieSource
from wire.odds import DamageRole, Odds, Outcome, compute_odds
from wire.sheet import Character, Weapon, best_attack

WIRE = settings.get_profile("wire")
FACES = range(1, 21)

attributes = st.integers(limits.ATTRIBUTE.low, limits.ATTRIBUTE.high)
skills = st.integers(limits.SKILL.low, limits.SKILL.high)
modifiers = st.integers(limits.MODIFIER.low, limits.MODIFIER.high)
targets = st.integers(limits.TARGET.low, limits.TARGET.high)
bases = st.integers(limits.BASE.low, limits.BASE.high)
faces = st.integers(1, 20)
# Offsets where the odds are neither all-or-nothing, plus a few beyond.
offsets = st.integers(-60, 60)


def _mod(value: int) -> Modifier:
    """All of a side's bonus as one modifier (the odds depend only on the sum)."""
    return Modifier("Bonus", value)


def outcome(total: int, target: int, wins_ties: bool = True) -> Outcome:
    if total > target or (total == target and wins_ties):
        return Outcome(True, min((total - target) // 2, 5))
    return Outcome(False, min((target - total) // 2, 5))


def damage(base: int, attacker_total: int, defender_total: int) -> int:
    if attacker_total >= defender_total:
        return base + min((attacker_total - defender_total) // 2, 5)
    return max(0, base - min((defender_total - attacker_total) // 2, 5))


def distribution(values: list) -> dict:
    counts = Counter(values)
    return {v: Fraction(c, len(values)) for v, c in sorted(counts.items())}


def assert_odds(odds: Odds, outcomes: list[Outcome], damages: list[int] | None = None) -> None:
    """`odds` match the results of every case listed (each equally likely)."""
    assert odds.cases == len(outcomes)
    assert odds.chance == Fraction(sum(o.success for o in outcomes), len(outcomes))
    assert dict(odds.outcomes) == distribution(outcomes)
    assert list(odds.outcomes) == sorted(odds.outcomes)  # listed in order, as shown
    assert sum(odds.outcomes.values()) == 1
    assert all(isinstance(p, Fraction) and p > 0 for p in odds.outcomes.values())
    if damages is None:
        assert odds.damage is None
    else:
        assert odds.damage is not None
        assert dict(odds.damage) == distribution(damages)
        assert list(odds.damage) == sorted(odds.damage)
        assert sum(odds.damage.values()) == 1


# --- worked examples --------------------------------------------------------------------------


def test_jaime_against_13_exactly() -> None:
    odds = resolve_attack(stat_line(3, 5), 5, Die(15, DieSource.TABLE), vs=13).odds
    assert odds.chance == Fraction(4, 5)
    assert dict(odds.outcomes) == {
        Outcome(False, 0): Fraction(1, 20),  # face 4
        Outcome(False, 1): Fraction(1, 10),  # faces 2, 3
        Outcome(False, 2): Fraction(1, 20),  # face 1
        Outcome(True, 0): Fraction(1, 10),  # faces 5, 6
        Outcome(True, 1): Fraction(1, 10),
        Outcome(True, 2): Fraction(1, 10),
        Outcome(True, 3): Fraction(1, 10),
        Outcome(True, 4): Fraction(1, 10),
        Outcome(True, 5): Fraction(3, 10),  # faces 15..20
    }
    assert dict(odds.damage) == {
        3: Fraction(1, 20),
        4: Fraction(1, 10),
        5: Fraction(3, 20),  # 0 DoF and 0 DoS both leave the base
        6: Fraction(1, 10),
        7: Fraction(1, 10),
        8: Fraction(1, 10),
        9: Fraction(1, 10),
        10: Fraction(3, 10),
    }


def test_goblin_defending_against_23_with_take10_numbers() -> None:
    # Parry +3 against 23: it would need a 21 to beat it (a 20 only ties, and ties go to the
    # attacker), so every face loses; faces 19 and 20 let the base through.
    odds = resolve_defence(stat_line(1, 2), 5, Die(10, DieSource.TAKE10), vs=23).odds
    assert odds.chance == 0
    assert dict(odds.damage) == {
        5: Fraction(1, 10),
        6: Fraction(1, 10),
        7: Fraction(1, 10),
        8: Fraction(1, 10),
        9: Fraction(1, 10),
        10: Fraction(1, 2),  # faces 1..10
    }


def test_opposed_equal_bonuses() -> None:
    attack = compute_odds(0, both_roll=True)
    defence = compute_odds(0, both_roll=True, wins_ties=False)
    assert attack.chance == Fraction(21, 40)  # 190 pairs above, 20 ties
    assert defence.chance == Fraction(19, 40)  # ties go to the attacker
    assert attack.cases == defence.cases == 400


def test_smallest_opposed_chance_is_one_pair_in_400() -> None:
    odds = compute_odds(-19, both_roll=True)
    assert odds.chance == Fraction(1, 400)  # only 20 against 1
    assert compute_odds(-20, both_roll=True).chance == 0
    assert compute_odds(19, both_roll=True, wins_ties=False).chance == Fraction(399, 400)


@pytest.mark.parametrize("both_roll", [False, True])
def test_far_beyond_the_cap_is_certain(both_roll: bool) -> None:
    assert dict(compute_odds(200, both_roll=both_roll).outcomes) == {Outcome(True, 5): 1}
    assert dict(compute_odds(-200, both_roll=both_roll).outcomes) == {Outcome(False, 5): 1}


def test_odds_are_cached_and_the_uncached_function_agrees() -> None:
    first = compute_odds(3, both_roll=True, base=5)
    assert compute_odds(3, both_roll=True, base=5) is first
    assert compute_odds.__wrapped__(3, both_roll=True, base=5) == first


def test_odds_mappings_are_read_only() -> None:
    odds = compute_odds(4, base=5)
    with pytest.raises(TypeError):
        odds.outcomes[Outcome(True, 0)] = Fraction(1)  # type: ignore[index]
    with pytest.raises(TypeError):
        odds.damage[5] = Fraction(1)  # type: ignore[index]


# --- the tables the odds are counted over -----------------------------------------------------
# wire/odds.py builds them once, at import; these tests call the builders as the import does, so
# the tables are pinned where they are made (a mutation run cannot reach code run at import).


def test_the_cumulative_weights_of_one_die_and_of_two() -> None:
    assert wire_odds._cumulative({face: 1 for face in range(1, 21)}) == (1, tuple(range(21)))
    low, sums = wire_odds._cumulative({d: 20 - abs(d) for d in range(-19, 20)})
    assert low == -19
    assert sums == tuple(sum(20 - abs(d) for d in range(-19, -19 + i)) for i in range(40))
    assert wire_odds._cumulative({-1: 2, 0: 5, 1: 3}) == (-1, (0, 2, 7, 10))


@pytest.mark.parametrize("wins_ties", [True, False])
def test_the_outcome_bounds_are_the_degrees_rule(wins_ties: bool) -> None:
    bounds = wire_odds._upper_bounds(wins_ties)
    assert len(bounds) == len(wire_odds._OUTCOMES) - 1
    for difference in range(-15, 16):
        i = next((i for i, upper in enumerate(bounds) if difference <= upper), len(bounds))
        assert wire_odds._OUTCOMES[i] == outcome(13 + difference, 13, wins_ties), difference


# --- properties: against counting every case --------------------------------------------------


@WIRE
@given(attribute=attributes, skill=skills, modifier=modifiers, target=targets, face=faces)
def test_check_odds_equal_counting_the_20_faces(
    attribute: int, skill: int, modifier: int, target: int, face: int
) -> None:
    mods = stat_line(attribute, skill, modifier)
    bonus = attribute + skill + modifier
    result = resolve_check(mods, target, Die(face, DieSource.ROLLED))
    assert_odds(result.odds, [outcome(f + bonus, target) for f in FACES])


@WIRE
@given(bonus=st.integers(-60, 90), target=targets, base=bases, face=faces)
def test_attack_odds_and_damage_equal_counting_the_20_faces(
    bonus: int, target: int, base: int, face: int
) -> None:
    result = resolve_attack([_mod(bonus)], base, Die(face, DieSource.ROLLED), vs=target)
    assert_odds(
        result.odds,
        [outcome(f + bonus, target) for f in FACES],
        [damage(base, f + bonus, target) for f in FACES],
    )


@WIRE
@given(bonus=st.integers(-60, 90), attack_total=targets, base=bases, face=faces)
def test_defence_odds_and_damage_equal_counting_the_20_faces(
    bonus: int, attack_total: int, base: int, face: int
) -> None:
    result = resolve_defence([_mod(bonus)], base, Die(face, DieSource.ROLLED), vs=attack_total)
    assert_odds(
        result.odds,
        [outcome(f + bonus, attack_total, wins_ties=False) for f in FACES],
        [damage(base, attack_total, f + bonus) for f in FACES],
    )


@WIRE
@given(mine=st.integers(-40, 60), theirs=st.integers(-40, 60), base=bases, face=faces)
def test_opposed_attack_odds_equal_counting_the_400_pairs(
    mine: int, theirs: int, base: int, face: int
) -> None:
    defender = Roll(Die(face, DieSource.TABLE), (_mod(theirs),))
    result = resolve_attack([_mod(mine)], base, Die(face, DieSource.ROLLED), defender=defender)
    pairs = [(a + mine, b + theirs) for a in FACES for b in FACES]
    assert_odds(
        result.odds,
        [outcome(a, b) for a, b in pairs],
        [damage(base, a, b) for a, b in pairs],
    )


@WIRE
@given(mine=st.integers(-40, 60), theirs=st.integers(-40, 60), base=bases, face=faces)
def test_opposed_defence_odds_equal_counting_the_400_pairs(
    mine: int, theirs: int, base: int, face: int
) -> None:
    attacker = Roll(Die(face, DieSource.ROLLED), (_mod(theirs),))
    result = resolve_defence([_mod(mine)], base, Die(face, DieSource.TABLE), attacker=attacker)
    pairs = [(a + mine, b + theirs) for a in FACES for b in FACES]
    assert_odds(
        result.odds,
        [outcome(d, a, wins_ties=False) for d, a in pairs],
        [damage(base, a, d) for d, a in pairs],
    )


@WIRE
@given(active=st.integers(-40, 60), passive=st.integers(-40, 60), face=faces)
def test_contest_odds_equal_counting_the_400_pairs(active: int, passive: int, face: int) -> None:
    result = resolve_contest(
        Roll(Die(face, DieSource.ROLLED), (_mod(active),)),
        Roll(Die(21 - face, DieSource.ROLLED), (_mod(passive),)),
    )
    assert_odds(result.odds, [outcome(a + active, b + passive) for a in FACES for b in FACES])


@WIRE
@given(active=st.integers(-40, 60), passive=st.integers(-40, 60), face=faces)
def test_contest_against_take10_counts_only_the_active_die(
    active: int, passive: int, face: int
) -> None:
    result = resolve_contest(
        Roll(Die(face, DieSource.ROLLED), (_mod(active),)),
        Roll(Die(10, DieSource.TAKE10), (_mod(passive),)),
    )
    assert_odds(result.odds, [outcome(a + active, 10 + passive) for a in FACES])


@WIRE
@given(offset=offsets, both_roll=st.booleans(), wins_ties=st.booleans(), base=bases)
def test_odds_sum_to_one_and_chance_is_the_successes(
    offset: int, both_roll: bool, wins_ties: bool, base: int
) -> None:
    for role in DamageRole:
        odds = compute_odds.__wrapped__(
            offset, both_roll=both_roll, wins_ties=wins_ties, base=base, role=role
        )
        assert sum(odds.outcomes.values()) == 1
        assert sum(odds.damage.values()) == 1
        assert odds.chance == sum(p for o, p in odds.outcomes.items() if o.success)
        assert all(0 <= o.degrees <= 5 for o in odds.outcomes)
        assert all(0 <= d <= base + 5 for d in odds.damage)


@WIRE
@given(offset=offsets, base=bases)
def test_mirrored_opposed_odds_agree_on_the_damage(offset: int, base: int) -> None:
    """Attacker's bonus minus defender's = offset: the same damage odds from either side."""
    attack = compute_odds(offset, both_roll=True, base=base, role=DamageRole.ATTACKER)
    defence = compute_odds(
        -offset, both_roll=True, wins_ties=False, base=base, role=DamageRole.DEFENDER
    )
    assert dict(attack.damage) == dict(defence.damage)
    assert attack.chance + defence.chance == 1


# --- odds before acting (/odds): the same figures the roll then reports ------------------------


@WIRE
@given(mine=st.integers(-60, 90), theirs=st.integers(-60, 90), base=bases, face=faces)
def test_odds_before_acting_are_those_the_roll_reports(
    mine: int, theirs: int, base: int, face: int
) -> None:
    die = Die(face, DieSource.ROLLED)
    other = Roll(Die(21 - face, DieSource.ROLLED), (_mod(theirs),))
    target = max(limits.TARGET.low, min(limits.TARGET.high, theirs))
    assert check_odds(mine, target) == resolve_check([_mod(mine)], target, die).odds
    for role, resolve, side in (
        (DamageRole.ATTACKER, resolve_attack, "defender"),
        (DamageRole.DEFENDER, resolve_defence, "attacker"),
    ):
        known = resolve([_mod(mine)], base, die, vs=target).odds
        assert exchange_odds(role, mine, base, vs=target) == known
        rolled = resolve([_mod(mine)], base, die, **{side: other}).odds
        assert exchange_odds(role, mine, base, opponent_bonus=theirs) == rolled
    contest = resolve_contest(Roll(die, (_mod(mine),)), other).odds
    assert contest_odds(mine, theirs) == contest


@pytest.mark.parametrize("opponent", [{}, {"vs": 13, "opponent_bonus": 3}])
def test_odds_before_acting_need_exactly_one_opponent(opponent: dict[str, int]) -> None:
    with refused("Give the opponent's total or their bonus, exactly one of them."):
        exchange_odds(DamageRole.ATTACKER, 8, 5, **opponent)


@pytest.mark.parametrize("defence", [-3, 0, 3, 5, 12])
@pytest.mark.parametrize("attack", [-2, 0, 5, 8, 20])
def test_a_defence_s_chance_is_the_count_of_faces_where_it_holds(defence, attack) -> None:
    """The panel's odds against an attacker: both roll and the defender needs the strictly
    higher total (a tie goes to the attacker); a defender taking 10 has a known total."""
    pairs = sum(defence + d > attack + a for d in range(1, 21) for a in range(1, 21))
    assert defence_chance(defence, attack) == Fraction(pairs, 400)
    faces = sum(defence + 10 > attack + a for a in range(1, 21))
    assert defence_chance(defence, attack, takes10=True) == Fraction(faces, 20)


def test_the_best_attack_is_the_highest_weapon_bonus_the_first_on_a_tie() -> None:
    sheet = Character(
        "Bram",
        attributes={"Strength": 2}, skills={"Brawl": 4, "Daggers": 4, "Bows": 1},
        weapons=(
            Weapon("Bow", 4, "Strength", "Bows"),
            Weapon("Cudgel", 4, "Strength", "Brawl"),
            Weapon("Dagger", 3, "Strength", "Daggers"),
        ),
    )  # fmt: skip
    weapon, bonus = best_attack(sheet)
    assert (weapon.name, bonus) == ("Cudgel", 6)
    assert best_attack(replace(sheet, weapons=())) is None
