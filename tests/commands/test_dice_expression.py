"""The free-dice module behind /roll, and the odds chart behind /odds, without Discord."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cogs.utils import dice_expression
from cogs.utils.dice_expression import MAX_DICE, DiceError, FreeRoll
from cogs.utils.odds_chart import bar, chart, exact_percent
from tests.commands.conftest import ScriptedDice


def roll(expression: str, *faces: int) -> FreeRoll:
    dice = ScriptedDice()
    dice.push(*faces)
    rolled = dice_expression.roll(expression, dice)
    assert not dice.script, "every scripted face is used"
    return rolled


def test_keep_highest_shows_the_dropped_die():
    rolled = roll("4d6kh3 + 3", 1, 4, 5, 6)
    assert rolled.total == 18
    assert rolled.shown == "4d6kh3 (~~1~~, 4, 5, 6) + 3 = **18**"
    assert rolled.plain == "4d6kh3 (~~1~~, 4, 5, 6) + 3 = 18"
    assert rolled.expression == "4d6kh3 + 3"
    assert rolled.dice == 4


def test_keep_lowest_and_arithmetic():
    assert roll("2d20kl1 - 2", 17, 3).total == 1
    assert roll("1d8 * 2 + 1", 5).shown == r"1d8 (5) \* 2 + 1 = **11**"
    assert roll("(1d4 + 1) * 3", 2).total == 9


def test_a_minimum_shows_the_face_it_replaced():
    assert roll("2d6mi3", 1, 5).shown == "2d6mi3 (1 -> 3, 5) = **8**"


def test_upper_case_is_read_and_annotations_keep_theirs():
    rolled = roll("2D6[Fire]", 2, 3)
    assert rolled.expression == "2d6[Fire]"
    assert rolled.shown == r"2d6 (2, 3) \[Fire] = **5**"


def test_a_leading_minus_is_not_a_list_item():
    assert roll("-1d4", 3).shown == r"\-1d4 (3) = **-3**"


def test_rerolls_count_towards_the_dice_limit():
    assert roll("2d6rr1", 1, 1, 6, 2).dice == 4
    with pytest.raises(DiceError, match="went past 100 dice"):
        roll(f"{MAX_DICE}d6rr1", *([1] * MAX_DICE), *([1] * 5))


@pytest.mark.parametrize(
    ("expression", "says"),
    [
        ("", "Give a dice expression."),
        ("   ", "Give a dice expression."),
        ("2d6+", "it ends too early"),
        ("2**3", "unexpected `*` at character 3"),
        ("3d6 fire", "unexpected `fire` at character 5"),
        ("1d", "it ends too early"),
        ("101d6", "That is 101 dice"),
        ("(60d6, 41d4)kh1", "That is 101 dice"),
        ("1d1001", "not 1001"),
        ("d%", "`d%` is not supported"),
        ("1d6mih3", "h3 is not a valid selector for minimums"),
        ("10 % 0", "Cannot divide by zero"),
        ("1" * 101, "the limit is 100"),
    ],
)
def test_refusals_name_the_problem_and_show_examples(expression: str, says: str):
    with pytest.raises(DiceError) as refused:
        dice_expression.roll(expression, random.Random(1))
    assert says in str(refused.value)
    assert str(refused.value).endswith(f"Try {dice_expression.EXAMPLES}.")


GRAMMAR = st.text(alphabet="0123456789d%+-*/()<>=!,.khlprroaemi[] x", max_size=40)


@settings(max_examples=400, deadline=None)
@given(GRAMMAR)
def test_anything_typed_is_rolled_or_refused_never_a_crash(expression: str):
    try:
        rolled = dice_expression.roll(expression, random.Random(0))
    except DiceError:
        return
    assert abs(rolled.total) <= dice_expression.MAX_TOTAL
    assert rolled.dice <= MAX_DICE
    assert rolled.shown.endswith(f"= **{rolled.total}**")


def test_exact_percent_shows_every_twentieth_and_four_hundredth_exactly():
    assert exact_percent(Fraction(16, 20)) == "80%"
    assert exact_percent(Fraction(295, 400)) == "73.75%"
    assert exact_percent(Fraction(1, 400)) == "0.25%"
    assert exact_percent(Fraction(14, 400)) == "3.5%"
    assert exact_percent(Fraction(0)) == "0%"
    assert exact_percent(Fraction(1, 3)) == "33.3%"  # not a chance of the core: rounded


def test_bars_in_eighths_and_never_empty_for_what_can_happen():
    top = Fraction(3, 10)
    assert bar(top, top) == "█" * 16
    assert bar(Fraction(0), top) == "░" * 16
    assert bar(Fraction(1, 400), top) == "▏" + "░" * 15
    assert all(len(bar(Fraction(n, 400), top)) == 16 for n in range(0, 121))


def test_chart_aligns_the_percentages():
    lines = chart([("5 DoS", Fraction(3, 10)), ("0 DoF", Fraction(1, 400))]).splitlines()
    assert lines[0] == lines[-1] == "```"
    assert lines[1] == "5 DoS  ████████████████   30%"
    assert lines[2] == "0 DoF  ▏░░░░░░░░░░░░░░░ 0.25%"
