"""Errors the storage raises, each with a message fit to show a Discord user as it is.

The cogs turn any StorageError into a short ephemeral reply; the message names the problem and,
where there is one, the fix.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from wire.i18n import DEFAULT, N_, speaking, tr


class StorageError(Exception):
    """Base of every error a user can cause through the storage.

    Raised as `NotFound("No campaign named {name} ...", name=repr(name))`: the message is an
    English template with named placeholders and their values, so the bot shows it in the
    user's language (the template is the catalogue's message id, see docs/i18n.md); `str()` is
    the English text filled in, for logs and the CLI.
    """

    def __init__(self, template: str = "", /, **params: object) -> None:
        self.template, self.params = template, params
        super().__init__(template.format(**params) if params else template)

    def __reduce__(self) -> tuple[object, ...]:
        # Raised in the worker process that reads imports too: pickled with its parameters.
        return _rebuild, (type(self), self.template, self.params)


def _rebuild(cls: type[StorageError], template: str, params: dict[str, object]) -> StorageError:
    return cls(template, **params)


class NotFound(StorageError):
    """No such campaign, character, weapon or project in this guild/campaign."""


class NameTaken(StorageError):
    """A name that must be unique is already used (case-insensitive)."""


class PermissionDenied(StorageError):
    """The acting user may not do this (not the owner, not a GM)."""


class LedgerHolds(PermissionDenied):
    """A sheet change that would move a ready character's priced stats around the CP ledger
    (storage/rules_ledger.py); `moves` (wire.pricing.StatMove) says which, so a cog can
    offer the improvement instead."""

    moves: tuple = ()


class InvalidValue(StorageError):
    """A value out of range, a name too long, too many entries."""


class ImportRejected(StorageError):
    """An import that failed validation; nothing was written.

    `problems` lists every problem found (`storage.transfer.ImportProblem`: a path and a
    template with its values), so the user can fix them all at once. `str()` is English, for
    the CLI and the logs; the bot shows the list in the user's language, as the message's
    `problems` value is read whenever the message is filled.
    """

    def __init__(self, problems: Sequence[object]) -> None:
        self.problems = list(problems)
        with speaking(DEFAULT):
            super().__init__(
                N_("Import rejected, nothing was written: {problems}"),
                problems=ProblemList(tuple(self.problems)),
            )

    def __reduce__(self) -> tuple[type[ImportRejected], tuple[list[object]]]:
        # Raised in the worker process that reads imports, and pickled back from there.
        return type(self), (self.problems,)


@dataclass(frozen=True, slots=True)
class ProblemList:
    """The first problems of a rejected import, and how many more, in the language in use."""

    problems: tuple[object, ...]
    shown: int = 10

    def __str__(self) -> str:
        listed = "; ".join(str(problem) for problem in self.problems[: self.shown])
        if len(self.problems) <= self.shown:
            return listed
        return tr("{problems} (and {n} more)", problems=listed, n=len(self.problems) - self.shown)


class SchemaTooNew(StorageError):
    """The database was written by a newer version of the bot than this one."""


class Conflict(StorageError):
    """Another change landed first (a compare-and-set lost); redoing the action will work."""


class Busy(StorageError):
    """The database stayed locked by another process past the busy timeout: nothing is wrong
    with the request, and it may work in a moment. Code that retries later (the expiry sweep)
    catches this, and so every subclass."""


class Unavailable(Busy):
    """The database cannot be reached or written now: a PostgreSQL server restarting, a disk
    that fails or went read-only. The host is told in the log (storage/faults.py); the user
    is told to try again."""


class StorageFull(Unavailable):
    """The disk the database is on is full: nothing was written, and the host must free
    space, after which the store goes on by itself."""


class Damaged(Unavailable):
    """The database answered that it is damaged (SQLite: corrupt, not a database); the host
    must restore a backup."""


class CannotOpen(StorageError):
    """At start: the database file is damaged, truncated, not a database or not writable. It
    is left exactly as it was found; the message names the file and how to restore a backup."""


class GmOnly(PermissionDenied):
    """A GMs-only action. It knows who the GMs are, so every such refusal names them and says
    how to get the role; the bot shows the campaign's name inert and the GMs as mentions.

    `action` is an English template marked with N_ ("remove {name} from the fight"), `names` its
    values: names of the table's own (a combatant's), which the bot shows inert."""

    def __init__(
        self,
        campaign_name: str,
        gm_ids: tuple[int, ...],
        action: str,
        names: dict[str, str] | None = None,
    ) -> None:
        self.campaign_name, self.gm_ids, self.action = campaign_name, gm_ids, action
        self.names = dict(names or {})
        super().__init__(self.render(campaign_name))

    def __reduce__(self) -> tuple[object, ...]:
        return type(self), (self.campaign_name, self.gm_ids, self.action, self.names)

    def render(self, shown_name: str) -> str:
        listed = ", ".join(f"<@{gm}>" for gm in self.gm_ids[:10])
        if len(self.gm_ids) > 10:
            listed += f" and {len(self.gm_ids) - 10} more"
        who = f"{listed} and" if listed else "no one yet but"
        action = self.action.format(**self.names)
        return (
            f"Only a GM of {shown_name} can {action}. Its GMs are {who} everyone with "
            "Manage Server; a GM makes others GMs with `/campaign gm add`."
        )
