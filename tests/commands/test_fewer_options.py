"""Fewer options per roll: what the sheet, the project or the other side already says is not
asked again."""

from __future__ import annotations

from tests.commands.conftest import embed_of, field
from tests.commands.test_combat import make_goblin, make_jaime


async def test_a_one_weapon_sheet_attacks_without_naming_it(world):
    await make_jaime(world)
    await make_goblin(world)
    world.dice.push(15)
    embed = embed_of(await world.bob.slash(world.channel, "attack", target="Goblin"))
    assert embed["title"] == "Jaime: Attack with Long sword on Goblin"
    assert "Hit: 5 DoS, 10 damage" in embed["description"]


async def test_a_gm_without_a_character_is_told_about_npc(world):
    await make_goblin(world)
    result = await world.alice.slash(world.channel, "check", vs=10, attr_name="Strength",
                                     skill_name="Parry")  # fmt: skip
    assert result.response.ephemeral
    assert "add npc:<name> to roll as an NPC" in result.response.content
    player = await world.bob.slash(world.channel, "check", vs=10, attr_name="Strength",
                                   skill_name="Parry")  # fmt: skip
    assert "npc:" not in player.response.content


async def test_a_contest_against_a_named_opponent_uses_the_same_stat_and_skill(world):
    await make_jaime(world)
    await make_goblin(world)
    alice, channel = world.alice, world.channel
    await alice.slash(channel, "character set", name="Goblin", skill="Long swords", value=2)
    await alice.slash(channel, "campaign settings", npc_modifiers=True)
    world.dice.push(10, 10)
    result = await world.bob.slash(
        channel, "contest", attr_name="Strength", skill_name="Long swords", opponent="Goblin"
    )
    embed = embed_of(result)
    assert field(embed, "Goblin") == "d20 10 + 1 Strength + 2 Long swords = 13"
    assert field(embed, "Jaime") == "d20 10 + 3 Strength + 5 Long swords = 18"


async def test_a_project_remembers_its_recipe_and_shows_its_progress(world):
    await make_jaime(world)
    bob, channel = world.bob, world.channel
    started = await bob.slash(channel, "craft start", item="Sword", attr_name="Strength",
                              skill_name="Long swords", vs=15, goal=6)  # fmt: skip
    assert "aiming for 6" in started.response.content
    assert "/craft roll item:Sword`" in started.response.content
    world.dice.push(17)  # 17 + 3 + 5 = 25 against 15: 5 DoS
    embed = embed_of(await bob.slash(channel, "craft roll", item="Sword"))
    assert field(embed, "Modifiers") == "Strength +3, Long swords +5"
    assert field(embed, "Quality").startswith("0 + 5 = **5 of 6**")
    world.dice.push(6)  # 14 against 15: a failure by 1, 0 DoF: the quality stays
    await bob.slash(channel, "craft roll", item="Sword")
    world.dice.push(10)  # 18: 1 DoS, quality 6 of 6
    embed = embed_of(await bob.slash(channel, "craft roll", item="Sword"))
    assert "**6 of 6** · goal reached" in field(embed, "Quality")
    shown = embed_of(await bob.slash(channel, "craft show"))
    assert field(shown, "Sword").startswith("Quality **6 of 6**")


async def test_quality_below_zero_says_what_it_means(world):
    await world.bob.slash(world.channel, "character create", name="Smith")
    await world.bob.slash(world.channel, "craft start", item="Pot")
    world.dice.push(1)  # 1 + 1 + 1 = 3 against 15: 6 DoF, capped at 5
    embed = embed_of(
        await world.bob.slash(world.channel, "craft roll", item="Pot", vs=15, attr=1, skill=1)
    )
    assert field(embed, "Quality").startswith("0 - 5 = **-5**")
    assert "the GM's call" in field(embed, "Quality")
    missing = await world.bob.slash(world.channel, "craft roll", item="Pot", attr=1, skill=1)
    assert missing.response.ephemeral and "vs" in missing.response.content
