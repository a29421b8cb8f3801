"""Fakecord: a local stand-in for Discord's HTTP API v10 and gateway, for end-to-end tests.

A real bot process (discord.py 2.7) is pointed at this server by ``launcher.py`` and cannot tell
it from Discord for the parts it uses: login, application info, slash command sync, the gateway
(HELLO / IDENTIFY / READY / GUILD_CREATE / heartbeats / RESUME), INTERACTION_CREATE dispatches,
interaction callbacks, webhook follow-ups and edits, and channel messages.  Everything the bot
sends is recorded so a test can assert on it, and faults (429, 5xx, gateway closes, RECONNECT,
INVALID_SESSION) can be injected to see how the bot copes.  It binds to 127.0.0.1 only.

Why a stand-in rather than mocks: it exercises the bot exactly as deployed (its own process, its
own event loop, discord.py's real HTTP and gateway code), so timing, reconnects and payload shapes
are tested end to end.  Where Discord enforces a rule that a bot can break (the 3 s
acknowledgement deadline, acknowledging twice, message and embed size limits, an empty message)
the stand-in enforces it too, so the bug shows up here and not in production.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import math
import secrets
import time
import uuid
import zlib
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import BodyPartReader, WSMsgType, web

log = logging.getLogger("fakecord")

API_PREFIX = "/api/v10"
JSON_CONTENT_TYPE = "application/json"
DISCORD_EPOCH_MS = 1_420_070_400_000

# Gateway intents (https://discord.com/developers/docs/events/gateway#gateway-intents).
INTENT_GUILDS = 1 << 0
# GUILD_MEMBERS, GUILD_PRESENCES, MESSAGE_CONTENT: refused at IDENTIFY unless enabled.
PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)

# Interaction types and callback types.
INTERACTION_PING = 1
INTERACTION_APPLICATION_COMMAND = 2
INTERACTION_MESSAGE_COMPONENT = 3
INTERACTION_AUTOCOMPLETE = 4
INTERACTION_MODAL_SUBMIT = 5
CALLBACK_PONG = 1
CALLBACK_CHANNEL_MESSAGE = 4
CALLBACK_DEFERRED_CHANNEL_MESSAGE = 5
CALLBACK_DEFERRED_UPDATE_MESSAGE = 6
CALLBACK_UPDATE_MESSAGE = 7
CALLBACK_AUTOCOMPLETE_RESULT = 8
CALLBACK_MODAL = 9
CALLBACK_TYPES = frozenset({1, 4, 5, 6, 7, 8, 9, 10, 12})

MESSAGE_FLAG_EPHEMERAL = 1 << 6
MESSAGE_FLAG_LOADING = 1 << 7
MESSAGE_FLAG_COMPONENTS_V2 = 1 << 15

# What an ordinary guild member may do, as Discord serialises permissions: a decimal string.
DEFAULT_MEMBER_PERMISSIONS = str((1 << 41) - 1 & ~(1 << 3))  # everything but ADMINISTRATOR
DEFAULT_APP_PERMISSIONS = str((1 << 41) - 1 & ~(1 << 3))

# Application command option types.
OPTION_SUB_COMMAND = 1
OPTION_SUB_COMMAND_GROUP = 2
OPTION_STRING = 3
OPTION_INTEGER = 4
OPTION_BOOLEAN = 5
OPTION_NUMBER = 10

# Fixed ids so that logs from different runs line up; they look like real snowflakes.
DEFAULT_APPLICATION_ID = 1_300_000_000_000_000_001
DEFAULT_GUILD_ID = 1_300_000_000_000_000_100
DEFAULT_CHANNEL_ID = 1_300_000_000_000_000_101
DEFAULT_GM_CHANNEL_ID = 1_300_000_000_000_000_102
DEFAULT_USER_ID = 1_300_000_000_000_000_200
DEFAULT_TOKEN = "fakecord.bot.token"


# --------------------------------------------------------------------------------------------
# Configuration and records
# --------------------------------------------------------------------------------------------


@dataclass
class ChannelSpec:
    """A guild channel the stand-in knows (type 0 is a text channel)."""

    id: int
    name: str
    type: int = 0


@dataclass
class GuildSpec:
    """A guild the bot is a member of; sent as GUILD_CREATE after READY."""

    id: int
    name: str
    channels: list[ChannelSpec] = field(default_factory=list)
    owner_id: int = DEFAULT_USER_ID
    locale: str = "en-US"


def default_guilds() -> list[GuildSpec]:
    """One guild with a play channel and a GM channel, enough for a tabletop bot."""
    return [
        GuildSpec(
            id=DEFAULT_GUILD_ID,
            name="Fakecord Test Guild",
            channels=[
                ChannelSpec(DEFAULT_CHANNEL_ID, "general"),
                ChannelSpec(DEFAULT_GM_CHANNEL_ID, "gm"),
            ],
        )
    ]


@dataclass
class UploadedFile:
    """One file part of a multipart request (``files[n]``)."""

    field: str
    filename: str | None
    content_type: str | None
    data: bytes


@dataclass
class RequestRecord:
    """One HTTP request the bot made, as answered."""

    method: str
    path: str
    query: dict[str, str]
    kind: str
    status: int
    body: Any
    files: list[UploadedFile]
    at: float


@dataclass
class Callback:
    """An accepted interaction callback (``POST /interactions/{id}/{token}/callback``)."""

    interaction_id: int
    token: str
    type: int
    data: dict[str, Any] | None
    files: list[UploadedFile]
    query: dict[str, str]
    sent_at: float
    received_at: float
    attempts: int
    message_id: int | None

    @property
    def latency(self) -> float:
        """Seconds from INTERACTION_CREATE sent to this callback received (incl. retries)."""
        return self.received_at - self.sent_at

    @property
    def flags(self) -> int:
        return int((self.data or {}).get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & MESSAGE_FLAG_EPHEMERAL)

    @property
    def content(self) -> str | None:
        return (self.data or {}).get("content")

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return list((self.data or {}).get("embeds") or [])

    @property
    def components(self) -> list[dict[str, Any]]:
        return list((self.data or {}).get("components") or [])


@dataclass
class MessageEvent:
    """A message the bot created, edited or deleted through a webhook or channel route.

    ``kind`` is one of: followup, original_edit, original_delete, webhook_edit, webhook_delete,
    channel_message, channel_edit, channel_delete.  ``message`` is the stored message after the
    event (None for deletions).
    """

    kind: str
    message_id: int
    channel_id: int | None
    token: str | None
    body: dict[str, Any]
    files: list[UploadedFile]
    message: dict[str, Any] | None
    at: float

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return list(self.body.get("embeds") or [])

    @property
    def content(self) -> str | None:
        return self.body.get("content")

    @property
    def flags(self) -> int:
        return int(self.body.get("flags") or 0)


@dataclass
class CommandSync:
    """One bulk overwrite of application commands (what ``tree.sync()`` sends)."""

    scope: str  # "global" or "guild"
    guild_id: int | None
    payload: list[dict[str, Any]]
    response: list[dict[str, Any]]
    at: float


@dataclass
class Handshake:
    """A completed gateway handshake: READY after IDENTIFY, or RESUMED after RESUME."""

    kind: str  # "identify" or "resume"
    conn_id: int
    session_id: str
    path: str
    query: dict[str, str]
    intents: int
    replayed: int
    at: float


@dataclass
class GatewayClose:
    """How a gateway connection ended: who closed it, with which code."""

    conn_id: int
    initiator: str  # "server" (a test control or a protocol error) or "client"
    code: int | None
    at: float


@dataclass
class FaultRequest:
    """What a fault predicate sees of a request."""

    kind: str
    method: str
    path: str
    body: Any


@dataclass
class Fault:
    """An injected HTTP failure; ``remaining`` None means it never runs out."""

    status: int
    remaining: int | None
    kinds: frozenset[str] | None
    predicate: Callable[[FaultRequest], bool] | None
    retry_after: float
    is_global: bool
    cloudflare: bool
    hits: int = 0

    def matches(self, req: FaultRequest) -> bool:
        if self.remaining is not None and self.remaining <= 0:
            return False
        if self.kinds is not None and req.kind not in self.kinds:
            return False
        return self.predicate is None or bool(self.predicate(req))


@dataclass
class _Interaction:
    id: int
    token: str
    type: int
    payload: dict[str, Any]
    sent_at: float
    future: asyncio.Future[Callback]
    attempts: int = 0
    acked: bool = False
    original_id: int | None = None


class _Session:
    def __init__(self, session_id: str, intents: int, shard: list[int] | None) -> None:
        self.id = session_id
        self.intents = intents
        self.shard = shard
        self.seq = 0
        self.buffer: list[tuple[int, dict[str, Any]]] = []
        self.conn: _Conn | None = None
        self.invalid = False


class _Conn:
    def __init__(
        self, conn_id: int, ws: web.WebSocketResponse, request: web.Request, compress: str | None
    ) -> None:
        self.id = conn_id
        self.ws = ws
        self.request = request
        self.path = request.path
        self.query = dict(request.query)
        self.compress = compress
        self.session: _Session | None = None
        self.lock = asyncio.Lock()
        self.server_close_code: int | None = None
        self._compress = _make_compressor(compress)

    @property
    def open(self) -> bool:
        return not self.ws.closed and self.server_close_code is None

    async def send(self, payload: Mapping[str, Any]) -> bool:
        """Send one gateway message; False if the connection went away meanwhile (a dispatch
        stays in the session's buffer and is replayed on RESUME)."""
        raw = json.dumps(payload, separators=(",", ":"))
        async with self.lock:  # the zlib stream must see frames in the order they are sent
            if self.ws.closed:
                return False
            try:
                if self._compress is None:
                    await self.ws.send_str(raw)
                else:
                    await self.ws.send_bytes(self._compress(raw.encode()))
            except ConnectionError as exc:  # aiohttp's ClientConnectionResetError is one
                log.debug("fakecord: gateway connection %s lost while sending: %s", self.id, exc)
                return False
            return True


def _make_compressor(kind: str | None) -> Callable[[bytes], bytes] | None:
    """Transport compression as discord.py's ``_ActiveDecompressionContext`` expects it.

    zlib-stream: one deflate stream per connection, every message flushed with Z_SYNC_FLUSH so it
    ends in 00 00 ff ff.  zstd-stream (discord.py picks it when ``zstandard`` is installed or on
    Python 3.14): one zstd stream per connection, every message a flushed block.
    """
    if kind is None:
        return None
    if kind == "zlib-stream":
        z = zlib.compressobj()
        return lambda data: z.compress(data) + z.flush(zlib.Z_SYNC_FLUSH)
    if kind == "zstd-stream":
        try:
            from compression import zstd  # type: ignore[import-not-found]  # Python 3.14+

            zc = zstd.ZstdCompressor()
            return lambda data: zc.compress(data, mode=zstd.ZstdCompressor.FLUSH_BLOCK)
        except ImportError:
            pass
        try:
            import zstandard  # type: ignore[import-not-found]

            zo = zstandard.ZstdCompressor().compressobj()
            return lambda data: zo.compress(data) + zo.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK)
        except ImportError:
            pass
    raise ValueError(f"unsupported gateway compression {kind!r}")


@dataclass
class _ReqState:
    """What a handler learnt about a request, for the recording middleware."""

    kind: str
    body: Any = None
    files: list[UploadedFile] = field(default_factory=list)
    validation: dict[str, Any] | None = None
    cloudflare: bool = False


_STATE = web.RequestKey("fakecord", _ReqState)


def _dict_body(request: web.Request) -> dict[str, Any]:
    body = request[_STATE].body
    return body if isinstance(body, dict) else {}


class FakecordError(AssertionError):
    """A test expectation about the stand-in was not met (a timeout, a missing command)."""


# --------------------------------------------------------------------------------------------
# The stand-in
# --------------------------------------------------------------------------------------------


class Fakecord:
    """An aiohttp server imitating Discord's API v10 and gateway on 127.0.0.1.

    Use it from the test's event loop::

        standin = Fakecord()
        await standin.start()
        ... launch the bot with --base standin.base_url --gateway standin.gateway_url ...
        await standin.wait_ready()
        cb = await standin.send_interaction(standin.command_interaction("ping"))
        await standin.stop()
    """

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        application_id: int = DEFAULT_APPLICATION_ID,
        bot_name: str = "Fakecord Bot",
        guilds: Sequence[GuildSpec] | None = None,
        heartbeat_interval_ms: int = 41_250,
        ack_deadline: float | None = 3.0,
        allow_privileged_intents: bool = False,
        guild_create: bool | None = None,
    ) -> None:
        """Configure the fake application; nothing listens until ``start()``.

        ``ack_deadline``: seconds within which an interaction must be acknowledged, as on Discord
        (None disables it).  ``guild_create``: send GUILD_CREATE after READY; None (default) does
        so only when IDENTIFY asks for the GUILDS intent, as Discord does.
        """
        self.token = token
        self.application_id = application_id
        self.bot_user_id = application_id  # a bot's user id equals its application id
        self.bot_name = bot_name
        self.guilds: list[GuildSpec] = list(guilds) if guilds is not None else default_guilds()
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.ack_deadline = ack_deadline
        self.allow_privileged_intents = allow_privileged_intents
        self.guild_create = guild_create

        # Records, in arrival order.
        self.requests: list[RequestRecord] = []
        self.unknown_routes: list[RequestRecord] = []
        self.validation_errors: list[tuple[RequestRecord | None, dict[str, Any]]] = []
        self.synced_commands: list[CommandSync] = []
        self.callbacks: list[Callback] = []
        self.message_events: list[MessageEvent] = []
        self.messages: dict[int, dict[str, Any]] = {}
        self.dm_channels: dict[int, int] = {}
        """Direct-message channel id -> the user it reaches (a bot DMs a GM a hidden roll)."""
        self.handshakes: list[Handshake] = []
        self.identify_payloads: list[dict[str, Any]] = []
        self.gateway_closes: list[GatewayClose] = []
        self.heartbeats = 0
        self.faults: list[Fault] = []

        self._commands: dict[int | None, list[dict[str, Any]]] = {}
        self._command_ids: dict[tuple[int | None, int, str], int] = {}
        self._interactions_by_id: dict[int, _Interaction] = {}
        self._interactions_by_token: dict[str, _Interaction] = {}
        self._sessions: dict[str, _Session] = {}
        self._session: _Session | None = None
        self._conns: dict[int, _Conn] = {}
        self._conn_ids = itertools.count(1)
        self._last_snowflake = 0
        self._changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self._port: int | None = None

    # ---------------------------------------------------------------- lifecycle

    async def start(self) -> Fakecord:
        """Listen on a free port of 127.0.0.1."""
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        app.router.add_get("/", self._gateway)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/gateway-resume", self._gateway)
        p = API_PREFIX
        routes: list[tuple[str, str, Callable[[web.Request], Awaitable[web.StreamResponse]]]] = [
            ("GET", "/users/@me", self._get_me),
            ("POST", "/users/@me/channels", self._post_dm_channel),
            ("GET", "/users/{uid}", self._get_user),
            ("GET", "/gateway", self._get_gateway),
            ("GET", "/gateway/bot", self._get_gateway_bot),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("GET", "/applications/@me", self._get_application),
            ("PUT", "/applications/{app}/commands", self._put_commands),
            ("GET", "/applications/{app}/commands", self._get_commands),
            ("PUT", "/applications/{app}/guilds/{guild}/commands", self._put_commands),
            ("GET", "/applications/{app}/guilds/{guild}/commands", self._get_commands),
            ("POST", "/interactions/{iid}/{token}/callback", self._post_callback),
            ("POST", "/webhooks/{app}/{token}", self._post_followup),
            ("GET", "/webhooks/{app}/{token}/messages/{mid}", self._webhook_message),
            ("PATCH", "/webhooks/{app}/{token}/messages/{mid}", self._webhook_message),
            ("DELETE", "/webhooks/{app}/{token}/messages/{mid}", self._webhook_message),
            ("GET", "/channels/{cid}", self._get_channel),
            ("POST", "/channels/{cid}/messages", self._post_channel_message),
            ("GET", "/channels/{cid}/messages/{mid}", self._channel_message),
            ("PATCH", "/channels/{cid}/messages/{mid}", self._channel_message),
            ("DELETE", "/channels/{cid}/messages/{mid}", self._channel_message),
        ]
        for method, path, handler in routes:
            app.router.add_route(method, p + path, handler)
        app.router.add_route("*", "/{tail:.*}", self._unknown)

        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self._port = int(self._runner.addresses[0][1])
        log.info("fakecord listening on %s", self.base_url)
        return self

    async def stop(self) -> None:
        """Drop every gateway connection and stop listening."""
        for conn in list(self._conns.values()):
            self._abort(conn)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        for inter in self._interactions_by_id.values():
            if not inter.future.done():
                inter.future.cancel()

    async def __aenter__(self) -> Fakecord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def port(self) -> int:
        if self._port is None:
            raise RuntimeError("Fakecord is not started")
        return self._port

    @property
    def base_url(self) -> str:
        """What ``discord.http.Route.BASE`` must be set to."""
        return f"http://127.0.0.1:{self.port}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        """What ``DiscordWebSocket.DEFAULT_GATEWAY`` must be set to (and /gateway returns)."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    @property
    def resume_gateway_url(self) -> str:
        """Sent in READY; a separate path so tests can see that resumes use it."""
        return f"ws://127.0.0.1:{self.port}/gateway-resume"

    # ---------------------------------------------------------------- waiting

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def _wait_until(self, predicate: Callable[[], Any], timeout: float, what: str) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise FakecordError(f"timed out after {timeout:.1f}s waiting for {what}")
            with contextlib.suppress(TimeoutError):  # 0.1 s cap: a missed notify only delays
                await asyncio.wait_for(self._changed.wait(), min(remaining, 0.1))

    async def wait_for(
        self, predicate: Callable[[], Any], timeout: float = 5.0, what: str = "a condition"
    ) -> Any:
        """Wait until ``predicate()`` is truthy (re-checked whenever the stand-in records
        something) and return its value; raise FakecordError after ``timeout`` seconds."""
        return await self._wait_until(predicate, timeout, what)

    async def wait_ready(self, timeout: float = 10.0, *, after: int = 0) -> Handshake:
        """Wait for handshake number ``after + 1`` (READY or RESUMED sent) and return it.

        Pass ``after=len(standin.handshakes)`` before a fault to wait for the reconnection.
        """
        return await self._wait_until(
            lambda: self.handshakes[after] if len(self.handshakes) > after else None,
            timeout,
            f"gateway handshake #{after + 1}",
        )

    async def wait_synced(
        self, timeout: float = 10.0, *, guild_id: int | None = None, after: int = 0
    ) -> CommandSync:
        """Wait for a command sync to the given scope (None: global) beyond the first ``after``."""

        def find() -> CommandSync | None:
            found = [s for s in self.synced_commands if s.guild_id == guild_id]
            return found[after] if len(found) > after else None

        scope = "global" if guild_id is None else f"guild {guild_id}"
        return await self._wait_until(find, timeout, f"command sync ({scope})")

    async def wait_message_event(
        self,
        kind: str | None = None,
        *,
        predicate: Callable[[MessageEvent], bool] | None = None,
        timeout: float = 5.0,
        after: int = 0,
    ) -> MessageEvent:
        """Wait for a message event of ``kind`` (any if None) beyond the first ``after`` of them."""

        def find() -> MessageEvent | None:
            found = [
                e
                for e in self.message_events
                if (kind is None or e.kind == kind) and (predicate is None or predicate(e))
            ]
            return found[after] if len(found) > after else None

        return await self._wait_until(find, timeout, f"message event {kind or 'any'}")

    async def wait_gateway_close(self, timeout: float = 5.0, *, after: int = 0) -> GatewayClose:
        """Wait for gateway connection close number ``after + 1``."""
        return await self._wait_until(
            lambda: self.gateway_closes[after] if len(self.gateway_closes) > after else None,
            timeout,
            f"gateway close #{after + 1}",
        )

    # ---------------------------------------------------------------- record views

    @property
    def followups(self) -> list[MessageEvent]:
        return [e for e in self.message_events if e.kind == "followup"]

    @property
    def original_edits(self) -> list[MessageEvent]:
        return [e for e in self.message_events if e.kind == "original_edit"]

    @property
    def channel_messages(self) -> list[MessageEvent]:
        return [e for e in self.message_events if e.kind == "channel_message"]

    @property
    def latencies(self) -> list[float]:
        """Seconds from INTERACTION_CREATE to accepted callback, one per answered interaction."""
        return [c.latency for c in self.callbacks]

    def callback_attempts(self, interaction_id: int | str | None = None) -> list[RequestRecord]:
        """Every callback request (faulted or not), optionally for one interaction."""
        out = [r for r in self.requests if r.kind == "callback"]
        if interaction_id is not None:
            out = [r for r in out if r.path.split("/")[-3] == str(interaction_id)]
        return out

    def current_commands(self, guild_id: int | None = None) -> list[dict[str, Any]]:
        """The commands registered now for a scope, as Discord would return them."""
        return [dict(c) for c in self._commands.get(guild_id, [])]

    def original_message(self, interaction_id: int | str) -> dict[str, Any] | None:
        inter = self._interactions_by_id.get(int(interaction_id))
        if inter is None or inter.original_id is None:
            return None
        return self.messages.get(inter.original_id)

    def interaction_state(self, interaction_id: int | str) -> dict[str, Any]:
        """Attempts, acknowledged flag and original message id, for failure messages."""
        inter = self._interactions_by_id[int(interaction_id)]
        return {"attempts": inter.attempts, "acked": inter.acked, "original": inter.original_id}

    # ---------------------------------------------------------------- faults

    def inject_fault(
        self,
        status: int = 429,
        *,
        count: int | None = 1,
        kinds: Iterable[str] | None = ("callback",),
        predicate: Callable[[FaultRequest], bool] | None = None,
        retry_after: float = 0.5,
        is_global: bool = False,
        cloudflare: bool = False,
    ) -> Fault:
        """Answer the next ``count`` matching requests with ``status`` instead of serving them.

        ``kinds`` selects routes (callback, followup, webhook_message, channel_message,
        channel_message_edit, commands, me, application, gateway_info, channel; None for all).
        For 429 the answer carries what discord.py reads: JSON ``retry_after``/``global``, the
        Retry-After and X-RateLimit-* headers, and ``Via`` (discord.py treats a 429 without
        ``Via`` as a Cloudflare ban and does not retry; ``cloudflare=True`` imitates that).
        """
        fault = Fault(
            status=status,
            remaining=count,
            kinds=frozenset(kinds) if kinds is not None else None,
            predicate=predicate,
            retry_after=retry_after,
            is_global=is_global,
            cloudflare=cloudflare,
        )
        self.faults.append(fault)
        return fault

    def clear_faults(self) -> None:
        self.faults.clear()

    def _take_fault(self, req: FaultRequest) -> web.Response | None:
        for fault in self.faults:
            if fault.matches(req):
                fault.hits += 1
                if fault.remaining is not None:
                    fault.remaining -= 1
                return self._fault_response(fault)
        return None

    def _fault_response(self, fault: Fault) -> web.Response:
        if fault.status == 429:
            if fault.cloudflare:
                resp = web.Response(status=429, text="error code: 1015")
                resp.headers["Content-Type"] = "text/plain"
                resp.headers["Retry-After"] = str(math.ceil(fault.retry_after))
                return resp
            body = {
                "message": "You are being rate limited.",
                "retry_after": fault.retry_after,
                "global": fault.is_global,
            }
            headers = {
                "Retry-After": str(math.ceil(fault.retry_after)),
                "X-RateLimit-Limit": "1",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset": f"{time.time() + fault.retry_after:.3f}",
                "X-RateLimit-Reset-After": f"{fault.retry_after:.3f}",
                "X-RateLimit-Bucket": "fakecord0000000000000000000000000",
                "X-RateLimit-Scope": "global" if fault.is_global else "user",
            }
            if fault.is_global:
                headers["X-RateLimit-Global"] = "true"
            return _json(body, status=429, headers=headers)
        if fault.status >= 500:
            return _json({"message": f"{fault.status}: Server Error", "code": 0}, fault.status)
        return _json({"message": f"{fault.status}: injected by fakecord", "code": 0}, fault.status)

    # ---------------------------------------------------------------- gateway controls

    def _live_conn(self) -> _Conn | None:
        session = self._session
        if session is None or session.conn is None or not session.conn.open:
            return None
        return session.conn

    def _require_conn(self) -> _Conn:
        conn = self._live_conn()
        if conn is None:
            raise FakecordError("no live gateway connection")
        return conn

    def _abort(self, conn: _Conn) -> None:
        transport = conn.request.transport
        if transport is not None:
            transport.abort()

    async def close_gateway(self, code: int = 4000, reason: str = "") -> None:
        """Close the bot's gateway connection; code 1006 drops TCP without a close frame."""
        conn = self._require_conn()
        conn.server_close_code = code
        self._detach(conn)
        self.gateway_closes.append(GatewayClose(conn.id, "server", code, time.perf_counter()))
        self._notify()
        if code == 1006:
            self._abort(conn)
            return
        # ws.close() waits for the client's answering close frame; do not block the test on it.
        task = asyncio.create_task(conn.ws.close(code=code, message=reason.encode()))
        task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)

    async def send_reconnect(self) -> None:
        """Send op 7 RECONNECT: the client should close and RESUME."""
        await self._require_conn().send({"op": 7, "d": None})

    async def send_invalid_session(self, resumable: bool = False) -> None:
        """Send op 9 INVALID_SESSION; when not resumable, the session is forgotten for good."""
        conn = self._require_conn()
        if not resumable and conn.session is not None:
            conn.session.invalid = True
        await conn.send({"op": 9, "d": resumable})

    async def dispatch(self, event: str, data: Mapping[str, Any]) -> int:
        """Send an op 0 dispatch on the current session and return its sequence number.

        If the bot is between connections the event is buffered and replayed on RESUME, as
        Discord does; a session invalidated with INVALID_SESSION(false) loses it.
        """
        session = self._session
        if session is None or session.invalid:
            raise FakecordError(f"cannot dispatch {event}: no gateway session")
        return await self._dispatch(session, event, dict(data))

    async def _dispatch(self, session: _Session, event: str, data: dict[str, Any]) -> int:
        session.seq += 1
        frame = {"op": 0, "t": event, "s": session.seq, "d": data}
        session.buffer.append((session.seq, frame))
        del session.buffer[:-1000]
        conn = session.conn
        if conn is not None and conn.open:
            await conn.send(frame)
        return session.seq

    # ---------------------------------------------------------------- interactions

    async def post_interaction(self, payload: Mapping[str, Any]) -> asyncio.Future[Callback]:
        """Dispatch INTERACTION_CREATE and return a future for its accepted callback.

        For load tests that keep many interactions in flight; ``send_interaction`` awaits it.
        """
        payload = dict(payload)
        iid = int(payload["id"])
        inter = _Interaction(
            id=iid,
            token=payload["token"],
            type=int(payload["type"]),
            payload=payload,
            sent_at=time.perf_counter(),
            future=asyncio.get_running_loop().create_future(),
        )
        self._interactions_by_id[iid] = inter
        self._interactions_by_token[inter.token] = inter
        await self.dispatch("INTERACTION_CREATE", payload)
        return inter.future

    async def send_interaction(
        self, payload: Mapping[str, Any], *, timeout: float = 5.0
    ) -> Callback:
        """Dispatch an interaction and wait for the bot's accepted callback (type and data)."""
        future = await self.post_interaction(payload)
        try:
            return await asyncio.wait_for(asyncio.shield(future), timeout)
        except TimeoutError:
            iid = payload["id"]
            attempts = [r.status for r in self.callback_attempts(iid)]
            raise FakecordError(
                f"no accepted callback for interaction {iid} ({_describe(payload)}) within "
                f"{timeout:.1f}s; callback attempts answered {attempts}; "
                f"unknown routes {[(r.method, r.path) for r in self.unknown_routes]}"
            ) from None

    def snowflake(self) -> int:
        """A fresh, increasing snowflake whose timestamp is now."""
        value = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        value = max(value, self._last_snowflake + 1)
        self._last_snowflake = value
        return value

    def user_payload(self, user_id: int = DEFAULT_USER_ID, username: str | None = None) -> dict:
        """A Discord user object for a (human) player."""
        name = username or f"player{str(user_id)[-4:]}"
        return {
            "id": str(user_id),
            "username": name,
            "global_name": name.title(),
            "discriminator": "0",
            "avatar": None,
            "public_flags": 0,
            "flags": 0,
            "bot": False,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
            "collectibles": None,
            "primary_guild": None,
        }

    def bot_user_payload(self) -> dict[str, Any]:
        """The bot's own user object (GET /users/@me, READY, message authors)."""
        return {
            "id": str(self.bot_user_id),
            "username": self.bot_name.lower().replace(" ", "-"),
            "global_name": None,
            "discriminator": "0",
            "avatar": None,
            "bot": True,
            "verified": True,
            "mfa_enabled": False,
            "flags": 0,
            "public_flags": 0,
            "email": None,
            "locale": "en-US",
            "banner": None,
            "accent_color": None,
        }

    def guild(self, guild_id: int | None = None) -> GuildSpec:
        if guild_id is None:
            return self.guilds[0]
        for g in self.guilds:
            if g.id == guild_id:
                return g
        raise KeyError(f"unknown guild {guild_id}")

    def _channel_spec(self, channel_id: int) -> tuple[GuildSpec, ChannelSpec] | None:
        for g in self.guilds:
            for c in g.channels:
                if c.id == channel_id:
                    return g, c
        return None

    def channel_payload(self, channel_id: int, *, with_permissions: bool = False) -> dict:
        found = self._channel_spec(channel_id)
        if found is None:
            raise KeyError(f"unknown channel {channel_id}")
        g, c = found
        payload: dict[str, Any] = {
            "id": str(c.id),
            "type": c.type,
            "guild_id": str(g.id),
            "name": c.name,
            "position": g.channels.index(c),
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if with_permissions:
            payload["permissions"] = DEFAULT_MEMBER_PERMISSIONS
        return payload

    def _base_interaction(
        self,
        itype: int,
        data: dict[str, Any],
        *,
        guild_id: int | None,
        channel_id: int | None,
        user_id: int,
        username: str | None,
        locale: str,
        permissions: str,
        roles: Sequence[int],
        message: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        guild = self.guild(guild_id)
        channel_id = channel_id if channel_id is not None else guild.channels[0].id
        iid = self.snowflake()
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "guild_id": str(guild.id),
            "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
            "channel_id": str(channel_id),
            "channel": self.channel_payload(channel_id, with_permissions=True),
            "member": {
                "user": self.user_payload(user_id, username),
                "roles": [str(r) for r in roles],
                "joined_at": "2025-01-01T00:00:00.000000+00:00",
                "premium_since": None,
                "deaf": False,
                "mute": False,
                "pending": False,
                "flags": 0,
                "nick": None,
                "avatar": None,
                "banner": None,
                "communication_disabled_until": None,
                "unusual_dm_activity_until": None,
                "permissions": permissions,
            },
            "token": f"fakecord.{iid}.{secrets.token_hex(24)}",
            "version": 1,
            "locale": locale,
            "guild_locale": guild.locale,
            "app_permissions": DEFAULT_APP_PERMISSIONS,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if message is not None:
            payload["message"] = message
        return payload

    def command_interaction(
        self,
        name: str,
        options: Sequence[Mapping[str, Any]] | Mapping[str, Any] | None = None,
        *,
        subcommand: str | None = None,
        group: str | None = None,
        guild_id: int | None = None,
        channel_id: int | None = None,
        user_id: int = DEFAULT_USER_ID,
        username: str | None = None,
        locale: str = "en-US",
        permissions: str = DEFAULT_MEMBER_PERMISSIONS,
        roles: Sequence[int] = (),
        resolved: Mapping[str, Any] | None = None,
        require_synced: bool = True,
    ) -> dict[str, Any]:
        """Build an APPLICATION_COMMAND (type 2) interaction for ``/name [group] [subcommand]``.

        ``options`` is Discord's list of ``{"name", "type", "value"}`` or, for convenience, a
        mapping name -> value whose types are inferred (str 3, bool 5, int 4, float 10).  With
        ``require_synced`` (default) the command must have been synced, in the guild or globally,
        so a test fails at once, not with a timeout, when the bot never registered it.
        """
        guild = self.guild(guild_id)
        command = self._find_command(name, guild.id)
        if command is None and require_synced:
            known = sorted({c["name"] for cs in self._commands.values() for c in cs})
            raise FakecordError(f"command /{name} was never synced; synced: {known}")
        opts = _normalise_options(options)
        if subcommand is not None:
            opts = [{"name": subcommand, "type": OPTION_SUB_COMMAND, "options": opts}]
        if group is not None:
            if subcommand is None:
                raise ValueError("a subcommand group needs a subcommand")
            opts = [{"name": group, "type": OPTION_SUB_COMMAND_GROUP, "options": opts}]
        data: dict[str, Any] = {
            "id": command["id"] if command else str(self.snowflake()),
            "name": name,
            "type": 1,
        }
        if opts:
            data["options"] = opts
        if resolved:
            data["resolved"] = dict(resolved)
        if command is not None and command.get("guild_id"):
            data["guild_id"] = command["guild_id"]
        return self._base_interaction(
            INTERACTION_APPLICATION_COMMAND,
            data,
            guild_id=guild.id,
            channel_id=channel_id,
            user_id=user_id,
            username=username,
            locale=locale,
            permissions=permissions,
            roles=roles,
        )

    def component_interaction(
        self,
        custom_id: str,
        message: Mapping[str, Any] | int | str,
        *,
        component_type: int = 2,
        values: Sequence[str] | None = None,
        guild_id: int | None = None,
        user_id: int = DEFAULT_USER_ID,
        username: str | None = None,
        locale: str = "en-US",
        permissions: str = DEFAULT_MEMBER_PERMISSIONS,
        roles: Sequence[int] = (),
    ) -> dict[str, Any]:
        """Build a MESSAGE_COMPONENT (type 3) interaction: a click on ``custom_id``.

        ``message`` is the message carrying the component, as a payload or as the id of a
        message the bot sent through the stand-in (e.g. ``callback.message_id``).
        """
        if isinstance(message, int | str):
            stored = self.messages.get(int(message))
            if stored is None:
                raise FakecordError(f"message {message} is unknown to the stand-in")
            message = stored
        msg = json.loads(json.dumps(message))
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        if values is not None:
            data["values"] = list(values)
        guild = self.guild(guild_id)
        return self._base_interaction(
            INTERACTION_MESSAGE_COMPONENT,
            data,
            guild_id=guild.id,
            channel_id=int(msg["channel_id"]),
            user_id=user_id,
            username=username,
            locale=locale,
            permissions=permissions,
            roles=roles,
            message=msg,
        )

    def _find_command(self, name: str, guild_id: int) -> dict[str, Any] | None:
        for scope in (guild_id, None):
            for cmd in self._commands.get(scope, []):
                if cmd["name"] == name and int(cmd.get("type", 1)) == 1:
                    return cmd
        return None

    # ---------------------------------------------------------------- HTTP plumbing

    @web.middleware
    async def _middleware(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        resp = await handler(request)
        st = request.get(_STATE)
        if st is None:  # the websocket, which records itself
            return resp
        if "Via" not in resp.headers and not st.cloudflare:
            resp.headers["Via"] = "1.1 google"
        record = RequestRecord(
            method=request.method,
            path=request.path,
            query=dict(request.query),
            kind=st.kind,
            status=resp.status,
            body=st.body,
            files=st.files,
            at=time.perf_counter(),
        )
        self.requests.append(record)
        if record.kind == "unknown":
            self.unknown_routes.append(record)
        if st.validation is not None:
            self.validation_errors.append((record, st.validation))
        self._notify()
        return resp

    async def _begin(
        self, request: web.Request, kind: str, *, auth: bool = True
    ) -> web.Response | None:
        """Read the body, check the token, apply faults; a response means: answer with it."""
        st = request[_STATE] = _ReqState(kind)
        body, files = await _read_body(request)
        st.body, st.files = body, files
        fault = self._take_fault(FaultRequest(kind, request.method, request.path, body))
        if fault is not None:
            if fault.status == 429 and "Via" not in fault.headers:
                st.cloudflare = True
            return fault
        if auth and request.headers.get("Authorization") != f"Bot {self.token}":
            return _json({"message": "401: Unauthorized", "code": 0}, 401)
        return None

    def _invalid(self, request: web.Request, errors: dict[str, Any]) -> web.Response:
        body = {"message": "Invalid Form Body", "code": 50035, "errors": errors}
        request[_STATE].validation = body
        log.warning(
            "fakecord: invalid form body for %s %s: %s", request.method, request.path, errors
        )
        return _json(body, 400)

    async def _unknown(self, request: web.Request) -> web.Response:
        st = request[_STATE] = _ReqState("unknown")
        st.body, st.files = await _read_body(request)
        log.warning("fakecord: unknown route %s %s", request.method, request.path_qs)
        return _json({"message": "404: Not Found", "code": 0}, 404)

    # ---------------------------------------------------------------- REST handlers

    async def _get_me(self, request: web.Request) -> web.Response:
        if (early := await self._begin(request, "me")) is not None:
            return early
        return _json(self.bot_user_payload())

    async def _get_user(self, request: web.Request) -> web.Response:
        if (early := await self._begin(request, "user")) is not None:
            return early
        uid = _int_or_none(request.match_info["uid"])
        if uid is None:
            return _json({"message": "Unknown User", "code": 10013}, 404)
        return _json(self.user_payload(uid))

    async def _post_dm_channel(self, request: web.Request) -> web.Response:
        if (early := await self._begin(request, "dm_channel")) is not None:
            return early
        uid = _int_or_none(str(_dict_body(request).get("recipient_id")))
        if uid is None:
            return self._invalid(request, {"recipient_id": "a user id is required"})
        cid = next((c for c, u in self.dm_channels.items() if u == uid), None) or self.snowflake()
        self.dm_channels[cid] = uid
        return _json(
            {
                "id": str(cid),
                "type": 1,
                "recipients": [self.user_payload(uid)],
                "last_message_id": None,
            }
        )

    async def _get_gateway(self, request: web.Request) -> web.Response:
        if (early := await self._begin(request, "gateway_info", auth=False)) is not None:
            return early
        return _json({"url": self.gateway_url})

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        if (early := await self._begin(request, "gateway_info")) is not None:
            return early
        limit = {"total": 1000, "remaining": 999, "reset_after": 86_400_000, "max_concurrency": 1}
        return _json({"url": self.gateway_url, "shards": 1, "session_start_limit": limit})

    async def _get_application(self, request: web.Request) -> web.Response:
        if (early := await self._begin(request, "application")) is not None:
            return early
        owner = self.user_payload(self.guilds[0].owner_id, "owner")
        return _json(
            {
                "id": str(self.application_id),
                "name": self.bot_name,
                "icon": None,
                "description": "A local stand-in application for end-to-end tests.",
                "summary": "",
                "type": None,
                "bot_public": False,
                "bot_require_code_grant": False,
                "verify_key": secrets.token_hex(32),
                "owner": owner,
                "team": None,
                "flags": 0,
                "bot": self.bot_user_payload(),
                "interactions_endpoint_url": None,
                "redirect_uris": [],
                "tags": [],
                "approximate_guild_count": len(self.guilds),
                "integration_types_config": {"0": {}},
            }
        )

    def _check_app(self, request: web.Request) -> web.Response | None:
        if request.match_info.get("app") != str(self.application_id):
            return _json({"message": "Unknown Application", "code": 10002}, 404)
        return None

    async def _put_commands(self, request: web.Request) -> web.Response:
        if (early := await self._begin(request, "commands")) is not None:
            return early
        if (bad := self._check_app(request)) is not None:
            return bad
        guild_id = _int_or_none(request.match_info.get("guild"))
        if guild_id is not None and guild_id not in {g.id for g in self.guilds}:
            return _json({"message": "Missing Access", "code": 50001}, 403)
        payload = request[_STATE].body
        if not isinstance(payload, list):
            return self._invalid(request, {"_errors": [_err("LIST_TYPE_CONVERT", "Not a list.")]})
        response = [self._register_command(cmd, guild_id) for cmd in payload]
        self._commands[guild_id] = response
        self.synced_commands.append(
            CommandSync(
                scope="global" if guild_id is None else "guild",
                guild_id=guild_id,
                payload=json.loads(json.dumps(payload)),
                response=json.loads(json.dumps(response)),
                at=time.perf_counter(),
            )
        )
        return _json(response)

    def _register_command(self, cmd: Mapping[str, Any], guild_id: int | None) -> dict[str, Any]:
        ctype = int(cmd.get("type", 1))
        key = (guild_id, ctype, str(cmd.get("name")))
        cid = self._command_ids.setdefault(key, self.snowflake())
        out: dict[str, Any] = {
            "id": str(cid),
            "application_id": str(self.application_id),
            "version": str(self.snowflake()),
            "default_member_permissions": None,
            "type": ctype,
            "description": "",
            "options": [],
            "nsfw": False,
            "dm_permission": True,
            "contexts": None,
            "integration_types": [0],
            **dict(cmd),
        }
        out["id"] = str(cid)
        out["type"] = ctype
        if guild_id is not None:
            out["guild_id"] = str(guild_id)
        return out

    async def _get_commands(self, request: web.Request) -> web.Response:
        if (early := await self._begin(request, "commands")) is not None:
            return early
        if (bad := self._check_app(request)) is not None:
            return bad
        return _json(self.current_commands(_int_or_none(request.match_info.get("guild"))))

    async def _post_callback(self, request: web.Request) -> web.StreamResponse:
        if (early := await self._begin(request, "callback", auth=False)) is not None:
            return early
        now = time.perf_counter()
        inter = self._interactions_by_id.get(int(request.match_info["iid"]))
        if inter is None or inter.token != request.match_info["token"]:
            return _json({"message": "Unknown interaction", "code": 10062}, 404)
        inter.attempts += 1
        if self.ack_deadline is not None and now - inter.sent_at > self.ack_deadline:
            log.warning("fakecord: interaction %s acknowledged too late", inter.id)
            return _json({"message": "Unknown interaction", "code": 10062}, 404)
        if inter.acked:
            return _json(
                {"message": "Interaction has already been acknowledged.", "code": 40060}, 400
            )
        body = request[_STATE].body
        if not isinstance(body, dict) or body.get("type") not in CALLBACK_TYPES:
            return self._invalid(request, {"type": {"_errors": [_err("BASE_TYPE_CHOICES", "")]}})
        ctype = int(body["type"])
        data = body.get("data")
        files = request[_STATE].files
        if ctype in (CALLBACK_CHANNEL_MESSAGE, CALLBACK_UPDATE_MESSAGE) and data is not None:
            if (errors := _validate_message(data, files, need_content=ctype == 4)) is not None:
                return self._invalid(request, errors)
        elif ctype == CALLBACK_CHANNEL_MESSAGE:
            return self._invalid(request, {"data": {"_errors": [_err("BASE_TYPE_REQUIRED", "")]}})

        message = self._apply_callback(inter, ctype, data or {}, files)
        inter.acked = True
        cb = Callback(
            interaction_id=inter.id,
            token=inter.token,
            type=ctype,
            data=data,
            files=files,
            query=dict(request.query),
            sent_at=inter.sent_at,
            received_at=now,
            attempts=inter.attempts,
            message_id=int(message["id"]) if message else None,
        )
        self.callbacks.append(cb)
        if not inter.future.done():
            inter.future.set_result(cb)
        if request.query.get("with_response", "").lower() not in ("1", "true"):
            return web.Response(status=204)
        flags = int((data or {}).get("flags") or 0)
        result: dict[str, Any] = {
            "interaction": {
                "id": str(inter.id),
                "type": inter.type,
                "response_message_loading": ctype == CALLBACK_DEFERRED_CHANNEL_MESSAGE,
                "response_message_ephemeral": bool(flags & MESSAGE_FLAG_EPHEMERAL),
            }
        }
        if message is not None:
            result["interaction"]["response_message_id"] = message["id"]
        if ctype != CALLBACK_PONG:
            result["resource"] = {"type": ctype}
            if message is not None:
                result["resource"]["message"] = message
        return _json(result)

    def _apply_callback(
        self, inter: _Interaction, ctype: int, data: dict[str, Any], files: list[UploadedFile]
    ) -> dict[str, Any] | None:
        """Create or update the message the callback stands for; return it."""
        channel_id = int(inter.payload["channel_id"])
        if ctype == CALLBACK_CHANNEL_MESSAGE:
            msg = self._new_message(channel_id, data, files, inter=inter)
        elif ctype == CALLBACK_DEFERRED_CHANNEL_MESSAGE:
            flags = MESSAGE_FLAG_LOADING | (int(data.get("flags") or 0) & MESSAGE_FLAG_EPHEMERAL)
            msg = self._new_message(channel_id, {"flags": flags}, [], inter=inter, loading=True)
        elif ctype in (CALLBACK_DEFERRED_UPDATE_MESSAGE, CALLBACK_UPDATE_MESSAGE):
            source = inter.payload.get("message")
            if source is None:
                return None
            mid = int(source["id"])
            self.messages.setdefault(mid, json.loads(json.dumps(source)))
            if ctype == CALLBACK_UPDATE_MESSAGE:
                _merge_edit(self.messages[mid], data, files)
            msg = self.messages[mid]
        else:
            return None
        inter.original_id = int(msg["id"])
        return msg

    def _new_message(
        self,
        channel_id: int,
        body: Mapping[str, Any],
        files: list[UploadedFile],
        *,
        inter: _Interaction | None = None,
        loading: bool = False,
    ) -> dict[str, Any]:
        mid = self.snowflake()
        found = self._channel_spec(channel_id)
        mtype = 0
        if inter is not None and inter.type == INTERACTION_APPLICATION_COMMAND:
            mtype = 20  # CHAT_INPUT_COMMAND
        msg: dict[str, Any] = {
            "id": str(mid),
            "channel_id": str(channel_id),
            "type": mtype,
            "content": "" if loading else str(body.get("content") or ""),
            "author": self.bot_user_payload(),
            "embeds": list(body.get("embeds") or []),
            "components": list(body.get("components") or []),
            "attachments": _attachments(files, channel_id),
            "mentions": [],
            "mention_roles": [],
            "mention_everyone": False,
            "pinned": False,
            "tts": bool(body.get("tts")),
            "timestamp": datetime.now(UTC).isoformat(),
            "edited_timestamp": None,
            "flags": int(body.get("flags") or 0),
        }
        if found is not None:
            msg["guild_id"] = str(found[0].id)
        if inter is not None:
            msg["webhook_id"] = str(self.application_id)
            msg["application_id"] = str(self.application_id)
        self.messages[mid] = msg
        return msg

    def _record_message(
        self,
        request: web.Request,
        kind: str,
        message_id: int,
        message: dict[str, Any] | None,
        token: str | None,
        *,
        deleted: dict[str, Any] | None = None,
    ) -> None:
        body = _dict_body(request)
        source = message or deleted
        channel_id = int(source["channel_id"]) if source else None
        event = MessageEvent(
            kind,
            message_id,
            channel_id,
            token,
            body,
            request[_STATE].files,
            message,
            time.perf_counter(),
        )
        self.message_events.append(event)

    async def _post_followup(self, request: web.Request) -> web.Response:
        if (early := await self._begin(request, "followup", auth=False)) is not None:
            return early
        token = request.match_info["token"]
        inter = self._interactions_by_token.get(token)
        if inter is None or request.match_info["app"] != str(self.application_id):
            return _json({"message": "Unknown Webhook", "code": 10015}, 404)
        if not inter.acked:
            return _json({"message": "Unknown Webhook", "code": 10015}, 404)
        body = _dict_body(request)
        if (
            errors := _validate_message(body, request[_STATE].files, need_content=True)
        ) is not None:
            return self._invalid(request, errors)
        msg = self._new_message(
            int(inter.payload["channel_id"]), body, request[_STATE].files, inter=inter
        )
        self._record_message(request, "followup", int(msg["id"]), msg, token)
        if request.query.get("wait", "").lower() in ("1", "true"):
            return _json(msg)
        return web.Response(status=204)

    async def _webhook_message(self, request: web.Request) -> web.StreamResponse:
        if (early := await self._begin(request, "webhook_message", auth=False)) is not None:
            return early
        token = request.match_info["token"]
        inter = self._interactions_by_token.get(token)
        if inter is None or request.match_info["app"] != str(self.application_id):
            return _json({"message": "Unknown Webhook", "code": 10015}, 404)
        raw_mid = request.match_info["mid"]
        original = raw_mid == "@original"
        mid = inter.original_id if original else _int_or_none(raw_mid)
        msg = self.messages.get(mid) if mid is not None else None
        if msg is None or mid is None:
            return _json({"message": "Unknown Message", "code": 10008}, 404)
        prefix = "original" if original else "webhook"
        if request.method == "GET":
            return _json(msg)
        if request.method == "DELETE":
            deleted = self.messages.pop(mid)
            self._record_message(request, f"{prefix}_delete", mid, None, token, deleted=deleted)
            return web.Response(status=204)
        body = _dict_body(request)
        if (
            errors := _validate_message(body, request[_STATE].files, need_content=False)
        ) is not None:
            return self._invalid(request, errors)
        _merge_edit(msg, body, request[_STATE].files)
        self._record_message(request, f"{prefix}_edit", mid, msg, token)
        return _json(msg)

    async def _get_channel(self, request: web.Request) -> web.Response:
        if (early := await self._begin(request, "channel")) is not None:
            return early
        cid = _int_or_none(request.match_info["cid"])
        if cid is None or self._channel_spec(cid) is None:
            return _json({"message": "Unknown Channel", "code": 10003}, 404)
        return _json(self.channel_payload(cid))

    async def _post_channel_message(self, request: web.Request) -> web.Response:
        if (early := await self._begin(request, "channel_message")) is not None:
            return early
        cid = _int_or_none(request.match_info["cid"])
        if cid is None or (self._channel_spec(cid) is None and cid not in self.dm_channels):
            return _json({"message": "Unknown Channel", "code": 10003}, 404)
        body = _dict_body(request)
        if (
            errors := _validate_message(body, request[_STATE].files, need_content=True)
        ) is not None:
            return self._invalid(request, errors)
        msg = self._new_message(cid, body, request[_STATE].files)
        self._record_message(request, "channel_message", int(msg["id"]), msg, None)
        return _json(msg)

    async def _channel_message(self, request: web.Request) -> web.StreamResponse:
        kind = "channel_message" if request.method == "GET" else "channel_message_edit"
        if (early := await self._begin(request, kind)) is not None:
            return early
        mid = _int_or_none(request.match_info["mid"])
        msg = self.messages.get(mid) if mid is not None else None
        if mid is None or msg is None or msg["channel_id"] != request.match_info["cid"]:
            return _json({"message": "Unknown Message", "code": 10008}, 404)
        if request.method == "GET":
            return _json(msg)
        if request.method == "DELETE":
            deleted = self.messages.pop(mid)
            self._record_message(request, "channel_delete", mid, None, None, deleted=deleted)
            return web.Response(status=204)
        if msg["author"]["id"] != str(self.bot_user_id):
            return _json(
                {"message": "Cannot edit a message authored by another user", "code": 50005}, 403
            )
        body = _dict_body(request)
        if (
            errors := _validate_message(body, request[_STATE].files, need_content=False)
        ) is not None:
            return self._invalid(request, errors)
        _merge_edit(msg, body, request[_STATE].files)
        self._record_message(request, "channel_edit", mid, msg, None)
        return _json(msg)

    # ---------------------------------------------------------------- gateway

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(autoclose=True, max_msg_size=0)
        await ws.prepare(request)
        query = dict(request.query)
        compress = query.get("compress") or None
        conn_id = next(self._conn_ids)
        try:
            conn = _Conn(conn_id, ws, request, compress)
        except ValueError as exc:
            log.error("fakecord: %s", exc)
            await ws.close(code=4012, message=b"unsupported compression")
            self.gateway_closes.append(GatewayClose(conn_id, "server", 4012, time.perf_counter()))
            return ws
        self._conns[conn_id] = conn
        try:
            if query.get("encoding", "json") != "json":
                await self._protocol_close(conn, 4012, "only encoding=json is supported")
                return ws
            await conn.send(
                {"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}, "s": None}
            )
            async for msg in ws:
                if msg.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                    continue
                try:
                    raw = msg.data if msg.type is WSMsgType.TEXT else msg.data.decode()
                    frame = json.loads(raw)
                except (ValueError, UnicodeDecodeError):
                    await self._protocol_close(conn, 4002, "Error while decoding payload.")
                    break
                await self._on_frame(conn, frame)
                if not conn.open:
                    break
        finally:
            self._conns.pop(conn_id, None)
            self._detach(conn)
            if conn.server_close_code is None:
                code = ws.close_code if ws.close_code is not None else 1006
                self.gateway_closes.append(
                    GatewayClose(conn_id, "client", code, time.perf_counter())
                )
            self._notify()
        return ws

    def _detach(self, conn: _Conn) -> None:
        if conn.session is not None and conn.session.conn is conn:
            conn.session.conn = None

    async def _protocol_close(self, conn: _Conn, code: int, reason: str) -> None:
        log.warning("fakecord: closing gateway connection %s: %s %s", conn.id, code, reason)
        conn.server_close_code = code
        self._detach(conn)
        self.gateway_closes.append(GatewayClose(conn.id, "server", code, time.perf_counter()))
        self._notify()
        await conn.ws.close(code=code, message=reason.encode())

    async def _on_frame(self, conn: _Conn, frame: Mapping[str, Any]) -> None:
        op = frame.get("op")
        d = frame.get("d")
        if op == 1:
            self.heartbeats += 1
            await conn.send({"op": 11})
        elif op == 2:
            await self._identify(conn, d if isinstance(d, dict) else {})
        elif op == 6:
            await self._resume(conn, d if isinstance(d, dict) else {})
        elif conn.session is None:
            await self._protocol_close(conn, 4003, "Not authenticated.")
        elif op in (3, 4, 8):
            pass  # presence, voice state, member requests: accepted, not acted on
        else:
            await self._protocol_close(conn, 4001, "Unknown opcode.")

    async def _identify(self, conn: _Conn, d: dict[str, Any]) -> None:
        if conn.session is not None:
            await self._protocol_close(conn, 4005, "Already authenticated.")
            return
        if d.get("token") != self.token and d.get("token") != f"Bot {self.token}":
            await self._protocol_close(conn, 4004, "Authentication failed.")
            return
        intents = d.get("intents")
        if not isinstance(intents, int) or intents < 0 or intents >= 1 << 26:
            await self._protocol_close(conn, 4013, "Invalid intent(s).")
            return
        if intents & PRIVILEGED_INTENTS and not self.allow_privileged_intents:
            await self._protocol_close(conn, 4014, "Disallowed intent(s).")
            return
        shard = d.get("shard")
        if shard is not None and (shard[1] != 1 or shard[0] != 0):
            await self._protocol_close(conn, 4010, "Invalid shard.")
            return
        self.identify_payloads.append({k: v for k, v in d.items() if k != "token"})
        session = _Session(uuid.uuid4().hex, intents, shard)
        self._sessions[session.id] = session
        if self._session is not None and self._session is not session:
            self._session.invalid = True  # one bot, one shard: a new IDENTIFY replaces the old one
        self._session = session
        session.conn = conn
        conn.session = session
        ready: dict[str, Any] = {
            "v": 10,
            "user": self.bot_user_payload(),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in self.guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.resume_gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": ["local"],
            "user_settings": {},
            "auth": {},
            "_trace": ["fakecord"],
        }
        if shard is not None:
            ready["shard"] = shard
        await self._dispatch(session, "READY", ready)
        send_guilds = self.guild_create
        if send_guilds is None:
            send_guilds = bool(intents & INTENT_GUILDS)
        if send_guilds:
            for g in self.guilds:
                await self._dispatch(session, "GUILD_CREATE", self._guild_create_payload(g))
        self.handshakes.append(
            Handshake(
                "identify",
                conn.id,
                session.id,
                conn.path,
                conn.query,
                intents,
                0,
                time.perf_counter(),
            )
        )
        self._notify()

    async def _resume(self, conn: _Conn, d: dict[str, Any]) -> None:
        session = self._sessions.get(str(d.get("session_id")))
        token_ok = d.get("token") in (self.token, f"Bot {self.token}")
        if not token_ok:
            await self._protocol_close(conn, 4004, "Authentication failed.")
            return
        if session is None or session.invalid:
            await asyncio.sleep(0.05)
            await conn.send({"op": 9, "d": False})
            return
        seq = d.get("seq")
        seq = int(seq) if isinstance(seq, int) else 0
        if session.conn is not None and session.conn is not conn:
            old = session.conn
            self._detach(old)
            self._abort(old)
        session.conn = conn
        conn.session = session
        missed = [frame for s, frame in session.buffer if s > seq]
        for frame in missed:
            await conn.send(frame)
        await self._dispatch(session, "RESUMED", {"_trace": ["fakecord"]})
        self._session = session
        self.handshakes.append(
            Handshake(
                "resume",
                conn.id,
                session.id,
                conn.path,
                conn.query,
                session.intents,
                len(missed),
                time.perf_counter(),
            )
        )
        self._notify()

    def _guild_create_payload(self, g: GuildSpec) -> dict[str, Any]:
        bot_member = {
            "user": self.bot_user_payload(),
            "roles": [],
            "joined_at": "2025-01-01T00:00:00.000000+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
        }
        channels = []
        for c in g.channels:
            ch = self.channel_payload(c.id)
            ch.pop("guild_id")
            channels.append(ch)
        return {
            "id": str(g.id),
            "name": g.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(g.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [
                {
                    "id": str(g.id),
                    "name": "@everyone",
                    "permissions": DEFAULT_MEMBER_PERMISSIONS,
                    "position": 0,
                    "color": 0,
                    "colors": {"primary_color": 0},
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "preferred_locale": g.locale,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": "2025-01-01T00:00:00.000000+00:00",
            "large": False,
            "lazy": True,
            "unavailable": False,
            "member_count": 2,
            "members": [bot_member],
            "channels": channels,
            "threads": [],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


# --------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------


def _json(data: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> web.Response:
    """A JSON response whose Content-Type is exactly application/json, as discord.py requires.

    (``web.json_response`` appends ``; charset=utf-8`` and discord.py would then treat the body
    as text.)
    """
    resp = web.Response(status=status, body=json.dumps(data, separators=(",", ":")).encode())
    resp.headers["Content-Type"] = JSON_CONTENT_TYPE
    resp.headers["Via"] = "1.1 google"
    for key, value in (headers or {}).items():
        resp.headers[key] = value
    return resp


def _err(code: str, message: str) -> dict[str, str]:
    return {"code": code, "message": message}


def _int_or_none(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


async def _read_body(request: web.Request) -> tuple[Any, list[UploadedFile]]:
    """JSON body, or multipart (``payload_json`` plus ``files[n]`` parts) as discord.py sends."""
    if not request.can_read_body:
        return None, []
    ctype = request.content_type
    if ctype.startswith("multipart/"):
        payload: Any = None
        files: list[UploadedFile] = []
        reader = await request.multipart()
        async for part in reader:
            if not isinstance(part, BodyPartReader):
                continue  # nested multipart: Discord does not use it
            data = await part.read()
            if part.name == "payload_json":
                payload = json.loads(bytes(data).decode())
            else:
                files.append(
                    UploadedFile(
                        field=part.name or "",
                        filename=part.filename,
                        content_type=part.headers.get("Content-Type"),
                        data=bytes(data),
                    )
                )
        return payload, files
    raw = await request.read()
    if not raw:
        return None, []
    try:
        return json.loads(raw), []
    except ValueError:
        return raw.decode(errors="replace"), []


def _attachments(files: Sequence[UploadedFile], channel_id: int) -> list[dict[str, Any]]:
    out = []
    for i, f in enumerate(files):
        name = f.filename or f"file{i}"
        url = f"https://cdn.fakecord.invalid/attachments/{channel_id}/{i}/{name}"
        out.append(
            {
                "id": str(DISCORD_EPOCH_MS + i),
                "filename": name,
                "size": len(f.data),
                "url": url,
                "proxy_url": url,
                "content_type": f.content_type,
            }
        )
    return out


def _merge_edit(
    msg: dict[str, Any], body: Mapping[str, Any], files: Sequence[UploadedFile]
) -> None:
    """Apply a PATCH to a stored message the way Discord does: only the fields sent change."""
    for key in ("content", "embeds", "components", "flags", "poll"):
        if key in body:
            msg[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
    if "content" in body and msg["flags"] & MESSAGE_FLAG_LOADING:
        msg["flags"] &= ~MESSAGE_FLAG_LOADING
    if msg.get("flags") is None:
        msg["flags"] = 0
    if msg["flags"] & MESSAGE_FLAG_LOADING and ("embeds" in body or files):
        msg["flags"] &= ~MESSAGE_FLAG_LOADING
    if files:
        msg["attachments"] = _attachments(files, int(msg["channel_id"]))
    elif "attachments" in body and not body["attachments"]:
        msg["attachments"] = []
    msg["edited_timestamp"] = datetime.now(UTC).isoformat()


def _validate_message(
    body: Mapping[str, Any], files: Sequence[UploadedFile], *, need_content: bool
) -> dict[str, Any] | None:
    """Discord's message limits that a bot can break; returns Discord's nested error object."""
    errors: dict[str, Any] = {}

    def add(path: Sequence[str | int], code: str, message: str) -> None:
        node = errors
        for part in path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append(_err(code, message))

    content = body.get("content")
    embeds = body.get("embeds") or []
    components = body.get("components") or []
    flags = int(body.get("flags") or 0)
    if content is not None and len(str(content)) > 2000:
        add(["content"], "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length.")
    if len(embeds) > 10:
        add(["embeds"], "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
    total = 0
    for i, e in enumerate(embeds):
        for key, limit in (("title", 256), ("description", 4096)):
            text = str(e.get(key) or "")
            total += len(text)
            if len(text) > limit:
                add(["embeds", i, key], "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer.")
        fields = e.get("fields") or []
        if len(fields) > 25:
            add(["embeds", i, "fields"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        for j, f in enumerate(fields):
            name, value = str(f.get("name") or ""), str(f.get("value") or "")
            total += len(name) + len(value)
            if not name or len(name) > 256:
                add(["embeds", i, "fields", j, "name"], "BASE_TYPE_BAD_LENGTH", "1 to 256.")
            if not value or len(value) > 1024:
                add(["embeds", i, "fields", j, "value"], "BASE_TYPE_BAD_LENGTH", "1 to 1024.")
        footer = str((e.get("footer") or {}).get("text") or "")
        author = str((e.get("author") or {}).get("name") or "")
        total += len(footer) + len(author)
        if len(footer) > 2048:
            add(["embeds", i, "footer", "text"], "BASE_TYPE_MAX_LENGTH", "Must be 2048 or fewer.")
        if len(author) > 256:
            add(["embeds", i, "author", "name"], "BASE_TYPE_MAX_LENGTH", "Must be 256 or fewer.")
    if total > 6000:
        add(["embeds"], "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")
    if not flags & MESSAGE_FLAG_COMPONENTS_V2:
        if len(components) > 5:
            add(["components"], "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
        seen: set[str] = set()
        for i, row in enumerate(components):
            children = row.get("components") or []
            if row.get("type") != 1 or not 1 <= len(children) <= 5:
                add(["components", i], "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "Bad action row.")
            for j, comp in enumerate(children):
                where = ["components", i, "components", j]
                cid = comp.get("custom_id")
                link_like = comp.get("type") == 2 and comp.get("style") in (5, 6)
                if cid is None and not link_like:
                    add([*where, "custom_id"], "BASE_TYPE_REQUIRED", "This field is required")
                if cid is not None:
                    if len(str(cid)) > 100:
                        add([*where, "custom_id"], "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer.")
                    if cid in seen:
                        add([*where, "custom_id"], "COMPONENT_CUSTOM_ID_DUPLICATED", "Duplicate.")
                    seen.add(cid)
                if len(str(comp.get("label") or "")) > 80:
                    add([*where, "label"], "BASE_TYPE_MAX_LENGTH", "Must be 80 or fewer.")
                if len(comp.get("options") or []) > 25:
                    add([*where, "options"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer.")
    if need_content and not (
        content or embeds or components or files or body.get("poll") or body.get("sticker_ids")
    ):
        return {"_errors": [_err("MESSAGE_EMPTY", "Cannot send an empty message")]}
    return errors or None


def _normalise_options(
    options: Sequence[Mapping[str, Any]] | Mapping[str, Any] | None,
) -> list[dict[str, Any]]:
    if options is None:
        return []
    if isinstance(options, Mapping):
        out = []
        for name, value in options.items():
            if isinstance(value, bool):
                otype = OPTION_BOOLEAN
            elif isinstance(value, int):
                otype = OPTION_INTEGER
            elif isinstance(value, float):
                otype = OPTION_NUMBER
            else:
                otype, value = OPTION_STRING, str(value)
            out.append({"name": name, "type": otype, "value": value})
        return out
    return [dict(o) for o in options]


def _describe(payload: Mapping[str, Any]) -> str:
    data = payload.get("data") or {}
    if payload.get("type") == INTERACTION_APPLICATION_COMMAND:
        parts = [str(data.get("name"))]
        opts = data.get("options") or []
        while opts and opts[0].get("type") in (OPTION_SUB_COMMAND, OPTION_SUB_COMMAND_GROUP):
            parts.append(str(opts[0]["name"]))
            opts = opts[0].get("options") or []
        return "/" + " ".join(parts)
    if payload.get("type") == INTERACTION_MESSAGE_COMPONENT:
        return f"component {data.get('custom_id')!r}"
    return f"interaction type {payload.get('type')}"
