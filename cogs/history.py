"""/history: the campaign's recent rolls, newest first.

The answer is private unless `public:true`. Hidden rolls are listed only for the campaign's
GMs in a private answer, so a hidden result never reaches the channel through the log.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.sessions import pick_session, played_choices
from cogs.utils.discord_limits import EMBED_DESCRIPTION_MAX, EMBED_TITLE_MAX
from cogs.utils.embeds import NEUTRAL
from cogs.utils.rolling import FREE_ROLL_SOURCE, load_roller
from cogs.utils.text import code, inert
from cogs.utils.tracker import pool_name
from storage.models import HealthEntry, RollRecord, RollState
from storage.rules_sessions import Session
from wire.i18n import N_, tr
from wire.sessions import State
from wire.textcheck import clip

UNSETTLED = {
    RollState.WAITING: N_("waiting for the defence"),
    RollState.DEFENDED: N_("settled by the defence roll"),
    RollState.EXPIRED: N_("expired without a defence"),
}
KINDS = {
    "check": N_("check"),
    "attack": N_("attack"),
    "defend": N_("defend"),
    "contest": N_("contest"),
    "craft": N_("craft"),
}
"""A logged roll's kind as a history line names it."""

FREE_ROLL_SHOWN = 40
"""Characters of a /roll's expression in its history line."""

if TYPE_CHECKING:
    from bot import WireBot


def history_line(record: RollRecord) -> str:
    """One roll in one line: who, what, total against what, degrees and damage."""
    who = inert(record.character_name) if record.character_name else f"<@{record.user_id}>"
    when = f"<t:{int(record.created_at.timestamp())}:R>" if record.created_at else ""
    what = tr(KINDS.get(record.kind, record.kind))
    if record.state is not RollState.RESOLVED:
        # An attack on a player character: its defence roll (its own line) has the damage.
        target = inert(str(record.inputs.get("target") or tr("a player character")))
        return f"{when} " + tr(
            "**{who}** attack on {target}: total {total}, {state}",
            who=who,
            target=target,
            total=record.total,
            state=tr(UNSETTLED[record.state]),
        )
    if record.die_source == FREE_ROLL_SOURCE:
        return free_roll_line(record, when, who)
    against = " " + tr("vs {target}", target=record.target) if record.target is not None else ""
    degrees = f"{record.degrees} {tr('DoS') if record.success else tr('DoF')}"
    if record.raw_degrees > record.degrees:
        degrees += " " + tr("(capped from {raw})", raw=record.raw_degrees)
    line = f"{when} **{who}** {what}: {record.total}{against}, {degrees}"
    if record.damage is not None:
        line += ", " + tr("{amount} damage", amount=record.damage)
    if record.hidden:
        line += " " + tr("(hidden)")
    if record.die_source == "take10":
        line += " · " + tr("took 10")
    return line


def free_roll_line(record: RollRecord, when: str, who: str) -> str:
    """A /roll has a total but no target or degrees: its expression (cut short, so 25 rolls
    still fit one reply) and its total. Like a check's, its label stays out of the line."""
    expression = clip(str(record.inputs.get("expression", "dice")), FREE_ROLL_SHOWN)
    line = f"{when} **{who}** {tr('roll')} {clip(code(expression), FREE_ROLL_SHOWN + 2)}: "
    line += str(record.total)
    if record.hidden:
        line += " " + tr("(hidden)")
    return line


HEALTH_WORDS = {"attack": N_("hit"), "damage": N_("damage"), "heal": N_("healed"), "set": N_("set")}


def health_history_line(entry: HealthEntry, *, numbers: bool) -> str:
    """A change of health: numbers for a player character, or for GMs; else what happened."""
    when = f"<t:{int(entry.created_at.timestamp())}:R>" if entry.created_at else ""
    change, name = entry.change, inert(entry.target_name)
    if entry.is_npc and not numbers:
        moved = tr("lost health") if change.after < change.before else tr("gained health")
        line = f"{when} **{name}** {moved} ({tr(HEALTH_WORDS.get(entry.reason, entry.reason))})"
    else:
        pool = pool_name(change.pool)
        line = (
            f"{when} **{name}** {pool} {change.before} → {change.after} "
            f"({tr(HEALTH_WORDS.get(entry.reason, entry.reason))})"
        )
    return line + (" " + tr("(undone)") if entry.undone else "")


def during(moment: datetime | None, session: Session | None) -> bool:
    """Whether a change made at `moment` falls in the session played (any, without one)."""
    if session is None:
        return True
    if moment is None or session.started_at is None:
        return False
    return session.started_at <= moment and (session.ended_at is None or moment <= session.ended_at)


class History(commands.Cog):
    def __init__(self, bot: WireBot) -> None:
        self.bot = bot

    @app_commands.command(name="history", description="The campaign's recent rolls, newest first")
    @app_commands.guild_only()
    @app_commands.describe(
        user="Only this user's rolls",
        count="How many rolls (1-25, default 10)",
        public="Show the list to the channel (default: only to you)",
        session="Only the rolls of this session",
    )
    @app_commands.autocomplete(session=played_choices)
    async def history(
        self,
        interaction: discord.Interaction,
        user: discord.User | None = None,
        count: app_commands.Range[int, 1, 25] = 10,
        public: bool = False,
        session: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        count = max(1, min(25, count))
        roller = await load_roller(self.bot, interaction)
        played = None
        if session:
            played = await pick_session(self.bot, roller, session, (State.RUNNING, State.ENDED))
        # A list the channel sees holds what the channel may see: no hidden rolls, and NPC
        # health as the table sees it, even when a GM posts it.
        is_gm = roller.campaign.is_gm(roller.user_id) and not public
        records = await self.bot.store.recent_rolls(
            roller.guild_id,
            roller.campaign.id,
            user_id=user.id if user else None,
            limit=count,
            include_hidden=is_gm,
            session_id=played.id if played else None,
        )
        health = [
            h
            for h in await self.bot.store.recent_health(roller.guild_id, roller.campaign.id, count)
            if (user is None or h.user_id == user.id) and during(h.created_at, played)
        ]
        numbers = is_gm or roller.campaign.show_npc_health
        dated = [(r.created_at, history_line(r)) for r in records] + [
            (h.created_at, health_history_line(h, numbers=numbers)) for h in health
        ]
        dated.sort(key=lambda pair: pair[0] or datetime.min.replace(tzinfo=UTC), reverse=True)
        campaign = inert(roller.campaign.name)
        title = (
            tr(
                "Recent rolls in {campaign} by {user}",
                campaign=campaign,
                user=inert(user.display_name),
            )
            if user
            else tr("Recent rolls in {campaign}", campaign=campaign)
        )
        if played is not None:
            title += " · " + inert(played.title)
        embed = discord.Embed(title=clip(title, EMBED_TITLE_MAX), colour=NEUTRAL)
        if not dated:
            embed.description = tr("No rolls yet.")

        lines: list[str] = []
        used = 0
        for _, line in dated[:count]:
            if used + len(line) + 1 > EMBED_DESCRIPTION_MAX:
                break
            lines.append(line)
            used += len(line) + 1
        if lines:
            embed.description = "\n".join(lines)
        # Private unless asked: ten lines in the channel for one player's look back is noise.
        await interaction.response.send_message(embed=embed, ephemeral=not public)


async def setup(bot: WireBot) -> None:
    await bot.add_cog(History(bot))
