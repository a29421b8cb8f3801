"""Properties of results over the whole range of inputs (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from wire import limits
from wire.check import Modifier, Roll, resolve_check, stat_line
from wire.combat import resolve_attack, resolve_defence
from wire.contest import resolve_contest
from wire.crafting import resolve_craft
from wire.degrees import degrees_of
from wire.dice import Die, DieSource

WIRE = settings.get_profile("wire")

attributes = st.integers(limits.ATTRIBUTE.low, limits.ATTRIBUTE.high)
skills = st.integers(limits.SKILL.low, limits.SKILL.high)
modifiers = st.integers(limits.MODIFIER.low, limits.MODIFIER.high)
targets = st.integers(limits.TARGET.low, limits.TARGET.high)
bases = st.integers(limits.BASE.low, limits.BASE.high)
qualities = st.integers(limits.QUALITY.low + 5, limits.QUALITY.high - 5)
faces = st.integers(1, 20)
sources = st.sampled_from(list(DieSource))
bonuses = st.integers(-40, 60)


def die(face: int, source: DieSource = DieSource.TABLE) -> Die:
    return Die(10 if source is DieSource.TAKE10 else face, source)


def mods(bonus: int) -> tuple[Modifier, ...]:
    return (Modifier("Bonus", bonus),)


def signed(success: bool, degrees: int) -> int:
    """DoS as positive, DoF as negative: how well the roll went, on one scale."""
    return degrees if success else -degrees


@WIRE
@given(total=st.integers(-300, 300), target=st.integers(-300, 300), wins_ties=st.booleans())
def test_degrees_never_above_5_and_raw_is_one_per_full_two_points(
    total: int, target: int, wins_ties: bool
) -> None:
    d = degrees_of(total, target, wins_ties=wins_ties)
    assert 0 <= d.capped <= 5
    assert d.raw == abs(total - target) // 2
    assert d.capped == min(d.raw, 5)
    assert d.success == (total > target or (total == target and wins_ties))


@WIRE
@given(attribute=attributes, skill=skills, modifier=modifiers, target=targets, face=faces)
def test_check_total_and_success(
    attribute: int, skill: int, modifier: int, target: int, face: int
) -> None:
    result = resolve_check(stat_line(attribute, skill, modifier), target, die(face))
    assert result.total == face + attribute + skill + modifier
    assert result.success == (result.total >= target)
    assert result.degrees.capped <= 5


@WIRE
@given(bonus=st.integers(-60, 90), target=targets)
def test_dos_never_fall_as_the_die_rises(bonus: int, target: int) -> None:
    results = [resolve_check(mods(bonus), target, die(face)) for face in range(1, 21)]
    capped = [signed(r.success, r.degrees.capped) for r in results]
    raw = [signed(r.success, r.degrees.raw) for r in results]
    assert capped == sorted(capped)
    assert raw == sorted(raw)
    successes = [r.success for r in results]
    assert successes == sorted(successes)  # once it succeeds, a higher die succeeds too


@WIRE
@given(bonus=bonuses, vs=targets, base=bases)
def test_attack_damage_never_falls_and_defence_damage_never_rises_with_the_die(
    bonus: int, vs: int, base: int
) -> None:
    attacks = [resolve_attack(mods(bonus), base, die(f), vs=vs).damage.amount for f in range(1, 21)]
    defences = [
        resolve_defence(mods(bonus), base, die(f), vs=vs).damage.amount for f in range(1, 21)
    ]
    assert attacks == sorted(attacks)
    assert defences == sorted(defences, reverse=True)


@WIRE
@given(bonus=bonuses, vs=targets, base=bases, face=faces, source=sources)
def test_damage_within_0_and_base_plus_5(
    bonus: int, vs: int, base: int, face: int, source: DieSource
) -> None:
    for resolve in (resolve_attack, resolve_defence):
        result = resolve(mods(bonus), base, die(face, source), vs=vs)
        assert 0 <= result.damage.amount <= base + 5
        assert result.damage.degrees <= 5


@WIRE
@given(bonus=bonuses, vs=targets, base=bases, face=faces)
def test_attack_and_defence_rules(bonus: int, vs: int, base: int, face: int) -> None:
    attack = resolve_attack(mods(bonus), base, die(face), vs=vs)
    total = face + bonus
    assert attack.success == attack.attacker_won == (total >= vs)
    if attack.attacker_won:
        assert attack.damage.amount == base + min((total - vs) // 2, 5)
    else:
        assert attack.damage.amount == max(0, base - min((vs - total) // 2, 5))
    defence = resolve_defence(mods(bonus), base, die(face), vs=vs)
    assert defence.success == (not defence.attacker_won) == (total > vs)


@WIRE
@given(
    attacker=bonuses,
    defender=bonuses,
    attack_face=faces,
    defence_face=faces,
    base=bases,
    defender_source=sources,
)
def test_attack_and_defend_with_mirrored_numbers_agree_on_the_damage(
    attacker: int,
    defender: int,
    attack_face: int,
    defence_face: int,
    base: int,
    defender_source: DieSource,
) -> None:
    attack_roll = Roll(die(attack_face), mods(attacker))
    defence_roll = Roll(die(defence_face, defender_source), mods(defender))
    by_totals = (
        resolve_attack(attack_roll.modifiers, base, attack_roll.die, vs=defence_roll.total),
        resolve_defence(defence_roll.modifiers, base, defence_roll.die, vs=attack_roll.total),
    )
    by_rolls = (
        resolve_attack(attack_roll.modifiers, base, attack_roll.die, defender=defence_roll),
        resolve_defence(defence_roll.modifiers, base, defence_roll.die, attacker=attack_roll),
    )
    for attack, defence in (by_totals, by_rolls):
        assert attack.damage == defence.damage
        assert attack.success != defence.success
        assert attack.degrees.capped == defence.degrees.capped
        assert attack.degrees.raw == defence.degrees.raw
    assert by_totals[0].damage == by_rolls[0].damage


@WIRE
@given(active=bonuses, passive=bonuses, a=faces, b=faces, source=sources)
def test_contest_active_wins_iff_its_total_is_at_least_the_passive(
    active: int, passive: int, a: int, b: int, source: DieSource
) -> None:
    first = Roll(die(a), mods(active))
    second = Roll(die(b, source), mods(passive))
    result = resolve_contest(first, second)
    assert result.active_won == (first.total >= second.total)
    assert result.degrees.raw == abs(first.total - second.total) // 2
    assert result.degrees.capped == min(result.degrees.raw, 5)
    assert {id(result.winner), id(result.loser)} == {id(first), id(second)}
    assert result.winner.total >= result.loser.total
    # Swapping who acts changes the winner only on a tie; the margin is the same either way.
    swapped = resolve_contest(second, first)
    assert swapped.degrees.raw == result.degrees.raw
    if first.total != second.total:
        assert swapped.winner is result.winner
    else:
        assert swapped.winner is second


@WIRE
@given(bonus=bonuses, target=targets, face=faces, quality=qualities)
def test_crafting_moves_quality_by_the_capped_degrees(
    bonus: int, target: int, face: int, quality: int
) -> None:
    result = resolve_craft(mods(bonus), target, die(face), quality)
    degrees = result.check.degrees
    assert result.quality_before == quality
    assert result.change == (degrees.capped if degrees.success else -degrees.capped)
    assert -5 <= result.change <= 5
