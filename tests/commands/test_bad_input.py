"""Input no Discord client sends but a stale registration or a modified client can."""

from __future__ import annotations

from tests.commands.conftest import raw_slash


async def test_a_value_of_the_wrong_type_is_answered_as_out_of_date(world):
    result = await raw_slash(world.bob, world.channel, "character create", name=True)
    assert result.response.ephemeral
    assert "out of date" in result.response.content


async def test_an_option_the_command_no_longer_has_is_answered(world):
    result = await raw_slash(world.bob, world.channel, "check", vs=10, attr=1, skill=1, luck=3)
    assert result.response.ephemeral
    assert "out of date" in result.response.content


async def test_an_error_quoting_a_huge_name_still_fits_one_message(world):
    result = await raw_slash(world.bob, world.channel, "character show", name="é" * 3000)
    assert result.acknowledged
    assert result.response.ephemeral
    assert 0 < len(result.response.content) <= 2000
