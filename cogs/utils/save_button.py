"""The Save button beside Roll again: keep this roll as one of the character's saved rolls.

Like Roll again it names only the roll's id (the roll log keeps the command and options), so
it survives a restart; it saves under a name made from the roll (its label, weapon or stats),
which /save renames.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from cogs.utils.errors import UserError
from cogs.utils.text import inert
from storage.validation import NAME_MAX
from wire.i18n import tr, trc

if TYPE_CHECKING:
    from bot import WireBot

SAVE_ID = re.compile(r"wire:save:(?P<roll>[0-9]{1,19})")
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
        from cogs.utils.again import OPTIONS_KEY
        from cogs.utils.rolling import actor_of

        if interaction.guild_id is None:
            raise UserError(tr("This button works in a server channel."))
        record = await bot.store.get_roll(interaction.guild_id, self.roll_id)
        if record is None:
            raise UserError(tr("That roll is no longer in the log, so it cannot be saved."))
        if record.user_id != interaction.user.id:
            raise UserError(
                tr("Only {user} can save this roll; save your own.", user=f"<@{record.user_id}>")
            )
        command = record.inputs.get(OPTIONS_KEY)
        if record.character_id is None or not isinstance(command, dict):
            raise UserError(
                tr("Only a character's roll can be saved: make one with /character create.")
            )
        change = await bot.store.save_roll(
            interaction.guild_id,
            record.campaign_id,
            actor_of(interaction),
            record.character_id,
            default_name(command),
            command,
        )
        await interaction.response.send_message(
            saved_text(change, record.character_name or ""), ephemeral=True
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
