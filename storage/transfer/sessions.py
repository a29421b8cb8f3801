"""Sessions in export files (format version 4): a campaign's planned and past evenings, who
answered what, and their recaps (storage/rules_sessions.py keeps them)::

    "campaign": {
      ...,
      "session_settings": {"zone": "Europe/Berlin", "lead_minutes": 30, "nudge": true}
    },
    "sessions": [
      {"title": "The heist", "start": "2026-12-05T19:00:00.000000Z", "minutes": 240,
       "state": "ended", "started_at": "...", "ended_at": "...", "recap": "We ...",
       "awarded_at": "...", "reminded_for": "...", "nudged_for": "...",
       "answers": [{"user": "123456789012345678", "answer": "coming"}]}
    ]

Times are UTC, as the store keeps them; `state` is planned, running, ended or cancelled; every
field but title, start and minutes is optional. A user is a Discord user id, written as text
(JSON numbers lose digits past 2**53): a user is the same person in every server, so an answer
means the same after an import. What names one server's channels, events and threads (the
session's channel, its scheduled event, its recap's thread) is not exported: it means nothing
in another server. An import puts its sessions in the channel it was made in, without an event
(a GM moves or plans one anew to get one); a session that was running is imported as ended, since
its rolls and fights stay in the server they were played in. A session the campaign already has
(the same title and start) is left as it is, so importing a file twice adds nothing twice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from storage.rows import utc_text
from storage.transfer.format import MAX_IMPORT_ANSWERS, MAX_IMPORT_SESSIONS
from storage.transfer.problems import MISSING, WRITTEN_TWICE, Checker, checked_list
from storage.validation import int_problem, name_problem
from wire.errors import RulesError
from wire.i18n import N_
from wire.sessions import LEAD_MAX_MINUTES, LENGTH_MAX_MINUTES, Answer, State, zone
from wire.textcheck import normal_text, text_problem

if TYPE_CHECKING:
    from storage.rules_sessions import Session, SessionSettings

SESSION_FIELDS = (
    "title",
    "start",
    "minutes",
    "state",
    "started_at",
    "ended_at",
    "recap",
    "awarded_at",
    "reminded_for",
    "nudged_for",
    "answers",
)
ANSWER_FIELDS = ("user", "answer")
SETTINGS_FIELDS = ("zone", "lead_minutes", "nudge")
RECAP_MAX = 4000
"""A recap's characters: what the recap's form takes (cogs/session_recap.py)."""
_TIMES = ("started_at", "ended_at", "awarded_at", "reminded_for", "nudged_for")
_STATES = tuple(s.value for s in State)
_ANSWERS = tuple(a.value for a in Answer)


@dataclass(frozen=True, slots=True)
class SessionData:
    """A session as a file gives it: times in UTC, answers as (user id, answer)."""

    title: str
    start: datetime
    minutes: int
    state: State = State.PLANNED
    times: Mapping[str, datetime] | None = None
    """The optional moments (started_at, ended_at, awarded_at, reminded_for, nudged_for)."""
    recap: str | None = None
    answers: tuple[tuple[int, Answer], ...] = ()


@dataclass(frozen=True, slots=True)
class SettingsData:
    """A campaign's session settings as a file gives them."""

    zone: str | None = None
    lead_minutes: int | None = None
    nudge: bool = False


# ---- export ---------------------------------------------------------------------------------
def session_data(session: Session, answers: Mapping[int, Answer]) -> dict[str, Any]:
    """A session as a file holds it: no channel, event or thread (see the module)."""
    data: dict[str, Any] = {
        "title": session.title,
        "start": utc_text(session.start),
        "minutes": session.minutes,
        "state": session.state.value,
    }
    for key in _TIMES:
        moment = getattr(session, key)
        if moment is not None:
            data[key] = utc_text(moment)
    if session.recap:
        data["recap"] = session.recap
    if answers:
        data["answers"] = [
            {"user": str(user), "answer": answer.value} for user, answer in answers.items()
        ]
    return data


def settings_data(settings: SessionSettings) -> dict[str, Any]:
    """The campaign's "session_settings", or {} for the defaults (UTC, 15 minutes, no ping)."""
    data: dict[str, Any] = {}
    if settings.zone:
        data["zone"] = settings.zone
    if settings.lead_minutes is not None:
        data["lead_minutes"] = settings.lead_minutes
    if settings.nudge:
        data["nudge"] = True
    return {"session_settings": data} if data else {}


# ---- import ---------------------------------------------------------------------------------
def check_settings(checker: Checker, value: Any, path: str) -> SettingsData | None:
    data = checker.obj(value, path, SETTINGS_FIELDS)
    if data is None:
        return None
    name = data.get("zone")
    if name is not None:
        try:
            name = zone(name).key if isinstance(name, str) else None
        except RulesError:
            name = None
        if name is None:
            checker.problem(f"{path}.zone", N_("not a time zone, such as Europe/Berlin or UTC"))
            return None
    lead = data.get("lead_minutes")
    if lead is not None and (problem := int_problem(lead, 0, LEAD_MAX_MINUTES)):
        checker.problem(f"{path}.lead_minutes", problem)
        return None
    nudge = data.get("nudge", False)
    if not isinstance(nudge, bool):
        checker.problem(f"{path}.nudge", N_("expected true or false, got {type}"), type="?")
        return None
    return SettingsData(name, lead, nudge)


def check_sessions(checker: Checker, value: Any, path: str) -> tuple[SessionData, ...]:
    entries = checked_list(checker, value, path, MAX_IMPORT_SESSIONS)
    found = [_session(checker, entry, f"{path}[{index}]") for index, entry in enumerate(entries)]
    return tuple(session for session in found if session is not None)


def _session(checker: Checker, value: Any, path: str) -> SessionData | None:
    data = checker.obj(value, path, SESSION_FIELDS)
    if data is None:
        return None
    before = len(getattr(checker, "problems", []))
    title = data.get("title")
    if problem := (name_problem(title) if "title" in data else MISSING):
        checker.problem(f"{path}.title", problem)
    start = _moment(checker, data.get("start"), f"{path}.start", required=True)
    minutes = data.get("minutes")
    if problem := int_problem(minutes, 1, LENGTH_MAX_MINUTES):
        checker.problem(f"{path}.minutes", problem)
    state = data.get("state", State.PLANNED.value)
    if state not in _STATES:
        checker.problem(f"{path}.state", N_("expected planned, running, ended or cancelled"))
    times = {
        key: moment
        for key in _TIMES
        if (moment := _moment(checker, data.get(key), f"{path}.{key}", required=False))
    }
    recap = data.get("recap")
    if recap is not None and (
        not isinstance(recap, str) or text_problem(recap, RECAP_MAX, multiline=True)
    ):
        checker.problem(
            f"{path}.recap", N_("expected text of at most {most} characters"), most=RECAP_MAX
        )
    answers = _answers(checker, data.get("answers", []), f"{path}.answers")
    if len(getattr(checker, "problems", [])) > before or start is None:
        return None
    return SessionData(
        normal_text(title),
        start,
        minutes,
        State(state),
        times,
        normal_text(recap) if recap else None,
        answers,
    )


def _moment(checker: Checker, value: Any, path: str, *, required: bool) -> datetime | None:
    """A time as the export writes it (ISO 8601; without a zone: UTC)."""
    if value is None:
        if required:
            checker.problem(path, MISSING)
        return None
    try:
        if not isinstance(value, str) or len(value) > 40:
            raise ValueError
        moment = datetime.fromisoformat(value)
    except ValueError:
        checker.problem(path, N_("expected a time as the export writes it"))
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _answers(checker: Checker, value: Any, path: str) -> tuple[tuple[int, Answer], ...]:
    found: dict[int, Answer] = {}
    for index, entry in enumerate(checked_list(checker, value, path, MAX_IMPORT_ANSWERS)):
        where = f"{path}[{index}]"
        data = checker.obj(entry, where, ANSWER_FIELDS)
        if data is None:
            continue
        user = data.get("user")
        if not (isinstance(user, str) and user.isascii() and user.isdigit() and len(user) <= 20):
            checker.problem(f"{where}.user", N_("expected a Discord user id as text"))
            continue
        if data.get("answer") not in _ANSWERS:
            checker.problem(f"{where}.answer", N_("expected coming, maybe or not"))
            continue
        if int(user) in found:
            checker.problem(f"{where}.user", WRITTEN_TWICE)
            continue
        found[int(user)] = Answer(data["answer"])
    return tuple(found.items())


def sessions_list(
    sessions: Sequence[Session], answers: Mapping[int, Mapping[int, Answer]]
) -> list[dict[str, Any]]:
    """Every session of the campaign, oldest start first, each with its answers (by its id)."""
    ordered = sorted(sessions, key=lambda s: (s.start, s.id))
    return [session_data(s, answers.get(s.id, {})) for s in ordered]
