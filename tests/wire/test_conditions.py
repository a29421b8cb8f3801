"""Conditions (wire/conditions.py): what they apply to, their modifiers, and the countdown."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wire.check import Modifier, resolve_check
from wire.combat import Defence, resolve_attack
from wire.conditions import (
    Borne,
    Effect,
    RollFor,
    Target,
    Timing,
    TurnEvent,
    applies,
    check_condition,
    condition_modifiers,
    count_down,
    modified_damage,
    with_conditions,
)
from wire.dice import Die, DieSource
from wire.errors import RulesError

WIRE = settings.get_profile("wire")

ROLLS = (
    RollFor.attack(),
    *(RollFor.defence(d.value) for d in Defence),
    RollFor.check("Strength", "Climbing"),
    RollFor.check("Resolve"),
    RollFor(Target.INITIATIVE),
    RollFor(Target.DAMAGE_DEALT),
    RollFor(Target.DAMAGE_TAKEN),
)

EXPECTED = {
    Target.ALL: {"attack", "parry", "block", "dodge", "check"},
    Target.ATTACK: {"attack"},
    Target.DEFENCE: {"parry", "block", "dodge"},
    Target.PARRY: {"parry"},
    Target.BLOCK: {"block"},
    Target.DODGE: {"dodge"},
    Target.CHECK: {"check"},
    Target.INITIATIVE: {"initiative"},
    Target.DAMAGE_DEALT: {"damage-dealt"},
    Target.DAMAGE_TAKEN: {"damage-taken"},
}
"""Which rolls (`RollFor.kind`) each target changes, written out by hand."""

targets = st.sampled_from(list(Target))
conditions = st.builds(
    Effect,
    id=st.integers(1, 10_000),
    name=st.sampled_from(["Prone", "Blessed", "Stunned", "Bleeding"]),
    rounds_left=st.one_of(st.none(), st.integers(1, 5)),
    modifier=st.integers(-10, 10),
    applies_to=targets,
    stat=st.one_of(st.none(), st.sampled_from(["Strength", "climbing"])),
    timing=st.sampled_from([Timing.END, Timing.START]),
)


def test_a_prone_goblins_parry_names_the_condition_and_loses_two() -> None:
    prone = Effect(1, "Prone", None, -2, Target.DEFENCE)
    mods = with_conditions((Modifier("Strength", 1), Modifier("Parry", 2)), [prone], ROLLS[1])
    assert mods[-1] == Modifier("Prone", -2)
    result = resolve_check(mods, 13, Die(10, DieSource.TABLE))
    assert result.total == 11 and not result.success


def test_each_target_applies_to_its_own_rolls_only() -> None:
    for target, kinds in EXPECTED.items():
        effect = Effect(1, "X", None, 1, target)
        hit = {roll.kind.value for roll in ROLLS if applies(effect, roll)}
        assert hit == kinds, target


def test_a_check_condition_with_a_stat_changes_only_checks_of_that_stat() -> None:
    weak = Effect(1, "Weakened", None, -3, Target.CHECK, stat="strength")
    assert condition_modifiers([weak], RollFor.check("Strength", "Climbing")) == (
        Modifier("Weakened", -3),
    )
    assert condition_modifiers([weak], RollFor.check("Resolve")) == ()
    assert condition_modifiers([weak], RollFor.attack()) == ()


def test_a_blessed_attack_hits_harder_and_damage_conditions_change_the_base() -> None:
    blessed = Effect(1, "Blessed", None, 1, Target.ATTACK)
    mods = with_conditions((Modifier("Strength", 3),), [blessed], RollFor.attack())
    plain = resolve_attack((Modifier("Strength", 3),), 5, Die(10, DieSource.TABLE), vs=11)
    better = resolve_attack(mods, 5, Die(10, DieSource.TABLE), vs=11)
    assert (plain.total, better.total) == (13, 14)
    assert better.damage.amount == plain.damage.amount  # 1 DoS either way (13-11, 14-11)
    rage = Effect(2, "Rage", None, 2, Target.DAMAGE_DEALT)
    shield = Effect(3, "Warded", None, -10, Target.DAMAGE_TAKEN)
    assert modified_damage(5, [rage], []) == 7
    assert modified_damage(5, [rage], [shield]) == 0  # never below 0


@settings(WIRE)
@given(st.lists(conditions, max_size=10), st.integers(0, 9))
def test_removing_a_condition_restores_every_modifier(effects: list[Effect], at: int) -> None:
    if not effects:
        return
    gone = effects[at % len(effects)]
    rest = [e for e in effects if e is not gone]
    for roll in ROLLS:
        before = condition_modifiers(rest, roll)
        added = condition_modifiers(effects, roll)
        mine = condition_modifiers([gone], roll)
        assert sum(m.value for m in added) == sum(m.value for m in before) + sum(
            m.value for m in mine
        )
        assert [m for m in added if m not in mine] == [m for m in before if m not in mine]


@settings(WIRE)
@given(st.lists(conditions, max_size=10))
def test_modifiers_apply_only_to_their_target_kind(effects: list[Effect]) -> None:
    for roll in ROLLS:
        shown = condition_modifiers(effects, roll)
        wanted = [
            Modifier(e.name, e.modifier)
            for e in effects
            if e.modifier and roll.kind.value in EXPECTED[e.applies_to] and _stat_fits(e, roll)
        ]
        assert list(shown) == wanted


def _stat_fits(effect: Effect, roll: RollFor) -> bool:
    if effect.applies_to is not Target.CHECK or not effect.stat:
        return True
    return effect.stat.lower() in {s.lower() for s in roll.stats}


def _turns(order: list[int], count: int) -> list[TurnEvent]:
    events, previous = [], None
    for n in range(count):
        started = order[n % len(order)]
        events.append(TurnEvent(previous, started))
        previous = started
    return events


@settings(WIRE)
@given(
    st.integers(1, 6),
    st.integers(1, 5),
    st.sampled_from([Timing.END, Timing.START]),
    st.integers(0, 5),
)
def test_a_countdown_never_skips_nor_repeats_a_turn(
    people: int, rounds: int, timing: Timing, bearer: int
) -> None:
    """A condition of N rounds ends on exactly its bearer's N-th turn end (or beginning), and
    is counted once per such turn, never on anyone else's."""
    order = list(range(1, people + 1))
    bearer = order[bearer % people]
    live = [Borne(bearer, Effect(7, "Stunned", rounds, -1, timing=timing))]
    seen, ended_at = [], None
    for index, event in enumerate(_turns(order, people * (rounds + 2) + 1)):
        result = count_down(live, event)
        mine = event.ended_id if timing is Timing.END else event.started_id
        if live:
            if mine == bearer:
                seen.append(live[0].effect.rounds_left)
                assert not result.kept
            else:
                assert result.kept == tuple(live) and not result.counted and not result.ended
        if result.ended:
            ended_at = index
        live = list(result.kept + result.counted)
    assert seen == list(range(rounds, 0, -1))
    assert ended_at is not None and not live


def test_until_someones_turn_ends_as_that_turn_begins_or_when_they_leave() -> None:
    mark = Borne(1, Effect(5, "Marked", None, -2, timing=Timing.TURN, until_id=3))
    assert count_down([mark], TurnEvent(1, 2)).kept == (mark,)
    assert count_down([mark], TurnEvent(2, 3)).ended == (mark,)
    left = TurnEvent(1, 2, frozenset({1, 2}))
    assert count_down([mark], left).ended == (mark,)


def test_a_lasting_condition_is_never_counted() -> None:
    lasting = Borne(1, Effect(5, "Cursed", None, -1))
    for event in _turns([1, 2], 10):
        assert count_down([lasting], event).kept == (lasting,)


@pytest.mark.parametrize(
    ("effect", "words"),
    [
        (Effect(0, "", None), "name"),
        (Effect(0, "x" * 41, None), "at most 40"),
        (Effect(0, "Prone", None, 11), "between -10 and 10"),
        (Effect(0, "Prone", 0), "1 to 100"),
        (Effect(0, "Prone", 101), "1 to 100"),
        (Effect(0, "Prone", None, -2, Target.ATTACK, stat="Strength"), "checks only"),
        (Effect(0, "Prone", None, timing=Timing.TURN), "Name the combatant"),
        (Effect(0, "Prone", None, until_id=3), "Name the combatant"),
        (Effect(0, "Prone", 2, timing=Timing.TURN, until_id=3), "no rounds"),
    ],
)
def test_limits_are_refused_with_the_range(effect: Effect, words: str) -> None:
    with pytest.raises(RulesError, match=words):
        check_condition(effect)


def test_a_good_condition_is_kept_trimmed() -> None:
    given_ = Effect(0, "  Prone ", 2, -2, Target.CHECK, stat=" Climbing ")
    assert check_condition(given_) == Effect(0, "Prone", 2, -2, Target.CHECK, stat="Climbing")


def test_the_json_output_keeps_each_condition_and_the_degrees_of_the_modified_total() -> None:
    from wire.jsonout import check_json

    prone = Effect(1, "Prone", None, -2, Target.CHECK)
    mods = with_conditions((Modifier("Strength", 3),), [prone], RollFor.check("Strength"))
    shown = check_json(resolve_check(mods, 10, Die(10, DieSource.TABLE)))
    assert {"label": "Prone", "value": -2} in shown["modifiers"]
    assert (shown["total"], shown["success"], shown["degrees"]) == (11, True, 0)


def test_the_best_defence_counts_the_conditions() -> None:
    from wire.conditions import best_defence_under
    from wire.sheet import Character

    goblin = Character("Goblin", True, {"Strength": 1, "Reaction": 1}, {"Parry": 2, "Dodge": 1})
    assert best_defence_under(goblin, ()) is Defence.PARRY
    spoilt = Effect(1, "Disarmed", None, -2, Target.PARRY)
    assert best_defence_under(goblin, [spoilt]) is Defence.DODGE
    everything = Effect(2, "Prone", None, -2, Target.DEFENCE)
    assert best_defence_under(goblin, [everything]) is Defence.PARRY
