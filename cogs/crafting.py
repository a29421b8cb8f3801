"""/craft: crafting projects whose quality moves by the degrees of each roll.

Crafting is never decided by one roll, so a project keeps its quality between rolls and
sessions; each roll and the new quality are stored together, so neither is lost without the other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.utils import autocomplete as ac
from cogs.utils.conditions import check_modifiers
from cogs.utils.discord_limits import EMBED_FIELD_NAME_MAX, EMBED_MAX_FIELDS, EMBED_TITLE_MAX
from cogs.utils.embeds import NEUTRAL, craft_embed, progress
from cogs.utils.errors import UserError
from cogs.utils.options import ROLL_DESCRIPTIONS, Attr, DieFace, Mod, Name, Quality, Skill, Target
from cogs.utils.replay import is_replay
from cogs.utils.rolling import (
    add_missing_note,
    deliver,
    die_for,
    load_roller,
    record_for,
)
from cogs.utils.text import code, inert
from storage.errors import Conflict, StorageError
from wire.crafting import resolve_craft
from wire.i18n import N_, tr, trc, trn
from wire.textcheck import clip

if TYPE_CHECKING:
    from bot import WireBot


async def project_names(interaction: discord.Interaction, current: str) -> ac.Choices:
    """The user's unfinished projects in this channel's campaign."""
    campaign = await ac.campaign_of(interaction)
    if campaign is None or interaction.guild_id is None:
        return []
    try:
        projects = await ac.store_of(interaction).list_projects(
            interaction.guild_id, campaign.id, interaction.user.id
        )
    except StorageError:
        return []
    shown = (
        (tr("{item} (quality {quality})", item=p.item, quality=p.quality), p.item) for p in projects
    )
    return ac.choices(shown, current)


class Crafting(commands.GroupCog, group_name="craft"):
    """Crafting projects: start one, roll on it, show it, finish it."""

    def __init__(self, bot: WireBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="start", description="Start crafting an item at a starting quality")
    @app_commands.guild_only()
    @app_commands.describe(
        item="What you are making",
        quality="Its quality to begin with (0)",
        attr_name="The attribute from your sheet every roll uses (remembered)",
        skill_name="The skill from your sheet every roll uses (remembered)",
        vs="The target number (TN) of every roll (remembered)",
        goal="The quality you aim for, shown as progress",
    )
    @app_commands.autocomplete(attr_name=ac.attribute_names, skill_name=ac.skill_names)
    async def start(
        self,
        interaction: discord.Interaction,
        item: Name,
        quality: Quality = 0,
        attr_name: Name | None = None,
        skill_name: Name | None = None,
        vs: Target | None = None,
        goal: Quality | None = None,
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        if (attr_name or skill_name) and roller.character is None:
            roller.sheet()  # says how to get a sheet to craft from
        project = await self.bot.store.start_project(
            roller.guild_id,
            roller.campaign.id,
            roller.user_id,
            item,
            quality,
            roller.character.id if roller.character else None,
            attribute=attr_name,
            skill=skill_name,
            target=vs,
            goal=goal,
        )
        remembered = project.attribute and project.skill and project.target is not None
        roll_command = "/{craft} {roll} {item}:{name}".format(
            craft=trc("name", "craft"),
            roll=trc("name", "roll"),
            item=trc("name", "item"),
            name=project.item,
        )
        how = (
            code(roll_command)
            if remembered
            else code(f"{roll_command} {trc('name', 'vs')}:<{tr('TN')}>")
        )
        params = {
            "who": inert(roller.name),
            "item": inert(project.item),
            "quality": project.quality,
            "goal": project.goal,
            "how": how,
        }
        await interaction.response.send_message(
            tr(
                "{who} starts crafting **{item}** at quality {quality}, aiming for {goal}. "
                "Roll with {how}.",
                **params,
            )
            if project.goal is not None
            else tr(
                "{who} starts crafting **{item}** at quality {quality}. Roll with {how}.", **params
            )
        )

    @app_commands.command(
        name="roll", description="One crafting roll: each DoS +1 quality, each DoF -1"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        item="Your project",
        vs="The target number (TN) of this crafting roll",
        attr="Your attribute, as a number",
        skill="Your crafting skill, as a number (0-10)",
        attr_name="An attribute from your sheet instead of attr",
        skill_name="A skill from your sheet instead of skill",
        mod=ROLL_DESCRIPTIONS["mod"],
        roll=ROLL_DESCRIPTIONS["roll"],
        take10=ROLL_DESCRIPTIONS["take10"],
        private=ROLL_DESCRIPTIONS["private"],
    )
    @app_commands.autocomplete(
        item=project_names, attr_name=ac.attribute_names, skill_name=ac.skill_names
    )
    async def roll(
        self,
        interaction: discord.Interaction,
        item: Name,
        vs: Target | None = None,
        attr: Attr | None = None,
        skill: Skill | None = None,
        attr_name: Name | None = None,
        skill_name: Name | None = None,
        mod: Mod = 0,
        roll: DieFace | None = None,
        take10: bool = False,
        private: bool = False,
    ) -> None:
        if is_replay(interaction):
            raise UserError(
                tr(
                    "Roll again does not repeat a crafting roll: it would change the project "
                    "again. Make the next roll with /craft roll."
                )
            )
        roller = await load_roller(self.bot, interaction)
        project = await self.bot.store.get_project(
            roller.guild_id, roller.campaign.id, roller.user_id, item
        )
        # What the roll does not name comes from the project's recipe.
        if attr is None and not attr_name:
            attr_name = project.attribute
        if skill is None and not skill_name:
            skill_name = project.skill
        if vs is None:
            vs = project.target
        if vs is None:
            raise UserError(
                tr(
                    "Give the target number with vs, or start {item} with vs so every roll "
                    "remembers it.",
                    item=inert(project.item),
                )
            )
        mods = await check_modifiers(self.bot, roller, attr, skill, attr_name, skill_name, mod)
        die = die_for(self.bot, roll, take10)
        result = resolve_craft(mods, vs, die, project.quality)
        record = record_for(
            interaction,
            roller,
            kind="craft",
            inputs={
                "item": project.item,
                "vs": vs,
                "attr": attr,
                "skill": skill,
                "attr_name": attr_name,
                "skill_name": skill_name,
                "mod": mod,
                "quality_before": result.quality_before,
                "quality_after": result.quality_after,
            },
            die=die,
            total=result.check.total,
            target=vs,
            degrees=result.check.degrees,
            hidden=private,
            repeatable=False,
        )
        try:
            await self.bot.store.apply_craft_roll(
                project, project.quality, result.quality_after, record
            )
        except Conflict as error:
            raise UserError(
                tr(
                    "Another roll on {item} landed first, so this one was not applied. Roll again.",
                    item=inert(project.item),
                )
            ) from error
        embed = craft_embed(roller.name, project.item, result, goal=project.goal)
        add_missing_note(embed, mods)
        await deliver(
            self.bot, interaction, roller, embed, record, what=N_("crafting roll"), logged=True
        )

    @app_commands.command(name="show", description="Show your crafting projects, or one of them")
    @app_commands.guild_only()
    @app_commands.describe(item="One project (default: all your unfinished ones)")
    @app_commands.autocomplete(item=project_names)
    async def show(self, interaction: discord.Interaction, item: Name | None = None) -> None:
        roller = await load_roller(self.bot, interaction)
        store = self.bot.store
        if item:
            projects = [
                await store.get_project(roller.guild_id, roller.campaign.id, roller.user_id, item)
            ]
        else:
            projects = await store.list_projects(
                roller.guild_id, roller.campaign.id, roller.user_id
            )
        if not projects:
            raise UserError(tr("You have no crafting projects here. Start one with /craft start."))
        embed = discord.Embed(
            title=clip(tr("{who}: crafting", who=inert(roller.name)), EMBED_TITLE_MAX),
            colour=NEUTRAL,
        )
        for project in projects[:EMBED_MAX_FIELDS]:
            embed.add_field(
                name=clip(inert(project.item), EMBED_FIELD_NAME_MAX),
                value=trn(
                    "Quality **{quality}** after {n} roll",
                    "Quality **{quality}** after {n} rolls",
                    project.rolls,
                    quality=progress(project.quality, project.goal),
                ),
                inline=False,
            )
        if len(projects) > EMBED_MAX_FIELDS:
            embed.set_footer(text=tr("and {n} more", n=len(projects) - EMBED_MAX_FIELDS))

        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="finish", description="Finish a project: it keeps its final quality")
    @app_commands.guild_only()
    @app_commands.describe(item="Your project")
    @app_commands.autocomplete(item=project_names)
    async def finish(self, interaction: discord.Interaction, item: Name) -> None:
        roller = await load_roller(self.bot, interaction)
        project = await self.bot.store.finish_project(
            roller.guild_id, roller.campaign.id, roller.user_id, item
        )
        await interaction.response.send_message(
            trn(
                "{who} finishes **{item}** at quality **{quality}** after {n} roll.",
                "{who} finishes **{item}** at quality **{quality}** after {n} rolls.",
                project.rolls,
                who=inert(roller.name),
                item=inert(project.item),
                quality=project.quality,
            )
        )


async def setup(bot: WireBot) -> None:
    await bot.add_cog(Crafting(bot))
