"""What the stand-in is configured with and what it records, as plain dataclasses.

Why a module: tests read these records (callbacks, message events, handshakes, command syncs)
and build the configuration (guilds, channels) without caring how the server works; keeping
them apart from the server code gives a test author one short file to read.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .protocol import (
    DEFAULT_CHANNEL_ID,
    DEFAULT_GM_CHANNEL_ID,
    DEFAULT_GUILD_ID,
    DEFAULT_USER_ID,
    MESSAGE_FLAG_EPHEMERAL,
)

# --------------------------------------------------------------------------------------------
# Configuration
# --------------------------------------------------------------------------------------------


@dataclass
class ChannelSpec:
    """A guild channel the stand-in knows (type 0 is a text channel; 11 a public thread,
    inside `parent_id`)."""

    id: int
    name: str
    type: int = 0
    parent_id: int | None = None


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


# --------------------------------------------------------------------------------------------
# Records
# --------------------------------------------------------------------------------------------


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
    shard: tuple[int, int] = (0, 1)
    """[shard_id, shard_count] of the session; an IDENTIFY without ``shard`` is [0, 1]."""


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
class SentInteraction:
    """An interaction the stand-in dispatched, and what became of it (the stand-in's own)."""

    id: int
    token: str
    type: int
    payload: dict[str, Any]
    sent_at: float
    future: asyncio.Future[Callback]
    attempts: int = 0
    acked: bool = False
    original_id: int | None = None


class FakecordError(AssertionError):
    """A test expectation about the stand-in was not met (a timeout, a missing command)."""
