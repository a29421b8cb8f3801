"""Fakecord: a local stand-in for Discord's HTTP API v10 and gateway, for end-to-end tests.

A real bot process (discord.py 2.7) is pointed at this server by ``launcher.py`` and cannot tell
it from Discord for the parts it uses: login, application info, slash command sync, the gateway
(HELLO / IDENTIFY / READY / GUILD_CREATE / heartbeats / RESUME, one session per shard),
INTERACTION_CREATE dispatches, interaction callbacks, webhook follow-ups and edits, and channel
messages.  Everything the bot sends is recorded so a test can assert on it, and faults (429,
5xx, gateway closes, RECONNECT, INVALID_SESSION) can be injected to see how the bot copes.  It
binds to 127.0.0.1 only.

Why a stand-in rather than mocks: it exercises the bot exactly as deployed (its own process, its
own event loop, discord.py's real HTTP and gateway code), so timing, reconnects and payload shapes
are tested end to end.  Where Discord enforces a rule that a bot can break (the 3 s
acknowledgement deadline, acknowledging twice, message and embed size limits, an empty message)
the stand-in enforces it too, so the bug shows up here and not in production; the limits
themselves come from ``tests/discord_rules.py``.

This module is the stand-in's front door: it composes the parts in ``fakecord/`` into one
``Fakecord`` class and re-exports every public name, so tests import from here only.  The parts:

* ``protocol.py``: Discord's numbers (interaction and callback types, flags, intents, ids);
* ``records.py``: configuration (``GuildSpec``, ``ChannelSpec``) and records (``Callback``,
  ``MessageEvent``, ``Handshake``...);
* ``state.py``: the shared state, waiting for records and views over them;
* ``payloads.py``: user, channel, guild and interaction payloads;
* ``validation.py``: Discord's 400 Invalid Form Body for messages it would refuse;
* ``faults.py``: injected 429 and 5xx answers;
* ``http_io.py``: JSON answers (``Content-Type: application/json`` exactly) and request bodies;
* ``messages.py``: the stored messages and how callbacks and edits change them;
* ``rest.py``: the REST routes; ``gateway.py``: the websocket gateway and its controls.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Mapping
from typing import Any

from aiohttp import web

from .fakecord.gateway import GatewayServer
from .fakecord.payloads import describe_interaction
from .fakecord.protocol import (
    API_PREFIX,
    CALLBACK_AUTOCOMPLETE_RESULT,
    CALLBACK_CHANNEL_MESSAGE,
    CALLBACK_DEFERRED_CHANNEL_MESSAGE,
    CALLBACK_DEFERRED_UPDATE_MESSAGE,
    CALLBACK_MODAL,
    CALLBACK_PONG,
    CALLBACK_TYPES,
    CALLBACK_UPDATE_MESSAGE,
    DEFAULT_APP_PERMISSIONS,
    DEFAULT_APPLICATION_ID,
    DEFAULT_CHANNEL_ID,
    DEFAULT_GM_CHANNEL_ID,
    DEFAULT_GUILD_ID,
    DEFAULT_MEMBER_PERMISSIONS,
    DEFAULT_TOKEN,
    DEFAULT_USER_ID,
    DISCORD_EPOCH_MS,
    INTENT_GUILDS,
    INTERACTION_APPLICATION_COMMAND,
    INTERACTION_AUTOCOMPLETE,
    INTERACTION_MESSAGE_COMPONENT,
    INTERACTION_MODAL_SUBMIT,
    INTERACTION_PING,
    JSON_CONTENT_TYPE,
    MANAGER_PERMISSIONS,
    MESSAGE_FLAG_COMPONENTS_V2,
    MESSAGE_FLAG_EPHEMERAL,
    MESSAGE_FLAG_LOADING,
    OPTION_BOOLEAN,
    OPTION_INTEGER,
    OPTION_NUMBER,
    OPTION_STRING,
    OPTION_SUB_COMMAND,
    OPTION_SUB_COMMAND_GROUP,
    PRIVILEGED_INTENTS,
)
from .fakecord.records import (
    Callback,
    ChannelSpec,
    CommandSync,
    FakecordError,
    Fault,
    FaultRequest,
    GatewayClose,
    GuildSpec,
    Handshake,
    MessageEvent,
    RequestRecord,
    SentInteraction,
    UploadedFile,
    default_guilds,
)
from .fakecord.rest import RestApi
from .fakecord.scheduled_events import ScheduledEventApi
from .fakecord.webhooks import WebhookApi

__all__ = [
    "API_PREFIX",
    "CALLBACK_AUTOCOMPLETE_RESULT",
    "CALLBACK_CHANNEL_MESSAGE",
    "CALLBACK_DEFERRED_CHANNEL_MESSAGE",
    "CALLBACK_DEFERRED_UPDATE_MESSAGE",
    "CALLBACK_MODAL",
    "CALLBACK_PONG",
    "CALLBACK_TYPES",
    "CALLBACK_UPDATE_MESSAGE",
    "DEFAULT_APPLICATION_ID",
    "DEFAULT_APP_PERMISSIONS",
    "DEFAULT_CHANNEL_ID",
    "DEFAULT_GM_CHANNEL_ID",
    "DEFAULT_GUILD_ID",
    "DEFAULT_MEMBER_PERMISSIONS",
    "DEFAULT_TOKEN",
    "DEFAULT_USER_ID",
    "DISCORD_EPOCH_MS",
    "INTENT_GUILDS",
    "INTERACTION_APPLICATION_COMMAND",
    "INTERACTION_AUTOCOMPLETE",
    "INTERACTION_MESSAGE_COMPONENT",
    "INTERACTION_MODAL_SUBMIT",
    "INTERACTION_PING",
    "JSON_CONTENT_TYPE",
    "MANAGER_PERMISSIONS",
    "MESSAGE_FLAG_COMPONENTS_V2",
    "MESSAGE_FLAG_EPHEMERAL",
    "MESSAGE_FLAG_LOADING",
    "OPTION_BOOLEAN",
    "OPTION_INTEGER",
    "OPTION_NUMBER",
    "OPTION_STRING",
    "OPTION_SUB_COMMAND",
    "OPTION_SUB_COMMAND_GROUP",
    "PRIVILEGED_INTENTS",
    "Callback",
    "ChannelSpec",
    "CommandSync",
    "Fakecord",
    "FakecordError",
    "Fault",
    "FaultRequest",
    "GatewayClose",
    "GuildSpec",
    "Handshake",
    "MessageEvent",
    "RequestRecord",
    "UploadedFile",
    "default_guilds",
    "log",
]

log = logging.getLogger("fakecord")


class Fakecord(RestApi, WebhookApi, ScheduledEventApi, GatewayServer):
    """An aiohttp server imitating Discord's API v10 and gateway on 127.0.0.1.

    Use it from the test's event loop::

        standin = Fakecord()
        await standin.start()
        ... launch the bot with --base standin.base_url --gateway standin.gateway_url ...
        await standin.wait_ready()
        cb = await standin.send_interaction(standin.command_interaction("ping"))
        await standin.stop()

    The constructor (configuration) and the records are in ``fakecord/state.py``; the test
    controls come from the parts: ``inject_fault`` (faults), ``close_gateway``,
    ``send_reconnect``, ``send_invalid_session``, ``dispatch`` (gateway),
    ``command_interaction``, ``component_interaction`` (payloads).
    """

    # ---------------------------------------------------------------- lifecycle

    async def start(self) -> Fakecord:
        """Listen on a free port of 127.0.0.1."""
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        self._add_gateway_routes(app)
        self._add_rest_routes(app)  # last: it ends with the catch-all for unknown routes

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

    # ---------------------------------------------------------------- interactions

    async def post_interaction(self, payload: Mapping[str, Any]) -> asyncio.Future[Callback]:
        """Dispatch INTERACTION_CREATE and return a future for its accepted callback.

        For load tests that keep many interactions in flight; ``send_interaction`` awaits it.
        """
        payload = dict(payload)
        iid = int(payload["id"])
        inter = SentInteraction(
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
                f"no accepted callback for interaction {iid} ({describe_interaction(payload)}) "
                f"within {timeout:.1f}s; callback attempts answered {attempts}; "
                f"unknown routes {[(r.method, r.path) for r in self.unknown_routes]}"
            ) from None
