"""Replaying a slash command: a button that acts as a command did calls that command again.

A roll's log line keeps the command and the options it was made with (`options_of`); Roll
again, a saved roll and the quick actions call the command's body again with them (`rerun`), so
the roll is checked, logged and answered exactly as the typed path does. The command sees it is
a replay through the interaction's extras (`is_replay`): a repeat of a logged roll may not
change the game again. Any cog's button may use this; it knows no feature.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from cogs.utils.errors import UserError
from storage.models import RollRecord
from wire.i18n import tr

if TYPE_CHECKING:
    from bot import WireBot

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
