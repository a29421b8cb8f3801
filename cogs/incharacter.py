"""In character: players and GMs speak as their characters, under their names and portraits.

`/say text:` (and `/me`, the emote form) posts the words in the channel as the speaker's
active character, or `as:` another of theirs; a GM speaks as any NPC. The post goes through
the channel's webhook (cogs/utils/voices.py), so the channel shows only the character's words;
the command itself is answered privately in a line. Each post is recorded with the user behind
it (storage/rules_incharacter.py): three message context menus read the record, "Edit post"
(its author), "Delete post" (its author or a GM) and "Who wrote this" (anyone: moderators rely
on it). `/character portrait` sets the picture the posts, the sheet, the rolls and the fight
tracker show.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.sheet_edit import TEXT_ID, form_values
from cogs.utils import autocomplete as ac
from cogs.utils.actor import may_act_as
from cogs.utils.discord_limits import CONTENT_MAX
from cogs.utils.errors import UserError
from cogs.utils.line_form import MODAL_TITLE_MAX
from cogs.utils.options import FreeText, Name
from cogs.utils.rolling import (
    NO_ACTIVE,
    Roller,
    actor_of,
    gm_recipients,
    load_roller,
    npc_sheet,
)
from cogs.utils.text import inert
from cogs.utils.voices import (
    Posted,
    PostGone,
    Speech,
    Voices,
    VoiceUnavailable,
    Where,
    where_of,
)
from storage.errors import StorageError
from storage.portraits import EXPIRES, PORTRAIT_MAX
from storage.rules_incharacter import CharacterPost, NewPost
from wire.i18n import N_, tr
from wire.sheet import Character
from wire.textcheck import clip, normal_text, text_problem

if TYPE_CHECKING:
    from bot import WireBot

log = logging.getLogger("wire.incharacter")
Words = app_commands.Transform[str, FreeText(CONTENT_MAX)]
"""What a character says: one line, up to Discord's 2,000 characters of a message."""
Link = app_commands.Transform[str, FreeText(PORTRAIT_MAX)]
EDIT_FORM_ID = re.compile(r"wire:say:(?P<message>[0-9]+):edit")
NOTED_KEY = "incharacter:fallback-noted:{guild}:{channel}"
"""Meta key: the GMs were told once that this channel lacks Manage Webhooks."""
FALLBACK_NOTE = N_(
    "In {channel} the bot may not use webhooks, so in-character posts show as its own embeds "
    "under the character's name and portrait. Give the bot **Manage Webhooks** there (server "
    "settings, or the channel's permissions) and posts show as the character itself."
)
NOT_A_POST = N_("This is not an in-character post of the bot (or its record was deleted).")
SAY_DESCRIPTIONS = {
    "text": "What your character says (markdown works; nobody is pinged)",
    "as": "Another of your characters (GMs: any NPC); default: your active one",
}


class InCharacter(commands.Cog):
    """/say, /me and the posts' context menus (/character portrait: `SheetPortrait` below)."""

    def __init__(self, bot: WireBot) -> None:
        self.bot = bot
        self.voices = Voices(bot)
        self.menus = [
            app_commands.ContextMenu(name="Edit post", callback=self.edit_menu),
            app_commands.ContextMenu(name="Delete post", callback=self.delete_menu),
            app_commands.ContextMenu(name="Who wrote this", callback=self.who_menu),
        ]
        for menu in self.menus:
            menu.guild_only = True

    async def cog_load(self) -> None:
        for menu in self.menus:
            self.bot.tree.add_command(menu)
        self.bot.add_form(EDIT_FORM_ID, self.on_edit_form)

    async def cog_unload(self) -> None:
        for menu in self.menus:
            self.bot.tree.remove_command(menu.name, type=menu.type)
        self.bot.remove_form(EDIT_FORM_ID)

    # ---- speaking --------------------------------------------------------------------------
    @app_commands.command(name="say", description="Say something as your character")
    @app_commands.guild_only()
    @app_commands.describe(
        text=SAY_DESCRIPTIONS["text"],
        as_=SAY_DESCRIPTIONS["as"],
        emote="Show it as an action: *Jaime draws his sword*",
    )
    @app_commands.rename(as_="as")
    @app_commands.autocomplete(as_=ac.my_character)
    async def say(
        self,
        interaction: discord.Interaction,
        text: Words,
        as_: Name | None = None,
        emote: bool = False,
    ) -> None:
        await self.speak(interaction, text, as_, emote)

    @app_commands.command(name="me", description="An action of your character: *Jaime nods*")
    @app_commands.guild_only()
    @app_commands.describe(
        text="What your character does (after its name)", as_=SAY_DESCRIPTIONS["as"]
    )
    @app_commands.rename(as_="as")
    @app_commands.autocomplete(as_=ac.my_character)
    async def me(
        self, interaction: discord.Interaction, text: Words, as_: Name | None = None
    ) -> None:
        await self.speak(interaction, text, as_, True)

    async def speak(
        self, interaction: discord.Interaction, text: str, as_: str | None, emote: bool
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        character, name = await self.speaker(roller, as_)
        speech = Speech(name, text, character.portrait, emote)
        if over := speech.too_long():
            raise UserError(
                tr(
                    "That is {over} characters over Discord's 2,000 for a message. Shorten it.",
                    over=over,
                )
            )
        where = where_of(interaction.channel) or Where(roller.channel_id)
        await interaction.response.defer(ephemeral=True, thinking=True)
        posted, note = await self.post(interaction, roller, where, speech)
        record = NewPost(
            message_id=posted.message_id,
            guild_id=roller.guild_id,
            campaign_id=roller.campaign.id,
            channel_id=where.channel_id,
            character_id=character.id,
            character_name=name,
            author_id=roller.user_id,
            emote=emote,
            thread_id=where.thread_id,
            webhook_id=posted.webhook_id,
        )
        try:
            await self.bot.store.record_post(record)
        except Exception:
            # A post nobody can trace back to its author must not stay up.
            await self.voices.delete(where, posted.message_id, posted.webhook_id)
            raise
        said = (
            tr("Done as **{name}**.", name=inert(name))  # an emote is an action, not speech
            if emote
            else tr("Said as **{name}**.", name=inert(name))
        )
        await interaction.followup.send(f"{said} {note}" if note else said, ephemeral=True)

    async def speaker(self, roller: Roller, as_: str | None) -> tuple[Character, str]:
        """The sheet the words are said as, and the name they are said under: the active
        character, another of the user's own, or (GMs) any NPC, a fight's copy ("Goblin 2")
        included (`may_act_as`: a GM does not speak as a player's character)."""
        campaign, user = roller.campaign, roller.user_id
        if not as_:
            if roller.character is None and campaign.is_gm(user):
                raise UserError(
                    tr(NO_ACTIVE) + " " + tr("As a GM, add as:<name> to speak as an NPC.")
                )
            return roller.sheet(), roller.sheet().name
        if campaign.is_gm(user):
            sheet, name = await npc_sheet(
                self.bot, roller.guild_id, campaign, roller.channel_id, as_
            )
            if may_act_as(campaign, user, sheet):
                return sheet, name
        else:
            sheet = await self.bot.store.get_character(roller.guild_id, campaign.id, as_)
            if sheet.is_npc:
                raise campaign.gm_only(N_("speak as an NPC"))
            if may_act_as(campaign, user, sheet):
                return sheet, sheet.name
        raise UserError(
            tr(
                "{name} is another player's character; you speak only as your own.",
                name=inert(sheet.name),
            )
        )

    async def post(
        self, interaction: discord.Interaction, roller: Roller, where: Where, speech: Speech
    ) -> tuple[Posted, str]:
        """Post through the webhook, else as an embed; and the GM's note, the first time."""
        if interaction.app_permissions.manage_webhooks:
            try:
                return await self.voices.post(where, speech), ""
            except VoiceUnavailable:
                pass
            except discord.HTTPException as error:
                # 403 a locked thread, 404 a thread deleted meanwhile, 400 a thread archived
                # for good: the user's to know, and nothing was posted.
                if error.status not in (400, 403, 404):
                    raise
                log.warning("Discord refused an in-character post (%s): %s", error.status, error)
                raise UserError(
                    tr("Discord refused the post here (a locked thread?). Nothing was posted.")
                ) from error
        try:
            posted = await self.voices.post_embed(where, speech)
        except discord.Forbidden as error:
            raise UserError(
                tr(
                    "The bot may not post in this channel. Give it **Manage Webhooks** (or at "
                    "least Send Messages and Embed Links) here."
                )
            ) from error
        return posted, await self.note_fallback(roller, where)

    async def note_fallback(self, roller: Roller, where: Where) -> str:
        """Tell the GMs once per channel which permission turns on the proper form: a GM who
        speaks reads it in the answer; else the GM channel or the GMs' direct messages get it."""
        key = NOTED_KEY.format(guild=roller.guild_id, channel=where.channel_id)
        store = self.bot.store
        if await store.get_meta(key):
            return ""
        note = tr(FALLBACK_NOTE, channel=f"<#{where.channel_id}>")
        if roller.campaign.is_gm(roller.user_id):
            await store.set_meta(key, "1")
            return note
        try:
            if roller.campaign.gm_channel_id:
                channel = self.bot.get_partial_messageable(
                    roller.campaign.gm_channel_id, guild_id=roller.guild_id
                )
                await channel.send(note)
            else:
                for gm_id in gm_recipients(self.bot, roller):
                    user = self.bot.get_user(gm_id) or await self.bot.fetch_user(gm_id)
                    await user.send(note)
        except discord.HTTPException:
            return ""  # told next time, then
        await store.set_meta(key, "1")
        return ""

    # ---- the posts' context menus ----------------------------------------------------------
    async def _post_of(self, interaction: discord.Interaction, message_id: int) -> CharacterPost:
        if interaction.guild_id is None:
            raise UserError(tr(NOT_A_POST))
        post = await self.bot.store.get_post(interaction.guild_id, message_id)
        if post is None:
            raise UserError(tr(NOT_A_POST))
        return post

    async def who_menu(self, interaction: discord.Interaction, message: discord.Message) -> None:
        post = await self._post_of(interaction, message.id)
        campaign = await self.bot.store.get_campaign_by_id(post.guild_id, post.campaign_id)
        await interaction.response.send_message(
            tr(
                "**{name}** ({campaign}) is played by <@{author}>; posted with `/say`.",
                name=inert(post.character_name),
                campaign=inert(campaign.name),
                author=post.author_id,
            ),
            ephemeral=True,
        )

    async def edit_menu(self, interaction: discord.Interaction, message: discord.Message) -> None:
        post = await self._post_of(interaction, message.id)
        if post.author_id != interaction.user.id:
            raise UserError(tr("Only its author edits a post."))
        form = discord.ui.Modal(
            title=clip(tr("Edit {name}'s post", name=post.character_name), MODAL_TITLE_MAX),
            custom_id=f"wire:say:{post.message_id}:edit",
        )
        form.add_item(
            discord.ui.Label(
                text=tr("Words"),
                component=discord.ui.TextInput(
                    custom_id=TEXT_ID,
                    style=discord.TextStyle.paragraph,
                    default=clip(words_of(message, post), CONTENT_MAX) or None,
                    max_length=CONTENT_MAX,
                ),
            )
        )
        await interaction.response.send_modal(form)

    async def on_edit_form(self, interaction: discord.Interaction, match: re.Match[str]) -> None:
        """The edit form's answer, wherever and whenever it was opened: it names its post."""
        message_id = int(match["message"])
        await self.bot.tree.run(interaction, lambda: self.apply_edit(interaction, message_id))

    async def apply_edit(self, interaction: discord.Interaction, message_id: int) -> None:
        text, _ = form_values(interaction.data)
        problem = text_problem(text, CONTENT_MAX, multiline=True)
        if problem:
            raise UserError(f"{problem.what}. {problem.fix}")
        post = await self._post_of(interaction, message_id)
        if post.author_id != interaction.user.id:
            raise UserError(tr("Only its author edits a post."))
        portrait = await self._portrait(post)
        speech = Speech(post.character_name, normal_text(text), portrait, post.emote)
        if over := speech.too_long():
            raise UserError(
                tr(
                    "That is {over} characters over Discord's 2,000 for a message. Shorten it.",
                    over=over,
                )
            )
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            await self.voices.edit(where_of_post(post), message_id, post.webhook_id, speech)
        except PostGone as error:
            raise UserError(
                tr(
                    "This post can no longer be edited: it, or the webhook that posted it, was "
                    "deleted. Delete it and say it again."
                )
            ) from error
        await interaction.followup.send(tr("Edited."), ephemeral=True)

    async def _portrait(self, post: CharacterPost) -> str | None:
        if post.character_id is None:
            return None
        try:
            sheet = await self.bot.store.get_character_by_id(
                post.guild_id, post.campaign_id, post.character_id
            )
        except StorageError:
            return None
        return sheet.portrait

    async def delete_menu(self, interaction: discord.Interaction, message: discord.Message) -> None:
        post = await self._post_of(interaction, message.id)
        actor = actor_of(interaction)
        if post.author_id != actor:
            campaign = await self.bot.store.get_campaign_by_id(post.guild_id, post.campaign_id)
            if not campaign.is_gm(actor):
                raise UserError(tr("Only its author or a GM deletes a post."))
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            await self.voices.delete(where_of_post(post), post.message_id, post.webhook_id)
        except discord.Forbidden as error:
            raise UserError(
                tr(
                    "The webhook that posted this is gone, and the bot may not delete others' "
                    "messages here (Manage Messages). A moderator can delete it."
                )
            ) from error
        await self.bot.store.forget_post(post.guild_id, post.message_id)
        await interaction.followup.send(tr("Deleted."), ephemeral=True)


def where_of_post(post: CharacterPost) -> Where:
    """Where a recorded post is: its channel, and its thread there (if any)."""
    return Where(post.channel_id, post.thread_id)


def words_of(message: discord.Message, post: CharacterPost) -> str:
    """A post's words as the speaker wrote them: without the emote's name and asterisks."""
    if post.via_webhook:
        shown = message.content
    else:
        shown = message.embeds[0].description or "" if message.embeds else ""
    if post.emote:
        head = f"*{inert(post.character_name)} "
        if shown.startswith(head) and shown.endswith("*"):
            shown = shown[len(head) : -1]
    return shown


class SheetPortrait:
    """/character portrait, declared beside the posts that show the picture: a mixin the
    Characters cog inherits (as Red composes a cog), since the portrait is part of the sheet."""

    bot: WireBot

    @app_commands.command(name="portrait", description="Set or remove a character's portrait")
    @app_commands.guild_only()
    @app_commands.describe(
        url="An https link to the image (World Anvil or any image host)",
        name="The character (default: your active one)",
        remove="Remove the portrait",
    )
    @app_commands.autocomplete(name=ac.my_character)
    async def portrait(
        self,
        interaction: discord.Interaction,
        url: Link | None = None,
        name: Name | None = None,
        remove: bool = False,
    ) -> None:
        bot = self.bot
        if (url is None) == (not remove):
            raise UserError(tr("Give a link with url:, or remove:true to remove the portrait."))
        roller = await load_roller(bot, interaction)
        target = name or roller.sheet().name
        character, checked = await bot.store.set_portrait(
            roller.guild_id, roller.campaign.id, roller.user_id, target, None if remove else url
        )
        if checked is None:
            reply = tr("Removed {name}'s portrait.", name=inert(character.name))
        else:
            reply = tr(
                "{name}'s portrait is set: it shows on the sheet, the rolls, the fight tracker "
                "and `/say`.",
                name=inert(character.name),
            )
            if checked.expires:
                reply += "\n⚠️ " + tr(EXPIRES)
        embed = discord.Embed(title=clip(inert(character.name), 256))
        if character.portrait:
            embed.set_thumbnail(url=character.portrait)
        await interaction.response.send_message(reply, embed=embed, ephemeral=True)


async def setup(bot: WireBot) -> None:
    await bot.add_cog(InCharacter(bot))
