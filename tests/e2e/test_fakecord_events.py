"""The stand-in's guild scheduled events and threads from messages answer as Discord documents
them, errors included. No bot: plain HTTP against a started stand-in (fast, not marked ``e2e``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import aiohttp
import pytest

from .standin import DEFAULT_CHANNEL_ID, DEFAULT_GUILD_ID, DEFAULT_TOKEN, Fakecord

AUTH = {"Authorization": f"Bot {DEFAULT_TOKEN}"}
EVENTS = f"/guilds/{DEFAULT_GUILD_ID}/scheduled-events"


@pytest.fixture
async def api() -> AsyncIterator[tuple[Fakecord, aiohttp.ClientSession]]:
    async with Fakecord() as standin, aiohttp.ClientSession() as session:
        yield standin, session


async def call(api: Any, method: str, path: str, **body: Any) -> tuple[int, Any]:
    standin, session = api
    kw: dict[str, Any] = {"headers": AUTH}
    if body:
        kw["json"] = body
    async with session.request(method, standin.base_url + path, **kw) as resp:
        answer = await resp.json() if resp.content_type == "application/json" else None
        return resp.status, answer


def external(hours: float = 2, **changes: Any) -> dict[str, Any]:
    start = datetime.now(UTC) + timedelta(hours=hours)
    return {
        "name": "Warrens",
        "entity_type": 3,
        "privacy_level": 2,
        "scheduled_start_time": start.isoformat(),
        "scheduled_end_time": (start + timedelta(hours=3)).isoformat(),
        "entity_metadata": {"location": "#general"},
        **changes,
    }


async def test_create_needs_manage_events_and_what_an_external_event_needs(api):
    standin, _ = api
    for changes, field in (
        ({"name": ""}, "name"),
        ({"entity_metadata": {}}, "entity_metadata"),
        ({"scheduled_end_time": None}, "scheduled_end_time"),
    ):
        status, body = await call(api, "POST", EVENTS, **external(**changes))
        assert status == 400 and body["code"] == 50035 and field in body["errors"], body
    status, body = await call(api, "POST", EVENTS, **external(hours=-1))
    assert status == 400 and "scheduled_start_time" in body["errors"]
    standin.deny_manage_events.add(DEFAULT_GUILD_ID)
    status, body = await call(api, "POST", EVENTS, **external())
    assert (status, body["code"]) == (403, 50013)
    standin.deny_manage_events.clear()
    status, event = await call(api, "POST", EVENTS, **external())
    assert status == 200 and event["status"] == 1 and event["guild_id"] == str(DEFAULT_GUILD_ID)


async def test_status_moves_only_as_discord_allows_and_delete_is_final(api):
    standin, _ = api
    _, event = await call(api, "POST", EVENTS, **external())
    path = f"{EVENTS}/{event['id']}"
    status, body = await call(api, "PATCH", path, status=3)  # scheduled -> completed: no
    assert status == 400 and "status" in body["errors"]
    assert (await call(api, "PATCH", path, status=2))[1]["status"] == 2
    assert (await call(api, "PATCH", path, status=3))[1]["status"] == 3
    status, body = await call(api, "PATCH", path, name="Again")
    assert status == 400  # a completed event takes no change
    for user in (42, 43, 42):  # a second mark of the same user counts once
        await standin.add_interested(int(event["id"]), user)
    status, counted = await call(api, "GET", path + "?with_user_count=true")
    assert counted["user_count"] == 2
    await standin.remove_interested(int(event["id"]), 42)
    status, [listed] = await call(api, "GET", EVENTS + "?with_user_count=true")
    assert listed["user_count"] == 1
    assert "user_count" not in (await call(api, "GET", path))[1]  # only when asked for
    assert (await call(api, "DELETE", path))[0] == 204
    status, body = await call(api, "GET", path)
    assert (status, body["code"]) == (404, 10070)


async def test_at_most_100_live_events_a_guild(api):
    standin, _ = api
    standin.events_per_guild = 2
    for _ in range(2):
        assert (await call(api, "POST", EVENTS, **external()))[0] == 200
    status, body = await call(api, "POST", EVENTS, **external())
    assert (status, body["code"]) == (400, 30038)


async def test_a_thread_from_a_message_takes_messages_once(api):
    _standin, _ = api
    status, message = await call(
        api, "POST", f"/channels/{DEFAULT_CHANNEL_ID}/messages", content="Recap"
    )
    assert status == 200
    path = f"/channels/{DEFAULT_CHANNEL_ID}/messages/{message['id']}/threads"
    status, body = await call(api, "POST", path, name="")
    assert status == 400 and "name" in body["errors"]
    status, thread = await call(api, "POST", path, name="Warrens")
    assert status == 200 and thread["id"] == message["id"] and thread["type"] == 11
    assert thread["parent_id"] == str(DEFAULT_CHANNEL_ID)
    status, body = await call(api, "POST", path, name="Again")
    assert (status, body["code"]) == (400, 160004)
    status, _ = await call(api, "POST", f"/channels/{thread['id']}/messages", content="In it")
    assert status == 200
