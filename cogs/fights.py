"""/fight: initiative, turn order and effects, so a GM runs a whole fight with the bot and
nothing on paper (health by hand is /health, cogs/health.py).

One fight per channel, kept in the database and shown as one tracker message the bot edits in
place (posted again if someone deletes it). Attacks on a combatant apply their damage by
themselves (cogs/combat.py); /health covers what the rolls do not. The rules math (order,
pools, armour) is in wire/, who may do what in the store.
"""

from __future__ import annotations

import contextlib
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands
from discord.utils import MISSING

from cogs.quickplay.panel import TURN_TAIL, Turn, actions_view
from cogs.utils import autocomplete as ac
from cogs.utils.conditions import (
    TARGET_CHOICES,
    TIMING_CHOICES,
    ConditionModifier,
    any_hidden,
    condition_text,
    lasting_text,
    wanted_condition,
)
from cogs.utils.discord_limits import CONTENT_MAX, EMBED_FIELD_VALUE_MAX
from cogs.utils.embeds import NEUTRAL
from cogs.utils.errors import UserError
from cogs.utils.language import adopt, for_table, language_name, table_language
from cogs.utils.options import DieFace, Name
from cogs.utils.rolling import Roller, actor_of, channel_fight, die_for, load_roller
from cogs.utils.text import inert
from cogs.utils.tracker import NextButton, refresh_tracker, shared_tracker, tracker_embed
from storage.errors import NotFound
from storage.models import Campaign, Combatant, Fight, NewCombatant, TurnChange
from wire import i18n, limits
from wire.conditions import CONDITION_MODIFIER
from wire.i18n import N_, tr, trc, trn
from wire.initiative import roll_initiative
from wire.textcheck import clip

if TYPE_CHECKING:
    from bot import WireBot

MAX_COPIES = 20
NO_FIGHT = N_("No fight is running in this channel. A GM starts one with /fight start.")
Surprise = app_commands.Range[int, limits.SURPRISE.low, limits.SURPRISE.high]
Rounds = app_commands.Range[int, 1, 100]
_NUMBERED = re.compile(r"^(?P<base>.*) (?P<n>[0-9]+)$")


def copy_names(base: str, count: int, taken: set[str]) -> list[str]:
    """Goblin (one), or Goblin 1..n continuing after the numbers already in the fight."""
    folded = {t.casefold() for t in taken}
    if count == 1 and base.casefold() not in folded:
        return [base]
    used = [
        int(m["n"])
        for t in taken
        if (m := _NUMBERED.match(t)) and m["base"].casefold() == base.casefold()
    ]
    start = max(used, default=0) + 1
    return [f"{base} {n}" for n in range(start, start + count)]


def turn_line(change: TurnChange) -> tuple[str, discord.AllowedMentions]:
    """Who acts now (their player pinged, no one else), and the effects that just ended: in the
    table's language, as the tracker it goes with."""
    with for_table():
        return _turn_line(change)


def _turn_line(change: TurnChange) -> tuple[str, discord.AllowedMentions]:
    fight = change.fight
    current = fight.current()
    assert current is not None
    who = f"**{inert(current.name)}**"
    mentions = discord.AllowedMentions.none()
    if current.controller_id is not None and not current.is_npc:
        who += f" (<@{current.controller_id}>)"
        mentions = discord.AllowedMentions(users=[discord.Object(current.controller_id)])
    lines = [
        tr("Round {round} begins: {who}'s turn.", round=fight.round, who=who)
        if change.new_round
        else tr("Round {round}: {who}'s turn.", round=fight.round, who=who)
    ]
    lines += [
        tr("{effect} on {name} has ended.", effect=inert(effect), name=inert(name))
        for name, effect in change.ended_effects
    ]
    if change.skipped:
        lines.append(
            tr(
                "Skipped, being down: {names}.",
                names=", ".join(f"**{inert(name)}**" for name in change.skipped),
            )
        )
    # Fifty combatants with long names, all skipped at once, would pass Discord's 2,000.
    return clip("\n".join(lines), CONTENT_MAX), mentions


async def announce_turn(
    bot: WireBot, interaction: discord.Interaction, change: TurnChange, campaign: Campaign
) -> None:
    """The turn ping, with the quick actions of the player character whose turn it is."""
    line, mentions = turn_line(change)
    view = await turn_actions(bot, change.fight)
    await interaction.response.send_message(line, allowed_mentions=mentions, view=view or MISSING)
    await refresh_tracker(bot, change.fight.guild_id, change.fight.id, campaign)


async def end_turn(bot: WireBot, interaction: discord.Interaction, turn: Turn) -> None:
    """The turn ping's End turn: like /fight next, from the turn it was made for only."""
    if interaction.guild_id is None:
        raise UserError(tr("This button works in a server channel."))
    fight = await bot.store.get_fight(interaction.guild_id, turn.fight)
    if fight is None or fight.ended:
        raise UserError(tr("This fight is over."))
    change = await bot.store.advance_turn(
        interaction.guild_id, fight.id, actor_of(interaction), expected_step=turn.turn - 1
    )
    campaign = await bot.store.get_campaign_by_id(interaction.guild_id, fight.campaign_id)
    adopt(campaign)
    await announce_turn(bot, interaction, change, campaign)


END_ID = re.compile(r"wire:qe" + TURN_TAIL)
"""The End turn button under a turn ping: the fight, and the turn it was made for."""


class EndTurnButton(discord.ui.DynamicItem[discord.ui.Button], template=END_ID):
    pattern = END_ID

    def __init__(self, turn: Turn) -> None:
        super().__init__(
            discord.ui.Button(
                label=trc("button", "End turn"),
                style=discord.ButtonStyle.success,
                custom_id=f"wire:qe{turn.tail}",
            )
        )
        self.turn = turn

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any, /
    ) -> EndTurnButton:
        return cls(Turn.of(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: WireBot = interaction.client  # type: ignore[assignment]
        await bot.tree.run(interaction, lambda: end_turn(bot, interaction, self.turn))


async def turn_actions(bot: WireBot, fight: Fight) -> discord.ui.View | None:
    """The turn ping's buttons for a player character's turn: its weapons and saved rolls (as
    on its panel), and the fight's End turn. None when an NPC (or no one) acts, or the sheet
    is gone."""
    current: Combatant | None = fight.current()
    if current is None or current.is_npc or current.character_id is None:
        return None
    try:
        character = await bot.store.get_character_by_id(
            fight.guild_id, fight.campaign_id, current.character_id
        )
    except NotFound:
        return None
    saved = await bot.store.saved_rolls(fight.guild_id, fight.campaign_id, character.id)
    turn = Turn(fight.id, fight.step + 1)
    return actions_view(character, saved, turn, tools=[EndTurnButton(turn)], extras=False)


def summary_embed(fight: Fight) -> discord.Embed:
    embed = discord.Embed(
        title=clip(
            "⚔️ "
            + trn(
                "{fight}: over after {n} round",
                "{fight}: over after {n} rounds",
                fight.round,
                fight=inert(fight.name),
            ),
            256,
        ),
        colour=NEUTRAL,
    )
    lines = [
        tr(
            "**{name}**: dealt {dealt}, took {taken}",
            name=inert(c.name),
            dealt=c.dealt,
            taken=c.taken,
        )
        + (f" · {tr('down')}" if c.health.down else "")
        for c in sorted(fight.combatants, key=lambda c: c.position)
    ]
    embed.description = clip("\n".join(lines) or tr("Nobody fought."), 4096)
    down = [inert(c.name) for c in fight.combatants if c.health.down]
    embed.add_field(
        name=tr("Down"),
        value=clip(", ".join(down) or tr("nobody"), EMBED_FIELD_VALUE_MAX),
        inline=False,
    )
    return embed


class Fights(commands.GroupCog, group_name="fight"):
    """Fights: start, join, add NPCs, next turn, effects, show, end."""

    def __init__(self, bot: WireBot) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(NextButton, EndTurnButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(NextButton, EndTurnButton)

    async def _fight(self, roller: Roller) -> Fight:
        fight = await channel_fight(self.bot, roller)
        if fight is None:
            raise UserError(tr(NO_FIGHT))
        return fight

    async def _campaign(self, fight: Fight) -> Campaign:
        campaign = await self.bot.store.get_campaign_by_id(fight.guild_id, fight.campaign_id)
        adopt(campaign)
        return campaign

    def _combatant(self, fight: Fight, name: str) -> Combatant:
        found = fight.find(name)
        if found is None:
            raise UserError(
                tr("{name} is not in this fight. The tracker lists who is.", name=inert(name))
            )
        return found

    # ---- /fight start, join, add, remove --------------------------------------------------
    @app_commands.command(name="start", description="GMs: start a fight in this channel")
    @app_commands.guild_only()
    @app_commands.describe(name="What the fight is called (default: Fight)")
    async def start(self, interaction: discord.Interaction, name: Name | None = None) -> None:
        roller = await load_roller(self.bot, interaction)
        fight = await self.bot.store.start_fight(
            roller.guild_id,
            roller.campaign.id,
            roller.channel_id,
            roller.user_id,
            name or tr("Fight"),
        )
        await interaction.response.send_message(**shared_tracker(fight, roller.campaign))
        message = await interaction.original_response()
        await self.bot.store.set_tracker(roller.guild_id, fight.id, message.id)
        table = table_language()
        if table != i18n.language():  # the GM would wonder why the tracker is not in theirs
            await interaction.followup.send(
                tr(
                    "The tracker speaks the table's language, {language}, whoever changes it. "
                    "A GM sets the table's language with `/campaign settings language:`.",
                    language=language_name(table),
                ),
                ephemeral=True,
            )

    @app_commands.command(name="join", description="Join the fight with your active character")
    @app_commands.guild_only()
    @app_commands.describe(
        initiative="A d20 you rolled at the table for initiative (default: the bot rolls)",
        surprised="GMs: the surprise penalty to its first round's initiative",
    )
    async def join(
        self,
        interaction: discord.Interaction,
        initiative: DieFace | None = None,
        surprised: Surprise = 0,
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        sheet = roller.sheet()
        if surprised and not roller.campaign.is_gm(roller.user_id):
            raise UserError(tr("Only a GM gives a surprise penalty."))
        fight = await self._fight(roller)
        reaction = sheet.attribute("Reaction") or 0
        rolled = roll_initiative(die_for(self.bot, initiative, False), reaction, surprised)
        entry = NewCombatant(sheet.name, sheet.id, sheet.owner_id, sheet.is_npc, rolled)
        fight = await self.bot.store.add_combatants(
            roller.guild_id, fight.id, roller.user_id, [entry]
        )
        params = {
            "name": inert(sheet.name),
            "fight": inert(fight.name),
            "total": rolled.total(),
            "face": rolled.die.face,
            "reaction": reaction,
            "surprised": surprised,
        }
        await interaction.response.send_message(
            tr(
                "**{name}** joins **{fight}**: initiative {total} (d20 {face} + Reaction "
                "{reaction} - {surprised} surprised).",
                **params,
            )
            if surprised
            else tr(
                "**{name}** joins **{fight}**: initiative {total} (d20 {face} + Reaction "
                "{reaction}).",
                **params,
            )
        )
        await refresh_tracker(self.bot, fight.guild_id, fight.id, roller.campaign)

    @app_commands.command(name="add", description="GMs: add NPCs from the campaign's sheets")
    @app_commands.guild_only()
    @app_commands.describe(
        npc="The NPC's sheet",
        count=f"How many copies (1-{MAX_COPIES}), each with its own health: Goblin 1, Goblin 2...",
        initiative="A d20 rolled at the table for the group (default: the bot rolls once)",
        surprised="The surprise penalty to their first round's initiative",
    )
    @app_commands.autocomplete(npc=ac.npc_names)
    async def add(
        self,
        interaction: discord.Interaction,
        npc: Name,
        count: app_commands.Range[int, 1, MAX_COPIES] = 1,
        initiative: DieFace | None = None,
        surprised: Surprise = 0,
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        if not roller.campaign.is_gm(roller.user_id):
            raise roller.campaign.gm_only(N_("add NPCs to a fight"))
        fight = await self._fight(roller)
        sheet = await self.bot.store.get_character(roller.guild_id, roller.campaign.id, npc)
        if not sheet.is_npc:
            raise UserError(
                tr(
                    "{name} is a player character: its player joins with /fight join.",
                    name=inert(sheet.name),
                )
            )
        rolled = roll_initiative(
            die_for(self.bot, initiative, False), sheet.attribute("Reaction") or 0, surprised
        )
        names = copy_names(sheet.name, count, {c.name for c in fight.combatants})
        entries = [
            NewCombatant(n, sheet.id, None, True, rolled, sheet.health_maxima(), sheet.armour)
            for n in names
        ]
        fight = await self.bot.store.add_combatants(
            roller.guild_id, fight.id, roller.user_id, entries
        )

        def said(added: str) -> str:
            return tr(
                "Added {names} to **{fight}** at initiative {total}.",
                names=added,
                fight=inert(fight.name),
                total=rolled.total(),
            )

        text = said(", ".join(f"**{inert(n)}**" for n in names))
        if len(text) > CONTENT_MAX:  # twenty long names, their markdown shown inert
            text = clip(said(f"**{inert(names[0])}** … **{inert(names[-1])}**"), CONTENT_MAX)
        await interaction.response.send_message(text, ephemeral=True)
        await refresh_tracker(self.bot, fight.guild_id, fight.id, roller.campaign)

    @app_commands.command(name="remove", description="Take a combatant out of the fight")
    @app_commands.guild_only()
    @app_commands.describe(combatant="Who leaves the fight")
    @app_commands.autocomplete(combatant=ac.combatant_names)
    async def remove(self, interaction: discord.Interaction, combatant: Name) -> None:
        roller = await load_roller(self.bot, interaction)
        fight = await self._fight(roller)
        gone = self._combatant(fight, combatant)
        fight = await self.bot.store.remove_combatant(
            roller.guild_id, fight.id, roller.user_id, gone.id
        )
        await interaction.response.send_message(
            tr("**{name}** leaves the fight.", name=inert(gone.name))
        )
        await refresh_tracker(self.bot, fight.guild_id, fight.id, roller.campaign)

    # ---- turns and effects -----------------------------------------------------------------
    @app_commands.command(name="next", description="End the current turn: the next one acts")
    @app_commands.guild_only()
    async def next_(self, interaction: discord.Interaction) -> None:
        roller = await load_roller(self.bot, interaction)
        fight = await self._fight(roller)
        change = await self.bot.store.advance_turn(roller.guild_id, fight.id, roller.user_id)
        await announce_turn(self.bot, interaction, change, roller.campaign)

    async def press_next(self, interaction: discord.Interaction, button: NextButton) -> None:
        """The tracker's Next turn button: advances only from the turn it was made for."""
        if interaction.guild_id is None:
            raise UserError(tr("This button works in a server channel."))
        fight = await self.bot.store.get_fight(interaction.guild_id, button.fight_id)
        if fight is None or fight.ended:
            await interaction.response.edit_message(view=None)
            await interaction.followup.send(tr("This fight is over."), ephemeral=True)
            return
        guild_id, edits = interaction.guild_id, self.bot.tracker_edits
        change, number = await edits.read(
            fight.id,
            lambda: self.bot.store.advance_turn(
                guild_id, fight.id, actor_of(interaction), expected_step=button.step
            ),
        )
        campaign = await self._campaign(change.fight)
        await interaction.response.edit_message(**shared_tracker(change.fight, campaign))
        in_order = edits.landed(fight.id, number)
        if interaction.message is not None and interaction.message.id != fight.tracker_message_id:
            await self.bot.store.set_tracker(fight.guild_id, fight.id, interaction.message.id)
        line, mentions = turn_line(change)
        await interaction.followup.send(
            line,
            allowed_mentions=mentions,
            view=await turn_actions(self.bot, change.fight) or MISSING,
        )
        if not in_order:  # a newer state was on the tracker already: show the latest again
            await refresh_tracker(self.bot, fight.guild_id, fight.id, campaign)

    @app_commands.command(name="effect", description="Put a condition on a combatant")
    @app_commands.guild_only()
    @app_commands.describe(
        combatant="Who it affects",
        name="The condition, e.g. Bleeding or Prone (the campaign's named ones are offered)",
        rounds="How many of its turns it lasts (default: until the fight ends)",
        modifier=f"Added to the rolls it applies to ({CONDITION_MODIFIER.low} to "
        f"+{CONDITION_MODIFIER.high}; default: the named condition's, else 0)",
        applies_to="Which rolls it changes (default: all rolls)",
        stat="With Checks: the one attribute or skill whose checks it changes",
        counted="When its rounds count down (default: as its turn ends)",
        until="Instead of rounds: it ends as this combatant's next turn begins",
        hidden="GMs: only GMs see it on the tracker (the rolls count it all the same)",
    )
    @app_commands.choices(applies_to=TARGET_CHOICES, counted=TIMING_CHOICES)
    @app_commands.autocomplete(
        combatant=ac.combatant_names, until=ac.combatant_names, name=ac.condition_presets
    )
    async def effect(
        self,
        interaction: discord.Interaction,
        combatant: Name,
        name: Name,
        rounds: Rounds | None = None,
        modifier: ConditionModifier | None = None,
        applies_to: app_commands.Choice[str] | None = None,
        stat: Name | None = None,
        counted: app_commands.Choice[str] | None = None,
        until: Name | None = None,
        hidden: bool = False,
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        fight = await self._fight(roller)
        target = self._combatant(fight, combatant)
        waits_for = self._combatant(fight, until) if until else None
        if waits_for is not None and (rounds is not None or counted is not None):
            raise UserError(
                tr("Give rounds or until, not both: until ends it at that combatant's turn.")
            )
        wanted = await wanted_condition(
            self.bot,
            roller,
            name,
            modifier=modifier,
            applies_to=applies_to,
            stat=stat,
            rounds=rounds,
            counted=counted,
            until_id=waits_for.id if waits_for else None,
            hidden=hidden,
        )
        fight = await self.bot.store.add_effect(
            roller.guild_id,
            fight.id,
            roller.user_id,
            target.id,
            wanted.name,
            wanted.rounds_left,
            modifier=wanted.modifier,
            applies_to=wanted.applies_to,
            stat=wanted.stat,
            timing=wanted.timing,
            until_id=wanted.until_id,
            hidden=hidden,
        )
        added = next(c for c in fight.combatants if c.id == target.id).effects[-1]
        until_name = waits_for.name if waits_for else None
        shown = condition_text(added, left=False)
        lasting = lasting_text(added, until=until_name)
        await interaction.response.send_message(
            f"**{inert(target.name)}**: {shown}, {lasting}.", ephemeral=hidden
        )
        await refresh_tracker(self.bot, fight.guild_id, fight.id, roller.campaign)

    @app_commands.command(name="cure", description="End a condition on a combatant now")
    @app_commands.guild_only()
    @app_commands.describe(combatant="Who has it", name="The condition's name")
    @app_commands.autocomplete(combatant=ac.combatant_names, name=ac.combatant_effects)
    async def cure(self, interaction: discord.Interaction, combatant: Name, name: Name) -> None:
        roller = await load_roller(self.bot, interaction)
        fight = await self._fight(roller)
        target = self._combatant(fight, combatant)
        fight, ended = await self.bot.store.remove_effect(
            roller.guild_id, fight.id, roller.user_id, target.id, name
        )
        await interaction.response.send_message(
            tr("{effect} on {name} has ended.", effect=inert(ended.name), name=inert(target.name)),
            ephemeral=ended.hidden,
        )
        await refresh_tracker(self.bot, fight.guild_id, fight.id, roller.campaign)

    @app_commands.command(
        name="reaction", description="GMs: let a combatant act once out of turn (a reaction)"
    )
    @app_commands.guild_only()
    @app_commands.describe(combatant="Who may attack once out of turn, or once more this turn")
    @app_commands.autocomplete(combatant=ac.combatant_names)
    async def reaction(self, interaction: discord.Interaction, combatant: Name) -> None:
        roller = await load_roller(self.bot, interaction)
        fight = await self._fight(roller)
        granted = self._combatant(fight, combatant)
        await self.bot.store.grant_reaction(roller.guild_id, fight.id, roller.user_id, granted.id)
        await interaction.response.send_message(
            tr(
                "**{name}** may attack once out of turn (a reaction), until the turn changes.",
                name=inert(granted.name),
            )
        )

    # ---- show and end ------------------------------------------------------------------------
    @app_commands.command(
        name="show", description="The tracker again, at the bottom of the channel"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        private="Only you see it (GMs: with the NPCs' numbers); the channel's tracker stays put"
    )
    async def show(self, interaction: discord.Interaction, private: bool = False) -> None:
        roller = await load_roller(self.bot, interaction)
        fight = await self._fight(roller)
        campaign = roller.campaign
        if private:
            # A look of one's own: nothing is posted, and the tracker is not moved.
            gm = campaign.is_gm(roller.user_id)
            await interaction.response.send_message(
                embed=tracker_embed(fight, campaign, numbers=campaign.show_npc_health or gm, gm=gm),
                ephemeral=True,
            )
            return
        old = fight.tracker_message_id
        await interaction.response.send_message(**shared_tracker(fight, campaign))
        message = await interaction.original_response()
        await self.bot.store.set_tracker(roller.guild_id, fight.id, message.id)
        if old is not None and old != message.id:
            channel = self.bot.get_partial_messageable(fight.channel_id, guild_id=fight.guild_id)
            # Deleted, or out of reach: the new tracker is what counts.
            with contextlib.suppress(discord.HTTPException), for_table():
                await channel.get_partial_message(old).edit(
                    content=tr("The tracker moved to the bottom of the channel."),
                    embed=None,
                    view=None,
                )
        secrets = not campaign.show_npc_health or any_hidden(fight.combatants)
        if campaign.is_gm(roller.user_id) and secrets:
            await interaction.followup.send(
                tr("With the NPCs' numbers, for you only:"),
                embed=tracker_embed(fight, campaign, numbers=True, gm=True),
                ephemeral=True,
            )

    @app_commands.command(name="end", description="GMs: end the fight, with a summary")
    @app_commands.guild_only()
    async def end(self, interaction: discord.Interaction) -> None:
        roller = await load_roller(self.bot, interaction)
        fight = await self._fight(roller)
        ended = await self.bot.store.end_fight(roller.guild_id, fight.id, roller.user_id)
        with for_table():
            summary = summary_embed(ended)
        await interaction.response.send_message(embed=summary)
        await refresh_tracker(self.bot, fight.guild_id, fight.id, roller.campaign)


async def setup(bot: WireBot) -> None:
    await bot.add_cog(Fights(bot))
