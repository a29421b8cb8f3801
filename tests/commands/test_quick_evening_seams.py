"""Seams found playing a quick-play evening through the stand-in (tests/e2e/test_quick_evening.py):
where quick play meets fights, /history, /help and German, each held by a test here."""

from __future__ import annotations

from tests.commands.conftest import embed_of
from tests.commands.test_quickplay import goblins_turn


def history_lines(result) -> list[str]:
    return embed_of(result)["description"].splitlines()


async def test_history_names_the_copy_that_attacked_as_the_roll_did(world):
    """The GM attacks as Goblin 1 (picked from the offered opponents, and typed): the roll's
    title names Goblin 1, and so does /history, not the sheet "Goblin" behind the copies."""
    await goblins_turn(world)
    alice, channel = world.alice, world.channel
    offered = await alice.slash(channel, "attack", npc="Goblin 1", str=1, skill=2, base=3)
    world.dice.push(20)
    hit = await alice.select(offered.response, ["Goblin 3"])
    assert embed_of(hit)["title"].startswith("Goblin 1")
    world.dice.push(20)
    await alice.slash(channel, "attack", npc="Goblin 2", str=1, skill=2, base=3, target="Jaime")
    lines = history_lines(await world.bob.slash(channel, "history"))
    assert "**Goblin 2** attack on Jaime" in lines[0], lines
    assert any("**Goblin 1** attack: 23 vs 13" in line for line in lines), lines
    assert not any("**Goblin** attack" in line for line in lines), lines
