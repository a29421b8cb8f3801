"""/character: sheets with attributes, skills, weapons, a shield and notes.

Players manage their own characters; GMs manage any in their campaign, and the NPCs. The storage
enforces who may change what; this cog turns options into calls and results into replies.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.advancement import (
    SheetPricing,
    add_worth_field,
    improve_command,
    raise_as_improvement,
)
from cogs.gear import add_load_field
from cogs.incharacter import SheetPortrait
from cogs.quickplay.panel import PanelButton
from cogs.sheet import active_marks, sheet_embed, sheet_health
from cogs.sheet_edit import (
    FORM_ID,
    EditButton,
    RetryForm,
    carries,
    edit_id,
    form_values,
    guild_of,
    load_sheet,
    require_editor,
    sheet_view,
)
from cogs.utils import autocomplete as ac
from cogs.utils.conditions import sheet_conditions_field
from cogs.utils.confirm import Confirm
from cogs.utils.discord_limits import (
    CONTENT_MAX,
    EMBED_DESCRIPTION_MAX,
    EMBED_FIELD_VALUE_MAX,
    EMBED_TITLE_MAX,
)
from cogs.utils.embeds import NEUTRAL
from cogs.utils.errors import UserError
from cogs.utils.options import Base, Name, Notes, SheetText
from cogs.utils.rolling import Roller, actor_of, load_roller
from cogs.utils.text import inert
from cogs.utils.tracker import refresh_for_sheet
from cogs.utils.tree import storage_message
from storage.errors import LedgerHolds, StorageError
from storage.models import Campaign, ImportClash, ImportOutcome
from storage.transfer import MAX_IMPORT_BYTES, ImportPlan, read_import
from wire import i18n, limits
from wire.health import DamageKind
from wire.i18n import N_, tr, trc, trn
from wire.limits import SKILL_MAX, SKILL_MIN, STAT_MAX, STAT_MIN
from wire.sheet import Character, Weapon, weapon_gaps
from wire.sheet_text import (
    EXAMPLE,
    SheetStats,
    SheetTextError,
    known_spelling,
    near_name,
    parse_sheet,
    read_sheet,
)
from wire.textcheck import clip

if TYPE_CHECKING:
    from bot import WireBot

StatValue = app_commands.Range[int, min(STAT_MIN, SKILL_MIN), max(STAT_MAX, SKILL_MAX)]
IMPORT_RUNNING = N_("An import of yours is already running; wait for it to finish.")
PROBLEMS_SHOWN = 15
"""Problems of a sheet text listed one a line; more are counted (the first ones are to fix)."""


def gap_warning(character: Character, before: Character | None = None) -> str:
    """A warning for each weapon stat the sheet lacks (only those `before` did not lack), or ""."""
    old = {(w.name, stat) for w, stat in weapon_gaps(before)} if before else set()
    lines = [
        "⚠ "
        + tr(
            "{sheet} has no {stat}, which {weapon} is wielded with: every roll with it counts "
            "{stat} 0. Add it with /character set, or change the weapon with /character weapon.",
            sheet=inert(character.name),
            stat=inert(stat),
            weapon=inert(weapon.name),
        )
        for weapon, stat in weapon_gaps(character)
        if (weapon.name, stat) not in old
    ]
    return "\n".join(lines)


def created_line(character: Character, campaign: str) -> str:
    """What /character create answers: what is still to add. A sheet made with its stats
    (`sheet:`) is not told to add them; both still get weapons with /character weapon."""
    params = {"name": inert(character.name), "campaign": inert(campaign)}
    if character.attributes or character.skills:
        if character.is_npc:
            return tr(
                "Created NPC **{name}** in {campaign}. Add weapons with `/character weapon`; "
                "**Edit** below changes its stats.",
                **params,
            )
        return tr(
            "Created **{name}** in {campaign}. Add weapons with `/character weapon`; **Edit** "
            "below changes its stats.",
            **params,
        )
    if character.is_npc:
        return tr(
            "Created NPC **{name}** in {campaign}. Add stats with **Edit** below, weapons "
            "with `/character weapon`.",
            **params,
        )
    return tr(
        "Created **{name}** in {campaign}. Add stats with **Edit** below, weapons with "
        "`/character weapon`.",
        **params,
    )


def sheet_problems(error: SheetTextError, override: str) -> str:
    """Every problem of a sheet text, one a line, and how to write it; `override` says how to
    keep a name the did-you-mean refused."""
    problems = error.problems
    lines = [
        trn(
            "The sheet text has {n} problem; nothing was saved:",
            "The sheet text has {n} problems; nothing was saved:",
            len(problems),
        )
    ]
    lines += [f"- {inert(problem)}" for problem in problems[:PROBLEMS_SHOWN]]
    if len(problems) > PROBLEMS_SHOWN:
        lines.append("- " + tr("and {n} more", n=len(problems) - PROBLEMS_SHOWN))
    tail = tr("Write it as `{example}`: attributes, then `;`, then skills.", example=tr(EXAMPLE))
    if error.near_names:
        tail += " " + tr(
            "A name close to a known one is refused as a likely typo; {override} keeps it.",
            override=override,
        )
    lines.append(tail)
    return clip("\n".join(lines), CONTENT_MAX)


def checked_name(name: str, known: list[str], kind: str, new: bool) -> str:
    """`name` in the spelling it is known by; UserError if it looks like a typo of a known one
    (unless `new`: the user says it is a name of its own)."""
    same = known_spelling(name, known)
    if same is not None:
        return same
    close = None if new else near_name(name, known)
    if close is not None:
        params = {"name": inert(name), "close": inert(close)}
        raise UserError(
            tr(
                "{name}: did you mean {close}? To add {name} as a new attribute anyway, add "
                "`new:true`.",
                **params,
            )
            if kind == "attribute"
            else tr(
                "{name}: did you mean {close}? To add {name} as a new skill anyway, add "
                "`new:true`.",
                **params,
            )
        )
    return name


def known_attribute_names(campaign: Campaign, character: Character) -> list[str]:
    """What a new attribute's name is checked against: the sheet's, then the campaign's list."""
    return [*character.attributes, *campaign.known_attributes()]


def stat_changes(before: Character, after: Character) -> str:
    """What a form changed, as "added Charisma 2; changed Strength 3 → 4; removed Parry"."""
    added: list[str] = []
    changed: list[str] = []
    removed: list[str] = []
    for old, new in ((before.attributes, after.attributes), (before.skills, after.skills)):
        old_by = {k.casefold(): (k, v) for k, v in old.items()}
        new_by = {k.casefold(): (k, v) for k, v in new.items()}
        for key, (name, value) in new_by.items():
            if key not in old_by:
                added.append(f"{inert(name)} {value}")
                continue
            was_name, was = old_by[key]
            if was != value:
                changed.append(f"{inert(name)} {was} → {value}")
            elif was_name != name:
                changed.append(f"{inert(was_name)} → {inert(name)}")
        removed += [inert(name) for key, (name, _) in old_by.items() if key not in new_by]
    parts = [
        f"{tr(label)} {', '.join(names)}"
        for label, names in (
            (N_("added"), added),
            (N_("changed"), changed),
            (N_("removed"), removed),
        )
        if names
    ]
    return "; ".join(parts)


def owned_names(clashes: list[ImportClash]) -> str:
    """Sheets and whose they are: "Jaime (<@1>), Ash (<@2>)"."""
    shown = [
        f"**{inert(c.name)}**" + ("" if c.is_npc else f" (<@{c.owner_id}>)") for c in clashes[:20]
    ]
    more = " " + tr("and {n} more", n=len(clashes) - 20) if len(clashes) > 20 else ""
    return ", ".join(shown) + more


def import_report(outcome: ImportOutcome, campaign: Campaign, actor: int) -> str:
    """What an import did: imported (and replaced), and what it left out and how to get it."""
    imported = outcome.imported
    lines = []
    if imported:
        names = ", ".join(inert(c.name) for c in imported[:20])
        more = " " + tr("and {n} more", n=len(imported) - 20) if len(imported) > 20 else ""
        lines.append(
            trn(
                "Imported {n} character into {campaign}: {names}{more}.",
                "Imported {n} characters into {campaign}: {names}{more}.",
                len(imported),
                campaign=inert(campaign.name),
                names=names,
                more=more,
            )
        )
    else:
        lines.append(tr("Nothing was imported into {campaign}.", campaign=inert(campaign.name)))
    if outcome.replaced:
        lines.append(tr("Replaced: {sheets}.", sheets=owned_names(outcome.replaced)))
    if outcome.left_out:
        lines.append(
            tr(
                "Left out, already in the campaign and kept as they are: {sheets}.",
                sheets=owned_names(outcome.left_out),
            )
        )
        if campaign.is_gm(actor):
            lines.append(
                tr(
                    "To import them, rename them in the file, or import again with "
                    "`replace:true` (you are asked before another player's sheet is replaced)."
                )
            )
        else:
            lines.append(
                tr(
                    "To import them, rename them in the file; `replace:true` replaces your own "
                    "sheets, and only a GM can replace another player's."
                )
            )
    return clip("\n".join(lines), CONTENT_MAX)


KIND_CHOICES = [app_commands.Choice(name=k.value, value=k.value) for k in DamageKind]


class Characters(SheetPricing, SheetPortrait, commands.GroupCog, group_name="character"):
    """Character sheets: create, show, list, set, remove, delete, use, export, import."""

    def __init__(self, bot: WireBot) -> None:
        self.bot = bot
        self.importing: set[int] = set()
        """Users with an import in flight: one each, so nobody queues up a pile of big files."""
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(EditButton)
        self.bot.add_form(FORM_ID, self.on_sheet_form)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(EditButton)
        self.bot.remove_form(FORM_ID)

    async def _target(self, roller: Roller, name: str | None) -> Character:
        """The named character, or the user's active one."""
        if name:
            return await self.bot.store.get_character(roller.guild_id, roller.campaign.id, name)
        return roller.sheet()

    @app_commands.command(name="create", description="Create a character (GMs: or an NPC)")
    @app_commands.guild_only()
    @app_commands.describe(
        name="The character's name (unique in the campaign)",
        sheet=f"Attributes; skills, e.g. {EXAMPLE}",
        npc="GMs: make it an NPC",
        shield="Carries a shield (needed to block)",
        notes="Free-form notes",
        new="Keep names close to known ones as typed (no did-you-mean)",
    )
    async def create(
        self,
        interaction: discord.Interaction,
        name: Name,
        sheet: SheetText | None = None,
        npc: bool = False,
        shield: bool = False,
        notes: Notes = "",
        new: bool = False,
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        stats = SheetStats({}, {})
        if sheet:
            try:
                stats = read_sheet(
                    sheet, known_attributes=roller.campaign.known_attributes(), new_names=new
                )
            except SheetTextError as error:
                override = f"`{trc('name', 'new')}:true`"
                raise UserError(sheet_problems(error, override)) from error
        character = await self.bot.store.create_character(
            roller.guild_id,
            roller.campaign.id,
            roller.user_id,
            name,
            is_npc=npc,
            attributes=stats.attributes,
            skills=stats.skills,
            shield=shield,
            notes=notes,
            categories=stats.categories,
        )
        await interaction.response.send_message(
            created_line(character, roller.campaign.name),
            embed=sheet_embed(character),
            view=sheet_view(character),
            ephemeral=npc,
        )

    @app_commands.command(name="show", description="Show a character sheet (default: yours)")
    @app_commands.guild_only()
    @app_commands.describe(name="The character (default: your active one)")
    @app_commands.autocomplete(name=ac.readable_character)
    async def show(self, interaction: discord.Interaction, name: Name | None = None) -> None:
        roller = await load_roller(self.bot, interaction)
        character = await self._target(roller, name)
        active = roller.character is not None and roller.character.id == character.id
        if character.is_npc and not roller.campaign.is_gm(roller.user_id):
            raise UserError(
                tr("{name} is an NPC; only the GMs see NPC sheets.", name=inert(character.name))
            )
        embed = sheet_embed(character, active)
        await add_worth_field(self.bot, roller.campaign, roller.user_id, character, embed)
        await add_load_field(self.bot, roller.campaign, character, embed)
        # Its conditions outside a fight; hidden ones only where GMs alone read (an NPC's).
        if shown := sheet_conditions_field(character, gm=character.is_npc):
            embed.add_field(
                name=tr("Conditions"), value=clip(shown, EMBED_FIELD_VALUE_MAX), inline=False
            )
        # The Panel button where the one asking plays the sheet: their active character, or
        # (GMs only see them) an NPC.
        panel = active or character.is_npc
        await interaction.response.send_message(
            embed=embed, view=sheet_view(character, panel=panel), ephemeral=character.is_npc
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
            raise UserError(tr("Only the GMs list NPCs."))
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
            + (" ← " + tr("active") if roller.character and roller.character.id == c.id else "")
            for c in found
        ]
        campaign = inert(roller.campaign.name)
        embed = discord.Embed(
            title=clip(
                tr("NPCs in {campaign}", campaign=campaign)
                if npcs
                else tr("Characters in {campaign}", campaign=campaign),
                EMBED_TITLE_MAX,
            ),
            description=clip("\n".join(lines), EMBED_DESCRIPTION_MAX)
            if lines
            else tr("None yet: /character create"),
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
        new="Add the attribute or skill as typed even if close to a known one (no did-you-mean)",
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
        new: bool = False,
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        character = await self._target(roller, name)
        store, gid, cid, uid = self.bot.store, roller.guild_id, roller.campaign.id, roller.user_id
        if attribute and skill:
            raise UserError(tr("Set one stat at a time: attribute or skill."))
        stat = attribute or skill
        if stat and value is None:
            raise UserError(tr("Give the value for {stat}.", stat=inert(stat)))
        if value is not None and not stat:
            raise UserError(tr("Name the attribute or skill that value is for."))
        if not stat and shield is None and notes is None and not rename:
            raise UserError(
                tr("Nothing to set: give attribute or skill with value, shield, notes or rename.")
            )
        changed: list[str] = []
        if stat:
            kind = "attribute" if attribute else "skill"
            known = (
                known_attribute_names(roller.campaign, character)
                if attribute
                else list(character.skills)
            )
            stat = checked_name(stat, known, kind, new)
            try:
                character = await store.set_stat(gid, cid, uid, character.name, kind, stat, value)
            except LedgerHolds as held:
                if not raise_as_improvement(held, roller, shield, notes, rename):
                    raise
                # A player's raise of a ready sheet is an improvement: priced, maybe approved.
                await improve_command(
                    self.bot, interaction, stat, value, character.name, attribute is not None
                )
                return
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
                    (tr("shield"), shield is not None),
                    (tr("notes"), notes is not None),
                    (tr("name {name}", name=inert(rename or "")), bool(rename)),
                )
                if given
            ]
        await interaction.response.send_message(
            tr(
                "Updated {name}: {changes}.", name=inert(character.name), changes=", ".join(changed)
            ),
            ephemeral=True,
        )
        await refresh_for_sheet(self.bot, gid, interaction.channel_id, roller.campaign, character)

    @app_commands.command(name="weapon", description="Add or replace a weapon on a sheet")
    @app_commands.guild_only()
    @app_commands.describe(
        weapon="The weapon's name, e.g. Long sword",
        base="Its base damage",
        attribute="The attribute it is wielded with, e.g. Strength",
        skill="The skill it is wielded with, e.g. Heavy melee weapons",
        name="The character (default: your active one)",
        kind="The damage it does: lethal (HP, default), non-lethal (THP) or mental (WP)",
        new="Keep the attribute and skill as typed even if close to known ones (no did-you-mean)",
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
        new: bool = False,
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        character = await self._target(roller, name)
        # A misspelt attribute or skill would make every attack with it roll at 0.
        attribute = checked_name(
            attribute, known_attribute_names(roller.campaign, character), "attribute", new
        )
        skill = checked_name(skill, list(character.skills), "skill", new)
        character = await self.bot.store.set_weapon(
            roller.guild_id,
            roller.campaign.id,
            roller.user_id,
            character.name,
            Weapon(weapon, base, attribute, skill, kind.value if kind else "lethal"),
        )
        params = {
            "name": inert(character.name),
            "weapon": inert(weapon),
            "base": base,
            "attribute": inert(attribute),
            "skill": inert(skill),
        }
        said = (
            tr(
                "{name} wields **{weapon}** (base {base}, {attribute} + {skill}, {kind}).",
                kind=tr(kind.value),
                **params,
            )
            if kind
            else tr("{name} wields **{weapon}** (base {base}, {attribute} + {skill}).", **params)
        )
        armed = next(w for w in character.weapons if w.name.casefold() == weapon.casefold())
        warning = gap_warning(dataclasses.replace(character, weapons=(armed,)))
        await interaction.response.send_message(
            clip("\n".join(filter(None, (said, warning))), CONTENT_MAX), ephemeral=True
        )
        await refresh_for_sheet(
            self.bot, roller.guild_id, interaction.channel_id, roller.campaign, character
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
            raise UserError(tr("Nothing to set: give armour, willpower, hp or thp."))
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
        await refresh_for_sheet(
            self.bot, roller.guild_id, interaction.channel_id, roller.campaign, character
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
        attribute=ac.sheet_attribute_names,
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
            raise UserError(tr("Remove one thing at a time: an attribute, a skill or a weapon."))
        ((kind, stat),) = given
        roller = await load_roller(self.bot, interaction)
        before = await self._target(roller, name)
        character = await self.bot.store.remove_stat(
            roller.guild_id, roller.campaign.id, roller.user_id, before.name, kind, stat
        )
        removed = {
            "attribute": N_("Removed attribute {stat} from {name}."),
            "skill": N_("Removed skill {stat} from {name}."),
            "weapon": N_("Removed weapon {stat} from {name}."),
        }
        said = tr(removed[kind], stat=inert(stat), name=inert(character.name))
        warning = gap_warning(character, before)
        await interaction.response.send_message(
            clip("\n".join(filter(None, (said, warning))), CONTENT_MAX), ephemeral=True
        )
        await refresh_for_sheet(
            self.bot, roller.guild_id, interaction.channel_id, roller.campaign, character
        )

    @app_commands.command(name="delete", description="Delete a character for good (asks first)")
    @app_commands.guild_only()
    @app_commands.describe(name="The character to delete")
    @app_commands.autocomplete(name=ac.my_character)
    async def delete(self, interaction: discord.Interaction, name: Name) -> None:
        roller = await load_roller(self.bot, interaction)
        character = await self.bot.store.get_character(roller.guild_id, roller.campaign.id, name)
        require_editor(roller.campaign, character, roller.user_id)

        async def delete() -> str:
            try:
                await self.bot.store.delete_character(
                    roller.guild_id, roller.campaign.id, roller.user_id, character.name
                )
            except StorageError as error:  # the question is settled either way: say how
                return inert(storage_message(error))  # a storage message is plain text
            return tr("Deleted {name}.", name=inert(character.name))

        await interaction.response.send_message(
            tr(
                "Delete **{name}** and its sheet for good? Its logged rolls stay in the history. "
                "Export it first if you may want it back.",
                name=inert(character.name),
            ),
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
            tr(
                "You now roll as **{name}** in {campaign}.",
                name=inert(character.name),
                campaign=inert(roller.campaign.name),
            ),
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
            raise UserError(tr("Only the GMs export NPCs."))
        # Only GMs export an NPC, so its file may hold the conditions they hid; a player
        # character's export never does, whoever makes it (it may well be handed on).
        data = await self.bot.store.export_character(
            roller.guild_id, roller.campaign.id, character.name, hidden=character.is_npc
        )
        raw = json.dumps(data, indent=2, ensure_ascii=False).encode()
        filename = "".join(ch if ch.isalnum() else "-" for ch in character.name)[:40] or "character"
        await interaction.response.send_message(
            tr("{name}, ready for `/character import` in any server.", name=inert(character.name)),
            file=discord.File(io.BytesIO(raw), filename=f"{filename}.json"),
            ephemeral=True,
        )

    @app_commands.command(name="import", description="Import characters from an exported JSON file")
    @app_commands.guild_only()
    @app_commands.describe(
        file="A .json file from /character export or /campaign export (at most 1 MiB)",
        replace="Replace characters of the same name (yours; a GM is asked before another "
        "player's)",
    )
    async def import_(
        self, interaction: discord.Interaction, file: discord.Attachment, replace: bool = False
    ) -> None:
        if file.size > MAX_IMPORT_BYTES:
            raise UserError(
                tr(
                    "{file} is {size} bytes; an import takes at most 1 MiB.",
                    file=inert(file.filename),
                    size=i18n.number(file.size),
                )
            )
        user = interaction.user.id
        if user in self.importing:
            raise UserError(tr(IMPORT_RUNNING))
        self.importing.add(user)
        try:
            roller = await load_roller(self.bot, interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            try:
                raw = await file.read()
            except discord.HTTPException as error:
                raise UserError(
                    tr("Could not download the file from Discord; try again.")
                ) from error
            # Read in a worker process before queueing for the store: on the event loop (or a
            # thread holding the GIL) a big file would hold up every other guild's rolls.
            plan = await read_import(raw)
            others: list[ImportClash] = []
            if replace and roller.campaign.is_gm(roller.user_id):
                clashes = await self.bot.store.import_clashes(
                    roller.guild_id, roller.campaign.id, plan
                )
                others = [c for c in clashes if not c.is_npc and c.owner_id != roller.user_id]
            if others:
                await self._ask_to_replace(interaction, roller, plan, others)
                return
            outcome = await self.bot.store.import_sheets(
                roller.guild_id,
                roller.campaign.id,
                roller.user_id,
                plan,
                replace=replace,
                channel_id=interaction.channel_id,
            )
        finally:
            self.importing.discard(user)
        await interaction.followup.send(
            import_report(outcome, roller.campaign, roller.user_id), ephemeral=True
        )

    async def _ask_to_replace(
        self,
        interaction: discord.Interaction,
        roller: Roller,
        plan: ImportPlan,
        others: list[ImportClash],
    ) -> None:
        """A GM's import would overwrite other players' sheets: name them and whose they are,
        and import only on the GM's confirming press (then tell those players)."""

        async def go() -> str:
            try:
                outcome = await self.bot.store.import_sheets(
                    roller.guild_id,
                    roller.campaign.id,
                    roller.user_id,
                    plan,
                    replace=True,
                    overwrite={c.character_id for c in others},
                    channel_id=interaction.channel_id,
                )
            except StorageError as error:  # the question is settled either way: say how
                return inert(storage_message(error))
            await self._tell_players(interaction, roller, outcome)
            return import_report(outcome, roller.campaign, roller.user_id)

        await interaction.followup.send(
            clip(
                tr(
                    "This import would replace other players' sheets: {sheets}. Their stats, "
                    "weapons and notes become the file's, and each player is told. Replace them?",
                    sheets=owned_names(others),
                ),
                CONTENT_MAX,
            ),
            view=Confirm(
                self.bot,
                roller.user_id,
                interaction,
                go,
                confirm_label=trc("button", "Replace"),
                nothing_done=tr("Nothing was imported."),
            ),
            ephemeral=True,
        )

    async def _tell_players(
        self, interaction: discord.Interaction, roller: Roller, outcome: ImportOutcome
    ) -> None:
        """A note in the channel to each player whose sheet a GM's import replaced."""
        theirs = [c for c in outcome.replaced if not c.is_npc and c.owner_id != roller.user_id]
        if not theirs or interaction.channel_id is None:
            return
        owners = sorted({c.owner_id for c in theirs})
        channel = self.bot.get_partial_messageable(interaction.channel_id, guild_id=roller.guild_id)
        with contextlib.suppress(discord.HTTPException):
            await channel.send(
                clip(
                    tr(
                        "{gm} replaced these sheets with an import: {sheets}. "
                        "`/character show` shows them as they are now.",
                        gm=f"<@{int(roller.user_id)}>",
                        sheets=owned_names(theirs),
                    ),
                    CONTENT_MAX,
                ),
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(owner) for owner in owners]
                ),
            )

    # ---- the Edit button and its form ----------------------------------------------------------
    async def on_sheet_form(self, interaction: discord.Interaction, match: re.Match[str]) -> None:
        """Answer a sheet's form wherever it was opened: it carries all it needs."""
        campaign_id, character_id = int(match["campaign"]), int(match["character"])
        await self.bot.tree.run(
            interaction, lambda: self.apply_form(interaction, campaign_id, character_id)
        )

    async def apply_form(
        self, interaction: discord.Interaction, campaign_id: int, character_id: int
    ) -> None:
        """Make the sheet's stats exactly the form's text; its problems come with a button that
        opens the form again with the same text."""
        text, new = form_values(interaction.data)
        campaign, before = await load_sheet(self.bot, interaction, campaign_id, character_id)
        actor = actor_of(interaction)
        require_editor(campaign, before, actor)
        written, _ = parse_sheet(text)
        try:
            stats = read_sheet(
                text,
                # A sheet's name the text drops is being renamed or removed: a name close to it
                # is the new spelling, not a typo.
                known_attributes=[
                    *kept(before.attributes, written.attributes),
                    *campaign.known_attributes(),
                ],
                known_skills=kept(before.skills, written.skills),
                new_names=new,
            )
        except SheetTextError as error:
            await interaction.response.send_message(
                sheet_problems(
                    error,
                    tr(
                        "ticking **{box}**",
                        box=trc("form", "Keep new names as typed"),
                    ),
                ),
                view=RetryForm(self.bot, interaction, campaign_id, character_id, text),
                ephemeral=True,
            )
            return
        try:
            after = await self.bot.store.replace_stats(
                guild_of(interaction),
                campaign_id,
                actor,
                character_id,
                stats.attributes,
                stats.skills,
                stats.categories,
            )
        except LedgerHolds as held:
            # The ledger holds a ready sheet: what was typed stays a press away, to fix.
            await interaction.response.send_message(
                clip(inert(storage_message(held)), CONTENT_MAX),
                view=RetryForm(self.bot, interaction, campaign_id, character_id, text),
                ephemeral=True,
            )
            return
        changes = stat_changes(before, after)
        said = (
            tr("Saved {name}'s sheet: {changes}.", name=inert(after.name), changes=changes)
            if changes
            else tr("{name}'s sheet is unchanged.", name=inert(after.name))
        )
        said = clip("\n".join(filter(None, (said, gap_warning(after, before)))), CONTENT_MAX)
        source = interaction.message
        if source is not None and carries(source, edit_id(campaign_id, character_id)):
            # The sheet the form was opened from shows the new stats (privately or not, as it
            # was posted); the confirmation is the editor's own.
            title = source.embeds[0].title if source.embeds else None
            active = bool(title and title.endswith(active_marks()))
            panel = carries(source, PanelButton(character_id).item.custom_id or "")
            embed = sheet_embed(after, active)
            # A server manager's edit of an NPC: its CP are for the campaign's GMs alone.
            with contextlib.suppress(StorageError):
                await add_worth_field(self.bot, campaign, interaction.user.id, after, embed)
                await add_load_field(self.bot, campaign, after, embed)
            await interaction.response.edit_message(
                embed=embed, view=sheet_view(after, panel=panel)
            )
            await interaction.followup.send(said, ephemeral=True)
        else:
            await interaction.response.send_message(said, ephemeral=True)
        await refresh_for_sheet(
            self.bot, campaign.guild_id, interaction.channel_id, campaign, after
        )


def kept(old: dict[str, int], new: dict[str, int]) -> list[str]:
    """The names of `old` that `new` has too (ignoring case)."""
    names = {name.casefold() for name in new}
    return [name for name in old if name.casefold() in names]


async def setup(bot: WireBot) -> None:
    await bot.add_cog(Characters(bot))
