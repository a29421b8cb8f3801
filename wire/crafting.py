"""Crafting: a series of rolls on one item, each moving its quality by the degrees."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from wire import limits
from wire.check import CheckResult, Modifier, resolve_check
from wire.dice import Die


@dataclass(frozen=True, slots=True)
class CraftResult:
    check: CheckResult
    quality_before: int
    quality_after: int

    @property
    def change(self) -> int:
        """+DoS on a success, -DoF on a failure (at most 5 either way)."""
        return self.quality_after - self.quality_before


def resolve_craft(
    modifiers: Sequence[Modifier], target: int, die: Die, quality: int
) -> CraftResult:
    """One crafting roll on an item of quality `quality`: each DoS +1, each DoF -1."""
    limits.QUALITY.check(quality)
    check = resolve_check(modifiers, target, die)
    step = check.degrees.capped if check.success else -check.degrees.capped
    return CraftResult(check, quality, quality + step)
