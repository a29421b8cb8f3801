"""The narrow interface the rules layer (storage/rules.py) runs on: transactions and named
statements, no rules.

A backend holds a connection (or a pool), its catalogue of SQL by name (storage/sql/), and
what its database needs to keep the store's guarantees: writes that cannot interleave (no
lost update), commits before answers, errors of an overloaded database as `Busy`. Who may do
what, limits, default campaigns and the roll log's batching are the rules layer's.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any, Protocol

from wire.i18n import N_

Params = dict[str, Any]
Row = Sequence[Any]

WHOLE_STORE = None
"""The lock key of an operation that spans guilds (forgetting a user): it excludes every
other write while it runs."""

BUSY = N_("The campaign database is busy. Try again in a moment.")


class Transaction(Protocol):
    """Statements inside one transaction; committed when its `async with` ends normally."""

    async def fetch(self, name: str, params: Params | None = None) -> list[Row]:
        """Every row the statement returns."""
        ...

    async def execute(self, name: str, params: Params | None = None) -> int:
        """Run it; how many rows it changed."""
        ...

    async def executemany(self, name: str, params: Sequence[Params]) -> None: ...


class Backend(Protocol):
    path: Path | None
    """The database file, for a backend that has one (SQLite)."""

    def write(self, lock_key: int | None) -> AbstractAsyncContextManager[Transaction]:
        """A write transaction that no other write of the same guild (`lock_key`; WHOLE_STORE:
        of any guild) interleaves with, in this process or another; rolled back on any error
        or cancellation."""
        ...

    def read(self) -> AbstractAsyncContextManager[Transaction]:
        """A consistent snapshot across several statements."""
        ...

    async def query(
        self, name: str, params: Params | None = None, *, write: bool = False, cached: bool = False
    ) -> list[Row]:
        """One statement, atomic by itself. `cached`: may be answered from a cache that no
        committed write (of any process) has made stale."""
        ...

    async def long_read(self, name: str, params: Params | None = None) -> list[Row]:
        """One read that may scan a long log (statistics): kept off the connections every roll
        uses, so no roll waits behind it, one at a time per process."""
        ...

    async def insert_rolls(self, batch: Sequence[Params]) -> list[int | Exception | None]:
        """Run `insert_roll` for each row in one transaction: its id, or None where it inserted
        nothing. If the transaction fails, each row again alone, with its own error."""
        ...

    async def backup(self, destination: str | Path) -> None: ...

    async def close(self) -> None:
        """Close the connections (the rules layer has committed what it queued)."""
        ...


InsertRolls = Callable[[Sequence[Params]], Awaitable[list[int | Exception | None]]]


async def batch_or_each(
    insert: InsertRolls, batch: Sequence[Params]
) -> list[int | Exception | None]:
    """`insert(batch)`, one transaction; if it fails, each row alone, so that a bad row fails
    only itself (its error is its outcome) and its neighbours are committed."""
    try:
        return await insert(batch)
    except Exception as exc:
        if len(batch) == 1:
            return [exc]
    outcomes: list[int | Exception | None] = []
    for params in batch:
        try:
            outcomes += await insert([params])
        except Exception as alone:
            outcomes.append(alone)
    return outcomes
