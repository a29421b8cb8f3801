"""The state every part of the stand-in shares, and what tests read of it.

Why a module: the REST routes, the gateway and the fault and payload helpers are mixins of one
object (``Fakecord``); they share its configuration, its records and its bookkeeping.  Here
that state is created in one ``__init__``, next to the test-facing ways of reading it: waiting
for something to be recorded, and views over the records.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .limits import EDIT_LIMIT, ChannelLimit
from .protocol import API_PREFIX, DEFAULT_APPLICATION_ID, DEFAULT_TOKEN, DISCORD_EPOCH_MS
from .records import (
    Callback,
    CommandSync,
    FakecordError,
    Fault,
    GatewayClose,
    GuildSpec,
    Handshake,
    MessageEvent,
    RequestRecord,
    SentInteraction,
    default_guilds,
)

if TYPE_CHECKING:
    from .gateway import Conn, Session


class FakecordState:
    """Configuration, records and bookkeeping of the stand-in; waiting on and viewing records."""

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
        shard_count: int = 1,
        max_guilds_per_shard: int = 2500,
        edit_limit: tuple[int, float] | None = EDIT_LIMIT,
    ) -> None:
        """Configure the fake application; nothing listens until ``start()``.

        ``ack_deadline``: seconds within which an interaction must be acknowledged, as on Discord
        (None disables it).  ``guild_create``: send GUILD_CREATE after READY; None (default) does
        so only when IDENTIFY asks for the GUILDS intent, as Discord does.  ``shard_count``: the
        number of shards ``GET /gateway/bot`` recommends (discord.py's AutoShardedClient asks for
        it when it is given no count).  ``max_guilds_per_shard``: an IDENTIFY whose shard would
        carry more guilds is closed with 4011 Sharding required (Discord's limit is 2,500).
        ``edit_limit``: edits of one channel's messages allowed per window of seconds, past
        which ``PATCH /channels/{id}/messages/{id}`` answers 429 as Discord does (limits.py);
        None: no limit.
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
        self.shard_count = shard_count
        self.max_guilds_per_shard = max_guilds_per_shard
        self.edit_limit = (
            None
            if edit_limit is None
            else ChannelLimit(*edit_limit, bucket="fakecord0edit0channel0message000")
        )

        # Records, in arrival order.
        self.requests: list[RequestRecord] = []
        self.unknown_routes: list[RequestRecord] = []
        self.validation_errors: list[tuple[RequestRecord | None, dict[str, Any]]] = []
        self.synced_commands: list[CommandSync] = []
        self.callbacks: list[Callback] = []
        self.message_events: list[MessageEvent] = []
        self.messages: dict[int, dict[str, Any]] = {}
        self.shown_modals: dict[tuple[int, str], dict[str, Any]] = {}
        """(user, custom_id) -> a form the bot showed that user, until they submit it."""
        self.modal_origins: dict[tuple[int, str], int] = {}
        """(user, custom_id) -> the message whose component the form answered: Discord sends
        that message with the submit ("for components or modals triggered by components, the
        message they were attached to")."""
        self.dm_channels: dict[int, int] = {}
        """Direct-message channel id -> the user it reaches (a bot DMs a GM a hidden roll)."""
        self.handshakes: list[Handshake] = []
        self.identify_payloads: list[dict[str, Any]] = []
        self.gateway_closes: list[GatewayClose] = []
        self.heartbeats = 0
        self.faults: list[Fault] = []

        self._commands: dict[int | None, list[dict[str, Any]]] = {}
        self._command_ids: dict[tuple[int | None, int, str], int] = {}
        self._interactions_by_id: dict[int, SentInteraction] = {}
        self._interactions_by_token: dict[str, SentInteraction] = {}
        self._sessions: dict[str, Session] = {}
        self._shard_sessions: dict[int, Session] = {}
        """The current session of each shard id: where that shard's events go."""
        self.identified_shard_count = 1
        """The shard count of the latest IDENTIFY, by which guilds are spread over shards."""
        self._conns: dict[int, Conn] = {}
        self._conn_ids = itertools.count(1)
        self._last_snowflake = 0
        self._changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self._port: int | None = None

    def shard_of(self, guild_id: int, shard_count: int | None = None) -> int:
        """The shard a guild's events go to, by Discord's rule ``(guild_id >> 22) % count``."""
        return (guild_id >> 22) % (shard_count or self.identified_shard_count)

    def guilds_of_shard(self, shard_id: int, shard_count: int) -> list[GuildSpec]:
        return [g for g in self.guilds if self.shard_of(g.id, shard_count) == shard_id]

    def snowflake(self) -> int:
        """A fresh, increasing snowflake whose timestamp is now."""
        value = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        value = max(value, self._last_snowflake + 1)
        self._last_snowflake = value
        return value

    # ---------------------------------------------------------------- addresses

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

        Pass ``after=len(standin.handshakes)`` before a fault to wait for the reconnection; with
        several shards, each shard's READY is one handshake (``Handshake.shard`` says whose).
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
