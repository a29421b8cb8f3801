"""Sessions: a part of `RuleStore` (storage/rules.py), kept in its own module.

A session is a campaign's planned evening: its title, start (UTC), expected length, channel and
Discord scheduled event, its state (planned, running, ended, cancelled), who answered what, and
the start its reminder and its day-before ping were sent for. The GMs plan, move, cancel, start
and end; anyone in the server answers. While a session runs, the database itself marks the rolls,
fights and CP entries of its campaign as the session's (the triggers of migration 0023 / 0017),
so a recap and `/history session:` find them. When a reminder is due is the rules core's
(wire/sessions.py); claiming one is a compare-and-set here, so it is sent once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from storage.errors import Conflict, InvalidValue, NotFound
from storage.models import Shards
from storage.models_advancement import Totals
from storage.rows import utc_text
from storage.rules_common import first_row, sweep_query
from storage.validation import Problem, clean_name
from wire.i18n import N_
from wire.sessions import (
    LEAD_MAX_MINUTES,
    LENGTH_MAX_MINUTES,
    NUDGE_AHEAD,
    Answer,
    Given,
    State,
    Timing,
    after_interest,
    lead_of,
    zone,
)
from wire.sheet import Character

if TYPE_CHECKING:
    from storage.rules_needs import SessionsNeeds as _Needs
else:
    _Needs = object


SESSION_GONE = N_(
    "That session does not exist in this server (any more). /session list shows them."
)
STATE_WORDS = {
    State.PLANNED: N_("planned"),
    State.RUNNING: N_("running"),
    State.ENDED: N_("over"),
    State.CANCELLED: N_("cancelled"),
}
"""A state as a refusal names it, read in the reader's language."""
LIST_MAX = 10
"""Sessions `/session list` shows at most (newest first)."""


@dataclass(frozen=True, slots=True)
class Session:
    id: int
    campaign_id: int
    guild_id: int
    title: str
    start: datetime
    minutes: int
    channel_id: int
    event_id: int | None
    state: State
    reminded_for: datetime | None
    nudged_for: datetime | None
    started_at: datetime | None
    ended_at: datetime | None
    thread_id: int | None
    recap: str | None
    created_by: int
    awarded_at: datetime | None = None

    @property
    def timing(self) -> Timing:
        return Timing(self.start, self.state, self.reminded_for, self.nudged_for)


@dataclass(frozen=True, slots=True)
class SessionSettings:
    zone: str | None = None
    lead_minutes: int | None = None
    nudge: bool = False


@dataclass(frozen=True, slots=True)
class DueSession:
    """A planned session the sweep looks at, with its campaign's reminder settings."""

    session: Session
    settings: SessionSettings


@dataclass(frozen=True, slots=True)
class SessionRoll:
    user_id: int
    character_name: str | None
    kind: str
    total: int | None
    target: int | None
    success: bool | None
    degrees: int | None
    damage: int | None
    id: int
    character_id: int | None
    is_npc: bool
    die: int | None = None
    die_source: str | None = None


@dataclass(frozen=True, slots=True)
class SessionCondition:
    """A shown condition put on in one of the session's fights: its bearer, and whether it
    ended (run out or cured) before the fight did."""

    fight_id: int
    bearer: str
    name: str
    ended: bool


@dataclass(frozen=True, slots=True)
class Player:
    """A player character who played in a session, and its owner."""

    character_id: int
    name: str
    owner_id: int


@dataclass(frozen=True, slots=True)
class SessionContent:
    """What a session holds for its recap: its public rolls, its fights' ids, CP requests, and
    the player characters who played (a public roll or a place in a fight)."""

    rolls: list[SessionRoll]
    fight_ids: list[int]
    cp_requests: int
    players: list[Player]
    conditions: list[SessionCondition] = field(default_factory=list)
    downings: list[tuple[int, str]] = field(default_factory=list)
    """(fight id, who) of each blow that put someone down, in order (undone ones not)."""


def _moment(text: Any) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def _session(row: Sequence[Any]) -> Session:
    start = _moment(row[4])
    assert start is not None
    return Session(
        id=int(row[0]),
        campaign_id=int(row[1]),
        guild_id=int(row[2]),
        title=row[3],
        start=start,
        minutes=int(row[5]),
        channel_id=int(row[6]),
        event_id=None if row[7] is None else int(row[7]),
        state=State(row[8]),
        reminded_for=_moment(row[9]),
        nudged_for=_moment(row[10]),
        started_at=_moment(row[11]),
        ended_at=_moment(row[12]),
        thread_id=None if row[13] is None else int(row[13]),
        recap=row[14],
        created_by=int(row[15]),
        awarded_at=_moment(row[16]),
    )


def _settings(row: Sequence[Any] | None) -> SessionSettings:
    if row is None:
        return SessionSettings()
    return SessionSettings(row[0], None if row[1] is None else int(row[1]), bool(row[2]))


def _length(minutes: int) -> int:
    if not 0 < minutes <= LENGTH_MAX_MINUTES:
        raise InvalidValue(
            "A session lasts 1 to {most} minutes, not {minutes}.",
            most=LENGTH_MAX_MINUTES,
            minutes=minutes,
        )
    return minutes


class RuleSessions(_Needs):
    """The session methods of `RuleStore`."""

    # ---- reading ---------------------------------------------------------------------------
    async def get_session(self, guild_id: int, session_id: int) -> Session:
        """The session of this guild with that id; NotFound otherwise."""
        async with self._read() as tx:
            return await self._session(tx, guild_id, session_id)

    async def _session(self, tx: Any, guild_id: int, session_id: int) -> Session:
        row = await first_row(tx, "session_by_id", {"guild_id": guild_id, "session_id": session_id})
        if row is None:
            raise NotFound(SESSION_GONE)
        return _session(row)

    async def session_by_event(self, guild_id: int, event_id: int) -> Session | None:
        """The session whose Discord scheduled event this is, if any."""
        async with self._read() as tx:
            row = await first_row(
                tx, "session_by_event", {"guild_id": guild_id, "event_id": int(event_id)}
            )
        return None if row is None else _session(row)

    async def sessions_in(
        self, guild_id: int, campaign_id: int, states: tuple[State, State], limit: int = LIST_MAX
    ) -> list[Session]:
        """The campaign's sessions in either state, latest start first."""
        params = {
            "guild_id": guild_id,
            "campaign_id": campaign_id,
            "state_a": states[0].value,
            "state_b": states[1].value,
            "limit": limit,
        }
        async with self._read() as tx:
            return [_session(row) for row in await tx.fetch("sessions_in_states", params)]

    async def session_answers(self, guild_id: int, session_id: int) -> dict[int, Answer]:
        """Who answered what, in the order they answered."""
        async with self._read() as tx:
            rows = await tx.fetch(
                "session_answers", {"guild_id": guild_id, "session_id": session_id}
            )
        return {int(row[0]): Answer(row[1]) for row in rows}

    async def campaign_player_ids(self, guild_id: int, campaign_id: int) -> list[int]:
        """The users who own a player character of the campaign (its players)."""
        async with self._read() as tx:
            rows = await tx.fetch(
                "campaign_player_ids", {"guild_id": guild_id, "campaign_id": campaign_id}
            )
        return [int(row[0]) for row in rows]

    async def session_settings(self, guild_id: int, campaign_id: int) -> SessionSettings:
        async with self._read() as tx:
            await self._campaign_by_id(tx, guild_id, campaign_id)
            return _settings(await first_row(tx, "session_settings", {"campaign_id": campaign_id}))

    async def session_content(self, guild_id: int, session: Session) -> SessionContent:
        """The session's public rolls (never a hidden one), its fights, their shown conditions
        and its CP requests."""
        where = {"guild_id": guild_id, "session_id": session.id}
        async with self._read() as tx:
            rolls = [
                SessionRoll(
                    int(r[0]),
                    r[1],
                    r[2],
                    r[3],
                    r[4],
                    None if r[5] is None else bool(r[5]),
                    r[6],
                    r[7],
                    int(r[8]),
                    None if r[9] is None else int(r[9]),
                    bool(r[10]),
                    None if r[11] is None else int(r[11]),
                    r[12],
                )
                for r in await tx.fetch("session_rolls", where)
            ]
            fights = [int(r[0]) for r in await tx.fetch("session_fights", where)]
            conditions = [
                SessionCondition(int(r[0]), r[1], r[2], r[3] is not None)
                for r in await tx.fetch("session_conditions", where)
            ]
            downings = [(int(r[0]), r[1]) for r in await tx.fetch("session_downings", where)]
            players = await self._players(tx, guild_id, session)
            row = await first_row(
                tx,
                "session_cp_requests",
                {
                    "campaign_id": session.campaign_id,
                    "since": utc_text(session.started_at or session.start),
                    "until": utc_text(session.ended_at) if session.ended_at else "9999",
                },
            )
        cp_requests = int(row[0]) if row else 0
        return SessionContent(rolls, fights, cp_requests, players, conditions, downings)

    async def _players(self, tx: Any, guild_id: int, session: Session) -> list[Player]:
        params = {
            "guild_id": guild_id,
            "campaign_id": session.campaign_id,
            "session_id": session.id,
        }
        rows = await tx.fetch("session_players", params)
        return [Player(int(r[0]), r[1], int(r[2])) for r in rows]

    async def award_session_cp(
        self,
        guild_id: int,
        session_id: int,
        actor_id: int,
        amount: int,
        reason: str,
        characters: Sequence[str | int] | None = None,
    ) -> list[tuple[Character, Totals]]:
        """The recap's award: `amount` CP to each player character who played (or to the
        `characters` named), one ledger entry each, marked as the session's; GMs only, once a
        session (a second press is a Conflict), all in one transaction."""
        async with self._write(guild_id) as tx:
            session = await self._session(tx, guild_id, session_id)
            await self._require_gm(tx, guild_id, session.campaign_id, actor_id, N_("award CP"))
            if characters is None:
                characters = [p.character_id for p in await self._players(tx, guild_id, session)]
                if not characters:
                    raise InvalidValue(
                        "No player character rolled or fought in {title}; name them instead.",
                        title=session.title,
                    )
            claimed = await tx.fetch(
                "session_claim_award", {"guild_id": guild_id, "session_id": session_id}
            )
            if not claimed:
                raise Conflict("The CP for {title} were awarded already.", title=session.title)
            done = await self._award(
                tx, guild_id, session.campaign_id, actor_id, characters, amount, reason
            )
            for _sheet, _totals, entry in done:
                await tx.execute(
                    "session_mark_entry", {"session_id": session_id, "entry_id": entry.id}
                )
        return [(sheet, totals) for sheet, totals, _entry in done]

    # ---- the GMs' changes ------------------------------------------------------------------
    async def plan_session(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        title: str,
        start: datetime,
        minutes: int,
        channel_id: int,
    ) -> Session:
        """A new planned session (GMs only)."""
        title = clean_name(title, "session")
        async with self._write(guild_id) as tx:
            await self._require_gm(tx, guild_id, campaign_id, actor_id, N_("plan sessions"))
            row = await first_row(
                tx,
                "session_insert",
                {
                    "guild_id": guild_id,
                    "campaign_id": campaign_id,
                    "title": title,
                    "start_at": utc_text(start),
                    "minutes": _length(minutes),
                    "channel_id": int(channel_id),
                    "user_id": int(actor_id),
                },
            )
            assert row is not None
            return await self._session(tx, guild_id, int(row[0]))

    async def set_session_event(self, guild_id: int, session_id: int, event_id: int | None) -> None:
        """Keep (or forget) the id of the session's Discord scheduled event."""
        async with self._write(guild_id) as tx:
            await tx.execute(
                "session_set_event",
                {
                    "guild_id": guild_id,
                    "session_id": session_id,
                    "event_id": None if event_id is None else int(event_id),
                },
            )

    async def _change(
        self,
        guild_id: int,
        session_id: int,
        actor_id: int | None,
        statement: str,
        action: str,
        **params: Any,
    ) -> Session:
        """Run a GM's change of state (`actor_id` None: Discord's own, from the event) once; a
        session no longer in the state the change needs is a Conflict naming its state."""
        async with self._write(guild_id) as tx:
            session = await self._session(tx, guild_id, session_id)
            if actor_id is not None:
                await self._require_gm(tx, guild_id, session.campaign_id, actor_id, action)
            if statement == "session_start":
                running = await first_row(
                    tx,
                    "session_running",
                    {"guild_id": guild_id, "campaign_id": session.campaign_id},
                )
                if running is not None:
                    raise Conflict(
                        "{title} is running: end it with /session end first.",
                        title=_session(running).title,
                    )
            changed = await tx.fetch(
                statement, {"guild_id": guild_id, "session_id": session_id, **params}
            )
            if not changed:
                raise Conflict(
                    "{title} is {state}, so it cannot be changed that way.",
                    title=session.title,
                    state=Problem(STATE_WORDS[session.state]),
                )
            if statement == "session_end":  # the counters that fill at a session's end (#36)
                await tx.execute(
                    "counters_reset_after_session", {"campaign_id": session.campaign_id}
                )
            return await self._session(tx, guild_id, session_id)

    async def move_session(
        self,
        guild_id: int,
        session_id: int,
        actor_id: int | None,
        start: datetime,
        minutes: int | None = None,
    ) -> Session:
        """A planned session's new start (and length); its reminder is due again for it."""
        session = await self.get_session(guild_id, session_id)
        return await self._change(
            guild_id,
            session_id,
            actor_id,
            "session_move",
            N_("move sessions"),
            start_at=utc_text(start),
            minutes=_length(session.minutes if minutes is None else minutes),
        )

    async def cancel_session(self, guild_id: int, session_id: int, actor_id: int | None) -> Session:
        return await self._change(
            guild_id, session_id, actor_id, "session_cancel", N_("cancel sessions")
        )

    async def start_session(self, guild_id: int, session_id: int, actor_id: int | None) -> Session:
        """Running from now: what the campaign rolls, fights and awards is the session's."""
        return await self._change(
            guild_id, session_id, actor_id, "session_start", N_("start sessions")
        )

    async def end_session(self, guild_id: int, session_id: int, actor_id: int | None) -> Session:
        return await self._change(guild_id, session_id, actor_id, "session_end", N_("end sessions"))

    async def set_session_recap(
        self, guild_id: int, session_id: int, actor_id: int, recap: str, thread_id: int | None
    ) -> Session:
        """The recap as the GM posted it, and the thread it is in (GMs only)."""
        async with self._write(guild_id) as tx:
            session = await self._session(tx, guild_id, session_id)
            await self._require_gm(tx, guild_id, session.campaign_id, actor_id, N_("post recaps"))
            await tx.execute(
                "session_set_recap",
                {
                    "guild_id": guild_id,
                    "session_id": session_id,
                    "recap": recap,
                    "thread_id": None if thread_id is None else int(thread_id),
                },
            )
            return await self._session(tx, guild_id, session_id)

    async def set_session_settings(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        *,
        zone_name: str | None = None,
        lead_minutes: int | None = None,
        nudge: bool | None = None,
    ) -> SessionSettings:
        """Change what is given (GMs only); the zone is checked against the zone database."""
        if zone_name is not None:
            zone_name = zone(zone_name).key
        if lead_minutes is not None and not 0 <= lead_minutes <= LEAD_MAX_MINUTES:
            raise InvalidValue(
                "A reminder goes 0 to {most} minutes ahead, not {minutes}.",
                most=LEAD_MAX_MINUTES,
                minutes=lead_minutes,
            )
        async with self._write(guild_id) as tx:
            await self._require_gm(
                tx, guild_id, campaign_id, actor_id, N_("change the session settings")
            )
            now = _settings(await first_row(tx, "session_settings", {"campaign_id": campaign_id}))
            new = SessionSettings(
                zone_name if zone_name is not None else now.zone,
                lead_minutes if lead_minutes is not None else now.lead_minutes,
                nudge if nudge is not None else now.nudge,
            )
            await tx.execute(
                "session_set_settings",
                {
                    "campaign_id": campaign_id,
                    "zone": new.zone,
                    "lead_minutes": new.lead_minutes,
                    "nudge": int(new.nudge),
                },
            )
            return new

    # ---- who comes -------------------------------------------------------------------------
    async def answer_session(
        self, guild_id: int, session_id: int, user_id: int, answer: Answer
    ) -> tuple[Session, dict[int, Answer]]:
        """The user's answer (a new one replaces theirs), while the session is still to come or
        runs; the session and every answer."""
        async with self._write(guild_id) as tx:
            session = await self._session(tx, guild_id, session_id)
            if session.state not in (State.PLANNED, State.RUNNING):
                raise Conflict(
                    "{title} is {state}: answers are closed.",
                    title=session.title,
                    state=Problem(STATE_WORDS[session.state]),
                )
            await tx.execute(
                "session_answer",
                {
                    "session_id": session_id,
                    "user_id": int(user_id),
                    "answer": answer.value,
                    "by_interest": 0,
                },
            )
            rows = await tx.fetch(
                "session_answers", {"guild_id": guild_id, "session_id": session_id}
            )
        return session, {int(row[0]): Answer(row[1]) for row in rows}

    async def mark_interest(
        self, guild_id: int, event_id: int, user_id: int, interested: bool
    ) -> Session | None:
        """Interest marked on (or taken back from) a session's Discord event, as the user's
        answer (wire.sessions.after_interest says which). The session whose answers changed,
        or None: no session of this event, answers closed, or nothing to change."""
        if await self.session_by_event(guild_id, event_id) is None:
            return None  # another event of the server's: no write taken for it
        async with self._write(guild_id) as tx:
            row = await first_row(
                tx, "session_by_event", {"guild_id": guild_id, "event_id": int(event_id)}
            )
            session = None if row is None else _session(row)
            if session is None or session.state not in (State.PLANNED, State.RUNNING):
                return None
            where = {"session_id": session.id, "user_id": int(user_id)}
            found = await first_row(tx, "session_answer_of", where)
            current = None if found is None else Given(Answer(found[0]), bool(found[1]))
            given = after_interest(current, interested)
            if given == current:
                return None
            if given is None:
                await tx.execute("session_withdraw", where)
            else:
                await tx.execute(
                    "session_answer",
                    {**where, "answer": given.answer.value, "by_interest": int(given.by_interest)},
                )
            return session

    # ---- the reminders' sweep --------------------------------------------------------------
    async def due_sessions(
        self, now: datetime, limit: int = 50, shards: Shards | None = None
    ) -> list[DueSession]:
        """Planned sessions starting within a day whose reminder or ping may be due, across
        guilds (with `shards`, those of this process's shards only), soonest first. Whether
        each is due is the rules core's to say (wire.sessions.reminder_due / nudge_due)."""
        if limit <= 0:
            return []
        statement, params = sweep_query("sessions_due", now, limit, shards)
        horizon = now + max(NUDGE_AHEAD, lead_of(LEAD_MAX_MINUTES))
        rows = await self.backend.query(statement, {**params, "horizon": utc_text(horizon)})
        return [
            DueSession(_session(row[:17]), SessionSettings(None, row[17], bool(row[18])))
            for row in rows
        ]

    async def claim_reminder(self, guild_id: int, session: Session) -> bool:
        """Mark the session reminded for its start; True for the one caller that did (a moved,
        cancelled or already reminded session gives False)."""
        return await self._claim(guild_id, session, "session_claim_reminder")

    async def claim_nudge(self, guild_id: int, session: Session) -> bool:
        """As `claim_reminder`, for the day-before ping."""
        return await self._claim(guild_id, session, "session_claim_nudge")

    async def _claim(self, guild_id: int, session: Session, statement: str) -> bool:
        async with self._write(guild_id) as tx:
            rows = await tx.fetch(
                statement,
                {
                    "guild_id": guild_id,
                    "session_id": session.id,
                    "start_at": utc_text(session.start),
                },
            )
        return bool(rows)
