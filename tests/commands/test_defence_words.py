"""How a defence's outcome reads and what colour it has (issue 20): a defence that won by 0 DoS
stopped nothing and is no "Parried"; damage "gets" through; the colour is good or bad for
whoever made the roll the message reports."""

from __future__ import annotations

from tests.commands.conftest import embed_of
from tests.commands.test_combat import make_goblin, make_jaime

GREEN, RED = 0x2ECC71, 0xE74C3C


async def test_a_parry_by_0_dos_stops_nothing_and_says_so(world, client_languages):
    await make_jaime(world)
    await make_goblin(world)
    world.dice.push(4)  # Jaime 4 + 8 = 12 against the goblin's take 10 + 3 = 13: 0 DoS for it
    embed = embed_of(
        await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Goblin")
    )
    assert embed["description"].startswith(
        "**The parry stops nothing: 0 DoS for Goblin, all 5 damage gets through**"
    )
    assert embed["color"] == GREEN  # Jaime's roll: his 5 damage got through
    client_languages.set(world.bob, "de")
    world.dice.push(4)
    embed = embed_of(
        await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Goblin")
    )
    assert embed["description"].startswith(
        "**Die Parade hält nichts ab: 0 EG für Goblin, der ganze Schaden von 5 kommt durch**"
    )


async def test_a_defend_that_stops_nothing_is_red(world):
    world.dice.push(11)  # 11 + 3 = 14 against 13: won by 0 DoS
    embed = embed_of(await world.bob.slash(world.channel, "defend", str=1, skill=2, base=5, vs=13))
    assert embed["description"].startswith(
        "**The defence stops nothing: 0 DoS, all 5 damage gets through**"
    )
    assert embed["color"] == RED


async def test_a_partial_parry_gets_the_grammar_right(world):
    world.dice.push(16)  # 19 against 13: 3 DoS
    embed = embed_of(await world.bob.slash(world.channel, "defend", str=1, skill=2, base=5, vs=13))
    assert "Defended: 3 DoS, 2 of 5 damage gets through" in embed["description"]
    assert embed["color"] == GREEN


async def test_a_defence_button_result_is_coloured_for_the_defender(world):
    """The settled attack reports the defence Jaime's player just rolled: red when the orc's
    blow got through (it was green, the attacker's good news), green when he parried it all."""
    await make_jaime(world)
    alice, channel = world.alice, world.channel
    await alice.slash(channel, "character create", name="Orc", npc=True)
    await alice.slash(channel, "character set", name="Orc", attribute="Strength", value=2)
    await alice.slash(
        channel,
        "character weapon",
        name="Orc",
        weapon="Axe",
        base=5,
        attribute="Strength",
        skill="Axes",
    )
    world.dice.push(15)  # the orc: 15 + 2 = 17
    attack = await alice.slash(channel, "attack", npc="Orc", weapon="Axe", target="Jaime")
    world.dice.push(2)  # Jaime parries 2 + 3 = 5: hit
    done = embed_of(await world.bob.click(attack.response, label="Parry"))
    assert done["description"].startswith("**Hit: 5 DoS (capped from 6), 10 damage**")
    assert done["color"] == RED
    world.dice.push(1)  # the orc: 1 + 2 = 3
    attack = await alice.slash(channel, "attack", npc="Orc", weapon="Axe", target="Jaime")
    world.dice.push(20)  # Jaime 23: 10 DoS capped 5, no damage
    done = embed_of(await world.bob.click(attack.response, label="Parry"))
    assert done["description"].startswith("**Fully parried:")
    assert done["color"] == GREEN
