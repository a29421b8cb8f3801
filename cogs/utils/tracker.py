"""The fight tracker as Discord shows it: one embed with the order, health and effects, and the
Next turn button that survives restarts.

Players see an NPC's health as a descriptor (unhurt, wounded, badly wounded, down) unless the
campaign shows NPC numbers; GMs get the numbers privately (`/fight show`). A player character's
health is its player's own business and the table's, so it shows as numbers.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import re
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from cogs.utils.conditions import conditions_text
from cogs.utils.discord_limits import EMBED_DESCRIPTION_MAX, EMBED_TITLE_MAX
from cogs.utils.embeds import NEUTRAL
from cogs.utils.language import for_table
from cogs.utils.text import inert
from storage.models import Campaign, Combatant, Fight, HealthEntry
from wire.health import Health, Pool, descriptor, looks
from wire.i18n import N_, tr, trc
from wire.textcheck import clip

if TYPE_CHECKING:
    from bot import WireBot
    from wire.sheet import Character

log = logging.getLogger("wire.fights")

T = TypeVar("T")
NEXT_ID = re.compile(r"wire:fight:(?P<fight>[0-9]+):(?P<step>[0-9]+):next")
POOL_NAMES = {Pool.HP: N_("HP"), Pool.THP: N_("THP"), Pool.WP: N_("WP")}
SKIPPED = N_("its turns are skipped")
"""On a downed combatant's line: the turn order passes over it (Fight.next_turn)."""


def pool_name(pool: Pool) -> str:
    """HP, THP, WP: LP, TLP, WK in German."""
    return tr(POOL_NAMES[pool])


def pool_text(health: Health, pool: Pool) -> str:
    return f"{pool_name(pool)} {health.current(pool)}/{health.maximum(pool)}"


def health_text(combatant: Combatant, *, numbers: bool) -> str:
    """HP always; THP once it differs from its maximum; WP where the sheet tracks it."""
    health = combatant.health
    if combatant.is_npc and not numbers:
        return tr(looks(health))
    parts = [pool_text(health, Pool.HP)]
    if health.thp != health.thp_max:
        parts.append(pool_text(health, Pool.THP))
    if health.wp_max:
        parts.append(pool_text(health, Pool.WP))
    text = " · ".join(parts)
    return f"{text} · **{tr('down')}**" if health.down else text


def health_line(entry: HealthEntry, *, numbers: bool) -> str:
    """ "Goblin 2: HP 14 → 4", or "Goblin 2 is badly wounded" for players."""
    change, name = entry.change, inert(entry.target_name)
    if entry.is_npc and not numbers:
        shown = looks(entry.health) if entry.health else descriptor(change.after, entry.maximum)
        return tr("{name} is {looks}.", name=name, looks=tr(shown))
    pool = pool_name(change.pool)
    if entry.reason == "heal" and change.after <= change.before:  # "HP 23 → 23" read as a heal
        return tr(
            "{name} has full {pool} already ({value} of {maximum}): nothing was healed.",
            name=name,
            pool=pool,
            value=change.after,
            maximum=entry.maximum,
        )
    soaked = " " + tr("(armour took {armour})", armour=change.armour) if change.armour else ""
    down = f" · **{tr('down')}**" if change.after <= 0 < change.before else ""
    return f"{name}: {pool} {change.before} → {change.after}{soaked}{down}"


def tracker_embed(
    fight: Fight, campaign: Campaign, *, numbers: bool = False, gm: bool = False
) -> discord.Embed:
    """`numbers`: NPC health as numbers (for GMs, or a campaign that shows them); `gm`: with
    the hidden conditions (a GM's own copy)."""
    state = (
        tr("ended after round {round}", round=fight.round)
        if fight.ended
        else tr("round {round}", round=fight.round)
    )
    embed = discord.Embed(
        title=clip(f"⚔️ {inert(fight.name)}: {state}", EMBED_TITLE_MAX), colour=NEUTRAL
    )
    current = fight.current()
    lines = []
    if not fight.combatants:
        lines.append(tr("Nobody yet. Players: `/fight join`. GMs: `/fight add npc:`."))
    elif current is None and not fight.ended:
        lines.append(
            tr("Everyone in? A GM begins the first turn with **Next turn** or `/fight next`.")
        )
    for combatant in fight.order():
        marker = "▶" if current is not None and combatant.id == current.id else "·"
        effects = conditions_text(fight, combatant, gm=gm)
        skipped = f" · {tr(SKIPPED)}" if combatant.health.down and not fight.ended else ""
        lines.append(
            f"{marker} `{combatant.initiative.total(fight.round):>3}` **{inert(combatant.name)}**"
            f" · {health_text(combatant, numbers=numbers)}{effects}{skipped}"
        )
    embed.description = clip("\n".join(lines), EMBED_DESCRIPTION_MAX)
    if current is not None and current.portrait and not fight.ended:
        embed.set_thumbnail(url=current.portrait)  # beside the one whose turn it is
    if not fight.ended:
        embed.set_footer(text=tr("Next turn: the current combatant's player or a GM."))
    return embed


class NextButton(discord.ui.DynamicItem[discord.ui.Button], template=NEXT_ID):
    """The tracker's Next turn button. Its custom id names the fight and the turn it was made
    for, so a press from an earlier turn (or a second press at once) is refused."""

    pattern = NEXT_ID

    def __init__(self, fight_id: int, step: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=trc("button", "Next turn"),
                style=discord.ButtonStyle.primary,
                custom_id=f"wire:fight:{fight_id}:{step}:next",
            )
        )
        self.fight_id, self.step = fight_id, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any, /
    ) -> NextButton:
        return cls(int(match["fight"]), int(match["step"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: WireBot = interaction.client  # type: ignore[assignment]
        cog: Any = bot.get_cog("Fights")
        await bot.tree.run(interaction, lambda: cog.press_next(interaction, self))


def tracker_view(fight: Fight) -> discord.ui.View | None:
    if fight.ended:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(NextButton(fight.id, fight.step))
    return view


def shared_tracker(fight: Fight, campaign: Campaign) -> dict[str, Any]:
    """The tracker message as the channel sees it (`embed` and `view`, to send or edit): in the
    table's language whoever's interaction edits it, so it never changes language."""
    with for_table():
        return {
            "embed": tracker_embed(fight, campaign, numbers=campaign.show_npc_health),
            "view": tracker_view(fight),
        }


@dataclass
class _Shown:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held while the state to show is read and numbered, never across a request to Discord."""
    newest: int = 0
    """The highest number of an edit that reached Discord."""


class TrackerEdits:
    """Keeps a fight's tracker on its latest state although its edits can land out of order.

    A channel message edit can be held back (Discord's rate limit on edits, retried by
    discord.py) while a newer one, such as the Next button's own answer, goes through: the older
    state would then sit on top, the wrong turn marked and a Next button that only refuses.
    So every edit is numbered when its state is read, under a per-fight lock: a higher number
    shows a later state. When an edit lands after one with a higher number, it is made again
    from the latest state. One per bot (its locks belong to the bot's event loop).
    """

    KEEP = 1024
    """Fights remembered; the oldest go first (a forgotten one only loses the repair)."""

    def __init__(self) -> None:
        self._numbers = itertools.count(1)
        self._fights: OrderedDict[int, _Shown] = OrderedDict()

    def _of(self, fight_id: int) -> _Shown:
        shown = self._fights.get(fight_id)
        if shown is None:
            shown = self._fights[fight_id] = _Shown()
            while len(self._fights) > self.KEEP:
                self._fights.popitem(last=False)
        else:
            self._fights.move_to_end(fight_id)
        return shown

    async def read(self, fight_id: int, reader: Callable[[], Awaitable[T]]) -> tuple[T, int]:
        """`reader()`'s result (the fight's state, or the change that gives it) and its number."""
        async with self._of(fight_id).lock:
            state = await reader()
            return state, next(self._numbers)

    def landed(self, fight_id: int, number: int) -> bool:
        """Note an edit that reached Discord; False if a newer one had already (redo it)."""
        shown = self._of(fight_id)
        if number < shown.newest:
            return False
        shown.newest = number
        return True


MAX_REDOS = 3


async def refresh_tracker(bot: WireBot, guild_id: int, fight_id: int, campaign: Campaign) -> None:
    """Show the fight's latest state on its tracker message, edited in place; post it again if
    it was deleted. Returns once an edit that read the fight after this call has been sent.

    The edit is paced (cogs/utils/tracker_pace.py): changes that come while one is in flight
    or waits for its slot are merged into the next. A turn change is paced too: its ping is a
    message of its own, sent at once; the tracker follows within the gap.
    Never raises: the change it shows is stored already, and the next change tries again.
    """
    await bot.tracker_pace.request(fight_id, lambda: show_latest(bot, guild_id, fight_id, campaign))


async def refresh_for_sheet(
    bot: WireBot, guild_id: int, channel_id: int | None, campaign: Campaign, character: Character
) -> None:
    """After a sheet changed (its Edit form, /character set, remove, health): the tracker of the
    fight running in this channel shows it, if the character is in it. Its health line reads
    the sheet (Constitution, overrides), so it would show the old maximum until the next turn."""
    if channel_id is None:
        return
    fight = await bot.store.running_fight(guild_id, channel_id)
    if fight is not None and any(c.character_id == character.id for c in fight.combatants):
        await refresh_tracker(bot, guild_id, fight.id, campaign)


async def show_latest(bot: WireBot, guild_id: int, fight_id: int, campaign: Campaign) -> bool:
    """One edit of the tracker from the fight as stored now; True if an older edit landed after
    it (then it must be made again)."""
    edits: TrackerEdits = bot.tracker_edits
    for _ in range(1 + MAX_REDOS):
        fight, number = await edits.read(fight_id, lambda: bot.store.get_fight(guild_id, fight_id))
        if fight is None or not await _show(bot, fight, campaign):
            return False
        if edits.landed(fight_id, number):
            return False
        log.info("An older tracker of fight %s landed last; showing the latest again.", fight_id)
    return True


async def _show(bot: WireBot, fight: Fight, campaign: Campaign) -> bool:
    """Edit (or post again) the tracker; whether it reached Discord."""
    shown = shared_tracker(fight, campaign)
    channel = bot.get_partial_messageable(fight.channel_id, guild_id=fight.guild_id)
    if fight.tracker_message_id is not None:
        try:
            await channel.get_partial_message(fight.tracker_message_id).edit(**shown)
            return True
        except discord.NotFound:
            log.info("The tracker of fight %s was deleted; posting it again.", fight.id)
        except discord.HTTPException as error:
            log.warning("Could not edit the tracker of fight %s: %s", fight.id, error)
            return False
    try:
        message = await channel.send(**shown)
    except discord.HTTPException as error:
        log.warning("Could not post the tracker of fight %s: %s", fight.id, error)
        return False
    await bot.store.set_tracker(fight.guild_id, fight.id, message.id)
    return True
