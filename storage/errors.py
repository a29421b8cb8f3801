"""Errors the storage raises, each with a message fit to show a Discord user as it is.

The cogs turn any StorageError into a short ephemeral reply; the message names the problem and,
where there is one, the fix.
"""

from __future__ import annotations


class StorageError(Exception):
    """Base of every error a user can cause through the storage."""


class NotFound(StorageError):
    """No such campaign, character, weapon or project in this guild/campaign."""


class NameTaken(StorageError):
    """A name that must be unique is already used (case-insensitive)."""


class PermissionDenied(StorageError):
    """The acting user may not do this (not the owner, not a GM)."""


class InvalidValue(StorageError):
    """A value out of range, a name too long, too many entries."""


class ImportRejected(StorageError):
    """An import that failed validation; nothing was written.

    `problems` lists every problem found, so the user can fix them all at once.
    """

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        shown = "; ".join(problems[:10])
        more = f" (and {len(problems) - 10} more)" if len(problems) > 10 else ""
        super().__init__(f"Import rejected, nothing was written: {shown}{more}")

    def __reduce__(self) -> tuple[type[ImportRejected], tuple[list[str]]]:
        # Raised in the worker process that reads imports, and pickled back from there.
        return type(self), (self.problems,)


class SchemaTooNew(StorageError):
    """The database was written by a newer version of the bot than this one."""


class Conflict(StorageError):
    """Another change landed first (a compare-and-set lost); redoing the action will work."""


class Busy(StorageError):
    """The database stayed locked by another process past the busy timeout."""
