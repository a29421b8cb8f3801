"""Words for results: the phrases the CLI prints and the bot's embeds reuse.

Kept apart from the rules so one result can be shown as text, as an embed or as JSON; and kept in
one place so the CLI and Discord say the same thing in the same words.
"""

from __future__ import annotations

from fractions import Fraction

from wire.check import CheckResult, Roll
from wire.combat import CombatResult
from wire.contest import ContestResult
from wire.crafting import CraftResult
from wire.degrees import Degrees
from wire.dice import Die, DieSource
from wire.odds import DamageRole


def die_text(die: Die) -> str:
    """The die as a reply shows it: "15", "15 (rolled at the table)" or "take 10"."""
    if die.source is DieSource.TAKE10:
        return "take 10"
    if die.source is DieSource.TABLE:
        return f"{die.face} (rolled at the table)"
    return str(die.face)


def signed(value: int) -> str:
    return f"+ {value}" if value >= 0 else f"- {-value}"


def roll_text(roll: Roll) -> str:
    """The die, each modifier by name, the total: "d20 15 + 3 Strength + 5 Skill = 23"."""
    parts = [f"d20 {roll.die.face}" if roll.die.source is not DieSource.TAKE10 else "take 10"]
    parts += [f"{signed(m.value)} {m.label}" for m in roll.modifiers]
    return " ".join(parts) + f" = {roll.total}"


def degrees_text(degrees: Degrees) -> str:
    """Degrees as a reply shows them: "5 DoS", "3 DoF", "5 DoS (capped from 7)"."""
    text = f"{degrees.capped} {degrees.abbreviation}"
    if degrees.was_capped:
        text += f" (capped from {degrees.raw})"
    return text


def percent(chance: Fraction) -> str:
    """A probability as a percentage: whole where exact, else one decimal (half to even).

    Never a false 0% or 100%: a chance that rounds to either is shown as 0.1% or 99.9%.
    """
    value = chance * 100
    if value.denominator == 1:
        return f"{value.numerator}%"
    shown = f"{float(value):.1f}"
    if shown == "0.0":
        shown = "0.1"
    elif shown == "100.0":
        shown = "99.9"
    return f"{shown}%"


def damage_text(result: CombatResult) -> str:
    """The damage sum: "5 base + 5 DoS = 10 damage" or "5 base - 3 DoS = 2 damage"."""
    damage = result.damage
    sign = "+" if damage.attacker_won else "-"
    text = f"{damage.base} base {sign} {damage.degrees} DoS = {damage.amount} damage"
    if not damage.attacker_won and damage.degrees > damage.base:
        text += " (never below 0)"
    return text


def check_lines(result: CheckResult) -> list[str]:
    outcome = "Success" if result.success else "Failure"
    return [
        f"Roll: {roll_text(result.roll)} vs TN {result.target}",
        f"{outcome}: {degrees_text(result.degrees)}",
        f"Chance before the roll: {percent(result.odds.chance)} to succeed",
    ]


def combat_lines(result: CombatResult) -> list[str]:
    attacking = result.role is DamageRole.ATTACKER
    mine, theirs = ("Attack", "defence") if attacking else ("Defence", "attack")
    if result.attacker_won:
        outcome = "Hit" if attacking else "The attack gets through"
        winner = "attacker"
    else:
        outcome = "Miss" if attacking else "Defended"
        winner = "defender"
    goal = "to hit" if attacking else "to defend"
    return [
        f"{mine}: {roll_text(result.roll)} vs {theirs} {result.opponent_total}",
        f"{outcome}: {degrees_text(_winner_degrees(result))} for the {winner}",
        f"Damage: {damage_text(result)}",
        f"Chance before the roll: {percent(result.odds.chance)} {goal}",
    ]


def _winner_degrees(result: CombatResult) -> Degrees:
    """The winner's DoS: the roller's degrees, read as DoS whoever won."""
    d = result.degrees
    return Degrees(True, d.raw, d.capped)


def contest_lines(
    result: ContestResult, active: str = "Active", passive: str = "Passive"
) -> list[str]:
    winner = active if result.active_won else passive
    winner_degrees = Degrees(True, result.degrees.raw, result.degrees.capped)
    return [
        f"{active}: {roll_text(result.active)}",
        f"{passive}: {roll_text(result.passive)}",
        f"{winner} wins with {degrees_text(winner_degrees)}",
        f"Chance before the roll: {percent(result.odds.chance)} for {active}",
    ]


def craft_lines(result: CraftResult) -> list[str]:
    check = result.check
    return [
        *check_lines(check),
        f"Quality: {result.quality_before} {signed(result.change)} = {result.quality_after}",
    ]
