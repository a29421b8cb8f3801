"""A press on a button nothing listens to any more is answered, never left to fail."""

from __future__ import annotations


async def test_delete_confirmation_pressed_after_a_restart_gets_a_note(world):
    await world.bob.slash(world.channel, "character create", name="Jaime")
    ask = await world.bob.slash(world.channel, "character delete", name="Jaime")
    await world.restart()
    late = await world.bob.click(ask.response, label="Delete")
    assert late.acknowledged
    assert late.ephemeral
    assert "no longer works" in late.response.content
    shown = await world.bob.slash(world.channel, "character show", name="Jaime")
    assert shown.response.embeds[0].title.startswith("Jaime")


async def test_delete_confirmation_works_while_it_listens(world):
    await world.bob.slash(world.channel, "character create", name="Jaime")
    ask = await world.bob.slash(world.channel, "character delete", name="Jaime")
    done = await world.bob.click(ask.response, label="Delete")
    assert done.response.content == "Deleted Jaime."
    gone = await world.bob.slash(world.channel, "character show", name="Jaime")
    assert gone.response.ephemeral
