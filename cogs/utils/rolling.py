"""What every roll command does around the rules: who rolls, log it, answer it, hide it.

A roll is logged before its answer is sent, so an answered roll is never lost; the log is keyed
by the interaction id, so a retried answer does not log it twice.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord.utils import MISSING

from cogs.utils.actor import actor_of
from cogs.utils.again import again_view
from cogs.utils.discord_limits import EMBED_AUTHOR_MAX, EMBED_FIELD_VALUE_MAX
from cogs.utils.embeds import hidden_notice
from cogs.utils.errors import UserError
from cogs.utils.language import adopt
from cogs.utils.replay import OPTIONS_KEY, options_of
from cogs.utils.text import inert, quoted
from storage.errors import NotFound
from storage.models import Campaign, Fight, RollRecord, RollState
from wire import limits
from wire.check import Modifier, stat_line
from wire.degrees import Degrees
from wire.dice import Die, obtain_die
from wire.health import DamageKind
from wire.i18n import N_, tr, trc
from wire.sheet import Absent, Character, NoSuchWeapon, Weapon, sheet_stat, sheet_weapon
from wire.textcheck import clip

if TYPE_CHECKING:
    from bot import WireBot

log = logging.getLogger("wire.rolls")

FREE_ROLL_SOURCE = "expression"
"""The die source of a logged /roll: dice from an expression, not a WIRE d20."""

NO_ACTIVE = N_(
    "You have no active character in this campaign. "
    "Create one with /character create, or pick one with /character use."
)


@dataclass(frozen=True, slots=True)
class Roller:
    """Who is rolling: the campaign of this channel and the character (if any) rolling."""

    campaign: Campaign
    character: Character | None
    name: str
    user_id: int
    guild_id: int
    channel_id: int
    in_fight: bool | None = None
    """Whether the channel had a fight running when the roller was read (None: not known)."""

    def sheet(self) -> Character:
        if self.character is None:
            if self.campaign.is_gm(self.user_id):
                raise UserError(
                    tr(NO_ACTIVE) + " " + tr("As a GM, add npc:<name> to roll as an NPC.")
                )
            raise UserError(tr(NO_ACTIVE))
        return self.character

    def attribute(self, name: str) -> Modifier:
        """An attribute from the sheet; one the sheet lacks counts 0, and the reply's note says
        so (the one rule for attributes and skills, sheets.sheet_stat)."""
        return sheet_stat(self.sheet(), "attribute", name)

    def skill(self, name: str) -> Modifier:
        """A skill from the sheet; one the sheet lacks is untrained: 0, and the note says so."""
        return sheet_stat(self.sheet(), "skill", name)


def npc_secret(campaign: Campaign, character: Character | None, *, hidden: bool = False) -> bool:
    """Whether a roll's embed keeps this character's die and modifiers from the table: an NPC's
    sheet is for GMs' eyes unless the campaign shows NPC modifiers. A hidden roll reaches only
    the roller and the GMs, so it shows everything."""
    return (
        character is not None
        and character.is_npc
        and not campaign.show_npc_modifiers
        and not hidden
    )


ROLL_AS_NPC = N_("roll as an NPC")


async def load_roller(
    bot: WireBot,
    interaction: discord.Interaction,
    npc: str | None = None,
    *,
    as_npc: str = ROLL_AS_NPC,
) -> Roller:
    """The campaign of this channel, and the active character or (GMs only) a named NPC.

    `as_npc`: what a player is refused when naming an NPC (an N_ template), so the refusal
    names the command's own deed: opening an NPC's panel is not rolling."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise UserError(tr("WIRE commands work in a server channel, not in direct messages."))
    store = bot.store
    actor = actor_of(interaction)
    name, in_fight = None, None
    if npc:
        campaign = await store.campaign_for_channel(
            interaction.guild_id, interaction.channel_id, actor
        )
        if not campaign.is_gm(actor):
            raise campaign.gm_only(as_npc)
        character, name = await npc_sheet(
            bot, interaction.guild_id, campaign, interaction.channel_id, npc
        )
        if not character.is_npc:
            raise UserError(
                tr("{name} is a player character, not an NPC.", name=inert(character.name))
            )
    else:
        scene = await store.roller_scene(interaction.guild_id, interaction.channel_id, actor)
        campaign, character, in_fight = scene.campaign, scene.character, scene.in_fight
    adopt(campaign)
    name = name or (character.name if character else interaction.user.display_name)
    return Roller(
        campaign,
        character,
        name,
        actor,
        interaction.guild_id,
        interaction.channel_id,
        in_fight,
    )


async def channel_fight(bot: WireBot, roller: Roller) -> Fight | None:
    """The roller's channel's running fight, if any: no read at all where the roller's own
    read saw none (`Roller.in_fight`), which is where most rolls are made."""
    if roller.in_fight is False:
        return None
    return await bot.store.running_fight(roller.guild_id, roller.channel_id)


async def npc_sheet(
    bot: WireBot, guild_id: int, campaign: Campaign, channel_id: int, npc: str
) -> tuple[Character, str]:
    """The NPC's sheet and the name it rolls under: a sheet by its name, or else a copy in this
    channel's fight ("Goblin 2", made by /fight add) with its sheet, under the copy's name."""
    store = bot.store
    try:
        sheet = await store.get_character(guild_id, campaign.id, npc)
    except NotFound:
        fight = await store.running_fight(guild_id, channel_id)
        copy = fight.find(npc) if fight is not None else None
        if copy is None or not copy.is_npc or copy.character_id is None:
            raise
        sheet = await store.get_character_by_id(guild_id, campaign.id, copy.character_id)
        return sheet, copy.name
    return sheet, sheet.name


def die_for(bot: WireBot, roll: int | None, take10: bool) -> Die:
    return obtain_die(roll=roll, take10=take10, rng=bot.rng)


def record_for(
    interaction: discord.Interaction,
    roller: Roller,
    *,
    kind: str,
    inputs: dict[str, Any],
    die: Die,
    total: int,
    target: int | None,
    degrees: Degrees,
    damage: int | None = None,
    hidden: bool = False,
    character: Character | None = None,
    state: RollState = RollState.RESOLVED,
    pending_id: int | None = None,
    repeatable: bool = True,
) -> RollRecord:
    """The roll for the log; `repeatable` False: it changed the game (damage in a fight, a
    project's quality), so it keeps no options and gets no Roll again."""
    character = character or roller.character
    # The roller's own sheet is logged under the name it rolled as: a copy in a fight
    # ("Goblin 1") is named in /history as in the roll's title, not as its sheet.
    name = roller.name if character is roller.character and character else None
    inputs = {k: v for k, v in inputs.items() if v is not None}
    again = options_of(interaction)
    if again is not None and state is RollState.RESOLVED and repeatable:
        inputs[OPTIONS_KEY] = again  # what Roll again repeats
    return RollRecord(
        guild_id=roller.guild_id,
        campaign_id=roller.campaign.id,
        channel_id=roller.channel_id,
        user_id=roller.user_id,
        kind=kind,
        inputs=inputs,
        die=die.face,
        die_source=str(die.source),
        total=total,
        target=target,
        success=degrees.success,
        degrees=degrees.capped,
        raw_degrees=degrees.raw,
        damage=damage,
        hidden=hidden,
        character_id=character.id if character else None,
        character_name=name or (character.name if character else None),
        interaction_id=interaction.id,
        state=state,
        pending_id=pending_id,
    )


def free_roll_record(
    interaction: discord.Interaction,
    roller: Roller,
    *,
    inputs: dict[str, Any],
    total: int,
    hidden: bool = False,
) -> RollRecord:
    """A /roll for the log. It has no WIRE d20, no target and no degrees: `die` is 0 (no face
    a d20 shows) with the source "expression", success and degrees are 0, and the faces rolled
    are in `inputs`, so nothing reads a free roll as a check."""
    return RollRecord(
        guild_id=roller.guild_id,
        campaign_id=roller.campaign.id,
        channel_id=roller.channel_id,
        user_id=roller.user_id,
        kind="roll",
        inputs={k: v for k, v in inputs.items() if v is not None},
        die=0,
        die_source=FREE_ROLL_SOURCE,
        total=total,
        target=None,
        success=False,
        degrees=0,
        raw_degrees=0,
        hidden=hidden,
        character_id=roller.character.id if roller.character else None,
        character_name=roller.character.name if roller.character else None,
        interaction_id=interaction.id,
    )


async def reply(interaction: discord.Interaction, **kwargs: Any) -> discord.Message | None:
    """The interaction's answer: its response, or a follow-up where the response is given
    already (a target menu's pick first takes the menu's select away, as its response); the
    follow-up's message, since `original_response` would then be the menu."""
    if interaction.response.is_done():
        return await interaction.followup.send(wait=True, **kwargs)
    await interaction.response.send_message(**kwargs)
    return None


async def deliver(
    bot: WireBot,
    interaction: discord.Interaction,
    roller: Roller,
    embed: discord.Embed,
    record: RollRecord,
    *,
    what: str,
    view: discord.ui.View | None = None,
    logged: bool = False,
    ping: int | None = None,
    gm_embed: discord.Embed | None = None,
) -> discord.Message | None:
    """Log the roll, then answer it: in public, or hidden from all but the roller and GMs.
    The answer's message where it went as a follow-up (see `reply`), else None.

    `logged`: the caller already logged it in the same transaction as another change.
    `ping`: a user the answer mentions (the attacked player): that user only is pinged.
    `gm_embed`: the whole roll (an NPC's die and modifiers the table does not see), sent to the
    rolling GM alone after the public answer.
    """
    portrait = roller.character.portrait if roller.character else None
    if portrait and not embed.author:
        embed.set_author(name=clip(roller.name, EMBED_AUTHOR_MAX), icon_url=portrait)
    if not logged:
        roll_id: int | None = await bot.store.log_roll(record)
    else:
        roll_id = await bot.store.roll_of_interaction(record.guild_id, interaction.id)
    if view is None and roll_id is not None and OPTIONS_KEY in record.inputs:
        view = again_view(roll_id, savable=record.character_id is not None)
    if not record.hidden:
        kwargs: dict[str, Any] = {"embed": embed}
        if view is not None:
            kwargs["view"] = view
        if ping is not None:
            kwargs["content"] = f"<@{ping}>"
            kwargs["allowed_mentions"] = discord.AllowedMentions(users=[discord.Object(ping)])
        sent = await reply(interaction, **kwargs)
        if gm_embed is not None:
            await interaction.followup.send(
                tr("The whole roll, for you only:"), embed=gm_embed, ephemeral=True
            )
        return sent
    sent = await reply(interaction, embed=embed, ephemeral=True, view=view or MISSING)
    # An NPC's name in the channel would tell the table who the GM has in store.
    who = None if roller.character is not None and roller.character.is_npc else roller.name
    await interaction.followup.send(hidden_notice(who, what))
    if not await notify_gms(bot, roller, embed):
        await interaction.followup.send(
            tr(
                "The GMs could not be sent this hidden roll (no access to the GM channel, or "
                "their direct messages are closed). Show it to them yourself, or ask a GM to fix "
                "/campaign settings."
            ),
            ephemeral=True,
        )
    return sent


def missing_note(modifiers: Iterable[Modifier]) -> str | None:
    """The line that says which stats a roll counted as 0 because a sheet lacks them; None
    when it lacks none."""
    lines = []
    for mod in modifiers:
        if not isinstance(mod, Absent):
            continue
        line = tr(
            "{name} is not on {sheet}'s sheet, so it counts 0.",
            name=inert(mod.name),
            sheet=inert(mod.sheet),
        )
        if mod.close:
            line += " " + tr(
                "The sheet has {close}: is it the same? Rename one to match.",
                close=inert(mod.close),
            )
        lines.append(line)
    if not lines:
        return None
    return "\n".join([*lines, tr("Add a stat with /character set (a skill at 0 is untrained).")])


MISSING_FIELD = N_("Not on the sheet")


def add_missing_note(embed: discord.Embed, modifiers: Iterable[Modifier]) -> None:
    """The note of the stats a roll counted 0 because a sheet lacks them, if any."""
    note = missing_note(modifiers)
    if note:
        embed.add_field(
            name=tr(MISSING_FIELD), value=clip(note, EMBED_FIELD_VALUE_MAX), inline=False
        )


def table_embeds(
    roller: Roller,
    build: Callable[[bool], discord.Embed],
    sides: Iterable[tuple[Iterable[Modifier], bool]],
) -> tuple[discord.Embed, discord.Embed | None]:
    """What the table sees of a roll, and the whole roll for the GM who made it.

    `build(reveal)` makes the embed, with every side shown when `reveal`; `sides` are each
    side's modifiers and whether that side is kept from the table (an NPC's). The table's embed
    notes the stats missing from the sides it sees; when a side is kept from it and the roller
    is a GM, the GM's embed (None otherwise) shows everything: die (a take 10 says so),
    modifiers, and every missing stat.
    """
    sides = [(tuple(mods), secret) for mods, secret in sides]
    embed = build(False)
    add_missing_note(embed, [m for mods, secret in sides if not secret for m in mods])
    if not any(secret for _, secret in sides) or not roller.campaign.is_gm(roller.user_id):
        return embed, None
    whole = build(True)
    add_missing_note(whole, [m for mods, _ in sides for m in mods])
    return embed, whole


def gm_recipients(bot: WireBot, roller: Roller) -> tuple[int, ...]:
    """Who gets a hidden roll by DM: the campaign's named GMs, else the server's owner (the
    bot cannot list everyone with Manage Server without the members intent)."""
    if roller.campaign.gm_ids:
        return roller.campaign.gm_ids
    guild = bot.get_guild(roller.guild_id)
    return (guild.owner_id,) if guild is not None and guild.owner_id else ()


async def notify_gms(bot: WireBot, roller: Roller, embed: discord.Embed) -> bool:
    """Send a hidden roll to the GM channel, or else to each GM (but the roller) directly."""
    shown = embed.copy()
    # An author name shows no markdown, so the names go in as they are.
    shown.set_author(
        name=clip(
            tr(
                "Hidden roll by {who} in {campaign}",
                who=roller.name,
                campaign=roller.campaign.name,
            ),
            EMBED_AUTHOR_MAX,
        )
    )
    try:
        if roller.campaign.gm_channel_id:
            channel = bot.get_partial_messageable(
                roller.campaign.gm_channel_id, guild_id=roller.guild_id
            )
            await channel.send(embed=shown)
            return True
        for gm_id in gm_recipients(bot, roller):
            if gm_id == roller.user_id:
                continue
            user = bot.get_user(gm_id) or await bot.fetch_user(gm_id)
            await user.send(embed=shown)
    except discord.HTTPException:
        log.warning("Could not deliver a hidden roll to the GMs of campaign %s", roller.campaign.id)
        return False
    return True


def stat_modifiers(
    roller: Roller,
    attr: int | None,
    skill: int | None,
    attr_name: str | None,
    skill_name: str | None,
    mod: int,
    *,
    attr_option: str = "attr",
    skill_option: str = "skill",
) -> tuple[Modifier, ...]:
    """Attribute + skill (+ mod), each from a number or, by name, from the roller's sheet."""
    attr_named, skill_named = f"{attr_option}_name", f"{skill_option}_name"
    options = {
        "number": trc("name", attr_option),
        "named": trc("name", attr_named),
    }
    if attr is not None and attr_name:
        raise UserError(tr("Give {number} or {named}, not both.", **options))
    if attr is None and not attr_name:
        raise UserError(
            tr(
                "Give the attribute: a number with {number}, or a name from your sheet with "
                "{named}.",
                **options,
            )
        )
    options = {"number": trc("name", skill_option), "named": trc("name", skill_named)}
    if skill is not None and skill_name:
        raise UserError(tr("Give {number} or {named}, not both.", **options))
    if skill is None and not skill_name:
        raise UserError(
            tr(
                "Give the skill: a number with {number}, or a name from your sheet with {named}.",
                **options,
            )
        )
    mods = [
        roller.attribute(attr_name)
        if attr_name
        else Modifier(tr("Attribute"), limits.ATTRIBUTE.check(attr, tr("The attribute"))),
        roller.skill(skill_name)
        if skill_name
        else Modifier(tr("Skill"), limits.SKILL.check(skill, tr("The skill"))),
    ]
    if mod:
        mods.append(Modifier(tr("Modifier"), limits.MODIFIER.check(mod)))
    return tuple(mods)


@dataclass(frozen=True, slots=True)
class AttackLine:
    """What an attack rolls with: its modifiers, the base damage, and the weapon if from a sheet."""

    mods: tuple[Modifier, ...]
    base: int
    weapon: Weapon | None = None

    @property
    def kind(self) -> DamageKind:
        return self.weapon.damage_kind if self.weapon else DamageKind.LETHAL


def attack_line(
    roller: Roller,
    strength: int | None,
    skill: int | None,
    base: int | None,
    weapon: str | None,
    mod: int,
) -> AttackLine:
    """A weapon from the roller's sheet, or str, skill and base as numbers (for /attack and
    /odds attack alike); a sheet with one weapon needs no weapon: option."""
    numbers_given = strength is not None or skill is not None or base is not None
    sole = roller.character.weapons if roller.character is not None else ()
    if not weapon and not numbers_given and len(sole) == 1:
        weapon = sole[0].name
    if weapon:
        if numbers_given:
            raise UserError(tr("Give weapon (from your sheet) or str, skill and base, not both."))
        sheet = roller.sheet()
        try:
            arms, mods = sheet_weapon(sheet, weapon)
        except NoSuchWeapon as exc:
            raise UserError(
                tr(
                    "{sheet} has no weapon {name}. Add it with /character weapon, or see "
                    "/character show.",
                    sheet=inert(exc.sheet),
                    name=quoted(exc.name),
                )
            ) from None
        if mod:
            mods += (Modifier(tr("Modifier"), limits.MODIFIER.check(mod)),)
        return AttackLine(mods, arms.base, arms)
    missing = [n for n, v in (("str", strength), ("skill", skill), ("base", base)) if v is None]
    if missing:
        shown = ", ".join(trc("name", n) for n in missing)
        raise UserError(
            tr(
                "Missing {missing}: give str, skill and base as numbers, or a weapon from your "
                "sheet.",
                missing=shown,
            )
        )
    assert strength is not None and skill is not None and base is not None
    mods = stat_line(strength, skill, mod, attribute_label=tr("Strength"), skill_label=tr("Skill"))
    return AttackLine(mods, limits.BASE.check(base))
