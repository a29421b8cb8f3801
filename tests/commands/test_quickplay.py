"""Quick play through the simulated Discord: saved rolls, the panel, the turn ping's taps."""

from __future__ import annotations

from tests.commands.conftest import embed_of, field
from tests.commands.test_combat import make_jaime
from tests.commands.test_fights import fight_table


async def test_save_and_reroll_from_the_sheet_as_it_is_now(world):
    await make_jaime(world)
    bob, channel = world.bob, world.channel
    world.dice.push(10)
    first = await bob.slash(channel, "check", attr_name="Strength", skill_name="Long swords", vs=15)
    assert field(embed_of(first), "Total") == "**18** vs TN 15"
    refused = await world.carol.click(first.response, label="Save")
    assert refused.response.ephemeral and "Only <@" in refused.response.content
    saved = await bob.click(first.response, label="Save")
    assert saved.response.ephemeral
    assert "**check Strength Long swords**" in saved.response.content
    named = await bob.slash(channel, "save", name="swing")
    assert "**swing**" in named.response.content
    await bob.slash(channel, "character set", attribute="Strength", value=5)
    world.dice.push(10)
    again = await bob.slash(channel, "r", name="swing", mod=2)
    assert field(embed_of(again), "Total") == "**22** vs TN 15"  # 10 + 5 (now) + 5 + 2
    listed = await bob.slash(channel, "save")
    assert "**swing**" in listed.response.content
    await bob.slash(channel, "save", name="swing", rename="Hieb")
    gone = await bob.slash(channel, "r", name="swing")
    assert gone.response.ephemeral and "No saved roll named" in gone.response.content
    await bob.slash(channel, "save", name="Hieb", delete=True)
    listed = await bob.slash(channel, "save")
    assert "**Hieb**" not in listed.response.content


async def test_the_panel_attacks_with_a_target_select_in_a_running_fight(world):
    await fight_table(world)
    bob, channel = world.bob, world.channel
    panel = await bob.slash(channel, "panel")
    assert panel.response.ephemeral
    asked = await bob.click(panel.response, label="⚔️ Long sword")
    assert asked.response.ephemeral
    world.dice.push(15, 3)
    hit = await bob.select(asked.response, ["Goblin 2"])
    assert "Goblin 2" in str(embed_of(hit))
    assert embed_of(hit)["description"].startswith("**Hit: 5 DoS, 10 damage**")
    await world.restart()
    asked = await bob.click(panel.response, label="⚔️ Long sword")
    assert asked.response.ephemeral and "Whom does" in asked.response.content


async def test_a_turn_taken_with_taps_from_the_ping(world):
    await fight_table(world)
    alice, bob, carol, channel = world.alice, world.bob, world.carol, world.channel
    await alice.slash(channel, "fight next")  # Ser Carol's turn
    carols = await carol.slash(channel, "fight next")  # Jaime's turn: Bob is pinged
    ping = carols.response
    assert ping.content.startswith("Round 1: **Jaime** (<@")
    stranger = await carol.click(ping, label="⚔️ Long sword")
    assert stranger.response.ephemeral and "only its player" in stranger.response.content
    asked = await bob.click(ping, label="⚔️ Long sword")
    assert [o["value"] for o in asked.response.components[0]["components"][0]["options"]][:2] == [
        "Ser Carol",
        "Goblin 1",
    ]
    world.dice.push(15, 3)  # 15 + 8 = 23 against 3 + 2 = 5 (Goblin 1 parries)
    hit = await bob.select(asked.response, ["Goblin 1"])
    assert embed_of(hit)["description"].startswith("**Hit")
    ended = await bob.click(ping, label="End turn")
    assert ended.response.content.startswith("Round 1: **Goblin 1**")
    late = await bob.click(ping, label="⚔️ Long sword")
    assert late.response.ephemeral and "moved on" in late.response.content


async def test_attack_without_target_in_a_fight_offers_the_opponents(world):
    await fight_table(world)
    offered = await world.bob.slash(world.channel, "attack")
    assert offered.response.ephemeral and "Whom does **Jaime**" in offered.response.content
    world.dice.push(15, 3)
    hit = await world.bob.select(offered.response, ["Goblin 3"])
    assert "Goblin 3" in str(embed_of(hit))
