"""A short-lived "are you sure?" choice, for the commands that lose data.

Its custom ids are random and registered in `bot.live_components` while it listens, so a press
after its timeout or a restart is answered by the bot's stale-button note, never left hanging,
and an old message's button can never act on a new question.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord

from cogs.utils.errors import UserError
from wire import i18n
from wire.i18n import tr, trc

if TYPE_CHECKING:
    from bot import WireBot

CONFIRM_SECONDS = 60


class Confirm(discord.ui.View):
    """`action` runs on the confirming press and returns the text the question turns into."""

    def __init__(
        self,
        bot: WireBot,
        chooser_id: int,
        origin: discord.Interaction,
        action: Callable[[], Awaitable[str]],
        *,
        confirm_label: str | None = None,
        nothing_done: str | None = None,
    ) -> None:
        super().__init__(timeout=CONFIRM_SECONDS)
        self.bot, self.chooser_id, self.origin, self.action = bot, chooser_id, origin, action
        self.language = i18n.language()
        """The question's language: the timeout's note speaks it too, outside the interaction."""
        self.nothing_done = nothing_done or tr("Nothing was deleted.")
        token = secrets.token_hex(8)
        self.confirm.label = confirm_label or trc("button", "Delete")
        self.cancel.label = trc("button", "Cancel")
        self.confirm.custom_id = f"wire:confirm:{token}:yes"
        self.cancel.custom_id = f"wire:confirm:{token}:no"
        self.custom_ids = {self.confirm.custom_id, self.cancel.custom_id}
        self.answered = False
        """Set by the first press that counts, before its action runs: a second press arriving
        meanwhile (a double click) must not run the action again."""
        bot.live_components |= self.custom_ids

    def stop(self) -> None:
        self.bot.live_components -= self.custom_ids
        super().stop()

    async def on_timeout(self) -> None:
        """Take the buttons away, so nobody presses a choice that no longer listens."""
        self.bot.live_components -= self.custom_ids
        with contextlib.suppress(discord.HTTPException), i18n.speaking(self.language):
            late = self.nothing_done[:1].lower() + self.nothing_done[1:]
            await self.origin.edit_original_response(
                content=tr("No answer in time; {late}", late=late), view=None
            )

    def _require_chooser(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.chooser_id:
            raise UserError(tr("This is not your choice."))

    @discord.ui.button(label="Delete", style=discord.ButtonStyle.danger)
    async def confirm(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await self.bot.tree.run(interaction, lambda: self._confirm(interaction))

    async def _confirm(self, interaction: discord.Interaction) -> None:
        self._require_chooser(interaction)
        if self.answered:  # a double press: the action runs once
            raise UserError(tr("This question is answered already."))
        self.answered = True
        try:
            content = await self.action()
        except BaseException:
            self.answered = False  # nothing was done: the question may be answered again
            raise
        await interaction.response.edit_message(content=content, view=None)
        # stop() only after answering: until then the custom ids must count as live, or the
        # stale-button handler would answer this very press.
        self.stop()

    @discord.ui.button(label="Cancel", style=discord.ButtonStyle.secondary)
    async def cancel(self, interaction: discord.Interaction, _: discord.ui.Button) -> None:
        await self.bot.tree.run(interaction, lambda: self._cancel(interaction))

    async def _cancel(self, interaction: discord.Interaction) -> None:
        self._require_chooser(interaction)
        if self.answered:
            raise UserError(tr("This question is answered already."))
        self.answered = True
        await interaction.response.edit_message(content=self.nothing_done, view=None)
        self.stop()
