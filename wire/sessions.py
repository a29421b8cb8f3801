"""A campaign's sessions on the calendar: when a start is, when its reminder and its day-before
ping are due, and which session comes next. Pure rules over aware datetimes; the clock is
always a parameter, so the tests fix it and the bot passes its own.

A start is typed as a wall-clock date and time in a zone the GM names (`Europe/Berlin`); it is
kept in UTC. Wall-clock times that a daylight saving change skips (02:30 on the spring night in
Berlin) are refused with the fix; a time that happens twice (the autumn night) means the first
of the two, the summer one, and the reply shows the UTC instant through Discord's timestamps,
so nobody is left guessing.

The reminder and the ping are "sent for" a start: the store keeps the start each was sent for
(see storage/rules_sessions.py), so a moved session is due again for its new time, a session
reminded once is never reminded again for the same time, and a cancelled one never is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from enum import StrEnum
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from wire.errors import RulesError
from wire.i18n import tr
from wire.limits import NAME_MAX

DEFAULT_ZONE = "UTC"
DEFAULT_LEAD = timedelta(minutes=15)
"""How long before the start the reminder goes out, unless the campaign sets another."""
LEAD_MAX_MINUTES = 24 * 60
NUDGE_AHEAD = timedelta(days=1)
"""The ping of players who have not answered goes out a day before the start."""
LENGTH_MAX_MINUTES = 24 * 60
TITLE_MAX = NAME_MAX
"""A title is a name (64 characters), well inside Discord's 100 for a scheduled event's."""

_DATE = re.compile(r"^\s*(\d{4})-(\d{1,2})-(\d{1,2})\s*$")
_DAY_FIRST = re.compile(r"^\s*(\d{1,2})\.(\d{1,2})\.(\d{4})\s*$")
_TIME = re.compile(r"^\s*(\d{1,2})[:.h](\d{2})\s*(?:uhr)?\s*$", re.IGNORECASE)


class State(StrEnum):
    PLANNED = "planned"
    RUNNING = "running"
    ENDED = "ended"
    CANCELLED = "cancelled"


class Answer(StrEnum):
    COMING = "coming"
    MAYBE = "maybe"
    NOT = "not"


@dataclass(frozen=True, slots=True)
class Timing:
    """What the rules need of a session: its start (UTC), state and what was sent for when."""

    start: datetime
    state: State
    reminded_for: datetime | None = None
    nudged_for: datetime | None = None


@dataclass(frozen=True, slots=True)
class Given:
    """A player's answer and how it was given: by a button, or by marking interest on the
    session's Discord event."""

    answer: Answer
    by_interest: bool = False


def after_interest(current: Given | None, interested: bool) -> Given | None:
    """The answer after a player marks interest on the session's event (`interested`) or takes
    it back. Marking interest is saying Coming, except that a Coming pressed on a button stays
    the button's; taking it back withdraws only what the interest said, so an answer a player
    chose with a button is never undone by a click elsewhere."""
    if interested:
        if current is not None and current.answer is Answer.COMING:
            return current
        return Given(Answer.COMING, by_interest=True)
    if current is not None and current.by_interest:
        return None
    return current


def zone(name: str | None) -> ZoneInfo:
    """The IANA zone `name` (case as typed or not), UTC when empty; refused when unknown."""
    wanted = (name or DEFAULT_ZONE).strip()
    known = _zone_names()
    exact = known.get(wanted.casefold())
    if exact is None:
        raise RulesError(
            tr(
                "{zone} is not a time zone I know. Write it as Region/City, e.g. "
                "`Europe/Berlin` or `America/New_York` (or `UTC`).",
                zone=repr(wanted),
            )
        )
    try:
        return ZoneInfo(exact)
    except ZoneInfoNotFoundError:  # pragma: no cover - listed but not loadable
        raise RulesError(tr("{zone} is not a time zone I know.", zone=repr(wanted))) from None


def _zone_names() -> dict[str, str]:
    names = {n.casefold(): n for n in available_timezones()}
    names.setdefault("utc", "UTC")
    return names


def parse_date(text: str) -> date:
    """`2026-12-05` or `5.12.2026`."""
    match = _DATE.match(text)
    parts: tuple[int, int, int] | None = None
    if match:
        parts = (int(match[1]), int(match[2]), int(match[3]))
    elif match := _DAY_FIRST.match(text):
        parts = (int(match[3]), int(match[2]), int(match[1]))
    if parts is not None:
        try:
            return date(*parts)
        except ValueError:
            pass
    raise RulesError(
        tr("{text} is not a date: write it as `2026-12-05` or `5.12.2026`.", text=repr(text))
    )


def parse_time(text: str) -> time:
    """`19:30`, `19.30` or `19h30` (24-hour clock)."""
    match = _TIME.match(text)
    if match and int(match[1]) < 24 and int(match[2]) < 60:
        return time(int(match[1]), int(match[2]))
    raise RulesError(
        tr("{text} is not a time of day: write it as `19:30` (24-hour clock).", text=repr(text))
    )


def start_at(day: str, clock: str, zone_name: str | None = None) -> datetime:
    """The UTC instant of the wall-clock `day` `clock` in the zone named (UTC when none).

    A wall time the zone skips (a daylight saving change) is refused; one it repeats means its
    first occurrence."""
    where = zone(zone_name)
    local = datetime.combine(parse_date(day), parse_time(clock), tzinfo=where)
    utc = local.astimezone(UTC)
    if utc.astimezone(where).replace(tzinfo=None) != local.replace(tzinfo=None):
        raise RulesError(
            tr(
                "{day} {clock} does not exist in {zone}: the clocks skip it (daylight saving). "
                "Pick a time an hour later or earlier.",
                day=day.strip(),
                clock=clock.strip(),
                zone=where.key,
            )
        )
    return utc


def check_future(start: datetime, now: datetime) -> None:
    """A session is planned for later than now."""
    if start <= now:
        raise RulesError(
            tr("That start is in the past. Give a date and time still to come (and its zone).")
        )


def reminder_due(timing: Timing, lead: timedelta, now: datetime) -> bool:
    """True from `lead` before the start until the start, for a planned session not yet reminded
    for this start. None once it started (a late reminder would only be noise), none for a
    cancelled, running or ended one; a moved one is due again for its new start."""
    return (
        timing.state is State.PLANNED
        and timing.reminded_for != timing.start
        and timing.start - lead <= now < timing.start
    )


def nudge_due(timing: Timing, lead: timedelta, now: datetime) -> bool:
    """The day-before ping of players who have not answered: due from a day before the start
    until the reminder takes over, once per start, for a planned session only."""
    return (
        timing.state is State.PLANNED
        and timing.nudged_for != timing.start
        and timing.start - NUDGE_AHEAD <= now < timing.start - min(lead, NUDGE_AHEAD)
    )


def unanswered(players: Iterable[int], answers: Mapping[int, Answer]) -> list[int]:
    """The players (in their order) who gave no answer yet."""
    return [p for p in dict.fromkeys(players) if p not in answers]


def who(answers: Mapping[int, Answer], answer: Answer) -> list[int]:
    """The users who gave `answer`, in ascending id order (a stable list to show)."""
    return sorted(user for user, given in answers.items() if given is answer)


def lead_of(minutes: int | None) -> timedelta:
    """A campaign's reminder lead in minutes (None: the default 15)."""
    return DEFAULT_LEAD if minutes is None else timedelta(minutes=minutes)


def end_of(start: datetime, minutes: int) -> datetime:
    """When a session of `minutes` starting at `start` is expected to end."""
    return start + timedelta(minutes=minutes)


def next_of(starts: Iterable[tuple[datetime, State]], now: datetime) -> int | None:
    """The index of the next session: the earliest planned one whose start is still to come
    (a running one comes first: it is the one on now)."""
    best: tuple[int, datetime] | None = None
    for index, (start, state) in enumerate(starts):
        if state is State.RUNNING:
            return index
        if state is State.PLANNED and start >= now and (best is None or start < best[1]):
            best = (index, start)
    return None if best is None else best[0]


def timestamp(moment: datetime, style: str = "F") -> str:
    """Discord's timestamp markup: each reader's client shows it in their own zone."""
    return f"<t:{int(moment.timestamp())}:{style}>"
