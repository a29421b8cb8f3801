"""The Save button beside Roll again: keep this roll as one of the character's saved rolls.

Like Roll again it names only the roll's id (the roll log keeps the command and options), so
it survives a restart. A press opens a form asking for the name, filled in with one made from
the roll (its label, weapon or stats). The form is stateless like the sheet's (cogs/
sheet_edit.py): its custom id names the roll, so it is stopped before it is sent and the
QuickPlay cog answers its submit from `on_interaction` (`WireBot.add_form`), after a restart
too; the submit checks everything again, as the name is checked when it arrives with /save
name:.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from cogs.utils.actor import actor_of
from cogs.utils.errors import UserError
from cogs.utils.line_form import line_form, submitted
from cogs.utils.replay import OPTIONS_KEY, own_roll
from cogs.utils.text import inert
from storage.errors import NotFound
from storage.models import RollRecord
from storage.validation import NAME_MAX
from wire.i18n import N_, tr, trc
from wire.textcheck import normal_text, text_problem

if TYPE_CHECKING:
    from bot import WireBot

SAVE_ID = re.compile(r"wire:save:(?P<roll>[0-9]{1,19})")
FORM_ID = re.compile(r"wire:save:(?P<roll>[0-9]{1,19}):form")
NAME_INPUT = "wire:save:name"
NAMING_OPTIONS = ("label", "weapon", "attr_name", "skill_name", "defence", "target", "expression")
"""The options a saved roll's default name is made of, in this order."""


def default_name(command: dict[str, Any]) -> str:
    """ "check Dexterity Climb", "attack Long sword Goblin": short, and telling the rolls apart."""
    options = command.get("options") or {}
    if options.get("label"):
        return str(options["label"])[:NAME_MAX]
    parts = [str(command.get("name") or "roll")]
    parts += [str(options[key]) for key in NAMING_OPTIONS if options.get(key)]
    return " ".join(parts)[:NAME_MAX].strip()


class SaveButton(discord.ui.DynamicItem[discord.ui.Button], template=SAVE_ID):
    pattern = SAVE_ID

    def __init__(self, roll_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=trc("button", "Save"),
                style=discord.ButtonStyle.secondary,
                custom_id=f"wire:save:{roll_id}",
            )
        )
        self.roll_id = roll_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any, /
    ) -> SaveButton:
        return cls(int(match["roll"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: WireBot = interaction.client  # type: ignore[assignment]
        await bot.tree.run(interaction, lambda: self._press(bot, interaction))

    async def _press(self, bot: WireBot, interaction: discord.Interaction) -> None:
        record, command = await savable(bot, interaction, self.roll_id)
        await interaction.response.send_modal(
            save_form(self.roll_id, default_name(command), await sheet_name(bot, record))
        )


async def sheet_name(bot: WireBot, record: RollRecord) -> str:
    """The name of the sheet the roll is saved to: a roll made as a copy in a fight ("Goblin
    1", as the log names it) is saved to the sheet all the copies share ("Goblin")."""
    try:
        sheet = await bot.store.get_character_by_id(
            record.guild_id, record.campaign_id, record.character_id or 0
        )
    except NotFound:
        return record.character_name or ""  # the save itself says it is gone
    return sheet.name


async def savable(
    bot: WireBot, interaction: discord.Interaction, roll_id: int
) -> tuple[RollRecord, dict[str, Any]]:
    """The logged roll and its command, if the presser may save it: their own roll, made by a
    character. Checked at the press and again at the form's submit."""
    record = await own_roll(
        bot,
        interaction,
        roll_id,
        gone=N_("That roll is no longer in the log, so it cannot be saved."),
        others=N_("Only {user} can save this roll; save your own."),
    )
    command = record.inputs.get(OPTIONS_KEY)
    if record.character_id is None or not isinstance(command, dict):
        raise UserError(
            tr("Only a character's roll can be saved: make one with /character create.")
        )
    return record, command


def save_form(roll_id: int, name: str, character: str) -> discord.ui.Modal:
    """The form asking for the saved roll's name, `name` filled in (and not kept: see above)."""
    return line_form(
        tr("Save a roll of {name}", name=character),
        f"wire:save:{roll_id}:form",
        (trc("form", "Name"), trc("form description", "Roll it again with /r name:"), NAME_INPUT),
        default=name[:NAME_MAX] or None,
        max_length=NAME_MAX,
    )


async def answer_save_form(bot: WireBot, interaction: discord.Interaction, roll_id: int) -> None:
    """Save the roll under the name typed in the form; a bad name, a name the character's saved
    rolls already have, or the limit are refused with what to do."""
    record, command = await savable(bot, interaction, roll_id)
    typed = submitted(interaction.data).get(NAME_INPUT)
    typed = typed if isinstance(typed, str) else ""
    problem = text_problem(typed, NAME_MAX)
    if problem:
        raise UserError(f"{trc('form', 'Name')}: {problem.what}. {problem.fix}")
    change = await bot.store.save_roll(
        record.guild_id,
        record.campaign_id,
        actor_of(interaction),
        record.character_id,
        normal_text(typed),
        command,
        replace=False,
    )
    await interaction.response.send_message(
        saved_text(change, await sheet_name(bot, record)), ephemeral=True
    )


def saved_text(change: Any, character: str) -> str:
    name = inert(change.saved.name)
    if change.replaced:
        return tr(
            "Saved for {character} as **{name}**, in place of the roll saved under that name. "
            "Roll it with /r name:{name}.",
            character=inert(character),
            name=name,
        )
    return tr(
        "Saved for {character} as **{name}**. Roll it with /r name:{name}; rename or delete it "
        "with /save.",
        character=inert(character),
        name=name,
    )
