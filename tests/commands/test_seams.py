"""Where features meet (issue 20): a German sheet in a fight, Roll again in a fight, an import
into a campaign that has a player's sheet, weapons on stats a sheet lacks, and what players and
the GM each see of an NPC's rolls."""

from __future__ import annotations

import json
from pathlib import Path

from cogs.sheet_edit import TEXT_ID
from tests.commands.conftest import embed_of, field
from tests.commands.test_combat import make_goblin, make_jaime
from tests.commands.test_fights import fight_table, tracker

EXAMPLE_CAMPAIGN = Path(__file__).resolve().parents[2] / "data" / "example-campaign.json"
GERMAN_SHEET = "Stärke 2, Reaktion 3, Konstitution 2; Äxte 4, Blocken 4"


def labels(message) -> list[str]:
    """The button labels of a message (components as Discord's JSON)."""
    return [child.get("label") for row in message.components for child in row.get("components", [])]


async def sheet_of(world, name: str):
    [campaign] = await world.bot.store.list_campaigns(world.guild.id)
    return await world.bot.store.get_character(world.guild.id, campaign.id, name)


async def test_a_german_sheet_defends_and_heals_with_its_german_names(world, client_languages):
    """The issue's sheet, from the German option's own example: accepted, and a Block defence
    reads Stärke and Blocken (it rolled 0 + 0 before); HP counts Konstitution."""
    client_languages.set(world.bob, "de")
    made = await world.bob.slash(
        world.channel, "character create", name="Jorun", sheet=GERMAN_SHEET, shield=True
    )
    assert not made.response.ephemeral, made.response.content
    jorun = await sheet_of(world, "Jorun")
    assert jorun.attributes == {"Stärke": 2, "Reaktion": 3, "Konstitution": 2}
    assert jorun.health_maxima()[0] == 22  # 20 + Konstitution 2 + Entschlossenheit 0
    # The German example itself is no typo of the English names any more.
    example = await world.bob.slash(
        world.channel,
        "character create",
        name="Beispiel",
        sheet="Stärke 3, Reaktion 2; Langschwerter 5, Parieren 3",
    )
    assert not example.response.ephemeral, example.response.content
    await make_goblin(world)
    attack = await world.alice.slash(
        world.channel, "attack", str=1, skill=2, base=5, target="Jorun", npc="Goblin", roll=15
    )
    world.dice.push(10)  # Jorun's block: 10 + Stärke 2 + Blocken 4 = 16 against 18
    block = next(label for label in labels(attack.response) if label in ("Block", "Blocken"))
    settled = await world.bob.click(attack.response, label=block)
    embed = settled.response.embeds[0].to_dict()
    side = next(f["value"] for f in embed["fields"] if f["name"].startswith("Jorun"))
    assert "2 Stärke" in side and "4 Blocken" in side, side
    assert "nicht auf dem Bogen" not in json.dumps(embed, ensure_ascii=False)


async def test_a_stat_the_sheet_lacks_counts_0_and_the_reply_says_so(world):
    """One rule for attributes and skills: a missing attribute was refused while a missing
    skill counted 0 in silence; both count 0 now, and the note names them."""
    await make_jaime(world)
    world.dice.push(12)
    reply = await world.bob.slash(
        world.channel, "check", attr_name="Reaction", skill_name="Climbing", vs=10
    )
    embed = embed_of(reply)
    note = field(embed, "Not on the sheet")
    assert "Reaction is not on Jaime's sheet, so it counts 0." in note
    assert "Climbing is not on Jaime's sheet, so it counts 0." in note
    assert field(embed, "Total") == "**12** vs TN 10"


async def test_a_german_stat_is_found_by_its_english_name(world):
    """An English check names Reaction; the German sheet has Reaktion: the same attribute."""
    await world.bob.slash(world.channel, "character create", name="Jorun", sheet=GERMAN_SHEET)
    world.dice.push(10)
    embed = embed_of(
        await world.bob.slash(world.channel, "check", attr_name="Reaction", skill=1, vs=10)
    )
    assert field(embed, "Modifiers") == "Reaktion +3, Skill +1"
    assert "Not on the sheet" not in [f["name"] for f in embed["fields"]]


async def test_roll_again_is_no_free_attack_in_a_fight(world):
    await fight_table(world)
    await world.alice.slash(world.channel, "fight next")  # Ser Carol's turn
    await world.carol.slash(world.channel, "fight next")  # Jaime's
    world.dice.push(15)
    attack = await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Goblin 1")
    assert field(embed_of(attack), "Health") == "Goblin 1 is wounded."
    assert "Roll again" not in labels(attack.response)
    # An attack outside the fight's combatants changes nothing: it keeps its button.
    world.dice.push(15)
    plain = await world.bob.slash(world.channel, "attack", weapon="Long sword", vs=13)
    assert "Roll again" in labels(plain.response)


async def test_a_crafting_roll_has_no_roll_again(world):
    await make_jaime(world)
    await world.bob.slash(world.channel, "craft start", item="Rope", quality=0)
    roll = await world.bob.slash(world.channel, "craft roll", item="Rope", attr=1, skill=1, vs=5)
    assert "Roll again" not in labels(roll.response)


async def test_import_leaves_a_players_sheet_alone_until_the_gm_confirms(world):
    """The README's steps: Bob makes Jaime, the GM imports the example campaign (it has a
    Jaime). Without replace the rest comes in and Jaime is named as left out; with replace
    the GM is asked first, naming Bob; on the press Jaime is replaced and Bob is told."""
    bob, alice, channel = world.bob, world.alice, world.channel
    await bob.slash(channel, "character create", name="Jaime", notes="my own Jaime")
    await bob.slash(channel, "character set", skill="Climbing", value=2)
    raw = EXAMPLE_CAMPAIGN.read_bytes()
    first = await alice.slash(channel, "character import", file=("campaign.json", raw))
    text = first.response.content
    assert "Imported 2 characters into" in text and "Goblin" in text
    assert f"Left out, already in the campaign and kept as they are: **Jaime** (<@{bob.id}>)" in (
        text
    )
    assert "`replace:true` (you are asked before another player's sheet is replaced)" in text
    assert (await sheet_of(world, "Jaime")).notes == "my own Jaime"

    asked = await alice.slash(channel, "character import", file=("c.json", raw), replace=True)
    question = asked.response.content
    assert f"replace other players' sheets: **Jaime** (<@{bob.id}>)" in question
    assert (await sheet_of(world, "Jaime")).notes == "my own Jaime"  # nothing yet
    done = await alice.click(asked.response, label="Replace")
    assert f"Replaced: **Jaime** (<@{bob.id}>), **Goblin**, **Goblin guard**." in (
        done.response.content
    )
    jaime = await sheet_of(world, "Jaime")
    assert jaime.owner_id == bob.id and jaime.notes != "my own Jaime"
    told = world.channel.history()[-1]
    assert told.content.startswith(f"<@{alice.id}> replaced these sheets with an import: ")
    assert f"**Jaime** (<@{bob.id}>)" in told.content


async def test_a_player_import_never_replaces_another_players_sheet(world):
    await world.carol.slash(world.channel, "character create", name="Jaime")
    doc = {"format": "wire-bot", "version": 1, "kind": "character", "character": {"name": "Jaime"}}
    raw = json.dumps(doc).encode()
    reply = await world.bob.slash(
        world.channel, "character import", file=("j.json", raw), replace=True
    )
    assert "Nothing was imported into" in reply.response.content
    assert "only a GM can replace another player's" in reply.response.content
    assert (await sheet_of(world, "Jaime")).owner_id == world.carol.id


async def test_a_weapon_on_a_stat_the_sheet_lacks_is_warned_and_shown(world):
    await make_goblin(world)
    armed = await world.alice.slash(
        world.channel,
        "character weapon",
        name="Goblin",
        weapon="Knife",
        base=3,
        attribute="Strength",
        skill="Short blades",
    )
    text = armed.response.content
    assert "Goblin wields **Knife**" in text
    assert "⚠ Goblin has no Short blades, which Knife is wielded with" in text
    sheet = embed_of(await world.alice.slash(world.channel, "character show", name="Goblin"))
    assert "⚠ not on the sheet: Short blades (counts 0)" in field(sheet, "Weapons")
    removed = await world.alice.slash(
        world.channel, "character remove", name="Goblin", attribute="Strength"
    )
    assert "⚠ Goblin has no Strength, which Knife is wielded with" in removed.response.content
    assert "Short blades, which" not in removed.response.content  # said already


async def test_a_hidden_npc_roll_does_not_name_the_npc(world):
    await make_goblin(world)
    hidden = await world.alice.slash(
        world.channel, "check", npc="Goblin", attr=1, skill=1, vs=10, private=True
    )
    notice = hidden.followups[0].content
    assert notice == "🎲 A GM made a hidden check."
    assert "Goblin" not in world.channel.history()[-1].content


async def test_players_are_offered_only_the_npcs_in_play(world):
    await make_jaime(world)
    await make_goblin(world)
    await world.alice.slash(world.channel, "character create", name="Goblin archer", npc=True)
    offered = await world.bob.autocomplete(world.channel, "attack", "target", "")
    assert [c["value"] for c in offered] == ["Jaime"]
    gm_sees = await world.alice.autocomplete(world.channel, "attack", "target", "")
    assert "Goblin archer" in [c["value"] for c in gm_sees]
    await world.alice.slash(world.channel, "check", npc="Goblin", attr=1, skill=1, vs=10)
    await world.alice.slash(
        world.channel, "check", npc="Goblin archer", attr=1, skill=1, vs=10, private=True
    )
    offered = await world.bob.autocomplete(world.channel, "attack", "target", "")
    assert [c["value"] for c in offered] == ["Jaime", "Goblin"]
    opponents = await world.bob.autocomplete(world.channel, "contest", "opponent", "")
    assert "Goblin archer" not in [c["value"] for c in opponents]


async def test_the_gm_gets_an_npcs_whole_roll_privately(world):
    await make_goblin(world)
    reply = await world.alice.slash(
        world.channel,
        "check",
        npc="Goblin",
        attr_name="Strength",
        skill_name="Stealth",
        vs=12,
        take10=True,
    )
    table = embed_of(reply)
    assert [f["name"] for f in table["fields"]] == ["Total"]  # the table: the total only
    assert "not on the sheet" not in json.dumps(table)
    [whole] = reply.followups
    assert whole.flags.ephemeral and whole.content == "The whole roll, for you only:"
    gm = whole.embeds[0].to_dict()
    assert field(gm, "Die") == "take 10"
    assert field(gm, "Modifiers") == "Strength +1, Stealth (not on the sheet) +0"
    assert "Stealth is not on Goblin's sheet, so it counts 0." in field(gm, "Not on the sheet")


async def test_fight_show_private_posts_nothing(world):
    await fight_table(world)
    before = tracker(world).id
    count = len(world.channel.history())
    look = await world.alice.slash(world.channel, "fight show", private=True)
    assert look.response.ephemeral
    assert "HP 21/21" in look.response.embeds[0].description  # the GM's numbers
    assert len(world.channel.history()) == count and tracker(world).id == before
    player = await world.bob.slash(world.channel, "fight show", private=True)
    assert player.response.ephemeral and "HP 21/21" not in player.response.embeds[0].description


async def test_an_older_roll_again_is_refused_once_its_target_is_in_a_fight(world):
    """A button posted before the fight: pressed once the goblin fights, it would apply its
    damage there, so it is refused and the goblin keeps its health."""
    await make_jaime(world)
    await make_goblin(world)
    world.dice.push(15)
    before = await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Goblin")
    assert "Roll again" in labels(before.response)
    await world.alice.slash(world.channel, "fight start", name="Ambush")
    await world.alice.slash(world.channel, "fight add", npc="Goblin", initiative=5)
    world.dice.push(20)
    pressed = await world.bob.click(before.response, label="Roll again")
    assert pressed.response.ephemeral
    assert "Roll again does not repeat an attack in a fight" in pressed.response.content
    assert "**Goblin** · unhurt" in tracker(world).embeds[0].description


async def test_attribute_autocomplete_speaks_the_readers_language(world, client_languages):
    """WIRE's attributes are offered in the reader's language, and never twice: a German
    reader of an English sheet sees its Strength, not Stärke besides."""
    await make_jaime(world)  # Strength 3
    client_languages.set(world.bob, "de")
    offered = await world.bob.autocomplete(world.channel, "check", "attr_name", "")
    assert [c["value"] for c in offered] == ["Strength", "Konstitution", "Reaktion",
                                             "Entschlossenheit"]  # fmt: skip


async def test_an_edit_that_drops_a_weapons_stat_warns(world, client_languages):
    """The issue's case: an Edit removes Stärke while the axe is wielded with it."""
    client_languages.set(world.bob, "de")
    made = await world.bob.slash(
        world.channel, "character create", name="Jorun", sheet=GERMAN_SHEET, shield=True
    )
    await world.bob.slash(
        world.channel, "character weapon", weapon="Axt", base=4, attribute="Stärke", skill="Äxte"
    )
    shown = await world.bob.click(made.response, label="Bearbeiten")
    done = await world.bob.submit_modal(
        shown, {TEXT_ID: "Reaktion 3, Konstitution 2; Äxte 4, Blocken 4"}
    )
    said = done.followups[0].content
    assert said.startswith("Bogen von Jorun gespeichert: ") and "entfernt Stärke" in said, said
    assert "⚠ Stärke steht nicht auf dem Bogen von Jorun, aber Axt wird damit geführt" in said


async def test_a_german_campaign_reads_english_sheets(world):
    """A campaign fixed to Deutsch (its replies and buttons German): a sheet an English player
    wrote still defends with its Strength and Parry."""
    await world.alice.slash(world.channel, "campaign settings", language="de")
    await make_jaime(world)  # Strength 3, Long swords 5: English names
    await world.bob.slash(world.channel, "character set", skill="Parry", value=3)
    await make_goblin(world)
    attack = await world.alice.slash(
        world.channel, "attack", str=1, skill=2, base=5, target="Jaime", npc="Goblin", roll=15
    )
    world.dice.push(10)
    parry = next(label for label in labels(attack.response) if label in ("Parry", "Parieren"))
    settled = await world.bob.click(attack.response, label=parry)
    side = next(
        f["value"] for f in settled.response.embeds[0].to_dict()["fields"] if "Jaime" in f["name"]
    )
    assert "3 Strength" in side and "3 Parry" in side, side
