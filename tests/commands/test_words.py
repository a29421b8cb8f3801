"""Words that match the rules: the attacked player is pinged, and /history reads each line from
its roller's side."""

from __future__ import annotations

from tests.commands.conftest import embed_of
from tests.commands.test_combat import make_jaime, make_ser_carol


async def test_the_attacked_player_is_pinged_and_sees_the_time_left(world):
    await make_jaime(world)
    await make_ser_carol(world)
    world.dice.push(15)
    attack = await world.bob.slash(world.channel, "attack", target="Ser Carol")
    assert attack.response.content == f"<@{world.carol.id}>"
    assert "Expires <t:" in embed_of(attack)["description"]


async def test_a_won_defence_reads_as_the_defenders_success_in_history(world):
    await make_jaime(world)
    await make_ser_carol(world)
    world.dice.push(1)  # Jaime 1 + 8 = 9
    attack = await world.bob.slash(world.channel, "attack", target="Ser Carol")
    world.dice.push(12)  # Carol parries 12 + 2 + 3 = 17 against 9: 4 DoS for her
    await world.carol.click(attack.response, label="Parry")
    lines = embed_of(await world.alice.slash(world.channel, "history"))["description"]
    assert "**Ser Carol** defend: 17 vs 9, 4 DoS" in lines
