"""Discord objects the stand-in hands out: users, channels, guilds and interactions.

Why a module: READY, GUILD_CREATE, REST answers and INTERACTION_CREATE all carry the same user,
channel and guild objects, and tests build interactions (``command_interaction``,
``component_interaction``) to send to the bot.  Building those payloads, with every field
discord.py 2.7 reads, is one job, kept apart from the transport that sends them.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from tests import discord_rules as rules

from .protocol import (
    DEFAULT_MEMBER_PERMISSIONS,
    DEFAULT_USER_ID,
    INTERACTION_APPLICATION_COMMAND,
    INTERACTION_MESSAGE_COMPONENT,
    OPTION_BOOLEAN,
    OPTION_INTEGER,
    OPTION_NUMBER,
    OPTION_STRING,
    OPTION_SUB_COMMAND,
    OPTION_SUB_COMMAND_GROUP,
)
from .records import ChannelSpec, FakecordError, GuildSpec
from .state import FakecordState


class PayloadBuilder(FakecordState):
    """Users, channels, guilds and interactions as Discord serialises them."""

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
            "parent_id": str(c.parent_id) if c.parent_id else None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if c.type in (10, 11, 12):  # a thread
            payload["owner_id"] = str(g.owner_id)
            payload["message_count"] = payload["member_count"] = 0
            payload["thread_metadata"] = {
                "archived": False,
                "auto_archive_duration": 1440,
                "archive_timestamp": "2025-01-01T00:00:00.000000+00:00",
                "locked": False,
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
            "app_permissions": self.app_permissions_in(channel_id),  # type: ignore[attr-defined]
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
        opts = normalise_options(options)
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
        if component_type in rules.SELECT_TYPES:
            # A select interaction carries the picked `values` (Discord's "Message Component
            # Data Structure"); a client can only pick among what the message offers.
            select = _component_of(msg, custom_id)
            if select is None or select.get("type") != component_type:
                raise FakecordError(
                    f"the message has no select menu of type {component_type} with custom_id "
                    f"{custom_id!r}: a real client could not send this"
                )
            if select.get("disabled"):
                raise FakecordError(f"the select {custom_id!r} is disabled")
            problem = rules.select_values_problem(select, list(values or []))
            if problem:
                raise FakecordError(f"select {custom_id!r}: {problem}")
            data["values"] = list(values or [])
        elif values is not None:
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

    def _find_command(self, name: str, guild_id: int, kind: int = 1) -> dict[str, Any] | None:
        """A synced command by name and command type (1 slash, 2 user menu, 3 message menu)."""
        for scope in (guild_id, None):
            for cmd in self._commands.get(scope, []):
                if cmd["name"] == name and int(cmd.get("type", 1)) == kind:
                    return cmd
        return None

    def guild_create_payload(self, g: GuildSpec) -> dict[str, Any]:
        """The GUILD_CREATE dispatch for one guild, with its channels and the bot as member."""
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
        channels, threads = [], []
        for c in g.channels:
            ch = self.channel_payload(c.id)
            if c.type not in (10, 11, 12):
                ch.pop("guild_id")
                channels.append(ch)
            else:
                threads.append(ch)
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
            "threads": threads,
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            # What the guild has planned (fakecord/scheduled_events.py), as Discord sends it.
            "guild_scheduled_events": [
                dict(e)
                for e in getattr(self, "scheduled_events", {}).values()
                if e["guild_id"] == str(g.id)
            ],
            "soundboard_sounds": [],
        }


def normalise_options(
    options: Sequence[Mapping[str, Any]] | Mapping[str, Any] | None,
) -> list[dict[str, Any]]:
    """Discord's option list, from a list or from a mapping name -> value (types inferred)."""
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


def describe_interaction(payload: Mapping[str, Any]) -> str:
    """A short name for an interaction in failure messages: ``/gm post``, ``component 'x'``."""
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


def _component_of(message: Mapping[str, Any], custom_id: str) -> Mapping[str, Any] | None:
    """The component with this custom_id anywhere in the message's rows, or None."""
    pending = list(message.get("components") or [])
    while pending:
        component = pending.pop()
        if not isinstance(component, Mapping):
            continue
        if component.get("custom_id") == custom_id:
            return component
        pending += list(component.get("components") or [])
    return None
