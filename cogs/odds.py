"""/odds: the exact odds of each result before a player commits to a check, an attack, a defence
or a contest.

It rolls nothing and logs nothing: it lays out the rules core's odds (wire/odds.py), privately
unless asked to show the table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.utils import autocomplete as ac
from cogs.utils.charts import chart_file
from cogs.utils.conditions import check_modifiers, roller_conditions
from cogs.utils.embeds import defence_name
from cogs.utils.errors import UserError
from cogs.utils.odds_chart import ODDS_PICTURE, odds_embed, odds_picture, side_text
from cogs.utils.options import (
    ATTACK_DESCRIPTIONS,
    DEFENCE_CHOICES,
    DEFENCE_DESCRIPTIONS,
    ROLL_DESCRIPTIONS,
    Attr,
    Base,
    Bonus,
    Mod,
    Name,
    Skill,
    Target,
)
from cogs.utils.rolling import Roller, attack_line, load_roller
from cogs.utils.text import inert
from wire import limits
from wire.check import Modifier, check_odds, stat_line
from wire.combat import Defence, exchange_odds
from wire.conditions import RollFor, modified_damage, with_conditions
from wire.conditions import Target as ConditionTarget
from wire.contest import contest_odds
from wire.i18n import tr, trc
from wire.odds import DamageRole, Odds
from wire.sheet import defence_modifiers

if TYPE_CHECKING:
    from bot import WireBot


PUBLIC = "Show the odds to the channel instead of only to you"


OPP_BONUS = "Instead of vs: the {who}'s bonus (attribute + skill + modifiers), if they roll too"


def total(mods: tuple[Modifier, ...]) -> int:
    return sum(m.value for m in mods)


def opposition(vs: int | None, opp_bonus: int | None, who: str) -> str:
    """The other side of an exchange, as the odds see it: a known total, or a roll.

    `who` is "defender" or "attacker"; each has its own sentences, as languages inflect them.
    """
    defender = who == "defender"
    if (vs is None) == (opp_bonus is None):
        raise UserError(
            tr("Give the defender's total with vs, or their bonus with opp_bonus if they roll too.")
            if defender
            else tr(
                "Give the attacker's total with vs, or their bonus with opp_bonus if they roll too."
            )
        )
    if opp_bonus is not None:
        limits.BONUS.check(opp_bonus, trc("name", "opp_bonus"))
        params = {"sign": "+" if opp_bonus >= 0 else "-", "bonus": abs(opp_bonus)}
        if defender:
            return tr("the defender's d20 {sign} {bonus} (both roll)", **params)
        return tr("the attacker's d20 {sign} {bonus} (both roll)", **params)
    total = limits.TARGET.check(vs, trc("name", "vs"))
    return (
        tr("the defender's {total}", total=total)
        if defender
        else tr("the attacker's {total}", total=total)
    )


class OddsTable(commands.GroupCog, group_name="odds"):
    """The exact odds of each result before a roll: nothing is rolled or logged."""

    def __init__(self, bot: WireBot) -> None:
        self.bot = bot
        super().__init__()

    async def _answer(
        self,
        interaction: discord.Interaction,
        roller: Roller,
        action: str,
        odds: Odds,
        *,
        goal: str,
        matchup: str,
        base: int | None = None,
        public: bool,
    ) -> None:
        embed = odds_embed(
            tr("Odds for {who}: {action}", who=inert(roller.name), action=action),
            odds,
            goal=goal,
            matchup=matchup,
            base=base,
        )
        # The picture within a second, so the reply keeps Discord's 3-second deadline; the
        # text bars stay in the embed for screen readers and in case the picture fails.
        picture = await chart_file(odds_picture(embed.title or "", odds), ODDS_PICTURE, seconds=1)
        if picture is None:
            await interaction.response.send_message(embed=embed, ephemeral=not public)
            return
        embed.set_image(url=f"attachment://{ODDS_PICTURE}")
        await interaction.response.send_message(embed=embed, file=picture, ephemeral=not public)

    @app_commands.command(name="check", description="The odds of each result of a check")
    @app_commands.guild_only()
    @app_commands.describe(
        vs="The target number (TN) to meet",
        attr="Your attribute, as a number",
        skill="Your skill, as a number (0-10)",
        attr_name="An attribute from your sheet instead of attr",
        skill_name="A skill from your sheet instead of skill",
        mod=ROLL_DESCRIPTIONS["mod"],
        public=PUBLIC,
    )
    @app_commands.autocomplete(attr_name=ac.attribute_names, skill_name=ac.skill_names)
    async def check(
        self,
        interaction: discord.Interaction,
        vs: Target,
        attr: Attr | None = None,
        skill: Skill | None = None,
        attr_name: Name | None = None,
        skill_name: Name | None = None,
        mod: Mod = 0,
        public: bool = False,
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        mods = await check_modifiers(self.bot, roller, attr, skill, attr_name, skill_name, mod)
        odds = check_odds(total(mods), limits.TARGET.check(vs, trc("name", "vs")))
        await self._answer(
            interaction,
            roller,
            tr("Check"),
            odds,
            goal=tr("to succeed"),
            matchup=tr("{side} against TN {vs}", side=side_text(mods), vs=vs),
            public=public,
        )

    @app_commands.command(
        name="attack", description="The odds of each result of an attack, and of its damage"
    )
    @app_commands.guild_only()
    @app_commands.rename(strength="str")
    @app_commands.describe(
        **ATTACK_DESCRIPTIONS,
        weapon="A weapon from your sheet instead of str, skill and base",
        vs="The defender's total (a defender taking 10 with +3 has 13)",
        opp_bonus=OPP_BONUS.format(who="defender"),
        mod=ROLL_DESCRIPTIONS["mod"],
        public=PUBLIC,
    )
    @app_commands.autocomplete(weapon=ac.weapon_names)
    async def attack(
        self,
        interaction: discord.Interaction,
        strength: Attr | None = None,
        skill: Skill | None = None,
        base: Base | None = None,
        weapon: Name | None = None,
        vs: Target | None = None,
        opp_bonus: Bonus | None = None,
        mod: Mod = 0,
        public: bool = False,
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        against = opposition(vs, opp_bonus, "defender")
        line = attack_line(roller, strength, skill, base, weapon, mod)
        mine = await roller_conditions(self.bot, roller)
        mods = with_conditions(line.mods, mine, RollFor.attack())
        damage = modified_damage(line.base, mine, ())
        action = (
            tr("Attack with {weapon}", weapon=inert(line.weapon.name))
            if line.weapon
            else tr("Attack")
        )
        odds = exchange_odds(
            DamageRole.ATTACKER, total(mods), damage, vs=vs, opponent_bonus=opp_bonus
        )
        await self._answer(
            interaction,
            roller,
            action,
            odds,
            goal=tr("to hit"),
            matchup=tr("{side} against {against}", side=side_text(mods), against=against),
            base=damage,
            public=public,
        )

    @app_commands.command(
        name="defend", description="The odds of each result of a defence, and of the damage"
    )
    @app_commands.guild_only()
    @app_commands.rename(strength="str")
    @app_commands.describe(
        **DEFENCE_DESCRIPTIONS,
        defence="Defend from your sheet with this defence instead of str and skill",
        vs="The attacker's total",
        opp_bonus=OPP_BONUS.format(who="attacker"),
        mod=ROLL_DESCRIPTIONS["mod"],
        public=PUBLIC,
    )
    @app_commands.choices(defence=DEFENCE_CHOICES)
    async def defend(
        self,
        interaction: discord.Interaction,
        base: Base,
        strength: Attr | None = None,
        skill: Skill | None = None,
        defence: app_commands.Choice[str] | None = None,
        vs: Target | None = None,
        opp_bonus: Bonus | None = None,
        mod: Mod = 0,
        public: bool = False,
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        against = opposition(vs, opp_bonus, "attacker")
        action = tr("Defence")
        if defence is not None:
            if strength is not None or skill is not None:
                raise UserError(tr("Give defence (from your sheet) or str and skill, not both."))
            chosen = Defence(defence.value)
            mods = defence_modifiers(roller.sheet(), chosen)
            if mod:
                mods += (Modifier(tr("Modifier"), limits.MODIFIER.check(mod)),)
            action = defence_name(chosen)
        else:
            if strength is None or skill is None:
                raise UserError(
                    tr("Give str and skill as numbers, or pick a defence from your sheet.")
                )
            mods = stat_line(
                strength, skill, mod, attribute_label=tr("Strength"), skill_label=tr("Defence")
            )
        mods = with_conditions(
            mods,
            await roller_conditions(self.bot, roller),
            RollFor.defence(defence.value) if defence else RollFor(ConditionTarget.DEFENCE),
        )
        odds = exchange_odds(
            DamageRole.DEFENDER,
            total(mods),
            limits.BASE.check(base),
            vs=vs,
            opponent_bonus=opp_bonus,
        )
        await self._answer(
            interaction,
            roller,
            action,
            odds,
            goal=tr("to defend"),
            matchup=tr(
                "{side} against {against}; the attacker wins ties",
                side=side_text(mods),
                against=against,
            ),
            base=base,
            public=public,
        )

    @app_commands.command(
        name="contest", description="The odds of an opposed check: both sides roll"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        attr="Your attribute, as a number",
        skill="Your skill, as a number (0-10)",
        attr_name="An attribute from your sheet instead of attr",
        skill_name="A skill from your sheet instead of skill",
        opp_attr="The opponent's attribute, as a number",
        opp_skill="The opponent's skill, as a number (0-10)",
        mod="A modifier to your total (default 0)",
        opp_mod="A modifier to the opponent's total (default 0)",
        public=PUBLIC,
    )
    @app_commands.autocomplete(attr_name=ac.attribute_names, skill_name=ac.skill_names)
    async def contest(
        self,
        interaction: discord.Interaction,
        opp_attr: Attr,
        opp_skill: Skill,
        attr: Attr | None = None,
        skill: Skill | None = None,
        attr_name: Name | None = None,
        skill_name: Name | None = None,
        mod: Mod = 0,
        opp_mod: Mod = 0,
        public: bool = False,
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        mine = await check_modifiers(self.bot, roller, attr, skill, attr_name, skill_name, mod)
        theirs = stat_line(opp_attr, opp_skill, opp_mod)
        odds = contest_odds(total(mine), total(theirs))
        await self._answer(
            interaction,
            roller,
            tr("Contest"),
            odds,
            goal=tr("to win"),
            matchup=tr(
                "{side} against the opponent's {theirs}; you win ties",
                side=side_text(mine),
                theirs=side_text(theirs),
            ),
            public=public,
        )


async def setup(bot: WireBot) -> None:
    await bot.add_cog(OddsTable(bot))
