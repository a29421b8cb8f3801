"""Combat: an opposed check whose degrees move the weapon's base damage.

The attacker's DoS add one damage each; the defender's DoS each take one away, never below 0.
The two figures are the same exchange seen from either side, so `/attack` and `/defend` with the
same numbers always agree on the damage.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from wire import limits
from wire.check import Modifier, Roll
from wire.degrees import Degrees, degrees_of
from wire.dice import Die, DieSource
from wire.errors import RulesError
from wire.i18n import tr
from wire.odds import DamageRole, Odds, Outcome, compute_odds


def damage_for(base: int, role: DamageRole, outcome: Outcome) -> int:
    """Damage after an exchange, seen from the roller's side.

    The attacker's DoS add to the base; the defender's DoS take from it, never below 0.
    """
    attacker_won = outcome.success == (role is DamageRole.ATTACKER)
    if attacker_won:
        return base + outcome.degrees
    return max(0, base - outcome.degrees)


class Defence(StrEnum):
    PARRY = "parry"
    BLOCK = "block"
    """Needs a shield."""
    DODGE = "dodge"


def require_shield(defence: Defence, has_shield: bool) -> None:
    """Block needs a shield (a goblin without one can only parry or dodge)."""
    if defence is Defence.BLOCK and not has_shield:
        raise RulesError(tr("Block needs a shield: parry or dodge instead."))


@dataclass(frozen=True, slots=True)
class Damage:
    base: int
    degrees: int
    """Capped degrees of whoever won the exchange."""
    attacker_won: bool
    amount: int


@dataclass(frozen=True, slots=True)
class CombatResult:
    role: DamageRole
    """Whose roll this is: the attacker's (/attack) or the defender's (/defend)."""
    roll: Roll
    opponent_total: int
    """The other side's total: the target number of this roll."""
    opponent: Roll | None
    """The other side's roll, when the bot made it too (sheet attacks); None for a bare total."""
    defence: Defence | None
    degrees: Degrees
    """The roller's degrees against the opponent's total."""
    damage: Damage
    odds: Odds

    @property
    def success(self) -> bool:
        """The roller won the exchange (hit, or defended)."""
        return self.degrees.success

    @property
    def attacker_won(self) -> bool:
        return self.damage.attacker_won

    @property
    def total(self) -> int:
        return self.roll.total


def exchange_odds(
    role: DamageRole,
    bonus: int,
    base: int,
    *,
    vs: int | None = None,
    opponent_bonus: int | None = None,
) -> Odds:
    """The roller's odds before any die is cast: against the other side's known total `vs` (a
    defender who took 10, an attack already rolled), or against their `opponent_bonus` when
    they roll too. The attacker wins ties, so the defender needs a strictly higher total.
    """
    if (vs is None) == (opponent_bonus is None):
        raise RulesError(tr("Give the opponent's total or their bonus, exactly one of them."))
    limits.BASE.check(base)
    both_roll = opponent_bonus is not None
    offset = bonus - (opponent_bonus if opponent_bonus is not None else vs)
    return compute_odds(
        offset,
        both_roll=both_roll,
        wins_ties=role is DamageRole.ATTACKER,
        base=base,
        role=role,
    )


def defence_chance(defence_bonus: int, attack_bonus: int, *, takes10: bool = False) -> Fraction:
    """The chance a defence stops an attack before either die is cast: both roll a d20, and the
    attacker wins ties, so the defender needs the strictly higher total. `takes10`: the defender
    takes 10 (an NPC, where the table has NPCs take 10), so only the attacker rolls, against
    the defender's known total."""
    if takes10:
        attacker = compute_odds(attack_bonus - (defence_bonus + 10), wins_ties=True)
        return 1 - attacker.chance
    return compute_odds(defence_bonus - attack_bonus, both_roll=True, wins_ties=False).chance


def _resolve(
    role: DamageRole,
    modifiers: Sequence[Modifier],
    base: int,
    die: Die,
    vs: int | None,
    opponent: Roll | None,
    defence: Defence | None,
) -> CombatResult:
    limits.BASE.check(base)
    if (vs is None) == (opponent is None):
        raise RulesError(tr("Give the opponent's total or their roll, exactly one of them."))
    roll = Roll(die, tuple(modifiers))
    target = opponent.total if opponent is not None else limits.TARGET.check(vs)
    wins_ties = role is DamageRole.ATTACKER
    degrees = degrees_of(roll.total, target, wins_ties=wins_ties)
    if opponent is not None and opponent.die.source is not DieSource.TAKE10:
        odds = exchange_odds(role, roll.bonus, base, opponent_bonus=opponent.bonus)
    else:
        odds = exchange_odds(role, roll.bonus, base, vs=target)
    outcome = Outcome(degrees.success, degrees.capped)
    attacker_won = degrees.success == (role is DamageRole.ATTACKER)
    damage = Damage(base, degrees.capped, attacker_won, damage_for(base, role, outcome))
    return CombatResult(role, roll, target, opponent, defence, degrees, damage, odds)


def resolve_attack(
    modifiers: Sequence[Modifier],
    base: int,
    die: Die,
    *,
    vs: int | None = None,
    defender: Roll | None = None,
    defence: Defence | None = None,
) -> CombatResult:
    """The attacker's roll against the defender's total `vs` (or the defender's own roll).

    Meeting the defender's total hits with 0 DoS: the base damage.
    """
    return _resolve(DamageRole.ATTACKER, modifiers, base, die, vs, defender, defence)


def resolve_defence(
    modifiers: Sequence[Modifier],
    base: int,
    die: Die,
    *,
    vs: int | None = None,
    attacker: Roll | None = None,
    defence: Defence | None = None,
) -> CombatResult:
    """The defender's roll against the attacker's total `vs`; `base`: the incoming weapon's.

    A tie goes to the attacker (0 DoS, the base damage), as it does in `resolve_attack`.
    """
    return _resolve(DamageRole.DEFENDER, modifiers, base, die, vs, attacker, defence)
