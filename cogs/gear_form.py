"""The gear's Edit form: a character's items changed at once, as lines of text.

The Edit button under `/gear list` is a DynamicItem naming the campaign and the character, and
the form names them too, so both work after a restart and the bot keeps nothing per open form
(as the sheet's form does: cogs/sheet_edit.py). The text format is the rules core's
(wire/gear_text.py); the store writes the whole list in one transaction
(storage/rules_gear.py `replace_items`), for the character's player or a GM.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from cogs.advancement import GuildPress
from cogs.utils.errors import UserError
from cogs.utils.line_form import MODAL_TITLE_MAX, submitted
from cogs.utils.rolling import actor_of
from cogs.utils.text import inert
from wire.gear_text import GEAR_TEXT_MAX, items_text, parse_items
from wire.i18n import tr, trc
from wire.textcheck import clip

if TYPE_CHECKING:
    from bot import WireBot

GEAR_EDIT_ID = re.compile(r"wire:gear:(?P<campaign>[0-9]+):(?P<character>[0-9]+):edit")
GEAR_FORM_ID = re.compile(r"wire:gear:(?P<campaign>[0-9]+):(?P<character>[0-9]+):form")
ITEMS_ID = "wire:gear:items"


class GearEditButton(GuildPress, discord.ui.DynamicItem[discord.ui.Button], template=GEAR_EDIT_ID):
    """Opens the gear's form with the items as text, for whoever may change the gear."""

    pattern = GEAR_EDIT_ID

    def __init__(self, campaign_id: int, character_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=trc("button", "Edit"),
                style=discord.ButtonStyle.secondary,
                custom_id=f"wire:gear:{campaign_id}:{character_id}:edit",
            )
        )
        self.campaign_id, self.character_id = campaign_id, character_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any, /
    ) -> GearEditButton:
        return cls(int(match["campaign"]), int(match["character"]))

    async def _press(self, bot: WireBot, interaction: discord.Interaction, guild_id: int) -> None:
        gear = await bot.store.gear(
            guild_id, self.campaign_id, actor_of(interaction), self.character_id
        )
        unwritable = [i.name for i in gear.items if ";" in i.name or ":" in i.name]
        if unwritable:
            raise UserError(
                tr(
                    "{names}: a semicolon or colon in an item's name cannot go in the form. "
                    "Change such items with /gear add and /gear remove.",
                    names=", ".join(inert(n) for n in unwritable[:5]),
                )
            )
        text = items_text(gear.items)
        if len(text) > GEAR_TEXT_MAX:
            raise UserError(
                tr(
                    "{name}'s items are more text than the form holds. Change them with "
                    "/gear add and /gear remove.",
                    name=inert(gear.sheet.name),
                )
            )
        await interaction.response.send_modal(
            gear_form(self.campaign_id, self.character_id, gear.sheet.name, text)
        )


def gear_view(campaign_id: int, character_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(GearEditButton(campaign_id, character_id))
    return view


def gear_form(campaign_id: int, character_id: int, name: str, text: str) -> discord.ui.Modal:
    """The form with the items filled in, ready to send (not kept: stopped before it goes)."""
    form = discord.ui.Modal(
        title=clip(tr("Gear of {name}", name=name), MODAL_TITLE_MAX),
        custom_id=f"wire:gear:{campaign_id}:{character_id}:form",
    )
    form.add_item(
        discord.ui.Label(
            text=trc("form", "Items, one a line"),
            description=trc("form description", "2 x Rope; 1.5 kg: hemp · Tent; 9 kg; stored"),
            component=discord.ui.TextInput(
                custom_id=ITEMS_ID,
                style=discord.TextStyle.paragraph,
                default=text or None,
                required=False,
                max_length=GEAR_TEXT_MAX,
            ),
        )
    )
    form.stop()
    return form


async def answer_gear_form(
    bot: WireBot, interaction: discord.Interaction, match: re.Match[str]
) -> None:
    """Make the character's items exactly the form's lines; a bad line changes nothing and
    the reply names it."""
    if interaction.guild_id is None:
        raise UserError(tr("WIRE commands work in a server channel, not in direct messages."))
    text = submitted(interaction.data).get(ITEMS_ID)
    items = parse_items(text if isinstance(text, str) else "")
    gear = await bot.store.replace_items(
        interaction.guild_id,
        int(match["campaign"]),
        actor_of(interaction),
        int(match["character"]),
        items,
    )
    count = len(gear.items)
    await interaction.response.send_message(
        tr(
            "**{name}** now has {count} items. {load}",
            name=inert(gear.sheet.name),
            count=count,
            load=gear.load.line(),
        ),
        ephemeral=True,
    )
