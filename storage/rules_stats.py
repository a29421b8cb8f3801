"""Roll statistics from the log: a part of `RuleStore` (storage/rules.py), kept in its own module.

The store reads the rolls of a scope (a character, a player, the campaign, a fight, a session, a
time span) as `wire.stats.LoggedRoll`s for the rules core to count. A scope of whole days (all
time, since a date) comes from the roll counts the database keeps as rolls are logged
(storage/migrations/0025_roll_counts.sql; on SQLite only for a campaign whose log has reached
5,000 rolls, 0028_roll_counts_where_they_pay.sql, the others' found empty and read from the
log): a few thousand rows however long the log. A small
scope comes roll by roll, oldest first (the luck line and the CSV need each roll); a span that
cuts a day (tonight, a fight, a session) comes from the log, grouped in SQL when big. Privacy is
in the query (storage/sql/stats.py), the same on the log and the counts: a player's view never
holds a hidden roll of another, an NPC's roll or a GM's roll, not even as a count. A user who
used /privacy forget-me has no rolls, and no counts, left to read. Every statement is scoped to
the guild and the campaign. The chance of each roll is not stored: the log keeps its die, total
and target (the counts its total less die and target), from which wire/stats.py computes it
exactly.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from storage.backend import Params
from storage.rows import utc_text
from wire.stats import LoggedRoll

if TYPE_CHECKING:
    from storage.rules_needs import StatsNeeds as _Needs
else:
    _Needs = object


ROWS_MAX = 5_000
"""Up to this many rolls a scope is read roll by roll (the luck line); beyond, grouped."""
SINCE_SLACK = timedelta(hours=1)
"""How far out of time order a logged roll may be and still be found by `since`."""
LOG_SCAN_MAX = 200_000
"""A scope of whole days is read roll by roll (for its luck line) only while the days' log,
which that read walks, holds at most this many rolls; beyond, from the counts."""
CSV_ROWS_MAX = 50_000
"""The most rolls an export holds (about 4 MB of CSV, under Discord's attachment limit)."""


@dataclass(frozen=True, slots=True)
class StatsScope:
    """Which rolls: every field given narrows them (none: the whole campaign)."""

    user_id: int | None = None
    character_id: int | None = None
    channel_id: int | None = None
    session_id: int | None = None
    since: datetime | None = None
    until: datetime | None = None

    @property
    def first_day(self) -> str | None:
        """The first of the whole days the scope spans to the present ('*': all time), or None
        when it cuts a day, a channel or a session out of them (then only the log can say)."""
        if self.channel_id is not None or self.session_id is not None or self.until is not None:
            return None
        if self.since is None:
            return ALL_TIME
        since = self.since.astimezone(UTC)
        if since != since.replace(hour=0, minute=0, second=0, microsecond=0):
            return None
        return since.date().isoformat()


@dataclass(frozen=True, slots=True)
class StatsRolls:
    """The rolls of a scope as the viewer may see them."""

    rolls: tuple[LoggedRoll, ...]
    grouped: bool
    """True when the rolls came grouped (each with its count), without their order."""
    cut: bool = False
    """True when a roll-by-roll read stopped at its limit (an export)."""
    counted: bool = False
    """True when the rolls came from the counts kept as they were logged, not from the log."""


@dataclass(frozen=True, slots=True)
class FightSpan:
    """Where and when a fight ran: its rolls are the campaign's in that channel meanwhile."""

    name: str
    channel_id: int
    started: datetime
    ended: datetime | None


def _roll(row: Sequence[Any], **more: Any) -> LoggedRoll:
    """The STATS_FIELDS columns (storage/sql/stats.py) as a roll, with `more` of its fields."""
    kind, die, source, total, target, success, degrees = row[:7]
    return LoggedRoll(kind, die, source, total, target, bool(success), degrees, **more)


def _logged(row: Sequence[Any]) -> LoggedRoll:
    damage, created, name, user_id = row[7:11]
    when = datetime.fromisoformat(created)
    return _roll(row, damage=damage, when=when, who=name or str(user_id))


def _counted(row: Sequence[Any]) -> LoggedRoll:
    """A COUNT_FIELDS row (storage/sql/stats.py) with its count and damage, as a roll: its total
    the die plus the edge against a target of 0, which gives the same odds."""
    kind, die, source, edge, settled, success, degrees, count, damage = row
    target = 0 if settled else None
    total = die + edge
    return LoggedRoll(
        kind, die, source, total, target, bool(success), degrees, int(damage), count=int(count)
    )


def _group(row: Sequence[Any]) -> LoggedRoll:
    count, damage = row[7:9]
    return _roll(row, damage=None if damage is None else int(damage), count=int(count))


def _all(
    rows: Sequence[Sequence[Any]], convert: Callable[[Sequence[Any]], LoggedRoll]
) -> tuple[LoggedRoll, ...]:
    return tuple(convert(row) for row in rows)


class RuleStats(_Needs):
    """The statistics methods of `RuleStore`."""

    async def stats_rolls(
        self,
        guild_id: int,
        campaign_id: int,
        scope: StatsScope,
        *,
        viewer_id: int,
        gm: bool,
        limit: int = ROWS_MAX,
        group: bool = True,
    ) -> StatsRolls:
        """The scope's rolls as `viewer_id` may see them (`gm`: everything): roll by roll up
        to `limit`, beyond that grouped (or, with `group` False, cut at `limit`)."""
        params = _params(guild_id, campaign_id, scope, viewer_id=viewer_id, gm=gm)
        first_day = scope.first_day
        if first_day is not None and group:
            days = {**params, "first_day": first_day, "last_day": _last_day(first_day)}
            [(count, walked)] = await self.backend.long_read("stats_counted", days)
            if (count or 0) > limit or (walked or 0) > LOG_SCAN_MAX:
                counted = await self.backend.long_read("stats_counted_groups", days)
                rolls = await asyncio.to_thread(_all, counted, _counted)
                return StatsRolls(rolls, grouped=True, counted=True)
        if scope.since is not None:
            params["first_id"] = await self._first_id_at(guild_id, campaign_id, scope.since)
        if scope.until is not None:
            params["end_id"] = await self._first_id_at(
                guild_id, campaign_id, scope.until + 2 * SINCE_SLACK
            )
        # Both reads may scan the campaign's whole log: off the connections rolls use, and the
        # rows made records in a worker thread, so the event loop (which commits the rolls)
        # never waits on them.
        [(count,)] = await self.backend.long_read("stats_count", {**params, "limit": limit + 1})
        if count <= limit or not group:
            rows = await self.backend.long_read("stats_rolls", {**params, "limit": limit})
            kept = await asyncio.to_thread(_all, rows, _logged)
            return StatsRolls(kept, grouped=False, cut=count > limit)
        groups = await self.backend.long_read("stats_groups", params)
        return StatsRolls(await asyncio.to_thread(_all, groups, _group), grouped=True)

    async def _first_id_at(self, guild_id: int, campaign_id: int, since: datetime) -> int:
        """An id at or below the campaign's first roll logged at `since` (less SINCE_SLACK),
        by binary search on the (campaign_id, id) index: some 25 point reads, where a filter
        on the time alone would read every roll of the campaign. Ids grow with the time of
        logging; a roll logged out of order by more than the slack could be missed."""
        where = {"guild_id": guild_id, "campaign_id": campaign_id}
        [(low, high)] = await self.backend.query("stats_id_range", where)
        if low is None:
            return 0
        bound = utc_text(since - SINCE_SLACK)
        high += 1  # the answer is in [low, high]: high means "none that late"
        while low < high:
            middle = (low + high) // 2
            [(found, created)] = await self.backend.query("stats_roll_at", {**where, "id": middle})
            if created < bound:
                low = found + 1
            else:
                high = middle  # no roll between middle and found: either bound serves
        return low

    async def last_fight(
        self, guild_id: int, campaign_id: int, channel_id: int
    ) -> FightSpan | None:
        """The channel's running fight, else the last one that ended there; None if none."""
        rows = await self.backend.query(
            "stats_fight",
            {"guild_id": guild_id, "campaign_id": campaign_id, "channel_id": channel_id},
        )
        if not rows:
            return None
        channel, started, ended, name = rows[0]
        return FightSpan(
            name,
            channel,
            datetime.fromisoformat(started),
            None if ended is None else datetime.fromisoformat(ended),
        )


def _params(
    guild_id: int, campaign_id: int, scope: StatsScope, *, viewer_id: int, gm: bool
) -> Params:
    return {
        "guild_id": guild_id,
        "campaign_id": campaign_id,
        "user_id": scope.user_id,
        "character_id": scope.character_id,
        "channel_id": scope.channel_id,
        "since": utc_text(scope.since) if scope.since else None,
        "until": utc_text(scope.until) if scope.until else None,
        "viewer_id": viewer_id,
        "gm": int(bool(gm)),
        "first_id": 0,
        "end_id": NO_END,
        "session_id": scope.session_id,
    }


NO_END = 2**62
"""The id bound of a scope without an end: above every id (a bound, not NULL, so that both
ends of the range walk the index)."""
ALL_TIME = "*"
"""The day of the counts that count all time (storage/migrations/0025_roll_counts.sql)."""


def _last_day(first_day: str) -> str:
    """The last day of the counts' run that starts at `first_day`: all time's own, or any."""
    return ALL_TIME if first_day == ALL_TIME else "9999-12-31"
