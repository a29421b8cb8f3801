"""Health pools and what damage does to them.

From WIRE's public rules: permanent health HP = 20 + Constitution + Resolve takes lethal damage;
temporary health THP starts equal to HP and takes non-lethal damage (unarmed attacks, say);
willpower WP takes mental damage, and its formula is not in our sources, so it is a value on the
sheet. The seed says defender DoS keep damage from "reaching the armour"; what armour does beyond
that is not in our sources either, so here it is a table setting: an armour value (0 unless a
sheet sets it) taken off lethal and non-lethal damage before it reaches a pool, never below 0.
What 0 health means is role-play: a pool at 0 or below is shown as "down", nothing more.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from wire.errors import RulesError
from wire.i18n import N_, tr

BASE_HEALTH = 20


class Pool(StrEnum):
    HP = "hp"
    """Permanent health: lethal damage."""
    THP = "thp"
    """Temporary health: non-lethal damage."""
    WP = "wp"
    """Willpower: mental damage."""


class DamageKind(StrEnum):
    LETHAL = "lethal"
    NON_LETHAL = "non-lethal"
    MENTAL = "mental"

    @property
    def pool(self) -> Pool:
        return {
            DamageKind.LETHAL: Pool.HP,
            DamageKind.NON_LETHAL: Pool.THP,
            DamageKind.MENTAL: Pool.WP,
        }[self]

    @property
    def armour_applies(self) -> bool:
        """Armour (a table setting) stops blows, not fear: mental damage goes past it."""
        return self is not DamageKind.MENTAL


def permanent_health(constitution: int, resolve: int) -> int:
    """HP = 20 + Constitution + Resolve (never below 1: a pool of 0 would start down)."""
    return max(1, BASE_HEALTH + constitution + resolve)


@dataclass(frozen=True, slots=True)
class Health:
    """Current and maximum of each pool. Current may go below 0 (the table decides what that
    means); it never goes above the maximum."""

    hp: int
    hp_max: int
    thp: int
    thp_max: int
    wp: int
    wp_max: int

    def current(self, pool: Pool) -> int:
        return getattr(self, pool.value)

    def maximum(self, pool: Pool) -> int:
        return getattr(self, f"{pool.value}_max")

    def with_current(self, pool: Pool, value: int) -> Health:
        values = {p: self.current(p) for p in Pool}
        values[pool] = value
        return Health(
            values[Pool.HP],
            self.hp_max,
            values[Pool.THP],
            self.thp_max,
            values[Pool.WP],
            self.wp_max,
        )

    @property
    def down(self) -> bool:
        """Any pool at 0 or below: shown as down, the rest is role-play."""
        return any(self.current(p) <= 0 for p in Pool if self.maximum(p) > 0)


@dataclass(frozen=True, slots=True)
class HealthChange:
    """What one blow or one heal did to one pool, for the embed, the tracker and the log."""

    pool: Pool
    before: int
    after: int
    incoming: int
    """The damage or healing asked for (the roll's damage, or the GM's amount)."""
    armour: int = 0
    """Points of damage the armour took off."""

    @property
    def amount(self) -> int:
        """How much the pool moved: positive for damage taken, negative for healing."""
        return self.before - self.after

    @property
    def counted(self) -> int:
        """The damage a fight's summary counts: down to 0, not the overkill past it."""
        return counted_damage(self.before, self.after)


def counted_damage(before: int, after: int) -> int:
    """Of a pool's move from `before` to `after`, the damage above 0: a goblin at 3 hit for 8
    took 3, and one already down took none (its pool still shows the whole blow)."""
    return max(0, before) - max(0, after) if after < before else 0


def apply_damage(
    health: Health, amount: int, kind: DamageKind = DamageKind.LETHAL, armour: int = 0
) -> tuple[Health, HealthChange]:
    """The pool of `kind` less `amount` after armour; damage never goes below 0."""
    if amount < 0:
        raise RulesError(tr("Damage cannot be negative; heal instead."))
    if armour < 0:
        raise RulesError(tr("Armour cannot be negative."))
    pool = kind.pool
    soaked = min(amount, armour) if kind.armour_applies else 0
    before = health.current(pool)
    after = before - (amount - soaked)
    return health.with_current(pool, after), HealthChange(pool, before, after, amount, soaked)


def heal(health: Health, amount: int, pool: Pool) -> tuple[Health, HealthChange]:
    """The pool raised by `amount`, never above its maximum."""
    if amount < 0:
        raise RulesError(tr("Healing cannot be negative; use damage instead."))
    before = health.current(pool)
    after = max(before, min(health.maximum(pool), before + amount))
    return health.with_current(pool, after), HealthChange(pool, before, after, amount)


def set_pool(health: Health, value: int, pool: Pool) -> tuple[Health, HealthChange]:
    """The pool set to `value` (for what the rolls do not cover), at most its maximum."""
    before = health.current(pool)
    after = min(value, health.maximum(pool))
    return health.with_current(pool, after), HealthChange(pool, before, after, value)


HEALTH_OPS = ("damage", "heal", "set")
"""What a change of health does to a pool (`change_pool`)."""


def damage_kind(pool: Pool) -> DamageKind:
    """The damage that falls on `pool` (damage aimed at a pool rather than of a kind)."""
    return next(kind for kind in DamageKind if kind.pool is pool)


def change_pool(
    health: Health,
    op: str,
    amount: int,
    *,
    pool: Pool | None = None,
    kind: DamageKind = DamageKind.LETHAL,
    armour: int = 0,
) -> tuple[Health, HealthChange]:
    """One change of health, by hand or by an attack: `op` damage (the pool of `kind`, or
    `pool`, less `armour`), heal or set (`pool`, default HP)."""
    if op == "damage":
        return apply_damage(health, amount, kind if pool is None else damage_kind(pool), armour)
    if op == "heal":
        return heal(health, amount, pool or Pool.HP)
    if op == "set":
        return set_pool(health, amount, pool or Pool.HP)
    raise ValueError(f"not a change of health: {op!r}")


DESCRIPTORS = (N_("unhurt"), N_("wounded"), N_("badly wounded"), N_("down"))
"""From best to worst."""


def descriptor(current: int, maximum: int) -> str:
    """How a pool looks to players who may not see NPC numbers."""
    if current <= 0:
        return "down"
    if current >= maximum:
        return "unhurt"
    if current * 2 > maximum:
        return "wounded"
    return "badly wounded"


def looks(health: Health) -> str:
    """How a combatant looks: its worst pool, as `down` counts every pool (a goblin beaten to
    1 THP of 12 is badly wounded, though its HP is whole)."""
    return max(
        (descriptor(health.current(p), health.maximum(p)) for p in Pool if health.maximum(p) > 0),
        key=DESCRIPTORS.index,
        default="unhurt",
    )
