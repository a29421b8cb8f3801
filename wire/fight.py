"""A fight as plain data, and its rules: whose turn it is, who comes next, who may attack now.

Storage keeps and loads a fight; it decides nothing. The cogs load one `Fight`, ask it
(`next_turn`, `may_attack`) and show the answer. Everything here is pure: no database, no
Discord, so a property test can play a fight of any shape.

WIRE gives each combatant "actions up to its Action Point limit" in its turn, but our sources
give neither the limit nor the actions' costs: how many attacks a turn allows, and whether one
may attack out of turn, are the table's (`TurnRules`, a campaign setting), never a silent rule.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Protocol

from wire.conditions import Effect
from wire.health import Health
from wire.i18n import N_
from wire.initiative import Initiative, turn_order

NOT_IN_FIGHT = N_(
    "{name} is not in this fight, so has no turn to attack on. /fight join brings your "
    "active character in; defences, checks and /roll stay open meanwhile."
)
NOT_BEGUN = N_(
    "The fight has not begun: it is nobody's turn yet, so {name} cannot attack. A GM begins "
    "the first turn with /fight next; defences, checks and /roll stay open meanwhile."
)
NOT_YOUR_TURN = N_(
    "It is {current}'s turn, not {name}'s: {name} attacks on their own turn. Meanwhile "
    "defences, checks and /roll stay open, and a GM can grant {name} a reaction with "
    "/fight reaction."
)
TURN_USED = N_(
    "{name} has made this turn's attacks already ({count} of {limit}, the table's number). "
    "End the turn with End turn or /fight next; a GM can grant {name} a reaction with "
    "/fight reaction."
)
USED_ONCE = N_(
    "That menu was used already: it acts once (a second pick, a double tap or an older copy "
    "of it is refused). Press the weapon again for a new one."
)
PRESSED_ONCE = N_(
    "That button attacked already this turn: a saved roll's button attacks once per turn (a "
    "double tap or a second device is refused). Press it again on a later turn, or attack with "
    "/attack."
)
FIGHT_OVER = N_("That fight is over (or was never in this server). /fight start begins one.")


class Gms(Protocol):
    """Who the GMs are (a campaign): the fight needs only this of it."""

    def is_gm(self, user_id: int) -> bool: ...


@dataclass(frozen=True, slots=True)
class TurnRules:
    """The table's rules of a turn (campaign settings): how many attacks a combatant makes in
    its turn (None: any number), and whether it may attack in another's turn."""

    attacks_per_turn: int | None = 1
    out_of_turn: bool = False


class Use(StrEnum):
    """What an allowed attack uses up."""

    TURN = "turn"
    """One of its turn's attacks."""
    REACTION = "reaction"
    """The reaction a GM granted it (an action out of turn, or beyond the turn's number)."""
    FREE = "free"
    """Nothing: a GM's attack, or an out-of-turn attack the table allows."""


@dataclass(frozen=True, slots=True)
class MayAttack:
    """The answer to "may this combatant attack now": allowed (and what it uses), or refused
    with the reason as a template (marked with N_, translated where it is shown) and its names."""

    allowed: bool
    uses: Use | None = None
    reason: str = ""
    names: tuple[tuple[str, str | int], ...] = ()

    @property
    def values(self) -> dict[str, str | int]:
        return dict(self.names)

    @staticmethod
    def allow(uses: Use) -> MayAttack:
        return MayAttack(True, uses)

    @staticmethod
    def refuse(reason: str, **names: str | int) -> MayAttack:
        return MayAttack(False, None, reason, tuple(names.items()))


@dataclass(frozen=True, slots=True)
class Combatant:
    id: int
    fight_id: int
    name: str
    character_id: int | None
    controller_id: int | None
    """The player who acts for it; None: only the GMs (NPCs)."""
    is_npc: bool
    initiative: Initiative
    position: int
    """The order it joined in: the last tie-break of the turn order."""
    health: Health
    armour: int = 0
    dealt: int = 0
    taken: int = 0
    effects: tuple[Effect, ...] = ()
    portrait: str | None = None
    """Its character's portrait link (the tracker shows the current combatant's)."""
    attacks: int = 0
    """Attacks it made since the turn last changed (anyone's turn): a control names the count
    it was made for, so a second pick of the same menu finds it changed and is refused."""
    reaction: bool = False
    """A GM granted it one action out of turn; its next attack that needs it uses it up."""

    def may_act(self, user_id: int, gms: Gms) -> bool:
        """Who may act for it: its player, or a GM; an NPC, or one nobody plays, a GM only,
        whoever brought it in (the rule of storage.models.may_change, which the store's
        refusal says)."""
        if gms.is_gm(user_id):
            return True
        return not self.is_npc and self.controller_id is not None and self.controller_id == user_id


@dataclass(frozen=True, slots=True)
class Fight:
    """A running (or ended) fight in one channel, with its combatants."""

    id: int
    guild_id: int
    campaign_id: int
    channel_id: int
    name: str
    round: int
    current_id: int | None
    """Whose turn it is; None before the first turn."""
    step: int
    """Counts every change of turn; a Next button names it, so a stale press is refused."""
    combatants: tuple[Combatant, ...] = ()
    tracker_message_id: int | None = None
    ended: bool = False

    def order(self) -> list[Combatant]:
        """The turn order of this round (a surprise penalty counts in round 1 only); a tie goes
        to the higher Reaction, then to who joined first (`position`), whatever order the
        combatants came in."""
        by_id = {c.id: c for c in self.combatants}
        joined = sorted(self.combatants, key=lambda c: c.position)
        keys = turn_order([(c.id, c.initiative) for c in joined], self.round)
        return [by_id[k] for k in keys]

    def current(self) -> Combatant | None:
        return next((c for c in self.combatants if c.id == self.current_id), None)

    def member(self, combatant_id: int | None) -> Combatant | None:
        return next((c for c in self.combatants if c.id == combatant_id), None)

    def next_turn(self) -> NextTurn:
        """Who acts after the current combatant (the first in order before the first turn),
        passing over the downed: a combatant at 0 health has no turn to take, and the GM would
        only click past it. When everyone else is down, the next in order acts all the same."""
        order, round_number, new_round = self.order(), self.round, False
        current = self.current()
        place = -1 if current is None else order.index(current)
        skipped: list[str] = []
        first: NextTurn | None = None
        for _ in range(2 * len(order)):
            place += 1
            if place >= len(order):
                round_number, new_round, place = round_number + 1, True, 0
                order = replace(self, round=round_number).order()
            candidate = order[place]
            if first is None:
                first = NextTurn(candidate, round_number, new_round)
            if not candidate.health.down:
                return NextTurn(candidate, round_number, new_round, tuple(skipped))
            skipped.append(candidate.name)
        assert first is not None, "a fight with nobody in it has no next turn"
        return first

    def advanced(self, upcoming: NextTurn) -> Fight:
        """The fight once the turn passed to `upcoming`: a new step, and every combatant's
        per-turn state (attacks made, a granted reaction) fresh, as storage then writes it."""
        fresh = tuple(replace(c, attacks=0, reaction=False) for c in self.combatants)
        return replace(
            self,
            round=upcoming.round,
            current_id=upcoming.combatant.id,
            step=self.step + 1,
            combatants=fresh,
        )

    def turn_after_leaving(self, leaving_id: int) -> Combatant | None:
        """Who acts when the combatant `leaving_id`, whose turn it is, leaves the fight: the
        next in this round's order, the first after the last; no round is skipped or counted.
        None when nobody else is left."""
        order = self.order()
        place = next(i for i, c in enumerate(order) if c.id == leaving_id)
        rest = order[place + 1 :] + order[:place]
        return rest[0] if rest else None

    def attacker(self, character_id: int | None, name: str) -> Combatant | None:
        """The combatant that plays a sheet, to credit and count its attack: of several copies
        of an NPC, the one named (npc:Goblin 1), else the one whose turn it is, else the first."""
        if character_id is None:
            return None
        mine = [c for c in self.combatants if c.character_id == character_id]
        named = next((c for c in mine if c.name == name), None)
        if named is not None:
            return named
        current = next((c for c in mine if c.id == self.current_id), None)
        return current or (mine[0] if mine else None)

    def find(self, name: str) -> Combatant | None:
        folded = name.strip().casefold()
        return next((c for c in self.combatants if c.name.casefold() == folded), None)

    def copies_of(self, character_id: int) -> list[Combatant]:
        """The combatants that fight from this sheet (Goblin 1, Goblin 2...), in fight order:
        in a fight a sheet is hit through one of them, never as the sheet itself."""
        return [c for c in self.order() if c.character_id == character_id]

    def may_attack(
        self, attacker_id: int | None, rules: TurnRules, *, by_gm: bool = False, name: str = ""
    ) -> MayAttack:
        """Whether the combatant `attacker_id` (None: the attacker is not in this fight, `name`
        says who) may attack now, and what the attack uses up.

        A GM always may (GMs act for the NPCs, and settle the table's exceptions). A player's
        combatant attacks in its own turn, up to the table's number of attacks; beyond that,
        or in another's turn, only with a reaction a GM granted (or where the table allows
        out-of-turn attacks). Defences, checks and rolls are never asked about: never limited.
        """
        if self.ended:
            return MayAttack.refuse(FIGHT_OVER)
        if by_gm:
            return MayAttack.allow(Use.FREE)
        attacker = self.member(attacker_id)
        if attacker is None:
            return MayAttack.refuse(NOT_IN_FIGHT, name=name)
        current = self.current()
        if current is not None and current.id == attacker.id:
            limit = rules.attacks_per_turn
            if limit is None or attacker.attacks < limit:
                return MayAttack.allow(Use.TURN)
            if attacker.reaction:
                return MayAttack.allow(Use.REACTION)
            return MayAttack.refuse(
                TURN_USED, name=attacker.name, count=attacker.attacks, limit=limit
            )
        if attacker.reaction:
            return MayAttack.allow(Use.REACTION)
        if rules.out_of_turn:
            return MayAttack.allow(Use.FREE)
        if current is None:
            return MayAttack.refuse(NOT_BEGUN, name=attacker.name)
        return MayAttack.refuse(NOT_YOUR_TURN, name=attacker.name, current=current.name)

    def attacked(self, attacker_id: int, uses: Use) -> Fight:
        """The fight after an allowed attack of `attacker_id`: one more attack counted, and
        the reaction gone if it used it (what storage then writes)."""
        combatants = tuple(
            replace(c, attacks=c.attacks + 1, reaction=c.reaction and uses != Use.REACTION)
            if c.id == attacker_id
            else c
            for c in self.combatants
        )
        return replace(self, combatants=combatants)


@dataclass(frozen=True, slots=True)
class NextTurn:
    """Whose turn comes next, in which round, and who was passed over as down."""

    combatant: Combatant
    round: int
    new_round: bool
    skipped: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TurnChange:
    """What /fight next did: the fight after it, and the effects that ran out."""

    fight: Fight
    ended_effects: tuple[tuple[str, str], ...]
    """(combatant name, effect name) of each effect that ended with the turn."""
    new_round: bool
    skipped: tuple[str, ...] = ()
    """The combatants passed over because they are down."""


@dataclass(frozen=True, slots=True)
class AttackClaim:
    """What a control that attacks was made for: the fight's step and the attacker's attack
    count then. Storage takes the attack only while both still hold (a compare-and-set), so a
    second pick of the same menu, a double tap or a press after a restart is refused."""

    step: int
    attacks: int


__all__ = [
    "AttackClaim",
    "Combatant",
    "Fight",
    "Gms",
    "MayAttack",
    "NextTurn",
    "TurnChange",
    "TurnRules",
    "Use",
]
