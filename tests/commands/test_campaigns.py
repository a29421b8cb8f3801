"""/campaign: the default campaign, creating and binding, settings, GMs, and guild isolation."""

from __future__ import annotations

from tests.commands.conftest import embed_of, field


async def info(actor, channel) -> dict:
    result = await actor.slash(channel, "campaign info")
    assert result.response.ephemeral
    return embed_of(result)


async def test_the_default_campaign_needs_no_setup_and_alice_is_its_gm(world):
    embed = await info(world.bob, world.channel)
    assert embed["title"] == "Default"
    assert embed["description"] == "This server's default campaign."
    assert field(embed, "GMs") == f"<@{world.alice.id}>"
    assert field(embed, "NPC defences") == "take 10"
    assert field(embed, "Hidden rolls go to") == "the GMs' DMs"


async def test_create_binds_this_channel_and_makes_the_creator_gm(world):
    other = world.guild.create_text_channel("side")
    result = await world.bob.slash(world.channel, "campaign create", name="Dragonfall")
    assert not result.response.ephemeral
    assert "Created **Dragonfall**" in result.response.content
    embed = await info(world.carol, world.channel)
    assert embed["title"] == "Dragonfall"
    assert field(embed, "GMs") == f"<@{world.bob.id}>"
    assert (await info(world.carol, other))["title"] == "Default"
    listing = embed_of(await world.carol.slash(world.channel, "campaign list"))
    assert "**Dragonfall** ← this channel" in listing["description"]
    assert "**Default**" in listing["description"]


async def test_campaign_names_are_unique(world):
    await world.bob.slash(world.channel, "campaign create", name="Dragonfall")
    again = await world.carol.slash(world.channel, "campaign create", name="dragonfall")
    assert again.response.ephemeral
    assert (await info(world.carol, world.channel))["title"] == "Dragonfall"
    assert field(await info(world.carol, world.channel), "GMs") == f"<@{world.bob.id}>"


async def test_use_by_a_non_gm_of_that_campaign_is_refused(world):
    side = world.guild.create_text_channel("side")
    await world.bob.slash(world.channel, "campaign create", name="Dragonfall")
    refused = await world.carol.slash(side, "campaign use", name="Dragonfall")
    assert refused.response.ephemeral
    assert (await info(world.carol, side))["title"] == "Default"
    done = await world.bob.slash(side, "campaign use", name="Dragonfall")
    assert done.response.content == "This channel now plays **Dragonfall**."
    assert (await info(world.carol, side))["title"] == "Dragonfall"
    choices = await world.bob.autocomplete(side, "campaign use", "name", "drag")
    assert [c["value"] for c in choices] == ["Dragonfall"]


async def test_settings_are_for_gms_only(world):
    gm_room = world.guild.create_text_channel("gm-room")
    refused = await world.bob.slash(world.channel, "campaign settings", npc_take10=False)
    assert refused.response.ephemeral and "Only a GM" in refused.response.content
    refused = await world.bob.slash(world.channel, "campaign settings", gm_channel=gm_room)
    assert refused.response.ephemeral and "Only a GM" in refused.response.content
    embed = await info(world.bob, world.channel)
    assert field(embed, "NPC defences") == "take 10"
    assert field(embed, "Hidden rolls go to") == "the GMs' DMs"

    done = await world.alice.slash(
        world.channel, "campaign settings", npc_take10=False, gm_channel=gm_room
    )
    assert done.response.ephemeral
    assert f"are rolled; hidden rolls go to <#{gm_room.id}>" in done.response.content
    embed = await info(world.bob, world.channel)
    assert field(embed, "NPC defences") == "rolled"
    assert field(embed, "Hidden rolls go to") == f"<#{gm_room.id}>"

    await world.alice.slash(world.channel, "campaign settings", clear_gm_channel=True)
    assert field(await info(world.bob, world.channel), "Hidden rolls go to") == "the GMs' DMs"
    empty = await world.alice.slash(world.channel, "campaign settings")
    assert empty.response.ephemeral and "Nothing to change" in empty.response.content


async def test_gm_add_and_remove_but_never_the_last(world):
    refused = await world.bob.slash(world.channel, "campaign gm add", user=world.carol)
    assert refused.response.ephemeral and "Only a GM" in refused.response.content

    added = await world.alice.slash(world.channel, "campaign gm add", user=world.bob)
    assert added.response.content == f"<@{world.bob.id}> is now a GM of **Default**."
    assert field(await info(world.carol, world.channel), "GMs") == (
        f"<@{world.alice.id}>, <@{world.bob.id}>"
    )
    removed = await world.bob.slash(world.channel, "campaign gm remove", user=world.alice)
    assert removed.response.content == f"<@{world.alice.id}> is no longer a GM of **Default**."
    last = await world.bob.slash(world.channel, "campaign gm remove", user=world.bob)
    assert last.response.ephemeral
    assert field(await info(world.carol, world.channel), "GMs") == f"<@{world.bob.id}>"
    # Alice is a player now: NPCs are out of her reach.
    npc = await world.alice.slash(world.channel, "character create", name="Goblin", npc=True)
    assert npc.response.ephemeral and "Only a GM" in npc.response.content


async def test_a_second_server_sees_nothing_of_the_first(world):
    await world.bob.slash(world.channel, "character create", name="Jaime")
    await world.alice.slash(world.channel, "character create", name="Goblin", npc=True)
    await world.bob.slash(world.channel, "campaign create", name="Dragonfall")

    other = world.env.create_guild("Other table")
    hall = other.create_text_channel("hall")
    bob = other.add_member(world.bob.user)
    alice = other.add_member(world.alice.user)

    missing = await bob.slash(hall, "character show", name="Jaime")
    assert missing.response.ephemeral and "No character named 'Jaime'" in missing.response.content
    embed = await info(bob, hall)
    assert embed["title"] == "Default"
    assert field(embed, "GMs") == f"<@{world.bob.id}>"  # Bob used the bot first here
    listing = embed_of(await bob.slash(hall, "campaign list"))
    assert "Dragonfall" not in listing["description"]
    chars = embed_of(await bob.slash(hall, "character list"))
    assert chars["description"] == "None yet: /character create"
    assert await bob.autocomplete(hall, "character show", "name", "") == []
    assert await alice.autocomplete(hall, "character show", "name", "") == []
    assert await bob.autocomplete(hall, "campaign use", "name", "") == [
        {"name": "Default", "value": "Default"}
    ]
    refused = await bob.slash(hall, "campaign use", name="Dragonfall")
    assert refused.response.ephemeral and "No campaign named" in refused.response.content
