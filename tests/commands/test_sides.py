"""Whom the target select, /attack without target: and the Defence odds put first.

WIRE has no sides, so every combatant stays on offer; but the likely opponents (the NPCs for a
player character, the player characters for an NPC) come first, in fight order, marked.
Fight order in `fight_table`: Ser Carol (18), Jaime (15), Goblin 1-3 (12).
"""

from __future__ import annotations

from tests.commands.conftest import embed_of
from tests.commands.test_fights import any_attacks, fight_table


def offered(reply, page: int = 0) -> list[tuple[str, str]]:
    """(value, description) of one target select in a private reply."""
    select = reply.response.components[page]["components"][0]
    assert select["type"] == 3
    return [(o["value"], o.get("description", "")) for o in select["options"]]


FOE, ALLY = "likely an opponent", "likely an ally"


async def test_a_player_s_select_lists_the_goblins_first_and_the_other_player_after(world):
    await fight_table(world)
    await any_attacks(world)
    bob, channel = world.bob, world.channel
    panel = await bob.slash(channel, "panel")
    asked = await bob.click(panel.response, label="⚔️ Long sword")
    expected = [
        ("Goblin 1", FOE),
        ("Goblin 2", FOE),
        ("Goblin 3", FOE),
        ("Ser Carol", ALLY),  # still on offer: a brawl between players works
    ]
    assert offered(asked) == expected
    typed = await bob.slash(channel, "attack")  # /attack without target: offers the same
    assert offered(typed) == expected
    world.dice.push(15)
    hit = await bob.select(asked.response, ["Ser Carol"])
    assert "Ser Carol" in str(embed_of(hit))


async def test_a_gm_s_attack_as_a_goblin_lists_the_players_first(world):
    await fight_table(world)
    attack = await world.alice.slash(
        world.channel, "attack", npc="Goblin 2", str=1, skill=2, base=3
    )
    assert attack.response.content == "Whom does **Goblin 2** attack?"
    assert offered(attack) == [
        ("Ser Carol", FOE),
        ("Jaime", FOE),
        ("Goblin 1", ALLY),  # an NPC may turn on another
        ("Goblin 3", ALLY),
    ]


async def test_the_downed_are_left_out_of_both_groups(world):
    await fight_table(world)
    await any_attacks(world)
    alice, channel = world.alice, world.channel
    await alice.slash(channel, "health damage", target="Goblin 1", amount=21)
    panel = await world.bob.slash(channel, "panel")
    asked = await world.bob.click(panel.response, label="⚔️ Long sword")
    assert [value for value, _ in offered(asked)] == ["Goblin 2", "Goblin 3", "Ser Carol"]


async def test_more_than_25_combatants_split_into_selects_opponents_first(world):
    await fight_table(world)
    await any_attacks(world)
    alice, channel = world.alice, world.channel
    world.dice.push(12)
    more = await alice.slash(channel, "fight add", npc="Goblin", count=20)
    assert more.response.ephemeral and "Goblin 23" in more.response.content, more.response.content
    await alice.slash(channel, "character create", name="Orc", npc=True)
    world.dice.push(5)
    await alice.slash(channel, "fight add", npc="Orc", count=5)  # 30 in all: 28 NPCs
    asked = await world.bob.slash(channel, "attack")
    assert len(asked.response.components) == 2
    first, second = offered(asked, 0), offered(asked, 1)
    assert first == [(f"Goblin {n}", FOE) for n in range(1, 24)] + [("Orc 1", FOE), ("Orc 2", FOE)]
    assert second == [("Orc 3", FOE), ("Orc 4", FOE), ("Orc 5", FOE), ("Ser Carol", ALLY)]
    world.dice.push(15)
    second_id = asked.response.components[1]["components"][0]["custom_id"]
    hit = await world.bob.select(asked.response, ["Ser Carol"], custom_id=second_id)
    assert "Ser Carol" in str(embed_of(hit))


async def test_german_marks(world, client_languages):
    await fight_table(world)
    await any_attacks(world)
    client_languages.set(world.bob, "de")
    asked = await world.bob.slash(world.channel, "attack")
    assert asked.response.content == "Wen greift **Jaime** mit **Long sword** an?"
    assert offered(asked) == [
        ("Goblin 1", "wohl ein Gegner"),
        ("Goblin 2", "wohl ein Gegner"),
        ("Goblin 3", "wohl ein Gegner"),
        ("Ser Carol", "wohl verbündet"),
    ]


async def test_defence_odds_list_the_likely_attackers_first(world):
    """An Orc ahead of everyone in fight order: the Goblin's odds still name the players first."""
    await fight_table(world)
    alice, channel = world.alice, world.channel
    await world.carol.slash(channel, "character weapon", weapon="Mace", base=4,
                            attribute="Strength", skill="Parry")  # fmt: skip  # 2 + 3 = +5
    await alice.slash(channel, "character create", name="Orc", npc=True)
    await alice.slash(channel, "character weapon", name="Orc", weapon="Axe", base=5,
                      attribute="Strength", skill="Parry")  # fmt: skip  # +0
    await alice.slash(channel, "fight add", npc="Orc", initiative=20)  # first in fight order
    gm = await alice.slash(channel, "panel", npc="Goblin")
    lines = (await alice.click(gm.response, label="Defence odds")).response.content.splitlines()
    assert lines[1:4] == [
        "• **Ser Carol**: d20 +5 with Mace",
        "• **Jaime**: d20 +8 with Long sword",
        "• **Orc**: d20 +0 with Axe",
    ]
