"""Fights: a part of `RuleStore` (storage/rules.py), kept in its own module.

Same rules as the rest of the store: every operation is one of the backend's transactions, and
a write's is one no other write of the guild interleaves with, so a read-modify-write (advance
the turn, apply damage) cannot interleave with another, in this process or another. Every
query is scoped to its guild; a fight's id from another guild finds nothing. The rules math
(turn order, pools, armour) comes from `wire`, so nothing here decides a number. A
combatant's health changes in storage/rules_health.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from storage.backend import Transaction
from storage.errors import Conflict, InvalidValue, NameTaken, NotFound, PermissionDenied
from storage.models import (
    AttackTaken,
    Campaign,
    Combatant,
    Fight,
    NewCombatant,
    Press,
    Shot,
    TurnChange,
    require_change,
    require_condition,
)
from storage.rows import character_from_row
from storage.rules_common import first_row
from storage.validation import clean_name
from wire import limits
from wire.conditions import (
    MAX_CONDITIONS,
    Borne,
    Effect,
    RollFor,
    Target,
    Timing,
    TurnEvent,
    check_condition,
    condition_modifiers,
    count_down,
)
from wire.dice import Die, DieSource
from wire.fight import FIGHT_OVER, PRESSED_ONCE, USED_ONCE, AttackClaim
from wire.health import (
    Health,
)
from wire.i18n import N_
from wire.initiative import Initiative
from wire.sheet import Character

if TYPE_CHECKING:
    from storage.rules_needs import FightsNeeds as _Needs
else:
    _Needs = object


MAX_COMBATANTS = 50
MAX_EFFECTS_PER_COMBATANT = MAX_CONDITIONS
FIGHT_GONE = FIGHT_OVER


def _combatant(
    row: Sequence[Any], sheet: Character | None, effects: tuple[Effect, ...]
) -> Combatant:
    on_initiative = condition_modifiers(effects, RollFor(Target.INITIATIVE))
    initiative = Initiative(
        Die(row[6], DieSource(row[7])), row[8], row[9], sum(m.value for m in on_initiative)
    )
    if sheet is not None and not row[5]:
        health, armour = sheet.health(), sheet.armour  # a player character: its sheet's
    else:
        hp, thp, wp = row[11], row[12], row[13]
        health = Health(hp - row[15], hp, thp - row[16], thp, wp - row[17], wp)
        armour = row[14]
    return Combatant(
        id=row[0],
        fight_id=row[1],
        name=row[2],
        character_id=row[3],
        controller_id=row[4],
        is_npc=bool(row[5]),
        initiative=initiative,
        position=row[10],
        health=health,
        armour=armour,
        dealt=row[18],
        taken=row[19],
        effects=effects,
        portrait=row[20],
        attacks=row[21],
        reaction=bool(row[22]),
    )


class RuleFights(_Needs):
    """The fight and health methods of `RuleStore` (see storage/rules.py for the contract)."""

    # ---- reading -------------------------------------------------------------------------
    async def _load_fight(self, tx: Transaction, guild_id: int, fight_id: int) -> Fight | None:
        this = {"fight_id": fight_id, "guild_id": guild_id}
        rows = await tx.fetch("fight_by_id", this)
        if not rows:
            return None
        f = rows[0]
        members = await tx.fetch("fight_combatants", {"fight_id": fight_id})
        sheets: dict[int, Character] = {}
        if any(not m[5] and m[3] is not None for m in members):
            for row in await tx.fetch("fight_sheets", this):
                sheet = character_from_row(row)
                sheets[sheet.id] = sheet
        effects: dict[int, list[Effect]] = {m[0]: [] for m in members}
        if members:
            for row in await tx.fetch("fight_effects", {"fight_id": fight_id}):
                effects[row[0]].append(_effect(row))
        combatants = tuple(
            _combatant(m, sheets.get(m[3]) if m[3] is not None else None, tuple(effects[m[0]]))
            for m in members
        )
        return Fight(
            id=f[0],
            guild_id=f[1],
            campaign_id=f[2],
            channel_id=f[3],
            name=f[4],
            round=f[5],
            current_id=f[6],
            step=f[7],
            combatants=combatants,
            tracker_message_id=f[8],
            ended=bool(f[9]),
        )

    async def _running(self, tx: Transaction, guild_id: int, fight_id: int) -> Fight:
        fight = await self._load_fight(tx, guild_id, fight_id)
        if fight is None or fight.ended:
            raise NotFound(FIGHT_GONE)
        return fight

    async def running_fight(self, guild_id: int, channel_id: int) -> Fight | None:
        """The channel's running fight with its combatants, health and effects, if any.

        Whether there is one is a cached read (the fights table moves the read cache's counter
        when a fight starts or ends, in any process): almost every roll asks, in a channel with
        no fight, and then it costs no transaction. A fight found is loaded in one, and asked
        for once more there should the cache have named one that ended meanwhile."""
        where = {"guild_id": guild_id, "channel_id": channel_id}
        rows = await self.backend.query("running_fight_of_channel", where, cached=True)
        if not rows:
            return None
        async with self._read() as tx:
            fight = await self._load_fight(tx, guild_id, rows[0][0])
            if fight is not None and not fight.ended:
                return fight
            rows = await tx.fetch("running_fight_of_channel", where)
            return await self._load_fight(tx, guild_id, rows[0][0]) if rows else None

    async def get_fight(self, guild_id: int, fight_id: int) -> Fight | None:
        """By id (a button names it), running or ended; None in another guild."""
        async with self._read() as tx:
            return await self._load_fight(tx, guild_id, fight_id)

    # ---- the fight's life ----------------------------------------------------------------
    async def start_fight(
        self, guild_id: int, campaign_id: int, channel_id: int, actor_id: int, name: str
    ) -> Fight:
        """A new fight in the channel; GMs only. Conflict if one is running there already."""
        name = clean_name(name, "fight")
        where = {"guild_id": guild_id, "channel_id": channel_id}
        async with self._write(guild_id) as tx:
            campaign: Campaign = await self._campaign_by_id(tx, guild_id, campaign_id)
            if not campaign.is_gm(actor_id):
                raise campaign.gm_only(N_("start a fight"))
            running = await tx.fetch("running_fight_of_channel", where)
            if running:
                raise Conflict(
                    "A fight is already running in this channel ({value}). /fight show shows "
                    "it; /fight end ends it.",
                    value=running[0][1],
                )
            [(fight_id,)] = await tx.fetch(
                "insert_fight", {**where, "campaign_id": campaign_id, "name": name}
            )
            return await self._running(tx, guild_id, fight_id)

    async def add_combatants(
        self, guild_id: int, fight_id: int, actor_id: int, new: Sequence[NewCombatant]
    ) -> Fight:
        """All or none: NPCs by GMs, a player character by its player (or a GM). NameTaken if
        a name (or a player character) is in the fight already; at most 50 combatants."""
        async with self._write(guild_id) as tx:
            fight = await self._running(tx, guild_id, fight_id)
            campaign: Campaign = await self._campaign_by_id(tx, guild_id, fight.campaign_id)
            for entry in new:
                require_change(
                    campaign,
                    actor_id,
                    name=entry.name,
                    player_id=entry.controller_id,
                    is_npc=entry.is_npc,
                    npc_action=N_("add NPCs to a fight"),
                )
                limits.SURPRISE.check(entry.initiative.surprise, N_("The surprise penalty"))
            if len(fight.combatants) + len(new) > MAX_COMBATANTS:
                raise InvalidValue(
                    "A fight holds at most {most} combatants; this one has {count}.",
                    most=MAX_COMBATANTS,
                    count=len(fight.combatants),
                )
            taken = {c.name.casefold() for c in fight.combatants}
            joined = {c.character_id for c in fight.combatants if not c.is_npc}
            position = max((c.position for c in fight.combatants), default=0)
            for entry in new:
                if entry.name.casefold() in taken:
                    raise NameTaken("{name} is already in this fight.", name=entry.name)
                if not entry.is_npc and entry.character_id in joined:
                    raise NameTaken("{name} is already in this fight.", name=entry.name)
                taken.add(entry.name.casefold())
                position += 1
                (hp, thp, wp) = entry.maxima
                await tx.execute(
                    "insert_combatant",
                    {
                        "fight_id": fight_id,
                        "name": entry.name,
                        "name_key": entry.name.casefold(),
                        "character_id": entry.character_id,
                        "controller_id": _id(entry.controller_id),
                        "is_npc": int(entry.is_npc),
                        "die": entry.initiative.die.face,
                        "die_source": str(entry.initiative.die.source),
                        "reaction": entry.initiative.reaction,
                        "surprise": entry.initiative.surprise,
                        "position": position,
                        "hp_max": hp,
                        "thp_max": thp,
                        "wp_max": wp,
                        "armour": entry.armour,
                    },
                )
                if entry.character_id is not None:  # its sheet's conditions come with it
                    await tx.execute(
                        "sheet_conditions_join_fight",
                        {"fight_id": fight_id, "name_key": entry.name.casefold()},
                    )
            return await self._running(tx, guild_id, fight_id)

    async def remove_combatant(
        self, guild_id: int, fight_id: int, actor_id: int, combatant_id: int
    ) -> Fight:
        """GMs, or the player of a player character; its turn passes to the next."""
        async with self._write(guild_id) as tx:
            fight = await self._running(tx, guild_id, fight_id)
            campaign: Campaign = await self._campaign_by_id(tx, guild_id, fight.campaign_id)
            gone = next((c for c in fight.combatants if c.id == combatant_id), None)
            if gone is None:
                raise NotFound("That combatant is not in this fight (any more).")
            if not gone.may_act(actor_id, campaign):
                raise campaign.gm_only(N_("remove {name} from the fight"), name=gone.name)
            if fight.current_id == combatant_id:
                heir = fight.turn_after_leaving(combatant_id)
                await tx.execute(
                    "pass_turn", {"current_id": heir.id if heir else None, "fight_id": fight_id}
                )
                await tx.execute("reset_turn_state", {"fight_id": fight_id})
            await tx.execute("remove_combatant", {"combatant_id": combatant_id})
            return await self._running(tx, guild_id, fight_id)

    async def advance_turn(
        self,
        guild_id: int,
        fight_id: int,
        actor_id: int,
        expected_step: int | None = None,
    ) -> TurnChange:
        """End the current turn: the next in the order acts, a new round after the last.

        Only the current combatant's player or a GM; the first turn, GMs only. The conditions
        count down as wire.conditions says (at the end or the start of their bearer's turn).
        `expected_step` (a Next button's) makes it a compare-and-set: of two presses at once,
        one advances and the other gets Conflict.
        """
        async with self._write(guild_id) as tx:
            fight = await self._running(tx, guild_id, fight_id)
            if expected_step is not None and fight.step != expected_step:
                raise Conflict(
                    "That button is from an earlier turn: the turn has moved on already. "
                    "The tracker shows whose turn it is now."
                )
            campaign: Campaign = await self._campaign_by_id(tx, guild_id, fight.campaign_id)
            order = fight.order()
            if not order:
                raise InvalidValue("Nobody is in this fight yet: /fight join or /fight add.")
            current = fight.current()
            if current is None:
                if not campaign.is_gm(actor_id):
                    raise campaign.gm_only(N_("begin the first turn"))
            else:
                if not current.may_act(actor_id, campaign):
                    raise PermissionDenied(
                        "It is {name}'s turn: only their player or a GM ends it.", name=current.name
                    )
            upcoming = fight.next_turn()
            ended = await self._count_down(tx, fight, current, upcoming.combatant)
            updated = await tx.fetch(
                "advance_turn",
                {
                    "round": upcoming.round,
                    "current_id": upcoming.combatant.id,
                    "fight_id": fight_id,
                    "step": fight.step,
                },
            )
            if not updated:  # cannot happen under the write lock; kept as the guarantee
                raise Conflict("The turn moved on meanwhile. Try again.")
            await tx.execute("reset_turn_state", {"fight_id": fight_id})
            after = await self._running(tx, guild_id, fight_id)
            return TurnChange(after, tuple(ended), upcoming.new_round, upcoming.skipped)

    async def _count_down(
        self, tx: Transaction, fight: Fight, ending: Combatant | None, starting: Combatant
    ) -> list[tuple[str, str]]:
        """The conditions as the turn passes from `ending` to `starting` (wire.conditions
        decides which count down and which end); (bearer, condition) of each that ended."""
        names = {c.id: c.name for c in fight.combatants}
        event = TurnEvent(None if ending is None else ending.id, starting.id, frozenset(names))
        borne = [Borne(c.id, e) for c in fight.combatants for e in c.effects]
        countdown = count_down(borne, event)
        for gone in countdown.ended:
            await self._end_effect(tx, "delete_effect", {"effect_id": gone.effect.id})
        for counted in countdown.counted:
            await tx.execute("count_down_effect", {"effect_id": counted.effect.id})
        return [(names[gone.bearer_id], gone.effect.name) for gone in countdown.ended]

    async def _end_effect(self, tx: Transaction, statement: str, params: dict[str, int]) -> None:
        """A condition ends (run out or cured): gone from its bearer, marked ended in the
        condition log that a session's recap reads."""
        # A player character's condition that came from its sheet ends there too.
        await tx.execute("end_sheet_condition_of_effect", {"effect_id": params["effect_id"]})
        await tx.execute(statement, params)
        await tx.execute("condition_log_ended", {"effect_id": params["effect_id"]})

    async def _bearer(
        self, tx: Transaction, guild_id: int, fight_id: int, actor_id: int, combatant_id: int
    ) -> tuple[Fight, Campaign, Combatant]:
        """The running fight, its campaign, and the combatant whose conditions `actor_id`
        changes, once they may: the sheet's rule (storage.models.condition_refusal), so a
        player puts one on or takes one off only their own character's combatant, and only
        where the table lets players (`Campaign.players_conditions`); an NPC's, GMs only."""
        fight = await self._running(tx, guild_id, fight_id)
        campaign: Campaign = await self._campaign_by_id(tx, guild_id, fight.campaign_id)
        target = next((c for c in fight.combatants if c.id == combatant_id), None)
        if target is None:
            raise NotFound("That combatant is not in this fight (any more).")
        require_condition(campaign, actor_id, target.name, target.controller_id, target.is_npc)
        return fight, campaign, target

    async def add_effect(
        self,
        guild_id: int,
        fight_id: int,
        actor_id: int,
        combatant_id: int,
        name: str,
        rounds: int | None,
        *,
        modifier: int = 0,
        applies_to: Target = Target.ALL,
        stat: str | None = None,
        timing: Timing = Timing.END,
        until_id: int | None = None,
        hidden: bool = False,
    ) -> Fight:
        """A condition on a combatant (wire/conditions.py says what each field means): its
        modifier to the rolls it applies to, lasting `rounds` of its bearer's turns (None: until
        removed or the fight ends) or until `until_id`'s next turn. Its bearer's player or a
        GM puts it on; only a GM hides one."""
        name = clean_name(name, "effect")
        condition = check_condition(
            Effect(0, name, rounds, modifier, applies_to, stat, timing, until_id, hidden)
        )
        async with self._write(guild_id) as tx:
            fight, campaign, target = await self._bearer(
                tx, guild_id, fight_id, actor_id, combatant_id
            )
            if hidden and not campaign.is_gm(actor_id):
                raise campaign.gm_only(N_("hide a condition"))
            if until_id is not None and all(c.id != until_id for c in fight.combatants):
                raise NotFound("That combatant is not in this fight (any more).")
            if len(target.effects) >= MAX_EFFECTS_PER_COMBATANT:
                raise InvalidValue(
                    "{name} has {most} effects, the limit. End one first.",
                    name=target.name,
                    most=MAX_EFFECTS_PER_COMBATANT,
                )
            row = await first_row(
                tx,
                "insert_effect",
                {
                    "combatant_id": combatant_id,
                    "name": condition.name,
                    "rounds": condition.rounds_left,
                    "modifier": condition.modifier,
                    "applies_to": condition.applies_to.value,
                    "stat": condition.stat,
                    "timing": condition.timing.value,
                    "until_id": condition.until_id,
                    "hidden": int(condition.hidden),
                },
            )
            assert row is not None
            await tx.execute(  # a session's recap names it after it ended (condition_log)
                "condition_log_put_on",
                {
                    "combatant_id": combatant_id,
                    "effect_id": int(row[0]),
                    "name": condition.name,
                    "hidden": int(condition.hidden),
                },
            )
            return await self._running(tx, guild_id, fight_id)

    async def take_attack(
        self,
        guild_id: int,
        fight_id: int,
        actor_id: int,
        attacker_id: int | None,
        *,
        name: str = "",
        claim: AttackClaim | None = None,
        shot: Shot | None = None,
        press: Press | None = None,
    ) -> AttackTaken:
        """Count an attack of the combatant `attacker_id` (None: the attacker is not in the
        fight, `name` says who), if the fight's rules (`Fight.may_attack`) allow it now.

        `claim`: what the control that attacks was made for. The attack is taken only while
        the fight's step and the attacker's count are still those (a compare-and-set in one
        write transaction), so of a double tap, a second pick of the same menu, a second
        client or a press after a restart, exactly one attacks and the rest get Conflict.
        `press`: a saved-roll button's, taken once per turn of the fight (Conflict after).
        `shot`: the weapon's ammunition, checked before anything is counted and spent in this
        same transaction, so an attack refused for either reason costs neither the turn's
        attack nor an arrow.
        """
        async with self._write(guild_id) as tx:
            fight = await self._running(tx, guild_id, fight_id)
            campaign: Campaign = await self._campaign_by_id(tx, guild_id, fight.campaign_id)
            attacker = fight.member(attacker_id)
            if claim is not None and (
                fight.step != claim.step or attacker is None or attacker.attacks != claim.attacks
            ):
                raise Conflict(USED_ONCE)
            loaded = None
            if shot is not None:
                loaded = await self._loaded_ammunition(
                    tx, fight.campaign_id, shot.character_id, shot.weapon
                )
            verdict = fight.may_attack(
                attacker_id, campaign.turn_rules, by_gm=campaign.is_gm(actor_id), name=name
            )
            if not verdict.allowed:
                raise PermissionDenied(verdict.reason, **verdict.values)
            if press is not None:
                await self._take_press(tx, fight, press)
            if attacker is not None and verdict.uses is not None:
                after = fight.attacked(attacker.id, verdict.uses).member(attacker.id)
                assert after is not None
                taken = await tx.fetch(
                    "take_attack",
                    {
                        "combatant_id": attacker.id,
                        "fight_id": fight_id,
                        "attacks": attacker.attacks,
                        "reaction": int(after.reaction),
                    },
                )
                if not taken:  # cannot happen under the write lock; kept as the guarantee
                    raise Conflict(USED_ONCE)
            spent = await self._spend_shot(tx, loaded) if loaded is not None else None
            return AttackTaken(verdict, spent)

    async def _take_press(self, tx: Transaction, fight: Fight, press: Press) -> None:
        """The press's claim on this turn of the fight: Conflict if it has one already (the
        claims go with the fight when it is deleted)."""
        taken = await tx.fetch(
            "take_press",
            {
                "fight_id": fight.id,
                "message_id": press.message_id,
                "saved_id": press.saved_id,
                "step": fight.step,
            },
        )
        if not taken:
            raise Conflict(PRESSED_ONCE)

    async def grant_reaction(
        self, guild_id: int, fight_id: int, actor_id: int, combatant_id: int
    ) -> Fight:
        """GMs only: the combatant may take one action out of turn (or one beyond its turn's
        number), until its next attack that needs it or the turn changes."""
        async with self._write(guild_id) as tx:
            fight = await self._running(tx, guild_id, fight_id)
            campaign: Campaign = await self._campaign_by_id(tx, guild_id, fight.campaign_id)
            if not campaign.is_gm(actor_id):
                raise campaign.gm_only(N_("grant a reaction"))
            if fight.member(combatant_id) is None:
                raise NotFound("That combatant is not in this fight (any more).")
            await tx.execute("grant_reaction", {"combatant_id": combatant_id, "fight_id": fight_id})
            return await self._running(tx, guild_id, fight_id)

    async def remove_effect(
        self, guild_id: int, fight_id: int, actor_id: int, combatant_id: int, name: str
    ) -> tuple[Fight, Effect]:
        """End a condition by hand (the first by that name, case-insensitive): its modifiers
        are gone from the next roll. Who may put it on may take it off; a hidden one, GMs.
        The fight after, and the condition ended."""
        async with self._write(guild_id) as tx:
            _fight, campaign, target = await self._bearer(
                tx, guild_id, fight_id, actor_id, combatant_id
            )
            folded = name.strip().casefold()
            visible = [e for e in target.effects if not e.hidden or campaign.is_gm(actor_id)]
            found = next((e for e in visible if e.name.casefold() == folded), None)
            if found is None:
                raise NotFound(
                    "{name} has no condition {effect}. The tracker lists its conditions.",
                    name=target.name,
                    effect=name,
                )
            await self._end_effect(
                tx, "remove_effect", {"effect_id": found.id, "combatant_id": combatant_id}
            )
            return await self._running(tx, guild_id, fight_id), found

    async def end_fight(self, guild_id: int, fight_id: int, actor_id: int) -> Fight:
        """GMs only; the ended fight, for its summary."""
        async with self._write(guild_id) as tx:
            fight = await self._running(tx, guild_id, fight_id)
            campaign: Campaign = await self._campaign_by_id(tx, guild_id, fight.campaign_id)
            if not campaign.is_gm(actor_id):
                raise campaign.gm_only(N_("end a fight"))
            await tx.execute("end_fight", {"fight_id": fight_id})
            # A sheet's conditions counted in rounds end with the fight; those until removed
            # stay on the sheet (their copies go with the fight).
            await tx.execute("end_sheet_conditions_with_fight", {"fight_id": fight_id})
            await self._reset_after_fight(tx, fight_id)
            ended = await self._load_fight(tx, guild_id, fight_id)
            assert ended is not None
            return ended

    async def set_tracker(self, guild_id: int, fight_id: int, message_id: int | None) -> None:
        """Remember the tracker message the bot keeps editing."""
        async with self._write(guild_id) as tx:
            await tx.execute(
                "set_tracker",
                {"message_id": message_id, "fight_id": fight_id, "guild_id": guild_id},
            )


def _effect(row: Sequence[Any]) -> Effect:
    """A `fight_effects` row (after the bearer's id) as the rules core's condition."""
    return Effect(
        id=row[1],
        name=row[2],
        rounds_left=row[3],
        modifier=row[4],
        applies_to=Target(row[5]),
        stat=row[6],
        timing=Timing(row[7]),
        until_id=row[8],
        hidden=bool(row[9]),
    )


def _id(value: int | None) -> int | None:
    """A user id as a plain int (an `Actor` carries its Manage Server flag along)."""
    return None if value is None else int(value)


__all__ = ["MAX_COMBATANTS", "RuleFights"]
