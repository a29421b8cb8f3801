"""Sheet attacks: an NPC defends at once; a player character defends with buttons."""

from __future__ import annotations

from datetime import timedelta

from tests.commands.conftest import embed_of, field


async def make_jaime(world) -> None:
    """Bob's Jaime from the rules text: Strength 3, long swords 5, a base-5 long sword."""
    bob, channel = world.bob, world.channel
    await bob.slash(channel, "character create", name="Jaime")
    await bob.slash(channel, "character set", attribute="Strength", value=3)
    await bob.slash(channel, "character set", skill="Long swords", value=5)
    await bob.slash(
        channel,
        "character weapon",
        weapon="Long sword",
        base=5,
        attribute="Strength",
        skill="Long swords",
    )


async def make_goblin(world, *, shield: bool = False) -> None:
    """Alice (GM) makes the goblin NPC: Strength 1, Parry 2, no shield."""
    alice, channel = world.alice, world.channel
    await alice.slash(channel, "character create", name="Goblin", npc=True, shield=shield)
    await alice.slash(channel, "character set", name="Goblin", attribute="Strength", value=1)
    await alice.slash(channel, "character set", name="Goblin", skill="Parry", value=2)


async def make_ser_carol(world) -> None:
    carol, channel = world.carol, world.channel
    await carol.slash(channel, "character create", name="Ser Carol", shield=True)
    await carol.slash(channel, "character set", attribute="Strength", value=2)
    await carol.slash(channel, "character set", skill="Parry", value=3)
    await carol.slash(channel, "character set", skill="Block", value=4)


async def test_attack_on_an_npc_that_takes_10_is_the_rules_example(world):
    await make_jaime(world)
    await make_goblin(world)
    world.dice.push(15)
    result = await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Goblin")
    embed = embed_of(result)
    assert embed["title"] == "Jaime: Attack with Long sword on Goblin"
    assert "Hit: 5 DoS" in embed["description"]
    assert "5 base + 5 DoS = 10 damage" in embed["description"]
    assert field(embed, "Total") == "**23** vs defence 13"
    assert field(embed, "Goblin: Parry") == "**13**"  # the table sees an NPC's total only
    assert field(embed, "Modifiers") == "Strength +3, Long swords +5"
    await world.alice.slash(world.channel, "campaign settings", npc_modifiers=True)
    world.dice.push(15)
    embed = embed_of(
        await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Goblin")
    )
    assert field(embed, "Goblin: Parry") == "take 10 + 1 Strength + 2 Parry = 13"


async def test_npc_defence_is_rolled_when_the_campaign_says_so(world):
    await make_jaime(world)
    await make_goblin(world)
    await world.alice.slash(
        world.channel, "campaign settings", npc_take10=False, npc_modifiers=True
    )
    world.dice.push(15, 18)  # Jaime 15 + 8 = 23; goblin 18 + 3 = 21
    embed = embed_of(
        await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Goblin")
    )
    assert field(embed, "Goblin: Parry") == "d20 18 + 1 Strength + 2 Parry = 21"
    assert "5 base + 1 DoS = 6 damage" in embed["description"]


async def test_block_needs_a_shield(world):
    await make_jaime(world)
    await make_goblin(world)
    result = await world.alice.slash(
        world.channel, "attack", str=3, skill=5, base=5, target="Goblin", defence="block"
    )
    assert result.response.ephemeral
    assert "Block needs a shield" in result.response.content


async def test_player_target_gets_defence_buttons_only_they_or_a_gm_may_press(world):
    await make_jaime(world)
    await make_ser_carol(world)
    world.dice.push(15)
    attack = await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Ser Carol")
    labels = [c["label"] for row in attack.response.components for c in row["components"]]
    assert labels == ["Parry", "Block", "Dodge"]
    assert "Ser Carol, choose a defence!" in embed_of(attack)["description"]

    refused = await world.bob.click(attack.response, label="Parry")
    assert refused.ephemeral
    assert "Only Ser Carol's player or a GM" in refused.response.content

    world.dice.push(12)  # Carol blocks: 12 + 2 + 4 = 18 against 23
    done = await world.carol.click(attack.response, label="Block")
    embed = embed_of(done)
    assert "The attack" not in embed["title"]
    assert "Hit: 2 DoS, 7 damage" in embed["description"]
    assert "5 base + 2 DoS = 7 damage" in embed["description"]
    assert attack.response.components == []


async def test_defence_buttons_work_after_a_restart(world):
    await make_jaime(world)
    await make_ser_carol(world)
    world.dice.push(15)
    attack = await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Ser Carol")
    await world.restart()
    world.dice.push(19)  # 19 + 2 + 3 = 24 against 23: parried with 0 DoS
    done = await world.carol.click(attack.response, label="Parry")
    assert done.acknowledged
    assert "5 base - 0 DoS = 5 damage" in embed_of(done)["description"]


async def test_defence_buttons_expire_with_a_note(world, monkeypatch):
    await make_jaime(world)
    await make_ser_carol(world)
    world.dice.push(15)
    attack = await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Ser Carol")
    later = world.bot.now() + timedelta(minutes=16)
    monkeypatch.setattr(world.bot, "now", lambda: later)
    done = await world.carol.click(attack.response, label="Parry")
    embed = embed_of(done)
    assert "(expired)" in embed["title"]
    assert "/defend vs:23 base:5" in embed["description"]
    assert attack.response.components == []


async def test_a_gm_may_press_for_the_player(world):
    await make_jaime(world)
    await make_ser_carol(world)
    world.dice.push(15, 10)
    attack = await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Ser Carol")
    done = await world.alice.click(attack.response, label="Dodge")
    assert "damage" in embed_of(done)["description"]


async def test_a_target_renamed_before_defending_still_defends(world):
    await make_jaime(world)
    await make_ser_carol(world)
    world.dice.push(15)
    attack = await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Ser Carol")
    await world.carol.slash(world.channel, "character set", rename="Dame Carol")
    world.dice.push(10)
    done = await world.carol.click(attack.response, label="Parry")
    assert "Dame Carol" in embed_of(done)["title"]
    assert "damage" in embed_of(done)["description"]


async def test_a_parried_attack_that_still_hurts_is_no_miss(world):
    """The rules text's second example: the goblin parries with 3 DoS, 2 of 5 damage get
    through. The attack is shown green with what got through, not as a red "Miss"."""
    await make_jaime(world)
    await make_goblin(world)
    await world.alice.slash(world.channel, "campaign settings", npc_take10=False)
    world.dice.push(2, 16)  # Jaime 2 + 8 = 10 against the goblin's 16 + 3 = 19: 4 DoS
    embed = embed_of(
        await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Goblin")
    )
    assert embed["description"].startswith("**Parried: 4 DoS for Goblin, 1 of 5 damage gets")
    assert embed["color"] == 0x2ECC71
    world.dice.push(1, 20)  # 9 against 23: 7 DoS capped at 5, no damage
    embed = embed_of(
        await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Goblin")
    )
    assert embed["description"].startswith(
        "**Fully parried: 5 DoS (capped from 7) for Goblin, no damage**"
    )
    assert embed["color"] == 0xE74C3C
