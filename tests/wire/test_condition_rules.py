"""A condition's limits, word for word; a table's named condition filling in what was not given;
the lines a condition adds to a breakdown (hidden ones included); and the countdown's edges.

tests/wire/test_conditions.py plays the conditions as a table uses them; these pin the replies
and the boundaries a user meets at the edge of each range (docs/mutation.md: each was a mutant
the tests let through).
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.wire.refusals import refused
from wire.check import Modifier
from wire.combat import Defence
from wire.conditions import (
    MAX_ROUNDS,
    NAME_MAX,
    Borne,
    Effect,
    RollFor,
    Target,
    Timing,
    TurnEvent,
    best_defence_under,
    check_condition,
    condition_modifiers,
    count_down,
    damage_modifiers,
    from_preset,
    modified_damage,
)
from wire.sheet import Character

WIRE = settings.get_profile("wire")


@pytest.mark.parametrize(
    ("effect", "message"),
    [
        (Effect(0, "   ", None), "Give the condition a name, e.g. Prone."),
        (
            Effect(0, "x" * 41, None),
            "A condition's name is at most 40 characters; this one has 41.",
        ),
        (
            Effect(0, "Prone", None, 11),
            "a condition's modifier must be between -10 and 10, not 11.",
        ),
        (
            Effect(0, "Prone", None, -11),
            "a condition's modifier must be between -10 and 10, not -11.",
        ),
        (
            Effect(0, "Prone", 0),
            "A condition lasts 1 to 100 rounds (leave rounds empty: until removed).",
        ),
        (
            Effect(0, "Prone", 101),
            "A condition lasts 1 to 100 rounds (leave rounds empty: until removed).",
        ),
        (
            Effect(0, "Prone", None, -2, Target.ATTACK, stat="Strength"),
            "A stat goes with a condition on checks only: applies to checks.",
        ),
        (
            Effect(0, "Weak", None, -2, Target.CHECK, stat="s" * 41),
            "A stat's name is at most 40 characters.",
        ),
        (
            Effect(0, "Marked", None, timing=Timing.TURN),
            "Name the combatant whose next turn ends it, and only with that duration.",
        ),
        (
            Effect(0, "Marked", None, until_id=3),
            "Name the combatant whose next turn ends it, and only with that duration.",
        ),
        (
            Effect(0, "Marked", 2, timing=Timing.TURN, until_id=3),
            "A condition that ends at someone's turn has no rounds.",
        ),
    ],
)
def test_each_limit_is_refused_in_words_naming_the_fix(effect: Effect, message: str) -> None:
    with refused(message):
        check_condition(effect)


@pytest.mark.parametrize(
    "effect",
    [
        Effect(0, "x" * NAME_MAX, 1, -10),
        Effect(0, f"  {'x' * NAME_MAX}  ", MAX_ROUNDS, 10),  # the spaces do not count
        Effect(0, "Weak", None, -1, Target.CHECK, stat="s" * NAME_MAX),
        Effect(0, "Marked", None, -2, timing=Timing.TURN, until_id=0),
    ],
)
def test_the_edges_of_each_range_are_allowed(effect: Effect) -> None:
    kept = check_condition(effect)
    assert kept.name == effect.name.strip()
    assert (kept.modifier, kept.rounds_left, kept.stat) == (
        effect.modifier,
        effect.rounds_left,
        effect.stat,
    )


def test_a_blank_stat_means_every_check_and_goes_with_any_target() -> None:
    assert check_condition(Effect(0, "Weak", None, -1, Target.CHECK, stat="  ")).stat is None
    assert check_condition(Effect(0, "Blind", None, -1, Target.ATTACK, stat=" ")).stat is None


PRESET = Effect(9, "Prone", None, -2, Target.CHECK, stat="Climbing", timing=Timing.START)
GIVEN = Effect(0, "prone", 3, 4, Target.ATTACK, timing=Timing.END, until_id=None, hidden=True)
NOTHING = dict(modifier=False, applies_to=False, stat=False, rounds=False, timing=False)


def test_a_named_condition_fills_in_what_was_not_given_and_keeps_the_tables_spelling() -> None:
    made = from_preset(GIVEN, PRESET, **NOTHING)
    assert made == Effect(0, "Prone", None, -2, Target.CHECK, "Climbing", Timing.START, None, True)


@pytest.mark.parametrize(
    ("flag", "field"),
    [
        ("modifier", "modifier"),
        ("applies_to", "applies_to"),
        ("stat", "stat"),
        ("rounds", "rounds_left"),
        ("timing", "timing"),
    ],
)
def test_what_was_given_wins_over_the_named_condition(flag: str, field: str) -> None:
    made = from_preset(GIVEN, PRESET, **{**NOTHING, flag: True})
    assert getattr(made, field) == getattr(GIVEN, field)
    others = {"modifier", "applies_to", "stat", "rounds_left", "timing"} - {field}
    if flag == "applies_to":
        others.discard("stat")  # a new target drops the preset's stat: it was for checks
        assert made.stat == GIVEN.stat
    assert {f: getattr(made, f) for f in others} == {f: getattr(PRESET, f) for f in others}


def test_without_a_named_condition_the_given_one_stands() -> None:
    assert from_preset(GIVEN, None, **NOTHING) is GIVEN


def test_a_hidden_condition_counts_but_is_named_only_as_hidden() -> None:
    secret = Effect(1, "Cursed", None, -3, Target.ATTACK, hidden=True)
    assert condition_modifiers([secret], RollFor.attack()) == (Modifier("hidden condition", -3),)
    assert replace(secret, hidden=False).label() == "Cursed"


def test_the_damage_lines_name_the_attackers_conditions_then_the_defenders() -> None:
    rage = Effect(1, "Rage", None, 2, Target.DAMAGE_DEALT)
    ward = Effect(2, "Warded", None, -1, Target.DAMAGE_TAKEN)
    idle = Effect(3, "Calm", None, 0, Target.DAMAGE_DEALT)
    attack_only = Effect(4, "Blessed", None, 1, Target.ATTACK)
    dealt, taken = [rage, idle, attack_only, ward], [ward, rage, attack_only]
    assert damage_modifiers(dealt, taken) == (Modifier("Rage", 2), Modifier("Warded", -1))
    assert damage_modifiers([], []) == ()
    assert modified_damage(5, dealt, taken) == 6
    assert modified_damage(5, [], []) == 5
    assert modified_damage(1, [], [replace(ward, modifier=-1)]) == 0


def test_a_check_names_its_stats_and_leaves_out_the_missing_one() -> None:
    assert RollFor.check(None, "Climbing") == RollFor(Target.CHECK, ("Climbing",))
    assert RollFor.check("Strength", "") == RollFor(Target.CHECK, ("Strength",))
    assert RollFor.defence("dodge") == RollFor(Target.DODGE)
    weak = Effect(1, "Weak", None, -1, Target.CHECK, stat="CLIMBING")
    assert condition_modifiers([weak], RollFor.check(None, "climbing")) == (Modifier("Weak", -1),)


def test_on_equal_defences_parry_comes_first_then_block_then_dodge() -> None:
    skills = {"Parry": 1, "Block": 1, "Dodge": 1}
    knight = Character("Knight", False, {"Strength": 1, "Reaction": 1}, skills, shield=True)
    assert best_defence_under(knight, ()) is Defence.PARRY
    no_parry = Effect(1, "Disarmed", None, -1, Target.PARRY)
    assert best_defence_under(knight, [no_parry]) is Defence.BLOCK
    no_block = Effect(2, "Shieldless", None, -1, Target.BLOCK)
    assert best_defence_under(knight, [no_parry, no_block]) is Defence.DODGE
    slowed = Effect(3, "Slowed", None, -3, Target.DODGE)
    assert best_defence_under(knight, [no_parry, no_block, slowed]) is Defence.PARRY


def test_a_condition_waiting_for_someone_present_waits_on() -> None:
    mark = Borne(1, Effect(5, "Marked", None, -2, timing=Timing.TURN, until_id=3))
    assert count_down([mark], TurnEvent(1, 2, frozenset({1, 2, 3}))).kept == (mark,)


def test_what_ends_is_given_in_the_order_it_was_put_on_and_the_rest_count_on() -> None:
    first = Borne(1, Effect(1, "Stunned", 1, -1))
    lasting = Borne(1, Effect(2, "Cursed", None, -1))
    second = Borne(1, Effect(3, "Dazed", 1, -1))
    longer = Borne(1, Effect(4, "Bleeding", 3, -1))
    other = Borne(2, Effect(5, "Slowed", 1, -1))
    result = count_down([first, lasting, second, longer, other], TurnEvent(1, 2))
    assert result.ended == (first, second)
    assert result.counted == (Borne(1, replace(longer.effect, rounds_left=2)),)
    assert result.kept == (lasting, other)
    starting = Borne(2, Effect(6, "Winded", 2, -1, timing=Timing.START))
    assert count_down([starting], TurnEvent(1, 2)).counted == (
        Borne(2, replace(starting.effect, rounds_left=1)),
    )
    assert count_down([starting], TurnEvent(2, 1)).kept == (starting,)


TIMINGS = [Timing.END, Timing.START]


@settings(WIRE)
@given(
    st.integers(1, 5),
    st.lists(st.tuples(st.integers(0, 4), st.integers(1, 4), st.sampled_from(TIMINGS)), max_size=8),
)
def test_many_conditions_count_down_apart_each_on_its_own_bearers_turns(
    people: int, given_: list[tuple[int, int, Timing]]
) -> None:
    """Conditions on several bearers at once: each ends on exactly its bearer's N-th turn end
    (or beginning), whatever the others do, and never comes back."""
    order = list(range(1, people + 1))
    live = [
        Borne(order[who % people], Effect(n, f"C{n}", rounds, -1, timing=timing))
        for n, (who, rounds, timing) in enumerate(given_)
    ]
    due: dict[int, int] = {}
    previous: int | None = None
    for turn in range(people * 4 + 1):  # the fourth round's last turn ends
        started = order[turn % people]
        result = count_down(live, TurnEvent(previous, started))
        for borne in result.ended:
            assert borne.effect.id not in due  # ended once, never back
            due[borne.effect.id] = turn
        live = list(result.kept + result.counted)
        previous = started
    for n, (who, rounds, timing) in enumerate(given_):
        bearer = order[who % people]
        # a bearer's k-th turn begins at turn (bearer - 1) + (k - 1) * people and ends at the next
        begins = (bearer - 1) + (rounds - 1) * people
        assert due[n] == (begins if timing is Timing.START else begins + 1)
    assert not live
