"""Words for results: the phrases the CLI prints and the bot's embeds reuse.

Kept apart from the rules so one result can be shown as text, as an embed or as JSON; and kept in
one place so the CLI and Discord say the same thing in the same words. Every phrase is in the
language in use (`wire.i18n`): the CLI's `--lang`, or the interaction's in the bot.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction

from wire import i18n
from wire.check import CheckResult, Modifier, Roll
from wire.combat import CombatResult
from wire.contest import ContestResult
from wire.crafting import CraftResult
from wire.degrees import Degrees
from wire.dice import Die, DieSource
from wire.i18n import percent as _percent
from wire.i18n import tr
from wire.odds import DamageRole


def die_text(die: Die) -> str:
    """The die as a reply shows it: "15", "15 (rolled at the table)" or "take 10"."""
    if die.source is DieSource.TAKE10:
        return tr("take 10")
    if die.source is DieSource.TABLE:
        return tr("{face} (rolled at the table)", face=die.face)
    return str(die.face)


def signed(value: int) -> str:
    return f"+ {value}" if value >= 0 else f"- {-value}"


def roll_text(roll: Roll) -> str:
    """The die, each modifier by name, the total: "d20 15 + 3 Strength + 5 Skill = 23"."""
    parts = [f"d20 {roll.die.face}" if roll.die.source is not DieSource.TAKE10 else tr("take 10")]
    parts += [f"{signed(m.value)} {m.label}" for m in roll.modifiers]
    return " ".join(parts) + f" = {roll.total}"


def abbreviation(degrees: Degrees) -> str:
    """DoS or DoF, in the language in use (EG or MG in German)."""
    return tr("DoS") if degrees.success else tr("DoF")


def degrees_text(degrees: Degrees) -> str:
    """Degrees as a reply shows them: "5 DoS", "3 DoF", "5 DoS (capped from 7)"."""
    text = f"{degrees.capped} {abbreviation(degrees)}"
    if degrees.was_capped:
        text += " " + tr("(capped from {raw})", raw=degrees.raw)
    return text


def percent(chance: Fraction) -> str:
    """A probability as a percentage in the language's form ("80%", "80 %"): whole where exact,
    else one decimal (half to even).

    Never a false 0% or 100%: a chance that rounds to either is shown as 0.1% or 99.9%.
    """
    return _percent(chance)


def exact_percent(chance: Fraction) -> str:
    """A probability as a percentage with as many decimals as it has, up to two ("73.75%"),
    else rounded as `percent`: every chance of one d20 or two is a multiple of 1/400, so this
    shows it exactly, as the CLI's --json fraction and /odds do."""
    value = chance * 100
    if (value * 100).denominator != 1:
        return percent(chance)
    return i18n.percent_of(Decimal(int(value * 100)) / 100)


def damage_text(result: CombatResult) -> str:
    """The damage sum: "5 base + 5 DoS = 10 damage" or "5 base - 3 DoS = 2 damage"."""
    damage = result.damage
    sign = "+" if damage.attacker_won else "-"
    text = tr(
        "{base} base {sign} {degrees} DoS = {amount} damage",
        base=damage.base,
        sign=sign,
        degrees=damage.degrees,
        amount=damage.amount,
    )
    if not damage.attacker_won and damage.degrees > damage.base:
        text += " " + tr("(never below 0)")
    return text


def check_lines(result: CheckResult) -> list[str]:
    chance = percent(result.odds.chance)
    degrees = degrees_text(result.degrees)
    return [
        tr("Roll: {roll} vs TN {target}", roll=roll_text(result.roll), target=result.target),
        tr("Success: {degrees}", degrees=degrees)
        if result.success
        else tr("Failure: {degrees}", degrees=degrees),
        tr("Chance before the roll: {chance} to succeed", chance=chance),
    ]


def combat_lines(result: CombatResult) -> list[str]:
    attacking = result.role is DamageRole.ATTACKER
    roll, total = roll_text(result.roll), result.opponent_total
    degrees = degrees_text(_winner_degrees(result))
    chance = percent(result.odds.chance)
    if attacking:
        first = tr("Attack: {roll} vs defence {total}", roll=roll, total=total)
        last = tr("Chance before the roll: {chance} to hit", chance=chance)
    else:
        first = tr("Defence: {roll} vs attack {total}", roll=roll, total=total)
        last = tr("Chance before the roll: {chance} to defend", chance=chance)
    if result.attacker_won:
        outcome = (
            tr("Hit: {degrees} for the attacker", degrees=degrees)
            if attacking
            else tr("The attack gets through: {degrees} for the attacker", degrees=degrees)
        )
    else:
        outcome = (
            tr("Miss: {degrees} for the defender", degrees=degrees)
            if attacking
            else tr("Defended: {degrees} for the defender", degrees=degrees)
        )
    return [first, outcome, tr("Damage: {damage}", damage=damage_text(result)), last]


def base_damage_lines(weapon_base: int, changes: Sequence[Modifier], base: int) -> list[str]:
    """The line that says how conditions changed an attack's base damage ("Base damage: 5,
    Hexed +2 → 7", as the bot's Base damage field says it); none when none did."""
    if not changes:
        return []
    parts = ", ".join(f"{m.label} {m.value:+d}" for m in changes)
    return [
        tr(
            "Base damage: {weapon}, {changes} → {base}",
            weapon=weapon_base,
            changes=parts,
            base=base,
        )
    ]


def _winner_degrees(result: CombatResult) -> Degrees:
    """The winner's DoS: the roller's degrees, read as DoS whoever won."""
    d = result.degrees
    return Degrees(True, d.raw, d.capped)


def contest_lines(
    result: ContestResult, active: str | None = None, passive: str | None = None
) -> list[str]:
    active = active or tr("Active")
    passive = passive or tr("Passive")
    winner = active if result.active_won else passive
    winner_degrees = Degrees(True, result.degrees.raw, result.degrees.capped)
    return [
        f"{active}: {roll_text(result.active)}",
        f"{passive}: {roll_text(result.passive)}",
        tr("{winner} wins with {degrees}", winner=winner, degrees=degrees_text(winner_degrees)),
        tr(
            "Chance before the roll: {chance} for {side}",
            chance=exact_percent(result.odds.chance),
            side=active,
        ),
    ]


def craft_lines(result: CraftResult) -> list[str]:
    check = result.check
    return [
        *check_lines(check),
        tr(
            "Quality: {before} {change} = {after}",
            before=result.quality_before,
            change=signed(result.change),
            after=result.quality_after,
        ),
    ]
