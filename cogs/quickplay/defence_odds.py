"""The panel's Defence odds: each defence's chance, against the fight's attackers when one runs.

In a fight in the channel the odds are worked out against the combatants actually there, each
with the best weapon on its sheet (the highest attribute + skill: what it most likely swings),
as `wire.combat.defence_chance` has it: both sides roll, the attacker wins ties; an NPC defender
takes 10 where the table has NPCs take 10. Without a fight, or with no attacker to show, the
odds are against attack totals of 10, 15 and 20.

An NPC's sheet is for the GMs' eyes: to a player, an NPC whose modifiers the table does not see
is named as not shown, never given odds (they would tell its bonus to within a point or two).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import discord

from cogs.utils.conditions import fighter_of
from cogs.utils.discord_limits import CONTENT_MAX
from cogs.utils.embeds import defence_name
from cogs.utils.rolling import actor_of, missing_note, npc_secret
from cogs.utils.text import inert
from storage.errors import NotFound
from storage.models import Campaign, Fight
from wire import i18n
from wire.check import Modifier
from wire.combat import Defence, defence_chance
from wire.conditions import Effect, RollFor, condition_modifiers, sheet_conditions_in_play
from wire.i18n import tr
from wire.odds import compute_odds
from wire.sheet import Character, available_defences, best_attack, defence_modifiers
from wire.sides import opponents_first
from wire.textcheck import clip

if TYPE_CHECKING:
    from bot import WireBot
    from cogs.quickplay.panel import Pressed

PROBE_TOTALS = (10, 15, 20)
"""The attack totals the odds are shown against when no fight gives real attackers."""


@dataclass(frozen=True, slots=True)
class Attacker:
    """Those in the fight who attack alike: the copies of one sheet, its best weapon and bonus."""

    names: tuple[str, ...]
    weapon: str
    bonus: int

    @property
    def named(self) -> str:
        return ", ".join(f"**{inert(name)}**" for name in self.names)


@dataclass(frozen=True, slots=True)
class Attackers:
    """Whom the odds are against, and whom a player may not see the odds against."""

    shown: tuple[Attacker, ...]
    hidden: tuple[str, ...]


def _percent(chance: Fraction) -> int:
    return round(float(chance) * 100)


def defence_bonus(character: Character, defence: Defence) -> int:
    return sum(m.value for m in defence_modifiers(character, defence))


def defence_odds_text(
    character: Character, name: str = "", conditions: tuple[Effect, ...] = ()
) -> str:
    """Each defence's bonus and its chance to stop an attack total of 10, 15 and 20 (the
    attacker wins ties, so the defender needs more). `name`: the copy in a fight (Goblin 1);
    `conditions`: the defender's, shown with them and, on the line below, without."""
    lines = [
        tr(
            "**{name}**: the odds of each defence against an attack total (a tie goes to the "
            "attacker)",
            name=inert(name or character.name),
        )
    ]
    for defence in available_defences(character):
        plain = defence_bonus(character, defence)
        extra = condition_modifiers(conditions, RollFor.defence(defence.value))
        bonus = plain + sum(m.value for m in extra)

        def chances(bonus: int) -> str:
            return ", ".join(
                tr(
                    "{percent}% against {total}",
                    percent=_percent(compute_odds(bonus - vs, wins_ties=False).chance),
                    total=vs,
                )
                for vs in PROBE_TOTALS
            )

        lines.append(f"{defence_name(defence)} (d20 {bonus:+d}): {chances(bonus)}")
        if extra:
            lines.append(_without(extra, plain, chances(plain)))
    return "\n".join(lines)


def _without(extra: tuple[Modifier, ...], plain: int, chances: str) -> str:
    """The line under a defence that conditions change: which, and the chance without them."""
    named = ", ".join(f"{inert(m.label)} {m.value:+d}" for m in extra)
    return "  " + tr(
        "with {conditions}; without: d20 {bonus}, {chances}",
        conditions=named,
        bonus=f"{plain:+d}",
        chances=chances,
    )


async def fight_attackers(
    bot: WireBot, fight: Fight, character: Character, campaign: Campaign, *, gm: bool
) -> Attackers:
    """The fight's combatants that could attack this character: not itself (nor its fellow
    copies), not the downed, each sheet once with the names of its copies; the likely
    attackers first (`wire.sides`: the NPCs of a player character, the player characters of an
    NPC), each group in fight order."""
    groups: dict[int, list[str]] = {}
    for combatant in opponents_first(character.is_npc, fight.order(), lambda c: c.is_npc).ordered():
        if combatant.character_id is None or combatant.character_id == character.id:
            continue
        if combatant.health.down:
            continue
        groups.setdefault(combatant.character_id, []).append(combatant.name)
    shown: list[Attacker] = []
    hidden: list[str] = []
    for character_id, names in groups.items():
        try:
            sheet = await bot.store.get_character_by_id(
                fight.guild_id, fight.campaign_id, character_id
            )
        except NotFound:
            continue
        if not gm and npc_secret(campaign, sheet):
            hidden += names
            continue
        best = best_attack(sheet)
        if best is not None:
            shown.append(Attacker(tuple(names), best[0].name, best[1]))
    return Attackers(tuple(shown), tuple(hidden))


def fight_odds_text(
    character: Character,
    fight: Fight,
    attackers: Attackers,
    *,
    takes10: bool,
    name: str = "",
    conditions: tuple[Effect, ...] = (),
) -> str:
    """`conditions`: the defender's in the fight; a defence they change shows its chance with
    them and, on the line below, without."""
    name = name or character.name
    lines = [
        tr(
            "**{name}**: the odds of each defence against each attacker in **{fight}**, with "
            "the best weapon on its sheet (a tie goes to the attacker)",
            name=inert(name),
            fight=inert(fight.name),
        )
    ]
    lines += [
        "• "
        + tr(
            "{names}: d20 {bonus} with {weapon}",
            names=a.named,
            bonus=f"{a.bonus:+d}",
            weapon=inert(a.weapon),
        )
        for a in attackers.shown
    ]
    if takes10:
        lines.append(tr("{name} takes 10 to defend, as this table's NPCs do.", name=inert(name)))
    for defence in available_defences(character):
        plain = defence_bonus(character, defence)
        extra = condition_modifiers(conditions, RollFor.defence(defence.value))
        bonus = plain + sum(m.value for m in extra)

        def chances(bonus: int) -> str:
            return "; ".join(
                tr(
                    "{chance} against {names}",
                    chance=i18n.percent(defence_chance(bonus, a.bonus, takes10=takes10)),
                    names=a.named,
                )
                for a in attackers.shown
            )

        lines.append(f"{defence_name(defence)} (d20 {bonus:+d}): {chances(bonus)}")
        if extra:  # the chance with the conditions, and what it would be without them
            lines.append(_without(extra, plain, chances(plain)))
    return "\n".join(lines)


def hidden_note(hidden: tuple[str, ...]) -> str:
    return tr(
        "Not shown: {names}, whose sheets are for the GMs' eyes.",
        names=", ".join(f"**{inert(name)}**" for name in hidden),
    )


async def defence_odds_reply(
    bot: WireBot, interaction: discord.Interaction, pressed: Pressed, name: str = ""
) -> str:
    """The Defence odds press's answer: against the fight's attackers when a fight runs in this
    channel and any can be shown, else against the totals 10, 15 and 20. `name`: the copy of an
    NPC whose panel it is (npc:Goblin 1), named in place of its sheet."""
    character = pressed.character
    fight = None
    if interaction.guild_id is not None and interaction.channel_id is not None:
        fight = await bot.store.running_fight(interaction.guild_id, interaction.channel_id)
    gm = pressed.campaign.is_gm(actor_of(interaction))
    member = fighter_of(fight, character.id, name or character.name)
    borne = sheet_conditions_in_play(character.conditions, member.effects if member else None)
    conditions = tuple(e for e in borne if gm or not e.hidden)
    if fight is None:
        text = defence_odds_text(character, name, conditions)
    else:
        attackers = await fight_attackers(bot, fight, character, pressed.campaign, gm=gm)
        takes10 = character.is_npc and pressed.campaign.npc_take10
        text = (
            fight_odds_text(
                character, fight, attackers, takes10=takes10, name=name, conditions=conditions
            )
            if attackers.shown
            else defence_odds_text(character, name, conditions)
        )
        if attackers.hidden:
            text += "\n" + hidden_note(attackers.hidden)
    if missing := missing_defence_stats(character):
        text += "\n" + missing
    return clip(text, CONTENT_MAX)


def missing_defence_stats(character: Character) -> str | None:
    """The note a roll gives for the stats its defences count as 0 because the sheet lacks
    them (an untrained Dodge), once each: "Dodge (d20 +2)" alone read as a trained Dodge."""
    absent: dict[str, Modifier] = {}
    for defence in available_defences(character):
        for modifier in defence_modifiers(character, defence):
            absent.setdefault(modifier.label, modifier)
    return missing_note(absent.values())
