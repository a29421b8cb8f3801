"""Sessions at the table: `/session plan`, move, cancel, start, end, next, list, settings.

A GM plans an evening with a date and time in a zone (the campaign's, else UTC); the bot posts
it with Coming / Maybe / Not coming buttons (DynamicItems naming the session, so they work after
a restart and act for the presser alone) and mirrors it as a Discord scheduled event, which the
server lists in each reader's own time zone. Without Manage Events the session is kept and the
GM told what could not be done. A GM moving or cancelling the event in Discord's own UI moves or
cancels the session (the GUILD_SCHEDULED_EVENT_* gateway events); a member marking interest on
the event answers Coming (cogs/utils/interest.py hears it for uncached users too).

A sweep (per shard owner, as the CP requests' and the attacks' sweeps) sends the reminder in the
session's channel a set time before the start, naming who comes, and the day-before ping of the
players who have not answered; the store's compare-and-set makes each go out once. Ending a
session drafts its recap (cogs/session_recap.py). When is the rules core's (wire/sessions.py).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from cogs.session_events import SessionEvents
from cogs.session_recap import RecapButton, RecapCog, draft_panel, recap_draft
from cogs.utils.discord_limits import (
    CHOICE_NAME_MAX,
    CONTENT_MAX,
    MAX_CHOICES,
)
from cogs.utils.embeds import NEUTRAL
from cogs.utils.errors import UserError
from cogs.utils.interest import ScheduledEventInterest
from cogs.utils.language import adopt, for_table
from cogs.utils.options import Name
from cogs.utils.rolling import Roller, actor_of, load_roller
from cogs.utils.text import inert
from storage.errors import Busy, Conflict, NotFound, StorageError
from storage.rules_sessions import DueSession, Session
from wire import i18n
from wire import sessions as rules
from wire.i18n import tr, trc, trn
from wire.sessions import Answer, State
from wire.textcheck import clip

if TYPE_CHECKING:
    from bot import WireBot
    from storage.models import Campaign

log = logging.getLogger(__name__)
MISSING: Any = discord.utils.MISSING
ANSWER_ID = re.compile(r"wire:ses:(?P<session>[0-9]{1,19}):(?P<answer>coming|maybe|not)")
SWEEP_BATCH = 50
"""Sessions the reminders' sweep looks at per minute; the next sweep goes on with the rest."""
DEFAULT_LENGTH = 180
ICONS = {Answer.COMING: "✅", Answer.MAYBE: "❔", Answer.NOT: "❌"}


def answer_label(answer: Answer) -> str:
    """An answer's button label, in the language in use."""
    if answer is Answer.COMING:
        return trc("button", "Coming")
    if answer is Answer.MAYBE:
        return trc("button", "Maybe")
    return trc("button", "Not coming")


def answer_id(session_id: int, answer: Answer) -> str:
    return f"wire:ses:{session_id}:{answer.value}"


def when(session: Session) -> str:
    """The start as each reader's client shows it: full date and time, and how far off."""
    return f"{rules.timestamp(session.start, 'F')} ({rules.timestamp(session.start, 'R')})"


def length_text(minutes: int) -> str:
    hours, rest = divmod(minutes, 60)
    if rest == 0:
        return trn("{n} hour", "{n} hours", hours)
    return tr("{hours} h {minutes} min", hours=hours, minutes=rest)


def mentions(users: list[int]) -> str:
    return ", ".join(f"<@{u}>" for u in users) or "—"


def answer_lines(answers: dict[int, Answer]) -> list[str]:
    """Who answered what, one line each (in the language in use)."""
    return [
        f"{ICONS[answer]} {answer_label(answer)} ({len(rules.who(answers, answer))}): "
        + mentions(rules.who(answers, answer))
        for answer in Answer
    ]


def announcement(session: Session, answers: dict[int, Answer]) -> str:
    """The session's post: title, time, length, channel, state and who comes."""
    head = tr(
        "📅 **{title}**: {when}, {length}, in <#{channel}>.",
        title=inert(session.title),
        when=when(session),
        length=length_text(session.minutes),
        channel=session.channel_id,
    )
    if session.state is State.CANCELLED:
        head = "~~" + head + "~~ " + tr("Cancelled.")
    elif session.state is State.RUNNING:
        head += " " + tr("Playing now.")
    elif session.state is State.ENDED:
        head += " " + tr("Over.")
    return clip("\n".join([head, *answer_lines(answers)]), CONTENT_MAX)


def answer_view(session: Session) -> discord.ui.View | None:
    """Coming / Maybe / Not coming, while answers are open."""
    if session.state not in (State.PLANNED, State.RUNNING):
        return None
    view = discord.ui.View(timeout=None)
    for answer in Answer:
        view.add_item(AnswerButton(session.id, answer))
    return view


class AnswerButton(discord.ui.DynamicItem[discord.ui.Button], template=ANSWER_ID):
    """A player's answer to a session: it acts for the presser only and can be changed."""

    pattern = ANSWER_ID

    def __init__(self, session_id: int, answer: Answer) -> None:
        style = {
            Answer.COMING: discord.ButtonStyle.success,
            Answer.MAYBE: discord.ButtonStyle.secondary,
            Answer.NOT: discord.ButtonStyle.danger,
        }[answer]
        super().__init__(
            discord.ui.Button(
                label=answer_label(answer),
                emoji=ICONS[answer],
                style=style,
                custom_id=answer_id(session_id, answer),
            )
        )
        self.session_id, self.answer = session_id, answer

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any, /
    ) -> AnswerButton:
        return cls(int(match["session"]), Answer(match["answer"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: WireBot = interaction.client  # type: ignore[assignment]
        await bot.tree.run(interaction, lambda: self._press(bot, interaction))

    async def _press(self, bot: WireBot, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            raise UserError(tr("WIRE commands work in a server channel, not in direct messages."))
        session, answers = await bot.store.answer_session(
            interaction.guild_id, self.session_id, interaction.user.id, self.answer
        )
        await adopt_campaign(bot, session)
        with for_table():  # the table shares the post: it keeps the table's language
            text, view = announcement(session, answers), answer_view(session)
        await interaction.response.edit_message(
            content=text, view=view, allowed_mentions=discord.AllowedMentions.none()
        )


async def note(interaction: discord.Interaction, problem: str | None) -> None:
    """Tell the GM, alone, what could not be done on Discord's side (the session is kept)."""
    if problem:
        await interaction.followup.send(problem, ephemeral=True)


async def adopt_campaign(bot: WireBot, session: Session) -> Campaign | None:
    """Speak the session's campaign's fixed language, if it has one."""
    try:
        campaign = await bot.store.get_campaign_by_id(session.guild_id, session.campaign_id)
    except NotFound:
        return None
    adopt(campaign)
    return campaign


async def _choices(
    interaction: discord.Interaction, current: str, states: tuple[State, State]
) -> list[app_commands.Choice[str]]:
    """The campaign's sessions in `states`, soonest first: "title · date"."""
    bot: WireBot = interaction.client  # type: ignore[assignment]
    if interaction.guild_id is None or interaction.channel_id is None:
        return []
    try:
        campaign = await bot.store.campaign_for_channel(
            interaction.guild_id, interaction.channel_id, actor_of(interaction)
        )
        found = await bot.store.sessions_in(interaction.guild_id, campaign.id, states, 100)
    except StorageError:
        return []
    folded = current.casefold()
    return [
        app_commands.Choice(
            name=clip(f"{s.title} · {s.start:%Y-%m-%d %H:%M} UTC", CHOICE_NAME_MAX),
            value=str(s.id),
        )
        for s in sorted(found, key=lambda s: s.start)
        if folded in s.title.casefold() or current == str(s.id)
    ][:MAX_CHOICES]


async def session_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The sessions to come (planned or running), for move, cancel and start."""
    return await _choices(interaction, current, (State.PLANNED, State.RUNNING))


async def played_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The sessions played (running or over), for /history session:."""
    return await _choices(interaction, current, (State.RUNNING, State.ENDED))


async def pick_session(
    bot: WireBot, roller: Roller, text: str | None, states: tuple[State, State]
) -> Session:
    """The session named (its id from the list, or its title), else the next one in
    `states`; it must be this channel's campaign's."""
    store = bot.store
    found = await store.sessions_in(roller.guild_id, roller.campaign.id, states, 100)
    if text:
        wanted = text.strip()
        match = [s for s in found if str(s.id) == wanted] or [
            s for s in found if s.title.casefold() == wanted.casefold()
        ]
        if not match:
            raise UserError(
                tr(
                    "No session {name} of {campaign} fits here. Pick one from the list "
                    "(/session next shows the next one, /session list those played).",
                    name=inert(wanted),
                    campaign=inert(roller.campaign.name),
                )
            )
        return min(match, key=lambda s: s.start)
    if not found and states == (State.RUNNING, State.RUNNING):
        raise UserError(
            tr(
                "No session of {campaign} is running. A GM starts one with /session start.",
                campaign=inert(roller.campaign.name),
            )
        )
    if not found:
        raise UserError(
            tr(
                "{campaign} has no planned session. A GM plans one with /session plan.",
                campaign=inert(roller.campaign.name),
            )
        )
    return min(found, key=lambda s: s.start)


class Sessions(commands.GroupCog, group_name="session"):
    """Sessions: plan, answer, remind, play, recap."""

    def __init__(self, bot: WireBot) -> None:
        self.bot = bot
        self.recaps = RecapCog(bot)
        self.events = SessionEvents(bot)
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(AnswerButton, RecapButton)
        self.recaps.load()
        if self.bot.background_tasks:
            self.remind.start()

    async def cog_unload(self) -> None:
        self.remind.cancel()
        self.recaps.unload()
        self.bot.remove_dynamic_items(AnswerButton, RecapButton)

    # ---- helpers ---------------------------------------------------------------------------
    async def _zone(self, roller: Roller, zone: str | None) -> str | None:
        if zone:
            return zone
        settings = await self.bot.store.session_settings(roller.guild_id, roller.campaign.id)
        return settings.zone

    async def _planned(
        self, interaction: discord.Interaction, session: str | None
    ) -> tuple[Roller, Session]:
        """This channel's campaign, and the planned session named (else the next)."""
        roller = await load_roller(self.bot, interaction)
        return roller, await pick_session(self.bot, roller, session, (State.PLANNED, State.PLANNED))

    async def _change_planned(
        self,
        interaction: discord.Interaction,
        session: str | None,
        change: Callable[[Roller, Session], Awaitable[Session]],
        say: Callable[[Session], tuple[str, discord.ui.View | None]],
        mirror: Callable[[discord.Guild | None, Session], Awaitable[str | None]],
    ) -> None:
        """A GM's change of a planned session (move, cancel, start): made in the store, told
        to the table in its language, then mirrored on the Discord event (a GM told, alone,
        what Discord refused)."""
        roller, chosen = await self._planned(interaction, session)
        changed = await change(roller, chosen)
        with for_table():
            text, view = say(changed)
        await interaction.response.send_message(text, view=view or MISSING)
        await note(interaction, await mirror(interaction.guild, changed))

    def _start(self, day: str, clock: str, zone_name: str | None) -> datetime:
        start = rules.start_at(day, clock, zone_name)
        rules.check_future(start, self.bot.now())
        return start

    # ---- commands --------------------------------------------------------------------------
    @app_commands.command(name="plan", description="GMs: plan a session (a Discord event too)")
    @app_commands.guild_only()
    @app_commands.describe(
        title="What the evening is called",
        date="The day, e.g. 2026-12-05 or 5.12.2026",
        time="The start, e.g. 19:30 (24-hour clock)",
        length="Expected length in minutes (default 180)",
        channel="Where it is played and reminded (default: this channel)",
        zone="The time zone of date and time, e.g. Europe/Berlin (default: the campaign's)",
    )
    async def plan(
        self,
        interaction: discord.Interaction,
        title: Name,
        date: app_commands.Range[str, 1, 20],
        time: app_commands.Range[str, 1, 10],
        length: app_commands.Range[int, 15, rules.LENGTH_MAX_MINUTES] = DEFAULT_LENGTH,
        channel: discord.TextChannel | None = None,
        zone: app_commands.Range[str, 1, 64] | None = None,
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        start = self._start(date, time, await self._zone(roller, zone))
        where = channel.id if channel else roller.channel_id
        session = await self.bot.store.plan_session(
            roller.guild_id, roller.campaign.id, roller.user_id, title, start, length, where
        )
        with for_table():
            text, view = announcement(session, {}), answer_view(session)
        await interaction.response.send_message(
            text, view=view, allowed_mentions=discord.AllowedMentions.none()
        )
        await note(interaction, await self.events.create(interaction.guild, session))

    @app_commands.command(name="move", description="GMs: move a planned session")
    @app_commands.guild_only()
    @app_commands.describe(
        date="The new day, e.g. 2026-12-12",
        time="The new start, e.g. 19:30",
        session="Which one (default: the next)",
        length="A new expected length in minutes",
        zone="The time zone of date and time (default: the campaign's)",
    )
    @app_commands.autocomplete(session=session_choices)
    async def move(
        self,
        interaction: discord.Interaction,
        date: app_commands.Range[str, 1, 20],
        time: app_commands.Range[str, 1, 10],
        session: app_commands.Range[str, 1, 100] | None = None,
        length: app_commands.Range[int, 15, rules.LENGTH_MAX_MINUTES] | None = None,
        zone: app_commands.Range[str, 1, 64] | None = None,
    ) -> None:
        async def move(roller: Roller, chosen: Session) -> Session:
            start = self._start(date, time, await self._zone(roller, zone))
            return await self.bot.store.move_session(
                roller.guild_id, chosen.id, roller.user_id, start, length
            )

        def say(moved: Session) -> tuple[str, discord.ui.View | None]:
            text = tr(
                "🔁 **{title}** moved to {when}. The reminder follows it.",
                title=inert(moved.title),
                when=when(moved),
            )
            return text, answer_view(moved)

        await self._change_planned(interaction, session, move, say, self.events.move)

    @app_commands.command(name="cancel", description="GMs: cancel a planned session")
    @app_commands.guild_only()
    @app_commands.describe(session="Which one (default: the next)")
    @app_commands.autocomplete(session=session_choices)
    async def cancel(
        self,
        interaction: discord.Interaction,
        session: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        async def cancel(roller: Roller, chosen: Session) -> Session:
            return await self.bot.store.cancel_session(roller.guild_id, chosen.id, roller.user_id)

        def say(done: Session) -> tuple[str, discord.ui.View | None]:
            text = tr(
                "❌ **{title}** on {when} is cancelled; no reminder will come.",
                title=inert(done.title),
                when=rules.timestamp(done.start, "F"),
            )
            return text, None

        await self._change_planned(interaction, session, cancel, say, self.events.remove)

    @app_commands.command(name="start", description="GMs: start a session: rolls count for it")
    @app_commands.guild_only()
    @app_commands.describe(session="Which one (default: the next)")
    @app_commands.autocomplete(session=session_choices)
    async def start(
        self,
        interaction: discord.Interaction,
        session: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        async def start(roller: Roller, chosen: Session) -> Session:
            return await self.bot.store.start_session(roller.guild_id, chosen.id, roller.user_id)

        def say(running: Session) -> tuple[str, discord.ui.View | None]:
            text = tr(
                "▶️ **{title}** has begun: the rolls, fights and CP from now on are its own, "
                "until a GM ends it with /session end.",
                title=inert(running.title),
            )
            return text, None

        await self._change_planned(interaction, session, start, say, self.events.begin)

    @app_commands.command(name="end", description="GMs: end the running session, draft its recap")
    @app_commands.guild_only()
    async def end(self, interaction: discord.Interaction) -> None:
        roller = await load_roller(self.bot, interaction)
        chosen = await pick_session(self.bot, roller, None, (State.RUNNING, State.RUNNING))
        ended = await self.bot.store.end_session(roller.guild_id, chosen.id, roller.user_id)
        with for_table():
            text = tr("⏹️ **{title}** is over. Thanks for playing!", title=inert(ended.title))
        await interaction.response.send_message(text)
        draft = await recap_draft(self.bot, ended)
        await interaction.followup.send(
            tr("The recap's draft (only you see it): edit it and post it in a thread.")
            + "\n\n"
            + clip(draft, CONTENT_MAX - 200),
            view=draft_panel(ended.id),
            ephemeral=True,
        )
        await note(interaction, await self.events.finish(interaction.guild, ended))

    @app_commands.command(
        name=app_commands.locale_str("next", msgctxt="name (session)"),
        description="When the next session is",
    )
    @app_commands.guild_only()
    async def next(self, interaction: discord.Interaction) -> None:
        roller = await load_roller(self.bot, interaction)
        store = self.bot.store
        found = await store.sessions_in(
            roller.guild_id, roller.campaign.id, (State.PLANNED, State.RUNNING), 100
        )
        index = rules.next_of([(s.start, s.state) for s in found], self.bot.now())
        if index is None:
            await interaction.response.send_message(
                tr(
                    "No session of {campaign} is planned. A GM plans one with /session plan.",
                    campaign=inert(roller.campaign.name),
                ),
                ephemeral=True,
            )
            return
        session = found[index]
        answers = await store.session_answers(roller.guild_id, session.id)
        await interaction.response.send_message(
            announcement(session, answers), ephemeral=True, view=answer_view(session) or MISSING
        )

    @app_commands.command(name="list", description="Past sessions and their recaps")
    @app_commands.guild_only()
    async def list(self, interaction: discord.Interaction) -> None:
        roller = await load_roller(self.bot, interaction)
        past = await self.bot.store.sessions_in(
            roller.guild_id, roller.campaign.id, (State.ENDED, State.CANCELLED)
        )
        lines = []
        for session in past:
            line = f"**{inert(session.title)}** · {rules.timestamp(session.start, 'D')}"
            if session.state is State.CANCELLED:
                line += " · " + tr("cancelled")
            elif session.thread_id:
                line += " · " + tr("recap: <#{thread}>", thread=session.thread_id)
            if session.recap:
                line += "\n> " + inert(clip(session.recap.replace("\n", " "), 200))
            lines.append(line)
        embed = discord.Embed(
            title=clip(tr("Past sessions of {campaign}", campaign=roller.campaign.name), 256),
            description=clip("\n".join(lines) or tr("No session is over yet."), 4096),
            colour=NEUTRAL,
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="settings", description="GMs: time zone, reminder, day-before ping")
    @app_commands.guild_only()
    @app_commands.describe(
        zone="The zone dates and times are typed in, e.g. Europe/Berlin",
        reminder="Minutes before the start the reminder comes (default 15)",
        ping="A day before, ping the players who have not answered",
    )
    async def settings(
        self,
        interaction: discord.Interaction,
        zone: app_commands.Range[str, 1, 64] | None = None,
        reminder: app_commands.Range[int, 0, rules.LEAD_MAX_MINUTES] | None = None,
        ping: bool | None = None,
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        store = self.bot.store
        if zone is None and reminder is None and ping is None:
            settings = await store.session_settings(roller.guild_id, roller.campaign.id)
        else:
            settings = await store.set_session_settings(
                roller.guild_id,
                roller.campaign.id,
                roller.user_id,
                zone_name=zone,
                lead_minutes=reminder,
                nudge=ping,
            )
        lead = rules.lead_of(settings.lead_minutes)
        lines = [
            tr("Sessions of {campaign}:", campaign=inert(roller.campaign.name)),
            "- " + tr("time zone: {zone}", zone=settings.zone or rules.DEFAULT_ZONE),
            "- "
            + trn(
                "reminder: {n} minute before the start",
                "reminder: {n} minutes before the start",
                int(lead.total_seconds() // 60),
            ),
            "- "
            + (
                tr("a day before, the players who have not answered are pinged")
                if settings.nudge
                else tr("no ping a day before")
            ),
        ]
        await interaction.response.send_message("\n".join(lines), ephemeral=True)

    # ---- Discord's side: a GM moving or cancelling the event in Discord ---------------------
    @commands.Cog.listener()
    async def on_scheduled_event_update(
        self, before: discord.ScheduledEvent, after: discord.ScheduledEvent
    ) -> None:
        await self.follow_event(after, deleted=False)

    @commands.Cog.listener()
    async def on_scheduled_event_delete(self, event: discord.ScheduledEvent) -> None:
        await self.follow_event(event, deleted=True)

    async def follow_event(self, event: discord.ScheduledEvent, *, deleted: bool) -> None:
        """Keep the session in step with its event changed in Discord: cancelled or deleted
        cancels a planned session, started starts it, a new start time moves it. A change the
        session cannot take (it is over already, our own edit coming back) is left alone."""
        store = self.bot.store
        try:
            session = await store.session_by_event(event.guild_id, event.id)
            if session is None or session.state is not State.PLANNED:
                return
            if deleted or event.status is discord.EventStatus.cancelled:
                await store.cancel_session(event.guild_id, session.id, None)
            elif event.status is discord.EventStatus.active:
                await store.start_session(event.guild_id, session.id, None)
            elif event.start_time != session.start:
                minutes = session.minutes
                if event.end_time is not None and event.end_time > event.start_time:
                    span = (event.end_time - event.start_time).total_seconds() // 60
                    minutes = max(1, min(rules.LENGTH_MAX_MINUTES, int(span)))
                await store.move_session(
                    event.guild_id, session.id, None, event.start_time, minutes
                )
        except (Conflict, NotFound) as error:
            log.info("Scheduled event %s: the session did not follow: %s", event.id, error)
        except StorageError:
            log.warning("Scheduled event %s: could not follow it", event.id, exc_info=True)

    @commands.Cog.listener()
    async def on_scheduled_event_interest(self, mark: ScheduledEventInterest) -> None:
        """A member marked interest on a session's event (Coming) or took it back (withdrawn,
        unless they answered by button): their answer, in the GM's list and the reminder."""
        try:
            await self.bot.store.mark_interest(
                mark.guild_id, mark.event_id, mark.user_id, mark.interested
            )
        except StorageError:
            log.warning("Scheduled event %s: interest not kept", mark.event_id, exc_info=True)

    # ---- the reminders' sweep --------------------------------------------------------------
    @tasks.loop(minutes=1)
    async def remind(self) -> None:
        try:
            await self.sweep_reminders()
        except Exception:  # discord.ext.tasks ends a loop for good on an unhandled error
            log.exception("The session reminders' sweep failed; it runs again in a minute")

    @remind.before_loop
    async def _before_remind(self) -> None:
        await self.bot.wait_until_ready()

    async def sweep_reminders(self) -> int:
        """Send the reminders and the day-before pings now due, each once (the store's claim);
        of this process's shards' servers only; how many went out. One that cannot be sent (a
        deleted channel, no permission) is noted to the GMs and not tried again."""
        store, now = self.bot.store, self.bot.now()
        try:
            found = await store.due_sessions(now, SWEEP_BATCH, self.bot.config.own_shards)
        except Busy:
            log.warning("Session reminders: the database is busy; trying again in a minute")
            return 0
        sent = 0
        for due in found:
            try:
                sent += await self._remind_one(due, now)
            except Exception:
                log.exception("Session reminders: session %s failed", due.session.id)
        return sent

    async def _remind_one(self, due: DueSession, now: datetime) -> int:
        """The reminder if due, else the day-before ping if wanted and due: claimed, then sent."""
        session = due.session
        lead = rules.lead_of(due.settings.lead_minutes)
        if rules.reminder_due(session.timing, lead, now):
            return await self._reminder(session)
        if due.settings.nudge and rules.nudge_due(session.timing, lead, now):
            return await self._nudge(session)
        return 0

    async def _reminder(self, session: Session) -> int:
        store = self.bot.store
        if not await store.claim_reminder(session.guild_id, session):
            return 0  # another process, or this one before a restart, sent it
        answers = await store.session_answers(session.guild_id, session.id)
        coming = rules.who(answers, Answer.COMING)
        with await self._speaking(session):
            text = tr(
                "⏰ **{title}** starts {when}. Coming: {players}",
                title=inert(session.title),
                when=rules.timestamp(session.start, "R"),
                players=mentions(coming),
            )
        return await self._post(session, text, coming)

    async def _nudge(self, session: Session) -> int:
        store = self.bot.store
        if not await store.claim_nudge(session.guild_id, session):
            return 0
        answers = await store.session_answers(session.guild_id, session.id)
        players = await store.campaign_player_ids(session.guild_id, session.campaign_id)
        waiting = rules.unanswered(players, answers)
        if not waiting:
            return 0
        with await self._speaking(session):
            text = tr(
                "📅 **{title}** is {when}. Not answered yet: {players} (the buttons under its "
                "post, or /session next).",
                title=inert(session.title),
                when=rules.timestamp(session.start, "R"),
                players=mentions(waiting),
            )
        return await self._post(session, text, waiting)

    async def _speaking(self, session: Session) -> Any:
        """A note of the sweep speaks the campaign's fixed language, else the server's
        preferred one (what a command's `for_table` would)."""
        fixed = None
        try:
            campaign = await self.bot.store.get_campaign_by_id(
                session.guild_id, session.campaign_id
            )
            fixed = campaign.language
        except StorageError:
            pass
        guild = self.bot.get_guild(session.guild_id)
        server = i18n.language_of(guild.preferred_locale) if guild else i18n.DEFAULT
        return i18n.speaking(fixed or server)

    async def _post(self, session: Session, text: str, users: list[int]) -> int:
        channel = self.bot.get_partial_messageable(session.channel_id, guild_id=session.guild_id)
        try:
            await channel.send(
                clip(text, CONTENT_MAX),
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in users]),
            )
            return 1
        except discord.HTTPException as error:
            log.info("Session %s: the reminder could not be posted: %s", session.id, error)
            await self._tell_gms(session, error)
            return 0

    async def _tell_gms(self, session: Session, error: discord.HTTPException) -> None:
        """A note in the campaign's GM channel (if it has one) that a reminder did not go."""
        try:
            campaign = await self.bot.store.get_campaign_by_id(
                session.guild_id, session.campaign_id
            )
        except StorageError:
            return
        if not campaign.gm_channel_id or campaign.gm_channel_id == session.channel_id:
            return
        with await self._speaking(session):
            text = tr(
                "GMs: the reminder for **{title}** could not be posted in <#{channel}> (the "
                "channel is gone or I may not write there). Move the session to another "
                "channel with a new /session plan, or let me post there.",
                title=inert(session.title),
                channel=session.channel_id,
            )
        gm_channel = self.bot.get_partial_messageable(
            campaign.gm_channel_id, guild_id=session.guild_id
        )
        try:
            await gm_channel.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.warning("Session %s: could not tell the GMs either (%s)", session.id, error)


async def setup(bot: WireBot) -> None:
    await bot.add_cog(Sessions(bot))
