"""The command tree: one place that answers every error and logs every interaction.

No interaction is left unanswered: a user error gets its message, a check failure says who may
do it, a stale registration (a command this bot no longer has) says to wait for the update, and
a bug gets an apology while its traceback goes to the log.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from cogs.utils.errors import BUG_MESSAGE, USER_ERRORS, answer_ephemeral
from cogs.utils.language import speak_for
from cogs.utils.text import inert, loggable
from storage.errors import GmOnly, StorageError
from wire.i18n import N_, tr

if TYPE_CHECKING:
    from bot import WireBot

log = logging.getLogger("wire.interactions")

STALE_MESSAGE = N_(
    "This command is out of date: Discord still shows an older version of the bot's commands. "
    "Wait a minute for the update, or ask the host to restart the bot with `make sync`."
)
CLOSING_MESSAGE = N_("The bot is restarting and took no action. Try again in a minute.")


def describe_error(error: Exception, *, explain_gms: bool = True) -> tuple[str, bool]:
    """(message for the user, whether it is a bug worth a traceback).

    `explain_gms`: a GMs-only refusal says who the GMs are and how one becomes one; without
    it, for one who has read that already, it is one short sentence (`gm_only_message`).

    A user error's message is shown as it is: the cogs show any name in it through `inert`, and
    a text option refused on arrival (`options.TextRejected`) names the option, not the text.
    The store's messages are plain text that may quote a name, so they are shown inert whole.
    """
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, GmOnly):
        return gm_only_message(error, explain=explain_gms), False  # the GMs as mentions
    if isinstance(error, StorageError):
        return inert(storage_message(error)), False
    if isinstance(error, USER_ERRORS):
        return str(error), False
    if isinstance(error, app_commands.NoPrivateMessage):
        return tr("WIRE commands work in a server channel, not in direct messages."), False
    if isinstance(error, app_commands.CheckFailure):
        return str(error) or tr("You may not use this command here."), False
    if isinstance(error, app_commands.TransformerError):
        return (
            tr(
                "{value} is not a valid {kind} for that option.",
                value=inert(repr(error.value)),
                kind=error.type.name.lower(),
            ),
            False,
        )
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        return tr(STALE_MESSAGE), False
    return tr(BUG_MESSAGE), True


def storage_message(error: StorageError) -> str:
    """A storage error in the language in use.

    The store raises its errors in English; one with a fixed message is looked up in the
    catalogue by that message (the catalogue extracts them where they are raised). One that
    carries a `template` and its `params` is translated by its template and filled; any other
    stays English.
    """
    template = getattr(error, "template", None)
    if template:
        return tr(template, **getattr(error, "params", {}))
    return tr(str(error))


def gm_only_message(error: GmOnly, *, explain: bool = True) -> str:
    """GmOnly's refusal in the language in use: who the GMs are, and how one becomes one; or,
    not to `explain` it again to one who has read it, what was refused and where to look."""
    listed = ", ".join(f"<@{gm}>" for gm in error.gm_ids[:10])
    if len(error.gm_ids) > 10:
        listed += " " + tr("and {n} more", n=len(error.gm_ids) - 10)
    params = {
        "campaign": inert(error.campaign_name),
        "action": tr(error.action, **{key: inert(name) for key, name in error.names.items()}),
        "gms": listed,
    }
    if not explain:
        return tr(
            "Only a GM of {campaign} can {action} (`/campaign info` names its GMs).",
            campaign=params["campaign"],
            action=params["action"],
        )
    if listed:
        return tr(
            "Only a GM of {campaign} can {action}. Its GMs are {gms} and everyone with Manage "
            "Server; a GM makes others GMs with `/campaign gm add`.",
            **params,
        )
    return tr(
        "Only a GM of {campaign} can {action}. Its GMs are no one yet but everyone with Manage "
        "Server; a GM makes others GMs with `/campaign gm add`.",
        **params,
    )


def refusal(error: Exception, message: str) -> str:
    """The log's outcome for a refused interaction: what kind of refusal, and its reason as the
    user read it (one line, cut short), not just "CommandInvokeError"."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    return f"refused ({type(error).__name__}): {loggable(message, 120)}"


def command_name(interaction: discord.Interaction) -> str:
    command = interaction.command
    if command is not None:
        return command.qualified_name
    data = interaction.data or {}
    # A custom id comes from the client as it is: kept to one short, printable log line.
    return loggable(str(data.get("name") or data.get("custom_id") or interaction.type.name))


def log_interaction(interaction: discord.Interaction, outcome: str) -> None:
    """One line per interaction: guild, user, command, outcome, handling time.

    Built here as one finished string: with %-style arguments the token filter and then each
    handler's formatter would each format the line again.
    """
    if not log.isEnabledFor(logging.INFO):
        return
    started = interaction.extras.get("wire_started")
    elapsed = f"{(time.perf_counter() - started) * 1000:.1f}ms" if started else "?"
    log.info(
        f"guild={interaction.guild_id} user={interaction.user.id} "
        f"command={command_name(interaction)} outcome={outcome} time={elapsed}"
    )


# The Python type of each option type's value in an interaction (Discord's option types).
_VALUE_TYPES: dict[int, tuple[type, ...]] = {
    3: (str,),
    4: (int,),
    5: (bool,),
    6: (str, int),
    7: (str, int),
    8: (str, int),
    9: (str, int),
    10: (int, float),
    11: (str, int),
}


def _leaf_options(options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    leaves: list[dict[str, Any]] = []
    for option in options:
        if option.get("type") in (1, 2):
            leaves += _leaf_options(option.get("options") or [])
        else:
            leaves.append(option)
    return leaves


_PARAMS = "wire_params_by_name"
"""The key in a command's `extras` of its parameters by name, built on its first use."""


def options_match(interaction: discord.Interaction) -> bool:
    """Whether the options that arrived are those of the command the bot has now.

    A client with a stale registration can send an option this command no longer has, or a
    string where it now takes a number; discord.py would pass such a value on unchecked.
    """
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return True
    params = command.extras.get(_PARAMS)
    if params is None:  # once per command, not per interaction
        params = command.extras[_PARAMS] = {p.display_name: p for p in command.parameters}
    for option in _leaf_options((interaction.data or {}).get("options") or []):
        param = params.get(option.get("name", ""))
        if param is None or param.type.value != option.get("type"):
            return False
        value = option.get("value")
        if option.get("focused"):
            continue
        expected = _VALUE_TYPES.get(param.type.value, (object,))
        if not isinstance(value, expected) or (bool not in expected and isinstance(value, bool)):
            return False
    return True


class FirstTime:
    """Who has met something once already, per server and user: the GMs-only refusal explains
    who the GMs are and how one becomes one the first time a user meets it, then says only
    what was refused (issue 31: the same two sentences on every refusal drowned the reason).

    Kept in memory, at most `limit` users (the longest unseen forgotten first), so a hostile
    server's crowd cannot grow it; after a restart the explanation comes once more."""

    def __init__(self, limit: int = 10_000) -> None:
        self.limit = limit
        self._seen: OrderedDict[tuple[int | None, int], None] = OrderedDict()

    def first(self, guild_id: int | None, user_id: int) -> bool:
        """True the first time this user is asked about here, False after."""
        key = (guild_id, user_id)
        if key in self._seen:
            self._seen.move_to_end(key)
            return False
        self._seen[key] = None
        if len(self._seen) > self.limit:
            self._seen.popitem(last=False)
        return True


class WireTree(app_commands.CommandTree):
    """Every interaction the bot answers passes here: slash commands through discord.py's own
    hooks, button presses and modal submits through `run`, so all are counted in flight (a
    shutdown waits for them), answered on any error, and logged in one line."""

    client: WireBot

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.gm_refusals = FirstTime()
        """Who was told who the GMs are (on their first GMs-only refusal)."""

    async def admit(self, interaction: discord.Interaction) -> bool:
        """Start an interaction's accounting, or refuse it (answered) while the bot closes."""
        speak_for(interaction)
        if self.client.closing:
            await answer_ephemeral(interaction, tr(CLOSING_MESSAGE))
            log_interaction(interaction, "refused: closing")
            return False
        interaction.extras["wire_started"] = time.perf_counter()
        self.client.track_start()
        return True

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.type is discord.InteractionType.autocomplete:
            speak_for(interaction)
            return not self.client.closing
        if not await self.admit(interaction):
            return False
        if not options_match(interaction):
            await answer_ephemeral(interaction, tr(STALE_MESSAGE))
            self.finish(interaction, "refused: stale options")
            return False
        return True

    async def run(
        self, interaction: discord.Interaction, handler: Callable[[], Awaitable[object]]
    ) -> None:
        """Run a press or a modal submit on the same path as a command.

        discord.py runs component callbacks outside the command tree (and only logs their
        errors), so each one comes through here instead of repeating the handling.
        """
        if not await self.admit(interaction):
            return
        try:
            await handler()
        except Exception as error:
            await self.on_error(interaction, error)
        else:
            self.finish(interaction, "ok")

    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:  # type: ignore[override]
        message, is_bug = describe_error(error, explain_gms=self._explain_gms(interaction, error))
        if is_bug:
            log.error(
                "Unhandled error in %s (guild %s)",
                command_name(interaction),
                interaction.guild_id,
                exc_info=error,
            )
        try:
            await answer_ephemeral(interaction, message)
        except discord.HTTPException:
            log.exception("Could not send the error answer for %s", command_name(interaction))
        finally:
            if interaction.type is not discord.InteractionType.autocomplete:
                self.finish(interaction, "bug" if is_bug else refusal(error, message))

    def _explain_gms(self, interaction: discord.Interaction, error: Exception) -> bool:
        """Whether a GMs-only refusal explains the GMs: on the user's first one only."""
        original = getattr(error, "original", error)
        if not isinstance(original, GmOnly):
            return True
        return self.gm_refusals.first(interaction.guild_id, interaction.user.id)

    def finish(self, interaction: discord.Interaction, outcome: str) -> None:
        """Account for a finished interaction (exactly once)."""
        if interaction.extras.get("wire_finished"):
            return
        interaction.extras["wire_finished"] = True
        log_interaction(interaction, outcome)
        if "wire_started" in interaction.extras:
            self.client.track_end()
