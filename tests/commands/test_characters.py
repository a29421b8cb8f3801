"""/character: sheets, permissions, delete, export/import and autocomplete, as users see them."""

from __future__ import annotations

import json

import pytest
from simcord.backend.errors import SetupError

from storage.errors import ImportRejected
from storage.models import WIRE_ATTRIBUTES
from tests.commands.conftest import embed_of, field, raw_slash
from tests.discord_rules import autocomplete_problems, embed_problems


async def create_jaime(world) -> None:
    bob, channel = world.bob, world.channel
    await bob.slash(channel, "character create", name="Jaime")
    await bob.slash(channel, "character set", attribute="Strength", value=3)
    await bob.slash(channel, "character set", skill="Long swords", value=5)


async def test_create_shows_the_new_sheet(world):
    result = await world.bob.slash(world.channel, "character create", name="Jaime", shield=True)
    assert not result.response.ephemeral
    assert "Created **Jaime**" in result.response.content
    embed = embed_of(result)
    assert embed["title"] == "Jaime"
    assert f"<@{world.bob.id}>" in embed["description"]
    assert field(embed, "Shield") == "yes (can block)"
    assert field(embed, "Attributes") == "none"
    assert embed_problems(embed) == []


async def test_set_attribute_skill_shield_notes_and_show(world):
    await create_jaime(world)
    result = await world.bob.slash(
        world.channel, "character set", shield=True, notes="Oathsworn knight"
    )
    assert "shield" in result.response.content and "notes" in result.response.content
    embed = embed_of(await world.bob.slash(world.channel, "character show"))
    assert embed["title"] == "Jaime (active)"
    assert field(embed, "Attributes") == "Strength **3**"
    assert field(embed, "Skills") == "Long swords **5**"
    assert field(embed, "Shield") == "yes (can block)"
    assert field(embed, "Notes") == "Oathsworn knight"


async def test_rename_keeps_the_sheet(world):
    await create_jaime(world)
    result = await world.bob.slash(world.channel, "character set", rename="Ser Jaime")
    assert "Updated Ser Jaime" in result.response.content
    embed = embed_of(await world.bob.slash(world.channel, "character show", name="ser jaime"))
    assert embed["title"].startswith("Ser Jaime")
    assert field(embed, "Attributes") == "Strength **3**"
    gone = await world.bob.slash(world.channel, "character show", name="Jaime")
    assert gone.response.ephemeral and "No character named" in gone.response.content


async def test_weapon_and_remove(world):
    await create_jaime(world)
    result = await world.bob.slash(
        world.channel,
        "character weapon",
        weapon="Long sword",
        base=5,
        attribute="Strength",
        skill="Long swords",
    )
    assert "wields **Long sword** (base 5, Strength + Long swords)" in result.response.content
    embed = embed_of(await world.bob.slash(world.channel, "character show"))
    assert field(embed, "Weapons") == "**Long sword**: base 5, Strength + Long swords"

    result = await world.bob.slash(world.channel, "character remove", weapon="Long sword")
    assert result.response.content == "Removed weapon Long sword from Jaime."
    await world.bob.slash(world.channel, "character remove", skill="Long swords")
    embed = embed_of(await world.bob.slash(world.channel, "character show"))
    assert field(embed, "Weapons") == "none" and field(embed, "Skills") == "none"

    missing = await world.bob.slash(world.channel, "character remove", attribute="Wits")
    assert missing.response.ephemeral and "no attribute named 'Wits'" in missing.response.content
    two = await world.bob.slash(world.channel, "character remove", attribute="Strength", skill="X")
    assert two.response.ephemeral and "one thing at a time" in two.response.content


async def test_list_and_use(world):
    await world.bob.slash(world.channel, "character create", name="Jaime")
    await world.bob.slash(world.channel, "character create", name="Brienne")
    await world.carol.slash(world.channel, "character create", name="Arya")
    listing = embed_of(await world.bob.slash(world.channel, "character list"))
    lines = listing["description"].splitlines()
    assert any(line.startswith("**Jaime**") and "active" in line for line in lines)
    assert any(line.startswith("**Arya**") for line in lines)
    assert len(lines) == 3
    mine = embed_of(await world.bob.slash(world.channel, "character list", owner=world.carol))
    assert mine["description"].splitlines() == [f"**Arya** (<@{world.carol.id}>)"]

    used = await world.bob.slash(world.channel, "character use", name="brienne")
    assert used.response.ephemeral and "You now roll as **Brienne**" in used.response.content
    embed = embed_of(await world.bob.slash(world.channel, "character show"))
    assert embed["title"] == "Brienne (active)"
    other = await world.bob.slash(world.channel, "character use", name="Arya")
    assert other.response.ephemeral


async def test_names_are_unique_case_insensitively(world):
    await world.bob.slash(world.channel, "character create", name="Jaime")
    result = await world.carol.slash(world.channel, "character create", name="JAIME")
    assert result.response.ephemeral
    assert "Jaime" in result.response.content or "JAIME" in result.response.content
    listing = embed_of(await world.carol.slash(world.channel, "character list"))
    assert listing["description"].count("**") == 2  # one character only


async def test_name_too_long_is_refused_naming_the_limit(world):
    result = await raw_slash(world.bob, world.channel, "character create", name="x" * 65)
    assert result.response.ephemeral
    assert "64" in result.response.content
    listing = embed_of(await world.bob.slash(world.channel, "character list"))
    assert listing["description"] == "None yet: /character create"


async def test_skill_over_10_is_refused(world):
    await create_jaime(world)
    result = await raw_slash(
        world.bob, world.channel, "character set", skill="Long swords", value=11
    )
    assert result.response.ephemeral
    assert "10" in result.response.content
    embed = embed_of(await world.bob.slash(world.channel, "character show"))
    assert field(embed, "Skills") == "Long swords **5**"


async def test_a_player_cannot_change_another_players_character_a_gm_can(world):
    await create_jaime(world)
    refused = await world.carol.slash(
        world.channel, "character set", name="Jaime", attribute="Strength", value=9
    )
    assert refused.ephemeral
    assert "Only Jaime's player or a GM can change Jaime" in refused.response.content
    refused = await world.carol.slash(world.channel, "character remove", name="Jaime", skill="X")
    assert "Only Jaime's player or a GM can change Jaime" in refused.response.content
    done = await world.alice.slash(
        world.channel, "character set", name="Jaime", attribute="Strength", value=4
    )
    assert done.response.ephemeral and "Updated Jaime: Strength 4" in done.response.content
    embed = embed_of(await world.bob.slash(world.channel, "character show"))
    assert field(embed, "Attributes") == "Strength **4**"


async def test_only_gms_create_and_see_npcs(world):
    refused = await world.bob.slash(world.channel, "character create", name="Goblin", npc=True)
    assert refused.ephemeral and "Only a GM" in refused.response.content
    made = await world.alice.slash(world.channel, "character create", name="Goblin", npc=True)
    assert "Created NPC **Goblin**" in made.response.content
    hidden = await world.bob.slash(world.channel, "character show", name="Goblin")
    assert hidden.ephemeral and "only the GMs see NPC sheets" in hidden.response.content
    shown = await world.alice.slash(world.channel, "character show", name="Goblin")
    assert shown.response.ephemeral and embed_of(shown)["description"] == "NPC"
    listed = await world.bob.slash(world.channel, "character list", npcs=True)
    assert listed.response.ephemeral and "Only the GMs" in listed.response.content
    npcs = await world.alice.slash(world.channel, "character list", npcs=True)
    assert npcs.response.ephemeral and embed_of(npcs)["description"] == "**Goblin**"
    players = embed_of(await world.bob.slash(world.channel, "character list"))
    assert "Goblin" not in players["description"]


async def _ask_delete(world):
    await world.bob.slash(world.channel, "character create", name="Jaime")
    ask = await world.bob.slash(world.channel, "character delete", name="Jaime")
    assert ask.response.ephemeral
    labels = [c["label"] for row in ask.response.components for c in row["components"]]
    assert labels == ["Delete", "Cancel"]
    return ask


async def _exists(world, name: str) -> bool:
    result = await world.alice.slash(world.channel, "character show", name=name)
    return not result.response.ephemeral


async def test_delete_cancel_keeps_the_character(world):
    ask = await _ask_delete(world)
    done = await world.bob.click(ask.response, label="Cancel")
    assert done.response.content == "Nothing was deleted."
    assert ask.response.components == []
    assert await _exists(world, "Jaime")


async def test_delete_removes_the_character_only_for_the_asker(world):
    ask = await _ask_delete(world)
    # The question is ephemeral: nobody but the asker even sees the buttons.
    with pytest.raises(SetupError, match="not visible"):
        await world.carol.click(ask.response, label="Delete")
    assert await _exists(world, "Jaime")
    done = await world.bob.click(ask.response, label="Delete")
    assert done.response.content == "Deleted Jaime."
    assert not await _exists(world, "Jaime")


async def test_delete_of_someone_elses_character_is_refused(world):
    await world.bob.slash(world.channel, "character create", name="Jaime")
    refused = await world.carol.slash(world.channel, "character delete", name="Jaime")
    assert (
        refused.ephemeral
        and "Only Jaime's player or a GM can change Jaime" in refused.response.content
    )


async def test_unanswered_delete_times_out_and_deletes_nothing(world):
    ask = await _ask_delete(world)
    await world.env.advance_time(61)
    assert ask.response.content == "No answer in time; nothing was deleted."
    assert ask.response.components == []
    assert await _exists(world, "Jaime")


async def test_export_gives_a_json_file_of_the_sheet(world):
    await create_jaime(world)
    result = await world.bob.slash(world.channel, "character export")
    assert result.response.ephemeral
    (attachment,) = result.response.attachments
    assert attachment.filename == "Jaime.json"
    data = json.loads(await attachment.read())
    assert data["kind"] == "character"
    assert data["character"]["name"] == "Jaime"
    assert data["character"]["attributes"] == {"Strength": 3}
    assert data["character"]["skills"] == {"Long swords": 5}


async def test_export_then_import_in_another_server(world):
    await create_jaime(world)
    result = await world.bob.slash(world.channel, "character export")
    raw = await result.response.attachments[0].read()
    other = world.env.create_guild("Other table")
    channel = other.create_text_channel("game")
    bob = other.add_member(world.bob.user)
    done = await bob.slash(channel, "character import", file=("Jaime.json", raw))
    assert done.response.ephemeral
    assert "Imported 1 character into" in done.response.content and "Jaime" in done.response.content
    embed = embed_of(await bob.slash(channel, "character show", name="Jaime"))
    assert field(embed, "Skills") == "Long swords **5**"


async def test_rejected_import_lists_every_problem_and_writes_nothing(world):
    document = {
        "format": "wire-bot",
        "version": 1,
        "kind": "campaign",
        "characters": [
            {"name": "Good"},
            {"name": "x" * 65, "skills": {"Parry": 11}, "skils": {}},
        ],
    }
    raw = json.dumps(document).encode()
    result = await world.bob.slash(world.channel, "character import", file=("bad.json", raw))
    text = result.response.content
    assert result.response.ephemeral
    assert "nothing was written" in text
    assert "characters[1].name" in text or "name" in text
    assert "64" in text and "Parry" in text and "skils" in text
    listing = embed_of(await world.bob.slash(world.channel, "character list"))
    assert listing["description"] == "None yet: /character create"

    # The store reports the same problems as a list, one entry each.
    try:
        await world.bot.store.import_data(
            world.guild.id, (await _default_campaign_id(world)), world.bob.id, raw
        )
    except ImportRejected as error:
        assert len(error.problems) == 3, error.problems
    else:
        raise AssertionError("the import was accepted")


async def _default_campaign_id(world) -> int:
    campaign = await world.bot.store.campaign_for_channel(
        world.guild.id, world.channel.id, world.alice.id
    )
    return campaign.id


async def test_show_autocomplete_lists_characters_within_limits(world):
    for index in range(30):
        await world.bob.slash(world.channel, "character create", name=f"Hero {index:02d}")
    choices = await world.carol.autocomplete(world.channel, "character show", "name", "")
    assert len(choices) == 25
    assert autocomplete_problems(choices) == []
    assert all(c["value"].startswith("Hero ") for c in choices)
    narrowed = await world.carol.autocomplete(world.channel, "character show", "name", "hero 2")
    assert sorted(c["value"] for c in narrowed) == [f"Hero {i}" for i in range(20, 30)]


async def test_check_autocomplete_lists_sheet_attributes_with_values(world):
    await world.bob.slash(world.channel, "character create", name="Jaime")
    for index in range(20):
        await world.bob.slash(
            world.channel, "character set", attribute=f"Attribute {index:02d}", value=index
        )
    choices = await world.bob.autocomplete(world.channel, "check", "attr_name", "")
    # The sheet's 20 first, with values; then the campaign's names (WIRE's) it does not have.
    assert len(choices) == 24
    assert autocomplete_problems(choices) == []
    assert {"name": "Attribute 07 (7)", "value": "Attribute 07"} in choices[:20]
    assert [c["name"] for c in choices[20:]] == list(WIRE_ATTRIBUTES)
    typed = await world.bob.autocomplete(world.channel, "check", "attr_name", "ute 1")
    assert sorted(c["value"] for c in typed) == [f"Attribute {i}" for i in range(10, 20)]
    nobody = await world.carol.autocomplete(world.channel, "check", "attr_name", "")
    assert [c["value"] for c in nobody] == list(WIRE_ATTRIBUTES)
