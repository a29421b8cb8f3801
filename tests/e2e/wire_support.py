"""Helpers shared by ``test_wirebot.py`` and ``bench/bench_e2e.py``: the real bot's entry point,
its log, its database, many-guild stand-ins and bounded concurrent interaction runs."""

from __future__ import annotations

import asyncio
import os
import re
import sqlite3
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from .standin import (
    DEFAULT_CHANNEL_ID,
    DEFAULT_GM_CHANNEL_ID,
    DEFAULT_GUILD_ID,
    Callback,
    ChannelSpec,
    Fakecord,
    GuildSpec,
    default_guilds,
)

REPO_ROOT = Path(__file__).resolve().parents[2]
SHARD_STEP = 1 << 22
"""Guild ids this far apart land on consecutive shards."""
WIRE_BOT = Path(os.environ.get("WIRE_E2E_BOT") or REPO_ROOT / "bot.py")
"""The entry point under test; WIRE_E2E_BOT points at another copy (e.g. a candidate fix)."""
ANSI = re.compile(r"\x1b\[[0-9;]*m")
PROBLEM = re.compile(r"\b(ERROR|CRITICAL)\b|Traceback")


def plain_log(text: str) -> str:
    """The bot's output without the colour codes its log formatter adds."""
    return ANSI.sub("", text)


def log_problems(text: str) -> list[str]:
    """Lines of the bot's output that report an error or a traceback."""
    return [line for line in plain_log(text).splitlines() if PROBLEM.search(line)]


def many_guilds(
    count: int, *, first_id: int = 1_400_000_000_000_000_000, step: int = 1000
) -> list[GuildSpec]:
    """The default guild (the dev guild commands sync to) plus ``count - 1`` more, each with one
    text channel.

    A guild's shard is ``(id >> 22) % shard_count``: the default step keeps them all on one shard;
    ``step=SHARD_STEP`` puts consecutive guilds on consecutive shards.
    """
    guilds = default_guilds()
    for n in range(1, count):
        gid = first_id + n * step
        guilds.append(GuildSpec(id=gid, name=f"Guild {n}", channels=[ChannelSpec(gid + 1, "play")]))
    return guilds


def guild_ids(guilds: Iterable[GuildSpec]) -> list[int]:
    return [g.id for g in guilds]


def roll_log_ids(db: Path) -> list[int]:
    """Every interaction id in roll_log, read through a read-only connection."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return [row[0] for row in conn.execute("SELECT interaction_id FROM roll_log")]
    finally:
        conn.close()


def integrity(db: Path) -> str:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return conn.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        conn.close()


async def run_bounded(
    standin: Fakecord,
    payloads: Iterable[Mapping[str, Any]],
    *,
    in_flight: int,
    timeout: float = 10.0,
    on_answer: Callable[[Mapping[str, Any], Callback], None] | None = None,
) -> tuple[list[tuple[Mapping[str, Any], Callback]], list[Mapping[str, Any]]]:
    """Send every payload with at most ``in_flight`` unanswered at once; return the answered
    (payload, callback) pairs and the payloads that got no callback within ``timeout`` each."""
    answered: list[tuple[Mapping[str, Any], Callback]] = []
    missing: list[Mapping[str, Any]] = []
    slots = asyncio.Semaphore(in_flight)

    async def one(payload: Mapping[str, Any]) -> None:
        try:
            future = await standin.post_interaction(payload)
            callback = await asyncio.wait_for(asyncio.shield(future), timeout)
        except TimeoutError:
            missing.append(payload)
        else:
            answered.append((payload, callback))
            if on_answer is not None:
                on_answer(payload, callback)
        finally:
            slots.release()

    tasks = []
    for payload in payloads:
        await slots.acquire()
        tasks.append(asyncio.ensure_future(one(payload)))
    await asyncio.gather(*tasks)
    return answered, missing


__all__ = [
    "DEFAULT_CHANNEL_ID",
    "DEFAULT_GM_CHANNEL_ID",
    "DEFAULT_GUILD_ID",
    "SHARD_STEP",
    "WIRE_BOT",
    "guild_ids",
    "integrity",
    "log_problems",
    "many_guilds",
    "plain_log",
    "roll_log_ids",
    "run_bounded",
]
