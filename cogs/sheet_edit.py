"""The sheet's Edit button and its form: a whole sheet's attributes and skills changed at once.

The button is a DynamicItem whose custom id names the campaign and the character, so it works on
any sheet ever posted, after restarts too. The form is stateless the same way: its custom id names
the sheet and the submitted text is all the rest, so the bot keeps nothing per open form and a
form submitted after a restart still applies. discord.py would keep every opened form in memory
until submitted (forever, for a form closed unsent), so each form is stopped before it is sent
and the Characters cog answers its submit from `on_interaction` instead (`WireBot.add_form`).
Opening the form (`open_sheet_form`) is here, with the button and its Fix it retry.
"""

from __future__ import annotations

import contextlib
import re
import secrets
from typing import TYPE_CHECKING, Any

import discord

from cogs.quickplay.panel import PanelButton
from cogs.utils.actor import actor_of
from cogs.utils.errors import UserError
from cogs.utils.line_form import MODAL_TITLE_MAX, submitted
from cogs.utils.text import inert
from storage.models import Actor, Campaign, require_change
from wire import i18n
from wire.i18n import tr, trc
from wire.sheet import Character
from wire.sheet_text import EXAMPLE, SHEET_TEXT_MAX, sheet_text, unwritable
from wire.textcheck import clip

if TYPE_CHECKING:
    from bot import WireBot

EDIT_ID = re.compile(r"wire:sheet:(?P<campaign>[0-9]+):(?P<character>[0-9]+):edit")
FORM_ID = re.compile(r"wire:sheet:(?P<campaign>[0-9]+):(?P<character>[0-9]+):form")
TEXT_ID = "wire:sheet:text"
NEW_ID = "wire:sheet:new"
RETRY_SECONDS = 14 * 60
"""A reply can be edited for 15 minutes; the retry button goes a little before that."""


def edit_id(campaign_id: int, character_id: int) -> str:
    return f"wire:sheet:{campaign_id}:{character_id}:edit"


class EditButton(discord.ui.DynamicItem[discord.ui.Button], template=EDIT_ID):
    """Opens the sheet's form, for the character's player or a GM (others are refused)."""

    pattern = EDIT_ID
    """The bot's stale-button check reads this (see WireBot.add_dynamic_items)."""

    def __init__(self, campaign_id: int, character_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=trc("button", "Edit"),
                style=discord.ButtonStyle.secondary,
                custom_id=edit_id(campaign_id, character_id),
            )
        )
        self.campaign_id, self.character_id = campaign_id, character_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any, /
    ) -> EditButton:
        return cls(int(match["campaign"]), int(match["character"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: WireBot = interaction.client  # type: ignore[assignment]
        await bot.tree.run(interaction, lambda: self._press(bot, interaction))

    async def _press(self, bot: WireBot, interaction: discord.Interaction) -> None:
        await open_sheet_form(bot, interaction, self.campaign_id, self.character_id)


def carries(message: discord.Message, custom_id: str) -> bool:
    """Whether the message has a component with this custom id."""
    return any(
        getattr(child, "custom_id", None) == custom_id
        for row in message.components
        for child in getattr(row, "children", ())
    )


def sheet_view(character: Character, *, panel: bool = False) -> discord.ui.View:
    """Edit, and with `panel` the Panel button (the presser's own active character, or an NPC
    shown to a GM: the button opens the panel of the one who may play it)."""
    view = discord.ui.View(timeout=None)
    view.add_item(EditButton(character.campaign_id, character.id))
    if panel:
        view.add_item(PanelButton(character.id))
    return view


def sheet_form(character: Character, text: str) -> discord.ui.Modal:
    """The form with `text` filled in, ready to send (and not kept: see the module's notes)."""
    form = discord.ui.Modal(
        title=clip(tr("Edit {name}", name=character.name), MODAL_TITLE_MAX),
        custom_id=f"wire:sheet:{character.campaign_id}:{character.id}:form",
    )
    form.add_item(
        discord.ui.Label(
            text=trc("form", "Attributes ; skills"),
            description=trc(
                "form description",
                "Name and number, commas between; attributes ; skills, e.g. Parry 3 (combat)",
            ),
            component=discord.ui.TextInput(
                custom_id=TEXT_ID,
                style=discord.TextStyle.paragraph,
                default=text or None,
                placeholder=tr(EXAMPLE),
                required=False,
                max_length=SHEET_TEXT_MAX,
            ),
        )
    )
    form.add_item(
        discord.ui.Label(
            text=trc("form", "Keep new names as typed"),
            description=trc(
                "form description", "Add a name close to a known one anyway (no did-you-mean)"
            ),
            component=discord.ui.Checkbox(custom_id=NEW_ID),
        )
    )
    form.stop()
    return form


def form_values(data: dict[str, Any] | None) -> tuple[str, bool]:
    """The text and the keep-new-names box of a submitted form, read from Discord's payload."""
    found = submitted(data)
    text = found.get(TEXT_ID)
    return (text if isinstance(text, str) else ""), found.get(NEW_ID) is True


class RetryForm(discord.ui.View):
    """The form again, with the text that was refused, so fixing one typo costs no retyping.

    Discord cannot answer a form with another form, so a refusal carries this button. Its
    custom id is random and listed in `bot.live_components` while it listens, like Confirm's.
    """

    def __init__(
        self,
        bot: WireBot,
        origin: discord.Interaction,
        campaign_id: int,
        character_id: int,
        text: str,
    ) -> None:
        super().__init__(timeout=RETRY_SECONDS)
        self.bot, self.origin, self.text = bot, origin, text
        self.campaign_id, self.character_id = campaign_id, character_id
        self.retry.custom_id = f"wire:sheet:retry:{secrets.token_hex(8)}"
        self.retry.label = trc("button", "Fix it")

        bot.live_components.add(self.retry.custom_id)

    async def on_timeout(self) -> None:
        self.bot.live_components.discard(self.retry.custom_id)
        with contextlib.suppress(discord.HTTPException):
            await self.origin.edit_original_response(view=None)

    @discord.ui.button(label="Fix it", style=discord.ButtonStyle.primary)
    async def retry(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await self.bot.tree.run(interaction, lambda: self._retry(interaction))

    async def _retry(self, interaction: discord.Interaction) -> None:
        await open_sheet_form(self.bot, interaction, self.campaign_id, self.character_id, self.text)


def guild_of(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise UserError(tr("Sheets live in a server: use the button there."))
    return interaction.guild_id


async def load_sheet(
    bot: WireBot, interaction: discord.Interaction, campaign_id: int, character_id: int
) -> tuple[Campaign, Character]:
    """The campaign and the sheet a button or form names, in the interaction's guild."""
    guild_id = guild_of(interaction)
    campaign = await bot.store.get_campaign_by_id(guild_id, campaign_id)
    return campaign, await bot.store.get_character_by_id(guild_id, campaign_id, character_id)


def require_editor(campaign: Campaign, character: Character, actor: Actor) -> None:
    """The one rule of who may change a sheet (storage.models.change_refusal), checked before a
    form opens or a question is asked, so nobody is shown a dialog the store then refuses."""
    require_change(
        campaign,
        actor,
        name=character.name,
        player_id=character.owner_id,
        is_npc=character.is_npc,
    )


async def open_sheet_form(
    bot: WireBot,
    interaction: discord.Interaction,
    campaign_id: int,
    character_id: int,
    text: str | None = None,
) -> None:
    """The sheet's form, with the sheet as text (or `text`, a refused one to fix)."""
    campaign, character = await load_sheet(bot, interaction, campaign_id, character_id)
    require_editor(campaign, character, actor_of(interaction))
    if text is None:
        bad = unwritable([*character.attributes, *character.skills])
        if bad:
            raise UserError(
                tr(
                    "{names}: a comma or semicolon in a name cannot go in the form. Change "
                    "such stats with `/character set` and `/character remove`.",
                    names=", ".join(inert(n) for n in bad[:5]),
                )
            )
        advancement = await bot.store.get_advancement(guild_of(interaction), campaign_id)
        text = sheet_text(character.attributes, character.skills, advancement.categories)
        if len(text) > SHEET_TEXT_MAX:
            raise UserError(
                tr(
                    "{name}'s sheet is {length} characters as text, more than the form's "
                    "{most}. Change it with `/character set` and `/character remove`.",
                    name=inert(character.name),
                    length=i18n.number(len(text)),
                    most=i18n.number(SHEET_TEXT_MAX),
                )
            )
    await interaction.response.send_modal(sheet_form(character, text))
