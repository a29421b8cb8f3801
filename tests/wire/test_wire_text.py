"""The words a player reads: wire/text.py (shared by the CLI and the bot) and wire/jsonout.py."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from wire import jsonout, text
from wire.check import Roll, resolve_check, stat_line
from wire.combat import resolve_attack, resolve_defence
from wire.contest import resolve_contest
from wire.crafting import resolve_craft
from wire.degrees import degrees_of
from wire.dice import Die, DieSource


def table(face: int) -> Die:
    return Die(face, DieSource.TABLE)


def jaime_hits():
    return resolve_attack(stat_line(3, 5, attribute_label="Strength"), 5, table(15), vs=13)


def goblin_parries():
    return resolve_defence(stat_line(1, 2, skill_label="Parry"), 5, table(16), vs=13)


# --- phrases ----------------------------------------------------------------------------------


def test_damage_phrase_for_a_hit() -> None:
    assert text.damage_text(jaime_hits()) == "5 base + 5 DoS = 10 damage"


def test_damage_phrase_for_a_parry() -> None:
    assert text.damage_text(goblin_parries()) == "5 base - 3 DoS = 2 damage"


def test_damage_phrase_for_a_tie_is_the_base() -> None:
    tie = resolve_defence(stat_line(1, 2), 5, Die(10, DieSource.TAKE10), vs=13)
    assert text.damage_text(tie) == "5 base + 0 DoS = 5 damage"


def test_damage_phrase_never_shows_negative_damage() -> None:
    result = resolve_defence(stat_line(0, 0), 2, table(20), vs=10)
    assert text.damage_text(result) == "2 base - 5 DoS = 0 damage (never below 0)"


@pytest.mark.parametrize(
    ("total", "target", "phrase"),
    [
        (27, 13, "5 DoS (capped from 7)"),
        (30, 13, "5 DoS (capped from 8)"),
        (23, 13, "5 DoS"),
        (13, 13, "0 DoS"),
        (12, 13, "0 DoF"),
        (7, 13, "3 DoF"),
        (0, 13, "5 DoF (capped from 6)"),
    ],
)
def test_degrees_phrase(total: int, target: int, phrase: str) -> None:
    assert text.degrees_text(degrees_of(total, target)) == phrase


@pytest.mark.parametrize(
    ("chance", "shown"),
    [
        (Fraction(4, 5), "80%"),
        (Fraction(1, 20), "5%"),
        (Fraction(0), "0%"),
        (Fraction(1), "100%"),
        (Fraction(21, 40), "52.5%"),
        (Fraction(1, 3), "33.3%"),
        (Fraction(2, 3), "66.7%"),
        # a quarter of a percent is rounded half to even, so a chance and its complement
        # still add up to 100%: 0.2% + 99.8%, 1.2% + 98.8%
        (Fraction(1, 400), "0.2%"),
        (Fraction(399, 400), "99.8%"),
        (Fraction(5, 400), "1.2%"),
        (Fraction(395, 400), "98.8%"),
        (Fraction(3, 400), "0.8%"),
        # never a false 0% or 100%
        (Fraction(1, 100_000), "0.1%"),
        (Fraction(99_999, 100_000), "99.9%"),
        (Fraction(1, 2001), "0.1%"),
        (Fraction(2000, 2001), "99.9%"),
    ],
)
def test_percent(chance: Fraction, shown: str) -> None:
    assert text.percent(chance) == shown


def test_percent_only_says_0_or_100_when_certain() -> None:
    for n in range(401):
        shown = text.percent(Fraction(n, 400))
        assert (shown == "0%") == (n == 0)
        assert (shown == "100%") == (n == 400)


# --- whole replies ----------------------------------------------------------------------------


def test_attack_lines_for_jaime() -> None:
    assert text.combat_lines(jaime_hits()) == [
        "Attack: d20 15 + 3 Strength + 5 Skill = 23 vs defence 13",
        "Hit: 5 DoS for the attacker",
        "Damage: 5 base + 5 DoS = 10 damage",
        "Chance before the roll: 80% to hit",
    ]


def test_defence_lines_for_the_goblins_parry() -> None:
    lines = text.combat_lines(goblin_parries())
    assert lines[0] == "Defence: d20 16 + 1 Attribute + 2 Parry = 19 vs attack 13"
    assert lines[1] == "Defended: 3 DoS for the defender"
    assert lines[2] == "Damage: 5 base - 3 DoS = 2 damage"
    assert lines[3].endswith("to defend")


def test_lost_defence_reads_as_the_attackers_dos() -> None:
    result = resolve_defence(stat_line(1, 2), 5, Die(10, DieSource.TAKE10), vs=23)
    lines = text.combat_lines(result)
    assert lines[0] == "Defence: take 10 + 1 Attribute + 2 Skill = 13 vs attack 23"
    assert lines[1] == "The attack gets through: 5 DoS for the attacker"
    assert lines[2] == "Damage: 5 base + 5 DoS = 10 damage"
    assert lines[3] == "Chance before the roll: 0% to defend"


def test_check_lines_show_the_cap_and_negative_modifier() -> None:
    result = resolve_check(stat_line(5, 5, -2), 13, table(20))
    assert text.check_lines(result) == [
        "Roll: d20 20 + 5 Attribute + 5 Skill - 2 Modifier = 28 vs TN 13",
        "Success: 5 DoS (capped from 7)",
        "Chance before the roll: 80% to succeed",  # a 5 or better
    ]


def test_check_lines_failure() -> None:
    lines = text.check_lines(resolve_check(stat_line(3, 5), 13, table(4)))
    assert lines[1] == "Failure: 0 DoF"


def test_contest_lines_tie_goes_to_the_active_side() -> None:
    result = resolve_contest(Roll(table(12), stat_line(2, 4)), Roll(table(14), stat_line(2, 2)))
    lines = text.contest_lines(result, "Sneak", "Watch")
    assert lines[2] == "Sneak wins with 0 DoS"
    assert lines[3] == "Chance before the roll: 61.8% for Sneak"  # +6 vs +4: 247 of 400 pairs


def test_craft_lines_show_the_quality_moving() -> None:
    up = resolve_craft(stat_line(2, 4), 15, table(17), quality=3)
    down = resolve_craft(stat_line(2, 4), 15, table(1), quality=3)
    assert text.craft_lines(up)[-1] == "Quality: 3 + 4 = 7"
    assert text.craft_lines(down)[-1] == "Quality: 3 - 4 = -1"


def test_die_text() -> None:
    assert text.die_text(Die(15, DieSource.ROLLED)) == "15"
    assert text.die_text(table(15)) == "15 (rolled at the table)"
    assert text.die_text(Die(10, DieSource.TAKE10)) == "take 10"


# --- JSON -------------------------------------------------------------------------------------


def test_combat_json_for_jaime() -> None:
    obj = json.loads(json.dumps(jsonout.combat_json(jaime_hits())))
    assert {k: obj[k] for k in ("roll", "total", "target", "success", "degrees")} == {
        "roll": 15,
        "total": 23,
        "target": 13,
        "success": True,
        "degrees": 5,
    }
    assert (obj["raw_degrees"], obj["damage"], obj["chance"]) == (5, 10, 0.8)
    assert obj["odds"]["chance_exact"] == "4/5"
    assert obj["odds"]["damage"]["10"] == "3/10"


def test_craft_json_quality() -> None:
    obj = jsonout.craft_json(resolve_craft(stat_line(2, 4), 15, table(17), quality=3))
    assert (obj["quality_before"], obj["quality"]) == (3, 7)
    assert obj["success"] is True


def test_contest_json() -> None:
    result = resolve_contest(Roll(table(8), stat_line(2, 4)), Roll(table(15), stat_line(2, 2)))
    obj = jsonout.contest_json(result)
    assert (obj["success"], obj["degrees"], obj["active"]["total"]) == (False, 2, 14)
