"""Channel webhooks, as Discord documents them (developer docs, Webhook resource).

Why a module: a bot that posts under other names (the WIRE bot's ``/say``) makes a webhook in
a channel and executes it; that is a REST surface of its own beside the interaction follow-ups
(which share the ``/webhooks/{id}/{token}`` paths: a follow-up names the application, a channel
webhook its own id). What Discord checks, the stand-in checks, with Discord's answers:

* Create Webhook ``POST /channels/{id}/webhooks`` and Get Channel Webhooks ``GET`` (both need
  Manage Webhooks: 403 ``50013 Missing Permissions`` in a channel ``deny_manage_webhooks``
  names); a name of 1-80 characters without "clyde" or "discord" (400 ``50035``); at most 15
  webhooks a channel (400 ``30007``).
* Execute Webhook ``POST /webhooks/{id}/{token}`` with ``?wait=true`` (the message back, else
  204) and ``?thread_id=`` (a thread of the webhook's channel); ``username`` follows the name's
  rules, the message its usual ones; an unknown or deleted webhook is 404 ``10015 Unknown
  Webhook``.
* Get, Edit and Delete Webhook Message ``/webhooks/{id}/{token}/messages/{message}``
  (``?thread_id=`` too): only that webhook's messages (404 ``10008 Unknown Message``).
* A rate limit per webhook: ``webhook_rate`` executes per ``webhook_window`` seconds, with the
  ``X-RateLimit-*`` headers discord.py reads; past it, 429 with ``retry_after`` (and ``Via``, so
  discord.py waits and retries). ``inject_fault("webhook_execute", ...)`` forces one.
"""

from __future__ import annotations

import json
import secrets
import time
from collections import deque
from collections.abc import Mapping
from typing import Any

from aiohttp import web

from tests import discord_rules as rules

from .http_io import int_or_none, json_response
from .messages import merge_edit
from .protocol import (
    DEFAULT_APP_PERMISSIONS,
    DEFAULT_MEMBER_PERMISSIONS,
    INTERACTION_APPLICATION_COMMAND,
    INTERACTION_MODAL_SUBMIT,
)
from .records import FakecordError
from .rest import _STATE, _dict_body
from .validation import form_error, message_errors

MANAGE_WEBHOOKS = 1 << 29
WEBHOOK_NAME_MAX = 80
WEBHOOKS_PER_CHANNEL = 15
REFUSED_IN_NAMES = ("clyde", "discord")
THREAD_TYPES = frozenset({10, 11, 12})
NOT_IN_CHANNEL = "Not a thread of the webhook's channel."
_DEFAULTS: dict[str, Any] = {
    "username": None,
    "locale": "en-US",
    "permissions": DEFAULT_MEMBER_PERMISSIONS,
    "roles": (),
}


def name_errors(name: object, field: str) -> dict[str, Any] | None:
    """Discord's 400 field errors for a webhook's name or a message's username, or None."""
    if not isinstance(name, str) or not 1 <= len(name) <= WEBHOOK_NAME_MAX:
        return {
            field: {
                "_errors": [
                    form_error("BASE_TYPE_BAD_LENGTH", "Must be between 1 and 80 in length.")
                ]
            }
        }
    folded = name.casefold()
    for word in REFUSED_IN_NAMES:
        if word in folded:
            return {
                field: {
                    "_errors": [
                        form_error("USERNAME_INVALID_CONTAINS", f'Username cannot contain "{word}"')
                    ]
                }
            }
    return None


class WebhookApi:
    """Channel webhooks and their messages; a mixin of ``Fakecord`` (needs ``RestApi``)."""

    webhook_rate = 5
    webhook_window = 2.0

    def _webhook_state(self) -> None:
        if not hasattr(self, "webhooks"):
            self.webhooks: dict[int, dict[str, Any]] = {}
            """Webhook id -> its object (with token), as Get Channel Webhooks lists it."""
            self.deny_manage_webhooks: set[int] = set()
            """Channels where the bot lacks Manage Webhooks (its app_permissions say so too)."""
            self._webhook_calls: dict[int, deque[float]] = {}

    def _add_webhook_routes(self, app: web.Application, prefix: str) -> None:
        self._webhook_state()
        app.router.add_route("POST", prefix + "/channels/{cid}/webhooks", self._create_webhook)
        app.router.add_route("GET", prefix + "/channels/{cid}/webhooks", self._channel_webhooks)
        app.router.add_route("DELETE", prefix + "/webhooks/{wid}", self._delete_webhook_route)

    # ---------------------------------------------------------------- test controls

    def delete_webhook(self, webhook_id: int) -> None:
        """Delete a webhook as a server admin would (its messages stay)."""
        self.webhooks.pop(int(webhook_id), None)

    def channel_webhooks(self, channel_id: int) -> list[dict[str, Any]]:
        return [w for w in self.webhooks.values() if w["channel_id"] == str(channel_id)]

    def app_permissions_in(self, channel_id: int) -> str:
        """The bot's permissions in a channel, as an interaction's ``app_permissions``."""
        self._webhook_state()
        value = int(DEFAULT_APP_PERMISSIONS)
        spec = self._channel_spec(channel_id)  # type: ignore[attr-defined]
        parent = spec[1].parent_id if spec else None
        if channel_id in self.deny_manage_webhooks or parent in self.deny_manage_webhooks:
            value &= ~MANAGE_WEBHOOKS
        return str(value)

    def is_channel_webhook(self, raw_id: str) -> bool:
        self._webhook_state()
        wid = int_or_none(raw_id)
        return wid is not None and wid != self.application_id  # type: ignore[attr-defined]

    # ---------------------------------------------------------------- interactions

    def message_command_interaction(
        self, name: str, message: Mapping[str, Any] | int | str, *, user_id: int, **options: Any
    ) -> dict[str, Any]:
        """A message context menu (an APPLICATION_COMMAND of command type 3) on ``message``, a
        payload or the id of a message the stand-in holds: ``target_id`` and the message in
        ``resolved.messages``, as Discord sends it."""
        if isinstance(message, int | str):
            message = self.messages[int(message)]  # type: ignore[attr-defined]
        command = self._find_command(name, self.guilds[0].id, kind=3)  # type: ignore[attr-defined]
        if command is None:
            raise AssertionError(f"message command {name!r} was never synced")
        data = {
            "id": command["id"],
            "name": name,
            "type": 3,
            "target_id": message["id"],
            "resolved": {"messages": {message["id"]: json.loads(json.dumps(message))}},
        }
        return self._base_interaction(  # type: ignore[attr-defined]
            INTERACTION_APPLICATION_COMMAND,
            data,
            guild_id=None,
            channel_id=int(message["channel_id"]),
            user_id=user_id,
            **{**_DEFAULTS, **options},
        )

    def modal_submit_interaction(
        self,
        custom_id: str,
        values: Mapping[str, str],
        *,
        user_id: int,
        channel_id: int,
        **options: Any,
    ) -> dict[str, Any]:
        """A MODAL_SUBMIT of a form the bot showed: each text input's value by its custom_id,
        in labels (type 18) as Discord sends them. Only a form the bot showed this user, once,
        with values its inputs take (lengths, required): a real client sends nothing else."""
        shown = self.shown_modals.pop((user_id, custom_id), None)  # type: ignore[attr-defined]
        if shown is None:
            raise FakecordError(
                f"no form {custom_id!r} is open for user {user_id}: a real client could not "
                "submit it (the bot never showed it, or it was submitted already)"
            )
        problem = rules.modal_submit_problem(shown, values)
        if problem:
            self.shown_modals[(user_id, custom_id)] = shown  # type: ignore[attr-defined]
            raise FakecordError(f"form {custom_id!r}: {problem}")
        components = [
            {
                "type": 18,
                "id": n,
                "component": {"type": 4, "id": n + 100, "custom_id": k, "value": v},
            }
            for n, (k, v) in enumerate(values.items(), 1)
        ]
        origin = self.modal_origins.pop((user_id, custom_id), None)  # type: ignore[attr-defined]
        message = self.messages.get(origin) if origin is not None else None  # type: ignore[attr-defined]
        return self._base_interaction(  # type: ignore[attr-defined]
            INTERACTION_MODAL_SUBMIT,
            {"custom_id": custom_id, "components": components},
            guild_id=None,
            channel_id=channel_id,
            user_id=user_id,
            message=json.loads(json.dumps(message)) if message is not None else None,
            **{**_DEFAULTS, **options},
        )

    # ---------------------------------------------------------------- routes

    def _missing_permissions(self, channel_id: int) -> web.Response | None:
        if channel_id in self.deny_manage_webhooks:
            return json_response({"message": "Missing Permissions", "code": 50013}, 403)
        return None

    def _webhook_channel(self, request: web.Request) -> int | web.Response:
        cid = int_or_none(request.match_info["cid"])
        spec = self._channel_spec(cid) if cid is not None else None  # type: ignore[attr-defined]
        if cid is None or spec is None or spec[1].type in THREAD_TYPES:
            return json_response({"message": "Unknown Channel", "code": 10003}, 404)
        return self._missing_permissions(cid) or cid

    async def _create_webhook(self, request: web.Request) -> web.Response:
        if (early := await self._begin(request, "webhook_create")) is not None:  # type: ignore[attr-defined]
            return early
        cid = self._webhook_channel(request)
        if isinstance(cid, web.Response):
            return cid
        body = _dict_body(request)
        if (errors := name_errors(body.get("name"), "name")) is not None:
            return self._invalid(request, errors)  # type: ignore[attr-defined]
        if len(self.channel_webhooks(cid)) >= WEBHOOKS_PER_CHANNEL:
            return json_response(
                {"message": "Maximum number of webhooks reached (15)", "code": 30007}, 400
            )
        spec = self._channel_spec(cid)  # type: ignore[attr-defined]
        wid = self.snowflake()  # type: ignore[attr-defined]
        hook = {
            "id": str(wid),
            "type": 1,
            "guild_id": str(spec[0].id),
            "channel_id": str(cid),
            "user": self.bot_user_payload(),  # type: ignore[attr-defined]
            "name": body["name"],
            "avatar": None,
            "token": secrets.token_urlsafe(48),
            "application_id": str(self.application_id),  # type: ignore[attr-defined]
        }
        self.webhooks[wid] = hook
        return json_response(hook)

    async def _channel_webhooks(self, request: web.Request) -> web.Response:
        if (early := await self._begin(request, "webhook_list")) is not None:  # type: ignore[attr-defined]
            return early
        cid = self._webhook_channel(request)
        if isinstance(cid, web.Response):
            return cid
        return json_response(self.channel_webhooks(cid))

    async def _delete_webhook_route(self, request: web.Request) -> web.Response:
        if (early := await self._begin(request, "webhook_delete")) is not None:  # type: ignore[attr-defined]
            return early
        hook = self.webhooks.get(int_or_none(request.match_info["wid"]) or 0)
        if hook is None:
            return json_response({"message": "Unknown Webhook", "code": 10015}, 404)
        if (denied := self._missing_permissions(int(hook["channel_id"]))) is not None:
            return denied
        self.delete_webhook(int(hook["id"]))
        return web.Response(status=204)

    def _webhook_of(self, request: web.Request) -> dict[str, Any] | None:
        hook = self.webhooks.get(int_or_none(request.match_info["app"]) or 0)
        if hook is None or hook["token"] != request.match_info["token"]:
            return None
        return hook

    def _thread_of(self, request: web.Request, hook: dict[str, Any]) -> int | web.Response:
        """The message channel: the webhook's, or the ``thread_id`` thread inside it."""
        raw = request.query.get("thread_id")
        if raw is None:
            return int(hook["channel_id"])
        tid = int_or_none(raw)
        spec = self._channel_spec(tid) if tid is not None else None  # type: ignore[attr-defined]
        if tid is None or spec is None or spec[1].type not in THREAD_TYPES:
            return json_response({"message": "Unknown Channel", "code": 10003}, 404)
        if str(spec[1].parent_id) != hook["channel_id"]:
            return self._invalid(  # type: ignore[attr-defined]
                request,
                {
                    "thread_id": {
                        "_errors": [
                            form_error(
                                "THREAD_NOT_IN_CHANNEL", "Not a thread of the webhook's channel."
                            )
                        ]
                    }
                },
            )
        return tid

    def _rate_limited(self, hook: dict[str, Any]) -> tuple[web.Response | None, dict[str, str]]:
        """429 past the webhook's rate, else the headers of its bucket."""
        now = time.monotonic()
        calls = self._webhook_calls.setdefault(int(hook["id"]), deque())
        while calls and now - calls[0] >= self.webhook_window:
            calls.popleft()
        if len(calls) >= self.webhook_rate:
            retry = self.webhook_window - (now - calls[0])
            body = {
                "message": "You are being rate limited.",
                "retry_after": round(retry, 3),
                "global": False,
            }
            headers = {
                "Retry-After": str(max(1, round(retry))),
                "X-RateLimit-Limit": str(self.webhook_rate),
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset-After": f"{retry:.3f}",
                "X-RateLimit-Bucket": f"webhook-{hook['id']}",
                "X-RateLimit-Scope": "user",
                "Via": "1.1 google",
            }
            return json_response(body, 429, headers=headers), {}
        calls.append(now)
        reset = self.webhook_window - (now - calls[0])
        return None, {
            "X-RateLimit-Limit": str(self.webhook_rate),
            "X-RateLimit-Remaining": str(max(0, self.webhook_rate - len(calls))),
            "X-RateLimit-Reset-After": f"{reset:.3f}",
            "X-RateLimit-Bucket": f"webhook-{hook['id']}",
        }

    async def _execute_webhook(self, request: web.Request) -> web.Response:
        if (early := await self._begin(request, "webhook_execute", auth=False)) is not None:  # type: ignore[attr-defined]
            return early
        hook = self._webhook_of(request)
        if hook is None:
            return json_response({"message": "Unknown Webhook", "code": 10015}, 404)
        limited, headers = self._rate_limited(hook)
        if limited is not None:
            return limited
        channel = self._thread_of(request, hook)
        if isinstance(channel, web.Response):
            return channel
        body = _dict_body(request)
        files = request[_STATE].files
        if "username" in body and (errors := name_errors(body["username"], "username")):
            return self._invalid(request, errors)  # type: ignore[attr-defined]
        if (errors := message_errors(body, files, need_content=True)) is not None:
            return self._invalid(request, errors)  # type: ignore[attr-defined]
        msg = self._new_message(channel, body, files)  # type: ignore[attr-defined]
        msg["webhook_id"] = hook["id"]
        msg["author"] = {
            "id": hook["id"],
            "username": body.get("username") or hook["name"],
            "avatar": None,
            "discriminator": "0000",
            "bot": True,
        }
        msg["avatar_url"] = body.get("avatar_url")  # not Discord's field: the test reads it
        msg["allowed_mentions"] = body.get("allowed_mentions")
        self._record_message(request, "webhook_post", int(msg["id"]), msg, None)  # type: ignore[attr-defined]
        if request.query.get("wait", "").lower() in ("1", "true"):
            return json_response(msg, headers=headers)
        return web.Response(status=204, headers=headers)

    async def _channel_webhook_message(self, request: web.Request) -> web.StreamResponse:
        kind = {"GET": "webhook_post_get", "PATCH": "webhook_post_edit"}.get(
            request.method, "webhook_post_delete"
        )
        if (early := await self._begin(request, kind, auth=False)) is not None:  # type: ignore[attr-defined]
            return early
        hook = self._webhook_of(request)
        if hook is None:
            return json_response({"message": "Unknown Webhook", "code": 10015}, 404)
        channel = self._thread_of(request, hook)
        if isinstance(channel, web.Response):
            return channel
        mid = int_or_none(request.match_info["mid"])
        msg = self.messages.get(mid) if mid is not None else None  # type: ignore[attr-defined]
        if msg is None or msg.get("webhook_id") != hook["id"] or msg["channel_id"] != str(channel):
            return json_response({"message": "Unknown Message", "code": 10008}, 404)
        if request.method == "GET":
            return json_response(msg)
        if request.method == "DELETE":
            deleted = self.messages.pop(mid)  # type: ignore[attr-defined]
            self._record_message(request, kind, mid, None, None, deleted=deleted)  # type: ignore[attr-defined]
            return web.Response(status=204)
        body = _dict_body(request)
        files = request[_STATE].files
        if (errors := message_errors(body, files, need_content=False)) is not None:
            return self._invalid(request, errors)  # type: ignore[attr-defined]
        merge_edit(msg, body, files)
        msg["allowed_mentions"] = body.get("allowed_mentions")
        self._record_message(request, kind, mid, msg, None)  # type: ignore[attr-defined]
        return json_response(msg)
