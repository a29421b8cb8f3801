"""The WIRE rules core: checks, degrees of success and failure, opposed checks, combat damage,
crafting, take 10 and exact odds.

Pure Python with no Discord and no database, so the bot, the `python -m wire` CLI, the tests and
the benchmarks all share one implementation of the rules. See docs/rules.md for the rules as
implemented and the points the rules text leaves open.
"""

from wire.check import CheckResult, Modifier, Roll, resolve_check, stat_line
from wire.combat import CombatResult, Damage, Defence, resolve_attack, resolve_defence
from wire.contest import ContestResult, resolve_contest
from wire.crafting import CraftResult, resolve_craft
from wire.degrees import CAP, Degrees, degrees_of
from wire.dice import Die, DieSource, obtain_die
from wire.errors import RulesError
from wire.odds import Odds, Outcome

__all__ = [
    "CAP",
    "CheckResult",
    "CombatResult",
    "ContestResult",
    "CraftResult",
    "Damage",
    "Defence",
    "Degrees",
    "Die",
    "DieSource",
    "Modifier",
    "Odds",
    "Outcome",
    "Roll",
    "RulesError",
    "degrees_of",
    "obtain_die",
    "resolve_attack",
    "resolve_check",
    "resolve_contest",
    "resolve_craft",
    "resolve_defence",
    "stat_line",
]
