"""Interest marked on a guild scheduled event, heard for every user.

Discord sends ``GUILD_SCHEDULED_EVENT_USER_ADD`` / ``_USER_REMOVE`` (the
``guild_scheduled_events`` intent) with three ids: ``guild_scheduled_event_id``, ``user_id`` and
``guild_id``. discord.py turns them into ``on_scheduled_event_user_add`` / ``_remove`` only for a
user it has cached, and the bot caches no members (no members intent), so nearly every mark
would be dropped unheard. `hear_interest` reads the ids from the payload itself and dispatches
``on_scheduled_event_interest`` with a `ScheduledEventInterest` for every mark, then lets
discord.py's own parser do what it does.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

log = logging.getLogger(__name__)
EVENT = "scheduled_event_interest"
"""The dispatched event's name: a cog listens with `on_scheduled_event_interest`."""
GATEWAY_EVENTS = {
    "GUILD_SCHEDULED_EVENT_USER_ADD": True,
    "GUILD_SCHEDULED_EVENT_USER_REMOVE": False,
}
"""Each gateway event, and whether it marks interest (True) or takes it back (False)."""


@dataclass(frozen=True, slots=True)
class ScheduledEventInterest:
    """A user marked interest in a scheduled event, or took it back."""

    guild_id: int
    event_id: int
    user_id: int
    interested: bool


def hear_interest(client: discord.Client) -> None:
    """Dispatch every interest mark the gateway sends, cached user or not."""
    parsers: dict[str, Callable[[Any], None]] = client._connection.parsers
    for name, interested in GATEWAY_EVENTS.items():
        parsers[name] = _relay(client, parsers[name], interested)


def _relay(
    client: discord.Client, original: Callable[[Any], None], interested: bool
) -> Callable[[Any], None]:
    def parse(data: Any) -> None:
        try:
            mark = ScheduledEventInterest(
                int(data["guild_id"]),
                int(data["guild_scheduled_event_id"]),
                int(data["user_id"]),
                interested,
            )
        except (KeyError, TypeError, ValueError):
            log.debug("An interest mark without its ids: %r", data)
        else:
            client.dispatch(EVENT, mark)
        original(data)

    return parse
