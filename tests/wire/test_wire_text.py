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


def test_damage_phrase_when_the_defence_takes_exactly_the_base() -> None:
    result = resolve_defence(stat_line(0, 0), 3, table(17), vs=10)  # 17 vs 10: 3 DoS
    assert text.damage_text(result) == "3 base - 3 DoS = 0 damage"


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


def test_an_attackers_miss_reads_as_the_defenders_dos() -> None:
    # Jaime rolls 5 against the goblin's parry of 19: 13 vs 19, 3 DoS for the goblin.
    result = resolve_attack(stat_line(3, 5, attribute_label="Strength"), 5, table(5), vs=19)
    assert text.combat_lines(result) == [
        "Attack: d20 5 + 3 Strength + 5 Skill = 13 vs defence 19",
        "Miss: 3 DoS for the defender",
        "Damage: 5 base - 3 DoS = 2 damage",
        "Chance before the roll: 50% to hit",  # an 11 or better
    ]


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


def test_contest_lines_when_the_passive_side_wins() -> None:
    result = resolve_contest(Roll(table(8), stat_line(2, 4)), Roll(table(15), stat_line(2, 2)))
    assert text.contest_lines(result) == [
        "Active: d20 8 + 2 Attribute + 4 Skill = 14",
        "Passive: d20 15 + 2 Attribute + 2 Skill = 19",
        "Passive wins with 2 DoS",
        "Chance before the roll: 61.75% for Active",
    ]
    named = text.contest_lines(result, "Sneak", "Watch")
    assert named[:3] == [
        "Sneak: d20 8 + 2 Attribute + 4 Skill = 14",
        "Watch: d20 15 + 2 Attribute + 2 Skill = 19",
        "Watch wins with 2 DoS",
    ]
    assert named[3] == "Chance before the roll: 61.75% for Sneak"


def test_contest_lines_tie_goes_to_the_active_side() -> None:
    result = resolve_contest(Roll(table(12), stat_line(2, 4)), Roll(table(14), stat_line(2, 2)))
    lines = text.contest_lines(result, "Sneak", "Watch")
    assert lines[2] == "Sneak wins with 0 DoS"
    assert lines[3] == "Chance before the roll: 61.75% for Sneak"  # +6 vs +4: 247 of 400 pairs


def test_craft_lines_show_the_quality_moving() -> None:
    up = resolve_craft(stat_line(2, 4), 15, table(17), quality=3)
    down = resolve_craft(stat_line(2, 4), 15, table(1), quality=3)
    assert text.craft_lines(up)[-1] == "Quality: 3 + 4 = 7"
    assert text.craft_lines(down)[-1] == "Quality: 3 - 4 = -1"


def test_a_skill_of_0_is_shown_added() -> None:
    result = resolve_check(stat_line(2, 0), 13, table(12))
    assert text.check_lines(result)[0] == "Roll: d20 12 + 2 Attribute + 0 Skill = 14 vs TN 13"
    assert text.signed(0) == "+ 0"
    assert text.signed(-3) == "- 3"


def test_die_text() -> None:
    assert text.die_text(Die(15, DieSource.ROLLED)) == "15"
    assert text.die_text(table(15)) == "15 (rolled at the table)"
    assert text.die_text(Die(10, DieSource.TAKE10)) == "take 10"


# --- JSON -------------------------------------------------------------------------------------

JAIME_OUTCOMES = [  # bonus 8 against 13: total minus target is the face minus 5, -4 to 15
    {"success": False, "degrees": 0, "p": "1/20"},  # -1
    {"success": False, "degrees": 1, "p": "1/10"},  # -2, -3
    {"success": False, "degrees": 2, "p": "1/20"},  # -4
    {"success": True, "degrees": 0, "p": "1/10"},  # 0, 1
    {"success": True, "degrees": 1, "p": "1/10"},
    {"success": True, "degrees": 2, "p": "1/10"},
    {"success": True, "degrees": 3, "p": "1/10"},
    {"success": True, "degrees": 4, "p": "1/10"},
    {"success": True, "degrees": 5, "p": "3/10"},  # 10 to 15
]


def test_check_json_is_the_whole_result_and_its_odds() -> None:
    obj = jsonout.check_json(resolve_check(stat_line(3, 5), 13, table(15)))
    assert json.loads(json.dumps(obj)) == {
        "roll": 15,
        "die_source": "table",
        "modifiers": [{"label": "Attribute", "value": 3}, {"label": "Skill", "value": 5}],
        "total": 23,
        "target": 13,
        "success": True,
        "degrees": 5,
        "raw_degrees": 5,
        "chance": 0.8,
        "odds": {"chance": 0.8, "chance_exact": "4/5", "outcomes": JAIME_OUTCOMES},
    }


def test_combat_json_is_the_whole_exchange_with_the_damage_odds() -> None:
    obj = jsonout.combat_json(jaime_hits())
    assert json.loads(json.dumps(obj)) == {
        "roll": 15,
        "die_source": "table",
        "modifiers": [{"label": "Strength", "value": 3}, {"label": "Skill", "value": 5}],
        "total": 23,
        "target": 13,
        "success": True,
        "degrees": 5,
        "raw_degrees": 5,
        "chance": 0.8,
        "attacker_won": True,
        "base": 5,
        "damage": 10,
        "odds": {
            "chance": 0.8,
            "chance_exact": "4/5",
            "outcomes": JAIME_OUTCOMES,
            # a miss by 2 DoF takes 2 off the 5; each hit adds its DoS
            "damage": {
                "3": "1/20",
                "4": "1/10",
                "5": "3/20",
                "6": "1/10",
                "7": "1/10",
                "8": "1/10",
                "9": "1/10",
                "10": "3/10",
            },
        },
    }


def test_a_lost_defence_in_json_says_the_attacker_won() -> None:
    result = resolve_defence(stat_line(1, 2), 5, Die(10, DieSource.TAKE10), vs=23)
    obj = jsonout.combat_json(result)
    assert {k: obj[k] for k in ("die_source", "success", "attacker_won", "base", "damage")} == {
        "die_source": "take10",
        "success": False,
        "attacker_won": True,
        "base": 5,
        "damage": 10,
    }


def test_contest_json_is_both_sides_and_the_active_sides_odds() -> None:
    result = resolve_contest(
        Roll(Die(8, DieSource.ROLLED), stat_line(2, 4)), Roll(table(15), stat_line(2, 2))
    )
    obj = json.loads(json.dumps(jsonout.contest_json(result)))
    assert {k: v for k, v in obj.items() if k != "odds"} == {
        "active": {
            "roll": 8,
            "die_source": "rolled",
            "modifiers": [{"label": "Attribute", "value": 2}, {"label": "Skill", "value": 4}],
            "total": 14,
        },
        "passive": {
            "roll": 15,
            "die_source": "table",
            "modifiers": [{"label": "Attribute", "value": 2}, {"label": "Skill", "value": 2}],
            "total": 19,
        },
        "success": False,
        "degrees": 2,
        "raw_degrees": 2,
        "chance": 0.6175,
    }
    assert obj["odds"]["chance"] == 0.6175
    assert obj["odds"]["chance_exact"] == "247/400"
    assert "damage" not in obj["odds"]
    outcomes = obj["odds"]["outcomes"]
    assert [(o["success"], o["degrees"]) for o in outcomes] == [
        *((False, d) for d in range(6)),
        *((True, d) for d in range(6)),
    ]
    assert sum(Fraction(o["p"]) for o in outcomes) == 1
    assert sum(Fraction(o["p"]) for o in outcomes if o["success"]) == Fraction(247, 400)


def test_a_capped_check_in_json_keeps_the_raw_degrees() -> None:
    obj = jsonout.check_json(resolve_check(stat_line(5, 5), 13, table(20)))
    assert (obj["degrees"], obj["raw_degrees"]) == (5, 8)


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
