"""End-to-end tests of the Discord stand-in, with the bare discord.py bot as the subject.

The first group speaks to the stand-in directly, to pin down the protocol details discord.py
depends on.  The rest run ``barebot.py`` as a real process through ``launcher.py`` and check what
a user would see, then inject faults (gateway closes, RECONNECT, INVALID_SESSION, 429 and 500 on
interaction callbacks, SIGTERM) and check that the bot survives them.

Findings about discord.py 2.7.1 (aiohttp 3.14) that these tests pin down:

* A 429 on an interaction callback is retried after the body's ``retry_after`` (the webhook
  adapter does it, up to 5 attempts), but only if the response carries a ``Via`` header;
  without it discord.py assumes a Cloudflare ban and raises ``HTTPException`` at once.
* A 5xx on a callback is retried after 1 s, then 3 s, 5 s, 7 s (5 attempts).  Two 5xx in a row
  push the third attempt past Discord's 3 s acknowledgement deadline, so the interaction fails
  with 404 Unknown interaction: retrying does not save a callback from a real outage.
* After INVALID_SESSION(false) discord.py waits 5 s before it IDENTIFYs again
  (``Client.before_identify_hook``); resumes are immediate.
* ``Client.close()`` reaches the gateway as close code 4000, not 1000 (the reader task answers
  the close first), so Discord keeps the session resumable after a clean shutdown.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import discord.http
import discord.utils
import pytest
from discord.webhook.async_ import async_context

from .barebot import AGAIN_CUSTOM_ID, EMBED_DESCRIPTION, EMBED_TITLE
from .conftest import BAREBOT, BotProcess, LaunchBot
from .standin import (
    CALLBACK_CHANNEL_MESSAGE,
    CALLBACK_DEFERRED_CHANNEL_MESSAGE,
    CALLBACK_UPDATE_MESSAGE,
    MESSAGE_FLAG_EPHEMERAL,
    MESSAGE_FLAG_LOADING,
    PRIVILEGED_INTENTS,
    Callback,
    Fakecord,
    FakecordError,
)
from .wire_support import SHARD_STEP, many_guilds

pytestmark = pytest.mark.e2e

SHARDED_GUILDS = many_guilds(4, step=SHARD_STEP)
"""The default guild and guild 2 on shard 0 of 2, guilds 1 and 3 on shard 1."""


def assert_constant_embed(embeds: list[dict[str, Any]]) -> None:
    assert len(embeds) == 1, embeds
    assert embeds[0]["title"] == EMBED_TITLE
    assert embeds[0]["description"] == EMBED_DESCRIPTION


def assert_clean(standin: Fakecord) -> None:
    """The bot used no route the stand-in lacks and sent nothing Discord would refuse."""
    assert standin.unknown_routes == []
    assert standin.validation_errors == []


async def ping(standin: Fakecord, timeout: float = 5.0) -> Callback:
    callback = await standin.send_interaction(standin.command_interaction("ping"), timeout=timeout)
    assert callback.type == CALLBACK_CHANNEL_MESSAGE
    assert_constant_embed(callback.embeds)
    return callback


# ----------------------------------------------------------------------------- the protocol


async def test_rest_answers_exact_json_and_records_unknown_routes(standin: Fakecord) -> None:
    auth = {"Authorization": f"Bot {standin.token}"}
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{standin.base_url}/users/@me", headers=auth) as resp:
            assert resp.status == 200
            # discord.py parses a body as JSON only if the header is exactly this.
            assert resp.headers["Content-Type"] == "application/json"
            assert resp.headers["Via"]
            assert (await resp.json())["id"] == str(standin.bot_user_id)
        async with http.get(f"{standin.base_url}/users/@me", headers={"Authorization": "Bot x"}):
            pass
        async with http.get(f"{standin.base_url}/gateway") as resp:
            assert (await resp.json())["url"] == standin.gateway_url
        async with http.post(f"{standin.base_url}/guilds/1/bans", headers=auth, json={}) as resp:
            assert resp.status == 404
            assert resp.headers["Content-Type"] == "application/json"
            assert await resp.json() == {"message": "404: Not Found", "code": 0}
    assert [r.status for r in standin.requests] == [200, 401, 200, 404]
    assert [(r.method, r.path) for r in standin.unknown_routes] == [
        ("POST", "/api/v10/guilds/1/bans")
    ]


async def _receive(ws: aiohttp.ClientWebSocketResponse, decompressor: Any) -> dict[str, Any]:
    zlib_stream = decompressor.COMPRESSION_TYPE == "zlib-stream"
    while True:
        msg = await asyncio.wait_for(ws.receive(), 5)
        assert msg.type is aiohttp.WSMsgType.BINARY, msg
        if zlib_stream:
            assert msg.data.endswith(b"\x00\x00\xff\xff")  # each message Z_SYNC_FLUSHed
        text = decompressor.decompress(msg.data)
        if text is not None:
            return json.loads(text)


async def test_gateway_handshake_and_callback_rules(standin: Fakecord) -> None:
    """Speak the gateway the way discord.py does (its own decompressor), then break the rules
    that Discord enforces on callbacks: too long, acknowledged twice."""
    decompressor = discord.utils._ActiveDecompressionContext()
    query = f"?v=10&encoding=json&compress={decompressor.COMPRESSION_TYPE}"
    async with (
        aiohttp.ClientSession() as http,
        http.ws_connect(standin.gateway_url + query) as ws,
    ):
        hello = await _receive(ws, decompressor)
        assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
        await ws.send_json({"op": 1, "d": None})
        assert (await _receive(ws, decompressor))["op"] == 11
        identify = {"token": standin.token, "intents": 1, "properties": {}}
        await ws.send_json({"op": 2, "d": identify})
        ready = await _receive(ws, decompressor)
        assert (ready["op"], ready["t"], ready["s"]) == (0, "READY", 1)
        assert ready["d"]["resume_gateway_url"] == standin.resume_gateway_url
        assert ready["d"]["application"]["id"] == str(standin.application_id)
        guild_create = await _receive(ws, decompressor)
        assert (guild_create["t"], guild_create["s"]) == ("GUILD_CREATE", 2)
        assert guild_create["d"]["id"] == str(standin.guilds[0].id)

        payload = standin.command_interaction("ping", require_synced=False)
        future = await standin.post_interaction(payload)
        dispatch = await _receive(ws, decompressor)
        assert (dispatch["t"], dispatch["s"]) == ("INTERACTION_CREATE", 3)
        assert dispatch["d"]["id"] == payload["id"]

        url = f"{standin.base_url}/interactions/{payload['id']}/{payload['token']}/callback"
        too_long = {"type": 4, "data": {"content": "x" * 2001}}
        async with http.post(url, json=too_long, params={"with_response": "1"}) as resp:
            assert resp.status == 400
            assert (await resp.json())["code"] == 50035
        good = {"type": 4, "data": {"content": "ok", "flags": MESSAGE_FLAG_EPHEMERAL}}
        async with http.post(url, json=good, params={"with_response": "1"}) as resp:
            assert resp.status == 200
            body = await resp.json()
            assert body["interaction"]["id"] == payload["id"]
            assert body["interaction"]["response_message_ephemeral"] is True
            assert body["resource"]["message"]["content"] == "ok"
        async with http.post(url, json=good) as resp:
            assert resp.status == 400
            assert (await resp.json())["code"] == 40060  # already acknowledged
    callback = future.result()
    assert (callback.type, callback.content, callback.attempts) == (4, "ok", 2)
    assert len(standin.validation_errors) == 1


@contextlib.asynccontextmanager
async def identified(standin: Fakecord) -> AsyncIterator[aiohttp.ClientSession]:
    """A raw gateway session (HELLO, IDENTIFY, READY) so that interactions can be dispatched
    without a bot; yields an HTTP session for playing the bot's REST side by hand."""
    async with (
        aiohttp.ClientSession() as http,
        http.ws_connect(standin.gateway_url + "?v=10&encoding=json") as ws,
    ):
        await ws.receive(timeout=5)
        await ws.send_json({"op": 2, "d": {"token": standin.token, "intents": 0}})
        await standin.wait_ready(5.0)
        yield http


async def test_webhook_routes_serve_discord_py_multipart_and_edits(
    standin: Fakecord, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Follow-ups with a file, edits of @original and of a follow-up, fetch and delete, all
    sent by discord.py's own webhook code (multipart with payload_json included)."""
    monkeypatch.setattr(discord.http.Route, "BASE", standin.base_url)
    async with identified(standin) as http:
        payload = standin.command_interaction("x", require_synced=False)
        await standin.post_interaction(payload)
        url = f"{standin.base_url}/interactions/{payload['id']}/{payload['token']}/callback"
        async with http.post(url, json={"type": 5}, params={"with_response": "1"}) as resp:
            body = await resp.json()
            assert body["interaction"]["response_message_loading"] is True
        original_id = int(body["interaction"]["response_message_id"])
        assert standin.messages[original_id]["flags"] & MESSAGE_FLAG_LOADING

        adapter = async_context.get()
        edited = await adapter.edit_original_interaction_response(
            standin.application_id,
            payload["token"],
            session=http,
            multipart=[
                {"name": "payload_json", "value": json.dumps({"content": "done"})},
                {"name": "files[0]", "value": b"sheet", "filename": "sheet.txt"},
            ],
        )
        assert edited["content"] == "done"
        assert not edited["flags"] & MESSAGE_FLAG_LOADING
        assert edited["attachments"][0]["filename"] == "sheet.txt"

        # Type 3 (application), as Interaction.followup builds it.
        data = {"id": standin.application_id, "type": 3, "token": payload["token"]}
        hook = discord.Webhook(data, session=http)
        sent = await hook.send(
            "follow", file=discord.File(io.BytesIO(b"hello"), "a.txt"), wait=True, ephemeral=True
        )
        await hook.edit_message(sent.id, content="follow, edited")
        fetched = await hook.fetch_message(sent.id)
        assert fetched.content == "follow, edited"
        await hook.delete_message(sent.id)
        with pytest.raises(discord.NotFound):
            await hook.fetch_message(sent.id)

    followup = standin.followups[0]
    assert followup.content == "follow"
    assert followup.flags & MESSAGE_FLAG_EPHEMERAL
    assert [(f.filename, f.data) for f in followup.files] == [("a.txt", b"hello")]
    assert [e.kind for e in standin.message_events] == [
        "original_edit",
        "followup",
        "webhook_edit",
        "webhook_delete",
    ]
    assert standin.original_edits[0].files[0].data == b"sheet"
    assert_clean(standin)


async def test_privileged_intents_are_refused_at_identify(standin: Fakecord) -> None:
    async with (
        aiohttp.ClientSession() as http,
        http.ws_connect(standin.gateway_url + "?v=10&encoding=json") as ws,
    ):
        hello = json.loads((await ws.receive(timeout=5)).data)
        assert hello["op"] == 10
        members_intent = 1 << 1
        await ws.send_json({"op": 2, "d": {"token": standin.token, "intents": members_intent}})
        msg = await ws.receive(timeout=5)
        assert msg.type is aiohttp.WSMsgType.CLOSE
        assert msg.data == 4014
    assert standin.handshakes == []


async def _identify(
    http: aiohttp.ClientSession, standin: Fakecord, shard: list[Any] | None, intents: int = 1
) -> tuple[aiohttp.ClientWebSocketResponse, dict[str, Any]]:
    """A raw uncompressed gateway connection that has sent IDENTIFY; returns it and its first
    answer (READY, or the close)."""
    ws = await http.ws_connect(standin.gateway_url + "?v=10&encoding=json")
    assert (await ws.receive_json(timeout=5))["op"] == 10
    d: dict[str, Any] = {"token": standin.token, "intents": intents, "properties": {}}
    if shard is not None:
        d["shard"] = shard
    await ws.send_json({"op": 2, "d": d})
    msg = await ws.receive(timeout=5)
    if msg.type is aiohttp.WSMsgType.CLOSE:
        return ws, {"close": msg.data}
    return ws, json.loads(msg.data)


async def test_each_shard_is_its_own_session_with_its_own_guilds_and_events() -> None:
    """Two connections identify as [0, 2] and [1, 2]: each READY lists, and each GUILD_CREATE
    and INTERACTION_CREATE comes for, only the guilds with (id >> 22) % 2 == its shard."""
    async with (
        Fakecord(guilds=SHARDED_GUILDS, shard_count=2) as fake,
        aiohttp.ClientSession() as http,
    ):
        auth = {"Authorization": f"Bot {fake.token}"}
        async with http.get(f"{fake.base_url}/gateway/bot", headers=auth) as resp:
            body = await resp.json()
        assert (body["url"], body["shards"]) == (fake.gateway_url, 2)

        conns, seqs = {}, {}
        for shard_id in (0, 1):
            ws, ready = await _identify(http, fake, [shard_id, 2])
            mine = [str(g.id) for g in SHARDED_GUILDS if (g.id >> 22) % 2 == shard_id]
            assert len(mine) == 2
            assert (ready["t"], ready["s"], ready["d"]["shard"]) == ("READY", 1, [shard_id, 2])
            assert [g["id"] for g in ready["d"]["guilds"]] == mine
            creates = [await ws.receive_json(timeout=5) for _ in mine]
            assert [(c["t"], c["d"]["id"]) for c in creates] == [("GUILD_CREATE", i) for i in mine]
            conns[shard_id], seqs[shard_id] = ws, creates[-1]["s"]
        first, second = fake.handshakes
        assert (first.shard, second.shard) == ((0, 2), (1, 2))
        assert first.session_id != second.session_id and first.conn_id != second.conn_id
        assert [p["shard"] for p in fake.identify_payloads] == [[0, 2], [1, 2]]

        for guild, shard_id in ((SHARDED_GUILDS[3], 1), (SHARDED_GUILDS[2], 0)):
            assert fake.shard_of(guild.id) == shard_id
            payload = fake.command_interaction("ping", guild_id=guild.id, require_synced=False)
            await fake.post_interaction(payload)
            event = await conns[shard_id].receive_json(timeout=5)
            assert (event["t"], event["d"]["id"]) == ("INTERACTION_CREATE", payload["id"])
            assert event["s"] == seqs[shard_id] + 1  # each session counts its own events

        await fake.close_gateway(4000, shard_id=1)
        assert (await conns[1].receive(timeout=5)).data == 4000
        await fake.send_reconnect(shard_id=0)
        assert (await conns[0].receive_json(timeout=5))["op"] == 7  # shard 0 still connected
        with pytest.raises(FakecordError, match="no gateway session for shard 2"):
            await fake.dispatch("X", {"guild_id": str(SHARDED_GUILDS[1].id)}, shard_id=2)
        for ws in conns.values():
            await ws.close()


@pytest.mark.parametrize("shard", [[2, 2], [0, 0], [-1, 2], [0], [0, 1, 2], "0,1", [True, 2]])
async def test_an_invalid_shard_is_closed_with_4010(standin: Fakecord, shard: Any) -> None:
    async with aiohttp.ClientSession() as http:
        ws, answer = await _identify(http, standin, shard)
        await ws.close()
    assert answer == {"close": 4010}
    assert standin.handshakes == []


async def test_too_many_guilds_on_one_shard_is_closed_with_4011() -> None:
    """Discord refuses a session that would carry more guilds than a shard may (2,500)."""
    guilds = many_guilds(3, step=SHARD_STEP)  # shard 0 of 2: two guilds; shard 1: one
    async with (
        Fakecord(guilds=guilds, max_guilds_per_shard=2) as fake,
        aiohttp.ClientSession() as http,
    ):
        ws, answer = await _identify(http, fake, None)
        await ws.close()
        assert answer == {"close": 4011}
        ws, ready = await _identify(http, fake, [0, 2])
        await ws.close()
        assert len(ready["d"]["guilds"]) == 2


# ----------------------------------------------------------------------------- the bare bot


async def test_bare_bot_syncs_commands_and_answers_ping(
    standin: Fakecord, barebot: BotProcess
) -> None:
    sync = standin.synced_commands[-1]
    assert (sync.scope, sync.guild_id) == ("guild", standin.guilds[0].id)
    by_name = {c["name"]: c for c in sync.payload}
    assert set(by_name) == {"ping", "roll", "gm"}
    assert by_name["roll"]["options"][0]["name"] == "sides"
    assert by_name["gm"]["options"][0]["type"] == 1  # a subcommand
    assert not standin.identify_payloads[-1]["intents"] & PRIVILEGED_INTENTS

    callback = await ping(standin)
    assert callback.query.get("with_response") == "1"
    assert callback.attempts == 1
    assert 0 < callback.latency < 3.0
    assert standin.messages[callback.message_id]["embeds"][0]["title"] == EMBED_TITLE
    assert_clean(standin)


async def test_roll_button_click_updates_the_message(
    standin: Fakecord, barebot: BotProcess
) -> None:
    roll = await standin.send_interaction(standin.command_interaction("roll", {"sides": 6}))
    assert roll.type == CALLBACK_CHANNEL_MESSAGE
    assert_constant_embed(roll.embeds)
    buttons = [c for row in roll.components for c in row["components"]]
    assert [b["custom_id"] for b in buttons] == [AGAIN_CUSTOM_ID]

    click = standin.component_interaction(AGAIN_CUSTOM_ID, roll.message_id)
    update = await standin.send_interaction(click)
    assert update.type == CALLBACK_UPDATE_MESSAGE
    assert_constant_embed(update.embeds)
    assert update.message_id == roll.message_id
    assert standin.messages[roll.message_id]["edited_timestamp"] is not None
    assert_clean(standin)


async def test_subcommand_defers_posts_to_channel_and_follows_up(
    standin: Fakecord, barebot: BotProcess
) -> None:
    channel_id = standin.guilds[0].channels[1].id
    payload = standin.command_interaction(
        "gm", {"text": "the bridge is out"}, subcommand="post", channel_id=channel_id
    )
    deferred = await standin.send_interaction(payload)
    assert deferred.type == CALLBACK_DEFERRED_CHANNEL_MESSAGE
    assert deferred.ephemeral

    posted = await standin.wait_message_event("channel_message")
    assert posted.channel_id == channel_id
    assert_constant_embed(posted.embeds)
    followup = await standin.wait_message_event("followup")
    assert followup.token == payload["token"]
    assert followup.flags & MESSAGE_FLAG_EPHEMERAL
    assert_constant_embed(followup.embeds)
    assert_clean(standin)


GATEWAY_FAULTS = {
    # fault: (how to cause it, expected handshake, gateway path used, least seconds until it)
    "abrupt-close-1006": (lambda s: s.close_gateway(1006), "resume", "/gateway-resume", 0.0),
    "close-4000": (lambda s: s.close_gateway(4000), "resume", "/gateway-resume", 0.0),
    "reconnect-op7": (lambda s: s.send_reconnect(), "resume", "/gateway-resume", 0.0),
    "invalid-session-resumable": (
        lambda s: s.send_invalid_session(resumable=True),
        "resume",
        "/gateway-resume",
        0.0,
    ),
    # discord.py's Client.before_identify_hook sleeps 5 s before every IDENTIFY but the first:
    # after INVALID_SESSION(false) the bot is deaf for 5 s, whatever the bot's own code does.
    "invalid-session": (
        lambda s: s.send_invalid_session(resumable=False),
        "identify",
        "/gateway",
        4.5,
    ),
}


@pytest.mark.parametrize("fault", list(GATEWAY_FAULTS))
async def test_bot_survives_gateway_fault(
    standin: Fakecord, barebot: BotProcess, fault: str
) -> None:
    cause, kind, path, least_gap = GATEWAY_FAULTS[fault]
    first = standin.handshakes[-1]
    await ping(standin)
    before = len(standin.handshakes)

    started = time.perf_counter()
    await cause(standin)
    again = await standin.wait_ready(10.0, after=before)

    assert (again.kind, again.path) == (kind, path)
    assert again.at - started >= least_gap
    if kind == "resume":
        assert again.session_id == first.session_id
    else:
        assert again.session_id != first.session_id
    assert again.conn_id != first.conn_id
    await ping(standin)
    assert barebot.returncode is None
    assert_clean(standin)


async def test_interaction_sent_while_disconnected_is_replayed_on_resume(
    standin: Fakecord, barebot: BotProcess
) -> None:
    before = len(standin.handshakes)
    await standin.close_gateway(1006)
    # No live connection now: the dispatch is buffered, as Discord buffers for a resume.
    future = await standin.post_interaction(standin.command_interaction("ping"))
    resumed = await standin.wait_ready(10.0, after=before)
    assert resumed.kind == "resume"
    assert resumed.replayed == 1
    callback = await asyncio.wait_for(future, 5)
    assert_constant_embed(callback.embeds)


async def test_callback_429_is_retried_after_retry_after(
    standin: Fakecord, barebot: BotProcess
) -> None:
    fault = standin.inject_fault(429, count=1, retry_after=0.4)
    callback = await ping(standin)
    assert fault.hits == 1
    assert [r.status for r in standin.callback_attempts(callback.interaction_id)] == [429, 200]
    assert callback.attempts == 1  # the 429 never reached the interaction
    assert callback.latency >= 0.4
    assert_clean(standin)


async def test_callback_429_without_via_is_not_retried(
    standin: Fakecord, barebot: BotProcess
) -> None:
    """No Via header: discord.py takes the 429 for a Cloudflare ban and gives up at once."""
    standin.inject_fault(429, count=1, retry_after=0.2, cloudflare=True)
    payload = standin.command_interaction("ping")
    with pytest.raises(FakecordError):
        await standin.send_interaction(payload, timeout=1.5)
    assert [r.status for r in standin.callback_attempts(payload["id"])] == [429]
    await ping(standin)  # the bot itself is unharmed


async def test_callback_500_is_retried_after_a_second(
    standin: Fakecord, barebot: BotProcess
) -> None:
    standin.inject_fault(500, count=1)
    callback = await ping(standin)
    assert [r.status for r in standin.callback_attempts(callback.interaction_id)] == [500, 200]
    assert 1.0 <= callback.latency < 3.0
    assert_clean(standin)


async def test_two_callback_500s_outlast_the_ack_deadline(
    standin: Fakecord, barebot: BotProcess
) -> None:
    """discord.py retries a 5xx after 1 s, then 3 s more: the third attempt comes 4 s after the
    interaction, past the 3 s deadline, and Discord has forgotten the interaction (404)."""
    standin.inject_fault(500, count=2)
    payload = standin.command_interaction("ping")
    future = await standin.post_interaction(payload)

    def statuses() -> list[int]:
        return [r.status for r in standin.callback_attempts(payload["id"])]

    await standin.wait_for(lambda: len(statuses()) >= 3, timeout=8.0, what="3 callback attempts")
    assert statuses() == [500, 500, 404]
    assert not future.done()
    await ping(standin)


async def test_sigterm_exits_zero_and_closes_the_gateway(
    standin: Fakecord, barebot: BotProcess
) -> None:
    await ping(standin)
    assert await barebot.terminate(timeout=10.0) == 0
    close = await standin.wait_gateway_close(5.0)
    assert close.initiator == "client"
    # discord.py 2.7.1 asks for 1000 but its reader task answers first with 4000.
    assert close.code in (1000, 4000)
    assert "closed cleanly" in barebot.output()


@pytest.mark.parametrize(
    "standin", [{"guilds": SHARDED_GUILDS, "shard_count": 2}], indirect=True, ids=["2-shards"]
)
async def test_auto_sharded_bot_runs_the_shard_count_gateway_bot_recommends(
    standin: Fakecord, launch_bot: LaunchBot
) -> None:
    """discord.py's AutoShardedClient without a count asks GET /gateway/bot, then identifies
    each shard (the second 5 s after the first: before_identify_hook) on the URL it got."""
    bot = await launch_bot(BAREBOT, env={"BAREBOT_SHARDED": "1"})
    await bot.until(standin.wait_ready(15.0, after=1), timeout=20.0)
    assert [r.path for r in standin.requests if r.kind == "gateway_info"] == [
        "/api/v10/gateway/bot"
    ]
    assert sorted(p["shard"] for p in standin.identify_payloads) == [[0, 2], [1, 2]]
    assert {h.shard for h in standin.handshakes} == {(0, 2), (1, 2)}
    for guild in (SHARDED_GUILDS[0], SHARDED_GUILDS[1]):
        payload = standin.command_interaction("ping", guild_id=guild.id, require_synced=False)
        assert_constant_embed((await standin.send_interaction(payload)).embeds)
    assert_clean(standin)


async def test_a_bot_that_dies_fails_fast_with_its_output(
    standin: Fakecord, launch_bot: LaunchBot
) -> None:
    """The fixtures must not hide a crash behind a 15 s timeout."""
    process = await launch_bot(env={"DISCORD_TOKEN": ""})
    started = time.perf_counter()
    with pytest.raises(AssertionError, match="exited with code 1") as failure:
        await process.until(standin.wait_ready(15.0))
    assert time.perf_counter() - started < 10.0
    assert "DISCORD_TOKEN is not set" in str(failure.value)
