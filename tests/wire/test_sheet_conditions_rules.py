"""The rules of a condition on a character outside a fight (wire/conditions.py): which
conditions a roll counts, and the durations a sheet may carry."""

from __future__ import annotations

import pytest

from wire.conditions import (
    Effect,
    RollFor,
    Target,
    Timing,
    check_sheet_condition,
    condition_modifiers,
    sheet_conditions_in_play,
)
from wire.errors import RulesError

BLESSED = Effect(1, "Blessed", None, 1, Target.ATTACK)
PRONE = Effect(2, "Prone", 2, -2, Target.DEFENCE)


def test_outside_a_fight_the_sheets_count_and_in_it_the_combatants() -> None:
    assert sheet_conditions_in_play((BLESSED,), None) == (BLESSED,)
    assert sheet_conditions_in_play((BLESSED,), (PRONE,)) == (PRONE,)  # no double count
    assert sheet_conditions_in_play((BLESSED,), ()) == ()  # cured in the fight: gone there
    mods = condition_modifiers(sheet_conditions_in_play((BLESSED, PRONE), None), RollFor.attack())
    assert [(m.label, m.value) for m in mods] == [("Blessed", 1)]


def test_a_sheet_carries_rounds_or_until_removed_never_until_a_turn() -> None:
    assert check_sheet_condition(BLESSED) == BLESSED
    assert check_sheet_condition(PRONE).rounds_left == 2
    with pytest.raises(RulesError, match="not until a turn"):
        check_sheet_condition(Effect(3, "Marked", None, -1, timing=Timing.TURN, until_id=4))
    with pytest.raises(RulesError):
        check_sheet_condition(Effect(3, "Loud", None, 11))
    with pytest.raises(RulesError):
        check_sheet_condition(Effect(3, "x" * 41, None, 1))


@pytest.mark.parametrize(
    "effect",
    [
        Effect(3, "Marked", None, -1, timing=Timing.TURN),  # a turn, whoever's
        Effect(3, "Marked", 2, -1, timing=Timing.END, until_id=4),  # someone's turn, any timing
    ],
)
def test_either_half_of_until_a_turn_is_refused_on_a_sheet_in_its_own_words(effect) -> None:
    with pytest.raises(RulesError) as refused:
        check_sheet_condition(effect)
    assert str(refused.value) == (
        "Outside a fight a condition lasts rounds or until removed, not until a turn."
    )
