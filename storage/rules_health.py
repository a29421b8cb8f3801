"""Health: a part of `RuleStore` (storage/rules.py), kept in its own module.

Damage, healing and their undo, on a combatant in a fight or a sheet outside one, each in one
write transaction of the guild, so two blows on one pool never interleave. Which pool a change
takes and how armour counts are the rules core's (wire/health.py); here they are kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from storage.backend import Transaction
from storage.errors import InvalidValue, NotFound
from storage.models import (
    Campaign,
    HealthEntry,
    HealthTarget,
    require_change,
)
from wire import limits
from wire.health import (
    HEALTH_OPS,
    DamageKind,
    Health,
    HealthChange,
    Pool,
    change_pool,
    counted_damage,
)
from wire.i18n import N_
from wire.sheet import Character

if TYPE_CHECKING:
    from storage.rules_needs import HealthNeeds as _Needs
else:
    _Needs = object

_LOST_COLUMN = {Pool.HP: "hp_lost", Pool.THP: "thp_lost", Pool.WP: "wp_lost"}


class RuleHealth(_Needs):
    """The health methods of `RuleStore` (see storage/rules.py for the contract)."""

    async def change_health(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        target: HealthTarget,
        op: str,
        amount: int,
        *,
        pool: Pool | None = None,
        kind: DamageKind = DamageKind.LETHAL,
        armour: bool = False,
        by_roll: bool = False,
        attacker_id: int | None = None,
        interaction_id: int | None = None,
    ) -> HealthEntry:
        """Damage, heal or set one pool of a combatant (an NPC copy's own) or a sheet, and log
        it, in one transaction: concurrent blows lose no damage.

        `op`: damage (to the pool of `kind`, or `pool`; less the target's armour if `armour`),
        heal or set (`pool`, default HP). By hand: GMs, or a player for their own character;
        `by_roll`: an attack's damage, which its resolution allows.
        """
        if op not in HEALTH_OPS:
            raise InvalidValue("Unknown health change {op}: use damage, heal or set.", op=repr(op))
        limits.HEALTH.check(amount, N_("The amount"))
        async with self._write(guild_id) as tx:
            campaign: Campaign = await self._campaign_by_id(tx, guild_id, campaign_id)
            name, is_npc, health, soak, owner, fight_id = await self._health_of(
                tx, guild_id, campaign_id, target
            )
            if not by_roll:
                require_change(
                    campaign,
                    actor_id,
                    name=name,
                    player_id=owner,
                    is_npc=is_npc,
                    npc_action=N_("change {name}'s health"),
                )
            after, change = change_pool(
                health, op, amount, pool=pool, kind=kind, armour=soak if armour else 0
            )
            await self._move_pool(tx, target, change.pool, change.before - change.after)
            if target.combatant_id is not None and op == "damage":
                await self._count_damage(tx, fight_id, target.combatant_id, attacker_id, change)
            reason = "attack" if by_roll else op
            [(entry_id, created_at)] = await tx.fetch(
                "insert_health_log",
                {
                    "guild_id": guild_id,
                    "campaign_id": campaign_id,
                    "fight_id": fight_id,
                    "combatant_id": target.combatant_id,
                    "character_id": target.character_id,
                    "attacker_id": attacker_id,
                    "target_name": name,
                    "is_npc": int(is_npc),
                    "pool": str(change.pool),
                    "before": change.before,
                    "after": change.after,
                    "armour": change.armour,
                    "reason": reason,
                    "user_id": int(actor_id),
                    "interaction_id": interaction_id,
                },
            )
            return HealthEntry(
                id=entry_id,
                target_name=name,
                is_npc=is_npc,
                change=change,
                reason=reason,
                user_id=int(actor_id),
                undone=False,
                created_at=_time(created_at),
                maximum=health.maximum(change.pool),
                health=after,
            )

    async def _count_damage(
        self,
        tx: Transaction,
        fight_id: int | None,
        combatant_id: int,
        attacker_id: int | None,
        change: HealthChange,
    ) -> None:
        """A combatant's damage counts in the fight's summary: taken by it, and dealt by its
        attacker (in this fight only)."""
        await tx.execute(
            "combatant_add_taken", {"amount": change.counted, "combatant_id": combatant_id}
        )
        if attacker_id is not None:
            await tx.execute(
                "combatant_add_dealt_in_fight",
                {"amount": change.counted, "combatant_id": attacker_id, "fight_id": fight_id},
            )

    async def _health_of(
        self, tx: Transaction, guild_id: int, campaign_id: int, target: HealthTarget
    ) -> tuple[str, bool, Health, int, int | None, int | None]:
        """(name, is NPC, health, armour, owner, fight id) of a combatant or a sheet."""
        if target.combatant_id is not None:
            rows = await tx.fetch(
                "combatant_fight",
                {
                    "combatant_id": target.combatant_id,
                    "guild_id": guild_id,
                    "campaign_id": campaign_id,
                },
            )
            if not rows:
                raise NotFound("That combatant is not in a running fight here (any more).")
            fight = await self._running(tx, guild_id, rows[0][0])
            member = next(c for c in fight.combatants if c.id == target.combatant_id)
            owner = member.controller_id
            return member.name, member.is_npc, member.health, member.armour, owner, fight.id
        if target.character_id is None:
            raise InvalidValue("Name a combatant or a character.")
        sheet: Character = await self._character_by_id(
            tx, guild_id, campaign_id, target.character_id
        )
        return sheet.name, sheet.is_npc, sheet.health(), sheet.armour, sheet.owner_id, None

    async def _move_pool(
        self, tx: Transaction, target: HealthTarget, pool: Pool, lost: int
    ) -> None:
        """Add `lost` to the pool's damage taken: on the NPC copy, or on the sheet."""
        column = _LOST_COLUMN[pool]
        if target.combatant_id is not None:
            [(is_npc, character_id)] = await tx.fetch(
                "combatant_kind", {"combatant_id": target.combatant_id}
            )
            if is_npc or character_id is None:
                await tx.execute(
                    f"combatants_add_{column}",
                    {"amount": lost, "combatant_id": target.combatant_id},
                )
                return
            target = HealthTarget(character_id=character_id)
        await tx.execute(
            f"characters_add_{column}", {"amount": lost, "character_id": target.character_id}
        )

    async def undo_health(self, guild_id: int, campaign_id: int, actor_id: int) -> HealthEntry:
        """Undo the campaign's last change of health that is not undone yet; GMs only."""
        async with self._write(guild_id) as tx:
            campaign: Campaign = await self._campaign_by_id(tx, guild_id, campaign_id)
            if not campaign.is_gm(actor_id):
                raise campaign.gm_only(N_("undo a change of health"))
            rows = await tx.fetch(
                "last_health_change", {"guild_id": guild_id, "campaign_id": campaign_id}
            )
            if not rows:
                raise NotFound("There is no change of health to undo in this campaign.")
            row = rows[0]
            entry_id, combatant_id, character_id, attacker_id, pool = (
                row[0],
                row[9],
                row[10],
                row[11],
                Pool(row[4]),
            )
            moved = row[5] - row[6]
            counted = counted_damage(row[5], row[6])  # what the damage added to the summary
            if combatant_id is None and character_id is None:
                raise NotFound("The last change of health was to someone no longer here.")
            target = HealthTarget(combatant_id=combatant_id, character_id=character_id)
            await self._move_pool(tx, target, pool, -moved)
            if combatant_id is not None and row[8] in ("attack", "damage"):
                await tx.execute(
                    "combatant_add_taken", {"amount": -counted, "combatant_id": combatant_id}
                )
                if attacker_id is not None:
                    await tx.execute(
                        "combatant_add_dealt", {"amount": -counted, "combatant_id": attacker_id}
                    )
            await tx.execute("health_undone", {"entry_id": entry_id})
            return _health_entry(row, undone=True)

    async def recent_health(
        self, guild_id: int, campaign_id: int, limit: int = 10
    ) -> list[HealthEntry]:
        """Newest first, for /history."""
        if limit <= 0:
            return []
        async with self._read() as tx:
            rows = await tx.fetch(
                "recent_health",
                {"guild_id": guild_id, "campaign_id": campaign_id, "limit": min(limit, 100)},
            )
        return [_health_entry(row) for row in rows]


def _health_entry(row: Sequence[Any], undone: bool | None = None) -> HealthEntry:
    change = HealthChange(Pool(row[4]), row[5], row[6], abs(row[5] - row[6]), row[3])
    return HealthEntry(
        id=row[0],
        target_name=row[1],
        is_npc=bool(row[2]),
        change=change,
        reason=row[8],
        user_id=row[7],
        undone=bool(row[12]) if undone is None else undone,
        created_at=_time(row[13]),
        maximum=0,
    )


def _time(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


__all__ = ["RuleHealth"]
