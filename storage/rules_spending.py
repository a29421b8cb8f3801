"""Character points, spending: the price of a raise as `/character improve` shows it, the
spend that pays it, and the requests a GM approves when the table asks for approval. A part of
`RuleStore` (storage/rules.py), kept in its own module.

A spend and the sheet change it pays for are committed together or not at all, and two
improvements racing for the same CP cannot both see it unspent (one write transaction each).
The price is `wire.pricing.price_step`'s; here is what is kept: the totals, the ledger's entry,
the waiting requests.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from storage.backend import Row, Transaction
from storage.errors import (
    Conflict,
    InvalidValue,
    NotFound,
    StorageError,
)
from storage.models import Shards
from storage.models_advancement import (
    MAX_WAITING,
    REQUEST_DAYS,
    Improvement,
    LedgerEntry,
    Quote,
    Request,
)
from storage.rows import utc_text
from storage.rules_advancement import REQUEST_LIFE
from storage.rules_common import sweep_query
from storage.rules_ledger import require_stat_room
from storage.validation import check_kind, clean_name
from wire.errors import RulesError
from wire.i18n import N_
from wire.pricing import price_step, stat_on
from wire.sheet import Character

if TYPE_CHECKING:
    from storage.rules_needs import SpendingNeeds as _Needs
else:
    _Needs = object


Ask = tuple[Transaction, int, int, int, str | int, str, str]
"""A price asked for: the transaction, guild, campaign, actor, character, kind and stat."""


def _request(row: Row) -> Request:
    return Request(*row)


class RuleSpending(_Needs):
    """The CP spending and request methods of `RuleStore`."""

    # ---- spending --------------------------------------------------------------------------
    async def _quote(
        self,
        tx: Transaction,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        character: str | int,
        kind: str,
        stat: str,
        to_level: int | None,
    ) -> tuple[Quote, bool]:
        check_kind(kind)
        stat = clean_name(stat, kind)
        access = await self._access(tx, guild_id, campaign_id, actor_id, character)
        access.require_change(actor_id, N_("improve NPCs"))
        sheet = await self._character_by_id(tx, guild_id, campaign_id, access.id)
        advancement = await self._advancement(tx, campaign_id)
        step = price_step(
            sheet, kind, stat, to_level, advancement.categories, advancement.attribute_price
        )
        name = step.name
        if step.new:
            await require_stat_room(tx, sheet, kind, name)
        if advancement.approval and not access.actor_is_gm:
            await self._require_room_to_wait(tx, campaign_id, sheet, kind, name)
        totals = await self._totals(tx, campaign_id, sheet.id)
        quote = Quote(
            sheet,
            kind,
            name,
            step.before,
            step.after,
            step.cost,
            step.category,
            totals,
            advancement.approval,
        )
        return quote, access.actor_is_gm

    async def _require_room_to_wait(
        self, tx: Transaction, campaign_id: int, sheet: Character, kind: str, stat: str
    ) -> None:
        """Each request posts a message for the GMs: one waits per stat, and at most
        MAX_WAITING per character, so a player's CP cannot flood the GM channel."""
        rows = await tx.fetch(
            "cp_waiting_stats",
            {"campaign_id": campaign_id, "character_id": sheet.id, "now": utc_text()},
        )
        if any(k == kind and n.casefold() == stat.casefold() for k, n in rows):
            raise Conflict(
                "{name}'s {stat} already waits for a GM's decision: ask again once a GM has "
                "decided it (or after {days} days, when it closes).",
                name=sheet.name,
                stat=stat,
                days=REQUEST_DAYS,
            )
        if len(rows) >= MAX_WAITING:
            raise Conflict(
                "{name} has {limit} improvements waiting for a GM, the most at once: ask again "
                "once a GM has decided one.",
                name=sheet.name,
                limit=MAX_WAITING,
            )

    async def quote_improvement(
        self, guild_id: int, campaign_id: int, actor_id: int, *ask: Any, **options: Any
    ) -> Quote:
        """The price of raising `stat` by one level (or to `to_level`), before it is paid:
        `improve`'s own pricing, in a read transaction, paying nothing."""
        done = await self.improve(guild_id, campaign_id, actor_id, *ask, quote_only=True, **options)
        return done.quote

    async def improve(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        character: str | int,
        stat: str,
        to_level: int | None = None,
        kind: str = "skill",
        *,
        expected_cost: int | None = None,
        expected_before: int | None = None,
        quote_only: bool = False,
        now: datetime | None = None,
        asked_in: tuple[int, str] | None = None,
    ) -> Improvement:
        """Spend CP and raise the stat in one transaction, or (with approval on, for a player)
        file a request that holds the CP until a GM decides. `expected_cost`: the price the
        user confirmed, from `expected_before`; a different one now (the sheet or the categories
        changed) refuses, saying the price is out of date and what the next step costs now.
        `quote_only`: only the price (`quote_improvement`), read without taking the write lock.
        A request expires REQUEST_DAYS after `now` (the bot's clock; default the real one);
        `asked_in`: the channel and language the player asked in, where the answer goes."""
        async with self._read() if quote_only else self._write(guild_id) as tx:
            ask: Ask = (tx, guild_id, campaign_id, actor_id, character, kind, stat)
            if expected_before is not None:
                await self._require_fresh(ask, expected_before)
            quote, gm = await self._quote(*ask, to_level)
            if quote_only:
                return Improvement(quote, quote.character)
            if expected_cost is not None and quote.cost != expected_cost:
                raise Conflict(
                    "The price changed to {cost} CP since it was shown; ask again.",
                    cost=quote.cost,
                )
            _require_affordable(quote)
            sheet_id = quote.character.id
            if quote.approval and not gm:
                [(request_id,)] = await tx.fetch(
                    "cp_insert_request",
                    {
                        "campaign_id": campaign_id,
                        "character_id": sheet_id,
                        "user_id": int(actor_id),
                        "stat_kind": kind,
                        "stat_name": quote.stat_name,
                        "level_before": quote.before,
                        "level_after": quote.after,
                        "cost": quote.cost,
                        "expires_at": utc_text((now or datetime.now(UTC)) + REQUEST_LIFE),
                        "asked_channel_id": int(asked_in[0]) if asked_in else None,
                        "asked_language": asked_in[1] if asked_in else None,
                    },
                )
                return Improvement(quote, quote.character, request_id=request_id)
            entry = await self._spend(tx, campaign_id, actor_id, quote)
            sheet = await self._character_by_id(tx, guild_id, campaign_id, sheet_id)
            return Improvement(quote, sheet, entry=entry)

    async def _require_fresh(self, ask: Ask, expected_before: int) -> None:
        """A Spend pressed after the stat moved (another Spend, a GM's correction): the price
        it showed is out of date; say so, with what the next step costs now."""
        tx, guild_id, campaign_id, actor, character, kind, stat = ask
        access = await self._access(tx, guild_id, campaign_id, actor, character)
        sheet = await self._character_by_id(tx, guild_id, campaign_id, access.id)
        found = stat_on(sheet, kind, stat)
        level = found[1] if found else 0
        if level == expected_before:
            return
        try:
            fresh, _gm = await self._quote(*ask, None)
        except (RulesError, StorageError) as exc:
            raise Conflict(
                "That price is out of date: {stat} is at {level} now. {problem}",
                stat=found[0] if found else stat,
                level=level,
                problem=str(exc),
            ) from None
        raise Conflict(
            "That price is out of date: {stat} is at {level} now, and {level} → {after} costs "
            "{cost} CP. Ask again with /character improve.",
            stat=fresh.stat_name,
            level=fresh.before,
            after=fresh.after,
            cost=fresh.cost,
        )

    async def _spend(
        self, tx: Transaction, campaign_id: int, actor_id: int, quote: Quote
    ) -> LedgerEntry:
        await self._write_stats(
            tx, quote.character.id, quote.stat_kind, {quote.stat_name: quote.after}
        )
        return await self._add_entry(
            tx,
            campaign_id=campaign_id,
            character_id=quote.character.id,
            user_id=int(actor_id),
            kind="spend",
            amount=-quote.cost,
            stat_kind=quote.stat_kind,
            stat_name=quote.stat_name,
            level_before=quote.before,
            level_after=quote.after,
        )

    async def get_cp_request(self, guild_id: int, request_id: int) -> Request | None:
        async with self._read() as tx:
            rows = await tx.fetch("cp_request", {"request_id": request_id, "guild_id": guild_id})
            return _request(rows[0]) if rows else None

    async def cp_request_posted(
        self, guild_id: int, request_id: int, channel_id: int, message_id: int, language: str
    ) -> None:
        """Note where a request's message for the GMs went, and its language (for the sweep)."""
        async with self._write(guild_id) as tx:
            await tx.execute(
                "cp_request_posted",
                {
                    "request_id": request_id,
                    "guild_id": guild_id,
                    "channel_id": int(channel_id),
                    "message_id": int(message_id),
                    "language": language,
                },
            )

    async def expired_cp_requests(
        self, now: datetime, limit: int = 50, shards: Shards | None = None
    ) -> list[tuple[int, Request]]:
        """Waiting requests past their expiry whose message is known, across guilds, oldest
        first, each with its guild's id (for the expiry sweep); with `shards`, only in the
        guilds of those shards (a process sweeps its own)."""
        if limit <= 0:
            return []
        rows = await self.backend.query(*sweep_query("expired_cp_requests", now, limit, shards))
        return [(int(row[0]), _request(row[1:])) for row in rows]

    async def sweep_cp_request(self, guild_id: int, request_id: int, now: datetime) -> bool:
        """Close a waiting request past its expiry (nothing spent); False when a press decided
        or closed it first, so its message is edited once."""
        async with self._write(guild_id) as tx:
            rows = await tx.fetch(
                "cp_sweep_request",
                {"request_id": request_id, "guild_id": guild_id, "now": utc_text(now)},
            )
            return bool(rows)

    async def decide_cp_request(
        self,
        guild_id: int,
        request_id: int,
        actor_id: int,
        approve: bool,
        *,
        now: datetime | None = None,
    ) -> tuple[Request, Improvement | None]:
        """Approve (spend and raise, if the sheet and the CP still allow it) or refuse a
        waiting improvement; GMs only, and once. One past its expiry is closed instead (state
        expired, nothing spent), whichever button was pressed."""
        async with self._write(guild_id) as tx:
            rows = await tx.fetch("cp_request", {"request_id": request_id, "guild_id": guild_id})
            if not rows:
                raise NotFound("That improvement request is gone.")
            request = _request(rows[0])
            await self._require_gm(
                tx, guild_id, request.campaign_id, actor_id, N_("decide improvements")
            )
            if request.expired(utc_text(now)):
                await tx.execute("cp_expire_request", {"request_id": request_id})
                rows = await tx.fetch(
                    "cp_request", {"request_id": request_id, "guild_id": guild_id}
                )
                return _request(rows[0]), None
            if request.state != "waiting":
                raise Conflict("That improvement was {state} already.", state=request.state)
            await tx.execute(
                "cp_decide_request",
                {
                    "state": "approved" if approve else "refused",
                    "user_id": int(actor_id),
                    "request_id": request_id,
                },
            )
            improvement = await self._approve(tx, guild_id, actor_id, request) if approve else None
            rows = await tx.fetch("cp_request", {"request_id": request_id, "guild_id": guild_id})
            return _request(rows[0]), improvement

    async def _approve(
        self, tx: Transaction, guild_id: int, actor_id: int, request: Request
    ) -> Improvement:
        """An approved request's spend, priced again now: the sheet, the categories or the CP
        may have moved meanwhile. Conflict if the stat moved; the player's CP pay."""
        quote, _gm = await self._quote(
            tx,
            guild_id,
            request.campaign_id,
            actor_id,
            request.character_id,
            request.stat_kind,
            request.stat_name,
            request.level_after,
        )
        if quote.before != request.level_before:
            raise Conflict(
                "{stat} is at {now} now, not {before}: refuse this one and ask again.",
                stat=request.stat_name,
                now=quote.before,
                before=request.level_before,
            )
        _require_affordable(quote)
        entry = await self._spend(tx, request.campaign_id, request.user_id, quote)
        sheet = await self._character_by_id(tx, guild_id, request.campaign_id, request.character_id)
        return Improvement(quote, sheet, entry=entry)


def _require_affordable(quote: Quote) -> None:
    if not quote.affordable:
        raise InvalidValue(
            "{stat} {before} -> {after} costs {cost} CP; {name} has {available} CP to spend, "
            "{missing} CP short.",
            stat=quote.stat_name,
            before=quote.before,
            after=quote.after,
            cost=quote.cost,
            name=quote.character.name,
            available=quote.totals.available,
            missing=quote.missing,
        )
