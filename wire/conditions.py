"""Conditions on a combatant: what they change, for how long, and how they count down.

WIRE's sources define no conditions (no "prone", no "stunned"): a table names its own, each with
the modifier and the duration it chooses, and the bot ships none as rules. What this module
decides is only the mechanics every condition shares:

- what it applies to (`Target`): every roll, attacks, every defence or one of Parry, Block and
  Dodge, checks (of any stat, or of one named attribute or skill), initiative, the damage its
  bearer deals or the damage it takes;
- its modifier, -10..+10, added to each roll it applies to as its own line of the breakdown
  ("Prone -2"), so the degrees come from the modified total;
- how long it lasts (`Timing`): N rounds counted down at the start or at the end of its
  bearer's turn, until a named combatant's next turn begins, or until it is removed (a fight's
  conditions all end with the fight).

Pure: no discord, no database. Storage keeps the fields as they are here; cogs ask
`condition_modifiers` for the lines of a roll and `count_down` what a turn change does.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from wire.check import Modifier
from wire.combat import Defence
from wire.errors import RulesError
from wire.i18n import N_, tr
from wire.limits import Limit
from wire.sheet import Character, available_defences, defence_modifiers

CONDITION_MODIFIER = Limit(N_("a condition's modifier"), -10, 10)
MAX_ROUNDS = 100
NAME_MAX = 40
"""A condition's name is a label in every breakdown line and tracker row: kept short."""
HIDDEN_LABEL = N_("hidden condition")
MAX_CONDITIONS = 10
"""Per bearer: the tracker row and each roll's breakdown stay readable."""


class Target(StrEnum):
    """What a condition's modifier is added to."""

    ALL = "all"
    """Every roll its bearer makes: attacks, defences and checks. Not damage, and not
    initiative: that is rolled once and orders the whole fight, so only a condition on
    initiative itself moves its bearer in the order."""
    ATTACK = "attack"
    DEFENCE = "defence"
    """Every defence: Parry, Block and Dodge."""
    PARRY = "parry"
    BLOCK = "block"
    DODGE = "dodge"
    CHECK = "check"
    """Checks (/check, /contest, crafting): of every stat, or of the one `stat` names."""
    INITIATIVE = "initiative"
    DAMAGE_DEALT = "damage-dealt"
    """The base damage of its bearer's attacks."""
    DAMAGE_TAKEN = "damage-taken"
    """The base damage of the attacks on its bearer."""


TARGET_LABELS: dict[Target, str] = {
    Target.ALL: N_("all rolls"),
    Target.ATTACK: N_("attacks"),
    Target.DEFENCE: N_("all defences"),
    Target.PARRY: N_("Parry"),
    Target.BLOCK: N_("Block"),
    Target.DODGE: N_("Dodge"),
    Target.CHECK: N_("checks"),
    Target.INITIATIVE: N_("initiative"),
    Target.DAMAGE_DEALT: N_("damage dealt"),
    Target.DAMAGE_TAKEN: N_("damage taken"),
}

_DEFENCES = frozenset({Target.PARRY, Target.BLOCK, Target.DODGE})
_DAMAGE = frozenset({Target.DAMAGE_DEALT, Target.DAMAGE_TAKEN})


class Timing(StrEnum):
    """How a condition's duration runs out."""

    END = "end"
    """`rounds_left` counts down when its bearer's turn ends (None: until removed)."""
    START = "start"
    """`rounds_left` counts down when its bearer's turn begins (None: until removed)."""
    TURN = "turn"
    """Ends when the turn of the combatant `until_id` names begins."""


TARGET_NAMES = tuple(t.value for t in Target)
"""How a file writes what a condition applies to (exports, the CLI's --sheet)."""
SAVED_TIMINGS = (Timing.END.value, Timing.START.value)
"""The timings a file may give a condition: "until someone's next turn" names a combatant, and
fights are not exported, so no file holds one."""


@dataclass(frozen=True, slots=True)
class Effect:
    """A condition a combatant carries. The first three fields are those of the effects before
    conditions had a mechanical effect: an old row reads as a modifier of 0 on every roll,
    counted at the end of its bearer's turn."""

    id: int
    name: str
    rounds_left: int | None
    """Turns left to count down (see `timing`); None: until removed or the fight ends."""
    modifier: int = 0
    applies_to: Target = Target.ALL
    stat: str | None = None
    """With `Target.CHECK`: the one attribute or skill whose checks it changes (None: all)."""
    timing: Timing = Timing.END
    until_id: int | None = None
    """With `Timing.TURN`: the combatant whose next turn ends it."""
    hidden: bool = False
    """Shown to GMs only (an NPC's secret); the rolls count it all the same."""

    def label(self) -> str:
        """How a breakdown names it: its own name (the value follows: "Prone -2"); a hidden
        one only as a hidden condition, since the breakdown reaches the table."""
        return tr(HIDDEN_LABEL) if self.hidden else self.name


Condition = Effect
"""The name the rules use; `Effect` stays the name a combatant's field and storage know."""


@dataclass(frozen=True, slots=True)
class RollFor:
    """Which roll a bearer makes or is rolled against, as conditions see it."""

    kind: Target
    """ATTACK, one of PARRY/BLOCK/DODGE, CHECK, INITIATIVE, DAMAGE_DEALT or DAMAGE_TAKEN."""
    stats: tuple[str, ...] = ()
    """A check's attribute and skill names (a condition on one named stat needs them)."""

    @classmethod
    def attack(cls) -> RollFor:
        return cls(Target.ATTACK)

    @classmethod
    def defence(cls, defence: str) -> RollFor:
        """`defence`: "parry", "block" or "dodge" (wire.combat.Defence's values)."""
        return cls(Target(defence))

    @classmethod
    def check(cls, *stats: str | None) -> RollFor:
        return cls(Target.CHECK, tuple(s for s in stats if s))


def applies(effect: Effect, roll: RollFor) -> bool:
    """Whether the condition changes this roll. "All rolls" is every attack, defence and
    check (never the damage nor initiative); "all defences" each of the three; a check's
    condition with a stat only the checks that name that stat (case-insensitive)."""
    target, kind = effect.applies_to, roll.kind
    if target is Target.ALL:
        return kind not in _DAMAGE and kind is not Target.INITIATIVE
    if target is Target.DEFENCE:
        return kind in _DEFENCES
    if target is Target.CHECK and kind is Target.CHECK and effect.stat:
        folded = effect.stat.casefold()
        return any(s.casefold() == folded for s in roll.stats)
    return target is kind


def condition_modifiers(effects: Iterable[Effect], roll: RollFor) -> tuple[Modifier, ...]:
    """The one place that says what a bearer's conditions add to a roll: a `Modifier` per
    condition that applies (in the order they were put on), named by the condition, so the
    breakdown names every one ("Prone -2"). A modifier of 0 changes nothing and is left out.
    Most rolls are made by a bearer of none: an empty tuple answers at once, since every roll
    asks (an attack five times)."""
    if effects == ():
        return ()
    return tuple(
        Modifier(e.label(), e.modifier) for e in effects if e.modifier and applies(e, roll)
    )


def with_conditions(
    modifiers: Sequence[Modifier], effects: Iterable[Effect], roll: RollFor
) -> tuple[Modifier, ...]:
    """A roll's modifiers followed by those of the conditions that apply to it."""
    return (*modifiers, *condition_modifiers(effects, roll))


_DEALT = RollFor(Target.DAMAGE_DEALT)
_TAKEN = RollFor(Target.DAMAGE_TAKEN)


def modified_damage(base: int, dealt: Iterable[Effect], taken: Iterable[Effect]) -> int:
    """An attack's base damage with the attacker's "damage dealt" and the defender's "damage
    taken" conditions: never below 0 (damage does not heal)."""
    return max(0, base + sum(m.value for m in damage_modifiers(dealt, taken)))


def damage_modifiers(dealt: Iterable[Effect], taken: Iterable[Effect]) -> tuple[Modifier, ...]:
    """The lines that changed an attack's base damage, for its breakdown."""
    return condition_modifiers(dealt, _DEALT) + condition_modifiers(taken, _TAKEN)


def from_preset(
    given: Effect,
    preset: Effect | None,
    *,
    modifier: bool,
    applies_to: bool,
    stat: bool,
    rounds: bool,
    timing: bool,
) -> Effect:
    """A condition put on by name: what was given (each flag: that field was), and from a
    table's named condition of that name what was not; its name as the table wrote it."""
    if preset is None:
        return given
    return replace(
        given,
        name=preset.name,
        modifier=given.modifier if modifier else preset.modifier,
        applies_to=given.applies_to if applies_to else preset.applies_to,
        stat=given.stat if stat or applies_to else preset.stat,
        rounds_left=given.rounds_left if rounds else preset.rounds_left,
        timing=given.timing if timing else preset.timing,
    )


def best_defence_under(character: Character, effects: Iterable[Effect]) -> Defence:
    """The defence with the highest bonus once the bearer's conditions are counted (parry
    first on a tie, then block, then dodge, as `wire.sheet.best_defence`): a goblin whose
    parry a condition spoils dodges instead."""
    effects = tuple(effects)

    def bonus(defence: Defence) -> int:
        mods = with_conditions(
            defence_modifiers(character, defence), effects, RollFor.defence(defence.value)
        )
        return sum(m.value for m in mods)

    return max(available_defences(character), key=bonus)


# ---- a new condition ----------------------------------------------------------------------
def check_condition(effect: Effect) -> Effect:
    """The condition as given, or RulesError naming what is wrong and the range: its name
    (1..40 characters), its modifier (-10..+10), its rounds (1..100), a stat only for checks,
    a combatant to wait for only with `Timing.TURN` (and always then)."""
    name = effect.name.strip()
    if not name:
        raise RulesError(tr("Give the condition a name, e.g. Prone."))
    if len(name) > NAME_MAX:
        raise RulesError(
            tr(
                "A condition's name is at most {most} characters; this one has {count}.",
                most=NAME_MAX,
                count=len(name),
            )
        )
    CONDITION_MODIFIER.check(effect.modifier)
    if effect.rounds_left is not None and not 1 <= effect.rounds_left <= MAX_ROUNDS:
        raise RulesError(
            tr(
                "A condition lasts 1 to {most} rounds (leave rounds empty: until removed).",
                most=MAX_ROUNDS,
            )
        )
    stat = (effect.stat or "").strip() or None
    if stat is not None and effect.applies_to is not Target.CHECK:
        raise RulesError(tr("A stat goes with a condition on checks only: applies to checks."))
    if stat is not None and len(stat) > NAME_MAX:
        raise RulesError(
            tr("A stat's name is at most {most} characters.", most=NAME_MAX),
        )
    if (effect.timing is Timing.TURN) != (effect.until_id is not None):
        raise RulesError(
            tr("Name the combatant whose next turn ends it, and only with that duration.")
        )
    if effect.timing is Timing.TURN and effect.rounds_left is not None:
        raise RulesError(tr("A condition that ends at someone's turn has no rounds."))
    return replace(effect, name=name, stat=stat)


def check_sheet_condition(effect: Effect) -> Effect:
    """A condition put on a character outside a fight: as `check_condition`, and lasting until
    removed or a number of rounds, which count down only once the character is in a fight (a
    round is a fight's): "until someone's next turn" needs a fight, so it is refused here."""
    if effect.timing is Timing.TURN or effect.until_id is not None:
        raise RulesError(
            tr("Outside a fight a condition lasts rounds or until removed, not until a turn.")
        )
    return check_condition(effect)


def sheet_conditions_in_play(
    sheet_conditions: Iterable[Effect], combatant: Iterable[Effect] | None
) -> tuple[Effect, ...]:
    """The conditions a character's roll counts: its combatant's where it is in the fight
    (those came from its sheet as it joined, and count down there), else its sheet's."""
    return tuple(sheet_conditions if combatant is None else combatant)


# ---- the countdown ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Borne:
    """A condition and who bears it."""

    bearer_id: int
    effect: Effect


@dataclass(frozen=True, slots=True)
class TurnEvent:
    """A change of turn: whose turn ended (None before the first) and whose begins."""

    ended_id: int | None
    started_id: int
    present: frozenset[int] | None = None
    """The combatants still in the fight (None: all): a condition that waits for the turn of
    one who left ends now, or it would wait for a turn that never comes."""


@dataclass(frozen=True, slots=True)
class Countdown:
    """What a change of turn does to the fight's conditions."""

    kept: tuple[Borne, ...]
    """Untouched."""
    counted: tuple[Borne, ...]
    """Lost a round and go on (each with its new `rounds_left`)."""
    ended: tuple[Borne, ...]
    """Ran out with this turn, in the order they were given."""


def _ticks(borne: Borne, event: TurnEvent) -> bool:
    """Whether this change of turn counts a round of the condition (or ends it)."""
    effect = borne.effect
    if effect.timing is Timing.TURN:
        gone = event.present is not None and effect.until_id not in event.present
        return gone or effect.until_id == event.started_id
    if effect.rounds_left is None:
        return False
    if effect.timing is Timing.END:
        return borne.bearer_id == event.ended_id
    return borne.bearer_id == event.started_id


def count_down(conditions: Iterable[Borne], event: TurnEvent) -> Countdown:
    """Each condition at a change of turn: counted down once if its timing meets the event
    (its bearer's turn ending, or beginning), ended when that was its last round; one that
    waits for a combatant's turn ends as that turn begins; the rest are kept as they are."""
    kept: list[Borne] = []
    counted: list[Borne] = []
    ended: list[Borne] = []
    for borne in conditions:
        if not _ticks(borne, event):
            kept.append(borne)
        elif borne.effect.rounds_left is None or borne.effect.rounds_left <= 1:
            ended.append(borne)
        else:
            left = borne.effect.rounds_left - 1
            counted.append(replace(borne, effect=replace(borne.effect, rounds_left=left)))
    return Countdown(tuple(kept), tuple(counted), tuple(ended))


__all__ = [
    "CONDITION_MODIFIER",
    "MAX_CONDITIONS",
    "MAX_ROUNDS",
    "NAME_MAX",
    "TARGET_LABELS",
    "Borne",
    "Condition",
    "Countdown",
    "Effect",
    "RollFor",
    "Target",
    "Timing",
    "TurnEvent",
    "applies",
    "best_defence_under",
    "check_condition",
    "check_sheet_condition",
    "condition_modifiers",
    "count_down",
    "damage_modifiers",
    "from_preset",
    "modified_damage",
    "sheet_conditions_in_play",
    "with_conditions",
]
