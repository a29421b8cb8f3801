"""A session's Discord scheduled event: created, moved, started, ended and deleted with it.

The event is the server's own listing of the session (in the Events list, in each reader's time
zone, with "Interested"). It is a mirror: the session in the store is what counts, so an event
that cannot be made or changed (no Manage Events, Discord's limit of events, a deleted event)
leaves the session as it is and the GM gets one ephemeral line saying what was not done and
how to fix it. Each method returns that line, or None when all went well.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING

import discord

from cogs.utils.text import inert
from storage.errors import StorageError
from storage.rules_sessions import Session
from wire import sessions as rules
from wire.i18n import tr
from wire.textcheck import clip

if TYPE_CHECKING:
    from bot import WireBot

log = logging.getLogger(__name__)
EVENT_LOCATION_MAX = 100
EVENT_DESCRIPTION_MAX = 1000


def refused(error: discord.HTTPException) -> str:
    """What the GM reads when Discord refused a change of the event."""
    if isinstance(error, discord.Forbidden):
        return tr(
            "The session is kept, but I may not manage the server's events, so its Discord "
            "event was not changed. Give me the Manage Events permission to have it listed."
        )
    if isinstance(error, discord.NotFound):
        return tr(
            "The session is kept, but its Discord event is gone (deleted in Discord); "
            "it has no event now."
        )
    return tr(
        "The session is kept, but Discord refused its event ({reason}).",
        reason=inert(clip(error.text or str(error.status), 200)),
    )


class SessionEvents:
    """The Discord side of a session's scheduled event."""

    def __init__(self, bot: WireBot) -> None:
        self.bot = bot

    async def create(self, guild: discord.Guild | None, session: Session) -> str | None:
        if guild is None:
            return None
        channel = guild.get_channel(session.channel_id)
        where = f"#{channel.name}" if channel is not None else f"<#{session.channel_id}>"
        try:
            event = await guild.create_scheduled_event(
                name=session.title,
                start_time=session.start,
                end_time=rules.end_of(session.start, session.minutes),
                entity_type=discord.EntityType.external,
                privacy_level=discord.PrivacyLevel.guild_only,
                location=clip(where, EVENT_LOCATION_MAX),
                description=clip(
                    tr("A WIRE session. Answer under its post in {channel}.", channel=where),
                    EVENT_DESCRIPTION_MAX,
                ),
            )
        except discord.HTTPException as error:
            log.info("Session %s: no scheduled event: %s", session.id, error)
            return refused(error)
        try:
            await self.bot.store.set_session_event(guild.id, session.id, event.id)
        except StorageError:
            log.warning("Session %s: could not keep its event's id", session.id, exc_info=True)
        return None

    async def _event(
        self, guild: discord.Guild | None, session: Session
    ) -> discord.ScheduledEvent | None:
        if guild is None or session.event_id is None:
            return None
        found = guild.get_scheduled_event(session.event_id)
        return found or await guild.fetch_scheduled_event(session.event_id)

    async def move(self, guild: discord.Guild | None, session: Session) -> str | None:
        try:
            event = await self._event(guild, session)
            if event is None:
                return None
            if event.start_time == session.start:
                return None  # moved in Discord itself: already in step
            await event.edit(
                start_time=session.start,
                end_time=rules.end_of(session.start, session.minutes),
            )
        except discord.HTTPException as error:
            return await self._failed(session, error)
        return None

    async def remove(self, guild: discord.Guild | None, session: Session) -> str | None:
        try:
            event = await self._event(guild, session)
            if event is not None:
                await event.delete()
        except discord.HTTPException as error:
            return await self._failed(session, error)
        return None

    async def begin(self, guild: discord.Guild | None, session: Session) -> str | None:
        return await self._status(guild, session, discord.EventStatus.active)

    async def finish(self, guild: discord.Guild | None, session: Session) -> str | None:
        return await self._status(guild, session, discord.EventStatus.completed)

    async def _status(
        self, guild: discord.Guild | None, session: Session, status: discord.EventStatus
    ) -> str | None:
        try:
            event = await self._event(guild, session)
            if event is None or event.status == status:
                return None
            if (
                status is discord.EventStatus.active
                and event.status is discord.EventStatus.scheduled
            ):
                await event.start()
            elif (
                status is discord.EventStatus.completed
                and event.status is discord.EventStatus.active
            ):
                await event.end()
        except discord.HTTPException as error:
            return await self._failed(session, error)
        return None

    async def _failed(self, session: Session, error: discord.HTTPException) -> str:
        log.info("Session %s: its event could not be changed: %s", session.id, error)
        if isinstance(error, discord.NotFound):
            with contextlib.suppress(StorageError):
                await self.bot.store.set_session_event(session.guild_id, session.id, None)
        return refused(error)
