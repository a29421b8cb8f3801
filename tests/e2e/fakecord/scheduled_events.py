"""Guild scheduled events and threads started from a message, as Discord's developer docs
describe them (Guild Scheduled Event resource; Channel resource, Start Thread from Message).

Why a module: a bot that plans sessions (the WIRE bot's ``/session``) lists each as a scheduled
event and keeps it in step, and a GM changes events in Discord's own UI; its recap goes in a
thread started from a message. What Discord checks, the stand-in checks, with Discord's answers:

* List, Create, Get, Modify and Delete Guild Scheduled Event under
  ``/guilds/{guild}/scheduled-events[/{event}]``; Create, Modify and Delete need Manage Events
  (403 ``50013 Missing Permissions`` in a guild ``deny_manage_events`` names); an unknown event
  is 404 ``10070 Unknown Guild Scheduled Event``. Get and List take ``with_user_count`` (then
  the object carries ``user_count``).
* Create: ``name`` 1-100 characters, ``description`` at most 1000, ``entity_type`` 1 (stage),
  2 (voice: both need ``channel_id``) or 3 (external: needs ``entity_metadata.location``,
  1-100 characters, and ``scheduled_end_time``); a start in the past or an end before the start
  is 400 ``50035``; at most ``events_per_guild`` (100) events that are scheduled or active
  (400 ``30038``).
* Modify: the same field rules; ``status`` moves only SCHEDULED (1) -> ACTIVE (2) or CANCELED
  (4), ACTIVE -> COMPLETED (3); a completed or cancelled event takes no change (400 ``50035``).
* Each change is dispatched as ``GUILD_SCHEDULED_EVENT_CREATE`` / ``_UPDATE`` / ``_DELETE``;
  ``add_interested`` / ``remove_interested`` (a user marking interest, or taking it back) as
  ``GUILD_SCHEDULED_EVENT_USER_ADD`` / ``_USER_REMOVE`` with ``guild_scheduled_event_id``,
  ``user_id`` and ``guild_id`` (Gateway Events), counted in the event's ``user_count``. The
  test controls ``edit_event`` and ``delete_event`` act as a GM in Discord's UI would. These
  gateway events go only to a session that asked for the ``GUILD_SCHEDULED_EVENTS`` intent.
* Start Thread from Message ``POST /channels/{channel}/messages/{message}/threads``: a
  ``name`` of 1-100 characters; the thread's id is the message's; a message with a thread
  already is 400 ``160004``; dispatched as ``THREAD_CREATE``; then it takes messages as any
  channel (its ``ChannelSpec`` is added to the guild).
"""

from __future__ import annotations

import contextlib
import json
from datetime import UTC, datetime
from typing import Any

from aiohttp import web

from .http_io import int_or_none, json_response
from .records import ChannelSpec, FakecordError
from .rest import _dict_body
from .validation import form_error

SCHEDULED, ACTIVE, COMPLETED, CANCELED = 1, 2, 3, 4
NEXT_STATUS = {SCHEDULED: {ACTIVE, CANCELED}, ACTIVE: {COMPLETED}}
"""Discord's valid status transitions; COMPLETED and CANCELED are final."""
EXTERNAL = 3
SCHEDULED_EVENTS_INTENT = 1 << 16
"""GUILD_SCHEDULED_EVENTS: without it Discord sends none of the GUILD_SCHEDULED_EVENT_* events."""
EVENT_NAME_MAX = 100
EVENT_DESCRIPTION_MAX = 1000
LOCATION_MAX = 100
THREAD_NAME_MAX = 100
EVENT_FIELDS = (
    "name",
    "description",
    "channel_id",
    "entity_metadata",
    "scheduled_start_time",
    "scheduled_end_time",
    "privacy_level",
    "entity_type",
    "status",
)


def _moment(text: object) -> datetime | None:
    if not isinstance(text, str):
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _error(field: str, code: str, message: str) -> dict[str, Any]:
    return {field: {"_errors": [form_error(code, message)]}}


def event_errors(event: dict[str, Any], *, now: datetime) -> dict[str, Any] | None:
    """Discord's 400 field errors for an event as it would be after a create or a change."""
    name = event.get("name")
    if not isinstance(name, str) or not 1 <= len(name) <= EVENT_NAME_MAX:
        return _error("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
    description = event.get("description")
    if description is not None and len(str(description)) > EVENT_DESCRIPTION_MAX:
        return _error("description", "BASE_TYPE_BAD_LENGTH", "Must be 1000 or fewer in length.")
    start = _moment(event.get("scheduled_start_time"))
    if start is None:
        return _error("scheduled_start_time", "BASE_TYPE_REQUIRED", "This field is required")
    end = _moment(event.get("scheduled_end_time"))
    if event.get("entity_type") == EXTERNAL:
        location = (event.get("entity_metadata") or {}).get("location")
        if not isinstance(location, str) or not 1 <= len(location) <= LOCATION_MAX:
            return _error(
                "entity_metadata",
                "GUILD_SCHEDULED_EVENT_LOCATION_REQUIRED",
                "A location of 1 to 100 characters is required for external events.",
            )
        if end is None:
            return _error(
                "scheduled_end_time",
                "GUILD_SCHEDULED_EVENT_END_TIME_REQUIRED",
                "An end time is required for external events.",
            )
    elif event.get("entity_type") in (1, 2):
        if not event.get("channel_id"):
            return _error("channel_id", "BASE_TYPE_REQUIRED", "This field is required")
    else:
        return _error("entity_type", "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3}.")
    if event.get("status", SCHEDULED) == SCHEDULED and start <= now:
        return _error(
            "scheduled_start_time",
            "GUILD_SCHEDULED_EVENT_SCHEDULED_IN_PAST",
            "Cannot schedule event in the past.",
        )
    if end is not None and end <= start:
        return _error(
            "scheduled_end_time",
            "GUILD_SCHEDULED_EVENT_END_BEFORE_START",
            "Cannot schedule event to end before starting.",
        )
    return None


class ScheduledEventApi:
    """Scheduled events and threads from messages; a mixin of ``Fakecord`` (needs ``RestApi``
    and ``GatewayServer``)."""

    events_per_guild = 100

    def _event_state(self) -> None:
        if not hasattr(self, "scheduled_events"):
            self.scheduled_events: dict[int, dict[str, Any]] = {}
            """Event id -> its object, as Get Guild Scheduled Event answers it."""
            self.event_users: dict[int, set[int]] = {}
            """Event id -> the users who marked interest."""
            self.deny_manage_events: set[int] = set()
            """Guilds where the bot lacks Manage Events."""

    def _add_event_routes(self, app: web.Application, prefix: str) -> None:
        self._event_state()
        base = prefix + "/guilds/{gid}/scheduled-events"
        app.router.add_route("GET", base, self._list_events)
        app.router.add_route("POST", base, self._create_event)
        app.router.add_route("GET", base + "/{eid}", self._get_event)
        app.router.add_route("PATCH", base + "/{eid}", self._modify_event)
        app.router.add_route("DELETE", base + "/{eid}", self._delete_event)
        app.router.add_route(
            "POST", prefix + "/channels/{cid}/messages/{mid}/threads", self._thread_from_message
        )

    # ---------------------------------------------------------------- test controls

    def guild_events(self, guild_id: int) -> list[dict[str, Any]]:
        self._event_state()
        return [e for e in self.scheduled_events.values() if e["guild_id"] == str(guild_id)]

    async def edit_event(self, event_id: int, **changes: Any) -> dict[str, Any]:
        """Change an event as a GM in Discord's UI would (no rules checked), and dispatch it."""
        event = self.scheduled_events[int(event_id)]
        event.update(changes)
        await self._tell("GUILD_SCHEDULED_EVENT_UPDATE", self._event_out(event))
        return event

    async def delete_event(self, event_id: int) -> None:
        """Delete an event as a GM in Discord's UI would, and dispatch it."""
        event = self.scheduled_events.pop(int(event_id))
        await self._tell("GUILD_SCHEDULED_EVENT_DELETE", self._event_out(event))

    async def add_interested(self, event_id: int, user_id: int) -> None:
        """A user marks interest in an event (Discord's "Interested"): its user_count counts
        them, and the bot hears ``GUILD_SCHEDULED_EVENT_USER_ADD`` once (a second mark of the
        same user changes nothing, as Discord's button toggles)."""
        await self._interest(event_id, user_id, interested=True)

    async def remove_interested(self, event_id: int, user_id: int) -> None:
        """A user takes their interest back: ``GUILD_SCHEDULED_EVENT_USER_REMOVE``."""
        await self._interest(event_id, user_id, interested=False)

    async def _interest(self, event_id: int, user_id: int, *, interested: bool) -> None:
        event = self.scheduled_events[int(event_id)]
        users = self.event_users.setdefault(int(event_id), set())
        if (int(user_id) in users) == interested:
            return
        (users.add if interested else users.discard)(int(user_id))
        name = "GUILD_SCHEDULED_EVENT_USER_" + ("ADD" if interested else "REMOVE")
        await self._tell(
            name,
            {
                "guild_scheduled_event_id": event["id"],
                "user_id": str(user_id),
                "guild_id": event["guild_id"],
            },
        )

    async def _tell(self, event: str, data: dict[str, Any]) -> None:
        """Dispatch a change to the bot, if one is connected (Discord tells whoever is) and,
        for the events' own gateway events, asked for them with the GUILD_SCHEDULED_EVENTS
        intent (Discord sends none without it)."""
        if event.startswith("GUILD_SCHEDULED_EVENT_") and not self._wants_events(data):
            return
        with contextlib.suppress(FakecordError):  # no gateway session: nobody to tell
            await self.dispatch(event, data)  # type: ignore[attr-defined]

    def _wants_events(self, data: dict[str, Any]) -> bool:
        shard = self.shard_of(int(data["guild_id"]))  # type: ignore[attr-defined]
        session = self._shard_sessions.get(shard)  # type: ignore[attr-defined]
        return session is None or bool(session.intents & SCHEDULED_EVENTS_INTENT)

    # ---------------------------------------------------------------- routes

    def _event_out(self, event: dict[str, Any], *, with_count: bool = False) -> dict[str, Any]:
        out = json.loads(json.dumps(event))
        if with_count:
            out["user_count"] = len(self.event_users.get(int(event["id"]), ()))
        return out

    def _guild_of(self, request: web.Request) -> int | web.Response:
        gid = int_or_none(request.match_info["gid"])
        if gid is None or gid not in {g.id for g in self.guilds}:  # type: ignore[attr-defined]
            return json_response({"message": "Unknown Guild", "code": 10004}, 404)
        return gid

    def _may_manage(self, gid: int) -> web.Response | None:
        if gid in self.deny_manage_events:
            return json_response({"message": "Missing Permissions", "code": 50013}, 403)
        return None

    def _event_of(self, request: web.Request, gid: int) -> dict[str, Any] | web.Response:
        event = self.scheduled_events.get(int_or_none(request.match_info["eid"]) or 0)
        if event is None or event["guild_id"] != str(gid):
            return json_response({"message": "Unknown Guild Scheduled Event", "code": 10070}, 404)
        return event

    async def _target(
        self, request: web.Request, route: str, *, manage: bool = False, event: bool = False
    ) -> tuple[int, dict[str, Any] | None] | web.Response:
        """What every events route checks first, in Discord's order: the rate limit and the
        route's scripted failures, the guild, Manage Events (for a change), then the event
        named in the path. The guild's id and the event, or the answer that ends the call."""
        if (early := await self._begin(request, route)) is not None:  # type: ignore[attr-defined]
            return early
        gid = self._guild_of(request)
        if isinstance(gid, web.Response):
            return gid
        if manage and (denied := self._may_manage(gid)) is not None:
            return denied
        if not event:
            return gid, None
        found = self._event_of(request, gid)
        return found if isinstance(found, web.Response) else (gid, found)

    async def _list_events(self, request: web.Request) -> web.Response:
        target = await self._target(request, "scheduled_event")
        if isinstance(target, web.Response):
            return target
        count = request.query.get("with_user_count") == "true"
        events = self.guild_events(target[0])
        return json_response([self._event_out(e, with_count=count) for e in events])

    async def _get_event(self, request: web.Request) -> web.Response:
        target = await self._target(request, "scheduled_event", event=True)
        if isinstance(target, web.Response):
            return target
        count = request.query.get("with_user_count") == "true"
        return json_response(self._event_out(target[1], with_count=count))  # type: ignore[arg-type]

    async def _create_event(self, request: web.Request) -> web.Response:
        target = await self._target(request, "scheduled_event_create", manage=True)
        if isinstance(target, web.Response):
            return target
        gid = target[0]
        body = _dict_body(request)
        event = {key: body.get(key) for key in EVENT_FIELDS}
        event["status"] = SCHEDULED
        if (errors := event_errors(event, now=datetime.now(UTC))) is not None:
            return self._invalid(request, errors)  # type: ignore[attr-defined]
        live = [e for e in self.guild_events(gid) if e["status"] in (SCHEDULED, ACTIVE)]
        if len(live) >= self.events_per_guild:
            return json_response(
                {"message": "Maximum number of guild scheduled events reached", "code": 30038},
                400,
            )
        eid = self.snowflake()  # type: ignore[attr-defined]
        event.update(
            id=str(eid),
            guild_id=str(gid),
            creator_id=str(self.bot_user_id),  # type: ignore[attr-defined]
            creator=self.bot_user_payload(),  # type: ignore[attr-defined]
            entity_id=None,
            privacy_level=2,
            image=None,
        )
        self.scheduled_events[eid] = event
        await self._tell("GUILD_SCHEDULED_EVENT_CREATE", self._event_out(event))
        return json_response(self._event_out(event))

    async def _modify_event(self, request: web.Request) -> web.Response:
        target = await self._target(request, "scheduled_event_modify", manage=True, event=True)
        if isinstance(target, web.Response):
            return target
        event = target[1]
        assert event is not None
        body = _dict_body(request)
        changed = {**event, **{k: v for k, v in body.items() if k in EVENT_FIELDS}}
        status = changed["status"]
        if status != event["status"] and status not in NEXT_STATUS.get(event["status"], ()):
            return self._invalid(  # type: ignore[attr-defined]
                request,
                _error(
                    "status",
                    "GUILD_SCHEDULED_EVENT_INVALID_STATUS_TRANSITION",
                    f"Cannot change status from {event['status']} to {status}.",
                ),
            )
        if event["status"] in (COMPLETED, CANCELED):
            return self._invalid(  # type: ignore[attr-defined]
                request,
                _error("status", "GUILD_SCHEDULED_EVENT_FINISHED", "The event is over."),
            )
        if status == SCHEDULED and (errors := event_errors(changed, now=datetime.now(UTC))):
            return self._invalid(request, errors)  # type: ignore[attr-defined]
        event.update(changed)
        await self._tell("GUILD_SCHEDULED_EVENT_UPDATE", self._event_out(event))
        return json_response(self._event_out(event))

    async def _delete_event(self, request: web.Request) -> web.Response:
        target = await self._target(request, "scheduled_event_delete", manage=True, event=True)
        if isinstance(target, web.Response):
            return target
        event = target[1]
        assert event is not None
        del self.scheduled_events[int(event["id"])]
        self.event_users.pop(int(event["id"]), None)
        await self._tell("GUILD_SCHEDULED_EVENT_DELETE", self._event_out(event))
        return web.Response(status=204)

    async def _thread_from_message(self, request: web.Request) -> web.Response:
        if (early := await self._begin(request, "thread_create")) is not None:  # type: ignore[attr-defined]
            return early
        cid, mid = int_or_none(request.match_info["cid"]), int_or_none(request.match_info["mid"])
        found = self._channel_spec(cid) if cid is not None else None  # type: ignore[attr-defined]
        message = self.messages.get(mid) if mid is not None else None  # type: ignore[attr-defined]
        if found is None or message is None or message["channel_id"] != str(cid):
            return json_response({"message": "Unknown Message", "code": 10008}, 404)
        guild, _channel = found
        body = _dict_body(request)
        name = body.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= THREAD_NAME_MAX:
            return self._invalid(  # type: ignore[attr-defined]
                request,
                _error("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."),
            )
        if self._channel_spec(mid) is not None:  # type: ignore[attr-defined]
            return json_response(
                {"message": "A thread has already been created for this message", "code": 160004},
                400,
            )
        guild.channels.append(ChannelSpec(mid, name, 11, cid))
        thread = self.channel_payload(mid)  # type: ignore[attr-defined]
        message["thread"] = thread
        await self._tell("THREAD_CREATE", {**thread, "newly_created": True})
        return json_response(thread)
