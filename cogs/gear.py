"""What characters carry: `/gear` (list, add, remove, use, give) and the gifts' Accept button.

GMs see and change any character's gear, players their own; an NPC's is the GMs', so its replies
are ephemeral. A give between two players' characters posts a message with Accept / Refuse for
the receiver's player (DynamicItems naming the gift, so they work after a restart and act once),
unless the campaign lets gifts land at once (`/purse currency gifts_at_once:`). The sheet shows
the carried load against the maximum (`add_load_field`). The store keeps it all
(storage/rules_gear.py); the weight rule is the rules core's (wire/gear.py).
"""

from __future__ import annotations

import contextlib
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.advancement import GuildPress
from cogs.gear_form import GEAR_FORM_ID, GearEditButton, answer_gear_form, gear_view
from cogs.utils import autocomplete as ac
from cogs.utils.discord_limits import (
    CONTENT_MAX,
    EMBED_DESCRIPTION_MAX,
    EMBED_FIELD_VALUE_MAX,
    EMBED_TITLE_MAX,
)
from cogs.utils.embeds import NEUTRAL
from cogs.utils.language import adopt, for_table
from cogs.utils.options import FreeText, Name
from cogs.utils.rolling import Roller, actor_of, load_roller
from cogs.utils.text import inert
from storage.errors import NotFound
from storage.models_gear import NOTE_MAX, Gear, GiveOutcome
from wire.gear import MAX_QUANTITY, Currency, Item, Load, kilograms, parse_kg
from wire.i18n import tr, trc
from wire.textcheck import clip

if TYPE_CHECKING:
    from bot import WireBot
    from storage.models import Campaign
    from wire.sheet import Character

GIFT_ID = re.compile(r"wire:gift:(?P<campaign>[0-9]+):(?P<gift>[0-9]+):(?P<choice>accept|refuse)")
Quantity = app_commands.Range[int, 1, MAX_QUANTITY]
Note = app_commands.Transform[str, FreeText(NOTE_MAX, shortest=0)]


def target_of(roller: Roller, character: str | None) -> str | int:
    """The character a command names, or the user's active one."""
    return character or roller.sheet().id


def item_line(item: Item) -> str:
    """ "2 × Rope (1.25 kg each, 2.5 kg), stored: hemp"."""
    line = f"{item.quantity} × **{inert(item.name)}**"
    if item.grams:
        line += " " + tr(
            "({each} each, {total})", each=kilograms(item.grams), total=kilograms(item.total_g)
        )
    if not item.carried:
        line += ", " + tr("stored")
    if item.note:
        line += f": {inert(item.note)}"
    return line


def load_text(load: Load) -> str:
    """The load line, with a warning sign when over the maximum (flagged, never penalised)."""
    return ("⚠ " if load.over else "") + load.line()


def gear_embed(gear: Gear) -> discord.Embed:
    """A character's kit: the items, the load, the purse and the counters."""
    lines = [item_line(item) for item in gear.items] or [tr("Carries nothing noted yet.")]
    embed = discord.Embed(
        title=clip(tr("Gear of {name}", name=inert(gear.sheet.name)), EMBED_TITLE_MAX),
        description=clip("\n".join(lines), EMBED_DESCRIPTION_MAX),
        colour=NEUTRAL,
    )
    embed.add_field(name=tr("Load"), value=load_text(gear.load), inline=False)
    embed.add_field(name=tr("Purse"), value=inert(gear.currency.show(gear.purse.balance)))
    if gear.counters:
        counters = "\n".join(f"{inert(c.line())} ({c.reset.label})" for c in gear.counters)
        embed.add_field(name=tr("Counters"), value=clip(counters, EMBED_FIELD_VALUE_MAX))
    return embed


async def add_load_field(
    bot: WireBot, campaign: Campaign, character: Character, embed: discord.Embed
) -> None:
    """The sheet's Load field: carried against the maximum load, flagged when over. Only a
    sheet with items gets one, so a table that keeps no gear sees no change."""
    load = await bot.store.sheet_load(campaign.guild_id, campaign.id, character.id)
    if load is not None:
        embed.add_field(name=tr("Load"), value=load_text(load), inline=False)


def weight_of(text: str) -> int:
    return parse_kg(text) if text.strip() else 0


def gift_id(campaign_id: int, gift: int, choice: str) -> str:
    return f"wire:gift:{campaign_id}:{gift}:{choice}"


def what_given(item: str | None, quantity: int, amount: int, currency: Currency) -> str:
    if item is not None:
        return f"{quantity} × {inert(item)}"
    return inert(currency.show(amount))


def give_text(outcome: GiveOutcome, what: str) -> str:
    """The public line of a give: done, or waiting for the receiver's player."""
    names = {
        "giver": inert(outcome.giver.name),
        "receiver": inert(outcome.receiver.name),
        "what": what,
    }
    if outcome.gift is None:
        return tr("**{giver}** gives **{receiver}** {what}.", **names)
    return tr(
        "**{giver}** offers **{receiver}** {what}. {player}, accept or refuse below; "
        "nothing moves until you do.",
        player=f"<@{outcome.receiver_owner}>",
        **names,
    )


def gift_view(campaign_id: int, gift: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(GiftButton(campaign_id, gift, "accept"))
    view.add_item(GiftButton(campaign_id, gift, "refuse"))
    return view


async def send_give(
    bot: WireBot, interaction: discord.Interaction, roller: Roller, outcome: GiveOutcome, what: str
) -> None:
    """Answer a give: the line (in the table's language when others act on it), with the
    receiver's buttons when it waits; an NPC's side keeps it to the one who gave."""
    secret = outcome.giver.is_npc or outcome.receiver.is_npc
    if outcome.gift is None:
        await interaction.response.send_message(give_text(outcome, what), ephemeral=secret)
        return
    with for_table():
        text = give_text(outcome, what)
        view = gift_view(roller.campaign.id, outcome.gift.id)
    await interaction.response.send_message(
        clip(text, CONTENT_MAX),
        view=view,
        allowed_mentions=discord.AllowedMentions(users=True, everyone=False, roles=False),
    )


class GiftButton(GuildPress, discord.ui.DynamicItem[discord.ui.Button], template=GIFT_ID):
    """The receiver's Accept or Refuse of a waiting gift (the giver's player may take it back
    with Refuse); its ids are its state. Acts once: a second press is told it was answered."""

    pattern = GIFT_ID

    def __init__(self, campaign_id: int, gift: int, choice: str) -> None:
        accept = choice == "accept"
        super().__init__(
            discord.ui.Button(
                label=trc("button", "Accept") if accept else trc("button", "Refuse"),
                style=discord.ButtonStyle.success if accept else discord.ButtonStyle.secondary,
                custom_id=gift_id(campaign_id, gift, choice),
            )
        )
        self.campaign_id, self.gift, self.choice = campaign_id, gift, choice

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any, /
    ) -> GiftButton:
        return cls(int(match["campaign"]), int(match["gift"]), match["choice"])

    async def _press(self, bot: WireBot, interaction: discord.Interaction, guild_id: int) -> None:
        with contextlib.suppress(NotFound):
            adopt(await bot.store.get_campaign_by_id(guild_id, self.campaign_id))
        gift, state = await bot.store.answer_gift(
            guild_id, self.campaign_id, actor_of(interaction), self.gift, self.choice == "accept"
        )
        settings = await bot.store.gear_settings(guild_id, self.campaign_id)
        what = what_given(gift.item_name, gift.quantity, gift.amount, settings.currency)
        with for_table():
            text = answer_text(state, what, interaction.user.id)
        await interaction.response.edit_message(content=text, view=None)


def answer_text(state: str, what: str, user_id: int) -> str:
    params = {"what": what, "user": f"<@{user_id}>"}
    if state == "accepted":
        return tr("Accepted by {user}: {what} changed hands.", **params)
    if state == "failed":
        return tr(
            "Accepted by {user}, but the giver no longer has {what} (or the receiver has no "
            "room): nothing moved.",
            **params,
        )
    return tr("Refused by {user}: {what} stays where it was.", **params)


class GearCog(commands.GroupCog, group_name="gear"):
    """Items on a character: list, add, remove, use, give."""

    def __init__(self, bot: WireBot) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(GiftButton, GearEditButton)
        self.bot.add_form(GEAR_FORM_ID, self.on_gear_form)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(GiftButton, GearEditButton)
        self.bot.remove_form(GEAR_FORM_ID)

    async def on_gear_form(self, interaction: discord.Interaction, match: re.Match[str]) -> None:
        """Answer the gear's form wherever it was opened: it names all it needs."""
        await self.bot.tree.run(interaction, lambda: answer_gear_form(self.bot, interaction, match))

    async def _reply(self, interaction: discord.Interaction, text: str, sheet: Character) -> None:
        """A change's line: public for a player character, the GMs' alone for an NPC."""
        await interaction.response.send_message(clip(text, CONTENT_MAX), ephemeral=sheet.is_npc)

    @app_commands.command(
        name="list", description="What a character carries, its purse and counters"
    )
    @app_commands.guild_only()
    @app_commands.describe(character="The character (default: your active one)")
    @app_commands.autocomplete(character=ac.my_character)
    async def list_gear(
        self, interaction: discord.Interaction, character: Name | None = None
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        gear = await self.bot.store.gear(
            roller.guild_id, roller.campaign.id, roller.user_id, target_of(roller, character)
        )
        await interaction.response.send_message(
            embed=gear_embed(gear),
            view=gear_view(roller.campaign.id, gear.sheet.id),
            ephemeral=True,
        )

    @app_commands.command(name="add", description="Add an item to a character")
    @app_commands.guild_only()
    @app_commands.describe(
        item="The item's name",
        quantity="How many (default 1)",
        weight="Weight of one in kg, e.g. 0.5",
        note="A note, e.g. hemp, 10 m",
        stored="Kept elsewhere (a cart, an inn): weighs nothing on the character",
        character="The character (default: your active one)",
    )
    @app_commands.autocomplete(character=ac.my_character)
    async def add(
        self,
        interaction: discord.Interaction,
        item: Name,
        quantity: Quantity = 1,
        weight: Name | None = None,
        note: Note = "",
        stored: bool | None = None,
        character: Name | None = None,
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        grams = weight_of(weight) if weight else None
        stored_item, gear = await self.bot.store.add_item(
            roller.guild_id,
            roller.campaign.id,
            roller.user_id,
            target_of(roller, character),
            item,
            quantity,
            grams,
            note,
            None if stored is None else not stored,
        )
        text = tr(
            "**{name}** now has {item}. {load}",
            name=inert(gear.sheet.name),
            item=item_line(stored_item),
            load=load_text(gear.load),
        )
        await self._reply(interaction, text, gear.sheet)

    @app_commands.command(name="remove", description="Take an item off a character")
    @app_commands.guild_only()
    @app_commands.describe(
        item="The item's name",
        quantity="How many (default: all of them)",
        character="The character (default: your active one)",
    )
    @app_commands.autocomplete(character=ac.my_character)
    async def remove(
        self,
        interaction: discord.Interaction,
        item: Name,
        quantity: Quantity | None = None,
        character: Name | None = None,
    ) -> None:
        await self._take(interaction, item, quantity, character, used=False)

    @app_commands.command(name="use", description="Use up one of an item (a potion, a ration)")
    @app_commands.guild_only()
    @app_commands.describe(
        item="The item's name", character="The character (default: your active one)"
    )
    @app_commands.autocomplete(character=ac.my_character)
    async def use(
        self, interaction: discord.Interaction, item: Name, character: Name | None = None
    ) -> None:
        await self._take(interaction, item, 1, character, used=True)

    async def _take(
        self,
        interaction: discord.Interaction,
        item: str,
        quantity: int | None,
        character: str | None,
        *,
        used: bool,
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        taken, gear = await self.bot.store.remove_item(
            roller.guild_id,
            roller.campaign.id,
            roller.user_id,
            target_of(roller, character),
            item,
            quantity,
        )
        left = next((i.quantity for i in gear.items if i.id == taken.id), 0)
        params = {
            "name": inert(gear.sheet.name),
            "count": taken.quantity,
            "item": inert(taken.name),
            "left": left,
        }
        text = (
            tr("**{name}** uses one {item}; {left} left.", **params)
            if used
            else tr("**{name}** puts away {count} × {item}; {left} left.", **params)
        )
        await self._reply(interaction, text, gear.sheet)

    @app_commands.command(name="give", description="Give an item to another character")
    @app_commands.guild_only()
    @app_commands.describe(
        item="The item's name",
        receiver="Who receives it",
        quantity="How many (default 1)",
        character="Who gives it (default: your active one)",
    )
    @app_commands.autocomplete(receiver=ac.readable_character, character=ac.my_character)
    async def give(
        self,
        interaction: discord.Interaction,
        item: Name,
        receiver: Name,
        quantity: Quantity = 1,
        character: Name | None = None,
    ) -> None:
        roller = await load_roller(self.bot, interaction)
        outcome = await self.bot.store.give(
            roller.guild_id,
            roller.campaign.id,
            roller.user_id,
            target_of(roller, character),
            receiver,
            item=item,
            quantity=quantity,
        )
        await send_give(
            self.bot, interaction, roller, outcome, what_given(item, quantity, 0, Currency())
        )


async def setup(bot: WireBot) -> None:
    await bot.add_cog(GearCog(bot))
