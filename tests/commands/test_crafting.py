"""/craft: a project's quality moves by each roll's degrees and outlives a restart."""

from __future__ import annotations

from tests.commands.conftest import embed_of, field


async def craft(world, face: int, **options) -> dict:
    world.dice.push(face)
    result = await world.bob.slash(
        world.channel, "craft roll", item="Sword", vs=15, attr=2, skill=4, **options
    )
    assert not result.response.ephemeral
    return embed_of(result)


async def quality_shown(world) -> str:
    result = await world.bob.slash(world.channel, "craft show", item="sword")
    assert result.response.ephemeral
    return field(embed_of(result), "Sword")


async def test_start_roll_show_finish(world):
    started = await world.bob.slash(world.channel, "craft start", item="Sword")
    assert "starts crafting **Sword** at quality 0" in started.response.content

    embed = await craft(world, 20)  # 20 + 2 + 4 = 26 vs 15: 5 DoS
    assert "Success: 5 DoS" in embed["description"]
    assert field(embed, "Total") == "**26** vs TN 15"
    assert field(embed, "Quality") == "0 + 5 = **5**"
    assert await quality_shown(world) == "Quality **5** after 1 roll"

    embed = await craft(world, 1)  # 1 + 2 + 4 = 7 vs 15: 4 DoF
    assert "Failure: 4 DoF" in embed["description"]
    assert field(embed, "Quality") == "5 - 4 = **1**"

    done = await world.bob.slash(world.channel, "craft finish", item="Sword")
    assert "finishes **Sword** at quality **1** after 2 rolls" in done.response.content
    gone = await world.bob.slash(world.channel, "craft show")
    assert gone.response.ephemeral and "no crafting projects" in gone.response.content


async def test_degrees_are_capped_at_5(world):
    await world.bob.slash(world.channel, "craft start", item="Sword", quality=2)
    embed = await craft(world, 20, mod=10)  # 36 vs 15: 10 DoS, capped at 5
    assert "5 DoS (capped from 10)" in embed["description"]
    assert field(embed, "Quality") == "2 + 5 = **7**"


async def test_unknown_project_is_an_ephemeral_error(world):
    result = await world.bob.slash(
        world.channel, "craft roll", item="Shield", vs=15, attr=1, skill=1
    )
    assert result.response.ephemeral
    assert "Shield" in result.response.content
    shown = await world.bob.slash(world.channel, "craft show", item="Shield")
    assert shown.response.ephemeral
    finished = await world.bob.slash(world.channel, "craft finish", item="Shield")
    assert finished.response.ephemeral


async def test_projects_are_the_crafters_own(world):
    await world.bob.slash(world.channel, "craft start", item="Sword")
    other = await world.carol.slash(
        world.channel, "craft roll", item="Sword", vs=15, attr=1, skill=1
    )
    assert other.response.ephemeral
    assert await world.carol.autocomplete(world.channel, "craft roll", "item", "") == []
    mine = await world.bob.autocomplete(world.channel, "craft roll", "item", "sw")
    assert mine == [{"name": "Sword (quality 0)", "value": "Sword"}]


async def test_quality_survives_a_restart(world):
    await world.bob.slash(world.channel, "craft start", item="Sword")
    await craft(world, 20)
    await world.restart()
    assert await quality_shown(world) == "Quality **5** after 1 roll"
    embed = await craft(world, 13)  # 19 vs 15: 2 DoS
    assert field(embed, "Quality") == "5 + 2 = **7**"
