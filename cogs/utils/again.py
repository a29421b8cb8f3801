"""The Roll again button: the same roll once more, with a fresh die, for the one who rolled.

Only a roll that changes nothing in the game has the button: an attack whose damage went to a
fight, or a crafting roll applied to a project, is a new action, not a roll to repeat (its log
line keeps no options, and a replay of an older one is refused where it would change the game).

A roll's log line keeps the command and the options it was made with (`options_of`), so the
button needs only the roll's id: it survives restarts, and an id from another guild or a roll
that is gone finds nothing. The replay calls the command again as the first call did
(cogs/utils/replay.py), so it is logged and answered like any roll.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from cogs.utils.replay import OPTIONS_KEY, own_roll, rerun
from cogs.utils.save_button import SaveButton
from wire.i18n import N_, trc

if TYPE_CHECKING:
    from bot import WireBot

AGAIN_ID = re.compile(r"wire:again:(?P<roll>[0-9]{1,19})")


class AgainButton(discord.ui.DynamicItem[discord.ui.Button], template=AGAIN_ID):
    pattern = AGAIN_ID

    def __init__(self, roll_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=trc("button", "Roll again"),
                style=discord.ButtonStyle.secondary,
                custom_id=f"wire:again:{roll_id}",
            )
        )
        self.roll_id = roll_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any, /
    ) -> AgainButton:
        return cls(int(match["roll"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: WireBot = interaction.client  # type: ignore[assignment]
        await bot.tree.run(interaction, lambda: replay(bot, interaction, self.roll_id))


def again_view(roll_id: int, *, savable: bool = False) -> discord.ui.View:
    """Roll again, and Save beside it for a character's roll."""
    view = discord.ui.View(timeout=None)
    view.add_item(AgainButton(roll_id))
    if savable:
        view.add_item(SaveButton(roll_id))
    return view


async def replay(bot: WireBot, interaction: discord.Interaction, roll_id: int) -> None:
    record = await own_roll(
        bot,
        interaction,
        roll_id,
        gone=N_("That roll is no longer in the log, so it cannot be rolled again."),
        others=N_("Only {user} can roll this again; make your own roll."),
    )
    await rerun(bot, interaction, record.inputs.get(OPTIONS_KEY))
