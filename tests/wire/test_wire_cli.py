"""`python -m wire`: its arguments, output and exit status as a user sees them.

Most tests call `wire.cli.main` in this process, with stdout and stderr captured and the exit
status taken from SystemExit, so the mutation run (docs/mutation.md) sees which test exercises
which line; the tests at the end run the real `python -m wire` as a subprocess, as a user runs
it, for what only a process shows (the entry point, the exit status, no traceback).
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from wire import i18n
from wire.cli import main
from wire.errors import RulesError
from wire.i18n import speaking

ROOT = Path(__file__).resolve().parents[2]
HELP = Path(__file__).with_name("cli_help.txt")
COMMANDS = ("check", "attack", "defend", "craft", "contest")
JAIME = ["attack", "--str", "3", "--skill", "5", "--base", "5", "--vs", "13", "--roll", "15"]


def wire(*args: str) -> subprocess.CompletedProcess[str]:
    """`python -m wire ARGS`, run in this process; the language is restored afterwards."""
    out, err = io.StringIO(), io.StringIO()
    with (
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
        i18n.speaking(i18n.DEFAULT),
    ):
        try:
            code = main(list(args))
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    return subprocess.CompletedProcess(
        ["python -m wire", *args], code, out.getvalue(), err.getvalue()
    )


def wire_process(*args: str) -> subprocess.CompletedProcess[str]:
    """`python -m wire ARGS` as a user runs it: a subprocess from the repository root."""
    return subprocess.run(
        [sys.executable, "-m", "wire", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def wire_json(*args: str) -> dict[str, Any]:
    done = wire(*args, "--json")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return json.loads(done.stdout)


# --- the seed's examples ----------------------------------------------------------------------


def test_jaime_attack_text() -> None:
    done = wire(*JAIME)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "Attack: d20 15 + 3 Attribute + 5 Skill = 23 vs defence 13",
        "Hit: 5 DoS for the attacker",
        "Damage: 5 base + 5 DoS = 10 damage",
        "Chance before the roll: 80% to hit",
    ]


def test_jaime_attack_json() -> None:
    obj = wire_json(*JAIME)
    assert {k: obj[k] for k in ("roll", "total", "target", "success")} == {
        "roll": 15,
        "total": 23,
        "target": 13,
        "success": True,
    }
    assert {k: obj[k] for k in ("degrees", "raw_degrees", "damage", "chance")} == {
        "degrees": 5,
        "raw_degrees": 5,
        "damage": 10,
        "chance": 0.8,
    }


def test_goblin_parry_json_success_means_the_defender_won() -> None:
    obj = wire_json(
        "defend", "--str", "1", "--skill", "2", "--base", "5", "--vs", "13", "--roll", "16"
    )
    assert (obj["total"], obj["target"], obj["success"]) == (19, 13, True)
    assert (obj["degrees"], obj["damage"]) == (3, 2)


def test_goblin_taking_10_against_jaimes_23() -> None:
    obj = wire_json("defend", "--str", "1", "--skill", "2", "--base", "5", "--vs", "23", "--take10")
    assert (obj["roll"], obj["total"], obj["success"]) == (10, 13, False)
    assert (obj["degrees"], obj["damage"], obj["chance"]) == (5, 10, 0.0)


def test_defend_tie_is_not_a_defence() -> None:
    obj = wire_json("defend", "--str", "1", "--skill", "2", "--base", "5", "--vs", "13", "--take10")
    assert (obj["total"], obj["success"], obj["degrees"], obj["damage"]) == (13, False, 0, 5)


def test_check_meeting_the_target_and_one_short() -> None:
    met = wire_json("check", "--attr", "3", "--skill", "5", "--vs", "13", "--roll", "5")
    short = wire_json("check", "--attr", "3", "--skill", "5", "--vs", "13", "--roll", "4")
    assert (met["total"], met["success"], met["degrees"]) == (13, True, 0)
    assert (short["total"], short["success"], short["degrees"]) == (12, False, 0)


def test_check_cap_keeps_the_raw_degrees() -> None:
    obj = wire_json("check", "--attr", "5", "--skill", "5", "--vs", "13", "--roll", "20")
    assert (obj["total"], obj["degrees"], obj["raw_degrees"]) == (30, 5, 8)
    done = wire("check", "--attr", "5", "--skill", "5", "--vs", "13", "--roll", "20")
    assert "Success: 5 DoS (capped from 8)" in done.stdout.splitlines()


def test_check_modifier_is_added() -> None:
    obj = wire_json(
        "check", "--attr", "3", "--skill", "5", "--vs", "13", "--roll", "15", "--mod", "-2"
    )
    assert obj["total"] == 21


def test_check_take10() -> None:
    obj = wire_json("check", "--attr", "1", "--skill", "2", "--vs", "13", "--take10")
    assert (obj["roll"], obj["total"], obj["success"]) == (10, 13, True)


def test_check_rolls_a_d20_when_no_die_is_given() -> None:
    obj = wire_json("check", "--attr", "3", "--skill", "5", "--vs", "13")
    assert 1 <= obj["roll"] <= 20
    assert obj["total"] == obj["roll"] + 8
    assert obj["die_source"] == "rolled"
    assert obj["chance"] == 0.8


def test_craft_json_quality() -> None:
    base = ["craft", "--attr", "2", "--skill", "4", "--vs", "15", "--quality", "3"]
    assert wire_json(*base, "--roll", "20")["quality"] == 8  # 26 vs 15: 5 DoS
    assert wire_json(*base, "--roll", "1")["quality"] == -1  # 7 vs 15: 4 DoF
    done = wire(*base, "--roll", "20")
    assert done.stdout.splitlines()[-1] == "Quality: 3 + 5 = 8"


CONTEST = ["contest", "--attr", "2", "--skill", "4", "--opp-attr", "1", "--opp-skill", "3"]


def test_contest_text_both_dice_given() -> None:
    done = wire(*CONTEST, "--roll", "14", "--opp-roll", "6")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "Active: d20 14 + 2 Attribute + 4 Skill = 20",
        "Passive: d20 6 + 1 Attribute + 3 Skill = 10",
        "Active wins with 5 DoS",
        "Chance before the roll: 61.75% for Active",
    ]


def test_contest_json_with_modifiers_and_a_tie() -> None:
    obj = wire_json(*CONTEST, "--roll", "10", "--opp-roll", "12", "--mod", "1", "--opp-mod", "1")
    assert (obj["active"]["total"], obj["passive"]["total"]) == (17, 17)
    assert (obj["success"], obj["degrees"]) == (True, 0)  # the active side wins ties
    assert obj["active"]["modifiers"][-1] == {"label": "Modifier", "value": 1}
    assert obj["odds"]["chance_exact"] == "247/400"  # +7 against +5, both rolling


def test_contest_opponent_taking_10_is_a_known_total() -> None:
    obj = wire_json(*CONTEST, "--opp-take10")
    assert obj["passive"] == {
        "roll": 10,
        "die_source": "take10",
        "modifiers": [{"label": "Attribute", "value": 1}, {"label": "Skill", "value": 3}],
        "total": 14,
    }
    assert obj["active"]["die_source"] == "rolled"
    assert obj["odds"]["chance_exact"] == "13/20"  # 20 faces against 14: 8 or better


@pytest.mark.parametrize(
    "args",
    [
        ["check", "--attr", "3", "--skill", "5", "--vs", "13"],
        ["attack", "--str", "3", "--skill", "5", "--base", "5", "--vs", "13"],
        ["defend", "--str", "1", "--skill", "2", "--base", "5", "--vs", "17"],
        ["craft", "--attr", "2", "--skill", "4", "--vs", "15", "--quality", "3"],
        CONTEST,
    ],
    ids=lambda args: args[0],
)
def test_json_is_one_line_ending_in_a_newline(args: list[str]) -> None:
    done = wire(*args, "--json")
    assert done.returncode == 0, done.stderr
    assert done.stdout.endswith("}\n")
    assert done.stdout.count("\n") == 1
    json.loads(done.stdout)


def test_help_shows_the_examples_and_they_run() -> None:
    done = wire("--help")
    assert done.returncode == 0
    assert "examples:" in done.stdout
    examples = [
        line.strip().removeprefix("python -m wire ").split()
        for line in done.stdout.splitlines()
        if line.strip().startswith("python -m wire ")
    ]
    assert JAIME in examples
    assert len(examples) >= 4
    commands = {e[2] if e[0] == "--lang" else e[0] for e in examples}
    assert commands == {"check", "attack", "defend", "craft", "contest", "cost", "stats"}
    for example in examples:
        ran = wire(*example)
        assert ran.returncode == 0, (example, ran.stderr)
        assert ran.stdout.strip()


@pytest.mark.parametrize("command", ["check", "attack", "defend", "craft", "contest"])
def test_subcommand_help(command: str) -> None:
    done = wire(command, "--help")
    assert done.returncode == 0
    assert "--roll" in done.stdout and "--take10" in done.stdout and "--json" in done.stdout


def all_help() -> str:
    """Every help screen of the CLI, 100 columns wide, each under the command that shows it."""
    screens = []
    for command in ("", *COMMANDS):
        args = [command, "--help"] if command else ["--help"]
        done = wire(*args)
        assert (done.returncode, done.stderr) == (0, ""), args
        screens.append(f"== python -m wire {' '.join(args)}\n{done.stdout}")
    return "\n".join(screens)


def test_the_help_screens_read_as_reviewed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The help is the CLI's manual: pinned word for word in tests/wire/cli_help.txt, so a change
    to it is a diff in review. After a deliberate change, write the file anew with
    `COLUMNS=100 .venv/bin/python -c "from tests.wire.test_wire_cli import all_help;
    print(all_help(), end='')" > tests/wire/cli_help.txt` and read the diff."""
    monkeypatch.setenv("COLUMNS", "100")
    assert help_words(all_help()) == help_words(HELP.read_text())


def help_words(screens: str) -> list[str]:
    """The help screens' words in order, without the usage blocks: Python versions wrap the
    same help differently (3.13 lays out usage lines and long options its own way), and the
    usage is argparse's summary of the options the screens list one by one anyway."""
    kept = []
    for paragraph in screens.split("\n\n"):
        if not paragraph.lstrip().startswith("usage:"):
            kept.append(paragraph)
    return "\n\n".join(kept).split()


def test_every_option_says_what_it_is_for() -> None:
    """`--help` is the CLI's manual: no option shows up bare."""
    import argparse

    from wire.cli import build_parser

    parser = build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    for name, command in [("", parser), *sub.choices.items()]:
        for action in command._actions:
            if action is sub:  # its commands are listed each with its own help
                assert all(choice.help for choice in sub._choices_actions)
                continue
            assert action.help, f"python -m wire {name} {action.option_strings}: no help text"


# --- bad input: exit 2, one line on stderr ----------------------------------------------------

CHECK = ["check", "--attr", "3", "--skill", "5", "--vs", "13"]
ATTACK = ["attack", "--str", "3", "--skill", "5", "--base", "5", "--vs", "13"]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        pytest.param([*CHECK, "--roll", "x"], "not a whole number", id="not-a-number"),
        pytest.param([*CHECK, "--roll", "1.5"], "not a whole number", id="not-whole"),
        pytest.param(
            ["check", "--attr", "three", "--skill", "5", "--vs", "13"], "three", id="attr"
        ),
        pytest.param([*CHECK, "--roll", "0"], "between 1 and 20", id="die-0"),
        pytest.param([*CHECK, "--roll", "21"], "between 1 and 20", id="die-21"),
        pytest.param([*CHECK, "--roll", "15", "--take10"], "--roll", id="roll-and-take10"),
        pytest.param(["check", "--attr", "3", "--skill", "5"], "--vs", id="missing-vs"),
        pytest.param(
            ["craft", "--attr", "2", "--skill", "4", "--vs", "15"], "--quality", id="no-q"
        ),
        pytest.param(["attack", "--skill", "5", "--base", "5", "--vs", "13"], "--str", id="no-str"),
        pytest.param(
            ["check", "--attr", "3", "--skill", "11", "--vs", "13"], "0 and 10", id="skill"
        ),
        pytest.param(
            ["check", "--attr", "31", "--skill", "5", "--vs", "13"], "-10 and 30", id="attr"
        ),
        pytest.param([*CHECK, "--mod", "99"], "-50 and 50", id="mod-range"),
        pytest.param([*ATTACK[:-1], "1000"], "target number", id="vs-range"),
        pytest.param(
            ["attack", "--str", "3", "--skill", "5", "--base", "-1", "--vs", "13"],
            "base damage",
            id="base-range",
        ),
        pytest.param(
            ["craft", "--attr", "2", "--skill", "4", "--vs", "15", "--quality", "5000"],
            "quality",
            id="quality-range",
        ),
        pytest.param(
            [*CONTEST, "--opp-roll", "3", "--opp-take10"], "--opp-roll", id="opp-roll-and-take10"
        ),
        pytest.param([*CONTEST, "--opp-roll", "21"], "between 1 and 20", id="opp-die-21"),
        pytest.param(CONTEST[:-2], "--opp-skill", id="no-opp-skill"),
        pytest.param([*CONTEST, "--opp-mod", "51"], "-50 and 50", id="opp-mod-range"),
        pytest.param([], "command", id="no-command"),
        pytest.param(["fireball"], "fireball", id="unknown-command"),
    ],
)
def test_bad_input_exits_2_with_one_line(args: list[str], says: str) -> None:
    done = wire(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert done.stderr.endswith("\n")
    assert says in lines[0]
    assert lines[0].startswith("python -m wire")


REQUIRED = {
    "check": ["--attr", "3", "--skill", "5", "--vs", "13"],
    "attack": ["--str", "3", "--skill", "5", "--base", "5", "--vs", "13"],
    "defend": ["--str", "1", "--skill", "2", "--base", "5", "--vs", "23"],
    "craft": ["--attr", "2", "--skill", "4", "--vs", "15", "--quality", "3"],
    "contest": ["--attr", "2", "--skill", "4", "--opp-attr", "1", "--opp-skill", "3"],
}


@pytest.mark.parametrize(
    ("command", "option"),
    [(command, option) for command, args in REQUIRED.items() for option in args[::2]],
)
def test_every_required_option_is_asked_for_by_name(command: str, option: str) -> None:
    args = REQUIRED[command]
    at = args.index(option)
    done = wire(command, *args[:at], *args[at + 2 :], "--roll", "10")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        f"python -m wire {command}: error: the following arguments are required: {option}"
        " (see --help)\n"
    )


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            [*CHECK, "--roll", "21"],
            "argument --roll: the die must be between 1 and 20, not 21",
        ),
        (
            [*ATTACK[:-1], "-61"],
            "argument --vs: the target number must be between -60 and 150, not -61",
        ),
        ([*CHECK, "--mod", "x"], "argument --mod: 'x' is not a whole number"),
    ],
)
def test_a_bad_value_is_named_in_one_sentence_then_the_pointer_to_help(
    args: list[str], line: str
) -> None:
    done = wire(*args)
    assert done.returncode == 2
    assert done.stderr == f"python -m wire {args[0]}: error: {line} (see --help)\n"


def test_a_rules_error_the_parser_let_through_still_ends_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse(args: object) -> None:
        raise RulesError("Block needs a shield: parry or dodge instead.")

    monkeypatch.setattr("wire.cli.run", refuse)
    done = wire(*JAIME)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "python -m wire: error: Block needs a shield: parry or dodge instead.\n"


def test_without_lang_the_cli_speaks_english_whatever_its_caller_speaks() -> None:
    out = io.StringIO()
    with speaking("de"), contextlib.redirect_stdout(out):
        assert main(JAIME) == 0
    assert out.getvalue().splitlines()[1] == "Hit: 5 DoS for the attacker"


def test_jaimes_attack_in_german() -> None:
    done = wire("--lang", "de", *JAIME)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "Angriff: d20 15 + 3 Attribut + 5 Skill = 23 gegen Abwehr 13",
        "Treffer: 5 EG für den Angreifer",
        "Schaden: 5 Grundschaden + 5 EG = 10 Schaden",
        "Chance vor dem Wurf: 80\xa0% auf einen Treffer",
    ]


def test_a_range_error_in_german() -> None:
    done = wire("--lang", "de", "check", "--attr", "3", "--skill", "11", "--vs", "13")
    assert done.returncode == 2
    assert "Ein Skill muss zwischen 0 und 10 liegen, nicht 11" in done.stderr


def test_an_unknown_language_is_refused() -> None:
    done = wire("--lang", "xx", *JAIME)
    assert done.returncode == 2
    assert "invalid choice: 'xx'" in done.stderr


# --- cost: character points -------------------------------------------------------------------


def test_cost_parry_three_to_five_prints_45() -> None:
    done = wire("cost", "--category", "combat", "--from", "3", "--to", "5")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["Combat skill 3 -> 5: 45 CP"]


def test_cost_elvish_json_and_german() -> None:
    assert wire_json("cost", "--category", "language", "--to", "2")["cost"] == 6
    done = wire("--lang", "de", "cost", "--category", "Sprache", "--to", "2")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["Skill (Sprache) 0 -> 2: 6 CP"]


def test_cost_refuses_a_lowering_and_a_bad_category() -> None:
    done = wire("cost", "--category", "combat", "--from", "5", "--to", "3")
    assert (done.returncode, done.stdout) == (2, "")
    assert "below" in done.stderr and "Traceback" not in done.stderr
    done = wire("cost", "--category", "magic", "--to", "3")
    assert done.returncode == 2 and "combat, action, knowledge or language" in done.stderr


def test_cost_itemises_an_exported_sheet(tmp_path: Path) -> None:
    sheet = tmp_path / "ash.json"
    sheet.write_text(
        json.dumps(
            {
                "format": "wire-bot",
                "version": 2,
                "kind": "character",
                "campaign": {"skill_categories": {"Parry": "combat"}},
                "character": {
                    "name": "Ash",
                    "attributes": {"Strength": 3, "Agility": 2},
                    "skills": {"Parry": 5, "Elvish": 2, "Juggling": 1},
                },
            }
        )
    )
    args = ("cost", "--sheet", str(sheet), "--skill-category", "Elvish=language")
    done = wire(*args)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "Ash:",
        "  Parry 5 (combat): 75 CP",
        "  Elvish 2 (language): 6 CP",
        "  Juggling 1: unpriced (no category set)",
        "  Attributes (5 points): not priced",
        "Sheet: 81 CP: skills 81, attributes not priced (unpriced: Juggling)",
    ]
    obj = wire_json(*args, "--attribute-price", "5")
    assert obj["sheets"][0]["total"] == 106 and obj["sheets"][0]["unpriced"] == ["Juggling"]


def test_cost_counts_the_species_an_export_names(tmp_path: Path) -> None:
    sheet = tmp_path / "ash.json"
    campaign = {
        "skill_categories": {"Parry": "combat"},
        "species_costs": {"Elf": 20},
        "character_species": {"Ash": "Elf"},
    }
    character = {"name": "Ash", "attributes": {}, "skills": {"Parry": 3}}
    document = {"format": "wire-bot", "version": 2, "kind": "character"}
    sheet.write_text(json.dumps({**document, "campaign": campaign, "character": character}))
    done = wire("cost", "--sheet", str(sheet))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-2:] == [
        "  Species Elf: 20 CP",
        "Sheet: 50 CP: skills 30, attributes not priced, species 20 (Elf)",
    ]
    obj = wire_json("cost", "--sheet", str(sheet))
    assert obj["sheets"][0]["species"] == {"name": "Elf", "cost": 20}


def test_cost_sheet_that_is_not_an_export(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2")
    done = wire("cost", "--sheet", str(bad))
    assert done.returncode == 2 and "is not JSON" in done.stderr and "Traceback" not in done.stderr
    done = wire("cost", "--sheet", str(tmp_path / "missing.json"))
    assert done.returncode == 2 and "Cannot read" in done.stderr


# --- rolling off an exported sheet ------------------------------------------------------------

SHEET = str(ROOT / "docs" / "examples" / "jaime.json")
STATS = ["--attr", "Strength", "--skill", "Parry", "--vs", "13"]


def test_an_attack_off_a_sheet_is_jaimes_attack() -> None:
    """The sheet's long sword (Strength 3, Long swords 5, base 5) is the seed's attack."""
    by_sheet = wire(
        "attack", "--sheet", SHEET, "--weapon", "long sword", "--vs", "13", "--roll", "15"
    )
    assert by_sheet.returncode == 0, by_sheet.stderr
    named = wire(*JAIME).stdout.replace("3 Attribute", "3 Strength").replace("5 Skill", "5 Long")
    assert by_sheet.stdout == named.replace("5 Long", "5 Long swords")
    assert by_sheet.stdout.startswith("Attack: d20 15 + 3 Strength + 5 Long swords = 23 vs defence")
    by_numbers = wire_json(*JAIME)
    sole_weapon = wire_json("attack", "--sheet", SHEET, "--vs", "13", "--roll", "15")
    for key in ("total", "degrees", "damage", "odds"):
        assert sole_weapon[key] == by_numbers[key]


@pytest.mark.parametrize(
    ("attr", "skill", "line"),
    [
        ("Strength", "Climbng", "Climbng: did you mean Climbing?"),
        ("Strenght", "Climbing", "Strenght: did you mean Strength?"),
    ],
)
def test_a_misspelt_name_off_a_sheet_is_refused_with_did_you_mean(attr, skill, line) -> None:
    """As the bot refuses "Strenght" beside a sheet's Strength: a roll of 0 would look right."""
    done = wire(
        "check", "--sheet", SHEET, "--attr", attr, "--skill", skill, "--vs", "15", "--roll", "10"
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"python -m wire: error: {line}\n"


def test_a_check_off_a_sheet_counts_a_missing_skill_0_and_says_so() -> None:
    done = wire(
        "check", "--sheet", SHEET, "--attr", "Strength", "--skill", "Swimming", "--vs", "15"
    )
    assert done.returncode == 0, done.stderr
    assert "+ 0 Swimming (not on the sheet)" in done.stdout.splitlines()[0]
    assert done.stdout.splitlines()[-1] == "Swimming is not on Jaime's sheet, so it counts 0."
    found = wire_json(
        "check",
        "--sheet",
        SHEET,
        "--attr",
        "strength",
        "--skill",
        "Climbing",
        "--vs",
        "15",
        "--roll",
        "10",
    )
    assert [(m["label"], m["value"]) for m in found["modifiers"]] == [
        ("Strength", 3),
        ("Climbing", 2),
    ]
    assert found["total"] == 15 and found["success"] is True


def test_a_german_sheet_name_finds_the_english_stat() -> None:
    done = wire(
        "--lang",
        "de",
        "check",
        "--sheet",
        SHEET,
        "--attr",
        "Stärke",
        "--skill",
        "Parieren",
        "--vs",
        "15",
        "--roll",
        "10",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "Wurf: d20 10 + 3 Strength + 3 Parry = 16 gegen MW 15"


def _conditioned_sheet(tmp_path: Path, *conditions: dict[str, Any]) -> str:
    """Jaime's sheet as a version 5 export with `conditions` on it."""
    document = json.loads(Path(SHEET).read_text())
    document["version"] = 5
    document["character"]["conditions"] = list(conditions)
    path = tmp_path / "jaime5.json"
    path.write_text(json.dumps(document))
    return str(path)


BLESSED = {"name": "Blessed", "modifier": 1, "applies_to": "attack", "rounds": 3}
HEXED = {"name": "Hexed", "modifier": 2, "applies_to": "damage-dealt"}
TIRED = {"name": "Tired", "modifier": -2, "applies_to": "check", "stat": "Climbing"}
PRONE = {"name": "Prone", "modifier": -2, "applies_to": "defence", "hidden": True}


def test_a_roll_off_a_sheet_counts_its_conditions_as_the_bot_does(tmp_path: Path) -> None:
    """Blessed on attacks, Hexed on the damage dealt, Tired on Climbing checks: each where the
    bot counts it outside a fight, named in the breakdown; Prone (defences) on none of these."""
    sheet = _conditioned_sheet(tmp_path, BLESSED, HEXED, TIRED, PRONE)
    attack = wire("attack", "--sheet", sheet, "--vs", "13", "--roll", "15")
    assert (attack.returncode, attack.stderr) == (0, "")
    assert attack.stdout.splitlines() == [
        "Attack: d20 15 + 3 Strength + 5 Long swords + 1 Blessed = 24 vs defence 13",
        "Hit: 5 DoS for the attacker",
        "Base damage: 5, Hexed +2 → 7",
        "Damage: 7 base + 5 DoS = 12 damage",
        "Chance before the roll: 85% to hit",
    ]
    found = wire_json("attack", "--sheet", sheet, "--vs", "13", "--roll", "15")
    assert (found["total"], found["base"], found["damage"]) == (24, 7, 12)
    assert found["base_modifiers"] == [{"label": "Hexed", "value": 2}]
    climb = ["check", "--sheet", sheet, "--attr", "Strength", "--vs", "15", "--roll", "10"]
    tired = wire_json(*climb, "--skill", "climbing")
    assert [(m["label"], m["value"]) for m in tired["modifiers"]][-1] == ("Tired", -2)
    assert (tired["total"], tired["success"]) == (13, False)  # 15 and a success without it
    parry = wire_json(*climb, "--skill", "Parry")
    assert [m["label"] for m in parry["modifiers"]] == ["Strength", "Parry"]
    german = wire("--lang", "de", "attack", "--sheet", sheet, "--vs", "13", "--roll", "15")
    assert german.stdout.splitlines()[2] == "Grundschaden: 5, Hexed +2 → 7"
    bare = wire_json("attack", "--sheet", SHEET, "--vs", "13", "--roll", "15")
    assert "base_modifiers" not in bare and bare["total"] == 23


@pytest.mark.parametrize(
    ("condition", "says"),
    [
        pytest.param(
            {**BLESSED, "modifier": 11},
            "character.conditions[0].modifier: expected a whole number from -10 to 10",
            id="modifier",
        ),
        pytest.param(
            {**BLESSED, "applies_to": "luck"},
            "character.conditions[0].applies_to: expected one of all, attack",
            id="applies_to",
        ),
        pytest.param(
            {**BLESSED, "rounds": 0},
            "character.conditions[0].rounds: expected a whole number from 1 to 100",
            id="rounds",
        ),
        pytest.param(
            {**BLESSED, "timing": "turn"},
            "character.conditions[0].timing: expected one of end, start",
            id="timing",
        ),
        pytest.param(
            {**BLESSED, "stat": "Climbing"},
            "character.conditions[0]: A stat goes with a condition on checks only",
            id="stat-off-checks",
        ),
        pytest.param(
            {**BLESSED, "name": " "},
            "character.conditions[0].name: expected a name",
            id="name",
        ),
        pytest.param(
            "Blessed",
            "character.conditions[0]: expected a condition",
            id="not-an-object",
        ),
    ],
)
def test_a_sheets_bad_condition_is_refused_with_its_path(
    tmp_path: Path, condition: Any, says: str
) -> None:
    """A hand-edited file rolls nothing /condition add would refuse."""
    sheet = _conditioned_sheet(tmp_path, condition)
    done = wire("attack", "--sheet", sheet, "--vs", "13", "--roll", "15")
    assert done.returncode == 2 and done.stdout == ""
    assert says in done.stderr


def test_a_sheet_with_more_conditions_than_the_bot_allows_is_refused(tmp_path: Path) -> None:
    sheet = _conditioned_sheet(tmp_path, *[{**BLESSED, "name": f"B{i}"} for i in range(11)])
    done = wire("attack", "--sheet", sheet, "--vs", "13")
    assert done.returncode == 2
    assert "character.conditions: expected a list of at most 10 conditions" in done.stderr


def test_a_campaign_export_needs_the_characters_name(tmp_path: Path) -> None:
    sheet = json.loads(Path(SHEET).read_text())["character"]
    other = {"name": "Goblin", "is_npc": True, "attributes": {"Strength": 1}}
    path = tmp_path / "campaign.json"
    path.write_text(
        json.dumps(
            {"format": "wire-bot", "version": 1, "kind": "campaign", "characters": [sheet, other]}
        )
    )
    unnamed = wire(
        "check", "--sheet", str(path), "--attr", "Strength", "--skill", "Parry", "--vs", "10"
    )
    assert unnamed.returncode == 2
    assert "holds 2 characters: name one with --character" in unnamed.stderr
    goblin = wire_json(
        "check",
        "--sheet",
        str(path),
        "--character",
        "goblin",
        "--attr",
        "Strength",
        "--skill",
        "Parry",
        "--vs",
        "10",
        "--roll",
        "10",
    )
    assert goblin["total"] == 11


@pytest.mark.parametrize(
    ("args", "says"),
    [
        pytest.param(
            ["attack", "--sheet", SHEET, "--weapon", "Axe", "--vs", "13"],
            "Jaime has no weapon Axe.",
            id="no-such-weapon",
        ),
        pytest.param(
            ["attack", "--sheet", SHEET, "--str", "3", "--vs", "13"],
            "give --weapon from the --sheet, or --str without one",
            id="both",
        ),
        pytest.param(
            ["attack", "--weapon", "Long sword", "--vs", "13"],
            "--weapon needs --sheet",
            id="weapon-without-sheet",
        ),
        pytest.param(
            ["check", "--sheet", SHEET, "--attr", "3", "--skill", "Parry", "--vs", "13"],
            "give the name on the sheet, not 3",
            id="number-with-sheet",
        ),
        pytest.param(
            ["check", "--sheet", "/no/such.json", *STATS],
            "Cannot read /no/such.json",
            id="no-file",
        ),
        pytest.param(
            ["check", "--sheet", str(ROOT / "README.md"), *STATS],
            "is not JSON",
            id="not-json",
        ),
    ],
)
def test_bad_sheet_input_exits_2_with_one_line(args: list[str], says: str) -> None:
    done = wire(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and says in done.stderr, done.stderr


@pytest.mark.parametrize(
    ("character", "says"),
    [
        (
            {"name": "Jaime", "skills": {"Parry": 11}},
            "character.skills.Parry: expected a whole number from 0 to 10",
        ),
        (
            {"name": "Jaime", "weapons": [{"name": "Sword", "base": 5}]},
            "character.weapons[0].attribute: expected a name",
        ),
        ({"name": "Jaime", "shield": "yes"}, "character.shield: expected true or false"),
        ({"attributes": {}}, "character.name: expected a name"),
    ],
)
def test_a_damaged_sheet_file_names_the_field(tmp_path: Path, character, says: str) -> None:
    path = tmp_path / "sheet.json"
    path.write_text(
        json.dumps(
            {"format": "wire-bot", "version": 1, "kind": "character", "character": character}
        )
    )
    done = wire(
        "check", "--sheet", str(path), "--attr", "Strength", "--skill", "Parry", "--vs", "13"
    )
    assert done.returncode == 2
    assert says in done.stderr, done.stderr


def test_the_example_sheet_is_one_the_bot_imports() -> None:
    """docs/examples/jaime.json is a real export: the bot's import reads it unchanged."""
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from storage.transfer import parse_import; "
            "print(parse_import(open(sys.argv[1]).read()).characters[0].skills)",
            SHEET,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "{'Long swords': 5, 'Parry': 3, 'Climbing': 2}"


def test_the_sheet_reader_needs_no_database() -> None:
    """The CLI's sheet reader stays in the rules core: it imports neither storage nor discord."""
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, wire.cli, wire.sheet_file; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('storage', 'discord', 'aiosqlite', 'cogs')))",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stdout.strip() == "[]", done.stdout


def test_a_catalogued_language_without_babel_is_refused_with_the_fix(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(i18n, "LANGUAGES", (i18n.DEFAULT,))  # as outside .venv: no Babel
    done = wire("--lang", "de", *JAIME)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        "python -m wire: error: --lang de needs Babel to read its catalogue: run it with"
        " .venv/bin/python (make run or make test installs it)\n"
    )


# --- the real process -------------------------------------------------------------------------


def test_python_m_wire_runs_jaimes_attack() -> None:
    done = wire_process(*JAIME)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == (
        "Attack: d20 15 + 3 Attribute + 5 Skill = 23 vs defence 13\n"
        "Hit: 5 DoS for the attacker\n"
        "Damage: 5 base + 5 DoS = 10 damage\n"
        "Chance before the roll: 80% to hit\n"
    )


def test_python_m_wire_bad_input_exits_2_with_one_line_and_no_traceback() -> None:
    done = wire_process("check", "--attr", "3", "--skill", "11", "--vs", "13")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        "python -m wire check: error: argument --skill: a skill must be between 0 and 10, not 11"
        " (see --help)\n"
    )


def test_load_reads_an_exported_sheets_gear_against_its_maximum(tmp_path: Path) -> None:
    sheet = {
        "name": "Ash",
        "attributes": {"Stärke": 2, "Entschlossenheit": 1},
        "gear": {
            "items": [
                {"name": "Rope", "quantity": 2, "grams": 1500},
                {"name": "Anvil", "grams": 4000},
                {"name": "Tent", "grams": 9000, "carried": False},
            ]
        },
    }
    path = tmp_path / "ash.json"
    document = {"format": "wire-bot", "version": 3, "kind": "character", "character": sheet}
    path.write_text(json.dumps(document))
    done = wire("load", "--sheet", str(path))
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == "Ash: 7 kg of 6 kg carried (lift 30 kg), over the maximum load\n"
    assert wire_json("load", "--sheet", str(path))["sheets"] == [
        {"name": "Ash", "carried_g": 7000, "max_load_g": 6000, "max_lift_g": 30000, "over": True}
    ]
    german = wire("--lang", "de", "load", "--sheet", str(path))
    assert german.stdout == "Ash: 7 kg von 6 kg getragen (heben 30 kg), über der Höchstlast\n"
    older = wire("load", "--sheet", str(ROOT / "docs" / "examples" / "jaime.json"))
    assert older.stdout == "Jaime: 0 kg of 6 kg carried (lift 30 kg)\n"  # a version 1 file


def test_load_reads_version_4_and_5_campaign_files_and_refuses_a_later_one(
    tmp_path: Path,
) -> None:
    """A campaign file with named conditions and sessions (version 4) reads as its sheets; a
    version the CLI does not know is refused, naming the versions it reads."""
    document = {
        "format": "wire-bot",
        "version": 4,
        "kind": "campaign",
        "campaign": {
            "name": "Night Market",
            "conditions": [{"name": "Prone", "modifier": -2, "applies_to": "defence"}],
        },
        "characters": [{"name": "Ash", "attributes": {"Stärke": 2, "Entschlossenheit": 1}}],
        "sessions": [{"title": "Heist", "start": "2030-03-01T19:00:00.000000Z", "minutes": 240}],
    }
    path = tmp_path / "campaign.json"
    path.write_text(json.dumps(document))
    done = wire("load", "--sheet", str(path))
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == "Ash: 0 kg of 6 kg carried (lift 30 kg)\n"
    cursed = {**document["characters"][0], "conditions": [{"name": "Cursed", "modifier": -1}]}
    path.write_text(json.dumps({**document, "version": 5, "characters": [cursed]}))
    five = wire("load", "--sheet", str(path))  # a sheet's conditions (version 5): no weight
    assert (five.returncode, five.stdout) == (0, done.stdout)
    path.write_text(json.dumps({**document, "version": 6}))
    later = wire("load", "--sheet", str(path))
    assert later.returncode != 0
    assert "format wire-bot, version 1 to 5" in later.stderr + later.stdout
