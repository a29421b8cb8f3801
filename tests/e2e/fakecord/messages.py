"""The messages the bot sends, stored and changed the way Discord changes them.

Why a module: interaction callbacks, webhook follow-ups and channel routes all create, edit and
delete the same stored messages (``Fakecord.messages``), which tests then click on or inspect;
how a message is born (a deferred "thinking" message, an update of the clicked message) and how
an edit merges into it is one job, kept apart from the routes that trigger it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from .payloads import PayloadBuilder
from .protocol import (
    CALLBACK_CHANNEL_MESSAGE,
    CALLBACK_DEFERRED_CHANNEL_MESSAGE,
    CALLBACK_DEFERRED_UPDATE_MESSAGE,
    CALLBACK_UPDATE_MESSAGE,
    DISCORD_EPOCH_MS,
    INTERACTION_APPLICATION_COMMAND,
    MESSAGE_FLAG_EPHEMERAL,
    MESSAGE_FLAG_LOADING,
)
from .records import SentInteraction, UploadedFile


class MessageStore(PayloadBuilder):
    """Creates and updates the stored messages; the REST routes record the events."""

    def _apply_callback(
        self, inter: SentInteraction, ctype: int, data: dict[str, Any], files: list[UploadedFile]
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
                merge_edit(self.messages[mid], data, files)
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
        inter: SentInteraction | None = None,
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
            "attachments": attachments(files, channel_id),
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


def attachments(files: Sequence[UploadedFile], channel_id: int) -> list[dict[str, Any]]:
    """Discord's attachment objects for uploaded files, with fake CDN URLs."""
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


def merge_edit(msg: dict[str, Any], body: Mapping[str, Any], files: Sequence[UploadedFile]) -> None:
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
        msg["attachments"] = attachments(files, int(msg["channel_id"]))
    elif "attachments" in body and not body["attachments"]:
        msg["attachments"] = []
    msg["edited_timestamp"] = datetime.now(UTC).isoformat()
