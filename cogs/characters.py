"""/character: sheets with attributes, skills, weapons, a shield and notes.

Players manage their own characters; GMs manage any in their campaign, and the NPCs. The storage
enforces who may change what; this cog turns options into calls and results into replies.
"""

from __future__ import annotations

import io
import json
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.utils import autocomplete as ac
from cogs.utils.confirm import Confirm
from cogs.utils.discord_limits import (
    CONTENT_MAX,
    EMBED_DESCRIPTION_MAX,
    EMBED_FIELD_VALUE_MAX,
    EMBED_TITLE_MAX,
    clip,
)
from cogs.utils.embeds import NEUTRAL
from cogs.utils.errors import UserError
from cogs.utils.options import Base, Name, Notes
from cogs.utils.rolling import Roller, load_roller
from cogs.utils.text import inert
from cogs.utils.tracker import pool_text
from storage.errors import StorageError
from storage.models import SKILL_MAX, SKILL_MIN, STAT_MAX, STAT_MIN, Character, Weapon
from storage.transfer import MAX_IMPORT_BYTES, read_import
from wire import limits
from wire.health import DamageKind, Pool

if TYPE_CHECKING:
    from bot import WireBot

StatValue = app_commands.Range[int, min(STAT_MIN, SKILL_MIN), max(STAT_MAX, SKILL_MAX)]
IMPORT_RUNNING = "An import of yours is already running; wait for it to finish."


def _table(values: dict[str, int]) -> str:
    if not values:
        return "none"
    lines = [
        f"{inert(name)} **{value}**"
        for name, value in sorted(values.items(), key=lambda i: i[0].casefold())
    ]
    text = ", ".join(lines)
    return clip(text, EMBED_FIELD_VALUE_MAX)


def _weapons(weapons: tuple[Weapon, ...]) -> str:
    if not weapons:
        return "none"
    lines = [
        f"**{inert(w.name)}**: base {w.base}, {inert(w.attribute)} + {inert(w.skill)}"
        + ("" if w.damage_kind is DamageKind.LETHAL else f", {w.kind}")
        for w in weapons
    ]
    return clip("\n".join(lines), EMBED_FIELD_VALUE_MAX)


def sheet_embed(character: Character, active: bool = False) -> discord.Embed:
    kind = "NPC" if character.is_npc else f"player character of <@{character.owner_id}>"
    embed = discord.Embed(
        title=clip(inert(character.name) + (" (active)" if active else ""), EMBED_TITLE_MAX),
        description=kind,
        colour=NEUTRAL,
    )
    embed.add_field(name="Attributes", value=_table(character.attributes), inline=False)
    embed.add_field(name="Skills", value=_table(character.skills), inline=False)
    embed.add_field(name="Weapons", value=_weapons(character.weapons), inline=False)
    embed.add_field(name="Shield", value="yes (can block)" if character.shield else "no")
    embed.add_field(name="Health", value=sheet_health(character))
    if character.notes:
        embed.add_field(
            name="Notes", value=clip(inert(character.notes), EMBED_FIELD_VALUE_MAX), inline=False
        )
    return embed


def sheet_health(character: Character) -> str:
    """The pools with where the maximum comes from, and the armour a table set."""
    health = character.health()
    hp_from = "set" if character.hp_max is not None else "20 + Constitution + Resolve"
    parts = [f"{pool_text(health, Pool.HP)} ({hp_from})", pool_text(health, Pool.THP)]
    if health.wp_max:
        parts.append(pool_text(health, Pool.WP))
    parts.append(f"armour {character.armour}")
    return " · ".join(parts)


KIND_CHOICES = [app_commands.Choice(name=k.value, value=k.value) for k in DamageKind]


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
            name,
            is_npc=npc,
            shield=shield,
            notes=notes,
        )
        await interaction.response.send_message(
            f"Created {'NPC ' if npc else ''}**{inert(character.name)}** in "
            f"{inert(roller.campaign.name)}. "
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
            raise UserError(f"{inert(character.name)} is an NPC; only the GMs see NPC sheets.")
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
            f"**{inert(c.name)}**"
            + (f" (<@{c.owner_id}>)" if not c.is_npc else "")
            + (" ← active" if roller.character and roller.character.id == c.id else "")
            for c in found
        ]
        embed = discord.Embed(
            title=clip(
                f"{'NPCs' if npcs else 'Characters'} in {inert(roller.campaign.name)}",
                EMBED_TITLE_MAX,
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
            raise UserError(f"Give the value for {inert(stat)}.")
        if value is not None and not stat:
            raise UserError("Name the attribute or skill that value is for.")
        if not stat and shield is None and notes is None and not rename:
            raise UserError(
                "Nothing to set: give attribute or skill with value, shield, notes or rename."
            )
        changed: list[str] = []
        if stat:
            kind = "attribute" if attribute else "skill"
            character = await store.set_stat(gid, cid, uid, character.name, kind, stat, value)
            changed.append(f"{inert(stat)} {value}")
        if shield is not None or notes is not None or rename:
            character = await store.update_character(
                gid,
                cid,
                uid,
                character.name,
                shield=shield,
                notes=notes,
                new_name=rename or None,
            )
            changed += [
                label
                for label, given in (
                    ("shield", shield is not None),
                    ("notes", notes is not None),
                    (f"name {inert(rename or '')}", bool(rename)),
                )
                if given
            ]
        await interaction.response.send_message(
            f"Updated {inert(character.name)}: {', '.join(changed)}.",
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
        kind="The damage it does: lethal (HP, default), non-lethal (THP) or mental (WP)",
    )
    @app_commands.choices(kind=KIND_CHOICES)
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
        kind: app_commands.Choice[str] | None = None,
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        character = await self._target(roller, name)
        character = await self.bot.store.set_weapon(
            roller.guild_id,
            roller.campaign.id,
            roller.user_id,
            character.name,
            Weapon(weapon, base, attribute, skill, kind.value if kind else "lethal"),
        )
        await interaction.response.send_message(
            f"{inert(character.name)} wields **{inert(weapon)}** "
            f"(base {base}, {inert(attribute)} + {inert(skill)}"
            + (f", {kind.value}" if kind else "")
            + ").",
            ephemeral=character.is_npc,
        )

    @app_commands.command(
        name="health", description="Set a sheet's armour, willpower or health overrides"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        name="The character (default: your active one)",
        armour="Points taken off lethal and non-lethal damage (a table setting, 0 unless set)",
        willpower="Willpower (WP), the pool mental damage goes to",
        hp="Override HP (0: back to 20 + Constitution + Resolve)",
        thp="Override THP (0: back to equal to HP)",
    )
    @app_commands.autocomplete(name=ac.my_character)
    async def health(
        self,
        interaction: discord.Interaction,
        name: Name | None = None,
        armour: app_commands.Range[int, limits.ARMOUR.low, limits.ARMOUR.high] | None = None,
        willpower: app_commands.Range[int, limits.HEALTH.low, limits.HEALTH.high] | None = None,
        hp: app_commands.Range[int, limits.HEALTH.low, limits.HEALTH.high] | None = None,
        thp: app_commands.Range[int, limits.HEALTH.low, limits.HEALTH.high] | None = None,
    ) -> None:
        if armour is None and willpower is None and hp is None and thp is None:
            raise UserError("Nothing to set: give armour, willpower, hp or thp.")
        roller = await load_roller(self.bot, interaction)
        character = await self._target(roller, name)
        character = await self.bot.store.set_health_values(
            roller.guild_id,
            roller.campaign.id,
            roller.user_id,
            character.name,
            armour=armour,
            wp_max=willpower,
            hp_max=hp,
            thp_max=thp,
        )
        await interaction.response.send_message(
            f"{inert(character.name)}: {sheet_health(character)}.", ephemeral=True
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
            f"Removed {kind} {inert(stat)} from {inert(character.name)}.",
            ephemeral=character.is_npc,
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

        async def delete() -> str:
            try:
                await self.bot.store.delete_character(
                    roller.guild_id, roller.campaign.id, roller.user_id, character.name
                )
            except StorageError as error:  # the question is settled either way: say how
                return inert(str(error))  # a storage message is plain text
            return f"Deleted {inert(character.name)}."

        await interaction.response.send_message(
            f"Delete **{inert(character.name)}** and its sheet for good? Its logged rolls stay in "
            "the history. Export it first if you may want it back.",
            view=Confirm(self.bot, roller.user_id, interaction, delete),
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
            f"You now roll as **{inert(character.name)}** in {inert(roller.campaign.name)}.",
            ephemeral=True,
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
            f"{inert(character.name)}, ready for `/character import` in any server.",
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
                f"{inert(file.filename)} is {file.size:,} bytes; an import takes at most 1 MiB."
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
        names = ", ".join(inert(c.name) for c in imported[:20])
        more = f" and {len(imported) - 20} more" if len(imported) > 20 else ""
        await interaction.followup.send(
            clip(
                f"Imported {len(imported)} character(s) into {inert(roller.campaign.name)}: "
                f"{names}{more}.",
                CONTENT_MAX,
            ),
            ephemeral=True,
        )


async def setup(bot: WireBot) -> None:
    await bot.add_cog(Characters(bot))
