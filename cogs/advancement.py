"""Character points at the table: the GMs price and award, the players spend, the ledger shows.

`/cp ...` holds the GMs' settings, awards, the ledger and its undo; `/character improve`, `cost`
and `species` are declared here (`SheetPricing`) and mixed into the Characters cog's group, so
a player finds them beside the sheet. An improvement shows its price and waits for the
player's confirm; with approval on it then waits for a GM, whose Approve / Refuse buttons are
DynamicItems naming the request, so they work after a restart. The store does the bookkeeping in
one transaction (storage/rules_advancement.py); the prices are the rules core's (wire/advancement).
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from cogs.utils import autocomplete as ac
from cogs.utils.confirm import Confirm
from cogs.utils.discord_limits import (
    CHOICE_NAME_MAX,
    CHOICE_VALUE_MAX,
    CONTENT_MAX,
    EMBED_DESCRIPTION_MAX,
    EMBED_FIELD_VALUE_MAX,
    EMBED_TITLE_MAX,
    MAX_CHOICES,
)
from cogs.utils.embeds import NEUTRAL
from cogs.utils.errors import UserError
from cogs.utils.language import adopt, for_table, table_language
from cogs.utils.line_form import line_form, submitted
from cogs.utils.options import Name, NameList, whole_number
from cogs.utils.rolling import Roller, actor_of, channel_fight, load_roller
from cogs.utils.text import inert
from storage.errors import Busy, LedgerHolds, NotFound, StorageError
from storage.models_advancement import (
    FORGOTTEN_USER,
    MAX_AWARD,
    REASON_MAX,
    REASON_SHOWN,
    REQUEST_DAYS,
    Advancement,
    Improvement,
    Ledger,
    LedgerEntry,
    Quote,
    Request,
    Totals,
)
from storage.rows import utc_text
from storage.rules_advancement import REQUEST_LIFE, clean_reason
from wire import i18n
from wire.advancement import ATTRIBUTE_PRICE_MAX, Category, category_of
from wire.advancement_text import summary_line, worth_lines
from wire.errors import RulesError
from wire.i18n import N_, tr, trc
from wire.pricing import StatMove
from wire.sheet import Character
from wire.textcheck import clip

if TYPE_CHECKING:
    from bot import WireBot
    from storage.models import Campaign

log = logging.getLogger(__name__)
DECIDE_ID = re.compile(r"wire:cp:(?P<request>[0-9]+):(?P<choice>approve|refuse)")
REFUSE_FORM_ID = re.compile(r"wire:cp:(?P<request>[0-9]{1,19}):refuse:form")
REASON_INPUT = "wire:cp:reason"
LEDGER_ID = re.compile(
    r"wire:cp:ledger:(?P<campaign>[0-9]+):(?P<character>[0-9]+):(?P<page>[0-9]+)"
    r":(?P<way>older|newer)"
)
SWEEP_BATCH = 50
"""Expired requests closed per sweep (a minute); the next sweep goes on with the rest."""
KIND_WORDS = {
    "award": N_("award"),
    "spend": N_("spent"),
    "undo": N_("undone"),
    "ready": N_("ready for play"),
    "correct": N_("corrected"),
}


def decide_id(request_id: int, choice: str) -> str:
    return f"wire:cp:{request_id}:{choice}"


def totals_line(totals: Totals) -> str:
    line = tr(
        "CP earned {earned}, spent {spent}, unspent {unspent}",
        earned=totals.earned,
        spent=totals.spent,
        unspent=totals.unspent,
    )
    if totals.waiting:
        line += " " + tr("({waiting} held by waiting improvements)", waiting=totals.waiting)
    return line


def worth_text(advancement: Advancement, character: Character, totals: Totals) -> str:
    """The sheet's CP field: its worth, its CP, and a flag when over the starting budget."""
    worth = advancement.worth(character)
    lines = [inert(summary_line(worth)), totals_line(totals)]
    over = worth.over(advancement.starting_cp)
    if over:
        lines.append(
            "⚠ "
            + tr(
                "Over the starting budget of {budget} CP by {over} CP (the GMs decide).",
                budget=advancement.starting_cp,
                over=over,
            )
        )
    return "\n".join(lines)


async def add_worth_field(
    bot: WireBot, campaign: Campaign, user_id: int, character: Character, embed: Any
) -> None:
    """Put the sheet's CP field on its embed: every drawing of a sheet (/character show, the
    redraw after its Edit form) carries it, so an edit never makes the worth vanish."""
    advancement = await bot.store.get_advancement(campaign.guild_id, campaign.id)
    ledger = await bot.store.cp_ledger(campaign.guild_id, campaign.id, user_id, character.id)
    value = worth_text(advancement, character, ledger.totals)
    embed.add_field(name=tr("Character points"), value=clip(value, EMBED_FIELD_VALUE_MAX))


def ledger_id(campaign_id: int, character_id: int, page: int, way: str) -> str:
    return f"wire:cp:ledger:{campaign_id}:{character_id}:{page}:{way}"


def ledger_embed(ledger: Ledger) -> discord.Embed:
    """One page of the ledger: the totals over every entry, then the page's entries."""
    lines = [totals_line(ledger.totals)]
    lines += [entry_line(e, e.id in ledger.undone) for e in ledger.entries]
    if not ledger.entries:
        lines.append(tr("No entries yet."))
    embed = discord.Embed(
        title=clip(tr("CP of {name}", name=inert(ledger.character.name)), EMBED_TITLE_MAX),
        description=clip("\n".join(lines), EMBED_DESCRIPTION_MAX),
        colour=NEUTRAL,
    )
    if ledger.pages > 1:
        embed.set_footer(
            text=tr(
                "Page {page} of {pages}, newest first ({count} entries)",
                page=ledger.page + 1,
                pages=ledger.pages,
                count=ledger.count,
            )
        )
    return embed


class GuildPress:
    """The press of a CP button: on the commands' path (tree.run), in a server only."""

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: WireBot = interaction.client  # type: ignore[assignment]
        await bot.tree.run(interaction, lambda: self._in_guild(bot, interaction))

    async def _in_guild(self, bot: WireBot, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            raise UserError(tr("WIRE commands work in a server channel, not in direct messages."))
        await self._press(bot, interaction, interaction.guild_id)

    async def _press(self, bot: WireBot, interaction: discord.Interaction, guild_id: int) -> None:
        raise NotImplementedError


class LedgerButton(GuildPress, discord.ui.DynamicItem[discord.ui.Button], template=LEDGER_ID):
    """Older / Newer on a /cp show page; the page it leads to is its state, so it works after
    a restart. The ledger is read again with the presser's rights (an NPC's: GMs only)."""

    pattern = LEDGER_ID

    def __init__(self, campaign_id: int, character_id: int, page: int, way: str) -> None:
        older = way == "older"
        super().__init__(
            discord.ui.Button(
                label=trc("button", "Older") if older else trc("button", "Newer"),
                style=discord.ButtonStyle.secondary,
                custom_id=ledger_id(campaign_id, character_id, page, way),
            )
        )
        self.campaign_id, self.character_id, self.page = campaign_id, character_id, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any, /
    ) -> LedgerButton:
        return cls(
            int(match["campaign"]), int(match["character"]), int(match["page"]), match["way"]
        )

    async def _press(self, bot: WireBot, interaction: discord.Interaction, guild_id: int) -> None:
        ledger = await bot.store.cp_ledger(
            guild_id,
            self.campaign_id,
            actor_of(interaction),
            self.character_id,
            self.page,
        )
        await interaction.response.edit_message(
            embed=ledger_embed(ledger), view=ledger_view(self.campaign_id, ledger)
        )


def ledger_view(campaign_id: int, ledger: Ledger) -> discord.ui.View | None:
    """Newer and Older, when the ledger has more than one page (None: no buttons)."""
    if ledger.pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    character_id = ledger.character.id
    newer = LedgerButton(campaign_id, character_id, max(0, ledger.page - 1), "newer")
    newer.item.disabled = ledger.page == 0
    older = LedgerButton(campaign_id, character_id, ledger.page + 1, "older")
    older.item.disabled = ledger.page + 1 >= ledger.pages
    view.add_item(newer)
    view.add_item(older)
    return view


def entry_line(entry: LedgerEntry, undone: bool) -> str:
    when = entry.created_at[:10]
    what = tr(KIND_WORDS.get(entry.kind, entry.kind))
    # Numbered per character (#1, #2, #3 of this ledger), not by the campaign-wide id.
    line = f"`#{entry.number or entry.id}` {when} {what} **{entry.amount:+d} CP**"
    if entry.stat_name:
        line += f" {inert(entry.stat_name)} {entry.level_before} → {entry.level_after}"
    if entry.reason:
        line += f" · {inert(clip(entry.reason, REASON_SHOWN))}"
    # Who made it: a mention (the bot mentions no one), or the placeholder of a forgotten user.
    if entry.user_id == FORGOTTEN_USER:
        line += " · " + tr("by a forgotten user")
    else:
        line += " · " + tr("by {user}", user=f"<@{entry.user_id}>")
    if undone:
        line += " " + tr("(undone)")
    return line


def quote_text(quote: Quote) -> str:
    text = tr(
        "**{name}**: {stat} {before} → {after} costs **{cost} CP** ({available} CP to spend).",
        name=inert(quote.character.name),
        stat=inert(quote.stat_name),
        before=quote.before,
        after=quote.after,
        cost=quote.cost,
        available=quote.totals.available,
    )
    if quote.approval:
        text += " " + tr("A GM approves it before it counts.")
    return text


def _pairs(text: str, fix: str) -> dict[str, str | None]:
    """ "Parry: combat, Juggling: none" as name -> value (None: `none`, forget it); `fix`
    says how to write it when a part has no value."""
    changes: dict[str, str | None] = {}
    for part in text.split(","):
        if not part.strip():
            continue
        name, sep, value = part.rpartition(":") if ":" in part else part.rpartition("=")
        if not sep or not name.strip():
            raise UserError(fix.format(part=inert(part.strip())))
        word = value.strip()
        forget = word.casefold() in ("none", tr("none").casefold())
        changes[name.strip()] = None if forget else word
    return changes


def _categories(text: str) -> dict[str, Category | None]:
    """ "Parry: combat, Elvish: language, Juggling: none" as a change of categories."""
    fix = tr(
        "Write each skill as `Name: category`, commas between, e.g. `Parry: combat, "
        "Elvish: language` (`none` forgets one). {part} has no category.",
        part="{part}",
    )
    try:
        return {
            name: None if word is None else category_of(word)
            for name, word in _pairs(text, fix).items()
        }
    except RulesError as exc:
        raise UserError(inert(str(exc))) from None


def _species(text: str) -> dict[str, int | None]:
    """ "Human: 0, Elf: 20, Dwarf: none" as a change of species costs."""
    fix = tr(
        "Write each species as `Name: CP`, commas between, e.g. `Human: 0, Elf: 20` (`none` "
        "forgets one). {part} has no cost.",
        part="{part}",
    )
    changes: dict[str, int | None] = {}
    for name, word in _pairs(text, fix).items():
        cost = None if word is None else whole_number(word)
        if word is not None and cost is None:
            raise UserError(
                tr(
                    "{name}: {cost} is not a number of CP. Write e.g. `Elf: 20`.",
                    name=inert(name),
                    cost=inert(word),
                )
            )
        changes[name] = cost
    return changes


def species_list(advancement: Advancement) -> str:
    return ", ".join(f"{inert(name)}: {cost} CP" for name, cost in advancement.species.items())


async def _prices(interaction: discord.Interaction) -> tuple[Any, Advancement] | None:
    """This channel's campaign and its CP settings, for autocomplete (None: nothing to offer)."""
    campaign = await ac.campaign_of(interaction)
    if campaign is None or interaction.guild_id is None:
        return None
    try:
        store = ac.store_of(interaction)
        return campaign, await store.get_advancement(interaction.guild_id, campaign.id)
    except StorageError:
        return None


async def species_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The table's priced species, with their cost."""
    found = await _prices(interaction)
    if found is None:
        return []
    _campaign, advancement = found
    return ac.choices(((f"{n} ({c} CP)", n) for n, c in advancement.species.items()), current)


def _choice(label: str, value: str) -> app_commands.Choice[str] | None:
    """A choice whose value Discord takes whole (a cut one would be another list), else None."""
    if len(value) > CHOICE_VALUE_MAX:
        return None
    return app_commands.Choice(name=clip(label, CHOICE_NAME_MAX), value=value)


async def category_list_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """`/cp categories skills:` completes its last entry: a skill the campaign's sheets have
    (the uncategorised first, offered with each category; the categorised with theirs), or,
    after `Name:`, the categories in the reader's language. What was typed before stays."""
    campaign = await ac.campaign_of(interaction)
    if campaign is None or interaction.guild_id is None:
        return []
    store = ac.store_of(interaction)
    head, comma, last = current.rpartition(",")
    head = f"{head}{comma} " if comma else ""
    name, colon, typed = last.partition(":")
    name = name.strip()
    found: list[app_commands.Choice[str] | None] = []
    if colon:
        wanted = typed.strip().casefold()
        found = [
            _choice(f"{name}: {c.label}", f"{head}{name}: {c.label}")
            for c in Category
            if c.label.casefold().startswith(wanted)
        ]
    else:
        actor = ac.actor_of(interaction)
        try:
            advancement = await store.get_advancement(interaction.guild_id, campaign.id)
            shown = await store.categories_shown(interaction.guild_id, campaign.id, actor)
            skills = await store.campaign_skill_names(
                interaction.guild_id, campaign.id, npcs=campaign.is_gm(actor)
            )
        except StorageError:
            return []
        wanted = name.casefold()
        known = {n.casefold(): n for n in [*shown, *skills]}
        matching = [n for key, n in sorted(known.items()) if wanted in key]
        unset = [n for n in matching if advancement.category(n) is None]
        for skill in unset:
            found += [_choice(f"{skill}: {c.label}", f"{head}{skill}: {c.label}") for c in Category]
        for skill in matching:
            category = advancement.category(skill)
            if category is not None:
                label = tr("{skill}: {category} (as now)", skill=skill, category=category.label)
                found.append(_choice(label, f"{head}{skill}: {category.label}"))
    return [c for c in found if c is not None][:MAX_CHOICES]


async def improvable_skills(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """`/character improve skill:` offers the sheet's skills with level and category (or
    "unpriced"), then the campaign's categorised skills the sheet lacks, to learn at 1."""
    found = await _prices(interaction)
    sheet = await ac.character_option(interaction, "character")
    if found is None or sheet is None or interaction.guild_id is None:
        return []
    campaign, advancement = found
    try:
        shown = await ac.store_of(interaction).categories_shown(
            interaction.guild_id, campaign.id, ac.actor_of(interaction)
        )
    except StorageError:
        return []

    def kind(skill: str) -> str:
        category = advancement.category(skill)
        return category.label if category else tr("unpriced")

    listed = [(f"{n} ({v}, {kind(n)})", n) for n, v in sheet.skills.items()]
    on_sheet = {n.casefold() for n in sheet.skills}
    listed += [
        (tr("{skill} (new, {category})", skill=n, category=c.label), n)
        for n, c in shown.items()
        if n.casefold() not in on_sheet
    ]
    return ac.choices(listed, current)


class DecideButton(GuildPress, discord.ui.DynamicItem[discord.ui.Button], template=DECIDE_ID):
    """A GM's Approve or Refuse of a waiting improvement; the request's id is its state."""

    pattern = DECIDE_ID

    def __init__(self, request_id: int, choice: str) -> None:
        approve = choice == "approve"
        super().__init__(
            discord.ui.Button(
                label=trc("button", "Approve") if approve else trc("button", "Refuse"),
                style=discord.ButtonStyle.success if approve else discord.ButtonStyle.danger,
                custom_id=decide_id(request_id, choice),
            )
        )
        self.request_id, self.choice = request_id, choice

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any, /
    ) -> DecideButton:
        return cls(int(match["request"]), match["choice"])

    async def _press(self, bot: WireBot, interaction: discord.Interaction, guild_id: int) -> None:
        if self.choice == "refuse" and await asks_why(bot, interaction, guild_id, self.request_id):
            return
        await decide(bot, interaction, guild_id, self.request_id, self.choice == "approve")


async def asks_why(
    bot: WireBot, interaction: discord.Interaction, guild_id: int, request_id: int
) -> bool:
    """A GM's Refuse of a waiting request opens a form for the reason the player is told (it
    may stay empty); False where there is nothing to ask (a request gone, decided or expired,
    which the decision itself answers). Anyone else is refused before a form opens."""
    request = await bot.store.get_cp_request(guild_id, request_id)
    if request is None or request.state != "waiting" or request.expired(utc_text(bot.now())):
        return False
    campaign = await bot.store.get_campaign_by_id(guild_id, request.campaign_id)
    if not campaign.is_gm(actor_of(interaction)):
        raise campaign.gm_only(N_("decide improvements"))
    await interaction.response.send_modal(refuse_form(request))
    return True


def refuse_form(request: Request) -> discord.ui.Modal:
    """The Refuse button's form: why, in a line the player is told. Stateless, as the sheet's
    Edit form (cogs/sheet_edit.py): its id names the request, so it is answered after a
    restart too (`CharacterPoints.on_refuse_form`)."""
    return line_form(
        tr("Refuse {stat} {before} → {after}", stat=request.stat_name,
           before=request.level_before, after=request.level_after),
        f"wire:cp:{request.id}:refuse:form",
        (
            trc("form", "Why"),
            trc("form description", "The player who asked is told (may stay empty)"),
            REASON_INPUT,
        ),
        max_length=REASON_MAX,
        required=False,
    )  # fmt: skip


async def decide(
    bot: WireBot,
    interaction: discord.Interaction,
    guild_id: int,
    request_id: int,
    approve: bool,
    reason: str = "",
) -> None:
    """Approve or refuse the request (with the reason the GM gave), write the decision into the
    GMs' message, and tell the player who asked."""
    # Pressed in the GM channel too, which may play no campaign: the request names its own.
    request, done = await bot.store.decide_cp_request(
        guild_id, request_id, actor_of(interaction), approve, now=bot.now()
    )
    # The GMs' shared message keeps the language it was posted in, whoever presses;
    # one posted before it was noted speaks the table's now.
    if request.language is None:
        await adopt_campaign_of(bot, guild_id, request)
    with i18n.speaking(request.language or table_language()):
        text = decision_text(request, done, interaction.user.id, reason)
    await interaction.response.edit_message(content=text, view=None)
    await tell_player(bot, guild_id, request, done, reason)


def decision_text(
    request: Request, done: Improvement | None, gm_id: int | None, reason: str = ""
) -> str:
    """What a request's message says once it is closed: approved (by `gm_id`, `done` the
    change), refused, or expired (pressed late, or swept)."""
    params = {
        "stat": inert(request.stat_name),
        "before": request.level_before,
        "after": request.level_after,
        "cost": request.cost,
        "gm": f"<@{gm_id}>",
    }
    if request.state == "expired":
        return tr(
            "Expired: {stat} {before} → {after} ({cost} CP) waited {days} days for a GM, "
            "so it is closed and nothing was spent. Ask again with /character improve.",
            days=REQUEST_DAYS,
            **params,
        )
    if done is not None:
        return tr(
            "Approved by {gm}: **{name}** {stat} {before} → {after} for {cost} CP.",
            name=inert(done.character.name),
            **params,
        )
    if reason:
        return tr(
            "Refused by {gm}: {stat} {before} → {after} ({cost} CP); nothing was spent. Why: "
            "{reason}",
            reason=inert(reason),
            **params,
        )
    return tr(
        "Refused by {gm}: {stat} {before} → {after} ({cost} CP); nothing was spent.",
        **params,
    )


def answer_text(request: Request, done: Improvement | None, reason: str = "") -> str:
    """What the player who asked is told once the GMs have answered (or the request expired):
    the new level and the CP left to spend, or that nothing was spent."""
    params = {
        "stat": inert(request.stat_name),
        "before": request.level_before,
        "after": request.level_after,
        "cost": request.cost,
    }
    if request.state == "expired":
        return tr(
            "Your request {stat} {before} → {after} ({cost} CP) waited {days} days without a "
            "GM's answer and is closed; nothing was spent. Ask again with /character improve.",
            days=REQUEST_DAYS,
            **params,
        )
    if done is not None:
        return tr(
            "The GMs approved it: **{name}**'s {stat} is {after} now (from {before}) for {cost} "
            "CP; {left} CP left to spend.",
            name=inert(done.character.name),
            left=done.quote.totals.available - done.quote.cost,
            **params,
        )
    if reason:
        return tr(
            "The GMs refused your request {stat} {before} → {after} ({cost} CP); nothing was "
            "spent. Why: {reason}",
            reason=inert(reason),
            **params,
        )
    return tr(
        "The GMs refused your request {stat} {before} → {after} ({cost} CP); nothing was "
        "spent. Ask a GM why, or ask again with /character improve.",
        **params,
    )


async def tell_player(
    bot: WireBot, guild_id: int, request: Request, done: Improvement | None, reason: str = ""
) -> None:
    """The player who asked learns the answer: in the channel where they asked, mentioned, in
    their language; by a direct message when the bot may not post there. A request filed
    before the channel was kept (or whose player is forgotten) tells no one."""
    if request.asked_channel_id is None or request.user_id == FORGOTTEN_USER:
        return
    with i18n.speaking(request.asked_language or table_language()):
        text = answer_text(request, done, reason)
    player = discord.Object(request.user_id)
    channel = bot.get_partial_messageable(request.asked_channel_id, guild_id=guild_id)
    try:
        await channel.send(
            f"<@{request.user_id}> {text}",
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=[player]),
        )
        return
    except discord.HTTPException:
        log.info("Could not answer CP request %s in its channel; trying a DM", request.id)
    try:
        user = bot.get_user(request.user_id) or await bot.fetch_user(request.user_id)
        await user.send(text)
    except discord.HTTPException:
        log.info("Could not tell the player of CP request %s its answer", request.id)


async def adopt_campaign_of(bot: WireBot, guild_id: int, request: Request) -> None:
    """Speak the request's campaign's fixed language, if it has one (a press in the GM channel
    knows no campaign of its own)."""
    with contextlib.suppress(NotFound):
        adopt(await bot.store.get_campaign_by_id(guild_id, request.campaign_id))


def correction_cp(move: StatMove | None) -> str:
    """What a GM's correction does to the CP: none move (only an award moves CP), and the
    sheet is worth so much more or less."""
    if move is None:
        return tr("The stat is not priced, so no CP are involved.")
    if move.raised:
        return tr("Worth {worth} CP, given by the GM: no CP were spent.", worth=move.worth)
    return tr(
        "The sheet is worth {worth} CP less; no CP come back (a GM's /cp award gives them).",
        worth=-move.worth,
    )


def decide_view(request_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(DecideButton(request_id, "approve"))
    view.add_item(DecideButton(request_id, "refuse"))
    return view


class CharacterPoints(commands.GroupCog, group_name="cp"):
    """Character points: prices, awards, the ledger."""

    def __init__(self, bot: WireBot) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(DecideButton, LedgerButton)
        self.bot.add_form(REFUSE_FORM_ID, self.on_refuse_form)
        if self.bot.background_tasks:
            self.expire_requests.start()

    async def cog_unload(self) -> None:
        self.expire_requests.cancel()
        self.bot.remove_dynamic_items(DecideButton, LedgerButton)
        self.bot.remove_form(REFUSE_FORM_ID)

    async def on_refuse_form(self, interaction: discord.Interaction, match: re.Match[str]) -> None:
        """The Refuse form's submit, wherever and whenever it was opened: its id names the
        request; the reason is checked as a ledger reason is."""
        request_id = int(match["request"])

        async def answer() -> None:
            if interaction.guild_id is None:
                raise UserError(
                    tr("WIRE commands work in a server channel, not in direct messages.")
                )
            reason = clean_reason(str(submitted(interaction.data).get(REASON_INPUT) or ""))
            await decide(self.bot, interaction, interaction.guild_id, request_id, False, reason)

        await self.bot.tree.run(interaction, answer)

    # ---- expiry ------------------------------------------------------------------------------
    @tasks.loop(minutes=1)
    async def expire_requests(self) -> None:
        try:
            await self.sweep_expired()
        except Exception:  # discord.ext.tasks ends a loop for good on an unhandled error
            log.exception("The CP request sweep failed; it runs again in a minute")

    @expire_requests.before_loop
    async def _before_expiry(self) -> None:
        await self.bot.wait_until_ready()

    async def sweep_expired(self) -> int:
        """Close waiting improvements nobody decided in time, so no Approve / Refuse lingers on
        the GMs' message; how many it closed. Those of this process's shards' servers only (as
        the attacks' sweep, cogs/combat.py), up to SWEEP_BATCH per minute; one that fails is
        logged and left for the next sweep."""
        store = self.bot.store
        try:
            found = await store.expired_cp_requests(
                self.bot.now(), SWEEP_BATCH, self.bot.config.own_shards
            )
        except Busy:
            log.warning("CP request sweep: the database is busy; trying again in a minute")
            return 0
        closed = 0
        for guild_id, request in found:
            try:
                if not await store.sweep_cp_request(guild_id, request.id, self.bot.now()):
                    continue  # a press decided or closed it meanwhile, and edited the message
            except Exception:
                log.exception("CP request sweep: could not close request %s", request.id)
                continue
            closed += 1
            expired = replace(request, state="expired")
            await self._mark_expired(guild_id, expired)
            await tell_player(self.bot, guild_id, expired, None)
        return closed

    async def _mark_expired(self, guild_id: int, request: Request) -> None:
        if request.channel_id is None or request.message_id is None:
            return
        channel = self.bot.get_partial_messageable(request.channel_id, guild_id=guild_id)
        # No interaction here: the note speaks the language the request was posted in.
        with i18n.speaking(request.language or i18n.language()):
            text = decision_text(request, None, None)
        try:
            await channel.get_partial_message(request.message_id).edit(content=text, view=None)
        except discord.HTTPException as error:
            log.info("Could not mark CP request %s expired: %s", request.id, error)

    # ---- the GMs' settings -------------------------------------------------------------
    async def _list_setting(
        self,
        interaction: discord.Interaction,
        text: str,
        change: Callable[[Roller], Awaitable[Advancement]],
    ) -> tuple[Roller, Advancement]:
        """A list the GMs set (categories, species costs): changed by `text`, or, empty, read."""
        roller = await load_roller(self.bot, interaction)
        if text.strip():
            return roller, await change(roller)
        return roller, await self.bot.store.get_advancement(roller.guild_id, roller.campaign.id)

    @app_commands.command(name="categories", description="GMs: give skills their categories")
    @app_commands.guild_only()
    @app_commands.describe(
        skills="e.g. Parry: combat, Elvish: language (none forgets one); empty: show the list"
    )
    @app_commands.autocomplete(skills=category_list_choices)
    async def categories(self, interaction: discord.Interaction, skills: NameList = "") -> None:
        roller, _advancement = await self._list_setting(
            interaction,
            skills,
            lambda roller: self.bot.store.set_skill_categories(
                roller.guild_id, roller.campaign.id, roller.user_id, _categories(skills)
            ),
        )
        shown = await self.bot.store.categories_shown(
            roller.guild_id, roller.campaign.id, roller.user_id
        )
        listed = ", ".join(f"{inert(name)}: {category.label}" for name, category in shown.items())
        await interaction.response.send_message(
            clip(
                tr(
                    "Skill categories of {campaign}: {list}",
                    campaign=inert(roller.campaign.name),
                    list=listed,
                )
                if listed
                else tr(
                    "No skill has a category yet, so no skill has a price. GMs: "
                    "`/cp categories skills:Parry: combat, Elvish: language`."
                ),
                CONTENT_MAX,
            ),
            ephemeral=True,
        )

    @app_commands.command(name="species", description="GMs: what each species costs in CP")
    @app_commands.guild_only()
    @app_commands.describe(costs="e.g. Human: 0, Elf: 20 (none forgets one); empty: show the list")
    async def species(self, interaction: discord.Interaction, costs: NameList = "") -> None:
        roller, advancement = await self._list_setting(
            interaction,
            costs,
            lambda roller: self.bot.store.set_species_costs(
                roller.guild_id, roller.campaign.id, roller.user_id, _species(costs)
            ),
        )
        listed = species_list(advancement)
        await interaction.response.send_message(
            clip(
                tr(
                    "Species costs of {campaign}: {list}. A sheet names its species with "
                    "`/character species`.",
                    campaign=inert(roller.campaign.name),
                    list=listed,
                )
                if listed
                else tr(
                    "No species has a cost here, so a sheet's species adds nothing to its worth "
                    "and is shown as not priced. GMs: `/cp species costs:Human: 0, Elf: 20`."
                ),
                CONTENT_MAX,
            ),
            ephemeral=True,
        )

    @app_commands.command(
        name="settings", description="GMs: attribute point price, starting budget, approval"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        attribute_price="CP per attribute point (the rules give none)",
        starting_budget="The CP a new character is built with",
        approval="Improvements wait for a GM's Approve",
        clear="Forget a setting (back to not set)",
    )
    @app_commands.choices(
        clear=[
            app_commands.Choice(name="attribute price", value="attribute_price"),
            app_commands.Choice(name="starting budget", value="starting_budget"),
        ]
    )
    async def settings(
        self,
        interaction: discord.Interaction,
        attribute_price: app_commands.Range[int, 0, ATTRIBUTE_PRICE_MAX] | None = None,
        starting_budget: app_commands.Range[int, 0, 100_000] | None = None,
        approval: bool | None = None,
        clear: app_commands.Choice[str] | None = None,
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        store = self.bot.store
        changes: dict[str, Any] = {}
        if attribute_price is not None:
            changes["attribute_price"] = attribute_price
        if starting_budget is not None:
            changes["starting_cp"] = starting_budget
        if clear is not None:
            changes["attribute_price" if clear.value == "attribute_price" else "starting_cp"] = None
        if changes or approval is not None:
            advancement = await store.set_advancement(
                roller.guild_id, roller.campaign.id, roller.user_id, approval=approval, **changes
            )
        else:
            advancement = await store.get_advancement(roller.guild_id, roller.campaign.id)
        price = advancement.attribute_price.per_point
        lines = [
            tr("Advancement in {campaign}:", campaign=inert(roller.campaign.name)),
            "- "
            + (
                tr("attribute point: {price} CP", price=price)
                if price is not None
                else tr("attribute point: not priced (attributes are not bought with CP)")
            ),
            "- "
            + (
                tr("starting budget: {cp} CP", cp=advancement.starting_cp)
                if advancement.starting_cp is not None
                else tr("starting budget: none")
            ),
            "- "
            + (
                tr("improvements wait for a GM's approval")
                if advancement.approval
                else tr("improvements need no approval")
            ),
        ]
        await interaction.response.send_message("\n".join(lines), ephemeral=True)

    # ---- awards and the ledger -----------------------------------------------------------
    @app_commands.command(name="award", description="GMs: award CP to characters")
    @app_commands.guild_only()
    @app_commands.describe(
        amount=f"CP each (a correction is negative; at most {MAX_AWARD})",
        reason='Why, e.g. "Session 3: the warrens"',
        characters="Names, commas between",
        everyone="Instead: everyone in this channel's fight, or the active characters",
    )
    @app_commands.choices(
        everyone=[
            app_commands.Choice(name="in this channel's fight", value="fight"),
            app_commands.Choice(name="active characters", value="active"),
        ]
    )
    async def award(
        self,
        interaction: discord.Interaction,
        amount: app_commands.Range[int, -MAX_AWARD, MAX_AWARD],
        reason: Name,
        characters: NameList = "",
        everyone: app_commands.Choice[str] | None = None,
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        store = self.bot.store
        names: list[str | int] = [n.strip() for n in characters.split(",") if n.strip()]
        if everyone is not None and everyone.value == "fight":
            fight = await channel_fight(self.bot, roller)
            if fight is None:
                raise UserError(tr("No fight is running in this channel. /fight start begins one."))
            names += [c.character_id for c in fight.combatants if c.character_id and not c.is_npc]
        elif everyone is not None:
            names += await store.active_character_ids(roller.guild_id, roller.campaign.id)
        if not names:
            raise UserError(tr("Name the characters (`characters:Ash, Bo`) or choose `everyone`."))
        done = await store.award_cp(
            roller.guild_id, roller.campaign.id, roller.user_id, names, amount, reason
        )
        lines = [tr("{amount} CP: {reason}", amount=f"{amount:+d}", reason=inert(reason))] + [
            f"- **{inert(sheet.name)}**: {totals_line(totals)}" for sheet, totals in done
        ]
        # An NPC's CP tell what its sheet is worth: an award naming one is the GMs' to read.
        secret = any(sheet.is_npc for sheet, _totals in done)
        await interaction.response.send_message(
            clip("\n".join(lines), CONTENT_MAX), ephemeral=secret
        )

    @app_commands.command(name="show", description="A character's CP ledger and totals")
    @app_commands.guild_only()
    @app_commands.describe(
        character="The character (default: your active one)",
        page="Which page, 1 the newest (Older / Newer buttons turn them)",
    )
    @app_commands.autocomplete(character=ac.readable_character)
    async def show(
        self,
        interaction: discord.Interaction,
        character: Name | None = None,
        page: app_commands.Range[int, 1, 10_000] | None = None,
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        target: str | int = character or roller.sheet().id
        ledger = await self.bot.store.cp_ledger(
            roller.guild_id, roller.campaign.id, roller.user_id, target, (page or 1) - 1
        )
        view = ledger_view(roller.campaign.id, ledger)
        await interaction.response.send_message(
            embed=ledger_embed(ledger), ephemeral=True, **({"view": view} if view else {})
        )

    @app_commands.command(
        name="ready", description="A character is ready for play: CP move its stats from now on"
    )
    @app_commands.guild_only()
    @app_commands.describe(character="The character (default: your active one)")
    @app_commands.autocomplete(character=ac.my_character)
    async def ready(self, interaction: discord.Interaction, character: Name | None = None) -> None:
        roller = await load_roller(self.bot, interaction)
        target: str | int = character or roller.sheet().id
        sheet, advancement, entry = await self.bot.store.ready_for_play(
            roller.guild_id, roller.campaign.id, roller.user_id, target
        )
        text = tr(
            "**{name}** is ready for play (entry #{number}); {worth}. From now on its priced "
            "stats move only through the CP ledger: /character improve raises one, a GM's "
            "/cp correct changes one.",
            name=inert(sheet.name),
            number=entry.number,
            worth=inert(summary_line(advancement.worth(sheet))),
        )
        if not advancement.holds_sheets:
            text += " " + tr(
                "This table has set no starting budget and no approval, so the ledger holds "
                "no sheet until a GM sets one (/cp settings)."
            )
        await interaction.response.send_message(clip(text, CONTENT_MAX))

    @app_commands.command(
        name="correct", description="GMs: change a stat as an entry of the CP ledger, with why"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        character="The character",
        skill="The skill (or attribute) to change",
        value="Its new value",
        reason="Why, kept in the ledger",
        attribute="Change an attribute instead",
    )
    @app_commands.autocomplete(character=ac.any_character)
    async def correct(
        self,
        interaction: discord.Interaction,
        character: Name,
        skill: Name,
        value: app_commands.Range[int, -10, 30],
        reason: Name,
        attribute: bool = False,
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        kind = "attribute" if attribute else "skill"
        sheet, entry, move = await self.bot.store.correct_stat(
            roller.guild_id,
            roller.campaign.id,
            roller.user_id,
            character,
            kind,
            skill,
            value,
            reason,
        )
        text = tr(
            "Corrected by {gm} (entry #{number}): **{name}** {stat} {before} → {after}: {reason}.",
            gm=f"<@{interaction.user.id}>",
            number=entry.number,
            name=inert(sheet.name),
            stat=inert(entry.stat_name or skill),
            before=entry.level_before,
            after=entry.level_after,
            reason=inert(reason),
        )
        text += " " + correction_cp(move)
        # An NPC's sheet is for the GMs' eyes.
        await interaction.response.send_message(clip(text, CONTENT_MAX), ephemeral=sheet.is_npc)

    @app_commands.command(name="undo", description="GMs: undo a character's last CP entry")
    @app_commands.guild_only()
    @app_commands.describe(character="The character")
    @app_commands.autocomplete(character=ac.any_character)
    async def undo(self, interaction: discord.Interaction, character: Name) -> None:
        roller = await load_roller(self.bot, interaction)
        entry, sheet, totals = await self.bot.store.undo_last_cp(
            roller.guild_id, roller.campaign.id, roller.user_id, character
        )
        await interaction.response.send_message(
            tr("Undone: {entry}", entry=entry_line(entry, False))
            + "\n"
            + f"**{inert(sheet.name)}**: {totals_line(totals)}",
            ephemeral=sheet.is_npc,  # an NPC's undone step names its skill and level
        )


# ---- /character improve, cost and species: declared here, mixed into the Characters cog ------
class SheetPricing:
    """The /character commands about what a sheet costs in CP, declared beside their bodies.

    A mixin, as Red composes a cog: the Characters cog (`/character`) inherits it, so the
    commands sit in the player's /character group while their code stays with the CP's."""

    bot: WireBot

    @app_commands.command(name="improve", description="Spend CP: raise a skill (shows the price)")
    @app_commands.guild_only()
    @app_commands.describe(
        skill="The skill (or attribute) to raise; a new skill starts at 1",
        to="The level to reach (default: one more)",
        character="The character (default: your active one)",
        attribute="Raise an attribute instead (only if the table priced them)",
    )
    @app_commands.autocomplete(skill=improvable_skills, character=ac.my_character)
    async def improve(
        self,
        interaction: discord.Interaction,
        skill: Name,
        to: app_commands.Range[int, -10, 30] | None = None,
        character: Name | None = None,
        attribute: bool = False,
    ) -> None:
        await improve_command(self.bot, interaction, skill, to, character, attribute)

    @app_commands.command(name="cost", description="What a sheet is worth in CP, line by line")
    @app_commands.guild_only()
    @app_commands.describe(character="The character (default: your active one)")
    @app_commands.autocomplete(character=ac.readable_character)
    async def cost(self, interaction: discord.Interaction, character: Name | None = None) -> None:
        await cost_command(self.bot, interaction, character)

    @app_commands.command(name="species", description="Name a sheet's species (its CP cost counts)")
    @app_commands.guild_only()
    @app_commands.describe(
        species="The species (the table's list prices it); none: no species",
        character="The character (default: your active one)",
    )
    @app_commands.autocomplete(species=species_names, character=ac.my_character)
    async def species(
        self, interaction: discord.Interaction, species: Name, character: Name | None = None
    ) -> None:
        await species_command(self.bot, interaction, species, character)


async def improve_command(
    bot: WireBot,
    interaction: discord.Interaction,
    skill: str,
    to: int | None,
    character: str | None,
    attribute: bool,
) -> None:
    """Show the price, and on the player's confirm spend it and raise the stat in one step (or,
    with approval on, ask the GMs with Approve / Refuse buttons)."""
    roller = await load_roller(bot, interaction)
    store = bot.store
    target: str | int = character or roller.sheet().id
    kind = "attribute" if attribute else "skill"
    quote = await store.quote_improvement(
        roller.guild_id, roller.campaign.id, roller.user_id, target, skill, to, kind
    )
    if not quote.affordable:
        raise UserError(short_of_cp(quote))

    async def spend() -> str:
        adopt(roller.campaign)  # the press is a new interaction: the campaign's language again
        done = await store.improve(
            roller.guild_id,
            roller.campaign.id,
            roller.user_id,
            quote.character.id,
            quote.stat_name,
            quote.after,
            kind,
            expected_cost=quote.cost,
            expected_before=quote.before,
            now=bot.now(),
            asked_in=(roller.channel_id, i18n.language()),
        )
        params = {
            "name": inert(done.character.name),
            "stat": inert(quote.stat_name),
            "before": quote.before,
            "after": quote.after,
            "cost": quote.cost,
        }
        if done.request_id is not None:
            return await ask_approval(bot, roller, interaction, done.request_id, params)
        return tr("Done: **{name}** {stat} {before} → {after} for {cost} CP.", **params)

    await interaction.response.send_message(
        quote_text(quote),
        view=Confirm(
            bot,
            roller.user_id,
            interaction,
            spend,
            confirm_label=trc("button", "Spend {cost} CP", cost=quote.cost),
            nothing_done=tr("Nothing was spent."),
        ),
        ephemeral=True,
    )


def short_of_cp(quote: Quote) -> str:
    """Why an improvement the sheet cannot pay is refused, and where CP come from."""
    return tr(
        "{stat} {before} → {after} costs {cost} CP; {name} has {available} CP to "
        "spend, {missing} CP short. A GM awards CP with /cp award.",
        stat=inert(quote.stat_name),
        before=quote.before,
        after=quote.after,
        cost=quote.cost,
        name=inert(quote.character.name),
        available=quote.totals.available,
        missing=quote.missing,
    )


async def ask_approval(
    bot: WireBot,
    roller: Roller,
    interaction: discord.Interaction,
    request_id: int,
    params: dict[str, Any],
) -> str:
    """With approval on: post the request for the GMs (Approve / Refuse), and tell the player
    it waits, its CP held, and where the GMs were asked."""
    until = f"<t:{int((bot.now() + REQUEST_LIFE).timestamp())}:f>"
    with for_table():  # the GMs share it, and a GM's press edits it
        text = tr(
            "GMs: <@{user}> asks to raise **{name}**'s {stat} {before} → {after} "
            "for {cost} CP (open until {until}).",
            user=interaction.user.id,
            until=until,
            **params,
        )
    where = await ask_gms(bot, roller, interaction, text, request_id)
    asked = tr(
        "Asked: {stat} {before} → {after} for {cost} CP waits for a GM, at most {days} "
        "days; the CP are held until then.",
        days=REQUEST_DAYS,
        **params,
    )
    if where is not None:
        asked += " " + tr("The GMs were asked in <#{channel}>.", channel=where)
    return asked


def raise_as_improvement(held: LedgerHolds, roller: Roller, *others: object) -> bool:
    """A sheet change the ledger held (`/character set` of a ready sheet) becomes an
    improvement when it is a player's raise of one priced stat and nothing else (`others`: the
    command's other options, all unset)."""
    return (
        not roller.campaign.is_gm(roller.user_id)
        and len(held.moves) == 1
        and held.moves[0].raised
        and all(other is None for other in others)
    )


async def ask_gms(
    bot: WireBot,
    roller: Roller,
    interaction: discord.Interaction,
    text: str,
    request_id: int,
) -> int | None:
    """Post a request with its Approve / Refuse buttons in the campaign's GM channel (the id
    returned), or, without one or where the bot may not post there, in this channel (None)."""
    with for_table():
        view = decide_view(request_id)
    gm_channel = roller.campaign.gm_channel_id
    if gm_channel and gm_channel != roller.channel_id:
        channel = bot.get_partial_messageable(gm_channel, guild_id=roller.guild_id)
        try:
            message = await channel.send(text, view=view)
            await posted(bot, roller, request_id, message)
            return gm_channel
        except discord.HTTPException:
            log.warning(
                "Could not post a CP request in the GM channel of campaign %s; "
                "posting it where it was asked",
                roller.campaign.id,
            )
    message = await interaction.followup.send(text, view=view, wait=True)
    await posted(bot, roller, request_id, message)
    return None


async def posted(bot: WireBot, roller: Roller, request_id: int, message: discord.Message) -> None:
    """Keep where the request's message is, and its language, so the sweep can close it (if
    that write fails, the request still waits, and a press closes it as before)."""
    try:
        await bot.store.cp_request_posted(
            roller.guild_id, request_id, message.channel.id, message.id, table_language()
        )
    except StorageError:
        log.warning("Could not note the message of CP request %s", request_id, exc_info=True)


async def species_command(
    bot: WireBot, interaction: discord.Interaction, species: str, character: str | None
) -> None:
    """Name the sheet's species (`none` clears it); its worth counts the table's cost for it."""
    roller = await load_roller(bot, interaction)
    target: str | int = character or roller.sheet().id
    forget = species.strip().casefold() in ("none", tr("none").casefold())
    sheet, advancement = await bot.store.set_character_species(
        roller.guild_id, roller.campaign.id, roller.user_id, target, None if forget else species
    )
    worth = advancement.worth(sheet)
    params = {"name": inert(sheet.name), "worth": inert(summary_line(worth))}
    if worth.species is None:
        text = tr("**{name}** names no species now. {worth}", **params)
    elif worth.species.cost is None:
        text = tr(
            "**{name}**'s species: {species}, not priced by the table, so it adds nothing "
            "(GMs: /cp species). {worth}",
            species=inert(worth.species.name),
            **params,
        )
    else:
        text = tr(
            "**{name}**'s species: {species} ({cost} CP). {worth}",
            species=inert(worth.species.name),
            cost=worth.species.cost,
            **params,
        )
    await interaction.response.send_message(clip(text, CONTENT_MAX), ephemeral=sheet.is_npc)


async def cost_command(
    bot: WireBot, interaction: discord.Interaction, character: str | None
) -> None:
    """The sheet's worth itemised: each skill, its category and cost; the attributes; the CP."""
    roller = await load_roller(bot, interaction)
    store = bot.store
    target: str | int = character or roller.sheet().id
    ledger = await store.cp_ledger(roller.guild_id, roller.campaign.id, roller.user_id, target)
    advancement = await store.get_advancement(roller.guild_id, roller.campaign.id)
    sheet = ledger.character
    if sheet.is_npc and not roller.campaign.is_gm(roller.user_id):
        raise UserError(
            tr("{name} is an NPC; only the GMs see NPC sheets.", name=inert(sheet.name))
        )
    worth = advancement.worth(sheet)
    lines = [inert(line.strip()) for line in worth_lines(sheet.name, worth)[1:]]
    lines.append(worth_text(advancement, sheet, ledger.totals).split("\n", 1)[1])
    embed = discord.Embed(
        title=clip(tr("What {name} is worth", name=inert(sheet.name)), EMBED_TITLE_MAX),
        description=clip("\n".join(lines), EMBED_DESCRIPTION_MAX),
        colour=NEUTRAL,
    )
    await interaction.response.send_message(embed=embed, ephemeral=sheet.is_npc)


async def setup(bot: WireBot) -> None:
    await bot.add_cog(CharacterPoints(bot))
