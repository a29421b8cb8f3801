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
    clip,
)
from cogs.utils.text import inert
from wire import text
from wire.check import CheckResult, Modifier, Roll
from wire.combat import CombatResult, Defence
from wire.contest import ContestResult
from wire.crafting import CraftResult
from wire.degrees import Degrees
from wire.odds import DamageRole

SUCCESS = discord.Colour(0x2ECC71)
FAILURE = discord.Colour(0xE74C3C)
NEUTRAL = discord.Colour(0x5865F2)


def die_field(roll: Roll) -> str:
    return text.die_text(roll.die)


def modifiers_field(roll: Roll) -> str:
    if not roll.modifiers:
        return "none"
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
        embed.add_field(name="Die", value=die_field(roll))
        embed.add_field(name="Modifiers", value=modifiers_field(roll))
    embed.add_field(name="Total", value=f"**{roll.total}** vs {target_label} {target}")


def side_text(roll: Roll, secret: bool) -> str:
    """One side of an opposed roll: every part of it, or an NPC's total only."""
    return f"**{roll.total}**" if secret else roll_field(roll)


def check_embed(
    who: str, result: CheckResult, label: str = "Check", *, secret: bool = False
) -> discord.Embed:
    outcome = "Success" if result.success else "Failure"
    embed = discord.Embed(
        title=clip(f"{inert(who)}: {inert(label)}", EMBED_TITLE_MAX),
        description=f"**{outcome}: {text.degrees_text(result.degrees)}**",
        colour=SUCCESS if result.success else FAILURE,
    )
    _roll_fields(embed, result.roll, "TN", result.target, secret=secret)
    if not secret:  # the odds would tell the NPC's modifiers too
        embed.set_footer(text=f"{text.percent(result.odds.chance)} to succeed before the roll")
    return embed


DEFENCE_VERBS = {Defence.PARRY: "Parried", Defence.BLOCK: "Blocked", Defence.DODGE: "Dodged"}


def combat_outcome(result: CombatResult, opponent: str | None = None) -> str:
    """Who won by how many degrees and how much damage got through, in the rules' words: the
    defender's DoS only take damage off, so a parried blow is no "miss"."""
    damage, degrees = result.damage, winner_degrees(result.degrees)
    attacking = result.role is DamageRole.ATTACKER
    if result.attacker_won:
        if attacking:
            return f"Hit: {degrees}, {damage.amount} damage"
        return f"The attack gets through: {degrees} for the attacker, {damage.amount} damage"
    verb = DEFENCE_VERBS.get(result.defence, "Defended") if result.defence else "Defended"
    whose = f" for {inert(opponent)}" if attacking and opponent else ""
    if damage.amount == 0:
        return f"Fully {verb.lower()}: {degrees}{whose}, no damage"
    return f"{verb}: {degrees}{whose}, {damage.amount} of {damage.base} damage get through"


def combat_colour(result: CombatResult) -> discord.Colour:
    """An attack is green when damage gets through, whoever won the roll (a parried blow that
    still hurts is no miss); a defence is green when the defender won."""
    if result.role is DamageRole.ATTACKER:
        return SUCCESS if result.damage.amount > 0 else FAILURE
    return FAILURE if result.attacker_won else SUCCESS


def combat_embed(
    who: str,
    result: CombatResult,
    *,
    weapon: str | None = None,
    opponent: str | None = None,
    secret: bool = False,
    opponent_secret: bool = False,
) -> discord.Embed:
    """`secret`, `opponent_secret`: that side is an NPC whose sheet the table does not see."""
    attacking = result.role is DamageRole.ATTACKER
    action = "Attack" if attacking else "Defence"
    if result.defence is not None and not attacking:
        action = result.defence.value.capitalize()
    title = f"{inert(who)}: {action}"
    if weapon:
        title += f" with {inert(weapon)}"
    if opponent:
        title += f" {'on' if attacking else 'against'} {inert(opponent)}"
    embed = discord.Embed(
        title=clip(title, EMBED_TITLE_MAX),
        description=f"**{combat_outcome(result, opponent)}**\n{text.damage_text(result)}",
        colour=combat_colour(result),
    )
    theirs = "defence" if attacking else "attack"
    _roll_fields(embed, result.roll, theirs, result.opponent_total, secret=secret)
    if result.opponent is not None:
        label = result.defence.value.capitalize() if result.defence and attacking else theirs
        embed.add_field(
            name=clip(f"{inert(opponent or 'Opponent')}: {label}", EMBED_FIELD_NAME_MAX),
            value=side_text(result.opponent, opponent_secret),
            inline=False,
        )
    if not (secret or opponent_secret):  # the odds would tell the NPC's modifiers
        goal = "to hit" if attacking else "to defend"
        embed.set_footer(text=f"{text.percent(result.odds.chance)} {goal} before the roll")
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
        title=clip(f"Contest: {inert(active)} vs {inert(passive)}", EMBED_TITLE_MAX),
        description=f"**{clip(inert(winner), 100)} wins with {winner_degrees(result.degrees)}** "
        f"({clip(inert(loser), 100)}: {result.degrees.capped} DoF)",
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
                f"{text.percent(result.odds.chance)} for {active} before the roll",
                EMBED_FOOTER_MAX,
            )
        )
    return embed


def progress(quality: int, goal: int | None) -> str:
    """ "3", or "3 of 6" toward a goal."""
    return str(quality) if goal is None else f"{quality} of {goal}"


BELOW_ZERO = (
    "Below 0 the work has gone backwards; what that means for the item is the GM's call "
    "(the rules say only that each DoF lowers the quality by 1)."
)


def craft_embed(
    who: str, item: str, result: CraftResult, *, goal: int | None = None
) -> discord.Embed:
    embed = check_embed(who, result.check, label=f"Crafting {item}")
    value = (
        f"{result.quality_before} {text.signed(result.change)} = "
        f"**{progress(result.quality_after, goal)}**"
    )
    if goal is not None and result.quality_after >= goal:
        value += " · goal reached: `/craft finish` when you are done"
    if result.quality_after < 0:
        value += f"\n{BELOW_ZERO}"
    embed.add_field(name="Quality", value=value, inline=False)
    return embed


def hidden_notice(who: str, what: str) -> str:
    """The public line the channel sees for a hidden roll."""
    return f"🎲 {inert(who)} made a hidden {what}. The GMs have the result."


def free_roll_embed(who: str, shown: str, label: str | None = None) -> discord.Embed:
    """A /roll: who rolled, and the dice as `dice_expression` showed them (already inert)."""
    return discord.Embed(
        title=clip(f"{inert(who)}: {inert(label or 'Roll')}", EMBED_TITLE_MAX),
        description=clip(shown, EMBED_DESCRIPTION_MAX),
        colour=NEUTRAL,
    )
