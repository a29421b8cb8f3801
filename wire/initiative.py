"""Initiative and turn order: 1d20 + Reaction, the higher acting first.

From WIRE's public rules: on equal initiative the higher Reaction acts first. Surprised
combatants have a reduced initiative in the first round; by how much is not in our sources, so
the GM gives the amount (docs/rules.md, "Fights"). Where initiative and Reaction are both equal
the rules say nothing: the combatant who joined the fight first acts first, so the order is total
(every pair is ordered) and stable (it never changes unless an initiative does).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from wire import limits
from wire.dice import Die
from wire.i18n import N_, tr

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Initiative:
    """One combatant's initiative: the die, its Reaction and any surprise penalty."""

    die: Die
    reaction: int
    surprise: int = 0
    """Taken off in the first round only; the GM's figure (0: not surprised)."""
    conditions: int = 0
    """What the combatant's conditions on initiative add now (wire/conditions.py): they
    count while they last, so the order changes as one is put on or ends."""

    def total(self, round_number: int = 1) -> int:
        """The initiative in `round_number`: the surprise penalty counts in round 1 only."""
        penalty = self.surprise if round_number <= 1 else 0
        return self.die.face + self.reaction + self.conditions - penalty


def roll_initiative(die: Die, reaction: int, surprise: int = 0) -> Initiative:
    limits.ATTRIBUTE.check(reaction, tr("Reaction"))
    limits.SURPRISE.check(surprise, N_("The surprise penalty"))
    return Initiative(die, reaction, surprise)


def turn_order(entries: Sequence[tuple[K, Initiative]], round_number: int = 1) -> list[K]:
    """Keys from first to act to last: initiative, then Reaction, then who joined first."""
    ranked = sorted(
        enumerate(entries),
        key=lambda item: (
            -item[1][1].total(round_number),
            -item[1][1].reaction,
            item[0],
        ),
    )
    return [key for _, (key, _) in ranked]
