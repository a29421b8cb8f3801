"""Roll again: the same roll once more with a fresh die, for the one who rolled only."""

from __future__ import annotations

from tests.commands.conftest import embed_of, field
from tests.commands.test_combat import make_goblin, make_jaime


async def test_roll_again_repeats_the_roll_with_a_fresh_die(world):
    first = await world.bob.slash(world.channel, "check", attr=1, skill=2, vs=10, roll=5,
                                  label="Climbing")  # fmt: skip
    assert field(embed_of(first), "Die") == "5 (rolled at the table)"
    refused = await world.carol.click(first.response, label="Roll again")
    assert refused.response.ephemeral and "Only <@" in refused.response.content
    world.dice.push(17)
    again = await world.bob.click(first.response, label="Roll again")
    embed = embed_of(again)
    assert embed["title"] == "bob: Climbing"
    assert field(embed, "Die") == "17"  # a fresh die, not the table's 5 again
    assert field(embed, "Total") == "**20** vs TN 10"
    await world.restart()
    world.dice.push(2)
    later = await world.bob.click(first.response, label="Roll again")
    assert field(embed_of(later), "Total") == "**5** vs TN 10"
    history = embed_of(await world.bob.slash(world.channel, "history"))["description"]
    assert len(history.splitlines()) == 3


async def test_roll_again_on_an_attack_against_an_npc(world):
    await make_jaime(world)
    await make_goblin(world)
    world.dice.push(15)
    first = await world.bob.slash(world.channel, "attack", target="Goblin")
    world.dice.push(3)  # 3 + 8 = 11 against 13: parried with 1 DoS
    again = await world.bob.click(first.response, label="Roll again")
    assert embed_of(again)["description"].startswith("**Parried: 1 DoS for Goblin")


async def test_a_hidden_roll_again_stays_hidden(world):
    world.dice.push(12)
    first = await world.bob.slash(world.channel, "check", attr=1, skill=1, vs=10, private=True)
    assert first.response.ephemeral
    world.dice.push(4)
    again = await world.bob.click(first.response, label="Roll again")
    assert again.response.ephemeral
    assert again.followups[0].content.startswith("🎲 bob made a hidden check")
