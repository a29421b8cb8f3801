"""The tracker's edits at the pace Discord allows, through the real bot.py.

The stand-in limits edits of a channel's messages as Discord does (5 per 5 s, headers on every
answer, a 429 with ``retry_after`` past it; fakecord/limits.py). Ten changes of a fight in a
burst must give a few edits, not ten, no 429, and a tracker that ends on what the database
holds; a 429 (injected, as a limit shared with another process would give one) delays the
tracker but does not lose its last state.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from pathlib import Path

import aiohttp
import pytest

from cogs.utils.tracker import tracker_embed
from storage import open_store

from .conftest import LaunchBot
from .standin import DEFAULT_CHANNEL_ID, Fakecord, FaultRequest
from .test_fight import GM, Table, rows, set_the_table
from .test_wirebot import assert_healthy, start_wire, stop_wire

pytestmark = pytest.mark.e2e

BURST = 10
SETTLE = 4.0
"""Seconds without a new tracker edit after which the tracker is taken as final (three gaps)."""


async def tracker_from_database(db: Path) -> dict[str, object]:
    """The tracker embed the fight stored in `db` gives (read after the bot stopped)."""
    store = await open_store(db)
    try:
        (fight_id, guild_id), *_ = rows(db, "SELECT id, guild_id FROM fights")
        fight = await store.get_fight(guild_id, fight_id)
        assert fight is not None
        campaign = await store.get_campaign_by_id(guild_id, fight.campaign_id)
    finally:
        await store.close()
    return tracker_embed(fight, campaign, numbers=campaign.show_npc_health).to_dict()


def same_tracker(shown: dict[str, object], stored: dict[str, object]) -> bool:
    return all(shown.get(key) == stored.get(key) for key in ("title", "description"))


def tracker_edits(standin: Fakecord, table: Table, since: float) -> list[float]:
    """When the bot's edits of the tracker landed, after `since`."""
    return [
        e.at
        for e in standin.message_events
        if e.kind == "channel_edit" and e.message_id == table.tracker_id and e.at > since
    ]


async def settled(standin: Fakecord, table: Table, since: float) -> list[float]:
    """Wait until the tracker has not been edited for SETTLE seconds; its edits since `since`."""
    deadline = time.perf_counter() + 30.0
    while time.perf_counter() < deadline:
        edits = tracker_edits(standin, table, since)
        last = max(edits, default=since)
        if time.perf_counter() - last > SETTLE:
            return edits
        await asyncio.sleep(0.2)
    raise AssertionError("the tracker never settled")


async def burst(standin: Fakecord, table: Table, target: str) -> None:
    """BURST /health damage of 1 on `target`, all sent at once; every one answered."""
    payloads = [
        table.payload("health", {"target": target, "amount": 1}, by=GM, sub="damage")
        for _ in range(BURST)
    ]
    futures = [await standin.post_interaction(p) for p in payloads]
    answers = await asyncio.wait_for(asyncio.gather(*futures), 10.0)
    assert all(not a.ephemeral and f"{target}: HP" in (a.content or "") for a in answers)


async def fight_at_rest(standin: Fakecord, launch_bot: LaunchBot, db: Path):
    """bot.py on `db`, a fight set up, and its set-up's edits out of the way."""
    bot = await start_wire(standin, launch_bot, db)
    table = Table(standin)
    await set_the_table(table, goblins=1)
    await asyncio.sleep(SETTLE)
    return bot, table


async def test_ten_changes_in_a_burst_give_a_few_edits_and_the_database_s_state(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path
) -> None:
    db = tmp_path / "wire.db"
    bot, table = await fight_at_rest(standin, launch_bot, db)
    started = time.perf_counter()
    await burst(standin, table, "Aria")
    edits = await settled(standin, table, started)

    assert 1 <= len(edits) <= 3, f"{len(edits)} edits for {BURST} changes"
    assert "**Aria** · HP 11/21" in table.line("Aria")
    gaps = [b - a for a, b in itertools.pairwise(edits)]
    assert all(gap > 1.0 for gap in gaps), gaps  # spaced: at most 4 in 5 s
    assert [r.status for r in standin.requests if r.status == 429] == []
    await stop_wire(bot)
    assert_healthy(standin, bot)
    assert same_tracker(table.tracker(), await tracker_from_database(db))


async def test_a_429_delays_the_tracker_but_keeps_its_last_state(
    standin: Fakecord, launch_bot: LaunchBot, tmp_path: Path
) -> None:
    db = tmp_path / "wire.db"
    bot, table = await fight_at_rest(standin, launch_bot, db)

    def is_tracker_patch(request: FaultRequest) -> bool:
        return request.method == "PATCH" and request.path.endswith(f"/{table.tracker_id}")

    hold = 2.0
    fault = standin.inject_fault(
        429, count=1, kinds=("channel_message_edit",), predicate=is_tracker_patch, retry_after=hold
    )
    started = time.perf_counter()
    await burst(standin, table, "Bram")
    edits = await settled(standin, table, started)

    assert fault.hits == 1
    assert edits and edits[0] - started >= hold  # the first edit waited out the 429...
    assert len(edits) <= 3
    assert "**Bram** · HP 12/22" in table.line("Bram")  # ...and the last state is shown
    refused = [r for r in standin.requests if r.status == 429]
    assert len(refused) == 1  # the injected one; the stand-in's own limit was never reached
    await stop_wire(bot)
    assert_healthy(standin, bot)
    assert same_tracker(table.tracker(), await tracker_from_database(db))


async def test_the_stand_in_refuses_a_sixth_edit_in_five_seconds_as_discord_does(
    standin: Fakecord,
) -> None:
    """Five edits of one channel's messages pass with falling X-RateLimit-Remaining; the sixth
    is a 429 with Discord's body and headers; another channel has a bucket of its own."""
    auth = {"Authorization": f"Bot {standin.token}"}
    base = standin.base_url
    async with aiohttp.ClientSession(headers=auth) as http:
        posted = await http.post(
            f"{base}/channels/{DEFAULT_CHANNEL_ID}/messages", json={"content": "tracker"}
        )
        message = await posted.json()
        url = f"{base}/channels/{DEFAULT_CHANNEL_ID}/messages/{message['id']}"
        remaining = []
        for n in range(5):
            answer = await http.patch(url, json={"content": f"edit {n}"})
            assert answer.status == 200
            assert answer.headers["X-RateLimit-Limit"] == "5"
            remaining.append(answer.headers["X-RateLimit-Remaining"])
        assert remaining == ["4", "3", "2", "1", "0"]
        refused = await http.patch(url, json={"content": "too soon"})
        assert refused.status == 429
        assert refused.headers["Content-Type"] == "application/json"
        body = await refused.json()
        assert body["global"] is False and 0 < body["retry_after"] <= 5.0
        assert refused.headers["X-RateLimit-Scope"] == "user"
        assert float(refused.headers["X-RateLimit-Reset-After"]) == body["retry_after"]
        assert int(refused.headers["Retry-After"]) >= 1
    assert standin.messages[int(message["id"])]["content"] == "edit 4"
