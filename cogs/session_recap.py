"""A session's recap: drafted when it ends, edited by the GM in a form, posted in a thread of
the session's channel, with a panel to award the evening's CP.

The draft reads only what the table saw: public rolls of player characters (never a hidden roll,
never an NPC's numbers), the best and worst by degrees and the luckiest and unluckiest by the
odds (wire/stats.py), the fights' summaries as their trackers showed them with their shown
conditions (never a GM's hidden one) and who went down, and how many CP requests were made.
The GM's edit is what is posted and kept. The award is one press: the CP to everyone who played
(or to the names left in the form), one ledger entry a character through the store's award path,
the session named as the reason, once a session; `/cp undo` undoes an entry.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import discord

from cogs.advancement import totals_line
from cogs.utils.discord_limits import CONTENT_MAX, EMBED_DESCRIPTION_MAX, EMBED_TITLE_MAX
from cogs.utils.embeds import NEUTRAL
from cogs.utils.errors import UserError
from cogs.utils.language import adopt, for_table
from cogs.utils.line_form import submitted
from cogs.utils.options import whole_number
from cogs.utils.rolling import actor_of
from cogs.utils.text import inert
from storage.models_advancement import MAX_AWARD, REASON_MAX
from storage.rules_sessions import Session, SessionCondition, SessionRoll
from wire import sessions as rules
from wire.i18n import tr, trc, trn
from wire.stats import LoggedRoll, RollLuck, roll_luck
from wire.stats_text import share
from wire.textcheck import clip, normal_text, text_problem

if TYPE_CHECKING:
    from bot import WireBot

log = logging.getLogger(__name__)
RECAP_ID = re.compile(r"wire:ses:(?P<session>[0-9]{1,19}):(?P<what>recap|award)")
FORM_ID = re.compile(r"wire:ses:(?P<session>[0-9]{1,19}):(?P<what>recap|award):form")
RECAP_INPUT = "wire:ses:recap:text"
AMOUNT_INPUT = "wire:ses:award:amount"
NAMES_INPUT = "wire:ses:award:names"
MODAL_TITLE_MAX = 45
FORM_TEXT_MAX = 4000
THREAD_NAME_MAX = 100


def _roll_line(label: str, roll: SessionRoll) -> str:
    word = "DoS" if roll.success else "DoF"
    return tr(
        "{label}: **{name}**, {total} against {target}, {degrees} {word}",
        label=label,
        name=inert(roll.character_name or "?"),
        total=roll.total,
        target=roll.target,
        degrees=roll.degrees,
        word=tr(word),
    )


def notable(rolls: list[SessionRoll]) -> list[str]:
    """The notable rolls of player characters' public rolls: the best success and the worst
    failure by degrees, and the luckiest and unluckiest by the odds. A roll that is both (the
    best and the luckiest) is one line with its luck added, not the same roll twice."""
    judged = [r for r in rolls if _judged(r)]
    wins = [r for r in judged if r.success]
    losses = [r for r in judged if not r.success]
    best = max(wins, key=lambda r: (r.degrees, -r.id)) if wins else None
    worst = max(losses, key=lambda r: (r.degrees, -r.id)) if losses else None
    picked = [(tr("Best roll"), best), (tr("Worst roll"), worst)]
    luck_words: dict[int, str] = {}
    labels = (tr("Luckiest roll"), tr("Unluckiest roll"))
    for label, found in zip(labels, lucky(judged), strict=True):
        if found is None:
            continue
        words, roll = found
        luck_words[roll.id] = words
        if all(roll is not shown for _label, shown in picked):
            picked.append((label, roll))
    return [
        _roll_line(label, roll) + (f" {luck_words[roll.id]}" if roll.id in luck_words else "")
        for label, roll in picked
        if roll is not None
    ]


def _judged(roll: SessionRoll) -> bool:
    """A player character's roll against a target, with its outcome known."""
    return not roll.is_npc and roll.success is not None and roll.degrees is not None


def _luck(roll: SessionRoll) -> RollLuck | None:
    """The roll against its own odds (wire.stats), where chance decided it: a die rolled
    against a target (not taken 10, not a free roll)."""
    if roll.die is None or roll.total is None or roll.target is None or not _judged(roll):
        return None
    return roll_luck(
        LoggedRoll(
            roll.kind,
            roll.die,
            roll.die_source or "",
            roll.total,
            roll.target,
            bool(roll.success),
            int(roll.degrees or 0),
        )
    )


Lucky = tuple[str, SessionRoll]
"""A roll picked by its odds, and the words saying how lucky it was."""


def lucky(rolls: list[SessionRoll]) -> tuple[Lucky | None, Lucky | None]:
    """The luckiest and the unluckiest roll by the odds (each roll's percentile under its own
    odds, wire.stats.roll_luck); none when fewer than two rolls had odds or all were alike."""
    judged = [(luck, roll) for roll in rolls if (luck := _luck(roll)) is not None]
    if len(judged) < 2:
        return None, None
    best = max(judged, key=lambda pair: (pair[0].percentile, -pair[1].id))
    worst = min(judged, key=lambda pair: (pair[0].percentile, pair[1].id))
    if best[0].percentile == worst[0].percentile:
        return None, None  # every roll as lucky as the next: nothing stands out
    better = share(best[0].percentile)
    worse = share(1 - worst[0].percentile)
    return (
        (tr("(better than {share} of throws with its odds)", share=better), best[1]),
        (tr("(worse than {share} of throws with its odds)", share=worse), worst[1]),
    )


def condition_lines(conditions: list[SessionCondition]) -> list[str]:
    """A fight's shown conditions, one line: who bore which, and which ended before the
    fight's end (run out or cured); GMs' hidden conditions are never among them."""
    if not conditions:
        return []
    named = [
        tr("{condition} on {bearer}", condition=inert(c.name), bearer=inert(c.bearer))
        + (f" ({tr('ended')})" if c.ended else "")
        for c in conditions
    ]
    return ["- " + tr("Conditions: {list}", list="; ".join(named))]


async def recap_draft(bot: WireBot, session: Session) -> str:
    """The recap as the bot drafts it, in the language in use."""
    store = bot.store
    content = await store.session_content(session.guild_id, session)
    lines = [tr("**{title}**", title=inert(session.title))]
    if session.started_at and session.ended_at:
        lines.append(
            tr(
                "Played {start} to {end}.",
                start=rules.timestamp(session.started_at, "f"),
                end=rules.timestamp(session.ended_at, "t"),
            )
        )
    names = ", ".join(inert(p.name) for p in content.players)
    lines.append(tr("Who played: {names}", names=names or tr("nobody rolled")))
    for fight_id in content.fight_ids:
        fight = await store.get_fight(session.guild_id, fight_id)
        if fight is None:
            continue
        lines.append(
            "⚔️ "
            + trn(
                "{fight}: {n} round",
                "{fight}: {n} rounds",
                fight.round,
                fight=inert(fight.name),
            )
        )
        for c in sorted(fight.combatants, key=lambda c: c.position):
            line = "- " + tr(
                "**{name}**: dealt {dealt}, took {taken}",
                name=inert(c.name),
                dealt=c.dealt,
                taken=c.taken,
            )
            lines.append(line + (f" · {tr('down')}" if c.health.down else ""))
        lines += condition_lines([c for c in content.conditions if c.fight_id == fight_id])
        downed = dict.fromkeys(who for fought, who in content.downings if fought == fight_id)
        if downed:
            names = ", ".join(inert(who) for who in downed)
            lines.append("- " + tr("Went down: {names}", names=names))
    lines += notable(content.rolls)
    lines.append(
        trn("{n} roll in all.", "{n} rolls in all.", len(content.rolls))
        + " "
        + trn(
            "{n} CP request made.",
            "{n} CP requests made.",
            content.cp_requests,
        )
    )
    return "\n".join(lines)


def draft_panel(session_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(RecapButton(session_id, "recap"))
    return view


def award_panel(session_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(RecapButton(session_id, "award"))
    return view


class RecapButton(discord.ui.DynamicItem[discord.ui.Button], template=RECAP_ID):
    """The GM's Edit and post (on the draft) and Award CP (on the posted recap)."""

    pattern = RECAP_ID

    def __init__(self, session_id: int, what: str) -> None:
        recap = what == "recap"
        super().__init__(
            discord.ui.Button(
                label=trc("button", "Edit and post") if recap else trc("button", "Award CP"),
                style=discord.ButtonStyle.primary if recap else discord.ButtonStyle.success,
                custom_id=f"wire:ses:{session_id}:{what}",
            )
        )
        self.session_id, self.what = session_id, what

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any, /
    ) -> RecapButton:
        return cls(int(match["session"]), match["what"])

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: WireBot = interaction.client  # type: ignore[assignment]
        await bot.tree.run(interaction, lambda: self._press(bot, interaction))

    async def _press(self, bot: WireBot, interaction: discord.Interaction) -> None:
        session = await gm_session(bot, interaction, self.session_id)
        if self.what == "recap":
            form = recap_form(session, session.recap or await recap_draft(bot, session))
        else:
            content = await bot.store.session_content(session.guild_id, session)
            form = award_form(session, [p.name for p in content.players])
        await interaction.response.send_modal(form)


async def gm_session(bot: WireBot, interaction: discord.Interaction, session_id: int) -> Session:
    """The session, if the presser is one of its campaign's GMs (checked again on the submit)."""
    if interaction.guild_id is None:
        raise UserError(tr("WIRE commands work in a server channel, not in direct messages."))
    session = await bot.store.get_session(interaction.guild_id, session_id)
    campaign = await bot.store.get_campaign_by_id(session.guild_id, session.campaign_id)
    adopt(campaign)
    if not campaign.is_gm(actor_of(interaction)):
        raise UserError(tr("Only a GM of {campaign} does that.", campaign=inert(campaign.name)))
    return session


def _form(session: Session, what: str, title: str) -> discord.ui.Modal:
    form = discord.ui.Modal(
        title=clip(title, MODAL_TITLE_MAX), custom_id=f"wire:ses:{session.id}:{what}:form"
    )
    form.stop()
    return form


def recap_form(session: Session, text: str) -> discord.ui.Modal:
    form = _form(session, "recap", tr("Recap of {title}", title=session.title))
    form.add_item(
        discord.ui.Label(
            text=trc("form", "Recap"),
            description=trc("form description", "Posted in a thread of the session's channel"),
            component=discord.ui.TextInput(
                custom_id=RECAP_INPUT,
                style=discord.TextStyle.paragraph,
                default=clip(text, FORM_TEXT_MAX),
                min_length=1,
                max_length=FORM_TEXT_MAX,
            ),
        )
    )
    return form


def award_form(session: Session, players: list[str]) -> discord.ui.Modal:
    form = _form(session, "award", tr("CP for {title}", title=session.title))
    form.add_item(
        discord.ui.Label(
            text=trc("form", "CP each"),
            component=discord.ui.TextInput(
                custom_id=AMOUNT_INPUT, style=discord.TextStyle.short, min_length=1, max_length=5
            ),
        )
    )
    form.add_item(
        discord.ui.Label(
            text=trc("form", "Characters"),
            description=trc("form description", "Everyone who played; remove whom to leave out"),
            component=discord.ui.TextInput(
                custom_id=NAMES_INPUT,
                style=discord.TextStyle.paragraph,
                default=clip(", ".join(players), FORM_TEXT_MAX) or None,
                required=False,
                max_length=FORM_TEXT_MAX,
            ),
        )
    )
    return form


class RecapCog:
    """The recap's forms (answered from the bot's `on_interaction`, as every form)."""

    def __init__(self, bot: WireBot) -> None:
        self.bot = bot

    def load(self) -> None:
        self.bot.add_form(FORM_ID, self.on_form)

    def unload(self) -> None:
        self.bot.remove_form(FORM_ID)

    async def on_form(self, interaction: discord.Interaction, match: re.Match[str]) -> None:
        session_id, what = int(match["session"]), match["what"]
        handler = self.post if what == "recap" else self.award
        await self.bot.tree.run(interaction, lambda: handler(interaction, session_id))

    async def post(self, interaction: discord.Interaction, session_id: int) -> None:
        """Post the recap as the GM wrote it in a thread of the session's channel."""
        session = await gm_session(self.bot, interaction, session_id)
        if session.thread_id is not None:  # a second form, or a press after the post
            raise UserError(
                tr(
                    "The recap of {title} is posted already, in <#{thread}>.",
                    title=inert(session.title),
                    thread=session.thread_id,
                )
            )
        text = str(submitted(interaction.data).get(RECAP_INPUT) or "")
        problem = text_problem(text, FORM_TEXT_MAX, multiline=True)
        if problem:
            raise UserError(f"{trc('form', 'Recap')}: {problem.what}. {problem.fix}")
        text = normal_text(text)
        # Kept first: a recap the store refused is never posted.
        await self.bot.store.set_session_recap(
            session.guild_id, session.id, actor_of(interaction), text, session.thread_id
        )
        await interaction.response.defer(ephemeral=True, thinking=True)
        channel = self.bot.get_partial_messageable(
            session.channel_id, guild_id=session.guild_id, type=discord.ChannelType.text
        )
        with for_table():
            head = tr("📜 Recap of **{title}**", title=inert(session.title))
            embed = discord.Embed(
                title=clip(session.title, EMBED_TITLE_MAX),
                description=clip(text, EMBED_DESCRIPTION_MAX),
                colour=NEUTRAL,
            )
            view = award_panel(session.id)
        try:
            message = await channel.send(head)
            thread = await message.create_thread(name=clip(session.title, THREAD_NAME_MAX))
            await thread.send(embed=embed, view=view)
        except discord.HTTPException as error:
            log.info("Session %s: the recap could not be posted: %s", session.id, error)
            raise UserError(
                tr(
                    "I could not post the recap in <#{channel}> or open a thread there "
                    "(permissions: Send Messages, Create Public Threads). Nothing was posted.",
                    channel=session.channel_id,
                )
            ) from None
        await self.bot.store.set_session_recap(
            session.guild_id, session.id, actor_of(interaction), text, thread.id
        )
        await interaction.followup.send(
            tr("The recap is posted in <#{thread}>.", thread=thread.id), ephemeral=True
        )

    async def award(self, interaction: discord.Interaction, session_id: int) -> None:
        """Award the CP in the form to who played (or the names left in it), once."""
        session = await gm_session(self.bot, interaction, session_id)
        values = submitted(interaction.data)
        typed = str(values.get(AMOUNT_INPUT) or "").strip()
        amount = whole_number(typed)
        if amount is None or not 0 < abs(amount) <= MAX_AWARD:
            raise UserError(
                tr(
                    "{amount} is not a number of CP: write e.g. 10 (1 to {most}).",
                    amount=inert(typed),
                    most=MAX_AWARD,
                )
            )
        names = [n.strip() for n in str(values.get(NAMES_INPUT) or "").split(",") if n.strip()]
        content = await self.bot.store.session_content(session.guild_id, session)
        played = [p.name for p in content.players]
        chosen = None if names == played else names
        if chosen == []:
            raise UserError(tr("Name at least one character, or keep the list of who played."))
        done = await self.bot.store.award_session_cp(
            session.guild_id,
            session.id,
            actor_of(interaction),
            amount,
            clip(session.title, REASON_MAX),
            chosen,
        )
        lines = [
            tr("{amount} CP: {reason}", amount=f"{amount:+d}", reason=inert(session.title))
        ] + [f"- **{inert(sheet.name)}**: {totals_line(totals)}" for sheet, totals in done]
        secret = any(sheet.is_npc for sheet, _totals in done)
        await interaction.response.send_message(
            clip("\n".join(lines), CONTENT_MAX), ephemeral=secret
        )
