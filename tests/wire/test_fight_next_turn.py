"""The next turn told whole (who, which round, whether a round began, who was passed over), and
the look-ups the cogs make in a fight: by name, by sheet, the current combatant.

tests/wire/test_fight_turns.py plays fights of any shape; these pin what the tracker's turn
line shows in the cases a table meets: a downed goblin passed over, a new round, the surprise of
round 1 reordering round 2 (docs/mutation.md: each was a mutant the tests let through).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.wire.test_fight_turns import fight, member
from wire.dice import Die, DieSource
from wire.fight import NOT_BEGUN, Fight, NextTurn, TurnRules
from wire.initiative import Initiative


def test_a_downed_combatant_is_passed_over_and_named() -> None:
    state = fight(member(1, 9), member(2, 8, down=True), member(3, 7), current=1)
    upcoming = state.next_turn()
    assert upcoming == NextTurn(state.member(3), 1, False, ("C2",))


def test_passing_the_last_in_order_begins_the_next_round_with_every_count_fresh() -> None:
    fresh = (member(1, 9, down=True), member(2, 8), member(3, 7))
    used = [replace(c, attacks=2, reaction=True) for c in fresh]
    state = fight(*used, current=3, round_=4)
    assert state.next_turn() == NextTurn(state.member(2), 5, True, ("C1",))
    after = state.advanced(state.next_turn())
    assert (after.round, after.current_id, after.step) == (5, 2, 1)
    assert after.combatants == fresh  # as they joined: no attack made, no reaction granted


def test_the_first_turn_goes_to_the_first_standing_in_order() -> None:
    state = fight(member(1, 9, down=True), member(2, 8), current=None)
    assert state.next_turn() == NextTurn(state.member(2), 1, False, ("C1",))
    assert fight(member(1, 9), member(2, 8)).next_turn() == NextTurn(member(1, 9), 1, False)


def test_when_everyone_is_down_the_next_in_order_acts_all_the_same() -> None:
    state = fight(*(member(n, 10 - n, down=True) for n in (1, 2, 3)), current=2)
    assert state.next_turn() == NextTurn(state.member(3), 1, False)
    assert replace(state, current_id=3).next_turn() == NextTurn(state.member(1), 2, True)


def test_the_last_one_standing_is_found_in_a_round_that_surprise_reordered() -> None:
    """Round 1: the surprised C2 acts last; round 2 it acts first. With C2 and C3 down, the
    turn after C1's passes three downed turns before it comes back to C1 in round 2."""
    late = Initiative(Die(15, DieSource.TABLE), 0, 10)  # 15 - 10 in round 1, 15 after
    surprised = replace(member(2, down=True), initiative=late)
    state = fight(member(1, 10), surprised, member(3, 8, down=True), current=1)
    assert [c.id for c in state.order()] == [1, 3, 2]
    assert [c.id for c in replace(state, round=2).order()] == [2, 1, 3]
    assert state.next_turn() == NextTurn(state.member(1), 2, True, ("C3", "C2", "C2"))


def test_a_fight_with_nobody_in_it_has_no_next_turn() -> None:
    with pytest.raises(AssertionError, match=r"^a fight with nobody in it has no next turn$"):
        fight().next_turn()


def test_a_combatant_is_found_by_its_name_whatever_the_case_and_spaces() -> None:
    state = fight(member(1), member(2))
    assert state.find("  c2 ") == state.member(2)
    assert state.find("C3") is None
    assert state.member(None) is None and state.member(9) is None


def test_the_current_combatant_is_the_one_whose_turn_it_is_and_none_before_the_first() -> None:
    state = fight(member(1), member(2), current=2)
    assert state.current() == state.member(2)
    assert replace(state, current_id=None).current() is None


def test_the_copies_of_an_npc_come_in_fight_order() -> None:
    goblins = [replace(member(n, face), character_id=7) for n, face in ((1, 3), (2, 9), (3, 5))]
    state: Fight = fight(*goblins, member(4, 20))
    assert [c.id for c in state.copies_of(7)] == [2, 3, 1]
    assert state.copies_of(8) == []


def test_before_the_first_turn_a_refusal_names_the_attacker() -> None:
    verdict = fight(member(1), member(2)).may_attack(1, TurnRules())
    assert (verdict.allowed, verdict.reason, verdict.values) == (False, NOT_BEGUN, {"name": "C1"})
