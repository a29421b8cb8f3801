"""/check and /contest: rolls that need no button to finish (/defend is beside /attack, in
cogs/combat.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.utils import autocomplete as ac
from cogs.utils.again import AgainButton
from cogs.utils.conditions import check_modifiers
from cogs.utils.discord_limits import EMBED_TITLE_MAX
from cogs.utils.embeds import check_embed, contest_embed
from cogs.utils.errors import UserError
from cogs.utils.options import ROLL_DESCRIPTIONS, Attr, DieFace, Mod, Name, Skill, Target
from cogs.utils.rolling import (
    Roller,
    deliver,
    die_for,
    load_roller,
    npc_secret,
    record_for,
    table_embeds,
)
from cogs.utils.text import inert
from wire.check import Roll, resolve_check
from wire.contest import ContestResult, resolve_contest
from wire.i18n import N_, tr
from wire.sheet import Absent
from wire.textcheck import clip

if TYPE_CHECKING:
    from bot import WireBot


class Rolls(commands.Cog):
    def __init__(self, bot: WireBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(AgainButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(AgainButton)

    @app_commands.command(
        name="check",
        description="A standard check: d20 + attribute + skill against a target number",
    )
    @app_commands.guild_only()
    @app_commands.describe(
        vs="The target number (TN) to meet",
        attr="Your attribute, as a number",
        skill="Your skill, as a number (0-10)",
        attr_name="An attribute from your sheet instead of attr",
        skill_name="A skill from your sheet instead of skill",
        label="What the check is for, e.g. Climbing (shown in the reply)",
        **ROLL_DESCRIPTIONS,
    )
    @app_commands.autocomplete(
        attr_name=ac.attribute_names, skill_name=ac.skill_names, npc=ac.npc_names
    )
    async def check(
        self,
        interaction: discord.Interaction,
        vs: Target,
        attr: Attr | None = None,
        skill: Skill | None = None,
        attr_name: Name | None = None,
        skill_name: Name | None = None,
        mod: Mod = 0,
        roll: DieFace | None = None,
        take10: bool = False,
        private: bool = False,
        npc: Name | None = None,
        label: Name | None = None,
    ) -> None:
        roller = await load_roller(self.bot, interaction, npc)
        mods = await check_modifiers(self.bot, roller, attr, skill, attr_name, skill_name, mod)
        die = die_for(self.bot, roll, take10)
        result = resolve_check(mods, vs, die)
        named = roller.skill(skill_name) if skill_name else None
        # A skill the sheet lacks is titled by its name: the note (the GM's, for an NPC) says
        # it is missing, the title every reader sees does not.
        title = label or (named and (named.name if isinstance(named, Absent) else named.label))
        title = title or tr("Check")
        secret = npc_secret(roller.campaign, roller.character, hidden=private)
        embed, whole = table_embeds(
            roller,
            lambda reveal: check_embed(
                roller.name, result, label=title, secret=secret and not reveal
            ),
            [(mods, secret)],
        )
        record = record_for(
            interaction,
            roller,
            kind="check",
            inputs={
                "vs": vs,
                "attr": attr,
                "skill": skill,
                "attr_name": attr_name,
                "skill_name": skill_name,
                "mod": mod,
                "label": label,
            },
            die=die,
            total=result.total,
            target=vs,
            degrees=result.degrees,
            hidden=private,
        )
        await deliver(
            self.bot, interaction, roller, embed, record, what=N_("check"), gm_embed=whole
        )

    @app_commands.command(
        name="contest",
        description="An opposed check outside combat: both sides roll, the higher total wins",
    )
    @app_commands.guild_only()
    @app_commands.describe(
        attr="Your attribute, as a number",
        skill="Your skill, as a number (0-10)",
        attr_name="An attribute from your sheet instead of attr",
        skill_name="A skill from your sheet instead of skill",
        opponent="The opposing character (their sheet gives opp_attr_name/opp_skill_name)",
        opp_attr="The opponent's attribute, as a number",
        opp_skill="The opponent's skill, as a number (0-10)",
        opp_attr_name="An attribute from the opponent's sheet",
        opp_skill_name="A skill from the opponent's sheet",
        mod="A modifier to your total (default 0)",
        opp_mod="A modifier to the opponent's total (default 0)",
        private=ROLL_DESCRIPTIONS["private"],
        npc=ROLL_DESCRIPTIONS["npc"],
        label="What the contest is, e.g. Stealth vs Perception",
    )
    @app_commands.autocomplete(
        attr_name=ac.attribute_names,
        skill_name=ac.skill_names,
        opponent=ac.seen_characters,
        opp_attr_name=ac.opponent_attribute_names,
        opp_skill_name=ac.opponent_skill_names,
        npc=ac.npc_names,
    )
    async def contest(
        self,
        interaction: discord.Interaction,
        attr: Attr | None = None,
        skill: Skill | None = None,
        attr_name: Name | None = None,
        skill_name: Name | None = None,
        opponent: Name | None = None,
        opp_attr: Attr | None = None,
        opp_skill: Skill | None = None,
        opp_attr_name: Name | None = None,
        opp_skill_name: Name | None = None,
        mod: Mod = 0,
        opp_mod: Mod = 0,
        private: bool = False,
        npc: Name | None = None,
        label: Name | None = None,
    ) -> None:
        roller = await load_roller(self.bot, interaction, npc)
        mine = await check_modifiers(self.bot, roller, attr, skill, attr_name, skill_name, mod)
        mine_names = (attr_name, skill_name)
        opposing, opp_attr_name, opp_skill_name = await self._opposing(
            roller, opponent, (opp_attr, opp_skill), (opp_attr_name, opp_skill_name), mine_names
        )
        theirs = await check_modifiers(
            self.bot,
            opposing,
            opp_attr,
            opp_skill,
            opp_attr_name,
            opp_skill_name,
            opp_mod,
            attr_option="opp_attr",
            skill_option="opp_skill",
        )
        active = Roll(die_for(self.bot, None, False), mine)
        passive = Roll(die_for(self.bot, None, False), theirs)
        result = resolve_contest(active, passive)
        active_secret = npc_secret(roller.campaign, roller.character, hidden=private)
        passive_secret = npc_secret(roller.campaign, opposing.character, hidden=private)

        def build(reveal: bool) -> discord.Embed:
            return labelled_contest_embed(
                label,
                roller.name,
                opposing.name,
                result,
                active_secret=active_secret and not reveal,
                passive_secret=passive_secret and not reveal,
            )

        embed, whole = table_embeds(
            roller, build, [(mine, active_secret), (theirs, passive_secret)]
        )
        record = record_for(
            interaction,
            roller,
            kind="contest",
            inputs={
                "attr": attr,
                "skill": skill,
                "attr_name": attr_name,
                "skill_name": skill_name,
                "opponent": opponent,
                "opp_attr": opp_attr,
                "opp_skill": opp_skill,
                "opp_attr_name": opp_attr_name,
                "opp_skill_name": opp_skill_name,
                "mod": mod,
                "opp_mod": opp_mod,
                "opponent_die": passive.die.face,
                "opponent_total": passive.total,
                "label": label,
            },
            die=active.die,
            total=active.total,
            target=passive.total,
            degrees=result.degrees,
            hidden=private,
        )
        await deliver(
            self.bot, interaction, roller, embed, record, what=N_("contest"), gm_embed=whole
        )

    async def _opposing(
        self,
        roller: Roller,
        opponent: str | None,
        numbers: tuple[int | None, int | None],
        names: tuple[str | None, str | None],
        mine: tuple[str | None, str | None],
    ) -> tuple[Roller, str | None, str | None]:
        """The contest's other side, and the attribute and skill names it rolls with: a named
        opponent's sheet (with my stats' names where neither number nor name is given), or a
        nameless Opponent, who rolls from numbers only."""
        (opp_attr, opp_skill), (opp_attr_name, opp_skill_name) = numbers, names
        if not opponent:
            if opp_attr_name or opp_skill_name:
                raise UserError(tr("Name the opponent to use names from their sheet."))
            sheet, name = None, tr("Opponent")
        else:
            sheet = await self.bot.store.get_character(
                roller.guild_id, roller.campaign.id, opponent
            )
            name = sheet.name
            if opp_attr is None and not opp_attr_name:
                opp_attr_name = mine[0]  # the same attribute for both sides, unless named
            if opp_skill is None and not opp_skill_name:
                opp_skill_name = mine[1]
        opposing = Roller(
            roller.campaign, sheet, name, roller.user_id, roller.guild_id, roller.channel_id
        )
        return opposing, opp_attr_name, opp_skill_name


def labelled_contest_embed(
    label: str | None,
    active: str,
    passive: str,
    result: ContestResult,
    *,
    active_secret: bool,
    passive_secret: bool,
) -> discord.Embed:
    """The contest's embed, titled with what the contest is when the roller named it."""
    embed = contest_embed(
        active, passive, result, active_secret=active_secret, passive_secret=passive_secret
    )
    if label:
        embed.title = clip(
            tr(
                "{label}: {active} vs {passive}",
                label=inert(label),
                active=inert(active),
                passive=inert(passive),
            ),
            EMBED_TITLE_MAX,
        )
    return embed


async def setup(bot: WireBot) -> None:
    await bot.add_cog(Rolls(bot))
