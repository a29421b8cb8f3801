"""In character: portraits and the post record, a part of `RuleStore` (storage/rules.py).

A post the bot makes as a character (`/say`) is recorded with the Discord user behind it, so
that "who wrote this" can answer, and so that only its author edits it (and its author or a GM
deletes it). The record holds ids and the character's name, never the words: those are in
Discord's message. Every statement is scoped to the guild; /privacy forget-me deletes a user's
records (storage/rules.py's `delete_user_data`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from storage.portraits import Portrait, clean_portrait
from wire.sheet import Character

if TYPE_CHECKING:
    from storage.rules_needs import InCharacterNeeds as _Needs
else:
    _Needs = object


@dataclass(frozen=True, slots=True)
class NewPost:
    """A post just made, to record."""

    message_id: int
    guild_id: int
    campaign_id: int
    channel_id: int
    """The channel of the post; for a post in a thread, the thread's parent (whose webhook
    posts into it)."""
    character_id: int | None
    character_name: str
    author_id: int
    emote: bool = False
    thread_id: int | None = None
    """The thread it was posted into, else None."""
    webhook_id: int | None = None
    """The webhook that posted it; None: the bot's own message (the embed form)."""


@dataclass(frozen=True, slots=True)
class CharacterPost(NewPost):
    """A recorded post, as "who wrote this", edits and deletes read it."""

    created_at: str | None = None

    @property
    def via_webhook(self) -> bool:
        return self.webhook_id is not None


def _post(row: Sequence[Any]) -> CharacterPost:
    return CharacterPost(
        message_id=row[0],
        guild_id=row[1],
        campaign_id=row[2],
        channel_id=row[3],
        thread_id=row[4],
        character_id=row[5],
        character_name=row[6],
        author_id=row[7],
        emote=bool(row[8]),
        webhook_id=row[9],
        created_at=row[10],
    )


class RuleInCharacter(_Needs):
    """The portrait and post methods of `RuleStore`."""

    async def set_portrait(
        self,
        guild_id: int,
        campaign_id: int,
        actor_id: int,
        name: str,
        url: str | None,
    ) -> tuple[Character, Portrait | None]:
        """Set (or, with None, remove) a character's portrait: its player's or a GM's to change
        (an NPC's, a GM's). InvalidValue names what is wrong with a refused link."""
        portrait = clean_portrait(url) if url is not None else None
        async with self._write(guild_id) as tx:
            access = await self._access(tx, guild_id, campaign_id, actor_id, name)
            access.require_change(actor_id)
            await tx.execute(
                "character_set_portrait",
                {"character_id": access.id, "value": portrait.url if portrait else None},
            )
            character = await self._character_by_id(tx, guild_id, campaign_id, access.id)
        return character, portrait

    async def record_post(self, post: NewPost) -> None:
        """Keep the record of a post; recording the same message twice keeps one."""
        params = {
            "message_id": post.message_id,
            "guild_id": post.guild_id,
            "campaign_id": post.campaign_id,
            "channel_id": post.channel_id,
            "thread_id": post.thread_id,
            "character_id": post.character_id,
            "character_name": post.character_name,
            "author_id": int(post.author_id),
            "emote": int(post.emote),
            "webhook_id": post.webhook_id,
        }
        await self.backend.query("insert_post", params, write=True)

    async def get_post(self, guild_id: int, message_id: int) -> CharacterPost | None:
        rows = await self.backend.query(
            "post_by_message", {"guild_id": guild_id, "message_id": message_id}
        )
        return _post(rows[0]) if rows else None

    async def forget_post(self, guild_id: int, message_id: int) -> bool:
        """Drop the record of a deleted post; whether there was one."""
        async with self._write(guild_id) as tx:
            return bool(
                await tx.execute("delete_post", {"guild_id": guild_id, "message_id": message_id})
            )
