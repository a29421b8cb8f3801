"""Fights in the rules core: initiative order and health pools (examples and properties)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.wire.refusals import refused
from wire import limits
from wire.dice import Die, DieSource
from wire.health import (
    DamageKind,
    Health,
    HealthChange,
    Pool,
    apply_damage,
    change_pool,
    counted_damage,
    descriptor,
    heal,
    looks,
    permanent_health,
    set_pool,
)
from wire.initiative import Initiative, roll_initiative, turn_order

WIRE = settings.get_profile("wire")


def full_health(hp_max: int, thp_max: int, wp_max: int) -> Health:
    """Unhurt pools of these maxima."""
    return Health(hp_max, hp_max, thp_max, thp_max, wp_max, wp_max)


faces = st.integers(1, 20)
reactions = st.integers(limits.ATTRIBUTE.low, limits.ATTRIBUTE.high)
surprises = st.integers(limits.SURPRISE.low, limits.SURPRISE.high)
initiatives = st.builds(
    lambda face, reaction, surprise: Initiative(Die(face, DieSource.TABLE), reaction, surprise),
    faces,
    reactions,
    surprises,
)
pools = st.sampled_from(list(Pool))
kinds = st.sampled_from(list(DamageKind))
amounts = st.integers(0, limits.HEALTH.high)


@st.composite
def healths(draw: st.DrawFn) -> Health:
    maxima = [draw(st.integers(1, 60)) for _ in Pool]
    currents = [draw(st.integers(-20, m)) for m in maxima]
    return Health(currents[0], maxima[0], currents[1], maxima[1], currents[2], maxima[2])


def die(face: int) -> Die:
    return Die(face, DieSource.TABLE)


def test_initiative_is_the_die_plus_reaction_and_surprise_counts_in_round_one_only() -> None:
    goblin = roll_initiative(die(12), 2, surprise=5)
    assert goblin.total() == 9
    assert goblin.total(round_number=2) == 14
    with refused("The surprise penalty must be between 0 and 20, not -1."):
        roll_initiative(die(12), 2, surprise=-1)


def test_on_equal_initiative_the_higher_reaction_acts_first() -> None:
    order = turn_order(
        [
            ("Jaime", Initiative(die(15), 2)),  # 17
            ("Goblin", Initiative(die(13), 4)),  # 17, faster
            ("Cora", Initiative(die(18), 1)),  # 19
            ("Goblin 2", Initiative(die(13), 4)),  # 17, as fast as Goblin: joined later
        ]
    )
    assert order == ["Cora", "Goblin", "Goblin 2", "Jaime"]


def test_on_equal_initiative_and_reaction_who_joined_first_acts_first_whatever_the_name() -> None:
    same = Initiative(die(13), 4)
    assert turn_order([("Zora", same), ("Anton", same), ("Mika", same)]) == [
        "Zora",
        "Anton",
        "Mika",
    ]
    assert turn_order([(3, same), (1, same), (2, same)]) == [3, 1, 2]


def test_the_order_is_of_round_one_unless_told_so_surprise_and_all() -> None:
    entries = [
        ("Jaime", roll_initiative(die(15), 2, surprise=6)),  # 11 in round 1, 17 after
        ("Goblin", roll_initiative(die(12), 2)),  # 14
    ]
    assert turn_order(entries) == ["Goblin", "Jaime"] == turn_order(entries, 1)
    assert turn_order(entries, 2) == ["Jaime", "Goblin"]


def test_initiative_without_surprise_is_the_die_plus_reaction_in_every_round() -> None:
    jaime = roll_initiative(die(15), 2)
    assert (jaime.surprise, jaime.total(), jaime.total(2)) == (0, 17, 17)


@pytest.mark.parametrize(
    ("reaction", "surprise", "message"),
    [
        (31, 0, "Reaction must be between -10 and 30, not 31."),
        (-11, 0, "Reaction must be between -10 and 30, not -11."),
        (2, -1, "The surprise penalty must be between 0 and 20, not -1."),
        (2, 21, "The surprise penalty must be between 0 and 20, not 21."),
    ],
)
def test_initiative_out_of_range_is_refused_naming_the_value(
    reaction: int, surprise: int, message: str
) -> None:
    with refused(message):
        roll_initiative(die(12), reaction, surprise)


@settings(WIRE)
@given(st.lists(initiatives, max_size=25), st.integers(1, 3))
def test_the_order_is_total_and_stable(entries: list[Initiative], round_number: int) -> None:
    keyed = [(-joined, entry) for joined, entry in enumerate(entries)]  # keys sort backwards
    order = turn_order(keyed, round_number)
    assert sorted(order) == sorted(key for key, _ in keyed)  # everyone exactly once
    place = {key: i for i, key in enumerate(order)}
    for a, first in keyed:
        for b, second in keyed:
            if a <= b:  # a joined first
                continue
            ahead = (first.total(round_number), first.reaction) >= (
                second.total(round_number),
                second.reaction,
            )
            assert (place[a] < place[b]) == ahead  # equal: who joined first
    assert turn_order(keyed, round_number) == order  # the same input, the same order


def test_permanent_health_is_20_plus_constitution_and_resolve() -> None:
    assert permanent_health(2, 1) == 23
    assert permanent_health(-15, -10) == 1  # a pool never starts at 0


def test_damage_goes_to_the_pool_of_its_kind_after_armour() -> None:
    health = full_health(23, 23, 10)
    hurt, change = apply_damage(health, 10, DamageKind.LETHAL, armour=2)
    assert (hurt.hp, hurt.thp, hurt.wp) == (15, 23, 10)
    assert (change.pool, change.before, change.after, change.armour) == (Pool.HP, 23, 15, 2)
    stunned, _ = apply_damage(health, 4, DamageKind.NON_LETHAL, armour=2)
    assert stunned.thp == 21
    scared, change = apply_damage(health, 4, DamageKind.MENTAL, armour=2)
    assert (scared.wp, change.armour) == (6, 0)  # armour does not stop fear
    down, _ = apply_damage(health, 30)
    assert down.hp == -7 and down.down


@settings(WIRE)
@given(healths(), amounts, kinds, st.integers(0, limits.ARMOUR.high))
def test_damage_after_armour_never_heals_and_never_exceeds_the_blow(
    health: Health, amount: int, kind: DamageKind, armour: int
) -> None:
    after, change = apply_damage(health, amount, kind, armour)
    taken = change.before - change.after
    assert 0 <= taken <= amount
    assert taken == (max(0, amount - armour) if kind.armour_applies else amount)
    for pool in Pool:
        if pool is not kind.pool:
            assert after.current(pool) == health.current(pool)


@settings(WIRE)
@given(healths(), amounts, pools)
def test_healing_never_goes_above_the_maximum_nor_lowers_a_pool(
    health: Health, amount: int, pool: Pool
) -> None:
    after, change = heal(health, amount, pool)
    assert change.after <= max(health.maximum(pool), change.before)
    assert change.after >= change.before
    assert after.current(pool) == change.after


@settings(WIRE)
@given(healths(), amounts, pools)
def test_healing_adds_the_amount_up_to_the_maximum_and_leaves_the_other_pools(
    health: Health, amount: int, pool: Pool
) -> None:
    after, change = heal(health, amount, pool)
    assert after.current(pool) == min(health.current(pool) + amount, health.maximum(pool))
    assert change == HealthChange(pool, health.current(pool), after.current(pool), amount)
    assert change.amount == -(after.current(pool) - health.current(pool))  # negative: healed
    for other in Pool:
        if other is not pool:
            assert after.current(other) == health.current(other)
        assert after.maximum(other) == health.maximum(other)


def test_healing_jaime_after_the_goblins_blow() -> None:
    hurt, _ = apply_damage(full_health(23, 23, 10), 10)  # HP 13 of 23
    healed, change = heal(hurt, 4, Pool.HP)
    assert (healed.hp, healed.thp, healed.wp) == (17, 23, 10)
    assert change == HealthChange(Pool.HP, before=13, after=17, incoming=4)
    assert change.amount == -4
    whole, change = heal(healed, 50, Pool.HP)
    assert whole.hp == 23
    assert (change.before, change.after, change.incoming, change.amount) == (17, 23, 50, -6)


def test_a_blow_reports_what_was_asked_what_armour_took_and_what_the_pool_lost() -> None:
    _, change = apply_damage(full_health(23, 23, 10), 10, DamageKind.LETHAL, armour=3)
    assert change == HealthChange(Pool.HP, before=23, after=16, incoming=10, armour=3)
    assert change.amount == 7
    _, change = apply_damage(full_health(23, 23, 10), 2, DamageKind.NON_LETHAL, armour=3)
    assert change == HealthChange(Pool.THP, before=23, after=23, incoming=2, armour=2)
    assert change.amount == 0


@settings(WIRE)
@given(healths(), st.integers(-50, 100), pools)
def test_setting_a_pool_never_goes_above_its_maximum(
    health: Health, value: int, pool: Pool
) -> None:
    after, change = set_pool(health, value, pool)
    assert after.current(pool) == min(value, health.maximum(pool))
    assert change == HealthChange(pool, health.current(pool), after.current(pool), value)
    for other in Pool:
        if other is not pool:
            assert after.current(other) == health.current(other)


def test_setting_a_pool_by_hand() -> None:
    health = full_health(23, 23, 10)
    lowered, change = set_pool(health, 4, Pool.WP)
    assert (lowered.hp, lowered.thp, lowered.wp) == (23, 23, 4)
    assert change == HealthChange(Pool.WP, before=10, after=4, incoming=4)
    assert change.amount == 6
    _, change = set_pool(lowered, 99, Pool.WP)
    assert change == HealthChange(Pool.WP, before=4, after=10, incoming=99)


def test_descriptors_for_players() -> None:
    assert [descriptor(c, 20) for c in (20, 11, 10, 1, 0, -3)] == [
        "unhurt",
        "wounded",
        "badly wounded",
        "badly wounded",
        "down",
        "down",
    ]


def test_a_combatant_looks_as_hurt_as_its_worst_pool() -> None:
    whole = full_health(12, 12, 0)
    assert looks(whole) == "unhurt"
    beaten, _ = apply_damage(whole, 9, DamageKind.NON_LETHAL)  # THP 3 of 12, HP whole
    assert looks(beaten) == "badly wounded"
    cut, _ = apply_damage(beaten, 4)  # HP 8 of 12: wounded, THP still worse
    assert looks(cut) == "badly wounded"
    assert looks(apply_damage(cut, 3, DamageKind.NON_LETHAL)[0]) == "down"
    assert looks(full_health(12, 12, 10).with_current(Pool.WP, 6)) == "wounded"


@WIRE
@given(st.integers(-50, 50), st.integers(-50, 50), st.integers(-50, 50))
def test_looks_is_down_exactly_when_health_is_down(hp: int, thp: int, wp: int) -> None:
    health = Health(hp, 20, thp, 20, wp, 10)
    assert (looks(health) == "down") == health.down


@WIRE
@given(healths())
def test_looks_is_down_exactly_when_health_is_down_whatever_the_maxima(health: Health) -> None:
    assert (looks(health) == "down") == health.down


def test_a_pool_at_1_is_not_down_and_at_0_is() -> None:
    whole = full_health(12, 12, 1)
    assert not whole.down and looks(whole) == "unhurt"
    at_one = whole.with_current(Pool.HP, 1)
    assert not at_one.down and looks(at_one) == "badly wounded"
    assert whole.with_current(Pool.HP, 0).down
    broken = whole.with_current(Pool.WP, 0)  # a willpower of 1, lost
    assert broken.down and looks(broken) == "down"


def test_a_combatant_with_no_pools_looks_unhurt() -> None:
    nothing = full_health(0, 0, 0)
    assert not nothing.down
    assert looks(nothing) == "unhurt"


def test_a_fights_summary_counts_the_damage_down_to_0_not_the_overkill() -> None:
    goblin = full_health(12, 12, 0).with_current(Pool.HP, 3)
    felled, change = apply_damage(goblin, 8)
    assert (change.amount, change.counted) == (8, 3)  # the pool shows -5; 3 counted
    _, again = apply_damage(felled, 4)
    assert (again.amount, again.counted) == (4, 0)  # already down: none counted
    _, scratch = apply_damage(full_health(12, 12, 0), 4)
    assert scratch.counted == 4
    _, healed = heal(felled, 6, Pool.HP)
    assert healed.counted == 0
    assert counted_damage(3, -5) == 3
    assert counted_damage(3, 3) == 0


@settings(WIRE)
@given(st.integers(-50, 60), st.integers(-50, 60))
def test_counted_damage_is_the_part_of_a_blow_above_0(before: int, after: int) -> None:
    counted = counted_damage(before, after)
    if after >= before:
        assert counted == 0
    else:
        assert 0 <= counted <= before - after
        assert counted == len([hp for hp in range(after, before) if hp >= 0])


def test_negative_amounts_are_refused() -> None:
    health = full_health(20, 20, 5)
    with refused("Damage cannot be negative; heal instead."):
        apply_damage(health, -1)
    with refused("Armour cannot be negative."):
        apply_damage(health, 3, armour=-1)
    with refused("Healing cannot be negative; use damage instead."):
        heal(health, -1, Pool.HP)


def test_a_change_of_health_aims_at_a_pool_or_a_kind_of_damage() -> None:
    whole = full_health(23, 23, 10)
    _, by_kind = change_pool(whole, "damage", 5, kind=DamageKind.NON_LETHAL, armour=2)
    _, by_pool = change_pool(whole, "damage", 5, pool=Pool.THP, armour=2)
    assert by_kind == by_pool and (by_kind.pool, by_kind.after) == (Pool.THP, 20)
    _, mental = change_pool(whole, "damage", 4, pool=Pool.WP, armour=2)
    assert mental.after == 6  # armour stops blows, not fear
    after, healed = change_pool(whole.with_current(Pool.HP, 3), "heal", 4)
    assert (healed.pool, after.current(Pool.HP)) == (Pool.HP, 7)
    after, _ = change_pool(whole, "set", 2, pool=Pool.WP)
    assert after.current(Pool.WP) == 2
