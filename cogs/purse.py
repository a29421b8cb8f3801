"""Money: `/purse` (show, pay, receive, give; grant, take and undo for GMs; the currency).

A purse holds the campaign's smallest coin; amounts are typed and shown in the campaign's coins
("3 gold 4 silver", wire/gear.py `Currency`). Every change is a ledger entry with who, when,
how much and why (storage/rules_purse.py); a GM undoes the last. A player's give to another
player's character waits for the receiver's Accept (cogs/gear.py), unless the campaign lets
gifts land at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.gear import send_give, target_of, what_given
from cogs.utils import autocomplete as ac
from cogs.utils.discord_limits import CONTENT_MAX, EMBED_DESCRIPTION_MAX, EMBED_TITLE_MAX
from cogs.utils.embeds import NEUTRAL
from cogs.utils.options import FreeText, Name
from cogs.utils.rolling import Roller, load_roller
from cogs.utils.text import inert
from storage.models_advancement import FORGOTTEN_USER
from storage.models_gear import REASON_MAX, PurseChange, PurseEntry, PurseLedger
from wire.gear import Currency, parse_currency
from wire.i18n import N_, tr
from wire.textcheck import clip

if TYPE_CHECKING:
    from bot import WireBot

KIND_WORDS = {
    "pay": N_("paid"),
    "receive": N_("received"),
    "give": N_("given"),
    "grant": N_("granted"),
    "take": N_("taken"),
    "undo": N_("undone"),
    "import": N_("imported"),
}
Reason = app_commands.Transform[str, FreeText(REASON_MAX, shortest=0)]


def entry_line(entry: PurseEntry, currency: Currency, undone: bool) -> str:
    """ "granted +3 gold: the warrens · by <@1>", struck through once undone."""
    sign = "+" if entry.amount >= 0 else "−"
    shown = inert(currency.show(abs(entry.amount)))
    line = f"{tr(KIND_WORDS.get(entry.kind, entry.kind))} **{sign}{shown}**"
    if entry.reason:
        line += f": {inert(clip(entry.reason, 100))}"
    if entry.user_id == FORGOTTEN_USER:
        line += " · " + tr("by a forgotten user")
    else:
        line += " · " + tr("by {user}", user=f"<@{entry.user_id}>")
    return f"~~{line}~~" if undone else line


def ledger_embed(ledger: PurseLedger) -> discord.Embed:
    lines = [tr("Holds {amount}", amount=inert(ledger.currency.show(ledger.purse.balance)))]
    lines += [entry_line(e, ledger.currency, e.id in ledger.undone) for e in ledger.entries]
    if not ledger.entries:
        lines.append(tr("No entries yet."))
    return discord.Embed(
        title=clip(tr("Purse of {name}", name=inert(ledger.sheet.name)), EMBED_TITLE_MAX),
        description=clip("\n".join(lines), EMBED_DESCRIPTION_MAX),
        colour=NEUTRAL,
    )


def change_text(change: PurseChange) -> str:
    amount = abs(change.entry.amount)
    return tr(
        "**{name}**: {kind} {amount}; the purse holds {balance}.",
        name=inert(change.sheet.name),
        kind=tr(KIND_WORDS[change.entry.kind]),
        amount=inert(change.currency.show(amount)),
        balance=inert(change.currency.show(change.purse.balance)),
    )


class PurseCog(commands.GroupCog, group_name="purse"):
    """A character's money and its ledger."""

    def __init__(self, bot: WireBot) -> None:
        self.bot = bot
        super().__init__()

    async def _amount(self, roller: Roller, text: str) -> int:
        settings = await self.bot.store.gear_settings(roller.guild_id, roller.campaign.id)
        return settings.currency.parse(text)

    async def _change(
        self,
        interaction: discord.Interaction,
        kind: str,
        amount: str,
        reason: str,
        character: str | None,
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        change = await self.bot.store.change_purse(
            roller.guild_id,
            roller.campaign.id,
            roller.user_id,
            target_of(roller, character),
            kind,
            await self._amount(roller, amount),
            reason,
            press_id=interaction.id,
        )
        text = change_text(change)
        if reason:
            text += f" ({inert(reason)})"
        await interaction.response.send_message(
            clip(text, CONTENT_MAX), ephemeral=change.sheet.is_npc
        )

    @app_commands.command(name="show", description="A character's money and the purse's ledger")
    @app_commands.guild_only()
    @app_commands.describe(
        character="The character (default: your active one)", page="Which page, 1 the newest"
    )
    @app_commands.autocomplete(character=ac.my_character)
    async def show(
        self,
        interaction: discord.Interaction,
        character: Name | None = None,
        page: app_commands.Range[int, 1, 10_000] = 1,
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        ledger = await self.bot.store.purse_ledger(
            roller.guild_id,
            roller.campaign.id,
            roller.user_id,
            target_of(roller, character),
            page - 1,
        )
        await interaction.response.send_message(embed=ledger_embed(ledger), ephemeral=True)

    @app_commands.command(name="pay", description="Pay money out of a character's purse")
    @app_commands.guild_only()
    @app_commands.describe(
        amount="e.g. 3 gold 4 silver (a bare number: the smallest coin)",
        reason="What for",
        character="The character (default: your active one)",
    )
    @app_commands.autocomplete(character=ac.my_character)
    async def pay(
        self,
        interaction: discord.Interaction,
        amount: Name,
        reason: Reason = "",
        character: Name | None = None,
    ) -> None:
        await self._change(interaction, "pay", amount, reason, character)

    @app_commands.command(name="receive", description="Put money into a character's purse")
    @app_commands.guild_only()
    @app_commands.describe(
        amount="e.g. 3 gold 4 silver (a bare number: the smallest coin)",
        reason="Where from",
        character="The character (default: your active one)",
    )
    @app_commands.autocomplete(character=ac.my_character)
    async def receive(
        self,
        interaction: discord.Interaction,
        amount: Name,
        reason: Reason = "",
        character: Name | None = None,
    ) -> None:
        await self._change(interaction, "receive", amount, reason, character)

    @app_commands.command(name="grant", description="GMs: give a character money, with a reason")
    @app_commands.guild_only()
    @app_commands.describe(
        character="The character", amount="e.g. 3 gold 4 silver", reason="Why, e.g. reward"
    )
    @app_commands.autocomplete(character=ac.readable_character)
    async def grant(
        self, interaction: discord.Interaction, character: Name, amount: Name, reason: Name
    ) -> None:
        await self._change(interaction, "grant", amount, reason, character)

    @app_commands.command(
        name="take", description="GMs: take money from a character, with a reason"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        character="The character", amount="e.g. 3 gold 4 silver", reason="Why, e.g. a fine"
    )
    @app_commands.autocomplete(character=ac.readable_character)
    async def take(
        self, interaction: discord.Interaction, character: Name, amount: Name, reason: Name
    ) -> None:
        await self._change(interaction, "take", amount, reason, character)

    @app_commands.command(name="give", description="Give money to another character")
    @app_commands.guild_only()
    @app_commands.describe(
        receiver="Who receives it",
        amount="e.g. 3 gold 4 silver",
        character="Who gives it (default: your active one)",
    )
    @app_commands.autocomplete(receiver=ac.readable_character, character=ac.my_character)
    async def give(
        self,
        interaction: discord.Interaction,
        receiver: Name,
        amount: Name,
        character: Name | None = None,
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        settings = await self.bot.store.gear_settings(roller.guild_id, roller.campaign.id)
        value = settings.currency.parse(amount)
        outcome = await self.bot.store.give(
            roller.guild_id,
            roller.campaign.id,
            roller.user_id,
            target_of(roller, character),
            receiver,
            amount=value,
            press_id=interaction.id,
        )
        what = what_given(None, 0, value, settings.currency)
        await send_give(self.bot, interaction, roller, outcome, what)

    @app_commands.command(
        name="undo", description="GMs: undo the last entry of a character's purse"
    )
    @app_commands.guild_only()
    @app_commands.describe(character="The character")
    @app_commands.autocomplete(character=ac.readable_character)
    async def undo(self, interaction: discord.Interaction, character: Name) -> None:
        roller = await load_roller(self.bot, interaction)
        change = await self.bot.store.undo_purse(
            roller.guild_id, roller.campaign.id, roller.user_id, character
        )
        await interaction.response.send_message(
            clip(change_text(change), CONTENT_MAX), ephemeral=change.sheet.is_npc
        )

    @app_commands.command(
        name="currency", description="GMs: the campaign's coins; whether gifts land at once"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        coins="Smallest first, how many make the next: copper 10 silver 10 gold",
        gifts_at_once="Players' gives land without the receiver's Accept",
    )
    async def currency(
        self,
        interaction: discord.Interaction,
        coins: Name | None = None,
        gifts_at_once: bool | None = None,
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        store = self.bot.store
        if coins is None and gifts_at_once is None:
            settings = await store.gear_settings(roller.guild_id, roller.campaign.id)
        else:
            settings = await store.set_gear_settings(
                roller.guild_id,
                roller.campaign.id,
                roller.user_id,
                **({"currency": parse_currency(coins)} if coins else {}),
                gifts_at_once=gifts_at_once,
            )
        gifts = (
            tr("gifts land at once")
            if settings.gifts_at_once
            else tr("gifts wait for the receiver's Accept")
        )
        text = tr(
            "Currency of {campaign}: {coins}; {gifts}.",
            campaign=inert(roller.campaign.name),
            coins=inert(settings.currency.describe()),
            gifts=gifts,
        )
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: WireBot) -> None:
    await bot.add_cog(PurseCog(bot))
