"""What the parts of `RuleStore` share (storage/rules.py and its rules_*.py modules): the default
campaign's name, messages, the look-up key of a name, the first-row read and the roll log's
queue entry. It sits below all of them, so none of them imports another.
"""

from __future__ import annotations

import asyncio
import json
import logging
from datetime import datetime
from typing import NamedTuple

from storage.backend import Params, Row, Transaction
from storage.models import RollRecord, Shards
from storage.rows import utc_text
from wire.i18n import N_
from wire.textcheck import normal_text

log = logging.getLogger("wire.storage")


DEFAULT_CAMPAIGN_NAME = "Default"


CAMPAIGN_GONE = N_(
    "That campaign does not exist in this server (any more). /campaign list shows them."
)


LOGGED_ELSEWHERE = N_("This interaction was already logged for another roll.")


def name_key(name: object) -> str:
    """The case-insensitive look-up key of a name as a user typed it."""
    return normal_text(name).casefold() if isinstance(name, str) else ""


def like_pattern(prefix: str) -> str:
    """A LIKE pattern (escaped with a backslash) for names holding `prefix` anywhere."""
    pattern = name_key(prefix).replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{pattern}%"


class QueuedRoll(NamedTuple):
    record: RollRecord
    params: Params
    future: asyncio.Future[int]


async def first_row(tx: Transaction, name: str, params: Params) -> Row | None:
    rows = await tx.fetch(name, params)
    return rows[0] if rows else None


def sweep_query(name: str, now: datetime, limit: int, shards: Shards | None) -> tuple[str, Params]:
    """An expiry sweep's statement and parameters: `name`, or with `shards` its
    `<name>_of_shards` twin, which reads only the guilds of those shards (a process sweeps its
    own servers)."""
    params: Params = {"now": utc_text(now), "limit": limit}
    if shards is None:
        return name, params
    params["shard_count"] = shards.count
    params["shard_ids"] = json.dumps(list(shards.ids))
    return f"{name}_of_shards", params
