"""/character: sheets with attributes, skills, weapons, a shield and notes.

Players manage their own characters; GMs manage any in their campaign, and the NPCs. The storage
enforces who may change what; this cog turns options into calls and results into replies.
"""

from __future__ import annotations

import contextlib
import io
import json
import secrets
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.utils import autocomplete as ac
from cogs.utils.discord_limits import (
    EMBED_DESCRIPTION_MAX,
    EMBED_FIELD_VALUE_MAX,
    EMBED_TITLE_MAX,
    clip,
)
from cogs.utils.embeds import NEUTRAL
from cogs.utils.errors import UserError
from cogs.utils.options import Base, Name
from cogs.utils.rolling import Roller, load_roller
from storage.errors import StorageError
from storage.models import NOTES_MAX, SKILL_MAX, SKILL_MIN, STAT_MAX, STAT_MIN, Character, Weapon
from storage.transfer import MAX_IMPORT_BYTES, read_import

if TYPE_CHECKING:
    from bot import WireBot

StatValue = app_commands.Range[int, min(STAT_MIN, SKILL_MIN), max(STAT_MAX, SKILL_MAX)]
Notes = app_commands.Range[str, 0, NOTES_MAX]
CONFIRM_SECONDS = 60
IMPORT_RUNNING = "An import of yours is already running; wait for it to finish."


def _table(values: dict[str, int]) -> str:
    if not values:
        return "none"
    lines = [
        f"{name} **{value}**"
        for name, value in sorted(values.items(), key=lambda i: i[0].casefold())
    ]
    text = ", ".join(lines)
    return clip(text, EMBED_FIELD_VALUE_MAX)


def _weapons(weapons: tuple[Weapon, ...]) -> str:
    if not weapons:
        return "none"
    lines = [f"**{w.name}**: base {w.base}, {w.attribute} + {w.skill}" for w in weapons]
    return clip("\n".join(lines), EMBED_FIELD_VALUE_MAX)


def sheet_embed(character: Character, active: bool = False) -> discord.Embed:
    kind = "NPC" if character.is_npc else f"player character of <@{character.owner_id}>"
    embed = discord.Embed(
        title=clip(character.name + (" (active)" if active else ""), EMBED_TITLE_MAX),
        description=kind,
        colour=NEUTRAL,
    )
    embed.add_field(name="Attributes", value=_table(character.attributes), inline=False)
    embed.add_field(name="Skills", value=_table(character.skills), inline=False)
    embed.add_field(name="Weapons", value=_weapons(character.weapons), inline=False)
    embed.add_field(name="Shield", value="yes (can block)" if character.shield else "no")
    if character.notes:
        embed.add_field(
            name="Notes", value=clip(character.notes, EMBED_FIELD_VALUE_MAX), inline=False
        )
    return embed


class ConfirmDelete(discord.ui.View):
    """A short-lived Delete / Cancel choice, for the one command that loses data.

    Its custom ids are registered in `bot.live_components` while it listens, so a press after
    its timeout or a restart is answered by the bot's stale-button note, never left hanging.
    """

    def __init__(
        self, cog: Characters, roller: Roller, name: str, origin: discord.Interaction
    ) -> None:
        super().__init__(timeout=CONFIRM_SECONDS)
        self.cog, self.roller, self.name, self.origin = cog, roller, name, origin
        token = secrets.token_hex(8)
        self.delete.custom_id = f"wire:confirm:{token}:delete"
        self.cancel.custom_id = f"wire:confirm:{token}:cancel"
        self.custom_ids = {self.delete.custom_id, self.cancel.custom_id}
        cog.bot.live_components |= self.custom_ids

    def stop(self) -> None:
        self.cog.bot.live_components -= self.custom_ids
        super().stop()

    async def on_timeout(self) -> None:
        """Take the buttons away, so nobody presses a choice that no longer listens."""
        self.cog.bot.live_components -= self.custom_ids
        with contextlib.suppress(discord.HTTPException):
            await self.origin.edit_original_response(
                content="No answer in time; nothing was deleted.", view=None
            )

    def _require_chooser(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.roller.user_id:
            raise UserError("This is not your choice.")

    @discord.ui.button(label="Delete", style=discord.ButtonStyle.danger)
    async def delete(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await self.cog.bot.tree.run(interaction, lambda: self._delete(interaction))

    async def _delete(self, interaction: discord.Interaction) -> None:
        self._require_chooser(interaction)
        try:
            await self.cog.bot.store.delete_character(
                self.roller.guild_id, self.roller.campaign.id, self.roller.user_id, self.name
            )
        except StorageError as error:  # the question is settled either way: say how
            content = str(error)
        else:
            content = f"Deleted {self.name}."
        await interaction.response.edit_message(content=content, view=None)
        # stop() only after answering: until then the custom ids must count as live, or the
        # stale-button handler would answer this very press.
        self.stop()

    @discord.ui.button(label="Cancel", style=discord.ButtonStyle.secondary)
    async def cancel(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await self.cog.bot.tree.run(interaction, lambda: self._cancel(interaction))

    async def _cancel(self, interaction: discord.Interaction) -> None:
        self._require_chooser(interaction)
        await interaction.response.edit_message(content="Nothing was deleted.", view=None)
        self.stop()


class Characters(commands.GroupCog, group_name="character"):
    """Character sheets: create, show, list, set, remove, delete, use, export, import."""

    def __init__(self, bot: WireBot) -> None:
        self.bot = bot
        self.importing: set[int] = set()
        """Users with an import in flight: one each, so nobody queues up a pile of big files."""
        super().__init__()

    async def _target(self, roller: Roller, name: str | None) -> Character:
        """The named character, or the user's active one."""
        if name:
            return await self.bot.store.get_character(roller.guild_id, roller.campaign.id, name)
        return roller.sheet()

    @app_commands.command(name="create", description="Create a character (GMs: or an NPC)")
    @app_commands.guild_only()
    @app_commands.describe(
        name="The character's name (unique in the campaign)",
        npc="GMs: make it an NPC",
        shield="Carries a shield (needed to block)",
        notes="Free-form notes",
    )
    async def create(
        self,
        interaction: discord.Interaction,
        name: Name,
        npc: bool = False,
        shield: bool = False,
        notes: Notes = "",
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        character = await self.bot.store.create_character(
            roller.guild_id,
            roller.campaign.id,
            roller.user_id,
            name.strip(),
            is_npc=npc,
            shield=shield,
            notes=notes,
        )
        await interaction.response.send_message(
            f"Created {'NPC ' if npc else ''}**{character.name}** in {roller.campaign.name}. "
            f"Add stats with `/character set`, weapons with `/character weapon`.",
            embed=sheet_embed(character),
        )

    @app_commands.command(name="show", description="Show a character sheet (default: yours)")
    @app_commands.guild_only()
    @app_commands.describe(name="The character (default: your active one)")
    @app_commands.autocomplete(name=ac.any_character)
    async def show(self, interaction: discord.Interaction, name: Name | None = None) -> None:
        roller = await load_roller(self.bot, interaction)
        character = await self._target(roller, name)
        active = roller.character is not None and roller.character.id == character.id
        if character.is_npc and not roller.campaign.is_gm(roller.user_id):
            raise UserError(f"{character.name} is an NPC; only the GMs see NPC sheets.")
        await interaction.response.send_message(
            embed=sheet_embed(character, active), ephemeral=character.is_npc
        )

    @app_commands.command(name="list", description="List the campaign's characters")
    @app_commands.guild_only()
    @app_commands.describe(owner="Only this player's characters", npcs="GMs: list the NPCs")
    async def list_(
        self,
        interaction: discord.Interaction,
        owner: discord.User | None = None,
        npcs: bool = False,
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        if npcs and not roller.campaign.is_gm(roller.user_id):
            raise UserError("Only the GMs list NPCs.")
        found = await self.bot.store.find_characters(
            roller.guild_id,
            roller.campaign.id,
            owner_id=owner.id if owner else None,
            is_npc=npcs,
            limit=100,
        )
        lines = [
            f"**{c.name}**"
            + (f" (<@{c.owner_id}>)" if not c.is_npc else "")
            + (" ← active" if roller.character and roller.character.id == c.id else "")
            for c in found
        ]
        embed = discord.Embed(
            title=clip(
                f"{'NPCs' if npcs else 'Characters'} in {roller.campaign.name}", EMBED_TITLE_MAX
            ),
            description=clip("\n".join(lines), EMBED_DESCRIPTION_MAX)
            if lines
            else "None yet: /character create",
            colour=NEUTRAL,
        )
        await interaction.response.send_message(embed=embed, ephemeral=npcs)

    @app_commands.command(name="set", description="Set an attribute or skill, the shield or notes")
    @app_commands.guild_only()
    @app_commands.describe(
        name="The character (default: your active one)",
        attribute="An attribute to set, e.g. Strength",
        skill="A skill to set, e.g. Parry (0-10)",
        value="The attribute's or skill's value",
        shield="Carries a shield (needed to block)",
        notes="Replace the notes",
        rename="A new name",
    )
    @app_commands.autocomplete(
        name=ac.my_character, attribute=ac.attribute_names, skill=ac.skill_names
    )
    async def set_(
        self,
        interaction: discord.Interaction,
        name: Name | None = None,
        attribute: Name | None = None,
        skill: Name | None = None,
        value: StatValue | None = None,
        shield: bool | None = None,
        notes: Notes | None = None,
        rename: Name | None = None,
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        character = await self._target(roller, name)
        store, gid, cid, uid = self.bot.store, roller.guild_id, roller.campaign.id, roller.user_id
        if attribute and skill:
            raise UserError("Set one stat at a time: attribute or skill.")
        stat = attribute or skill
        if stat and value is None:
            raise UserError(f"Give the value for {stat}.")
        if value is not None and not stat:
            raise UserError("Name the attribute or skill that value is for.")
        if not stat and shield is None and notes is None and not rename:
            raise UserError(
                "Nothing to set: give attribute or skill with value, shield, notes or rename."
            )
        changed: list[str] = []
        if stat:
            kind = "attribute" if attribute else "skill"
            character = await store.set_stat(
                gid, cid, uid, character.name, kind, stat.strip(), value
            )
            changed.append(f"{stat.strip()} {value}")
        if shield is not None or notes is not None or rename:
            character = await store.update_character(
                gid,
                cid,
                uid,
                character.name,
                shield=shield,
                notes=notes,
                new_name=rename.strip() if rename else None,
            )
            changed += [
                label
                for label, given in (
                    ("shield", shield is not None),
                    ("notes", notes is not None),
                    (f"name {rename}", bool(rename)),
                )
                if given
            ]
        await interaction.response.send_message(
            f"Updated {character.name}: {', '.join(changed)}.",
            embed=sheet_embed(character),
            ephemeral=character.is_npc,
        )

    @app_commands.command(name="weapon", description="Add or replace a weapon on a sheet")
    @app_commands.guild_only()
    @app_commands.describe(
        weapon="The weapon's name, e.g. Long sword",
        base="Its base damage",
        attribute="The attribute it is wielded with, e.g. Strength",
        skill="The skill it is wielded with, e.g. Heavy melee weapons",
        name="The character (default: your active one)",
    )
    @app_commands.autocomplete(
        name=ac.my_character, attribute=ac.attribute_names, skill=ac.skill_names
    )
    async def weapon(
        self,
        interaction: discord.Interaction,
        weapon: Name,
        base: Base,
        attribute: Name,
        skill: Name,
        name: Name | None = None,
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        character = await self._target(roller, name)
        character = await self.bot.store.set_weapon(
            roller.guild_id,
            roller.campaign.id,
            roller.user_id,
            character.name,
            Weapon(weapon.strip(), base, attribute.strip(), skill.strip()),
        )
        await interaction.response.send_message(
            f"{character.name} wields **{weapon.strip()}** (base {base}, {attribute} + {skill}).",
            ephemeral=character.is_npc,
        )

    @app_commands.command(name="remove", description="Remove an attribute, skill or weapon")
    @app_commands.guild_only()
    @app_commands.describe(
        attribute="An attribute to remove",
        skill="A skill to remove",
        weapon="A weapon to remove",
        name="The character (default: your active one)",
    )
    @app_commands.autocomplete(
        name=ac.my_character,
        attribute=ac.attribute_names,
        skill=ac.skill_names,
        weapon=ac.weapon_names,
    )
    async def remove(
        self,
        interaction: discord.Interaction,
        attribute: Name | None = None,
        skill: Name | None = None,
        weapon: Name | None = None,
        name: Name | None = None,
    ) -> None:
        given = [
            (k, v) for k, v in (("attribute", attribute), ("skill", skill), ("weapon", weapon)) if v
        ]
        if len(given) != 1:
            raise UserError("Remove one thing at a time: an attribute, a skill or a weapon.")
        ((kind, stat),) = given
        roller = await load_roller(self.bot, interaction)
        character = await self._target(roller, name)
        character = await self.bot.store.remove_stat(
            roller.guild_id, roller.campaign.id, roller.user_id, character.name, kind, stat
        )
        await interaction.response.send_message(
            f"Removed {kind} {stat} from {character.name}.", ephemeral=character.is_npc
        )

    @app_commands.command(name="delete", description="Delete a character for good (asks first)")
    @app_commands.guild_only()
    @app_commands.describe(name="The character to delete")
    @app_commands.autocomplete(name=ac.my_character)
    async def delete(self, interaction: discord.Interaction, name: Name) -> None:
        roller = await load_roller(self.bot, interaction)
        character = await self.bot.store.get_character(roller.guild_id, roller.campaign.id, name)
        if character.owner_id != roller.user_id and not roller.campaign.is_gm(roller.user_id):
            raise UserError("You can only delete your own characters.")
        await interaction.response.send_message(
            f"Delete **{character.name}** and its sheet for good? Its logged rolls stay in the "
            "history. Export it first if you may want it back.",
            view=ConfirmDelete(self, roller, character.name, interaction),
            ephemeral=True,
        )

    @app_commands.command(name="use", description="Make one of your characters the active one")
    @app_commands.guild_only()
    @app_commands.describe(name="The character that rolls for you in this campaign")
    @app_commands.autocomplete(name=ac.my_character)
    async def use(self, interaction: discord.Interaction, name: Name) -> None:
        roller = await load_roller(self.bot, interaction)
        character = await self.bot.store.set_active_character(
            roller.guild_id, roller.campaign.id, roller.user_id, name
        )
        await interaction.response.send_message(
            f"You now roll as **{character.name}** in {roller.campaign.name}.", ephemeral=True
        )

    @app_commands.command(name="export", description="Export a character sheet as a JSON file")
    @app_commands.guild_only()
    @app_commands.describe(name="The character (default: your active one)")
    @app_commands.autocomplete(name=ac.my_character)
    async def export(self, interaction: discord.Interaction, name: Name | None = None) -> None:
        roller = await load_roller(self.bot, interaction)
        character = await self._target(roller, name)
        if character.is_npc and not roller.campaign.is_gm(roller.user_id):
            raise UserError("Only the GMs export NPCs.")
        data = await self.bot.store.export_character(
            roller.guild_id, roller.campaign.id, character.name
        )
        raw = json.dumps(data, indent=2, ensure_ascii=False).encode()
        filename = "".join(ch if ch.isalnum() else "-" for ch in character.name)[:40] or "character"
        await interaction.response.send_message(
            f"{character.name}, ready for `/character import` in any server.",
            file=discord.File(io.BytesIO(raw), filename=f"{filename}.json"),
            ephemeral=True,
        )

    @app_commands.command(name="import", description="Import characters from an exported JSON file")
    @app_commands.guild_only()
    @app_commands.describe(
        file="A .json file from /character export or /campaign export (at most 1 MiB)",
        replace="Replace characters of the same name (yours, or any for a GM)",
    )
    async def import_(
        self, interaction: discord.Interaction, file: discord.Attachment, replace: bool = False
    ) -> None:
        if file.size > MAX_IMPORT_BYTES:
            raise UserError(
                f"{file.filename} is {file.size:,} bytes; an import takes at most 1 MiB."
            )
        user = interaction.user.id
        if user in self.importing:
            raise UserError(IMPORT_RUNNING)
        self.importing.add(user)
        try:
            roller = await load_roller(self.bot, interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            try:
                raw = await file.read()
            except discord.HTTPException as error:
                raise UserError("Could not download the file from Discord; try again.") from error
            # Read in a worker process before queueing for the store: on the event loop (or a
            # thread holding the GIL) a big file would hold up every other guild's rolls.
            plan = await read_import(raw)
            imported = await self.bot.store.import_data(
                roller.guild_id, roller.campaign.id, roller.user_id, plan, replace=replace
            )
        finally:
            self.importing.discard(user)
        names = ", ".join(c.name for c in imported[:20])
        more = f" and {len(imported) - 20} more" if len(imported) > 20 else ""
        await interaction.followup.send(
            f"Imported {len(imported)} character(s) into {roller.campaign.name}: {names}{more}.",
            ephemeral=True,
        )


async def setup(bot: WireBot) -> None:
    await bot.add_cog(Characters(bot))
