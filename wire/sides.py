"""Who is likely whose opponent in a fight: a guess for ordering lists, never a rule of play.

WIRE has no sides: anyone in a fight may attack anyone (a brawl between players, an NPC turning
on another). But at most tables the player characters fight the GM's NPCs, so a list of whom
to attack, or whom to fear, reads best with those first. The guess is only this: a player
character's likely opponents are the NPCs, an NPC's are the player characters. Everyone else
stays in the list, after them; each group keeps the fight order it came in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


def likely_opponents(one_is_npc: bool, other_is_npc: bool) -> bool:
    """True where one is a player character and the other an NPC (either way round)."""
    return one_is_npc != other_is_npc


@dataclass(frozen=True, slots=True)
class Sides(Generic[T]):
    """A list split by the guess: the likely opponents, then the rest, each in the order given."""

    opponents: tuple[T, ...]
    others: tuple[T, ...]

    def ordered(self) -> list[T]:
        return [*self.opponents, *self.others]


def opponents_first(
    acting_is_npc: bool, items: Iterable[T], is_npc: Callable[[T], bool]
) -> Sides[T]:
    """Split `items` (in fight order) into the likely opponents of one who is (or is not) an
    NPC and everyone else; a stable split, so each group keeps the fight order."""
    opponents: list[T] = []
    others: list[T] = []
    for item in items:
        (opponents if likely_opponents(acting_is_npc, is_npc(item)) else others).append(item)
    return Sides(tuple(opponents), tuple(others))
