"""Interactions that reach the bot at the same moment, which simcord's verbs do not allow.

simcord runs one operation at a time (a second `click` while one runs is a SetupError), each
waiting for the bot to settle. To have two people press at once, the first verb is sent without
that wait: its result is live, and fills in while the next verb waits for the bot to settle.
Private API (`Env._settle_internal`), like `raw_slash` in conftest; simcord is pinned.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any


async def without_waiting(env: Any, verb: Callable[[], Awaitable[Any]]) -> Any:
    """Send an actor verb's interaction and return its (live) result at once."""
    settle = env._settle_internal

    async def no_wait(**_: Any) -> None:
        return None

    env._settle_internal = no_wait
    try:
        return await verb()
    finally:
        env._settle_internal = settle
