"""/stats: how the dice treated you, a character, a player or the table, against the exact odds.

The numbers and the luck come from the rules core (wire/stats.py, wire/stats_text.py), the rolls
from the store (storage/rules_stats.py), which leaves out of a player's view every hidden roll
of another, every NPC's and every GM's roll. A public answer shows only what the channel may
see, even when a GM posts it. The chart is drawn off the event loop; if it fails or is slow the
numbers come without it and say so. `csv:true` attaches the rolls themselves.
"""

from __future__ import annotations

import asyncio
import io
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.sessions import pick_session, played_choices
from cogs.utils import autocomplete as ac
from cogs.utils.charts import chart_file
from cogs.utils.discord_limits import EMBED_FIELD_VALUE_MAX, EMBED_TITLE_MAX
from cogs.utils.embeds import NEUTRAL
from cogs.utils.errors import UserError
from cogs.utils.options import FreeText, Name
from cogs.utils.rolling import Roller, load_roller
from cogs.utils.text import inert
from storage.rules_sessions import Session, State
from storage.rules_stats import CSV_ROWS_MAX, SINCE_SLACK, StatsScope
from wire.i18n import tr
from wire.stats import summarise
from wire.stats_csv import rolls_csv
from wire.stats_text import luck_sentence, stats_chart, stats_fields
from wire.textcheck import clip

if TYPE_CHECKING:
    from bot import WireBot

TONIGHT = timedelta(hours=12)
""""Tonight": the last 12 hours (a session's own span is span:session)."""
DATE_MAX = 10
PLAYED = (State.RUNNING, State.ENDED)
CHART_NAME = "stats.png"

DateText = app_commands.Transform[str, FreeText(DATE_MAX)]


@dataclass(frozen=True, slots=True)
class Asked:
    """Whose rolls and which: the scope for the store and the name the reply gives them."""

    scope: StatsScope
    who: str
    """Shown as it is (already inert)."""


def parse_since(text: str) -> datetime:
    """A date as YYYY-MM-DD, the start of that day in UTC."""
    try:
        day = datetime.strptime(text, "%Y-%m-%d")
    except ValueError:
        raise UserError(tr("since takes a date as year-month-day, like 2026-12-03.")) from None
    return day.replace(tzinfo=UTC)


class Stats(commands.Cog):
    def __init__(self, bot: WireBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="stats", description="How the dice treated you, a character or the table, by the odds"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        character="A character's rolls",
        player="A player's rolls",
        table="Everyone's rolls in the campaign (default: only yours)",
        span="Which rolls: all (default), tonight (the last 12 hours), the last session or this "
        "channel's fight",
        session="Only the rolls of this session (one played or running)",
        since="Only rolls since this day, as year-month-day (2026-12-03)",
        csv="Attach the rolls as a CSV file, one row a roll, for a spreadsheet",
        public="Show the statistics to the channel (default: only to you)",
    )
    @app_commands.choices(
        span=[
            app_commands.Choice(name="all", value="all"),
            app_commands.Choice(name="tonight", value="tonight"),
            app_commands.Choice(name="fight", value="fight"),
            app_commands.Choice(name="last session", value="session"),
        ]
    )
    @app_commands.autocomplete(character=ac.readable_character, session=played_choices)
    async def stats(
        self,
        interaction: discord.Interaction,
        character: Name | None = None,
        player: discord.User | None = None,
        table: bool = False,
        span: str = "all",
        since: DateText | None = None,
        csv: bool = False,
        public: bool = False,
        session: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        # What the channel sees holds only what the channel may see, even from a GM.
        gm = roller.campaign.is_gm(roller.user_id) and not public
        asked = await self._asked(interaction, roller, character, player, table, gm)
        scope = await self._span(roller, asked.scope, span, since, session)
        await interaction.response.defer(ephemeral=not public, thinking=True)
        viewer = 0 if public else roller.user_id  # a public answer shows no one's hidden roll
        store = self.bot.store
        where = (roller.guild_id, roller.campaign.id, scope)
        read = await store.stats_rolls(*where, viewer_id=viewer, gm=gm)
        stats = await asyncio.to_thread(  # CPU: off the event loop
            partial(summarise, read.rolls, ordered=not read.grouped)
        )
        title = clip(tr("Dice statistics: {who}", who=asked.who), EMBED_TITLE_MAX)
        embed = discord.Embed(title=title, colour=NEUTRAL)
        embed.description = luck_sentence(asked.who[:1].upper() + asked.who[1:], stats.luck)
        for name, value in stats_fields(stats):
            embed.add_field(name=name, value=clip(value, EMBED_FIELD_VALUE_MAX), inline=False)
        files = []
        chart = await chart_file(stats_chart(stats, title), CHART_NAME) if stats.rolls else None
        if chart is not None:
            embed.set_image(url=f"attachment://{CHART_NAME}")
            files.append(chart)
        elif stats.rolls:
            embed.set_footer(
                text=tr("The chart could not be drawn this time; the numbers are all here.")
            )
        if csv:
            files.append(await self._csv(where, viewer, gm, embed))
        await interaction.followup.send(embed=embed, files=files, ephemeral=not public)

    async def _asked(
        self,
        interaction: discord.Interaction,
        roller: Roller,
        character: str | None,
        player: discord.User | None,
        table: bool,
        gm: bool,
    ) -> Asked:
        if sum((character is not None, player is not None, table)) > 1:
            raise UserError(tr("Ask for one of character, player or table at a time."))
        if character is not None:
            sheet = await self.bot.store.get_character(
                roller.guild_id, roller.campaign.id, character
            )
            if sheet.is_npc and not gm:
                raise UserError(
                    tr("{name} is an NPC; only the GMs see NPC statistics.", name=inert(sheet.name))
                )
            return Asked(StatsScope(character_id=sheet.id), inert(sheet.name))
        if player is not None:
            return Asked(StatsScope(user_id=player.id), inert(player.display_name))
        if table:
            return Asked(StatsScope(), tr("the table"))
        return Asked(StatsScope(user_id=roller.user_id), inert(interaction.user.display_name))

    async def _span(
        self, roller: Roller, scope: StatsScope, span: str, since: str | None, session: str | None
    ) -> StatsScope:
        start = parse_since(since) if since else None
        until = channel = played = None
        if session is not None or span == "session":
            played = await self._session(roller, session)
            # The session's rolls carry its id; its times only narrow the read to its rolls.
            began = played.started_at or played.start
            start = max(start, began) if start else began
            until = played.ended_at + SINCE_SLACK if played.ended_at else None
        elif span == "tonight":
            tonight = self.bot.now() - TONIGHT
            start = max(start, tonight) if start else tonight
        elif span == "fight":
            fight = await self.bot.store.last_fight(
                roller.guild_id, roller.campaign.id, roller.channel_id
            )
            if fight is None:
                raise UserError(
                    tr("No fight has run in this channel yet. Use span:fight where it ran.")
                )
            start = max(start, fight.started) if start else fight.started
            until, channel = fight.ended, fight.channel_id
        return StatsScope(
            user_id=scope.user_id,
            character_id=scope.character_id,
            channel_id=channel,
            session_id=played.id if played else None,
            since=start,
            until=until,
        )

    async def _session(self, roller: Roller, text: str | None) -> Session:
        """The session named, else the last one played (the running one, else the last that
        ended)."""
        if text is not None:
            return await pick_session(self.bot, roller, text, PLAYED)
        found = await self.bot.store.sessions_in(roller.guild_id, roller.campaign.id, PLAYED, 1)
        if not found:
            raise UserError(
                tr(
                    "{campaign} has not played a session yet. A GM starts one with "
                    "/session start; until then, try span:tonight.",
                    campaign=inert(roller.campaign.name),
                )
            )
        return found[0]

    async def _csv(
        self, where: tuple[int, int, StatsScope], viewer: int, gm: bool, embed: discord.Embed
    ) -> discord.File:
        """The rolls as a CSV attachment, at most CSV_ROWS_MAX of them (the oldest first)."""
        read = await self.bot.store.stats_rolls(
            *where, viewer_id=viewer, gm=gm, limit=CSV_ROWS_MAX, group=False
        )
        if read.cut:
            note = tr(
                "The CSV holds the first {count} rolls; narrow it with since or span for the rest.",
                count=CSV_ROWS_MAX,
            )
            embed.add_field(name=tr("CSV"), value=note, inline=False)
        data = rolls_csv(read.rolls).encode("utf-8")
        return discord.File(io.BytesIO(data), filename="rolls.csv")


async def setup(bot: WireBot) -> None:
    await bot.add_cog(Stats(bot))
