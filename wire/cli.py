"""`python -m wire`: the rules from a terminal, for a GM preparing a session and for scripts.

Bad input ends with exit status 2 and one line on stderr (argparse's usage block is left out:
`--help` shows it), never a traceback.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from wire import i18n, jsonout, text
from wire.check import Modifier, Roll, resolve_check, stat_line
from wire.combat import resolve_attack, resolve_defence
from wire.conditions import RollFor, damage_modifiers, modified_damage, with_conditions
from wire.contest import resolve_contest
from wire.cost_cli import add_cost_parser, run_cost
from wire.crafting import resolve_craft
from wire.dice import obtain_die
from wire.errors import RulesError
from wire.i18n import tr
from wire.limits import ATTRIBUTE, BASE, DIE, MODIFIER, QUALITY, SKILL, TARGET, Limit
from wire.load_cli import add_load_parser, run_load
from wire.sheet import Absent, sheet_stat, sheet_weapon
from wire.sheet_file import read_sheet_file
from wire.stats_cli import add_stats_parser, run_stats

EXAMPLES = """\
examples:
  python -m wire check --attr 3 --skill 5 --vs 13
  python -m wire attack --str 3 --skill 5 --base 5 --vs 13 --roll 15
      Jaime's long sword against the goblin's 13: 23 vs 13, 5 DoS, 10 damage
  python -m wire defend --str 1 --skill 2 --base 5 --vs 17 --take10 --json
  python -m wire craft --attr 2 --skill 4 --vs 15 --quality 3
  python -m wire contest --attr 2 --skill 4 --opp-attr 1 --opp-skill 3 --roll 14 --opp-roll 6
      Stealth against Perception, both dice given: 20 against 10, 5 DoS
  python -m wire --lang de attack --str 3 --skill 5 --base 5 --vs 13 --roll 15
      the same attack, in German
  python -m wire cost --category combat --from 3 --to 5
      Parry 3 -> 5: 45 CP
  (python -m wire cost --sheet FILE: what an exported sheet is worth, skill by skill)
  (python -m wire load --sheet FILE: what an exported sheet carries against its maximum load)
  python -m wire attack --sheet docs/examples/jaime.json --vs 13 --roll 15
      the same attack off a sheet /character export wrote (its one weapon; else --weapon NAME)
  python -m wire check --sheet docs/examples/jaime.json --attr Strength --skill Climbing --vs 15
      a stat the sheet lacks counts 0, and the answer says so
  python -m wire --lang de stats docs/examples/rolls.csv --who Jaime
      the statistics and luck of the rolls /stats csv:true attached (--chart PNG: the picture)
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def _ranged(limit: Limit) -> Callable[[str], int]:
    def parse(value: str) -> int:
        try:
            number = int(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{value!r} is not a whole number") from None
        try:
            return limit.check(number)
        except RulesError as exc:
            raise argparse.ArgumentTypeError(str(exc).rstrip(".")) from None

    parse.__name__ = limit.name
    return parse


def _stat(limit: Limit) -> Callable[[str], int | str]:
    """A number in range, or (read off a --sheet) a stat's name."""
    number = _ranged(limit)

    def parse(value: str) -> int | str:
        try:
            int(value)
        except ValueError:
            return value
        return number(value)

    parse.__name__ = limit.name
    return parse


def _add_sheet(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--sheet",
        metavar="FILE",
        help="a character file from /character export: stats are then names on the sheet",
    )
    parser.add_argument(
        "--character", metavar="NAME", help="which sheet of a campaign export (--sheet)"
    )


def _add_die(parser: argparse.ArgumentParser) -> None:
    die = parser.add_mutually_exclusive_group()
    die.add_argument("--roll", type=_ranged(DIE), metavar="N", help="a die rolled at the table")
    die.add_argument("--take10", action="store_true", help="take 10 instead of rolling")
    parser.add_argument(
        "--mod", type=_ranged(MODIFIER), default=0, metavar="M", help="a modifier to the total"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="python -m wire",
        description="WIRE rules: checks, degrees of success and failure, opposed checks, combat "
        "damage, crafting, with the exact odds before the roll.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--lang",
        choices=i18n.catalogued(),
        default=i18n.DEFAULT,
        help="the language of the results and errors (default: en)",
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    ranges = f"ranges: attribute {ATTRIBUTE.low}..{ATTRIBUTE.high}, skill {SKILL.low}..{SKILL.high}"
    attr, skill = _ranged(ATTRIBUTE), _ranged(SKILL)

    check = sub.add_parser("check", help="a standard check against a target number", epilog=ranges)
    check.add_argument("--attr", type=_stat(ATTRIBUTE), required=True, help="a number, or a name")
    check.add_argument("--skill", type=_stat(SKILL), required=True, help="a number, or a name")
    check.add_argument("--vs", type=_ranged(TARGET), required=True, help="the target number")
    _add_sheet(check)

    attack = sub.add_parser("attack", help="an attack against the defender's total", epilog=ranges)
    attack.add_argument("--str", dest="attr", type=attr, help="the attribute")
    attack.add_argument("--skill", type=skill, help="the weapon's skill")
    attack.add_argument("--base", type=_ranged(BASE), help="weapon base damage")
    attack.add_argument("--vs", type=_ranged(TARGET), required=True, help="the defender's total")
    _add_sheet(attack)
    attack.add_argument("--weapon", metavar="NAME", help="a weapon on the --sheet")

    defend = sub.add_parser("defend", help="a defence against the attacker's total", epilog=ranges)
    defend.add_argument("--str", dest="attr", type=attr, required=True, help="the attribute")
    defend.add_argument("--skill", type=skill, required=True, help="the defence's skill")
    defend.add_argument("--base", type=_ranged(BASE), required=True, help="incoming base damage")
    defend.add_argument("--vs", type=_ranged(TARGET), required=True, help="the attacker's total")

    craft = sub.add_parser("craft", help="one crafting roll on an item's quality", epilog=ranges)
    craft.add_argument("--attr", type=attr, required=True, help="the attribute")
    craft.add_argument("--skill", type=skill, required=True, help="the crafting skill")
    craft.add_argument("--vs", type=_ranged(TARGET), required=True, help="the target number")
    craft.add_argument(
        "--quality", type=_ranged(QUALITY), required=True, help="the item's quality before the roll"
    )

    contest = sub.add_parser(
        "contest",
        help="an opposed check outside combat: both sides roll, the higher total wins",
        epilog=ranges + "; the first side (the one acting) wins ties",
    )
    contest.add_argument("--attr", type=attr, required=True, help="the acting side's attribute")
    contest.add_argument("--skill", type=skill, required=True, help="the acting side's skill")
    contest.add_argument("--opp-attr", type=attr, required=True, help="the opponent's attribute")
    contest.add_argument("--opp-skill", type=skill, required=True, help="the opponent's skill")
    contest.add_argument(
        "--opp-mod", type=_ranged(MODIFIER), default=0, metavar="M", help="the opponent's modifier"
    )
    opponent_die = contest.add_mutually_exclusive_group()
    opponent_die.add_argument(
        "--opp-roll", type=_ranged(DIE), metavar="N", help="the opponent's die rolled at the table"
    )
    opponent_die.add_argument(
        "--opp-take10", action="store_true", help="the opponent takes 10 instead of rolling"
    )

    for command in (check, attack, defend, craft, contest):
        _add_die(command)
        command.set_defaults(usage_error=command.error)
    add_cost_parser(sub)
    add_load_parser(sub)
    add_stats_parser(sub)
    return parser


def _sheet_usage(args: argparse.Namespace) -> str | None:
    """What is wrong with the options of a roll with or without --sheet (None: nothing), in
    argparse's own words where argparse would have said it."""
    command = getattr(args, "command", None)
    if command not in ("check", "attack"):
        return None
    if args.sheet is None:
        if args.character is not None:
            return "--character needs --sheet"
        if command == "attack":
            if args.weapon is not None:
                return "--weapon needs --sheet"
            missing = [
                o
                for o, v in (("--str", args.attr), ("--skill", args.skill), ("--base", args.base))
                if v is None
            ]
            if missing:
                return "the following arguments are required: " + ", ".join(missing)
            return None
        for option, value in (("--attr", args.attr), ("--skill", args.skill)):
            if isinstance(value, str):
                return f"argument {option}: {value!r} is not a whole number"
        return None
    if command == "attack":
        given = [
            o
            for o, v in (("--str", args.attr), ("--skill", args.skill), ("--base", args.base))
            if v is not None
        ]
        if given:
            return f"give --weapon from the --sheet, or {', '.join(given)} without one"
        return None
    for option, value in (("--attr", args.attr), ("--skill", args.skill)):
        if not isinstance(value, str):
            return f"argument {option}: with --sheet, give the name on the sheet, not {value}"
    return None


def _missing_lines(modifiers: Sequence[Modifier]) -> list[str]:
    """The note the bot adds when a sheet lacks a stat the roll read (it counts 0)."""
    lines = []
    for mod in modifiers:
        if isinstance(mod, Absent):
            line = tr(
                "{name} is not on {sheet}'s sheet, so it counts 0.", name=mod.name, sheet=mod.sheet
            )
            if mod.close:
                line += " " + tr(
                    "The sheet has {close}: is it the same? Rename one to match.", close=mod.close
                )
            lines.append(line)
    return lines


def _refuse_likely_typos(modifiers: Sequence[Modifier]) -> None:
    """A name the sheet lacks but has one close to ("Strenght", "Strength") is refused with the
    bot's did-you-mean, as /character set refuses it: rolling it as an untrained 0 would give a
    wrong number that looks right. A name with nothing close still counts 0, with the note."""
    for mod in modifiers:
        if isinstance(mod, Absent) and mod.close:
            raise RulesError(tr("{name}: did you mean {close}?", name=mod.name, close=mod.close))


def _modifier(mod: int) -> tuple[Modifier, ...]:
    return (Modifier(tr("Modifier"), mod),) if mod else ()


def run(args: argparse.Namespace) -> tuple[list[str], dict[str, Any]]:
    """Resolve what the arguments ask for: (text lines, JSON object)."""
    if args.command == "cost":
        return run_cost(args)
    if args.command == "load":
        return run_load(args)
    if args.command == "stats":
        return run_stats(args)
    die = obtain_die(roll=args.roll, take10=args.take10)
    if getattr(args, "sheet", None) is not None:
        sheet = read_sheet_file(args.sheet, args.character)
        if args.command == "check":
            mods = (
                sheet_stat(sheet, "attribute", args.attr),
                sheet_stat(sheet, "skill", args.skill),
                *_modifier(args.mod),
            )
            _refuse_likely_typos(mods)
            mods = with_conditions(mods, sheet.conditions, RollFor.check(args.attr, args.skill))
            result = resolve_check(mods, args.vs, die)
            return text.check_lines(result) + _missing_lines(mods), jsonout.check_json(result)
        weapon_name = args.weapon
        if weapon_name is None:
            if len(sheet.weapons) != 1:
                raise RulesError(
                    tr(
                        "Name the weapon with --weapon: {sheet} has {count} weapons.",
                        sheet=sheet.name,
                        count=len(sheet.weapons),
                    )
                )
            weapon_name = sheet.weapons[0].name
        weapon, mods = sheet_weapon(sheet, weapon_name)
        mods = with_conditions((*mods, *_modifier(args.mod)), sheet.conditions, RollFor.attack())
        base = modified_damage(weapon.base, sheet.conditions, ())
        result = resolve_attack(mods, base, die, vs=args.vs)
        changed = damage_modifiers(sheet.conditions, ())
        lines = text.combat_lines(result)
        lines[2:2] = text.base_damage_lines(weapon.base, changed, base)  # before "Damage:"
        return (
            lines + _missing_lines(mods),
            jsonout.combat_json(result) | jsonout.base_damage_json(changed),
        )
    mods = stat_line(args.attr, args.skill, args.mod)
    if args.command == "check":
        result = resolve_check(mods, args.vs, die)
        return text.check_lines(result), jsonout.check_json(result)
    if args.command == "attack":
        result = resolve_attack(mods, args.base, die, vs=args.vs)
        return text.combat_lines(result), jsonout.combat_json(result)
    if args.command == "defend":
        result = resolve_defence(mods, args.base, die, vs=args.vs)
        return text.combat_lines(result), jsonout.combat_json(result)
    if args.command == "contest":
        opponent = Roll(
            obtain_die(roll=args.opp_roll, take10=args.opp_take10),
            stat_line(args.opp_attr, args.opp_skill, args.opp_mod),
        )
        result = resolve_contest(Roll(die, mods), opponent)
        return text.contest_lines(result), jsonout.contest_json(result)
    result = resolve_craft(mods, args.vs, die, args.quality)
    return text.craft_lines(result), jsonout.craft_json(result)


def _language(argv: Sequence[str] | None) -> str:
    """--lang, read before the rest: the range checks speak it while parsing."""
    early = argparse.ArgumentParser(add_help=False)
    early.add_argument("--lang", default=i18n.DEFAULT)
    known, _rest = early.parse_known_args(argv)
    return known.lang  # a bad one: the full parser says so


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    i18n.use(_language(argv))
    args = parser.parse_args(argv)
    usage = _sheet_usage(args)
    if usage is not None:
        args.usage_error(usage)
    if args.lang not in i18n.LANGUAGES:
        parser.exit(
            2,
            f"{parser.prog}: error: --lang {args.lang} needs Babel to read its catalogue: run "
            "it with .venv/bin/python (make run or make test installs it)\n",
        )
    try:
        lines, obj = run(args)
    except RulesError as exc:
        parser.exit(2, f"{parser.prog}: error: {exc}\n")
    print(json.dumps(obj) if args.json else "\n".join(lines))
    return 0


__all__ = ["Roll", "build_parser", "main", "run"]
