"""A downed combatant in a fight: skipped in the turn order (and said so), not attacked further
by a roll, and no overkill in the summary (issue 20)."""

from __future__ import annotations

from tests.commands.conftest import embed_of
from tests.commands.test_fights import any_attacks, fight_table, line_of


async def down_goblin_1(world) -> None:
    hit = await world.alice.slash(world.channel, "health damage", target="Goblin 1", amount=21)
    assert "Goblin 1" in hit.response.content


async def test_a_downed_goblin_is_skipped_and_the_turn_says_so(world):
    await fight_table(world)  # Ser Carol 18, Jaime 15, Goblin 1-3 12
    await down_goblin_1(world)
    assert line_of(world, "Goblin 1").endswith("· its turns are skipped")
    assert "skipped" not in line_of(world, "Goblin 2")
    await world.alice.slash(world.channel, "fight next")  # Ser Carol
    await world.carol.slash(world.channel, "fight next")  # Jaime
    turn = await world.bob.slash(world.channel, "fight next")
    assert turn.response.content == (
        "Round 1: **Goblin 2**'s turn.\nSkipped, being down: **Goblin 1**."
    )
    assert line_of(world, "Goblin 2").startswith("▶")


async def test_the_last_in_order_down_starts_the_next_round(world):
    await fight_table(world)
    await world.alice.slash(world.channel, "health damage", target="Goblin 3", amount=21)
    for _ in range(4):  # Ser Carol, Jaime, Goblin 1, Goblin 2
        await world.alice.slash(world.channel, "fight next")
    turn = await world.alice.slash(world.channel, "fight next")
    assert turn.response.content.startswith("Round 2 begins: **Ser Carol**")
    assert turn.response.content.endswith("Skipped, being down: **Goblin 3**.")


async def test_an_attack_on_a_downed_goblin_is_refused_and_changes_nothing(world):
    await fight_table(world)
    await down_goblin_1(world)
    world.dice.push(15)
    refused = await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Goblin 1")
    assert refused.response.ephemeral
    assert refused.response.content == (
        "Goblin 1 is down already, so the attack is not rolled. To hurt them further anyway, "
        "a GM uses `/health damage`."
    )
    gm = await world.alice.slash(world.channel, "fight show")
    assert "**Goblin 1** · HP 0/21" in gm.followups[0].embeds[0].description


async def test_the_summary_counts_no_overkill_and_undo_takes_back_what_it_counted(world):
    await fight_table(world)
    await any_attacks(world)
    world.dice.push(20)  # Jaime 28 against 13: 5 DoS, 10 damage
    await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Goblin 1")
    await world.alice.slash(world.channel, "health damage", target="Goblin 1", amount=15)  # 11 → -4
    await world.alice.slash(world.channel, "health damage", target="Goblin 1", amount=3)  # -4 → -7
    await world.alice.slash(world.channel, "health undo")  # the 3 counted nothing
    await world.alice.slash(world.channel, "health undo")  # the 15 counted 11
    await world.alice.slash(world.channel, "health damage", target="Goblin 1", amount=30)
    summary = embed_of(await world.alice.slash(world.channel, "fight end"))
    assert "**Jaime**: dealt 10, took 0" in summary["description"]
    assert "**Goblin 1**: dealt 0, took 21 · down" in summary["description"]
