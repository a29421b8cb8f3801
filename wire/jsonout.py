"""Results as JSON-ready dicts, for `python -m wire ... --json` and for scripts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from wire.check import CheckResult, Modifier, Roll
from wire.combat import CombatResult
from wire.contest import ContestResult
from wire.crafting import CraftResult
from wire.odds import Odds


def _roll(roll: Roll) -> dict[str, Any]:
    return {
        "roll": roll.die.face,
        "die_source": str(roll.die.source),
        "modifiers": [{"label": m.label, "value": m.value} for m in roll.modifiers],
        "total": roll.total,
    }


def _odds(odds: Odds) -> dict[str, Any]:
    return {
        "chance": float(odds.chance),
        "chance_exact": str(odds.chance),
        "outcomes": [
            {"success": o.success, "degrees": o.degrees, "p": str(p)}
            for o, p in odds.outcomes.items()
        ],
        **(
            {"damage": {str(d): str(p) for d, p in odds.damage.items()}}
            if odds.damage is not None
            else {}
        ),
    }


def check_json(result: CheckResult) -> dict[str, Any]:
    return {
        **_roll(result.roll),
        "target": result.target,
        "success": result.success,
        "degrees": result.degrees.capped,
        "raw_degrees": result.degrees.raw,
        "chance": float(result.odds.chance),
        "odds": _odds(result.odds),
    }


def combat_json(result: CombatResult) -> dict[str, Any]:
    return {
        **_roll(result.roll),
        "target": result.opponent_total,
        "success": result.success,
        "degrees": result.degrees.capped,
        "raw_degrees": result.degrees.raw,
        "chance": float(result.odds.chance),
        "attacker_won": result.attacker_won,
        "base": result.damage.base,
        "damage": result.damage.amount,
        "odds": _odds(result.odds),
    }


def base_damage_json(changes: Sequence[Modifier]) -> dict[str, Any]:
    """The conditions that changed an attack's base damage, where any did (the attack's
    "base" is then the changed one)."""
    if not changes:
        return {}
    return {"base_modifiers": [{"label": m.label, "value": m.value} for m in changes]}


def contest_json(result: ContestResult) -> dict[str, Any]:
    return {
        "active": _roll(result.active),
        "passive": _roll(result.passive),
        "success": result.active_won,
        "degrees": result.degrees.capped,
        "raw_degrees": result.degrees.raw,
        "chance": float(result.odds.chance),
        "odds": _odds(result.odds),
    }


def craft_json(result: CraftResult) -> dict[str, Any]:
    return {
        **check_json(result.check),
        "quality_before": result.quality_before,
        "quality": result.quality_after,
    }
