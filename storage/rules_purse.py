"""Purses: a part of `RuleStore` (storage/rules.py), beside storage/rules_gear.py.

A purse holds a whole number of the campaign's smallest coin and never goes below 0: each change
is one compare-and-set UPDATE from the balance it was read at (and the table's CHECK again), in
the guild's write transaction with the ledger entry it makes. Every change is an entry (who,
when, how much, why), as the CP ledger's; a GM's undo is a new entry naming the one it reverses
(a give's undo reverses both sides). A change made by a press carries the interaction's id, and
one id is written once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from storage import gear_checks as check
from storage.backend import Transaction
from storage.errors import Conflict, InvalidValue, NotFound
from storage.models_gear import (
    LEDGER_SHOWN,
    REASON_MAX,
    Purse,
    PurseChange,
    PurseEntry,
    PurseLedger,
)
from wire.gear import MAX_AMOUNT
from wire.i18n import N_

if TYPE_CHECKING:
    from storage.rules_needs import PurseNeeds as _Needs
else:
    _Needs = object


GM_KINDS = ("grant", "take")
"""Purse changes only a GM makes."""
SIGN = {"pay": -1, "take": -1, "receive": 1, "grant": 1}


class RulePurse(_Needs):
    """The purse methods of `RuleStore`."""

    async def _purse(self, tx: Transaction, campaign_id: int, character_id: int) -> Purse:
        where = {"campaign_id": campaign_id, "character_id": character_id}
        rows = await tx.fetch("purse_of", where)
        return Purse(int(rows[0][0]), int(rows[0][1])) if rows else Purse()

    async def _move_purse(
        self,
        tx: Transaction,
        campaign_id: int,
        actor_id: int,
        access: Any,
        kind: str,
        delta: int,
        reason: str,
        *,
        press_id: int | None = None,
        transfer_id: int | None = None,
        undoes: int | None = None,
    ) -> PurseEntry:
        """Move the purse by `delta` from the balance it has now and write the entry; never
        below 0, never past the most a purse holds, never twice for one press."""
        if press_id is not None:
            where = {"character_id": access.id, "press_id": press_id}
            [(seen,)] = await tx.fetch("purse_press_seen", where)
            if seen:
                raise Conflict("That press was counted already: nothing changed.")
        await tx.execute("purse_ensure", {"character_id": access.id})
        purse = await self._purse(tx, campaign_id, access.id)
        if purse.balance + delta < 0:
            raise InvalidValue("{name} has not that much money: nothing changed.", name=access.name)
        if purse.balance + delta > MAX_AMOUNT:
            raise InvalidValue(
                "{name}'s purse would hold more than the most it holds.", name=access.name
            )
        moved = await tx.execute(
            "purse_move",
            {
                "character_id": access.id,
                "delta": delta,
                "expected": purse.balance,
                "most": MAX_AMOUNT,
            },
        )
        if moved != 1:
            raise Conflict("{name}'s purse changed meanwhile: nothing changed.", name=access.name)
        row = {
            "campaign_id": campaign_id,
            "character_id": access.id,
            "user_id": int(actor_id),
            "kind": kind,
            "amount": delta,
            "reason": reason,
            "transfer_id": transfer_id,
            "undoes": undoes,
            "press_id": press_id,
        }
        [(entry_id,)] = await tx.fetch("purse_insert_entry", row)
        return PurseEntry(
            int(entry_id), access.id, int(actor_id), kind, delta, reason, transfer_id, undoes, ""
        )

    async def _purse_change(
        self, tx: Transaction, guild_id: int, campaign_id: int, access: Any, entry: PurseEntry
    ) -> PurseChange:
        return PurseChange(
            await self._character_by_id(tx, guild_id, campaign_id, access.id),
            await self._purse(tx, campaign_id, access.id),
            entry,
            (await self._gear_settings(tx, campaign_id)).currency,
        )

    async def change_purse(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        character: str | int,
        kind: str,
        amount: int,
        reason: str = "",
        *,
        press_id: int | None = None,
    ) -> PurseChange:
        """Pay (less) or receive (more): the character's player or a GM; grant (more) or take
        (less): GMs only. Each change is a ledger entry."""
        if kind not in SIGN:
            raise InvalidValue("Unknown purse change {kind}.", kind=repr(kind))
        check.amount(amount)
        reason = check.clean_text(reason, REASON_MAX, check.REASON_PROBLEM)
        async with self._write(guild_id) as tx:
            access = await self._gear_access(tx, guild_id, campaign_id, actor_id, character)
            if kind in GM_KINDS and not access.actor_is_gm:
                raise access.campaign.gm_only(N_("grant or take money"))
            entry = await self._move_purse(
                tx,
                campaign_id,
                actor_id,
                access,
                kind,
                SIGN[kind] * amount,
                reason,
                press_id=press_id,
            )
            return await self._purse_change(tx, guild_id, campaign_id, access, entry)

    async def purse_ledger(
        self, guild_id: int, campaign_id: int, actor_id: int, character: str | int, page: int = 0
    ) -> PurseLedger:
        """One page of the purse's entries (0: the newest; past the last: the last)."""
        async with self._read() as tx:
            access = await self._gear_access(tx, guild_id, campaign_id, actor_id, character)
            where = {"campaign_id": campaign_id, "character_id": access.id}
            [(count,)] = await tx.fetch("purse_entry_count", where)
            page = min(max(0, page), max(0, (int(count) - 1) // LEDGER_SHOWN))
            window = {**where, "limit": LEDGER_SHOWN, "offset": page * LEDGER_SHOWN}
            rows = await tx.fetch("purse_entries_page", window)
            undone = frozenset(int(r[0]) for r in await tx.fetch("purse_undone_ids", where))
            return PurseLedger(
                await self._character_by_id(tx, guild_id, campaign_id, access.id),
                tuple(check.entry_of(r) for r in rows),
                await self._purse(tx, campaign_id, access.id),
                undone,
                page,
                int(count),
                (await self._gear_settings(tx, campaign_id)).currency,
            )

    async def undo_purse(
        self, guild_id: int, campaign_id: int, actor_id: int, character: str | int
    ) -> PurseChange:
        """Reverse the purse's last entry not undone yet (a give: both sides); GMs only. The
        undo is an entry of its own; refused when the money is gone already."""
        async with self._write(guild_id) as tx:
            await self._require_gm(tx, guild_id, campaign_id, actor_id, N_("undo purse entries"))
            access = await self._access(tx, guild_id, campaign_id, actor_id, character)
            where = {"campaign_id": campaign_id, "character_id": access.id}
            rows = await tx.fetch("purse_last_open_entry", where)
            if not rows:
                raise NotFound("{name}'s purse has no entry left to undo.", name=access.name)
            last = check.entry_of(rows[0])
            undone = await self._undo_entry(tx, campaign_id, actor_id, access, last)
            if last.transfer_id is not None:
                partners = {
                    "campaign_id": campaign_id,
                    "transfer_id": last.transfer_id,
                    "entry_id": last.id,
                }
                for row in await tx.fetch("purse_transfer_entries", partners):
                    other = check.entry_of(row)
                    side = await self._access(
                        tx, guild_id, campaign_id, actor_id, other.character_id
                    )
                    await self._undo_entry(tx, campaign_id, actor_id, side, other)
            return await self._purse_change(tx, guild_id, campaign_id, access, undone)

    async def _undo_entry(
        self, tx: Transaction, campaign_id: int, actor_id: int, access: Any, entry: PurseEntry
    ) -> PurseEntry:
        return await self._move_purse(
            tx, campaign_id, actor_id, access, "undo", -entry.amount, entry.reason, undoes=entry.id
        )

    # ---- export --------------------------------------------------------------------------
    async def _campaign_purses(self, tx: Transaction, campaign_id: int) -> dict[int, Purse]:
        rows = await tx.fetch("purses_of_campaign", {"campaign_id": campaign_id})
        return {int(cid): Purse(int(balance), int(rev)) for cid, balance, rev in rows}
