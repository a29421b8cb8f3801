"""The stand-in's channel webhooks answer as Discord documents them, errors included.

No bot: plain HTTP against a started stand-in (fast, not marked ``e2e``), so each rule the bot
relies on is pinned down here once: the name rules, Manage Webhooks, wait and thread_id, a
webhook's own messages only, 404 once deleted, the per-webhook rate limit.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from .standin import (
    DEFAULT_CHANNEL_ID,
    DEFAULT_GM_CHANNEL_ID,
    DEFAULT_TOKEN,
    Fakecord,
)
from .test_incharacter import SCENE_GUILDS, THREAD

AUTH = {"Authorization": f"Bot {DEFAULT_TOKEN}"}


@pytest.fixture
async def api() -> AsyncIterator[tuple[Fakecord, aiohttp.ClientSession]]:
    async with Fakecord(guilds=SCENE_GUILDS) as standin, aiohttp.ClientSession() as session:
        yield standin, session


async def call(
    session: aiohttp.ClientSession, standin: Fakecord, method: str, path: str, **kw: Any
) -> tuple[int, Any]:
    async with session.request(method, standin.base_url + path, **kw) as resp:
        body = await resp.json() if resp.content_type == "application/json" else None
        return resp.status, body


async def create(
    standin: Fakecord, session: aiohttp.ClientSession, name: str, channel: int = DEFAULT_CHANNEL_ID
) -> tuple[int, Any]:
    path = f"/channels/{channel}/webhooks"
    return await call(session, standin, "POST", path, json={"name": name}, headers=AUTH)


async def make(standin: Fakecord, session: aiohttp.ClientSession) -> dict:
    status, hook = await create(standin, session, "WIRE")
    assert status == 200, hook
    return hook


async def test_create_and_list_need_manage_webhooks_and_a_name_discord_takes(api):
    standin, session = api
    for name, code in (
        ("Discord bot", "USERNAME_INVALID_CONTAINS"),
        ("x" * 81, "BASE_TYPE_BAD_LENGTH"),
    ):
        status, body = await create(standin, session, name)
        assert (status, body["code"]) == (400, 50035)
        assert body["errors"]["name"]["_errors"][0]["code"] == code
    hook = await make(standin, session)
    assert hook["token"] and hook["user"]["id"] == str(standin.bot_user_id)
    status, listed = await call(
        session, standin, "GET", f"/channels/{DEFAULT_CHANNEL_ID}/webhooks", headers=AUTH
    )
    assert status == 200 and listed == [hook]
    standin.deny_manage_webhooks.add(DEFAULT_GM_CHANNEL_ID)
    for method in ("POST", "GET"):
        status, body = await call(
            session,
            standin,
            method,
            f"/channels/{DEFAULT_GM_CHANNEL_ID}/webhooks",
            json={"name": "WIRE"},
            headers=AUTH,
        )
        assert (status, body["code"]) == (403, 50013)
    payload = standin.command_interaction(
        "x", {}, channel_id=DEFAULT_GM_CHANNEL_ID, require_synced=False
    )
    assert not int(payload["app_permissions"]) & (1 << 29)
    assert int(standin.command_interaction("x", {}, require_synced=False)["app_permissions"]) & (
        1 << 29
    )


async def test_execute_with_wait_and_thread_id_then_edit_and_delete_its_message(api):
    standin, session = api
    hook = await make(standin, session)
    path = f"/webhooks/{hook['id']}/{hook['token']}"
    status, body = await call(
        session, standin, "POST", path, json={"content": "hi", "username": "Clyde"}
    )
    assert (
        status == 400
        and body["errors"]["username"]["_errors"][0]["code"] == "USERNAME_INVALID_CONTAINS"
    )
    status, _ = await call(session, standin, "POST", path, json={"content": "no wait"})
    assert status == 204
    status, msg = await call(
        session,
        standin,
        "POST",
        path,
        params={"wait": "true", "thread_id": str(THREAD)},
        json={"content": "in the thread", "username": "Jaime"},
    )
    assert (
        status == 200 and msg["channel_id"] == str(THREAD) and msg["author"]["username"] == "Jaime"
    )
    assert msg["webhook_id"] == hook["id"]
    status, body = await call(
        session,
        standin,
        "POST",
        path,
        params={"thread_id": str(DEFAULT_GM_CHANNEL_ID)},
        json={"content": "x"},
    )
    assert status == 404 and body["code"] == 10003  # not a thread
    mpath = f"{path}/messages/{msg['id']}"
    status, _ = await call(session, standin, "PATCH", mpath, json={"content": "edited"})
    assert status == 404  # it is in the thread: thread_id is needed
    status, edited = await call(
        session,
        standin,
        "PATCH",
        mpath,
        params={"thread_id": str(THREAD)},
        json={"content": "edited"},
    )
    assert status == 200 and edited["content"] == "edited"
    status, _ = await call(session, standin, "DELETE", mpath, params={"thread_id": str(THREAD)})
    assert status == 204 and int(msg["id"]) not in standin.messages
    standin.delete_webhook(int(hook["id"]))
    status, body = await call(session, standin, "POST", path, json={"content": "gone"})
    assert (status, body["code"]) == (404, 10015)


async def test_executes_past_the_webhooks_rate_are_429_with_retry_after(api):
    standin, session = api
    hook = await make(standin, session)
    path = f"/webhooks/{hook['id']}/{hook['token']}"
    answers = []
    for n in range(standin.webhook_rate + 1):
        async with session.post(
            standin.base_url + path, params={"wait": "1"}, json={"content": str(n)}
        ) as resp:
            answers.append(
                (resp.status, resp.headers.get("X-RateLimit-Remaining"), await resp.json())
            )
    assert [a[0] for a in answers] == [200] * standin.webhook_rate + [429]
    assert answers[standin.webhook_rate - 1][1] == "0"
    assert 0 < answers[-1][2]["retry_after"] <= standin.webhook_window
