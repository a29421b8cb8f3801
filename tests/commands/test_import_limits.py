"""/character import against files built to hurt: huge numbers, NaN, and one user's pile-up."""

from __future__ import annotations

import asyncio
import json
import sys
import time

from tests.commands.at_once import without_waiting
from tests.commands.conftest import embed_of


def campaign_file(strength: str) -> bytes:
    """A campaign export whose one sheet has Strength written as `strength`, verbatim."""
    return (
        '{"format": "wire-bot", "version": 1, "kind": "campaign", "characters": '
        '[{"name": "Ash", "attributes": {"Strength": ' + strength + "}}]}"
    ).encode()


async def test_a_5000_digit_number_is_a_named_problem(world):
    result = await world.alice.slash(
        world.channel, "character import", file=("huge.json", campaign_file("9" * 5000))
    )
    assert result.response.ephemeral
    assert (
        "attributes.Strength: the number has 5,000 digits; "
        "values go from -10 to 30" in result.response.content
    )
    assert "nothing was written" in result.response.content


async def test_nan_is_refused_by_name(world):
    result = await world.alice.slash(
        world.channel, "character import", file=("nan.json", campaign_file("NaN"))
    )
    assert result.response.ephemeral
    assert (
        "attributes.Strength: NaN is not a number JSON has; "
        "values go from -10 to 30" in result.response.content
    )
    listing = embed_of(await world.alice.slash(world.channel, "character list"))
    assert listing["description"] == "None yet: /character create"


async def test_a_second_import_by_the_same_user_waits_for_the_first(world, monkeypatch):
    raw = json.dumps(
        {
            "format": "wire-bot",
            "version": 1,
            "kind": "character",
            "character": {"name": "Jaime", "skills": {"Long swords": 5}},
        }
    ).encode()
    # discord.py loads each extension as a fresh module: patch the one the bot runs.
    characters_cog = sys.modules[type(world.bot.get_cog("Characters")).__module__]
    real = getattr(characters_cog, "read_import", None)
    reading = asyncio.Event()

    async def slow_read(data):  # holds the first import while the second one arrives
        reading.set()
        await asyncio.to_thread(time.sleep, 0.5)  # real time: simcord skips asyncio sleeps
        return await real(data)

    monkeypatch.setattr(characters_cog, "read_import", slow_read, raising=False)
    bob, channel = world.bob, world.channel
    first = await without_waiting(
        world.env, lambda: bob.slash(channel, "character import", file=("a.json", raw))
    )
    second = await bob.slash(channel, "character import", file=("b.json", raw))
    assert second.response.ephemeral
    assert "already running; wait for it to finish" in second.response.content

    assert reading.is_set()  # the first was still being read
    assert "Imported 1 character into" in first.response.content
    # Finished (and failed) imports free the user for the next one.
    again = await bob.slash(channel, "character import", file=("c.json", raw), replace=True)
    assert "Imported 1 character into" in again.response.content
    refused = await bob.slash(channel, "character import", file=("d.json", raw))
    assert "Left out, already in the campaign" in refused.response.content
    last = await bob.slash(channel, "character import", file=("e.json", raw), replace=True)
    assert "Imported 1 character into" in last.response.content
