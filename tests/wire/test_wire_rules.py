"""Unit tests for the rules core: dice, degrees, checks, combat, contests, crafting, ranges.

Every worked example of the rules text (seeds/success-and-failure.txt) is here with its numbers.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

import wire.dice
from tests.wire.refusals import refused
from wire import limits
from wire.check import Modifier, Roll, resolve_check, stat_line
from wire.combat import Defence, require_shield, resolve_attack, resolve_defence
from wire.contest import resolve_contest
from wire.crafting import resolve_craft
from wire.degrees import CAP, degrees_of
from wire.dice import Die, DieSource, obtain_die
from wire.odds import DamageRole

LONG_SWORD = 5


def table(face: int) -> Die:
    return Die(face, DieSource.TABLE)


def jaime() -> tuple[Modifier, ...]:
    """Strength 3, Heavy melee weapons (long swords) 5."""
    return stat_line(3, 5, attribute_label="Strength", skill_label="Heavy melee weapons")


def goblin_parry() -> tuple[Modifier, ...]:
    """Strength 1, Parry 2."""
    return stat_line(1, 2, attribute_label="Strength", skill_label="Parry")


class _NoRandom(random.Random):
    """A random source that fails the test if anything draws from it."""

    def randint(self, a: int, b: int) -> int:
        raise AssertionError("the die was rolled although it was given")


# --- dice -------------------------------------------------------------------------------------


def test_rolled_die_uses_the_injected_rng(rng: random.Random) -> None:
    faces = [obtain_die(rng=rng).face for _ in range(10)]
    assert faces == [5, 19, 2, 11, 12, 10, 3, 6, 10, 1]


def test_same_seed_same_faces_other_seed_other_faces() -> None:
    def faces(seed: int) -> list[int]:
        rng = random.Random(seed)
        return [obtain_die(rng=rng).face for _ in range(20)]

    assert faces(20261130) == faces(20261130)
    assert faces(20261130) != faces(20261131)


def test_rolled_die_is_marked_rolled(rng: random.Random) -> None:
    die = obtain_die(rng=rng)
    assert die.source is DieSource.ROLLED
    assert die.rolled


def test_rolled_faces_are_uniform_over_1_to_20(rng: random.Random) -> None:
    counts = [0] * 21
    for _ in range(20_000):
        counts[obtain_die(rng=rng).face] += 1
    assert counts[0] == 0
    # 1000 expected per face; the seeded run is fixed, the bound is about 5 standard deviations.
    assert all(850 <= c <= 1150 for c in counts[1:]), counts


def test_default_die_comes_from_system_random(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[int, int]] = []

    def fake_randint(self: random.Random, a: int, b: int) -> int:
        assert isinstance(self, random.SystemRandom)
        calls.append((a, b))
        return 17

    def global_randint(a: int, b: int) -> int:
        raise AssertionError("the default die must not use the seedable global random")

    monkeypatch.setattr(random.SystemRandom, "randint", fake_randint)
    monkeypatch.setattr(random, "randint", global_randint)
    die = obtain_die()
    assert die == Die(17, DieSource.ROLLED)
    assert calls == [(1, 20)]
    assert isinstance(wire.dice._SYSTEM_RANDOM, random.SystemRandom)


def test_die_rolled_at_the_table_is_kept_and_nothing_is_rolled() -> None:
    die = obtain_die(roll=15, rng=_NoRandom())
    assert die == Die(15, DieSource.TABLE)
    assert not die.rolled


def test_take10_is_a_ten_and_nothing_is_rolled() -> None:
    die = obtain_die(take10=True, rng=_NoRandom())
    assert die == Die(10, DieSource.TAKE10)
    assert not die.rolled


def test_roll_and_take10_together_are_refused() -> None:
    with refused("Give either a die rolled at the table or take 10, not both."):
        obtain_die(roll=15, take10=True)


@pytest.mark.parametrize("face", [0, 21, -1, 100])
def test_die_outside_1_to_20_is_refused(face: int) -> None:
    with refused(f"A die rolled at the table must be between 1 and 20, not {face}."):
        obtain_die(roll=face)


@pytest.mark.parametrize("face", [1, 20])
def test_die_edges_are_accepted(face: int) -> None:
    assert obtain_die(roll=face).face == face


# --- degrees ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "target", "success", "raw", "capped"),
    [
        (23, 13, True, 5, 5),  # Jaime against the goblin
        (13, 13, True, 0, 0),  # meeting the target number: success, 0 DoS
        (14, 13, True, 0, 0),  # one point over: still 0 DoS (one degree per FULL two points)
        (15, 13, True, 1, 1),
        (16, 13, True, 1, 1),
        (12, 13, False, 0, 0),  # one point short: failure, 0 DoF
        (11, 13, False, 1, 1),
        (10, 13, False, 1, 1),
        (3, 13, False, 5, 5),
        (30, 13, True, 8, 5),  # capped, raw kept
        (27, 13, True, 7, 5),
        (0, 13, False, 6, 5),
        (-40, 100, False, 70, 5),
    ],
)
def test_degrees(total: int, target: int, success: bool, raw: int, capped: int) -> None:
    d = degrees_of(total, target)
    assert (d.success, d.raw, d.capped) == (success, raw, capped)
    assert d.was_capped == (raw > CAP)
    assert d.abbreviation == ("DoS" if success else "DoF")


def test_cap_is_five() -> None:
    assert CAP == 5


def test_a_side_that_does_not_win_ties_fails_a_tie_with_0_dof() -> None:
    d = degrees_of(13, 13, wins_ties=False)
    assert (d.success, d.raw, d.capped) == (False, 0, 0)
    assert degrees_of(14, 13, wins_ties=False).success


# --- standard checks --------------------------------------------------------------------------


def test_total_is_die_plus_attribute_plus_skill() -> None:
    result = resolve_check(stat_line(3, 5), 13, table(15))
    assert result.total == 23
    assert result.roll.bonus == 8
    assert [m.value for m in result.roll.modifiers] == [3, 5]


def test_modifier_is_added_and_defaults_to_zero() -> None:
    assert resolve_check(stat_line(3, 5, -2), 13, table(15)).total == 21
    assert resolve_check(stat_line(3, 5, 4), 13, table(15)).total == 27
    assert len(stat_line(3, 5)) == 2  # no "Modifier 0" line


def test_check_meeting_the_target_succeeds_with_0_dos() -> None:
    result = resolve_check(stat_line(3, 5), 13, table(5))
    assert result.total == 13
    assert result.success
    assert result.degrees.capped == 0


def test_check_one_short_fails_with_0_dof() -> None:
    result = resolve_check(stat_line(3, 5), 13, table(4))
    assert not result.success
    assert result.degrees.capped == 0


def test_check_capped_with_raw_kept() -> None:
    result = resolve_check(stat_line(5, 5), 13, table(20))
    assert result.total == 30
    assert (result.degrees.raw, result.degrees.capped) == (8, 5)


def test_check_odds_before_the_roll() -> None:
    # bonus 8 against 13: a 5 or better, 16 faces of 20
    assert resolve_check(stat_line(3, 5), 13, table(1)).odds.chance == Fraction(4, 5)


def test_check_odds_are_the_same_for_a_rolled_a_table_and_a_take10_die(
    rng: random.Random,
) -> None:
    dice = [obtain_die(rng=rng), table(3), obtain_die(take10=True)]
    first, *others = (resolve_check(stat_line(1, 2), 15, die).odds for die in dice)
    assert first.chance == Fraction(9, 20)  # faces 12..20
    assert all(odds == first for odds in others)


@pytest.mark.parametrize(
    ("attribute", "skill", "modifier", "message"),
    [
        (31, 5, 0, "Attribute must be between -10 and 30, not 31."),
        (-11, 5, 0, "Attribute must be between -10 and 30, not -11."),
        (3, 11, 0, "Skill must be between 0 and 10, not 11."),
        (3, -1, 0, "Skill must be between 0 and 10, not -1."),
        (3, 5, 51, "the modifier must be between -50 and 50, not 51."),
        (3, 5, -51, "the modifier must be between -50 and 50, not -51."),
    ],
)
def test_stat_line_out_of_range_is_refused(
    attribute: int, skill: int, modifier: int, message: str
) -> None:
    with refused(message):
        stat_line(attribute, skill, modifier)


@pytest.mark.parametrize(
    ("labels", "message"),
    [
        ({}, "Attribute must be between -10 and 30, not 31."),
        ({"attribute_label": "Strength"}, "Strength must be between -10 and 30, not 31."),
    ],
)
def test_an_attribute_out_of_range_is_refused_by_its_name(
    labels: dict[str, str], message: str
) -> None:
    with refused(message):
        stat_line(31, 5, **labels)


@pytest.mark.parametrize(
    ("labels", "message"),
    [
        ({}, "Skill must be between 0 and 10, not 11."),
        ({"skill_label": "Parry"}, "Parry must be between 0 and 10, not 11."),
    ],
)
def test_a_skill_out_of_range_is_refused_by_its_name(labels: dict[str, str], message: str) -> None:
    with refused(message):
        stat_line(3, 11, **labels)


@pytest.mark.parametrize("target", [limits.TARGET.low - 1, limits.TARGET.high + 1])
def test_target_out_of_range_is_refused(target: int) -> None:
    with refused(f"the target number must be between -60 and 150, not {target}."):
        resolve_check(stat_line(3, 5), target, table(10))


# --- combat: the seed's examples --------------------------------------------------------------


def test_goblin_taking_10_totals_13() -> None:
    goblin = Roll(obtain_die(take10=True), goblin_parry())
    assert goblin.total == 13


def test_jaime_hits_the_goblin_with_5_dos_for_10_damage() -> None:
    result = resolve_attack(jaime(), LONG_SWORD, table(15), vs=13, defence=Defence.PARRY)
    assert result.total == 23
    assert result.opponent_total == 13
    assert result.success and result.attacker_won
    assert (result.degrees.raw, result.degrees.capped) == (5, 5)
    assert result.damage.amount == 10
    assert result.damage.base == 5
    assert result.damage.degrees == 5


def test_jaime_against_the_goblins_take10_roll_is_the_same_exchange() -> None:
    goblin = Roll(obtain_die(take10=True), goblin_parry())
    result = resolve_attack(jaime(), LONG_SWORD, table(15), defender=goblin)
    assert result.opponent_total == 13
    assert result.damage.amount == 10
    # The goblin took 10: only Jaime's d20 is random, 20 cases, the same odds as "vs 13".
    assert result.odds.cases == 20
    assert result.odds == resolve_attack(jaime(), LONG_SWORD, table(15), vs=13).odds
    assert result.odds.chance == Fraction(4, 5)


def test_goblin_rolling_makes_the_odds_run_over_400_pairs() -> None:
    goblin = Roll(table(10), goblin_parry())
    result = resolve_attack(jaime(), LONG_SWORD, table(15), defender=goblin)
    assert result.damage.amount == 10
    assert result.odds.cases == 400


def test_goblin_parries_with_3_dos_and_lets_2_of_5_through() -> None:
    # The goblin rolls 16: 16 + 1 + 2 = 19 against Jaime's 13, (19 - 13) // 2 = 3 DoS.
    result = resolve_defence(goblin_parry(), LONG_SWORD, table(16), vs=13, defence=Defence.PARRY)
    assert result.total == 19
    assert result.success and not result.attacker_won
    assert result.degrees.capped == 3
    assert result.damage.amount == 2


def test_the_same_parry_seen_from_the_attacker() -> None:
    result = resolve_attack(jaime(), LONG_SWORD, table(5), vs=19)
    assert result.total == 13
    assert not result.success and not result.attacker_won
    assert result.degrees.capped == 3
    assert result.damage.amount == 2


@pytest.mark.parametrize(("base", "defender_dos", "damage"), [(5, 5, 0), (2, 5, 0), (5, 4, 1)])
def test_damage_never_goes_below_zero(base: int, defender_dos: int, damage: int) -> None:
    # a defence total 2 * dos over the attack
    result = resolve_defence(stat_line(0, 0), base, table(10 + 2 * defender_dos), vs=10)
    assert result.degrees.capped == defender_dos
    assert result.damage.amount == damage


def test_a_great_parry_beyond_the_cap_still_only_takes_5() -> None:
    result = resolve_defence(stat_line(10, 10), 8, table(20), vs=10)
    assert result.degrees.raw == 15
    assert result.damage.amount == 3


def test_no_dagger_strike_for_25_damage() -> None:
    dagger = 4
    result = resolve_attack(stat_line(30, 10, 50), dagger, table(20), vs=limits.TARGET.low)
    assert result.degrees.raw > 50
    assert result.damage.amount == dagger + 5
    assert max(result.odds.damage) == dagger + 5


def test_attack_meeting_the_defence_hits_for_base_damage() -> None:
    result = resolve_attack(jaime(), LONG_SWORD, table(5), vs=13)
    assert result.success and result.attacker_won
    assert result.degrees.capped == 0
    assert result.damage.amount == LONG_SWORD


def test_defence_only_equal_to_the_attack_does_not_defend() -> None:
    result = resolve_defence(goblin_parry(), LONG_SWORD, table(10), vs=13)
    assert result.total == 13
    assert not result.success and result.attacker_won
    assert result.damage.amount == LONG_SWORD


def test_defence_one_over_the_attack_defends_with_0_dos_for_base_damage() -> None:
    result = resolve_defence(goblin_parry(), LONG_SWORD, table(11), vs=13)
    assert result.success and not result.attacker_won
    assert result.degrees.capped == 0
    assert result.damage.amount == LONG_SWORD


def test_losing_defence_takes_the_attackers_dos() -> None:
    result = resolve_defence(goblin_parry(), LONG_SWORD, obtain_die(take10=True), vs=23)
    assert not result.success
    assert result.degrees.capped == 5
    assert result.damage.amount == 10


def test_block_needs_a_shield() -> None:
    with refused("Block needs a shield: parry or dodge instead."):
        require_shield(Defence.BLOCK, has_shield=False)
    require_shield(Defence.BLOCK, has_shield=True)
    require_shield(Defence.PARRY, has_shield=False)
    require_shield(Defence.DODGE, has_shield=False)


def test_opponent_total_or_roll_exactly_one() -> None:
    goblin = Roll(obtain_die(take10=True), goblin_parry())
    exactly_one = "Give the opponent's total or their roll, exactly one of them."
    with refused(exactly_one):
        resolve_attack(jaime(), LONG_SWORD, table(15))
    with refused(exactly_one):
        resolve_attack(jaime(), LONG_SWORD, table(15), vs=13, defender=goblin)
    with refused(exactly_one):
        resolve_defence(goblin_parry(), LONG_SWORD, table(15))


def test_a_result_keeps_whose_roll_it_is_the_defence_and_the_opponents_roll() -> None:
    goblin = Roll(obtain_die(take10=True), goblin_parry())
    attack = resolve_attack(jaime(), LONG_SWORD, table(15), defender=goblin, defence=Defence.PARRY)
    assert (attack.role, attack.defence, attack.opponent) == (
        DamageRole.ATTACKER,
        Defence.PARRY,
        goblin,
    )
    jaimes = Roll(table(15), jaime())
    parry = resolve_defence(
        goblin_parry(), LONG_SWORD, table(16), attacker=jaimes, defence=Defence.DODGE
    )
    assert (parry.role, parry.defence, parry.opponent) == (
        DamageRole.DEFENDER,
        Defence.DODGE,
        jaimes,
    )
    bare = resolve_defence(goblin_parry(), LONG_SWORD, table(16), vs=23)
    assert (bare.role, bare.defence, bare.opponent) == (DamageRole.DEFENDER, None, None)


@pytest.mark.parametrize("base", [-1, limits.BASE.high + 1])
def test_base_damage_out_of_range_is_refused(base: int) -> None:
    with refused(f"base damage must be between 0 and 50, not {base}."):
        resolve_attack(jaime(), base, table(15), vs=13)


def test_rolled_attack_is_deterministic_with_a_seeded_rng(rng: random.Random) -> None:
    result = resolve_attack(jaime(), LONG_SWORD, obtain_die(rng=rng), vs=13)
    assert result.roll.die == Die(5, DieSource.ROLLED)  # the seed's first face
    assert result.total == 13
    assert result.damage.amount == 5


# --- contests ---------------------------------------------------------------------------------


def test_contest_tie_goes_to_the_active_side_with_0_dos() -> None:
    sneak = Roll(table(12), stat_line(2, 4))
    watch = Roll(table(14), stat_line(2, 2))
    result = resolve_contest(sneak, watch)
    assert sneak.total == watch.total == 18
    assert result.active_won
    assert result.winner is sneak and result.loser is watch
    assert result.degrees.capped == 0


def test_contest_passive_higher_wins_and_winners_dos_are_losers_dof() -> None:
    sneak = Roll(table(8), stat_line(2, 4))
    watch = Roll(table(15), stat_line(2, 2))
    result = resolve_contest(sneak, watch)
    assert (sneak.total, watch.total) == (14, 19)
    assert not result.active_won
    assert result.winner is watch
    assert (result.degrees.raw, result.degrees.capped) == (2, 2)


def test_contest_capped_with_raw_kept() -> None:
    result = resolve_contest(Roll(table(20), stat_line(10, 10)), Roll(table(1), stat_line(0, 0)))
    assert (result.degrees.raw, result.degrees.capped) == (19, 5)  # 40 vs 1


def test_contest_odds_both_rolling_equal_bonuses() -> None:
    # a >= b for 210 of the 400 pairs (190 above the diagonal, 20 on it)
    result = resolve_contest(Roll(table(3), stat_line(1, 1)), Roll(table(3), stat_line(1, 1)))
    assert result.odds.cases == 400
    assert result.odds.chance == Fraction(21, 40)


def test_contest_odds_against_a_passive_take10() -> None:
    passive = Roll(obtain_die(take10=True), stat_line(1, 1))
    result = resolve_contest(Roll(table(3), stat_line(1, 1)), passive)
    assert result.odds.cases == 20
    assert result.odds.chance == Fraction(11, 20)  # faces 10..20


# --- crafting ---------------------------------------------------------------------------------


def test_crafting_success_raises_quality_by_the_dos() -> None:
    result = resolve_craft(stat_line(2, 4), 15, table(17), quality=3)
    assert result.check.total == 23
    assert result.quality_after == 7  # 4 DoS
    assert result.change == 4


def test_crafting_failure_lowers_quality_by_the_dof() -> None:
    result = resolve_craft(stat_line(2, 4), 15, table(1), quality=3)
    assert result.check.total == 7
    assert result.quality_after == -1  # 4 DoF
    assert result.change == -4


def test_crafting_moves_quality_by_at_most_5() -> None:
    up = resolve_craft(stat_line(10, 10), 15, table(20), quality=0)
    down = resolve_craft(stat_line(-10, 0), 40, table(1), quality=0)
    assert up.check.degrees.raw == 12 and up.quality_after == 5
    assert down.check.degrees.raw == 24 and down.quality_after == -5


def test_crafting_meeting_or_one_short_leaves_quality_unchanged() -> None:
    assert resolve_craft(stat_line(2, 4), 15, table(9), quality=3).quality_after == 3
    assert resolve_craft(stat_line(2, 4), 15, table(8), quality=3).quality_after == 3


def test_crafting_is_a_series_of_rolls_on_one_item(rng: random.Random) -> None:
    quality = 0
    expected = 0
    for _ in range(10):
        result = resolve_craft(stat_line(2, 4), 15, obtain_die(rng=rng), quality)
        step = result.check.degrees.capped
        expected += step if result.check.success else -step
        quality = result.quality_after
    assert quality == expected
    # seeded faces 5, 19, 2, 11, 12, 10, 3, 6, 10, 1 against 15 with +6:
    # -2, +5, -3, +1, +1, +0, -3, -1, +0, -4
    assert quality == -6


@pytest.mark.parametrize("quality", [limits.QUALITY.low - 1, limits.QUALITY.high + 1])
def test_crafting_quality_out_of_range_is_refused(quality: int) -> None:
    with refused(f"quality must be between -1000 and 1000, not {quality}."):
        resolve_craft(stat_line(2, 4), 15, table(10), quality)


# --- ranges -----------------------------------------------------------------------------------


def test_ranges() -> None:
    assert (limits.DIE.low, limits.DIE.high) == (1, 20)
    assert (limits.SKILL.low, limits.SKILL.high) == (0, 10)
    for limit in (limits.ATTRIBUTE, limits.MODIFIER, limits.TARGET, limits.BASE, limits.QUALITY):
        assert limit.check(limit.low) == limit.low
        assert limit.check(limit.high) == limit.high
        with refused(
            f"{limit.name} must be between {limit.low} and {limit.high}, not {limit.high + 1}."
        ):
            limit.check(limit.high + 1)


@pytest.mark.parametrize(
    ("limit", "value", "message"),
    [
        (limits.DIE, 0, "the die must be between 1 and 20, not 0."),
        (limits.TARGET, 151, "the target number must be between -60 and 150, not 151."),
        (limits.BASE, -1, "base damage must be between 0 and 50, not -1."),
        (limits.HEALTH, 1000, "a health value must be between 0 and 999, not 1000."),
        (limits.ARMOUR, 51, "armour must be between 0 and 50, not 51."),
    ],
)
def test_a_value_out_of_range_is_refused_naming_the_range_and_the_value(
    limit: limits.Limit, value: int, message: str
) -> None:
    with refused(message):
        limit.check(value)


def test_a_range_error_names_what_the_caller_calls_the_value() -> None:
    with refused("Constitution must be between -10 and 30, not 40."):
        limits.ATTRIBUTE.check(40, "Constitution")


def test_rules_error_is_a_value_error_with_one_line() -> None:
    with pytest.raises(ValueError) as info:
        obtain_die(roll=0)
    assert "\n" not in str(info.value)
