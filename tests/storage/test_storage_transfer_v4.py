"""A campaign's named conditions and sessions in its export (format version 4), on both
backends: exported, imported into another server's campaign and read back the same; no Discord
id of one server's channels, events or threads in the file; a second import adds nothing twice;
an import that would pass the named conditions' limit writes nothing; and every older reader
still reads the file."""

from __future__ import annotations

import asyncio
import json
import re
from datetime import UTC, datetime, timedelta

import pytest

from storage.errors import InvalidValue, NotFound
from storage.rules_conditions import MAX_PRESETS
from storage.testing import CHANNEL, GM, GUILD, OTHER_GUILD, PLAYER
from storage.transfer import check_import
from wire.conditions import Effect, Target, Timing
from wire.sessions import Answer, State
from wire.sheet_file import sheets_of_document

START = datetime(2030, 3, 1, 19, 0, tzinfo=UTC)
NEW_CHANNEL = 4242
PRONE = Effect(0, "Prone", None, -2, Target.DEFENCE)
SHAKEN = Effect(0, "Shaken", 3, -1, Target.CHECK, "Resolve", Timing.START)


async def _evenings(store, campaign):
    """Four sessions, one of each state, with answers, a recap and an award."""
    played = await store.plan_session(GUILD, campaign.id, GM, "The heist", START, 240, CHANNEL)
    await store.set_session_event(GUILD, played.id, 555)
    await store.answer_session(GUILD, played.id, PLAYER, Answer.COMING)
    await store.answer_session(GUILD, played.id, GM, Answer.MAYBE)
    await store.start_session(GUILD, played.id, GM)
    await store.end_session(GUILD, played.id, GM)
    await store.set_session_recap(GUILD, played.id, GM, "We *robbed* the bank.\nAll of it.", 777)
    called_off = await store.plan_session(
        GUILD, campaign.id, GM, "Called off", START + timedelta(days=7), 120, CHANNEL
    )
    await store.cancel_session(GUILD, called_off.id, GM)
    running = await store.plan_session(
        GUILD, campaign.id, GM, "Tonight", START + timedelta(days=14), 180, CHANNEL
    )
    await store.start_session(GUILD, running.id, GM)
    planned = await store.plan_session(
        GUILD, campaign.id, GM, "Next week", START + timedelta(days=21), 200, CHANNEL
    )
    await store.answer_session(GUILD, planned.id, PLAYER, Answer.NOT)
    await store.set_session_settings(
        GUILD, campaign.id, GM, zone_name="Europe/Berlin", lead_minutes=30, nudge=True
    )


async def _all_sessions(store, guild_id, campaign_id):
    found = []
    for states in ((State.PLANNED, State.RUNNING), (State.ENDED, State.CANCELLED)):
        found += await store.sessions_in(guild_id, campaign_id, states, 100)
    return sorted(found, key=lambda s: s.start)


async def test_named_conditions_and_sessions_go_to_another_server_and_back(
    store, make_campaign, make_character
):
    campaign = await make_campaign()
    await make_character(campaign, "Ash")
    for preset in (PRONE, SHAKEN):
        await store.save_condition_preset(GUILD, campaign.id, GM, preset)
    await _evenings(store, campaign)

    document = await store.export_campaign(GUILD, campaign.id)
    assert document["version"] == 4
    assert document["campaign"]["conditions"] == [
        {"name": "Prone", "modifier": -2, "applies_to": "defence"},
        {
            "name": "Shaken",
            "modifier": -1,
            "applies_to": "check",
            "stat": "Resolve",
            "rounds": 3,
            "timing": "start",
        },
    ]
    assert document["campaign"]["session_settings"] == {
        "zone": "Europe/Berlin",
        "lead_minutes": 30,
        "nudge": True,
    }
    text = json.dumps(document)
    for discord_id in (str(CHANNEL), "555", "777"):  # channel, event, recap thread
        # as a value of its own, not as digits inside a time's microseconds
        assert not re.search(rf"(?<![0-9]){discord_id}(?![0-9])", text), discord_id
    assert [s["title"] for s in document["sessions"]] == [
        "The heist",
        "Called off",
        "Tonight",
        "Next week",
    ]
    # In the order they were given; two given in the same second come in either order.
    assert sorted(document["sessions"][0]["answers"], key=lambda a: a["user"]) == sorted(
        [{"user": str(PLAYER), "answer": "coming"}, {"user": str(GM), "answer": "maybe"}],
        key=lambda a: a["user"],
    )

    other = await make_campaign("Elsewhere", guild_id=OTHER_GUILD)
    await store.import_sheets(OTHER_GUILD, other.id, GM, document, channel_id=NEW_CHANNEL)
    await store.import_sheets(OTHER_GUILD, other.id, GM, document, channel_id=NEW_CHANNEL)

    presets = await store.condition_presets(OTHER_GUILD, other.id)
    assert [
        (p.name, p.modifier, p.applies_to, p.stat, p.rounds_left, p.timing) for p in presets
    ] == [
        ("Prone", -2, Target.DEFENCE, None, None, Timing.END),
        ("Shaken", -1, Target.CHECK, "Resolve", 3, Timing.START),
    ]
    old = await _all_sessions(store, GUILD, campaign.id)
    new = await _all_sessions(store, OTHER_GUILD, other.id)
    assert len(new) == 4, "a second import adds no session twice"
    assert [(s.title, s.start, s.minutes) for s in new] == [
        (s.title, s.start, s.minutes) for s in old
    ]
    # The one that was running is over where it was imported; the rest keep their state.
    assert [s.state for s in new] == [State.ENDED, State.CANCELLED, State.ENDED, State.PLANNED]
    assert all(s.channel_id == NEW_CHANNEL and s.event_id is None for s in new)
    assert all(s.thread_id is None for s in new)
    heist = new[0]
    assert heist.recap == "We *robbed* the bank.\nAll of it."
    assert (heist.started_at, heist.ended_at) == (old[0].started_at, old[0].ended_at)
    assert await store.session_answers(OTHER_GUILD, heist.id) == {
        PLAYER: Answer.COMING,
        GM: Answer.MAYBE,
    }
    assert await store.session_answers(OTHER_GUILD, new[3].id) == {PLAYER: Answer.NOT}
    settings = await store.session_settings(OTHER_GUILD, other.id)
    assert (settings.zone, settings.lead_minutes, settings.nudge) == ("Europe/Berlin", 30, True)
    # No session runs in the new campaign, so a new one can start there.
    await store.start_session(OTHER_GUILD, new[3].id, GM)

    again = await store.export_campaign(OTHER_GUILD, other.id)
    assert again["campaign"]["conditions"] == document["campaign"]["conditions"]
    # Older readers: the CLI's sheet reader takes the sheets and passes the rest by.
    assert [sheet.name for sheet in sheets_of_document(again)] == ["Ash"]


async def test_a_campaign_without_them_exports_as_before(store, make_campaign, make_character):
    campaign = await make_campaign()
    await make_character(campaign, "Ash")
    document = await store.export_campaign(GUILD, campaign.id)
    assert document["version"] == 1
    assert "sessions" not in document and "conditions" not in document["campaign"]


async def test_too_many_named_conditions_refuse_the_whole_import(
    store, make_campaign, make_character
):
    campaign = await make_campaign()
    for number in range(MAX_PRESETS):
        await store.save_condition_preset(
            GUILD, campaign.id, GM, Effect(0, f"Mark {number}", None, -1)
        )
    document = {
        "format": "wire-bot",
        "version": 4,
        "kind": "campaign",
        "campaign": {"conditions": [{"name": "Prone", "modifier": -2}]},
        "characters": [{"name": "Ash"}],
    }
    with pytest.raises(InvalidValue, match="at most 25"):
        await store.import_sheets(GUILD, campaign.id, GM, document)
    assert len(await store.condition_presets(GUILD, campaign.id)) == MAX_PRESETS
    with pytest.raises(NotFound):
        await store.get_character(GUILD, campaign.id, "Ash")


def _problems(**parts) -> list[str]:
    document = {"format": "wire-bot", "version": 4, "kind": "campaign", "characters": []}
    document.update(parts)
    plan, problems = check_import(json.dumps(document))
    assert plan is None
    return [str(p) for p in problems]


@pytest.mark.parametrize(
    ("parts", "expected"),
    [
        (
            {"campaign": {"conditions": [{"name": "Prone", "applies_to": "everything"}]}},
            "campaign.conditions[0].applies_to: expected one of all, attack, defence, parry, "
            "block, dodge, check, initiative, damage-dealt, damage-taken",
        ),
        (
            {"campaign": {"conditions": [{"name": "Prone", "stat": "Resolve"}]}},
            "campaign.conditions[0].stat: a stat goes with applies_to check only",
        ),
        (
            {"campaign": {"conditions": [{"name": "Prone", "timing": "turn"}]}},
            "campaign.conditions[0].timing: expected end or start",
        ),
        (
            {"campaign": {"conditions": [{"name": "Prone"}, {"name": "prone"}]}},
            "campaign.conditions[1].name: 'prone' is already used by campaign.conditions[0].name "
            "(names are case-insensitive)",
        ),
        (
            {"campaign": {"session_settings": {"zone": "Mars/Olympus"}}},
            "campaign.session_settings.zone: not a time zone, such as Europe/Berlin or UTC",
        ),
        (
            {"sessions": [{"title": "Heist", "start": "soon", "minutes": 60}]},
            "sessions[0].start: expected a time as the export writes it",
        ),
        (
            {
                "sessions": [
                    {
                        "title": "Heist",
                        "start": "2030-03-01T19:00:00Z",
                        "minutes": 60,
                        "answers": [{"user": 123, "answer": "coming"}],
                    }
                ]
            },
            "sessions[0].answers[0].user: expected a Discord user id as text",
        ),
        (
            {
                "sessions": [
                    {
                        "title": "Heist",
                        "start": "2030-03-01T19:00:00Z",
                        "minutes": 60,
                        "channel_id": "1",
                    }
                ]
            },
            "sessions[0].channel_id: unknown field",
        ),
    ],
)
def test_a_bad_condition_or_session_is_named_with_its_path(parts, expected) -> None:
    assert _problems(**parts) == [expected]


def test_a_version_3_file_has_no_sessions() -> None:
    problems = _problems(version=3, sessions=[])
    assert problems == ["sessions: unknown field"]


@pytest.mark.sqlite_only  # the CLI on a SQLite file
def test_the_cli_puts_the_sessions_in_the_channel_it_is_given(tmp_path) -> None:
    from storage.cli import main
    from storage.sqlite import SqliteStore

    db = tmp_path / "wire.db"
    document = {
        "format": "wire-bot",
        "version": 4,
        "kind": "campaign",
        "campaign": {"name": "Night Market"},
        "characters": [{"name": "Ash"}],
        "sessions": [{"title": "Heist", "start": "2030-03-01T19:00:00.000000Z", "minutes": 240}],
    }
    file = tmp_path / "campaign.json"
    file.write_text(json.dumps(document))
    args = ["import", str(file), "--guild", "5", "--owner", str(GM), "--db", str(db)]
    assert main([*args, "--channel", "99"]) == 0

    async def read():
        async with await SqliteStore.open(db) as store:
            campaign = await store.get_campaign(5, "Night Market")
            return await _all_sessions(store, 5, campaign.id)

    [session] = asyncio.run(read())
    assert (session.title, session.channel_id, session.state) == ("Heist", 99, State.PLANNED)
