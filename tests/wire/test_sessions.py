"""Sessions on the calendar with fixed clocks: starts in a named zone across daylight saving,
when the reminder and the day-before ping are due, a moved and a cancelled session."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wire import sessions as ses
from wire.errors import RulesError
from wire.i18n import speaking
from wire.sessions import Answer, State, Timing

WIRE = settings.get_profile("wire")
START = datetime(2026, 12, 5, 18, 30, tzinfo=UTC)
LEAD = timedelta(minutes=15)


def at(minutes_before: float) -> datetime:
    return START - timedelta(minutes=minutes_before)


def test_a_start_in_berlin_winter_and_summer_is_kept_in_utc() -> None:
    assert ses.start_at("2026-12-05", "19:30", "Europe/Berlin") == START  # CET, UTC+1
    summer = ses.start_at("5.7.2026", "19:30", "europe/berlin")  # CEST, UTC+2; any case
    assert summer == datetime(2026, 7, 5, 17, 30, tzinfo=UTC)
    assert ses.start_at("2026-12-05", "18:30") == START  # no zone: UTC
    assert ses.start_at("2026-12-05", "18h30", "UTC") == START


def test_the_spring_gap_is_refused_and_the_autumn_repeat_means_the_first() -> None:
    with pytest.raises(RulesError, match="does not exist in Europe/Berlin"):
        ses.start_at("2026-03-29", "02:30", "Europe/Berlin")
    first = ses.start_at("2026-10-25", "02:30", "Europe/Berlin")
    assert first == datetime(2026, 10, 25, 0, 30, tzinfo=UTC)  # still summer time, UTC+2
    # The same wall time on the two days around the change is 25 hours apart.
    before = ses.start_at("2026-10-24", "19:00", "Europe/Berlin")
    after = ses.start_at("2026-10-25", "19:00", "Europe/Berlin")
    assert after - before == timedelta(hours=25)


@pytest.mark.parametrize(
    ("day", "clock", "zone", "message"),
    [
        ("2026-02-30", "19:00", "UTC", "is not a date"),
        ("tomorrow", "19:00", "UTC", "is not a date"),
        ("2026-12-05", "25:00", "UTC", "is not a time of day"),
        ("2026-12-05", "7pm", "UTC", "is not a time of day"),
        ("2026-12-05", "19:00", "Mars/Olympus", "is not a time zone"),
    ],
)
def test_bad_input_names_the_fix(day: str, clock: str, zone: str, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        ses.start_at(day, clock, zone)


def test_refusals_speak_german() -> None:
    with speaking("de"), pytest.raises(RulesError) as error:
        ses.start_at("2026-12-05", "19:00", "Mars/Olympus")
    assert "Zeitzone" in str(error.value)


def test_the_reminder_is_due_from_the_lead_until_the_start_once() -> None:
    planned = Timing(START, State.PLANNED)
    assert not ses.reminder_due(planned, LEAD, at(16))
    assert ses.reminder_due(planned, LEAD, at(15))
    assert ses.reminder_due(planned, LEAD, at(0.01))
    assert not ses.reminder_due(planned, LEAD, at(0))  # started: no late reminder
    sent = Timing(START, State.PLANNED, reminded_for=START)
    assert not ses.reminder_due(sent, LEAD, at(5))


def test_a_moved_session_is_reminded_for_its_new_time_and_a_cancelled_never() -> None:
    later = START + timedelta(hours=2)
    moved = Timing(later, State.PLANNED, reminded_for=START)
    assert not ses.reminder_due(moved, LEAD, at(5))  # the old time is no longer its time
    assert ses.reminder_due(moved, LEAD, later - timedelta(minutes=5))
    for state in (State.CANCELLED, State.RUNNING, State.ENDED):
        assert not ses.reminder_due(Timing(START, state), LEAD, at(5))


def test_the_day_before_ping_comes_once_before_the_reminder() -> None:
    planned = Timing(START, State.PLANNED)
    assert not ses.nudge_due(planned, LEAD, START - timedelta(days=1, seconds=1))
    assert ses.nudge_due(planned, LEAD, START - timedelta(days=1))
    assert ses.nudge_due(planned, LEAD, at(16))
    assert not ses.nudge_due(planned, LEAD, at(15))  # the reminder's time now
    assert not ses.nudge_due(Timing(START, State.PLANNED, nudged_for=START), LEAD, at(60))
    assert not ses.nudge_due(Timing(START, State.CANCELLED), LEAD, at(60))


def test_unanswered_and_who_comes() -> None:
    answers = {3: Answer.COMING, 1: Answer.COMING, 2: Answer.NOT}
    assert ses.unanswered([5, 1, 4, 2, 5], answers) == [5, 4]
    assert ses.who(answers, Answer.COMING) == [1, 3]
    assert ses.who(answers, Answer.MAYBE) == []


def test_the_next_session_is_the_running_one_else_the_earliest_to_come() -> None:
    now = START
    starts = [
        (START - timedelta(days=7), State.ENDED),
        (START + timedelta(days=14), State.PLANNED),
        (START + timedelta(days=7), State.CANCELLED),
        (START + timedelta(days=8), State.PLANNED),
        (START - timedelta(days=1), State.PLANNED),  # past and never started
    ]
    assert ses.next_of(starts, now) == 3
    assert ses.next_of([*starts, (START - timedelta(hours=1), State.RUNNING)], now) == 5
    assert ses.next_of(starts[:1], now) is None


def test_timestamps_are_discord_markup() -> None:
    assert ses.timestamp(START) == f"<t:{int(START.timestamp())}:F>"
    assert ses.timestamp(START, "R").endswith(":R>")


@WIRE
@given(
    start=st.datetimes(
        min_value=datetime(2025, 1, 1), max_value=datetime(2030, 12, 31), timezones=st.just(UTC)
    ),
    lead=st.integers(1, ses.LEAD_MAX_MINUTES),
    now_offset=st.integers(-3 * 24 * 60, 3 * 24 * 60),
)
def test_at_most_one_of_ping_and_reminder_and_never_after_the_start(
    start: datetime, lead: int, now_offset: int
) -> None:
    now = start + timedelta(minutes=now_offset)
    timing = Timing(start, State.PLANNED)
    remind = ses.reminder_due(timing, timedelta(minutes=lead), now)
    nudge = ses.nudge_due(timing, timedelta(minutes=lead), now)
    assert not (remind and nudge)
    if now >= start:
        assert not remind and not nudge
    # Once sent for this start, never again for it.
    sent = Timing(start, State.PLANNED, reminded_for=start)
    assert not ses.reminder_due(sent, timedelta(minutes=lead), now)


@WIRE
@given(
    moment=st.datetimes(min_value=datetime(2025, 1, 1), max_value=datetime(2030, 12, 31)),
    zone=st.sampled_from(["Europe/Berlin", "America/New_York", "Australia/Sydney", "UTC"]),
)
def test_a_start_reads_back_as_the_wall_time_typed(moment: datetime, zone: str) -> None:
    day, clock = moment.strftime("%Y-%m-%d"), moment.strftime("%H:%M")
    try:
        utc = ses.start_at(day, clock, zone)
    except RulesError:
        return  # a skipped wall time (checked above)
    local = utc.astimezone(ses.zone(zone))
    assert local.strftime("%Y-%m-%d %H:%M") == f"{day} {clock}"


def test_interest_answers_coming_and_taking_it_back_withdraws_only_its_own() -> None:
    by_interest = ses.Given(Answer.COMING, by_interest=True)
    pressed_coming = ses.Given(Answer.COMING)
    pressed_not = ses.Given(Answer.NOT)
    assert ses.after_interest(None, True) == by_interest
    assert ses.after_interest(pressed_not, True) == by_interest  # a change of mind
    assert ses.after_interest(pressed_coming, True) == pressed_coming  # the button's stays
    assert ses.after_interest(by_interest, False) is None
    assert ses.after_interest(pressed_coming, False) == pressed_coming
    assert ses.after_interest(pressed_not, False) == pressed_not
    assert ses.after_interest(None, False) is None
