"""/attack and /defend, and the defence buttons a player-character target presses.

/defend is a defence rolled against an attack made at the table (its total given), with no
button; an attack the bot made waits for the buttons below.

An attack on a player character waits for that player: the bot posts the attack with Parry /
Dodge (and Block with a shield) buttons. The attack waits in the database, not in memory, and the
buttons are `DynamicItem`s whose custom id names it, so they keep working after a restart; a
press after the time limit turns the message into a note that the attack expired.

A press settles the attack in the database first (the defence logged, the attack marked, in one
transaction) and updates the message after; so the message is the part that can fail. If it
does, the message is edited through its channel instead, and whatever was left behind, a later
press on a settled attack is refused and takes the buttons away. The expiry sweep closes the
attacks nobody answered, all of them, and one that fails never stops it.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Sequence
from dataclasses import replace
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from cogs.counters import spend_ammunition, tell_ammunition
from cogs.quickplay.panel import offer_opponents
from cogs.utils import autocomplete as ac
from cogs.utils.conditions import bearer, damage_field, effects_of, roller_conditions
from cogs.utils.discord_limits import EMBED_TITLE_MAX
from cogs.utils.embeds import FAILURE, NEUTRAL, combat_embed, defence_name, modifiers_field
from cogs.utils.errors import UserError
from cogs.utils.language import adopt, for_table, table_language
from cogs.utils.options import (
    ATTACK_DESCRIPTIONS,
    DEFENCE_CHOICES,
    DEFENCE_DESCRIPTIONS,
    ROLL_DESCRIPTIONS,
    Attr,
    Base,
    DieFace,
    Mod,
    Name,
    Skill,
    Target,
)
from cogs.utils.replay import CLAIM_KEY, PRESS_KEY, is_replay
from cogs.utils.rolling import (
    Roller,
    actor_of,
    add_missing_note,
    attack_line,
    channel_fight,
    deliver,
    die_for,
    load_roller,
    npc_secret,
    record_for,
    table_embeds,
)
from cogs.utils.text import inert
from cogs.utils.tracker import health_line, refresh_tracker
from storage.errors import Busy, InvalidValue, NotFound
from storage.models import (
    Blow,
    Campaign,
    Combatant,
    Fight,
    HealthEntry,
    HealthTarget,
    PendingAction,
    PendingAttack,
    Press,
    RollState,
    SettledAttack,
    Shot,
    StoredRoll,
    require_change,
)
from wire import i18n, limits, text
from wire.check import Modifier, Roll, stat_line
from wire.combat import CombatResult, Defence, resolve_attack, resolve_defence
from wire.conditions import (
    Effect,
    RollFor,
    best_defence_under,
    damage_modifiers,
    modified_damage,
    with_conditions,
)
from wire.conditions import Target as ConditionTarget
from wire.degrees import Degrees
from wire.dice import Die, DieSource
from wire.fight import AttackClaim
from wire.gear import Counter
from wire.health import DamageKind
from wire.i18n import N_, tr
from wire.odds import DamageRole
from wire.sheet import Character, Weapon, available_defences, defence_modifiers
from wire.textcheck import clip

if TYPE_CHECKING:
    from bot import WireBot

log = logging.getLogger("wire.combat")

DEFENCE_WINDOW = timedelta(minutes=15)
"""How long a player-character target has to press a defence button."""
SQLITE_MAX_INTEGER = 2**63 - 1
UNRESOLVED = Degrees(success=True, raw=0, capped=0)
"""Degrees logged with an attack in the waiting state; its defence roll has the real ones."""
ALREADY_SETTLED = N_("This attack was already resolved or has expired.")
ALREADY_RESOLVED = N_("This attack was already resolved.")
NOT_THIS_ATTACK = N_("This button does not belong to this attack.")
SWEEP_BATCH = 50
"""Expired attacks read at a time; each is then settled in a transaction of its own, so rolls
get the store between two of them."""
SWEEP_MAX = 500
SWEEP_SECONDS = 30.0
"""A sweep stops after SWEEP_MAX attacks or this long, whichever comes first; the next one (a
minute later) goes on where it stopped."""


def stored_roll(roll: Roll) -> StoredRoll:
    return StoredRoll(
        roll.die.face, str(roll.die.source), tuple((m.label, m.value) for m in roll.modifiers)
    )


def roll_of(stored: StoredRoll) -> Roll:
    return Roll(
        Die(stored.face, DieSource(stored.source)),
        tuple(Modifier(label, value) for label, value in stored.modifiers),
    )


def waiting_embed(payload: PendingAttack, expires: int) -> discord.Embed:
    """The attack as posted while it waits for the target's defence."""
    attack = roll_of(payload.attack)
    attacker, target = inert(payload.attacker), inert(payload.target)
    embed = discord.Embed(
        title=clip(
            tr(
                "{attacker}: Attack with {weapon} on {target}",
                attacker=attacker,
                weapon=inert(tr(payload.weapon)),
                target=target,
            ),
            EMBED_TITLE_MAX,
        ),
        description=tr(
            "**{target}, choose a defence!** Attack total **{total}**, {base} base damage.\n"
            "Only {target}'s player or a GM can choose. Expires <t:{expires}:R>.",
            target=target,
            total=attack.total,
            base=payload.base,
            expires=expires,
        ),
        colour=NEUTRAL,
    )
    if not payload.attacker_secret:
        embed.add_field(name=tr("Die"), value=text.die_text(attack.die))
        embed.add_field(name=tr("Modifiers"), value=modifiers_field(attack))
    embed.add_field(name=tr("Total"), value=f"**{attack.total}**")
    return embed


DEFENCE_ID = re.compile(r"wire:def:(?P<pending>[0-9]+):(?P<defence>parry|block|dodge)")


class DefenceButton(discord.ui.DynamicItem[discord.ui.Button], template=DEFENCE_ID):
    """A defence choice for a waiting attack; its custom id is all the state it needs."""

    pattern = DEFENCE_ID
    """The bot's stale-button check reads this (see WireBot.add_dynamic_items)."""

    def __init__(self, pending_id: int, defence: Defence) -> None:
        super().__init__(
            discord.ui.Button(
                label=defence_name(defence),
                style=discord.ButtonStyle.primary,
                custom_id=f"wire:def:{pending_id}:{defence.value}",
            )
        )
        self.pending_id = pending_id
        self.defence = defence

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any, /
    ) -> DefenceButton:
        return cls(int(match["pending"]), Defence(match["defence"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: WireBot = interaction.client  # type: ignore[assignment]
        await bot.tree.run(interaction, lambda: self._press(bot, interaction))

    async def _press(self, bot: WireBot, interaction: discord.Interaction) -> None:
        cog: Combat | None = bot.get_cog("Combat")  # type: ignore[assignment]
        if cog is None:
            raise UserError(tr("The bot is restarting. Press the button again in a minute."))
        await cog.resolve_defence(interaction, self.pending_id, self.defence)


def defence_view(pending_id: int, target: Character) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for defence in available_defences(target):
        view.add_item(DefenceButton(pending_id, defence))
    return view


def target_checks(
    roller: Roller, defender: Character, chosen: Defence | None, private: bool
) -> None:
    """Before anything is spent or rolled: a GM alone picks an NPC's defence; a player
    character's player picks theirs, in public."""
    if defender.is_npc:
        if chosen is not None and not roller.campaign.is_gm(roller.user_id):
            raise UserError(tr("Only a GM chooses an NPC's defence; leave defence empty."))
        return
    if chosen is not None:
        raise UserError(
            tr(
                "{name}'s player chooses the defence with the buttons.",
                name=inert(defender.name),
            )
        )
    if private:
        raise UserError(
            tr(
                "An attack on a player character is public, so its player can defend. "
                "Leave private off."
            )
        )


class Combat(commands.Cog):
    def __init__(self, bot: WireBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(DefenceButton)
        if self.bot.background_tasks:
            self.expire_attacks.start()

    async def cog_unload(self) -> None:
        self.expire_attacks.cancel()
        self.bot.remove_dynamic_items(DefenceButton)

    # ---- /attack ---------------------------------------------------------------------------
    @app_commands.command(
        name="attack", description="Attack: d20 + attribute + skill against the defender's total"
    )
    @app_commands.guild_only()
    @app_commands.rename(strength="str")
    @app_commands.describe(
        **ATTACK_DESCRIPTIONS,
        vs="The defender's total",
        weapon="Attack with a weapon from your sheet instead of str, skill and base",
        target="Who you attack: a combatant here or a character; an NPC defends at once, a player "
        "gets buttons",
        defence="GMs: the defence the NPC target uses (default: its best)",
        **ROLL_DESCRIPTIONS,
    )
    @app_commands.choices(defence=DEFENCE_CHOICES)
    @app_commands.autocomplete(
        weapon=ac.weapon_names, target=ac.combatants_or_characters, npc=ac.npc_names
    )
    async def attack(
        self,
        interaction: discord.Interaction,
        strength: Attr | None = None,
        skill: Skill | None = None,
        base: Base | None = None,
        vs: Target | None = None,
        weapon: Name | None = None,
        target: Name | None = None,
        defence: app_commands.Choice[str] | None = None,
        mod: Mod = 0,
        roll: DieFace | None = None,
        take10: bool = False,
        private: bool = False,
        npc: Name | None = None,
    ) -> None:
        roller = await load_roller(self.bot, interaction, npc)
        line = attack_line(roller, strength, skill, base, weapon, mod)
        # A plain attack only: the pick from the opponents rolls a fresh die in public, so an
        # attack with its own die, a take 10, a defence or private would lose them there.
        plain = roll is None and not take10 and not private and defence is None
        # The channel's fight, read once for the whole attack (its offer, target, turn and the
        # attacker's conditions, which count on an attack against a total given too).
        fight = await channel_fight(self.bot, roller)
        if vs is None and target is None and plain:
            numbers = (strength, skill, base)
            if await offer_opponents(interaction, roller, fight, line, numbers, mod):
                return
        if (vs is None) == (target is None):
            raise UserError(tr("Give the defender's total with vs, or a character with target."))
        mine = effects_of(fight, roller)
        mods, kind = with_conditions(line.mods, mine, RollFor.attack()), line.kind
        weapon_name = line.weapon.name if line.weapon else None
        chosen = Defence(defence.value) if defence else None
        if target is None:
            if chosen is not None:
                raise UserError(tr("A defence goes with a target character, not with vs."))
            die = die_for(self.bot, roll, take10)
            base_damage = modified_damage(line.base, mine, ())
            shot = await spend_ammunition(self.bot, roller, line.weapon)
            result = resolve_attack(mods, base_damage, die, vs=vs)
            await self._send_result(
                interaction,
                roller,
                result,
                weapon_name,
                None,
                private,
                damage_mods=damage_modifiers(mine, ()),
            )
            await tell_ammunition(interaction, shot)
            return
        defender, blow = await self._defender(roller, fight, target, kind)
        theirs = bearer(fight, blow.combatant_id) if blow is not None else defender.conditions
        base_damage = modified_damage(line.base, mine, theirs)
        damage_mods = damage_modifiers(mine, theirs)
        if blow is not None and is_replay(interaction):
            raise UserError(
                tr(
                    "Roll again does not repeat an attack in a fight: its damage would count "
                    "twice. Attack with /attack when it is your turn."
                )
            )
        target_checks(roller, defender, chosen, private)
        if blow is not None:  # the arrow is checked and spent with the turn, or neither
            shot = await self._take_turn(interaction, roller, blow, line.weapon)
        else:
            shot = await spend_ammunition(self.bot, roller, line.weapon)
        die = die_for(self.bot, roll, take10)  # drawn once the attack is allowed
        if defender.is_npc:
            await self._attack_npc(
                interaction,
                roller,
                mods,
                base_damage,
                die,
                defender,
                chosen,
                weapon_name,
                private,
                blow,
                theirs,
                damage_mods,
            )
        else:
            await self._post_waiting(
                interaction, roller, Roll(die, mods), base_damage, defender, weapon_name, blow
            )
        await tell_ammunition(interaction, shot)

    @app_commands.command(
        name="defend", description="Defend against an attack: how much of its damage gets through"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        vs="The attacker's total",
        **DEFENCE_DESCRIPTIONS,
        defence="Defend from your sheet with this defence instead of str and skill",
        **ROLL_DESCRIPTIONS,
    )
    @app_commands.rename(strength="str")
    @app_commands.choices(defence=DEFENCE_CHOICES)
    @app_commands.autocomplete(npc=ac.npc_names)
    async def defend(
        self,
        interaction: discord.Interaction,
        vs: Target,
        base: Base,
        strength: Attr | None = None,
        skill: Skill | None = None,
        defence: app_commands.Choice[str] | None = None,
        mod: Mod = 0,
        roll: DieFace | None = None,
        take10: bool = False,
        private: bool = False,
        npc: Name | None = None,
    ) -> None:
        roller = await load_roller(self.bot, interaction, npc)
        chosen = Defence(defence.value) if defence else None
        if chosen is not None:
            if strength is not None or skill is not None:
                raise UserError(tr("Give defence (from your sheet) or str and skill, not both."))
            mods = defence_modifiers(roller.sheet(), chosen)
            if mod:
                mods += (Modifier(tr("Modifier"), limits.MODIFIER.check(mod)),)
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
            RollFor.defence(chosen.value) if chosen else RollFor(ConditionTarget.DEFENCE),
        )
        die = die_for(self.bot, roll, take10)
        result = resolve_defence(mods, limits.BASE.check(base), die, vs=vs, defence=chosen)
        secret = npc_secret(roller.campaign, roller.character, hidden=private)
        embed, whole = table_embeds(
            roller,
            lambda reveal: combat_embed(roller.name, result, secret=secret and not reveal),
            [(mods, secret)],
        )
        record = record_for(
            interaction,
            roller,
            kind="defend",
            inputs={
                "vs": vs,
                "base": base,
                "str": strength,
                "skill": skill,
                "defence": chosen and chosen.value,
                "mod": mod,
            },
            die=die,
            total=result.total,
            target=vs,
            degrees=result.degrees,
            damage=result.damage.amount,
            hidden=private,
        )
        await deliver(
            self.bot, interaction, roller, embed, record, what=N_("defence"), gm_embed=whole
        )

    async def _defender(
        self, roller: Roller, fight: Fight | None, target: str, kind: DamageKind
    ) -> tuple[Character, Blow | None]:
        """The target's sheet, and where the damage goes if it is in this channel's fight.

        A combatant keeps its own name ("Goblin 2") over its sheet's; its health is its own.
        """
        store = self.bot.store
        member = fight.find(target) if fight is not None else None
        if fight is None or member is None:
            sheet = await store.get_character(roller.guild_id, roller.campaign.id, target)
            member = copy_to_hit(fight, sheet) if fight is not None else None
            if member is None:
                return sheet, None
        if member.character_id is None:
            raise UserError(
                tr(
                    "{name}'s sheet was deleted, so nothing can defend for it. "
                    "Apply damage by hand with /health damage.",
                    name=inert(member.name),
                )
            )
        if member.health.down:  # never silently deeper below 0, nor counted in the summary
            raise UserError(
                tr(
                    "{name} is down already, so the attack is not rolled. To hurt them further "
                    "anyway, a GM uses `/health damage`.",
                    name=inert(member.name),
                )
            )
        sheet = await store.get_character_by_id(
            roller.guild_id, roller.campaign.id, member.character_id
        )
        character_id = roller.character.id if roller.character is not None else None
        attacker = fight.attacker(character_id, roller.name)
        blow = Blow(fight.id, member.id, kind.value, attacker.id if attacker else None)
        return replace(sheet, name=member.name), blow

    async def _take_turn(
        self, interaction: discord.Interaction, roller: Roller, blow: Blow, weapon: Weapon | None
    ) -> tuple[Counter, Counter] | None:
        """Count the attack in the fight, if its rules allow it now (wire.fight.may_attack):
        else refused with why. A pick from a target menu names what it was made for (its
        claim), so the menu attacks once, whatever presses it again or when; a saved roll's
        button names its press, so it attacks once per turn. The weapon's ammunition is
        spent in the same transaction: (before, after), or None for a weapon without."""
        claim = interaction.extras.get(CLAIM_KEY)
        press = interaction.extras.get(PRESS_KEY)
        shot = None
        if weapon is not None and roller.character is not None:
            shot = Shot(roller.character.id, weapon.name)
        taken = await self.bot.store.take_attack(
            roller.guild_id,
            blow.fight_id,
            roller.user_id,
            blow.attacker_id,
            name=roller.name,
            claim=claim if isinstance(claim, AttackClaim) else None,
            shot=shot,
            press=press if isinstance(press, Press) else None,
        )
        return taken.shot

    async def _apply(
        self,
        interaction: discord.Interaction,
        campaign: Campaign,
        attacker: int,
        blow: Blow,
        damage: int,
    ) -> HealthEntry | None:
        """The attack's damage on its combatant, after armour; None when nothing got through
        or the combatant left the fight meanwhile. The caller answers the interaction, then
        refreshes the tracker (an edit Discord holds back must not hold back the answer)."""
        if damage <= 0:
            return None
        try:
            entry = await self.bot.store.change_health(
                campaign.guild_id,
                campaign.id,
                attacker,
                HealthTarget(combatant_id=blow.combatant_id),
                "damage",
                damage,
                kind=DamageKind(blow.kind),
                armour=True,
                by_roll=True,
                attacker_id=blow.attacker_id,
                interaction_id=interaction.id,
            )
        except NotFound:
            return None
        return entry

    async def _attack_npc(
        self,
        interaction: discord.Interaction,
        roller: Roller,
        mods: tuple[Modifier, ...],
        base: int,
        die: Die,
        defender: Character,
        chosen: Defence | None,
        weapon: str | None,
        private: bool,
        blow: Blow | None = None,
        conditions: tuple[Effect, ...] = (),
        damage_mods: tuple[Modifier, ...] = (),
    ) -> None:
        """`conditions`: the defending combatant's, on its defence; `damage_mods`: the
        conditions that changed the base damage, named in the result."""
        used = chosen or best_defence_under(defender, conditions)
        defence_mods = with_conditions(
            defence_modifiers(defender, used), conditions, RollFor.defence(used.value)
        )
        take10 = roller.campaign.npc_take10
        defence_roll = Roll(die_for(self.bot, None, take10), defence_mods)
        result = resolve_attack(mods, base, die, defender=defence_roll, defence=used)
        health = None
        if blow is not None:
            health = await self._apply(
                interaction, roller.campaign, roller.user_id, blow, result.damage.amount
            )
        await self._send_result(
            interaction,
            roller,
            result,
            weapon,
            defender,
            private,
            health,
            applied=blow is not None,
            damage_mods=damage_mods,
        )
        if blow is not None and health is not None:
            await refresh_tracker(self.bot, roller.guild_id, blow.fight_id, roller.campaign)

    async def _send_result(
        self,
        interaction: discord.Interaction,
        roller: Roller,
        result: CombatResult,
        weapon: str | None,
        defender: Character | None,
        private: bool,
        health: HealthEntry | None = None,
        applied: bool = False,
        damage_mods: tuple[Modifier, ...] = (),
    ) -> None:
        """`applied`: the attack was on a combatant of a fight, its damage counted there, so
        it gets no Roll again (a second press would be a free attack). `damage_mods`: the
        conditions in the base damage ("damage dealt", "damage taken"), one line each."""
        secret = npc_secret(roller.campaign, roller.character, hidden=private)
        opponent_secret = npc_secret(roller.campaign, defender, hidden=private)
        gm = roller.campaign.is_gm(roller.user_id)

        def build(reveal: bool) -> discord.Embed:
            embed = combat_embed(
                roller.name,
                result,
                weapon=weapon,
                opponent=defender.name if defender else None,
                secret=secret and not reveal,
                opponent_secret=opponent_secret and not reveal,
            )
            if damage_mods:
                embed.add_field(
                    name=tr("Base damage"),
                    value=damage_field(result.damage.base, damage_mods),
                    inline=False,
                )
            if health is not None:
                numbers = roller.campaign.show_npc_health or (gm and (private or reveal))
                embed.add_field(
                    name=tr("Health"), value=health_line(health, numbers=numbers), inline=False
                )
            return embed

        theirs = result.opponent.modifiers if result.opponent is not None else ()
        embed, whole = table_embeds(
            roller, build, [(result.roll.modifiers, secret), (theirs, opponent_secret)]
        )
        inputs: dict[str, Any] = {"base": result.damage.base, "vs": result.opponent_total}
        if weapon:
            inputs["weapon"] = weapon
        if defender is not None:
            inputs["target"] = defender.name
            inputs["defence"] = result.defence.value if result.defence else None
            inputs["defence_die"] = result.opponent.die.face if result.opponent else None
        record = record_for(
            interaction,
            roller,
            kind="attack",
            inputs=inputs,
            die=result.roll.die,
            total=result.total,
            target=result.opponent_total,
            degrees=result.degrees,
            damage=result.damage.amount,
            hidden=private,
            repeatable=not applied,
        )
        await deliver(
            self.bot, interaction, roller, embed, record, what=N_("attack"), gm_embed=whole
        )

    async def _post_waiting(
        self,
        interaction: discord.Interaction,
        roller: Roller,
        attack: Roll,
        base: int,
        defender: Character,
        weapon: str | None,
        blow: Blow | None = None,
    ) -> None:
        expires_at = self.bot.now() + DEFENCE_WINDOW
        payload = PendingAttack(
            attacker=roller.name,
            attacker_user=roller.user_id,
            attacker_character=roller.character.id if roller.character else None,
            attacker_secret=npc_secret(roller.campaign, roller.character),
            weapon=weapon or N_("a weapon"),
            base=base,
            attack=stored_roll(attack),
            target=defender.name,
            target_id=defender.id,
            target_owner=defender.owner_id,
            channel_id=roller.channel_id,
            blow=blow,
            language=table_language(),
        )
        pending = await self.bot.store.create_pending(
            roller.guild_id,
            roller.campaign.id,
            PendingAttack.KIND,
            payload.to_payload(),
            expires_at,
        )
        record = record_for(
            interaction,
            roller,
            kind="attack",
            inputs={"base": base, "weapon": weapon, "target": defender.name, "pending": pending.id},
            die=attack.die,
            total=attack.total,
            target=None,
            degrees=UNRESOLVED,
            state=RollState.WAITING,
            pending_id=pending.id,
        )
        expires = int(expires_at.timestamp())
        with for_table():  # the defender and the table read it; its outcome keeps its language
            embed, whole = table_embeds(
                roller,
                lambda reveal: waiting_embed(
                    replace(payload, attacker_secret=payload.attacker_secret and not reveal),
                    expires,
                ),
                [(attack.modifiers, payload.attacker_secret)],
            )
            view = defence_view(pending.id, defender)
        sent = await deliver(
            self.bot,
            interaction,
            roller,
            embed,
            record,
            what=N_("attack"),
            view=view,
            ping=defender.owner_id,
            gm_embed=whole,
        )
        try:
            message = sent or await interaction.original_response()
            await self.bot.store.set_pending_message(
                roller.guild_id, pending.id, message.channel.id, message.id
            )
        except discord.HTTPException:
            log.warning("Could not read back the attack message for pending %s", pending.id)

    # ---- the defence buttons ---------------------------------------------------------------
    async def resolve_defence(
        self, interaction: discord.Interaction, pending_id: int, defence: Defence
    ) -> None:
        store = self.bot.store
        guild_id = interaction.guild_id
        if guild_id is None:
            raise UserError(tr("This button works in a server channel."))
        pending = await self._waiting_attack(interaction, guild_id, pending_id)
        if pending is None:
            return
        payload = PendingAttack.from_payload(pending.payload)
        campaign = await store.get_campaign_by_id(guild_id, pending.campaign_id)
        adopt(campaign)
        presser = actor_of(interaction)
        # The defender is a player character (an NPC defends at once, with no buttons).
        require_change(
            campaign, presser, name=payload.target, player_id=payload.target_owner, is_npc=False
        )
        # The message keeps the language it was posted in (the table's then); what the presser
        # alone reads speaks theirs.
        shared = payload.language or table_language()
        defender = await self._defender_in_time(
            interaction, campaign.id, pending, pending_id, payload, shared
        )
        if defender is None:
            return
        fight = await store.get_fight(guild_id, payload.blow.fight_id) if payload.blow else None
        defence_mods = with_conditions(
            defence_modifiers(defender, defence),
            bearer(fight, payload.blow.combatant_id) if payload.blow else defender.conditions,
            RollFor.defence(defence.value),
        )
        attack = roll_of(payload.attack)
        defence_roll = Roll(die_for(self.bot, None, False), defence_mods)
        result = resolve_attack(
            attack.modifiers, payload.base, attack.die, defender=defence_roll, defence=defence
        )
        roller = Roller(
            campaign,
            defender,
            defender.name,
            presser,
            guild_id,
            interaction.channel_id or payload.channel_id,
        )
        record = record_for(
            interaction,
            roller,
            kind="defend",
            inputs={
                "pending": pending_id,
                "defence": defence.value,
                "attack_total": attack.total,
                "base": payload.base,
                "attacker": payload.attacker,
            },
            die=defence_roll.die,
            total=defence_roll.total,
            target=attack.total,
            # The defender's side of the roll: their DoS when they won (history reads every line
            # from its roller's side).
            degrees=Degrees(not result.attacker_won, result.degrees.raw, result.degrees.capped),
            damage=result.damage.amount,
        )
        attacker = result.degrees
        settled = SettledAttack(defence_roll.total, attacker.success, attacker.capped, attacker.raw)
        if not await store.settle_pending(
            guild_id, pending_id, RollState.DEFENDED, record, settled
        ):
            await self._refuse_stale(interaction, pending_id, ALREADY_RESOLVED)
            return
        health = None
        if payload.blow is not None:
            health = await self._apply(
                interaction, campaign, payload.attacker_user, payload.blow, result.damage.amount
            )
        with i18n.speaking(shared):
            embed = defended_embed(payload, result, defender.name, defence_mods, health)
        await self._show_settled(interaction, embed)
        if payload.blow is not None and health is not None:
            await refresh_tracker(self.bot, campaign.guild_id, payload.blow.fight_id, campaign)

    async def _waiting_attack(
        self, interaction: discord.Interaction, guild_id: int, pending_id: int
    ) -> PendingAction | None:
        """The attack a defence button answers, if it still waits and is the one on the message
        pressed; None once the press is answered as stale (settled, or gone)."""
        pending = None
        if pending_id <= SQLITE_MAX_INTEGER:
            pending = await self.bot.store.get_pending(guild_id, pending_id)
        if pending is None or pending.kind != PendingAttack.KIND:
            await self._refuse_stale(interaction, pending_id, ALREADY_SETTLED)
            return None
        if not _shows(interaction.message, pending):
            raise UserError(tr(NOT_THIS_ATTACK))  # and the message pressed is left as it is
        return pending

    async def _defender_in_time(
        self,
        interaction: discord.Interaction,
        campaign_id: int,
        pending: PendingAction,
        pending_id: int,
        payload: PendingAttack,
        shared: str,
    ) -> Character | None:
        """The defender's sheet, if the attack has not expired and the sheet still exists;
        else None, the attack closed and its message saying why (in the `shared` language)."""
        guild_id = pending.guild_id
        if self.bot.now() >= pending.expires_at:
            with i18n.speaking(shared):
                embed = expired_embed(payload)
            await self._close(interaction, guild_id, pending_id, embed)
            return None
        try:
            return await self.bot.store.get_character_by_id(
                guild_id, campaign_id, payload.target_id
            )
        except NotFound:
            gone = N_("{name} no longer exists, so nobody can defend against this attack.")
            with i18n.speaking(shared):
                embed = expired_embed(payload, tr(gone, name=payload.target))
            note = tr(gone, name=payload.target)
            await self._close(interaction, guild_id, pending_id, embed, note=note)
            return None

    async def _close(
        self,
        interaction: discord.Interaction,
        guild_id: int,
        pending_id: int,
        embed: discord.Embed,
        *,
        note: str | None = None,
    ) -> None:
        """Settle the attack as expired and show it so; if another press settled it first, say
        so instead."""
        if not await self.bot.store.settle_pending(guild_id, pending_id, RollState.EXPIRED):
            await self._refuse_stale(interaction, pending_id, ALREADY_SETTLED)
            return
        await self._show_settled(interaction, embed)
        if note and interaction.response.is_done():
            await interaction.followup.send(tr(note), ephemeral=True)

    async def _show_settled(self, interaction: discord.Interaction, embed: discord.Embed) -> None:
        """Replace the buttons with the outcome; the attack is settled already, so a failed
        update must not leave buttons that look alive."""
        try:
            await interaction.response.edit_message(embed=embed, view=None)
            return
        except discord.HTTPException as error:
            failure = error
        message = interaction.message
        if message is None:
            return
        try:
            await message.edit(embed=embed, view=None)
        except discord.HTTPException as error:
            log.warning(
                "Attack message %s keeps its buttons until the next press (%s; then %s)",
                message.id,
                failure,
                error,
            )
        else:
            log.warning("Updated attack message %s through its channel (%s)", message.id, failure)

    async def _refuse_stale(
        self, interaction: discord.Interaction, pending_id: int, note: str
    ) -> None:
        """A press on an attack settled already: take the buttons away, then say why.

        Only from a message whose buttons are all this attack's: anything else is a press the
        message could not have sent, and is refused without touching it.
        """
        if _defence_ids(interaction.message) != {pending_id}:
            raise UserError(tr(NOT_THIS_ATTACK) if interaction.message is not None else tr(note))
        await interaction.response.edit_message(view=None)
        await interaction.followup.send(tr(note), ephemeral=True)

    # ---- expiry ------------------------------------------------------------------------------
    @tasks.loop(minutes=1)
    async def expire_attacks(self) -> None:
        try:
            await self.sweep_expired()
        except Exception:  # discord.ext.tasks ends a loop for good on an unhandled error
            log.exception("The expiry sweep failed; it runs again in a minute")

    async def sweep_expired(self) -> int:
        """Close attacks nobody defended in time, so no buttons linger; how many it closed.

        Those of this process's shards' servers only, when other processes run the others
        (each edits only its own servers' messages, and no two sweep the same attacks).
        All of them, batch after batch, up to SWEEP_MAX or SWEEP_SECONDS per sweep. One that
        fails (a busy database, a message that cannot be edited, any error) is logged and left
        for the next sweep; the others go on.
        """
        store, shards = self.bot.store, self.bot.config.own_shards
        stop_at = time.monotonic() + SWEEP_SECONDS
        failed: set[int] = set()
        closed = 0
        while closed < SWEEP_MAX and time.monotonic() < stop_at:
            try:
                found = await store.expired_pending(
                    self.bot.now(), SWEEP_BATCH + len(failed), shards
                )
            except Busy:
                log.warning("Expiry sweep: the database is busy; trying again in a minute")
                break
            batch = [pending for pending in found if pending.id not in failed]
            if not batch:
                break
            for pending in batch:
                try:
                    if not await store.settle_pending(
                        pending.guild_id, pending.id, RollState.EXPIRED
                    ):
                        continue  # a press settled it meanwhile
                except Busy:
                    log.warning("Expiry sweep: database busy for attack %s; later", pending.id)
                    failed.add(pending.id)
                    continue
                except Exception:
                    log.exception("Expiry sweep: could not close attack %s", pending.id)
                    failed.add(pending.id)
                    continue
                closed += 1
                log.info("Expiry sweep: closed attack %s of guild %s", pending.id, pending.guild_id)
                try:
                    await self._mark_expired(pending)
                except Exception:
                    log.exception("Expiry sweep: attack %s closed, its message not", pending.id)
        return closed

    @expire_attacks.before_loop
    async def _before_expiry(self) -> None:
        await self.bot.wait_until_ready()

    async def _mark_expired(self, pending: PendingAction) -> None:
        if pending.channel_id is None or pending.message_id is None:
            return
        channel = self.bot.get_partial_messageable(pending.channel_id, guild_id=pending.guild_id)
        message = channel.get_partial_message(pending.message_id)
        try:
            payload = PendingAttack.from_payload(pending.payload)
        except InvalidValue:  # written by another version: the buttons still go
            embed: discord.Embed | None = None
        else:
            # No interaction here: the note speaks the language the attack was posted in.
            with i18n.speaking(payload.language):
                embed = expired_embed(payload)

        try:
            if embed is None:
                await message.edit(view=None)
            else:
                await message.edit(embed=embed, view=None)
        except discord.HTTPException as error:
            log.info("Could not mark attack %s expired: %s", pending.id, error)


def copy_to_hit(fight: Fight, sheet: Character) -> Combatant | None:
    """The combatant an attack on a sheet's own name hits in this fight: the sheet fights as
    its copies (Goblin 1, Goblin 2...), so the one copy still standing, or a refusal naming
    the copies to choose from; None when the sheet is not in the fight at all."""
    copies = fight.copies_of(sheet.id)
    standing = [c for c in copies if not c.health.down]
    if len(standing) == 1 or len(copies) == 1:
        return (standing or copies)[0]
    if not copies:
        return None
    named = ", ".join(f"**{inert(c.name)}**" for c in standing or copies)
    if not standing:
        raise UserError(
            tr(
                "{name} fights here as {copies}, all down already, so the attack is not "
                "rolled. To hurt one further anyway, a GM uses `/health damage`.",
                name=inert(sheet.name),
                copies=named,
            )
        )
    raise UserError(
        tr(
            "{name} fights here as {copies}: attack one of them by its name, and its damage "
            "counts on that one.",
            name=inert(sheet.name),
            copies=named,
        )
    )


def _shows(message: discord.Message | None, pending: PendingAction) -> bool:
    """Whether a press comes from the message that shows this attack, as far as it can tell.

    Discord sends a press with the message that carries the button, so a mismatch is a forged
    press (or a bug): acting on it would resolve one attack and overwrite another's message.
    """
    if message is None:
        return pending.message_id is None
    if pending.message_id is not None and message.id != pending.message_id:
        return False
    return _defence_ids(message) == {pending.id}


def _defence_ids(message: discord.Message | None) -> set[int]:
    """The pending attacks the defence buttons on a message are for."""
    if message is None:
        return set()
    found = set()
    for row in message.components:
        for child in getattr(row, "children", ()):
            match = DEFENCE_ID.fullmatch(getattr(child, "custom_id", None) or "")
            if match:
                found.add(int(match["pending"]))
    return found


def expired_embed(payload: PendingAttack, reason: str | None = None) -> discord.Embed:
    attack = roll_of(payload.attack)
    embed = discord.Embed(
        title=clip(
            tr(
                "{attacker}: Attack on {target} (expired)",
                attacker=inert(payload.attacker),
                target=inert(payload.target),
            ),
            EMBED_TITLE_MAX,
        ),
        description=(reason or tr("No defence was chosen in time."))
        + " "
        + tr(
            "To settle it by hand: `/defend vs:{total} base:{base}`",
            total=attack.total,
            base=payload.base,
        ),
        colour=FAILURE,
    )
    embed.add_field(name=tr("Attack total"), value=str(attack.total))
    return embed


def defended_embed(
    payload: PendingAttack,
    result: CombatResult,
    defender: str,
    defence_mods: Sequence[Modifier],
    health: HealthEntry | None,
) -> discord.Embed:
    """A defence's result as the table sees it: the attack, the defence, and the damage's
    health, or a note that it counted on no one (the fight was over when the defence came)."""
    embed = combat_embed(
        payload.attacker,
        result,
        weapon=tr(payload.weapon),
        # A combatant keeps the name it fights under; a sheet shows its name of now.
        opponent=payload.target if payload.blow else defender,
        secret=payload.attacker_secret,
        side=DamageRole.DEFENDER,  # the defender's roll, just made: theirs to colour
    )
    add_missing_note(embed, defence_mods)
    if health is not None:
        # A player character's health is the table's to see: shown as numbers.
        embed.add_field(name=tr("Health"), value=health_line(health, numbers=True), inline=False)
    elif payload.blow is not None and result.damage.amount > 0:
        # The fight ended (or the defender left it) while the attack waited: the roll
        # still settles, but its damage has nowhere to go, and the table must not
        # believe it counted.
        embed.add_field(
            name=tr("Not counted"),
            value=tr(
                "The fight ended, or {name} left it, before this defence: the damage "
                "is on no one's health. A GM can count it with `/health damage`.",
                name=inert(payload.target),
            ),
            inline=False,
        )
    return embed


async def setup(bot: WireBot) -> None:
    await bot.add_cog(Combat(bot))
