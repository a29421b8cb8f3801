"""The Roll again button: the same roll once more, with a fresh die, for the one who rolled.

Only a roll that changes nothing in the game has the button: an attack whose damage went to a
fight, or a crafting roll applied to a project, is a new action, not a roll to repeat (its log
line keeps no options, and a replay of an older one is refused where it would change the game).

A roll's log line keeps the command and the options it was made with (`options_of`), so the
button needs only the roll's id: it survives restarts, and an id from another guild or a roll
that is gone finds nothing. The replay calls the command again as the first call did, so it is
logged and answered like any roll; the options were checked when they first arrived.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from cogs.utils.errors import UserError
from cogs.utils.save_button import SaveButton
from storage.models import RollRecord
from wire.i18n import N_, tr, trc

if TYPE_CHECKING:
    from bot import WireBot

AGAIN_ID = re.compile(r"wire:again:(?P<roll>[0-9]{1,19})")
FRESH_DIE = ("roll", "take10")
"""Options that fixed the die: dropped, since rolling again means a new die."""
OPTIONS_KEY = "command"
CLAIM_KEY = "wire_claim"
"""In an interaction's extras: the `wire.fight.AttackClaim` of the target menu picked from, for
the attack it reruns to take only while the menu is current (it acts once)."""
PRESS_KEY = "wire_press"
"""In an interaction's extras: the `storage.models.Press` of a saved roll's button, for the
attack it rolls to take once per turn of the fight (a double tap is refused)."""


def is_replay(interaction: discord.Interaction) -> bool:
    """Whether this interaction is a Roll again press replaying a command."""
    extras = interaction.extras
    return extras.get("wire_replay") is not None and not extras.get("wire_fresh")


def options_of(interaction: discord.Interaction) -> dict[str, Any] | None:
    """The slash command and its options as they arrived (for the log line), or what a replay
    carries on; None for a press, which has nothing to repeat."""
    carried = interaction.extras.get("wire_replay")
    if carried is not None:
        return carried
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return None
    values: dict[str, Any] = {}
    for option in _leaves((interaction.data or {}).get("options") or []):
        if option.get("name") not in FRESH_DIE and "value" in option:
            values[str(option["name"])] = option["value"]
    return {"name": command.qualified_name, "options": values}


def _leaves(options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for option in options:
        if option.get("type") in (1, 2):
            found += _leaves(option.get("options") or [])
        else:
            found.append(option)
    return found


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


async def own_roll(
    bot: WireBot, interaction: discord.Interaction, roll_id: int, *, gone: str, others: str
) -> RollRecord:
    """The logged roll a button names, if it is the presser's own (Roll again, Save): `gone`
    and `others` (with {user}) say why not, each button in its own words."""
    if interaction.guild_id is None:
        raise UserError(tr("This button works in a server channel."))
    record = await bot.store.get_roll(interaction.guild_id, roll_id)
    if record is None:
        raise UserError(tr(gone))
    if record.user_id != interaction.user.id:
        raise UserError(tr(others, user=f"<@{record.user_id}>"))
    return record


async def rerun(
    bot: WireBot, interaction: discord.Interaction, saved: object, *, fresh: bool = False
) -> None:
    """Call a roll's command again with the options it was made with (`options_of`), so the
    sheet is read as it is now; Roll again, a saved roll and the quick actions share it.
    `fresh`: a new action (a saved roll, a tap on the panel), not a repeat of a logged one."""
    command = _command(bot, saved)
    if command is None or not isinstance(saved, dict):
        raise UserError(tr("This roll cannot be rolled again: make it with its command."))
    by_name = {p.display_name: p for p in command.parameters}
    kwargs: dict[str, Any] = {}
    for name, value in (saved.get("options") or {}).items():
        param = by_name.get(name)
        if param is None:
            raise UserError(tr("This roll's command has changed since: make it with the command."))
        kwargs[param.name] = (
            app_commands.Choice(name=str(value), value=value) if param.choices else value
        )
    interaction.extras["wire_replay"] = saved
    interaction.extras["wire_fresh"] = fresh
    await command.callback(command.binding, interaction, **kwargs)  # type: ignore[arg-type]


def _command(bot: WireBot, saved: object) -> app_commands.Command | None:
    if not isinstance(saved, dict) or not isinstance(saved.get("name"), str):
        return None
    first, *rest = saved["name"].split()
    found: Any = bot.tree.get_command(first)
    for part in rest:
        found = found.get_command(part) if isinstance(found, app_commands.Group) else None
    return found if isinstance(found, app_commands.Command) else None
