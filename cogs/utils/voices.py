"""Posting as a character: one webhook per channel, and the embed form where there is none.

Discord shows a webhook's message under any name and picture the execute gives it, which is
how a character speaks in the channel. The bot keeps one webhook per channel, named WEBHOOK_NAME:
made on first use, found again after a restart by listing the channel's webhooks, and made
anew (once per post) when someone deleted it (Discord answers 404 Unknown Webhook). Posts into
a thread go through the parent channel's webhook with `thread_id`.

Posts of one channel take turns (a lock per channel, first come first served): a busy scene's
posts appear in the order they were sent, none lost, none doubled. discord.py waits out a 429
on the webhook's own bucket and honours its X-RateLimit headers; the turn is held meanwhile.

Without Manage Webhooks the bot cannot make a webhook (403), and posts the words as an embed
of its own under the character's name and portrait: `VoiceUnavailable` says so, the caller
falls back to `post_embed`.

Discord's rules for a webhook's per-message name (developer docs, Webhook resource: "does not
contain the substrings clyde or discord (case-insensitive)", the nickname rules, up to 80
characters) are kept by `webhook_username`; the sheet keeps the real name.
"""

from __future__ import annotations

import asyncio
import logging
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from cogs.utils.discord_limits import CONTENT_MAX, EMBED_AUTHOR_MAX, EMBED_DESCRIPTION_MAX, clip
from cogs.utils.embeds import NEUTRAL
from cogs.utils.text import inert

if TYPE_CHECKING:
    from bot import WireBot

log = logging.getLogger("wire.voices")

WEBHOOK_NAME = "WIRE"
WEBHOOK_USERNAME_MAX = 80
UNKNOWN_WEBHOOK = 10015
NO_MENTIONS = discord.AllowedMentions.none()
WEBHOOK_CHANNELS = (discord.TextChannel, discord.VoiceChannel, discord.StageChannel)
"""Channels a post goes to through their own webhook."""
PARENT_CHANNELS = (*WEBHOOK_CHANNELS, discord.ForumChannel)
"""Channels a webhook belongs to: a thread's (a forum's post too) go through its parent's."""
RATE_LIMIT_ROUNDS = 3
"""Times a post waits out a 429 after discord.py's five tries gave up, before it fails."""
RETRY_AFTER_MAX = 10.0
MAXIMUM_WEBHOOKS = 30007
"""Discord's code for a channel that has its 15 webhooks already."""
_REFUSED_IN_NAMES = {
    # Discord refuses these substrings in a webhook's name; a look-alike letter keeps the name
    # readable: Cyrillic о (U+043E) for the o of "discord", Cyrillic е (U+0435) for the e of
    # "clyde", in the case they were written in.
    re.compile("discord", re.IGNORECASE): (4, "о", "О"),
    re.compile("clyde", re.IGNORECASE): (4, "е", "Е"),
}


def webhook_username(name: str) -> str:
    """A character's name as Discord takes it for a webhook message: "Discordia" becomes
    "Discоrdia" (a Cyrillic о), anything past 80 characters is cut."""

    def swap(match: re.Match[str], at: int, lower: str, upper: str) -> str:
        word = match.group(0)
        letter = upper if word[at].isupper() else lower
        return word[:at] + letter + word[at + 1 :]

    for pattern, (at, lower, upper) in _REFUSED_IN_NAMES.items():
        name = pattern.sub(lambda m, a=at, lo=lower, up=upper: swap(m, a, lo, up), name)
    return clip(name, WEBHOOK_USERNAME_MAX) or "?"


@dataclass(frozen=True, slots=True)
class Speech:
    """What a character says: the name and portrait it is said under, and the words."""

    name: str
    text: str
    portrait: str | None = None
    emote: bool = False

    def content(self) -> str:
        """The message's text: the words as written (markdown is prose), an emote as an action
        in italics ("*Jaime draws his sword*"). Mentions are inert by `NO_MENTIONS`."""
        if self.emote:
            return f"*{inert(self.name)} {self.text}*"
        return self.text

    def too_long(self) -> int:
        """How many characters over Discord's 2,000 the content is (0: it fits)."""
        return max(0, len(self.content()) - CONTENT_MAX)

    def embed(self) -> discord.Embed:
        """The embed form, for a channel where the bot may not use webhooks."""
        embed = discord.Embed(
            description=clip(self.content(), EMBED_DESCRIPTION_MAX), colour=NEUTRAL
        )
        embed.set_author(name=clip(self.name, EMBED_AUTHOR_MAX), icon_url=self.portrait)
        return embed


@dataclass(frozen=True, slots=True)
class Where:
    """Where a post goes: the channel holding the webhook, and the thread inside it (if any)."""

    channel_id: int
    """A text, voice or forum channel: what a webhook belongs to."""
    thread_id: int | None = None

    @property
    def message_channel_id(self) -> int:
        """The channel the message is in (the thread, for a post in a thread)."""
        return self.thread_id or self.channel_id


@dataclass(frozen=True, slots=True)
class Posted:
    message_id: int
    webhook_id: int | None
    """None: the embed form, the bot's own message."""


class VoiceUnavailable(Exception):
    """The bot may not make or use a webhook here (no Manage Webhooks): use the embed form."""


class PostGone(Exception):
    """The post cannot be changed any more: it, or the webhook that posted it, was deleted."""


def where_of(channel: object) -> Where | None:
    """Where a post in this interaction's channel goes, or None where webhooks cannot post."""
    if isinstance(channel, discord.Thread):
        return Where(channel.parent_id, channel.id)
    if isinstance(channel, WEBHOOK_CHANNELS):
        return Where(channel.id)
    return None


class Voices:
    """The bot's webhooks, one per channel, and the posts' turns."""

    def __init__(self, bot: WireBot) -> None:
        self.bot = bot
        self._hooks: dict[int, discord.Webhook] = {}
        self._turns: dict[int, asyncio.Lock] = {}

    def _turn(self, channel_id: int) -> asyncio.Lock:
        return self._turns.setdefault(channel_id, asyncio.Lock())

    def _channel(self, channel_id: int) -> discord.abc.GuildChannel:
        channel = self.bot.get_channel(channel_id)
        if not isinstance(channel, PARENT_CHANNELS):
            raise VoiceUnavailable(channel_id)
        return channel

    async def _webhook(self, channel_id: int) -> discord.Webhook:
        """The channel's webhook: the one known, else ours found in the channel, else a new one."""
        hook = self._hooks.get(channel_id)
        if hook is not None:
            return hook
        channel = self._channel(channel_id)
        try:
            found = await channel.webhooks()  # type: ignore[attr-defined]
            me = self.bot.user.id if self.bot.user else None
            hook = next(
                (
                    w
                    for w in found
                    if w.token and w.name == WEBHOOK_NAME and w.user is not None and w.user.id == me
                ),
                None,
            )
            if hook is None:
                hook = await channel.create_webhook(  # type: ignore[attr-defined]
                    name=WEBHOOK_NAME, reason="In-character posts (/say)"
                )
                log.info("Made the in-character webhook of channel %s", channel_id)
        except discord.Forbidden as error:
            raise VoiceUnavailable(channel_id) from error
        except discord.HTTPException as error:
            if error.code != MAXIMUM_WEBHOOKS:
                raise
            log.info("Channel %s has 15 webhooks: in-character posts come as embeds", channel_id)
            raise VoiceUnavailable(channel_id) from error
        self._hooks[channel_id] = hook
        return hook

    async def post(self, where: Where, speech: Speech) -> Posted:
        """Post `speech` through the channel's webhook, in turn; VoiceUnavailable without one."""
        async with self._turn(where.channel_id):
            hook = await self._webhook(where.channel_id)
            try:
                message = await self._send(hook, where, speech)
            except discord.NotFound as error:
                if error.code != UNKNOWN_WEBHOOK:
                    raise
                # Someone deleted the webhook: make a new one, and post once more.
                self._hooks.pop(where.channel_id, None)
                hook = await self._webhook(where.channel_id)
                message = await self._send(hook, where, speech)
        return Posted(message.id, hook.id)

    @staticmethod
    async def _send(hook: discord.Webhook, where: Where, speech: Speech) -> discord.Message:
        """One execute; a 429 that outlasted discord.py's own retries is waited out again
        (a few times, bounded), so a busy channel's post is late, not lost."""
        for _ in range(RATE_LIMIT_ROUNDS):
            try:
                return await Voices._execute(hook, where, speech)
            except discord.HTTPException as error:
                if error.status != 429:
                    raise
                await asyncio.sleep(_retry_after(error))
        return await Voices._execute(hook, where, speech)

    @staticmethod
    async def _execute(hook: discord.Webhook, where: Where, speech: Speech) -> discord.Message:
        return await hook.send(
            speech.content(),
            username=webhook_username(speech.name),
            avatar_url=speech.portrait or discord.utils.MISSING,
            allowed_mentions=NO_MENTIONS,
            wait=True,
            thread=_thread(where),
        )

    async def post_embed(self, where: Where, speech: Speech) -> Posted:
        """The embed form, as the bot's own message (no webhook needed)."""
        channel = self.bot.get_partial_messageable(where.message_channel_id)
        message = await channel.send(embed=speech.embed(), allowed_mentions=NO_MENTIONS)
        return Posted(message.id, None)

    async def edit(
        self, where: Where, message_id: int, webhook_id: int | None, speech: Speech
    ) -> None:
        """Change a post's words; PostGone if it, or the webhook that made it, is gone."""
        try:
            if webhook_id is None:
                message = self.bot.get_partial_messageable(where.message_channel_id)
                await message.get_partial_message(message_id).edit(
                    embed=speech.embed(), allowed_mentions=NO_MENTIONS
                )
                return
            async with self._turn(where.channel_id):
                hook = await self._same_webhook(where.channel_id, webhook_id)
                # Discord parses an edit's mentions anew unless the edit says otherwise.
                await hook.edit_message(
                    message_id,
                    content=speech.content(),
                    allowed_mentions=NO_MENTIONS,
                    thread=_thread(where),
                )
        except discord.NotFound as error:
            if error.code == UNKNOWN_WEBHOOK:
                self._hooks.pop(where.channel_id, None)
            raise PostGone(message_id) from error

    async def delete(self, where: Where, message_id: int, webhook_id: int | None) -> None:
        """Delete a post; a post already gone counts as deleted. Forbidden: the webhook that
        made it is gone and the bot may not delete others' messages (Manage Messages)."""
        if webhook_id is not None:
            try:
                async with self._turn(where.channel_id):
                    hook = await self._same_webhook(where.channel_id, webhook_id)
                    await hook.delete_message(message_id, thread=_thread(where))
                return
            except discord.NotFound as error:
                if error.code != UNKNOWN_WEBHOOK:
                    return  # the message is gone already
                self._hooks.pop(where.channel_id, None)
            except PostGone:
                pass
            # The webhook is gone; the bot may still delete the message as a moderator.
        channel = self.bot.get_partial_messageable(where.message_channel_id)
        try:
            await channel.get_partial_message(message_id).delete()
        except discord.NotFound:
            return

    async def _same_webhook(self, channel_id: int, webhook_id: int) -> discord.Webhook:
        """The webhook that made a post: only it can edit or delete the post."""
        try:
            hook = await self._webhook(channel_id)
        except VoiceUnavailable as error:
            raise PostGone(webhook_id) from error
        if hook.id != webhook_id:
            raise PostGone(webhook_id)
        return hook


def _retry_after(error: discord.HTTPException) -> float:
    """The seconds a 429 asks to wait (its Retry-After header), within reason."""
    try:
        seconds = float(error.response.headers.get("Retry-After", 1.0))
    except (AttributeError, ValueError):
        seconds = 1.0
    return min(max(seconds, 0.1), RETRY_AFTER_MAX)


def _thread(where: Where) -> discord.abc.Snowflake:
    """The `thread` argument of a webhook call: the thread, or none (MISSING)."""
    return discord.Object(where.thread_id) if where.thread_id else discord.utils.MISSING
