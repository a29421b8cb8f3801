"""Degrees of success and failure: one per full two points, never more than five applied."""

from __future__ import annotations

from dataclasses import dataclass

CAP = 5
"""No roll applies more than 5 DoS or 5 DoF (the rules' "Limitations")."""


@dataclass(frozen=True, slots=True)
class Degrees:
    success: bool
    raw: int
    """Degrees before the cap: kept so a reply can say "5 DoS (capped from 7)"."""
    capped: int
    """Degrees applied (at most CAP)."""

    @property
    def was_capped(self) -> bool:
        return self.raw > self.capped

    @property
    def abbreviation(self) -> str:
        return "DoS" if self.success else "DoF"


def degrees_of(total: int, target: int, *, wins_ties: bool = True) -> Degrees:
    """Degrees of a result against a target number.

    Meeting the target succeeds with 0 DoS (`wins_ties`). A defender rolling against an
    attacker's total does not win ties (the attacker does, see docs/rules.md): it passes
    `wins_ties=False` and a tie is a failure with 0 DoF. Either way the damage is the base.
    """
    diff = total - target
    success = diff >= 0 if wins_ties else diff > 0
    raw = abs(diff) // 2
    return Degrees(success, raw, min(raw, CAP))
