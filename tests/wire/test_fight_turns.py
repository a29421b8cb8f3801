"""The fight as data (wire/fight.py): the turn order, the next turn, and who may attack now.

Property tests play fights of any shape: the order does not depend on the order combatants
are stored in (ties are broken by Reaction, then by who joined first); a round visits every
combatant still standing exactly once; a change of turn leaves every per-turn count fresh; and
`may_attack` answers the table's rules for every combination of turn, count, reaction and GM.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wire.dice import Die, DieSource
from wire.fight import (
    FIGHT_OVER,
    NOT_BEGUN,
    NOT_IN_FIGHT,
    NOT_YOUR_TURN,
    TURN_USED,
    Combatant,
    Fight,
    MayAttack,
    TurnRules,
    Use,
)
from wire.health import Health
from wire.initiative import Initiative

WIRE = settings.get_profile("wire")
UP = Health(10, 10, 10, 10, 10, 10)
DOWN = Health(0, 10, 10, 10, 10, 10)


def member(cid: int, face: int = 10, quick: int = 0, *, down: bool = False, **kw) -> Combatant:
    """A player's combatant; `quick`: its Reaction attribute (initiative's tie-break)."""
    return Combatant(
        id=cid,
        fight_id=1,
        name=f"C{cid}",
        character_id=100 + cid,
        controller_id=1000 + cid,
        is_npc=False,
        initiative=Initiative(Die(face, DieSource.TABLE), quick, 0),
        position=cid,
        health=DOWN if down else UP,
        **kw,
    )


def fight(*members: Combatant, current: int | None = None, round_: int = 1) -> Fight:
    return Fight(1, 1, 1, 1, "Ambush", round_, current, 0, tuple(members))


@st.composite
def fights(draw: st.DrawFn, *, with_down: bool = True) -> Fight:
    count = draw(st.integers(1, 8))
    members = [
        member(
            cid,
            draw(st.integers(1, 4)),  # few faces: many ties
            draw(st.integers(0, 2)),
            down=with_down and draw(st.booleans()),
            attacks=draw(st.integers(0, 3)),
            reaction=draw(st.booleans()),
        )
        for cid in range(1, count + 1)
    ]
    return fight(*members)


@WIRE
@given(fights(), st.randoms(use_true_random=False))
def test_the_order_is_the_same_whatever_order_the_combatants_are_stored_in(f, rng) -> None:
    shuffled = list(f.combatants)
    rng.shuffle(shuffled)
    assert [c.id for c in replace(f, combatants=tuple(shuffled)).order()] == [
        c.id for c in f.order()
    ]


@WIRE
@given(fights())
def test_ties_go_to_the_higher_reaction_then_to_who_joined_first(f) -> None:
    keys = [(c.initiative.total(f.round), c.initiative.reaction, -c.position) for c in f.order()]
    assert keys == sorted(keys, reverse=True)


@WIRE
@given(fights())
def test_a_round_visits_every_standing_combatant_once_and_only_them(f) -> None:
    standing = {c.id for c in f.combatants if not c.health.down}
    seen: list[int] = []
    state = f
    for _ in range(len(standing) or 1):
        upcoming = state.next_turn()
        seen.append(upcoming.combatant.id)
        state = state.advanced(upcoming)
    if standing:
        assert sorted(seen) == sorted(standing)  # none skipped, none twice
        assert state.round == 1  # the first round, not yet over
        following = state.next_turn()
        assert following.new_round and following.round == 2
    else:  # everyone down: the next in order acts all the same
        assert seen == [f.order()[0].id]


@WIRE
@given(fights())
def test_a_change_of_turn_leaves_every_per_turn_count_fresh(f) -> None:
    after = f.advanced(f.next_turn())
    assert all(c.attacks == 0 and not c.reaction for c in after.combatants)
    assert after.step == f.step + 1


@WIRE
@given(st.integers(1, 5), st.booleans())
def test_a_turn_allows_the_table_s_number_and_one_more_with_a_reaction(limit, granted) -> None:
    state = fight(member(1, reaction=granted), member(2), current=1)
    rules = TurnRules(limit)
    made = 0
    while (verdict := state.may_attack(1, rules)).allowed:
        assert verdict.uses is not None
        state = state.attacked(1, verdict.uses)
        made += 1
        assert made <= limit + 1
    assert made == limit + int(granted)
    assert verdict.reason == TURN_USED
    assert verdict.values == {"name": "C1", "count": made, "limit": limit}


@WIRE
@given(st.integers(0, 30))
def test_any_number_never_runs_out(made) -> None:
    state = fight(member(1, attacks=made), current=1)
    assert state.may_attack(1, TurnRules(None)) == MayAttack.allow(Use.TURN)


CASES = [
    # (current, attacker, attacks made, reaction, rules, by_gm, expected use or refusal)
    (1, 1, 0, False, TurnRules(), False, Use.TURN),
    (1, 1, 1, False, TurnRules(), False, TURN_USED),
    (1, 1, 1, True, TurnRules(), False, Use.REACTION),
    (1, 1, 1, False, TurnRules(2), False, Use.TURN),
    (1, 1, 5, False, TurnRules(None), False, Use.TURN),
    (2, 1, 0, False, TurnRules(), False, NOT_YOUR_TURN),
    (2, 1, 0, True, TurnRules(), False, Use.REACTION),
    (2, 1, 0, False, TurnRules(out_of_turn=True), False, Use.FREE),
    (2, 1, 0, True, TurnRules(out_of_turn=True), False, Use.REACTION),
    (None, 1, 0, False, TurnRules(), False, NOT_BEGUN),
    (None, 1, 0, True, TurnRules(), False, Use.REACTION),
    (2, 1, 3, False, TurnRules(), True, Use.FREE),
    (None, None, 0, False, TurnRules(), True, Use.FREE),
    (2, None, 0, False, TurnRules(), False, NOT_IN_FIGHT),
]


@pytest.mark.parametrize(
    ("current", "attacker", "made", "reaction", "rules", "gm", "expected"), CASES
)
def test_may_attack(current, attacker, made, reaction, rules, gm, expected) -> None:
    state = fight(member(1, attacks=made, reaction=reaction), member(2), current=current)
    verdict = state.may_attack(attacker, rules, by_gm=gm, name="Jaime")
    if isinstance(expected, Use):
        assert verdict == MayAttack.allow(expected)
    else:
        assert not verdict.allowed and verdict.reason == expected


def test_a_refusal_names_whose_turn_it_is_and_who_was_refused() -> None:
    state = fight(member(1), member(2), current=2)
    verdict = state.may_attack(1, TurnRules())
    assert verdict.values == {"name": "C1", "current": "C2"}
    assert fight(member(1)).may_attack(None, TurnRules(), name="Jaime").values == {"name": "Jaime"}


def test_an_ended_fight_allows_no_attack_even_to_a_gm() -> None:
    state = replace(fight(member(1), current=1), ended=True)
    assert state.may_attack(1, TurnRules(), by_gm=True).reason == FIGHT_OVER


def test_an_attack_counts_once_and_uses_the_reaction_only_when_it_needs_it() -> None:
    state = fight(member(1, reaction=True), member(2), current=1)
    after = state.attacked(1, Use.TURN)
    assert (after.member(1).attacks, after.member(1).reaction) == (1, True)
    after = after.attacked(1, Use.REACTION)
    assert (after.member(1).attacks, after.member(1).reaction) == (2, False)
    assert after.member(2) == state.member(2)


def test_the_attacker_is_the_named_copy_else_the_one_whose_turn_it_is() -> None:
    one, two = member(1), member(2)
    copies = fight(replace(one, character_id=7), replace(two, character_id=7), current=2)
    assert copies.attacker(7, "C1").id == 1
    assert copies.attacker(7, "Goblin").id == 2  # the one with the turn
    assert replace(copies, current_id=None).attacker(7, "Goblin").id == 1
    assert copies.attacker(8, "C1") is None and copies.attacker(None, "C1") is None


def test_who_may_act_for_a_combatant() -> None:
    class Gms:
        def is_gm(self, user_id: int) -> bool:
            return user_id == 1

    jaime = member(5)
    assert jaime.may_act(1, Gms()) and jaime.may_act(1005, Gms())
    assert not jaime.may_act(1006, Gms())
    assert not replace(jaime, controller_id=None).may_act(1005, Gms())
    # An NPC a GM brought in from their sheet is the GMs', not theirs once no longer a GM.
    assert not replace(jaime, is_npc=True).may_act(1005, Gms())
    assert replace(jaime, is_npc=True).may_act(1, Gms())


@WIRE
@given(fights())
def test_who_leaves_in_their_turn_hands_it_to_the_next_in_order(f) -> None:
    order = f.order()
    for place, leaving in enumerate(order):
        heir = f.turn_after_leaving(leaving.id)
        if len(order) == 1:
            assert heir is None
        else:
            assert heir == order[(place + 1) % len(order)]  # after the last: the first
