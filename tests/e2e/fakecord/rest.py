"""The REST routes a bot uses, answered as Discord answers them, and recorded.

Why a module: this is the HTTP half of the stand-in (login, application info, command sync,
interaction callbacks, webhook follow-ups and edits, channel messages, DM channels).  Every
route goes through the same steps, kept here in one place: read the body, apply an injected
fault, check the token, check Discord's rules, answer, and record the request for the test.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from .faults import FaultInjector
from .http_io import int_or_none, json_response, read_body
from .messages import MessageStore, merge_edit
from .protocol import (
    API_PREFIX,
    CALLBACK_CHANNEL_MESSAGE,
    CALLBACK_DEFERRED_CHANNEL_MESSAGE,
    CALLBACK_MODAL,
    CALLBACK_PONG,
    CALLBACK_TYPES,
    CALLBACK_UPDATE_MESSAGE,
    INTERACTION_MESSAGE_COMPONENT,
    INTERACTION_MODAL_SUBMIT,
    INTERACTION_PING,
    MESSAGE_FLAG_EPHEMERAL,
)
from .records import Callback, CommandSync, FaultRequest, MessageEvent, RequestRecord, UploadedFile
from .validation import form_error, invalid_form_body, message_errors, modal_errors

log = logging.getLogger("fakecord")


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


class RestApi(FaultInjector, MessageStore):
    """Discord's REST API v10, as far as a bot uses it."""

    def _add_rest_routes(self, app: web.Application) -> None:
        """Discord's REST routes under /api/v10; anything else answers 404 and is recorded."""
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
        self._add_webhook_routes(app, p)  # type: ignore[attr-defined]  # fakecord/webhooks.py
        self._add_event_routes(app, p)  # type: ignore[attr-defined]  # fakecord/scheduled_events.py
        app.router.add_route("*", "/{tail:.*}", self._unknown)

    # ---------------------------------------------------------------- plumbing

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
        body, files = await read_body(request)
        st.body, st.files = body, files
        fault = self._take_fault(FaultRequest(kind, request.method, request.path, body))
        if fault is not None:
            if fault.status == 429 and "Via" not in fault.headers:
                st.cloudflare = True
            return fault
        if auth and request.headers.get("Authorization") != f"Bot {self.token}":
            return json_response({"message": "401: Unauthorized", "code": 0}, 401)
        return None

    def _invalid(self, request: web.Request, errors: dict[str, Any]) -> web.Response:
        body = invalid_form_body(errors)
        request[_STATE].validation = body
        log.warning(
            "fakecord: invalid form body for %s %s: %s", request.method, request.path, errors
        )
        return json_response(body, 400)

    async def _unknown(self, request: web.Request) -> web.Response:
        st = request[_STATE] = _ReqState("unknown")
        st.body, st.files = await read_body(request)
        log.warning("fakecord: unknown route %s %s", request.method, request.path_qs)
        return json_response({"message": "404: Not Found", "code": 0}, 404)

    # ---------------------------------------------------------------- routes

    async def _get_me(self, request: web.Request) -> web.Response:
        if (early := await self._begin(request, "me")) is not None:
            return early
        return json_response(self.bot_user_payload())

    async def _get_user(self, request: web.Request) -> web.Response:
        if (early := await self._begin(request, "user")) is not None:
            return early
        uid = int_or_none(request.match_info["uid"])
        if uid is None:
            return json_response({"message": "Unknown User", "code": 10013}, 404)
        return json_response(self.user_payload(uid))

    async def _post_dm_channel(self, request: web.Request) -> web.Response:
        if (early := await self._begin(request, "dm_channel")) is not None:
            return early
        uid = int_or_none(str(_dict_body(request).get("recipient_id")))
        if uid is None:
            return self._invalid(request, {"recipient_id": "a user id is required"})
        cid = next((c for c, u in self.dm_channels.items() if u == uid), None) or self.snowflake()
        self.dm_channels[cid] = uid
        return json_response(
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
        return json_response({"url": self.gateway_url})

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        if (early := await self._begin(request, "gateway_info")) is not None:
            return early
        limit = {"total": 1000, "remaining": 999, "reset_after": 86_400_000, "max_concurrency": 1}
        return json_response(
            {"url": self.gateway_url, "shards": self.shard_count, "session_start_limit": limit}
        )

    async def _get_application(self, request: web.Request) -> web.Response:
        if (early := await self._begin(request, "application")) is not None:
            return early
        owner = self.user_payload(self.guilds[0].owner_id, "owner")
        return json_response(
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
            return json_response({"message": "Unknown Application", "code": 10002}, 404)
        return None

    async def _put_commands(self, request: web.Request) -> web.Response:
        if (early := await self._begin(request, "commands")) is not None:
            return early
        if (bad := self._check_app(request)) is not None:
            return bad
        guild_id = int_or_none(request.match_info.get("guild"))
        if guild_id is not None and guild_id not in {g.id for g in self.guilds}:
            return json_response({"message": "Missing Access", "code": 50001}, 403)
        payload = request[_STATE].body
        if not isinstance(payload, list):
            return self._invalid(
                request, {"_errors": [form_error("LIST_TYPE_CONVERT", "Not a list.")]}
            )
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
        return json_response(response)

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
        return json_response(self.current_commands(int_or_none(request.match_info.get("guild"))))

    async def _post_callback(self, request: web.Request) -> web.StreamResponse:
        if (early := await self._begin(request, "callback", auth=False)) is not None:
            return early
        now = time.perf_counter()
        inter = self._interactions_by_id.get(int(request.match_info["iid"]))
        if inter is None or inter.token != request.match_info["token"]:
            return json_response({"message": "Unknown interaction", "code": 10062}, 404)
        inter.attempts += 1
        if self.ack_deadline is not None and now - inter.sent_at > self.ack_deadline:
            log.warning("fakecord: interaction %s acknowledged too late", inter.id)
            return json_response({"message": "Unknown interaction", "code": 10062}, 404)
        if inter.acked:
            return json_response(
                {"message": "Interaction has already been acknowledged.", "code": 40060}, 400
            )
        body = request[_STATE].body
        if not isinstance(body, dict) or body.get("type") not in CALLBACK_TYPES:
            return self._invalid(
                request, {"type": {"_errors": [form_error("BASE_TYPE_CHOICES", "")]}}
            )
        ctype = int(body["type"])
        data = body.get("data")
        files = request[_STATE].files
        if ctype in (CALLBACK_CHANNEL_MESSAGE, CALLBACK_UPDATE_MESSAGE) and data is not None:
            creates = ctype == CALLBACK_CHANNEL_MESSAGE
            if (errors := message_errors(data, files, need_content=creates)) is not None:
                return self._invalid(request, errors)
        elif ctype == CALLBACK_CHANNEL_MESSAGE:
            return self._invalid(
                request, {"data": {"_errors": [form_error("BASE_TYPE_REQUIRED", "")]}}
            )
        elif ctype == CALLBACK_MODAL:
            # Discord: a MODAL answer is "not available for MODAL_SUBMIT and PING interactions"
            # (a form cannot answer a form), and the form must keep to its limits.
            if inter.type in (INTERACTION_MODAL_SUBMIT, INTERACTION_PING):
                return self._invalid(
                    request,
                    {"type": {"_errors": [form_error("INTERACTION_RESPONSE_TYPE_INVALID", "")]}},
                )
            if (errors := modal_errors(data)) is not None:
                return self._invalid(request, errors)
            shown = (_user_of(inter.payload), str(data["custom_id"]))
            self.shown_modals[shown] = json.loads(json.dumps(data))
            origin = (inter.payload.get("message") or {}).get("id")
            if inter.type == INTERACTION_MESSAGE_COMPONENT and origin is not None:
                self.modal_origins[shown] = int(origin)
            else:
                self.modal_origins.pop(shown, None)

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
        return json_response(result)

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
        if self.is_channel_webhook(request.match_info["app"]):  # type: ignore[attr-defined]
            return await self._execute_webhook(request)  # type: ignore[attr-defined]
        if (early := await self._begin(request, "followup", auth=False)) is not None:
            return early
        token = request.match_info["token"]
        inter = self._interactions_by_token.get(token)
        if inter is None or request.match_info["app"] != str(self.application_id):
            return json_response({"message": "Unknown Webhook", "code": 10015}, 404)
        if not inter.acked:
            return json_response({"message": "Unknown Webhook", "code": 10015}, 404)
        body = _dict_body(request)
        if (errors := message_errors(body, request[_STATE].files, need_content=True)) is not None:
            return self._invalid(request, errors)
        msg = self._new_message(
            int(inter.payload["channel_id"]), body, request[_STATE].files, inter=inter
        )
        self._record_message(request, "followup", int(msg["id"]), msg, token)
        if request.query.get("wait", "").lower() in ("1", "true"):
            return json_response(msg)
        return web.Response(status=204)

    async def _webhook_message(self, request: web.Request) -> web.StreamResponse:
        if self.is_channel_webhook(request.match_info["app"]):  # type: ignore[attr-defined]
            return await self._channel_webhook_message(request)  # type: ignore[attr-defined]
        if (early := await self._begin(request, "webhook_message", auth=False)) is not None:
            return early
        token = request.match_info["token"]
        inter = self._interactions_by_token.get(token)
        if inter is None or request.match_info["app"] != str(self.application_id):
            return json_response({"message": "Unknown Webhook", "code": 10015}, 404)
        raw_mid = request.match_info["mid"]
        original = raw_mid == "@original"
        mid = inter.original_id if original else int_or_none(raw_mid)
        msg = self.messages.get(mid) if mid is not None else None
        if msg is None or mid is None:
            return json_response({"message": "Unknown Message", "code": 10008}, 404)
        prefix = "original" if original else "webhook"
        if request.method == "GET":
            return json_response(msg)
        if request.method == "DELETE":
            deleted = self.messages.pop(mid)
            self._record_message(request, f"{prefix}_delete", mid, None, token, deleted=deleted)
            return web.Response(status=204)
        body = _dict_body(request)
        if (errors := message_errors(body, request[_STATE].files, need_content=False)) is not None:
            return self._invalid(request, errors)
        merge_edit(msg, body, request[_STATE].files)
        self._record_message(request, f"{prefix}_edit", mid, msg, token)
        return json_response(msg)

    async def _get_channel(self, request: web.Request) -> web.Response:
        if (early := await self._begin(request, "channel")) is not None:
            return early
        cid = int_or_none(request.match_info["cid"])
        if cid is None or self._channel_spec(cid) is None:
            return json_response({"message": "Unknown Channel", "code": 10003}, 404)
        return json_response(self.channel_payload(cid))

    async def _post_channel_message(self, request: web.Request) -> web.Response:
        if (early := await self._begin(request, "channel_message")) is not None:
            return early
        cid = int_or_none(request.match_info["cid"])
        if cid is None or (self._channel_spec(cid) is None and cid not in self.dm_channels):
            return json_response({"message": "Unknown Channel", "code": 10003}, 404)
        body = _dict_body(request)
        if (errors := message_errors(body, request[_STATE].files, need_content=True)) is not None:
            return self._invalid(request, errors)
        msg = self._new_message(cid, body, request[_STATE].files)
        self._record_message(request, "channel_message", int(msg["id"]), msg, None)
        return json_response(msg)

    async def _channel_message(self, request: web.Request) -> web.StreamResponse:
        kind = "channel_message" if request.method == "GET" else "channel_message_edit"
        if (early := await self._begin(request, kind)) is not None:
            return early
        mid = int_or_none(request.match_info["mid"])
        msg = self.messages.get(mid) if mid is not None else None
        if mid is None or msg is None or msg["channel_id"] != request.match_info["cid"]:
            return json_response({"message": "Unknown Message", "code": 10008}, 404)
        if request.method == "GET":
            return json_response(msg)
        if request.method == "DELETE":
            deleted = self.messages.pop(mid)
            self._record_message(request, "channel_delete", mid, None, None, deleted=deleted)
            return web.Response(status=204)
        limit_headers: dict[str, str] = {}
        if self.edit_limit is not None:
            allowed, limit_headers = self.edit_limit.take(int(msg["channel_id"]))
            if not allowed:
                return self.edit_limit.refusal(limit_headers)
        if msg["author"]["id"] != str(self.bot_user_id):
            return json_response(
                {"message": "Cannot edit a message authored by another user", "code": 50005}, 403
            )
        body = _dict_body(request)
        if (errors := message_errors(body, request[_STATE].files, need_content=False)) is not None:
            return self._invalid(request, errors)
        merge_edit(msg, body, request[_STATE].files)
        self._record_message(request, "channel_edit", mid, msg, None)
        return json_response(msg, headers=limit_headers)


def _user_of(payload: Mapping[str, Any]) -> int:
    """The user an interaction came from: the member's user in a guild, else the user."""
    user = (payload.get("member") or {}).get("user") or payload.get("user") or {}
    return int(user.get("id") or 0)
