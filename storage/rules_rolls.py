"""The roll log and pending actions: a part of `RuleStore` (storage/rules.py), kept in its own
module.

Rolls are logged in group commits (one transaction for the rolls that arrive together), keyed by
the interaction so a retried answer logs once; a pending action (an attack waiting for its
defence) is claimed at most once.
"""

from __future__ import annotations

import asyncio
import statistics
from datetime import datetime
from typing import TYPE_CHECKING, Any

from storage.backend import BUSY, Params
from storage.errors import InvalidValue, NotFound, StorageError
from storage.models import (
    PendingAction,
    PrunedRolls,
    RollRecord,
    RollState,
    SettledAttack,
    Shards,
)
from storage.rows import json_text, pending_from_row, roll_from_row, roll_params, utc_text
from storage.rules_common import (
    CAMPAIGN_GONE,
    LOGGED_ELSEWHERE,
    QueuedRoll,
    like_pattern,
    sweep_query,
)

if TYPE_CHECKING:
    from collections import Counter

    from storage.rules_needs import RollsNeeds as _Needs
else:
    _Needs = object


MAX_INTEGER = 2**63 - 1
"""The largest id either database stores (a signed 64-bit integer)."""


RECENT_ROLLS_MAX = 100

# ---- messages -------------------------------------------------------------------------------


NPCS_IN_PLAY_WINDOW = 500
"""How many of the newest public rolls `npcs_in_play` looks through."""


class RuleRolls(_Needs):
    """The roll-log and pending-action methods of `RuleStore`."""

    # Its group commit's state, set by RuleStore.__init__.
    _closed: bool
    _roll_flusher: asyncio.Task[None] | None
    _roll_queue: list[QueuedRoll]
    roll_batch_sizes: Counter[int]

    async def log_roll(self, record: RollRecord) -> int:
        """Queue the row for the next group commit and wait for that commit.

        One commit per roll made every roll wait in line for the lock and a commit of its own;
        rows that queue while a commit runs share the next one instead. No timer: an idle store
        commits a lone row at once, so batching costs no latency.
        """
        if self._closed:
            raise StorageError("The database is closed.")
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._roll_queue.append(QueuedRoll(record, roll_params(record), future))
        if self._roll_flusher is None or self._roll_flusher.done():
            self._roll_flusher = asyncio.create_task(self._flush_rolls())
        return await future

    def roll_batch_summary(self) -> str:
        """Batch sizes as "N commits, rows min/median/max a/b/c", for the log and the bench."""
        sizes = sorted(self.roll_batch_sizes.elements())
        if not sizes:
            return "no commits"
        return (
            f"{len(sizes)} commits of {sum(sizes)} rows, rows per commit "
            f"min/median/max {sizes[0]}/{statistics.median(sizes):g}/{sizes[-1]}"
        )

    async def _flush_rolls(self) -> None:
        """Commit what queued, then what queued meanwhile, until nothing is left.

        The backend commits a batch in one transaction, or, if that fails, each row alone, so
        one bad row fails only itself.
        """
        while self._roll_queue:
            batch, self._roll_queue = self._roll_queue, []
            self.roll_batch_sizes[len(batch)] += 1
            try:
                inserted = await self.backend.insert_rolls([queued.params for queued in batch])
                outcomes: list[int | Exception | StorageError] = [
                    await self._not_inserted(queued.record) if outcome is None else outcome
                    for queued, outcome in zip(batch, inserted, strict=True)
                ]
            except BaseException as exc:  # cancelled: nobody may wait forever
                for queued in batch + self._roll_queue:
                    if not queued.future.done():
                        queued.future.set_exception(
                            exc if isinstance(exc, Exception) else StorageError(BUSY)
                        )
                self._roll_queue = []
                raise
            for queued, outcome in zip(batch, outcomes, strict=True):
                if queued.future.done():  # its caller was cancelled; the row stands
                    continue
                if isinstance(outcome, BaseException):
                    queued.future.set_exception(outcome)
                else:
                    queued.future.set_result(outcome)

    async def _not_inserted(self, record: RollRecord) -> int | StorageError:
        """Why a row inserted nothing: logged already (its id back: the same interaction
        again), logged for another roll (InvalidValue), or its campaign is not in its guild."""
        if record.interaction_id is not None:
            rows = await self.backend.query(
                "roll_of_interaction_anywhere", {"interaction_id": record.interaction_id}
            )
            if rows:
                roll_id, guild_id, campaign_id = rows[0]
                if (guild_id, campaign_id) != (record.guild_id, record.campaign_id):
                    return InvalidValue(LOGGED_ELSEWHERE)
                return roll_id
        return NotFound(CAMPAIGN_GONE)

    async def get_roll(self, guild_id: int, roll_id: int) -> RollRecord | None:
        """One logged roll by id (a Roll again button names it); None in another guild."""
        if not 0 < roll_id <= MAX_INTEGER:
            return None
        rows = await self.backend.query("roll_by_id", {"roll_id": roll_id, "guild_id": guild_id})
        return roll_from_row(rows[0]) if rows else None

    async def roll_of_interaction(self, guild_id: int, interaction_id: int) -> int | None:
        """The id of the roll an interaction logged, if any."""
        rows = await self.backend.query(
            "roll_of_interaction", {"interaction_id": interaction_id, "guild_id": guild_id}
        )
        return rows[0][0] if rows else None

    async def npcs_in_play(
        self, guild_id: int, campaign_id: int, prefix: str = "", *, limit: int = 25
    ) -> list[str]:
        """Names of the campaign's NPCs that rolled in public lately (what the players have
        seen), matching `prefix` anywhere; for players' target autocomplete."""
        if limit <= 0:
            return []
        rows = await self.backend.query(
            "npcs_in_play",
            {
                "guild_id": guild_id,
                "campaign_id": campaign_id,
                "pattern": like_pattern(prefix),
                "window": NPCS_IN_PLAY_WINDOW,
                "limit": min(limit, 1000),
            },
        )
        return [row[0] for row in rows]

    async def recent_rolls(
        self,
        guild_id: int,
        campaign_id: int,
        *,
        user_id: int | None = None,
        limit: int = 10,
        include_hidden: bool = False,
        session_id: int | None = None,
    ) -> list[RollRecord]:
        """Newest first; with `session_id`, that session's only."""
        if limit <= 0:
            return []
        params: Params = {
            "campaign_id": campaign_id,
            "guild_id": guild_id,
            "include_hidden": int(bool(include_hidden)),
            "limit": min(limit, RECENT_ROLLS_MAX),
        }
        name = "recent_rolls"
        if session_id is not None:
            name, params["session_id"] = "recent_rolls_of_session", int(session_id)
        if user_id is not None:
            name, params["user_id"] = f"{name}_of_user", int(user_id)
        return [roll_from_row(row) for row in await self.backend.query(name, params)]

    async def delete_old_rolls(
        self, before: datetime, *, after_id: int = 0, batch: int = 500
    ) -> PrunedRolls:
        """One short batch of the retention job: of the `batch` oldest rows after `after_id`,
        delete those logged before `before`, in one statement (the writer is held for that
        statement only)."""
        rows = await self.backend.query(
            "delete_old_rolls",
            {"after_id": after_id, "batch": batch, "before": utc_text(before)},
            write=True,
        )
        return PrunedRolls(len(rows), max((row[0] for row in rows), default=None))

    async def create_pending(
        self,
        guild_id: int,
        campaign_id: int,
        kind: str,
        payload: dict[str, Any],
        expires_at: datetime,
    ) -> PendingAction:
        text = json_text(payload, "action's data")
        rows = await self.backend.query(
            "insert_pending",
            {
                "kind": kind,
                "payload": text,
                "expires_at": utc_text(expires_at),
                "campaign_id": campaign_id,
                "guild_id": guild_id,
            },
            write=True,
        )
        if not rows:
            raise NotFound(CAMPAIGN_GONE)
        return pending_from_row(
            (rows[0][0], guild_id, campaign_id, kind, text, utc_text(expires_at), None, None)
        )

    async def set_pending_message(
        self, guild_id: int, pending_id: int, channel_id: int, message_id: int
    ) -> None:
        # Nothing to do if it was already claimed (a press can beat this call).
        """Remember where the buttons were posted, so an expiry note can edit that message."""
        await self.backend.query(
            "set_pending_message",
            {
                "channel_id": channel_id,
                "message_id": message_id,
                "pending_id": pending_id,
                "guild_id": guild_id,
            },
            write=True,
        )

    async def get_pending(self, guild_id: int, pending_id: int) -> PendingAction | None:
        """Read without claiming (to check who may press and whether it expired)."""
        rows = await self.backend.query(
            "pending_by_id", {"pending_id": pending_id, "guild_id": guild_id}
        )
        return pending_from_row(rows[0]) if rows else None

    async def claim_pending(self, guild_id: int, pending_id: int) -> bool:
        # One DELETE: of two presses (in this process or another) exactly one gets the row.
        """Remove it; True only for the one caller that removed it (a press wins once)."""
        rows = await self.backend.query(
            "claim_pending", {"pending_id": pending_id, "guild_id": guild_id}, write=True
        )
        return bool(rows)

    async def settle_pending(
        self,
        guild_id: int,
        pending_id: int,
        outcome: RollState,
        record: RollRecord | None = None,
        attack: SettledAttack | None = None,
    ) -> bool:
        """Claim the action, log `record` (the roll that settles it, if any) and mark the rolls
        that waited on it `outcome` (with `attack`, also their result against the defender's
        total, which gives them their odds), all in one transaction; False if it was claimed
        already.

        One transaction, so a defence is never logged without its attack being settled, nor the
        other way round, and of two presses exactly one settles it.
        """
        params = None if record is None else roll_params(record)
        where = {"pending_id": pending_id, "guild_id": guild_id}
        async with self._write(guild_id) as tx:
            if not await tx.fetch("claim_pending", where):
                return False
            if params is not None and not await tx.fetch("insert_roll", params):
                raise InvalidValue(LOGGED_ELSEWHERE)
            await tx.execute("settle_waiting_rolls", {**where, "state": str(outcome)})
            if attack is not None:
                await tx.execute("settle_waiting_attack", {**where, **_attack_params(attack)})
            return True

    async def expired_pending(
        self, now: datetime, limit: int = 50, shards: Shards | None = None
    ) -> list[PendingAction]:
        """Actions whose time ran out, across guilds, oldest first (for the expiry sweeper);
        with `shards`, only in the guilds of those shards (a process sweeps its own)."""
        if limit <= 0:
            return []
        rows = await self.backend.query(*sweep_query("expired_pending", now, limit, shards))
        return [pending_from_row(row) for row in rows]


def _attack_params(attack: SettledAttack) -> Params:
    return {
        "target": attack.target,
        "success": int(attack.success),
        "degrees": attack.degrees,
        "raw_degrees": attack.raw_degrees,
    }
