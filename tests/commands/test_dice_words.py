"""/roll as German players write it (`4W6`, titled "Wurf") and the `k3` slip, through the
simulated Discord (issue 20)."""

from __future__ import annotations

from cogs.utils import dice_expression
from tests.commands.conftest import ScriptedDice, embed_of
from tests.commands.test_table import logged


async def test_wurf_is_titled_wurf_and_reads_and_shows_w(world, client_languages):
    client_languages.set(world.bob, "de")
    world.dice.push(2, 3, 4, 5)
    result = await world.bob.slash(world.channel, "roll", expression="4W6")
    assert not result.response.ephemeral
    embed = embed_of(result)
    assert embed["title"] == "bob: Wurf"
    assert embed["description"] == "4W6 (2, 3, 4, 5) = **14**"
    (row,) = await logged(world)
    assert row[-1]["expression"] == "4d6"  # the log keeps one way of writing dice
    assert row[-1]["dice"] == "4d6 (2, 3, 4, 5) = 14"


async def test_an_english_player_may_write_w_and_reads_d(world):
    world.dice.push(6, 1)
    embed = embed_of(await world.carol.slash(world.channel, "roll", expression="2w6+1"))
    assert embed["title"] == "carol: Roll"
    assert embed["description"] == "2d6 (6, 1) + 1 = **8**"


async def test_k3_gets_a_hint_towards_kh3(world, client_languages):
    world.dice.push(3, 5, 6, 2)
    embed = embed_of(await world.bob.slash(world.channel, "roll", expression="4d6k3"))
    assert embed["description"] == "4d6k3 (3, ~~5~~, ~~6~~, ~~2~~) = **3**"
    assert embed["footer"]["text"] == (
        "4d6k3 keeps only the dice that show 3. To keep the highest 3, write 4d6kh3."
    )
    client_languages.set(world.bob, "de")
    world.dice.push(3, 5, 6, 2)
    embed = embed_of(await world.bob.slash(world.channel, "roll", expression="4W6k3"))
    assert embed["footer"]["text"] == (
        "4W6k3 behält nur die Würfel, die eine 3 zeigen. Um die höchsten 3 zu behalten, "
        "schreib 4W6kh3."
    )


async def test_the_right_keep_gets_no_hint(world):
    world.dice.push(3, 5, 6, 2)
    embed = embed_of(await world.bob.slash(world.channel, "roll", expression="4d6kh3"))
    assert "footer" not in embed


def test_the_slip_hint_and_the_german_letter_without_discord():
    def hint(expression: str) -> str | None:
        dice = ScriptedDice()
        dice.push(*[1] * 10)
        return dice_expression.roll(expression, dice).hint

    assert hint("4d6p1") == (
        "`4d6p1` drops only the dice that show 1. To drop the lowest 1, write `4d6pl1`."
    )
    assert hint("1d20k1") is None  # one die: k1 can only mean the 1s
    assert hint("4d6k>3") is None and hint("2d20kl1") is None
    assert dice_expression.normal("W20 + 2W6[Wut]") == "d20 + 2d6[Wut]"
    assert dice_expression.normal("1d6 [wow]") == "1d6 [wow]"
