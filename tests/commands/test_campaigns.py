"""/campaign: the default campaign, creating and binding, settings, GMs, and guild isolation."""

from __future__ import annotations

from tests.commands.conftest import embed_of, field


async def info(actor, channel) -> dict:
    result = await actor.slash(channel, "campaign info")
    assert result.response.ephemeral
    return embed_of(result)


MANAGERS_ONLY = "Everyone with Manage Server (`/campaign gm add` names more)"
MANAGERS_MORE = "Manage Server (`/campaign gm add` names more)"


async def test_the_default_campaign_needs_no_setup_and_nobody_is_gm_by_being_first(world):
    embed = await info(world.bob, world.channel)
    assert embed["title"] == "Default"
    assert embed["description"] == "This server's default campaign."
    assert field(embed, "GMs") == MANAGERS_ONLY
    assert field(embed, "NPC defences") == "take 10"
    assert field(embed, "Hidden rolls go to") == "the GMs' DMs"
    # Bob touched the bot first, yet NPCs are beyond him; Alice owns the server.
    refused = await world.bob.slash(world.channel, "character create", name="Orc", npc=True)
    assert refused.response.ephemeral
    assert "Only a GM of Default can create NPCs" in refused.response.content
    assert "everyone with Manage Server" in refused.response.content
    assert "/campaign gm add" in refused.response.content
    done = await world.alice.slash(world.channel, "character create", name="Orc", npc=True)
    # Made: its sheet comes back to the GM alone, as an NPC's sheet always does.
    assert done.response.ephemeral and "Created NPC **Orc**" in done.response.content


async def test_creating_a_campaign_takes_a_gm_and_binds_a_free_channel(world):
    other = world.guild.create_text_channel("side")
    refused = await world.bob.slash(world.channel, "campaign create", name="Dragonfall")
    assert refused.response.ephemeral
    assert "Creating a campaign takes Manage Server" in refused.response.content
    await world.alice.slash(world.channel, "campaign gm add", user=world.bob)
    result = await world.bob.slash(world.channel, "campaign create", name="Dragonfall")
    assert not result.response.ephemeral
    assert "Created **Dragonfall**" in result.response.content
    embed = await info(world.carol, world.channel)
    assert embed["title"] == "Dragonfall"
    assert field(embed, "GMs") == f"<@{world.bob.id}> and everyone with {MANAGERS_MORE}"
    assert (await info(world.carol, other))["title"] == "Default"
    listing = embed_of(await world.carol.slash(world.channel, "campaign list"))
    assert "**Dragonfall** ← this channel" in listing["description"]
    assert "**Default**" in listing["description"]


async def test_creating_never_takes_a_channel_another_campaign_plays_in(world):
    side = world.guild.create_text_channel("side")  # plays the default campaign
    await world.alice.slash(world.channel, "campaign create", name="Dragonfall")
    await world.alice.slash(side, "campaign gm add", user=world.bob)  # a GM of Default
    result = await world.bob.slash(world.channel, "campaign create", name="Heist")
    assert "This channel keeps playing **Dragonfall**" in result.response.content
    assert (await info(world.carol, world.channel))["title"] == "Dragonfall"
    # Bob is a GM of Heist, not of Dragonfall: he cannot take the channel with /campaign use.
    refused = await world.bob.slash(world.channel, "campaign use", name="Heist")
    assert refused.response.ephemeral
    assert "Only a GM of Dragonfall can move this channel" in refused.response.content
    assert (await info(world.carol, world.channel))["title"] == "Dragonfall"


async def test_campaign_names_are_unique(world):
    await world.alice.slash(world.channel, "campaign create", name="Dragonfall")
    again = await world.alice.slash(world.channel, "campaign create", name="dragonfall")
    assert again.response.ephemeral
    assert (await info(world.carol, world.channel))["title"] == "Dragonfall"


async def test_use_by_a_non_gm_of_that_campaign_is_refused(world):
    side = world.guild.create_text_channel("side")
    await world.alice.slash(world.channel, "campaign gm add", user=world.bob)
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


async def test_gm_add_and_remove_and_managers_stay(world):
    refused = await world.bob.slash(world.channel, "campaign gm add", user=world.carol)
    assert refused.response.ephemeral and "Only a GM" in refused.response.content

    added = await world.alice.slash(world.channel, "campaign gm add", user=world.bob)
    assert added.response.content == f"<@{world.bob.id}> is now a GM of **Default**."
    added = await world.bob.slash(world.channel, "campaign gm add", user=world.carol)
    assert field(await info(world.carol, world.channel), "GMs") == (
        f"<@{world.bob.id}>, <@{world.carol.id}> and everyone with {MANAGERS_MORE}"
    )
    owner = await world.bob.slash(world.channel, "campaign gm remove", user=world.alice)
    assert owner.response.ephemeral and "Manage Server always is" in owner.response.content
    removed = await world.carol.slash(world.channel, "campaign gm remove", user=world.bob)
    assert removed.response.content == f"<@{world.bob.id}> is no longer a GM of **Default**."
    last = await world.carol.slash(world.channel, "campaign gm remove", user=world.carol)
    assert not last.response.ephemeral
    assert field(await info(world.carol, world.channel), "GMs") == MANAGERS_ONLY
    # Bob is a player again: NPCs are out of his reach.
    npc = await world.bob.slash(world.channel, "character create", name="Goblin", npc=True)
    assert npc.response.ephemeral and "Only a GM" in npc.response.content


async def test_a_second_server_sees_nothing_of_the_first(world):
    await world.bob.slash(world.channel, "character create", name="Jaime")
    await world.alice.slash(world.channel, "character create", name="Goblin", npc=True)
    await world.alice.slash(world.channel, "campaign create", name="Dragonfall")

    other = world.env.create_guild("Other table")
    hall = other.create_text_channel("hall")
    bob = other.add_member(world.bob.user)
    alice = other.add_member(world.alice.user)

    missing = await bob.slash(hall, "character show", name="Jaime")
    assert missing.response.ephemeral and "No character named 'Jaime'" in missing.response.content
    embed = await info(bob, hall)
    assert embed["title"] == "Default"
    assert field(embed, "GMs") == MANAGERS_ONLY  # Bob used the bot first here: no matter
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
