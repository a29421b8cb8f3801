"""Conditions as the bot shows and applies them: their line on the tracker and in a reply, the
choices of /fight effect, and the one place a roll asks a fight for its bearer's conditions.

The rules (what applies to what, the countdown) are wire/conditions.py; this module only finds
the bearer in a fight and renders.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from discord import app_commands

from cogs.utils.rolling import Roller, channel_fight, stat_modifiers
from cogs.utils.text import inert
from storage.models import Combatant, Fight
from wire.check import Modifier
from wire.conditions import (
    CONDITION_MODIFIER,
    TARGET_LABELS,
    Effect,
    RollFor,
    Target,
    Timing,
    condition_modifiers,
    from_preset,
    sheet_conditions_in_play,
    with_conditions,
)
from wire.i18n import tr, trn
from wire.sheet import Character

if TYPE_CHECKING:
    from bot import WireBot

ConditionModifier = app_commands.Range[int, CONDITION_MODIFIER.low, CONDITION_MODIFIER.high]
"""A condition's modifier as a command option: Discord holds it to the rules' range."""


async def wanted_condition(
    bot: WireBot,
    roller: Roller,
    name: str,
    *,
    modifier: int | None,
    applies_to: app_commands.Choice[str] | None,
    stat: str | None,
    rounds: int | None,
    counted: app_commands.Choice[str] | None,
    until_id: int | None = None,
    hidden: bool = False,
) -> Effect:
    """The condition a command puts on (/fight effect on a combatant, /condition add on a
    sheet): the options given, and the campaign's named condition of that name for the rest.
    `until_id` (a combatant whose turn ends it) stands for rounds and their counting."""
    preset = await bot.store.find_condition_preset(roller.guild_id, roller.campaign.id, name)
    given = Effect(
        0,
        name,
        rounds,
        modifier or 0,
        Target(applies_to.value) if applies_to else Target.ALL,
        stat,
        Timing(counted.value) if counted else Timing.END,
        until_id,
        hidden,
    )
    waits = until_id is not None
    wanted = from_preset(
        given,
        preset,
        modifier=modifier is not None,
        applies_to=applies_to is not None,
        stat=stat is not None,
        rounds=rounds is not None or waits,
        timing=counted is not None or waits,
    )
    return replace(wanted, timing=Timing.TURN) if waits else wanted


TARGET_CHOICES = [
    app_commands.Choice(name="All rolls", value=Target.ALL.value),
    app_commands.Choice(name="Attacks", value=Target.ATTACK.value),
    app_commands.Choice(name="All defences", value=Target.DEFENCE.value),
    app_commands.Choice(name="Parry", value=Target.PARRY.value),
    app_commands.Choice(name="Block", value=Target.BLOCK.value),
    app_commands.Choice(name="Dodge", value=Target.DODGE.value),
    app_commands.Choice(name="Checks (of the stat given, or all)", value=Target.CHECK.value),
    app_commands.Choice(name="Initiative", value=Target.INITIATIVE.value),
    app_commands.Choice(name="Damage dealt", value=Target.DAMAGE_DEALT.value),
    app_commands.Choice(name="Damage taken", value=Target.DAMAGE_TAKEN.value),
]
TIMING_CHOICES = [
    app_commands.Choice(name="Rounds end with its turn", value=Timing.END.value),
    app_commands.Choice(name="Rounds end as its turn begins", value=Timing.START.value),
]


def condition_text(
    effect: Effect,
    *,
    until: str | None = None,
    left: bool = True,
    shown_as: Callable[[str], str] = inert,
) -> str:
    """ "Prone -2 all defences (2)": its name inert, what it adds to which rolls (a condition
    of 0 is a reminder: its name alone), and with `left` the rounds left, or whose turn ends
    it, and whether it is hidden. `shown_as` renders the table's own names: `inert` where
    Discord renders markdown, `str` where it does not (an autocomplete choice, shown as typed)."""
    shown = shown_as(effect.name)
    if effect.modifier:
        what = (
            tr("checks of {stat}", stat=shown_as(effect.stat))
            if effect.stat
            else tr(TARGET_LABELS[effect.applies_to])
        )
        shown += f" {effect.modifier:+d} {what}"
    tail = []
    if left and effect.rounds_left is not None:
        tail.append(str(effect.rounds_left))
    elif left and effect.timing is Timing.TURN:
        tail.append(tr("until {name}'s turn", name=shown_as(until or "?")))
    if effect.hidden:
        tail.append(tr("hidden"))
    return f"{shown} ({', '.join(tail)})" if tail else shown


def preset_text(preset: Effect, *, shown_as: Callable[[str], str] = inert) -> str:
    """A named condition as /condition list and the autocomplete show it: "Prone -2 all
    defences, for 2 rounds" (`shown_as` as in `condition_text`)."""
    shown = condition_text(preset, left=False, shown_as=shown_as)
    return f"{shown}, {lasting_text(preset)}"


def lasting_text(effect: Effect, *, until: str | None = None) -> str:
    """How long a new condition lasts, for the reply that puts it on."""
    if effect.rounds_left is not None:
        return trn("for {n} round", "for {n} rounds", effect.rounds_left)
    if effect.timing is Timing.TURN:
        return tr("until {name}'s next turn", name=inert(until or "?"))
    return tr("until the fight ends")


def sheet_lasting_text(effect: Effect) -> str:
    """How long a condition on a sheet lasts, for the reply that puts it on: its rounds count
    only in a fight, so the reply says so."""
    if effect.rounds_left is not None:
        return trn(
            "for {n} round once in a fight (it ends with the fight)",
            "for {n} rounds once in a fight (it ends with the fight)",
            effect.rounds_left,
        )
    return tr("until removed (/condition remove)")


def sheet_conditions_field(character: Character, *, gm: bool) -> str | None:
    """The sheet's conditions the reader may see, one a line, for /character show; None when
    it has none to show."""
    shown = [condition_text(e) for e in character.conditions if gm or not e.hidden]
    return "\n".join(shown) if shown else None


def conditions_text(fight: Fight, combatant: Combatant, *, gm: bool) -> str:
    """Each condition of the combatant the reader may see, joined for its tracker row."""
    names = {c.id: c.name for c in fight.combatants}
    return "".join(
        f" · {condition_text(e, until=names.get(e.until_id or 0))}"
        for e in combatant.effects
        if gm or not e.hidden
    )


def bearer(fight: Fight | None, combatant_id: int | None) -> tuple[Effect, ...]:
    """The conditions of a combatant of a fight (none outside a fight, or for one not in it)."""
    if fight is None or combatant_id is None:
        return ()
    member = next((c for c in fight.combatants if c.id == combatant_id), None)
    return member.effects if member is not None else ()


def roll_conditions(
    fight: Fight | None, combatant_id: int | None, roll: RollFor
) -> tuple[Modifier, ...]:
    """What the bearer's conditions add to this roll, one named line each ("Prone -2")."""
    return condition_modifiers(bearer(fight, combatant_id), roll)


def fighter_of(fight: Fight | None, character_id: int | None, name: str) -> Combatant | None:
    """The combatant a roller plays: of its sheet's copies, the one named as it rolls ("Goblin
    2" with npc:), else the one whose turn it is, else the first; None outside the fight."""
    if fight is None or character_id is None:
        return None
    mine = [c for c in fight.combatants if c.character_id == character_id]
    by_rank = sorted(mine, key=lambda c: (c.name != name, c.id != fight.current_id))
    return by_rank[0] if by_rank else None


def effects_of(fight: Fight | None, roller: Roller) -> tuple[Effect, ...]:
    """The conditions of the combatant the roller plays in `fight`; outside it, those a GM
    put on the roller's sheet (read with the sheet: no query of their own)."""
    if roller.character is None:
        return ()
    member = fighter_of(fight, roller.character.id, roller.name)
    return sheet_conditions_in_play(
        roller.character.conditions, member.effects if member is not None else None
    )


async def roller_conditions(bot: WireBot, roller: Roller) -> tuple[Effect, ...]:
    """The conditions of the combatant the roller plays in this channel's fight (none when it
    is not in one): what a check, a contest or a defence adds from them."""
    if roller.character is None:
        return ()
    return effects_of(await channel_fight(bot, roller), roller)


def damage_field(base: int, mods: Iterable[Modifier]) -> str:
    """The base damage with the conditions that changed it: "Hexed +2 → 7"."""
    lines = ", ".join(f"{inert(m.label)} {m.value:+d}" for m in mods)
    return f"{lines} → {base}"


def any_hidden(combatants: Iterable[Combatant]) -> bool:
    return any(e.hidden for c in combatants for e in c.effects)


async def check_modifiers(
    bot: WireBot,
    roller: Roller,
    attr: int | None,
    skill: int | None,
    attr_name: str | None,
    skill_name: str | None,
    mod: int,
    **options: str,
) -> tuple[Modifier, ...]:
    """A check's modifiers (`stat_modifiers`) and then those of the roller's conditions in
    this channel's fight: /check, /contest, crafting and /odds all add them alike."""
    mods = stat_modifiers(roller, attr, skill, attr_name, skill_name, mod, **options)
    effects = await roller_conditions(bot, roller)
    return with_conditions(mods, effects, RollFor.check(attr_name, skill_name))
