"""Embeds for results: the wire core's words laid out for Discord.

One embed per roll: green for a success or hit, red for a failure; who rolled; the die and how it
was obtained; each modifier; the total against the target; the degrees (with "capped from N");
the damage worked out for combat; and the odds before the roll. Everything here is presentation:
the numbers all come from the result objects.

The names here (who rolled, labels, weapons, opponents, the sheet's stat names in the modifiers)
are what users typed: each builder takes them as typed and shows them through `inert`, so callers
pass raw text. Footers show no markdown, so names go in there as they are.
"""

from __future__ import annotations

import discord

from cogs.utils.discord_limits import (
    EMBED_DESCRIPTION_MAX,
    EMBED_FIELD_NAME_MAX,
    EMBED_FIELD_VALUE_MAX,
    EMBED_FOOTER_MAX,
    EMBED_TITLE_MAX,
)
from cogs.utils.text import inert
from wire import text
from wire.check import CheckResult, Modifier, Roll
from wire.combat import CombatResult, Defence
from wire.contest import ContestResult
from wire.crafting import CraftResult
from wire.degrees import Degrees
from wire.i18n import N_, tr
from wire.odds import DamageRole
from wire.textcheck import clip

SUCCESS = discord.Colour(0x2ECC71)
FAILURE = discord.Colour(0xE74C3C)
NEUTRAL = discord.Colour(0x5865F2)


def die_field(roll: Roll) -> str:
    return text.die_text(roll.die)


def modifiers_field(roll: Roll) -> str:
    if not roll.modifiers:
        return tr("none")
    return clip(
        ", ".join(f"{inert(m.label)} {m.value:+d}" for m in roll.modifiers), EMBED_FIELD_VALUE_MAX
    )


def roll_field(roll: Roll) -> str:
    """The rules core's roll line ("d20 15 + 3 Strength = 18") with its labels shown inert."""
    shown = Roll(roll.die, tuple(Modifier(inert(m.label), m.value) for m in roll.modifiers))
    return clip(text.roll_text(shown), EMBED_FIELD_VALUE_MAX)


def winner_degrees(degrees: Degrees) -> str:
    """The winner's degrees read as DoS, whichever side rolled."""
    return text.degrees_text(Degrees(True, degrees.raw, degrees.capped))


def _roll_fields(
    embed: discord.Embed, roll: Roll, target_label: str, target: int, *, secret: bool = False
) -> None:
    """Die, modifiers and total; an NPC's die and modifiers stay with the GMs (`secret`), since
    together with the total they would give its sheet away."""
    if not secret:
        embed.add_field(name=tr("Die"), value=die_field(roll))
        embed.add_field(name=tr("Modifiers"), value=modifiers_field(roll))
    embed.add_field(
        name=tr("Total"),
        value=tr(
            "**{total}** vs {target_label} {target}",
            total=roll.total,
            target_label=target_label,
            target=target,
        ),
    )


def side_text(roll: Roll, secret: bool) -> str:
    """One side of an opposed roll: every part of it, or an NPC's total only."""
    return f"**{roll.total}**" if secret else roll_field(roll)


def check_embed(
    who: str, result: CheckResult, label: str | None = None, *, secret: bool = False
) -> discord.Embed:
    degrees = text.degrees_text(result.degrees)
    outcome = (
        tr("Success: {degrees}", degrees=degrees)
        if result.success
        else tr("Failure: {degrees}", degrees=degrees)
    )
    embed = discord.Embed(
        title=clip(f"{inert(who)}: {inert(label or tr('Check'))}", EMBED_TITLE_MAX),
        description=f"**{outcome}**",
        colour=SUCCESS if result.success else FAILURE,
    )
    _roll_fields(embed, result.roll, tr("TN"), result.target, secret=secret)
    if not secret:  # the odds would tell the NPC's modifiers too
        embed.set_footer(
            text=tr("{chance} to succeed before the roll", chance=text.percent(result.odds.chance))
        )
    return embed


DEFENCE_NAMES = {Defence.PARRY: N_("Parry"), Defence.BLOCK: N_("Block"), Defence.DODGE: N_("Dodge")}
"""A defence's name as a reply shows it."""


def defence_name(defence: Defence) -> str:
    return tr(DEFENCE_NAMES[defence])


def combat_outcome(result: CombatResult, opponent: str | None = None) -> str:
    """Who won by how many degrees and how much damage got through, in the rules' words: the
    defender's DoS only take damage off, so a parried blow is no "miss"."""
    damage, degrees = result.damage, winner_degrees(result.degrees)
    attacking = result.role is DamageRole.ATTACKER
    if result.attacker_won:
        if attacking:
            return tr("Hit: {degrees}, {damage} damage", degrees=degrees, damage=damage.amount)
        return tr(
            "The attack gets through: {degrees} for the attacker, {damage} damage",
            degrees=degrees,
            damage=damage.amount,
        )
    if attacking and opponent:
        degrees = tr("{degrees} for {name}", degrees=degrees, name=inert(opponent))
    if damage.amount == 0:
        return _fully(result.defence, degrees)
    if damage.amount >= damage.base:  # won the roll by 0 DoS: took nothing off
        return _for_nothing(result.defence, degrees, damage.amount)
    return _partly(result.defence, degrees, damage.amount, damage.base)


def _fully(defence: Defence | None, degrees: str) -> str:
    """A defence that let no damage through; whole sentences, as German words them apart."""
    if defence is Defence.PARRY:
        return tr("Fully parried: {degrees}, no damage", degrees=degrees)
    if defence is Defence.BLOCK:
        return tr("Fully blocked: {degrees}, no damage", degrees=degrees)
    if defence is Defence.DODGE:
        return tr("Fully dodged: {degrees}, no damage", degrees=degrees)
    return tr("Fully defended: {degrees}, no damage", degrees=degrees)


def _partly(defence: Defence | None, degrees: str, amount: int, base: int) -> str:
    params = {"degrees": degrees, "amount": amount, "base": base}
    if defence is Defence.PARRY:
        return tr("Parried: {degrees}, {amount} of {base} damage gets through", **params)
    if defence is Defence.BLOCK:
        return tr("Blocked: {degrees}, {amount} of {base} damage gets through", **params)
    if defence is Defence.DODGE:
        return tr("Dodged: {degrees}, {amount} of {base} damage gets through", **params)
    return tr("Defended: {degrees}, {amount} of {base} damage gets through", **params)


def _for_nothing(defence: Defence | None, degrees: str, amount: int) -> str:
    """A defence that won the roll by 0 DoS: it takes nothing off, so it is no parry at all."""
    params = {"degrees": degrees, "amount": amount}
    if defence is Defence.PARRY:
        return tr("The parry stops nothing: {degrees}, all {amount} damage gets through", **params)
    if defence is Defence.BLOCK:
        return tr("The block stops nothing: {degrees}, all {amount} damage gets through", **params)
    if defence is Defence.DODGE:
        return tr("The dodge avoids nothing: {degrees}, all {amount} damage gets through", **params)
    return tr("The defence stops nothing: {degrees}, all {amount} damage gets through", **params)


def combat_colour(result: CombatResult, side: DamageRole | None = None) -> discord.Colour:
    """Green when it went well for whoever rolled (`side`, default the result's roller), red
    when not. For the attacker that is damage getting through, whoever won the roll (a parried
    blow that still hurts is no miss); for the defender, damage taken off: a defence that won
    by 0 DoS stopped nothing and is red."""
    damage = result.damage
    if (side or result.role) is DamageRole.ATTACKER:
        return SUCCESS if damage.amount > 0 else FAILURE
    stopped = damage.amount == 0 or damage.amount < damage.base
    return SUCCESS if not result.attacker_won and stopped else FAILURE


def combat_embed(
    who: str,
    result: CombatResult,
    *,
    weapon: str | None = None,
    opponent: str | None = None,
    secret: bool = False,
    opponent_secret: bool = False,
    side: DamageRole | None = None,
) -> discord.Embed:
    """`secret`, `opponent_secret`: that side is an NPC whose sheet the table does not see.
    `side`: whose roll the message reports, for its colour (the defender's, once they pressed a
    defence button on an attack; default the result's roller)."""
    attacking = result.role is DamageRole.ATTACKER
    action = tr("Attack") if attacking else tr("Defence")
    if result.defence is not None and not attacking:
        action = defence_name(result.defence)
    title = f"{inert(who)}: {action}"
    if weapon:
        title += " " + tr("with {weapon}", weapon=inert(weapon))
    if opponent:
        title += " " + (
            tr("on {opponent}", opponent=inert(opponent))
            if attacking
            else tr("against {opponent}", opponent=inert(opponent))
        )
    embed = discord.Embed(
        title=clip(title, EMBED_TITLE_MAX),
        description=f"**{combat_outcome(result, opponent)}**\n{text.damage_text(result)}",
        colour=combat_colour(result, side),
    )
    theirs = tr("defence") if attacking else tr("attack")
    _roll_fields(embed, result.roll, theirs, result.opponent_total, secret=secret)
    if result.opponent is not None:
        label = defence_name(result.defence) if result.defence and attacking else theirs
        embed.add_field(
            name=clip(f"{inert(opponent or tr('Opponent'))}: {label}", EMBED_FIELD_NAME_MAX),
            value=side_text(result.opponent, opponent_secret),
            inline=False,
        )
    if not (secret or opponent_secret):  # the odds would tell the NPC's modifiers
        chance = text.percent(result.odds.chance)
        embed.set_footer(
            text=tr("{chance} to hit before the roll", chance=chance)
            if attacking
            else tr("{chance} to defend before the roll", chance=chance)
        )
    return embed


def contest_embed(
    active: str,
    passive: str,
    result: ContestResult,
    *,
    active_secret: bool = False,
    passive_secret: bool = False,
) -> discord.Embed:
    winner, loser = (active, passive) if result.active_won else (passive, active)
    embed = discord.Embed(
        title=clip(
            tr("Contest: {active} vs {passive}", active=inert(active), passive=inert(passive)),
            EMBED_TITLE_MAX,
        ),
        description=tr(
            "**{winner} wins with {degrees}** ({loser}: {dof} DoF)",
            winner=clip(inert(winner), 100),
            degrees=winner_degrees(result.degrees),
            loser=clip(inert(loser), 100),
            dof=result.degrees.capped,
        ),
        colour=SUCCESS if result.active_won else FAILURE,
    )
    embed.add_field(
        name=clip(inert(active), EMBED_FIELD_NAME_MAX),
        value=side_text(result.active, active_secret),
    )
    embed.add_field(
        name=clip(inert(passive), EMBED_FIELD_NAME_MAX),
        value=side_text(result.passive, passive_secret),
    )
    if not (active_secret or passive_secret):  # the odds would tell the NPC's modifiers
        embed.set_footer(
            text=clip(
                tr(
                    "{chance} for {side} before the roll",
                    chance=text.exact_percent(result.odds.chance),
                    side=active,
                ),
                EMBED_FOOTER_MAX,
            )
        )
    return embed


def progress(quality: int, goal: int | None) -> str:
    """ "3", or "3 of 6" toward a goal."""
    return str(quality) if goal is None else tr("{quality} of {goal}", quality=quality, goal=goal)


BELOW_ZERO = N_(
    "Below 0 the work has gone backwards; what that means for the item is the GM's call "
    "(the rules say only that each DoF lowers the quality by 1)."
)


def craft_embed(
    who: str, item: str, result: CraftResult, *, goal: int | None = None
) -> discord.Embed:
    embed = check_embed(who, result.check, label=tr("Crafting {item}", item=item))
    value = (
        f"{result.quality_before} {text.signed(result.change)} = "
        f"**{progress(result.quality_after, goal)}**"
    )
    if goal is not None and result.quality_after >= goal:
        value += " · " + tr("goal reached: `/craft finish` when you are done")
    if result.quality_after < 0:
        value += f"\n{tr(BELOW_ZERO)}"
    embed.add_field(name=tr("Quality"), value=value, inline=False)
    return embed


def hidden_notice(who: str | None, what: str) -> str:
    """The public line the channel sees for a hidden roll; `who` None: a GM rolled for an NPC,
    whose name the table is not told."""
    if who is None:
        return "🎲 " + tr("A GM made a hidden {what}.", what=tr(what))
    return "🎲 " + tr(
        "{who} made a hidden {what}. The GMs have the result.", who=inert(who), what=tr(what)
    )


def free_roll_embed(
    who: str, shown: str, label: str | None = None, *, hint: str | None = None
) -> discord.Embed:
    """A /roll: who rolled, and the dice as `dice_expression` showed them (already inert);
    `hint`: what the roller probably meant (`4d6kh3` for `4d6k3`), for the whole table."""
    embed = discord.Embed(
        title=clip(f"{inert(who)}: {inert(label or tr('Roll'))}", EMBED_TITLE_MAX),
        description=clip(shown, EMBED_DESCRIPTION_MAX),
        colour=NEUTRAL,
    )
    if hint:
        embed.set_footer(text=clip(hint.replace("`", ""), EMBED_FOOTER_MAX))
    return embed
