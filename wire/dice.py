"""Where a die face comes from: rolled, rolled at the table, or take 10.

The source of randomness is injected: tests pass a seeded `random.Random`; the bot and the CLI
use the operating system's randomness (`random.SystemRandom`), so no seed can be guessed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum

from wire import limits
from wire.errors import RulesError
from wire.i18n import N_, tr

TAKE10_FACE = 10

_SYSTEM_RANDOM = random.SystemRandom()


class DieSource(StrEnum):
    ROLLED = "rolled"
    """Rolled by the bot (or the CLI)."""
    TABLE = "table"
    """A physical die rolled at the table and typed in."""
    TAKE10 = "take10"
    """No roll: the average result 10, as the Chronist often does for NPCs."""


@dataclass(frozen=True, slots=True)
class Die:
    face: int
    source: DieSource

    @property
    def rolled(self) -> bool:
        """True when chance decided the face here (the odds shown are "before the roll")."""
        return self.source is DieSource.ROLLED


def obtain_die(
    *, roll: int | None = None, take10: bool = False, rng: random.Random | None = None
) -> Die:
    """The die for one check: `roll` given at the table, take 10, or a fresh d20 from `rng`."""
    if roll is not None and take10:
        raise RulesError(tr("Give either a die rolled at the table or take 10, not both."))
    if take10:
        return Die(TAKE10_FACE, DieSource.TAKE10)
    if roll is not None:
        return Die(limits.DIE.check(roll, N_("A die rolled at the table")), DieSource.TABLE)
    return Die((rng or _SYSTEM_RANDOM).randint(1, 20), DieSource.ROLLED)
