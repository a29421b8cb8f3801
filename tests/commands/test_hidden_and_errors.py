"""Hidden rolls in a GM channel, answers to stale registrations, and /help."""

from __future__ import annotations

from simcord.enums import InteractionType

from tests.commands.conftest import embed_of

TOP_LEVEL = {
    "attack",
    "campaign",
    "character",
    "check",
    "contest",
    "craft",
    "defend",
    "history",
    "odds",
    "roll",
}


async def test_private_roll_goes_in_full_to_the_gm_channel(world):
    gm_room = world.guild.create_text_channel("gm-room")
    await world.alice.slash(world.channel, "campaign settings", gm_channel=gm_room)
    world.dice.push(15)
    result = await world.bob.slash(
        world.channel, "attack", str=3, skill=5, base=5, vs=13, private=True
    )
    assert result.response.ephemeral
    assert "10 damage" in embed_of(result)["description"]

    (shown,) = gm_room.history()
    embed = shown.embeds[0].to_dict()
    assert embed["author"]["name"] == "Hidden roll by bob in Default"
    assert "5 base + 5 DoS = 10 damage" in embed["description"]

    public = world.channel.history()
    assert [m.content for m in public] == ["🎲 bob made a hidden attack. The GMs have the result."]
    assert all(not m.embeds for m in public)
    assert not any("couldn't" in m.content or "could not" in m.content for m in result.followups)


async def test_private_roll_without_gm_channel_goes_to_the_gms_dms(world):
    world.dice.push(15)
    await world.bob.slash(world.channel, "check", attr=1, skill=1, vs=10, private=True)
    public = world.channel.history()
    assert [m.content for m in public] == ["🎲 bob made a hidden check. The GMs have the result."]
    (dm,) = world.alice.user.dm_channel.history()
    embed = dm.embeds[0].to_dict()
    assert embed["author"]["name"] == "Hidden roll by bob in Default"
    assert "**17** vs TN 10" in str(embed)


def register_stale(world, name: str) -> dict:
    """A command Discord still shows but this bot no longer has (an old registration)."""
    backend = world.env.backend
    root = dict(backend.find_command("help", world.guild.id))
    scope = next(s for s, cmds in backend.commands.items() if ("help", 1) in cmds)
    root.update(id=str(backend.snowflake()), name=name, description="gone", options=[])
    backend.commands[scope][(name, 1)] = root
    return root


async def test_a_stale_command_still_gets_an_ephemeral_answer(world):
    root = register_stale(world, "oldroll")
    data = {"id": root["id"], "name": "oldroll", "type": 1, "options": []}
    result = await world.bob._dispatch_interaction(
        InteractionType.APPLICATION_COMMAND, world.channel, data
    )
    assert result.acknowledged
    assert result.response.ephemeral
    assert "out of date" in result.response.content


async def test_help_is_ephemeral_and_lists_every_command(world):
    result = await world.bob.slash(world.channel, "help")
    assert result.response.ephemeral
    text = str(embed_of(result))
    synced = {
        c["name"]
        for c in world.env.backend.visible_commands(
            user_id=world.bob.id, channel_id=world.channel.id
        )
        if c.get("type", 1) == 1  # slash commands; the message menus it names in bold
    }
    assert synced >= TOP_LEVEL
    for name in synced - {"help"}:
        assert f"/{name}" in text, name
