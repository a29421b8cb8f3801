"""Conditions on a character outside a fight, through the simulated Discord: a GM puts
"Blessed +1 to attacks" on Jaime or "Prone -2 to all defences" on Ser Carol, and every roll
they make or are rolled against outside a fight counts it; it comes along into a fight.
(WIRE defines no conditions: these are a table's own, as examples.)"""

from __future__ import annotations

import json

from tests.commands.conftest import embed_of, field, offered
from tests.commands.test_combat import make_goblin, make_jaime, make_ser_carol
from tests.commands.test_fights import line_of


async def put(world, user, **options):
    return await user.slash(world.channel, "condition add", **options)


async def table(world) -> None:
    await make_jaime(world)
    await make_ser_carol(world)
    await make_goblin(world)


async def test_a_blessed_attack_names_the_condition_and_counts_it(world):
    await table(world)
    said = await put(world, world.alice, character="Jaime", name="Blessed", modifier=1,
                     applies_to="attack")  # fmt: skip
    assert (
        said.response.content == "**Jaime**: Blessed +1 attacks, until removed (/condition remove)."
    )
    world.dice.push(10)  # 10 + 3 + 5 + 1 = 19
    attack = embed_of(await world.bob.slash(world.channel, "attack", weapon="Long sword", vs=13))
    assert field(attack, "Modifiers") == "Strength +3, Long swords +5, Blessed +1"
    assert field(attack, "Total") == "**19** vs defence 13"
    world.dice.push(10)  # attacks only: a check is untouched
    check = embed_of(await world.bob.slash(world.channel, "check", vs=10, attr=1, skill=1))
    assert "Blessed" not in field(check, "Modifiers")
    history = embed_of(await world.bob.slash(world.channel, "history"))["description"]
    assert "19 vs 13" in history  # the log keeps the modified total
    gone = await world.alice.slash(world.channel, "condition remove", character="Jaime",
                                   name="blessed")  # fmt: skip
    assert gone.response.content == "Blessed on Jaime has ended."
    world.dice.push(10)
    plain = embed_of(await world.bob.slash(world.channel, "attack", weapon="Long sword", vs=13))
    assert field(plain, "Total") == "**18** vs defence 13"


async def test_a_prone_defender_outside_a_fight_parries_worse(world):
    await table(world)
    await put(world, world.alice, character="Ser Carol", name="Prone", modifier=-2,
              applies_to="defence")  # fmt: skip
    world.dice.push(15)
    attack = await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Ser Carol")
    world.dice.push(5)  # 5 + 2 + 3 - 2 = 8
    done = embed_of(await world.carol.click(attack.response, label="Parry"))
    parry = field(done, "Ser Carol: Parry")
    assert "Prone" in parry and "= 8" in parry
    world.dice.push(10)  # /defend from the sheet counts it too: 10 + 2 + 4 - 2 = 14
    defended = embed_of(await world.carol.slash(world.channel, "defend", vs=15, base=5,
                                                defence="block"))  # fmt: skip
    assert "Prone -2" in field(defended, "Modifiers")


async def test_a_prone_npc_outside_a_fight_defends_worse_and_its_odds_say_so(world):
    await table(world)
    await put(world, world.alice, character="Goblin", name="Prone", modifier=-2,
              applies_to="parry", hidden=True)  # fmt: skip
    world.dice.push(9)  # Jaime 17 against the goblin's take 10 + 1 + 2 - 2 = 11 (or dodge 10)
    embed = embed_of(
        await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Goblin")
    )
    assert field(embed, "Total") == "**17** vs defence 11"
    panel = await world.alice.slash(world.channel, "panel", npc="Goblin")
    odds = (await world.alice.click(panel.response, label="Defence odds")).response.content
    lines = odds.splitlines()
    parry = next(line for line in lines if line.startswith("Parry"))
    assert parry.startswith("Parry (d20 +1)")
    assert lines[lines.index(parry) + 1].startswith("  with hidden condition -2; without: d20 +3")


async def test_checks_contests_crafting_and_odds_count_it(world):
    await table(world)
    await put(world, world.alice, character="Jaime", name="Weakened", modifier=-3,
              applies_to="check", stat="Strength")  # fmt: skip
    world.dice.push(10)
    check = embed_of(await world.bob.slash(world.channel, "check", vs=10, attr_name="Strength",
                                           skill=0))  # fmt: skip
    assert "Weakened -3" in field(check, "Modifiers")
    world.dice.push(10, 10)
    contest = embed_of(await world.bob.slash(world.channel, "contest", attr_name="Strength",
                                             skill=0, opp_attr=1, opp_skill=0))  # fmt: skip
    assert "3 Weakened" in field(contest, "Jaime")
    await world.bob.slash(world.channel, "craft start", item="Sword")
    world.dice.push(10)
    crafted = embed_of(await world.bob.slash(world.channel, "craft roll", item="Sword", vs=15,
                                             attr_name="Strength", skill=4))  # fmt: skip
    assert "Weakened -3" in str(crafted)
    odds = await world.bob.slash(world.channel, "odds check", attr_name="Strength", skill=0,
                                 vs=10)  # fmt: skip
    assert "Weakened" in str(embed_of(odds))
    world.dice.push(10)  # a check of another stat is untouched
    other = embed_of(await world.bob.slash(world.channel, "check", vs=10, attr=1, skill=1))
    assert "Weakened" not in str(other)


async def test_a_saved_roll_and_the_panel_count_it(world):
    await table(world)
    bob, channel = world.bob, world.channel
    await bob.slash(channel, "check", attr_name="Strength", skill_name="Long swords", vs=15)
    await bob.slash(channel, "save", name="swing")
    await put(world, world.alice, character="Jaime", name="Cursed", modifier=-1)
    world.dice.push(10)
    again = embed_of(await bob.slash(channel, "r", name="swing"))
    assert field(again, "Total") == "**17** vs TN 15"  # 10 + 3 + 5 - 1
    assert "Cursed -1" in field(again, "Modifiers")
    panel = await bob.slash(channel, "panel")
    odds = (await bob.click(panel.response, label="Defence odds")).response.content
    assert "with Cursed -1; without:" in odds


async def test_who_may_put_one_on_and_the_table_setting(world):
    await table(world)
    alice, bob, carol, channel = world.alice, world.bob, world.carol, world.channel
    own = await put(world, bob, character="Jaime", name="Focused", modifier=1)
    assert own.response.ephemeral and "Only a GM" in own.response.content
    assert "players_conditions:true" in own.response.content
    settings = await alice.slash(channel, "campaign settings", players_conditions=True)
    assert "players on their own" in settings.response.content
    own = await put(world, bob, character="Jaime", name="Focused", modifier=1)
    assert own.response.content.startswith("**Jaime**: Focused +1 all rolls")
    theirs = await put(world, carol, character="Jaime", name="Hexed", modifier=-2)
    assert theirs.response.ephemeral and "Only Jaime's player or a GM" in theirs.response.content
    npc = await put(world, bob, character="Goblin", name="Hexed", modifier=-2)
    assert npc.response.ephemeral and "Only a GM" in npc.response.content
    hide = await put(world, bob, character="Jaime", name="Secret", hidden=True)
    assert hide.response.ephemeral and "Only a GM" in hide.response.content
    removed = await carol.slash(channel, "condition remove", character="Jaime", name="Focused")
    assert removed.response.ephemeral and "Only Jaime's player" in removed.response.content


async def test_limits_are_refused_with_what_to_do(world):
    await table(world)
    alice = world.alice
    long = await put(world, alice, character="Jaime", name="x" * 41)
    assert long.response.ephemeral and "at most 40 characters" in long.response.content
    inert = await put(world, alice, character="Jaime", name="**Loud**", modifier=-1)
    assert inert.response.content.startswith("**Jaime**: \\*\\*Loud\\*\\* -1")
    for number in range(9):
        await put(world, alice, character="Jaime", name=f"Mark {number}")
    full = await put(world, alice, character="Jaime", name="One more")
    assert full.response.ephemeral and "Jaime has 10 conditions, the limit" in full.response.content
    missing = await alice.slash(world.channel, "condition remove", character="Jaime", name="Nope")
    assert missing.response.ephemeral and "Jaime has no condition Nope" in missing.response.content


async def test_the_sheet_shows_them_and_hidden_ones_for_gms_only(world):
    await table(world)
    await put(world, world.alice, character="Jaime", name="Blessed", modifier=1,
              applies_to="attack", rounds=2)  # fmt: skip
    await put(world, world.alice, character="Jaime", name="Watched", hidden=True)
    shown = embed_of(await world.carol.slash(world.channel, "character show", name="Jaime"))
    assert field(shown, "Conditions") == "Blessed +1 attacks (2)"
    await put(world, world.alice, character="Goblin", name="Sly", modifier=1, hidden=True)
    gm = embed_of(await world.alice.slash(world.channel, "character show", name="Goblin"))
    assert field(gm, "Conditions") == "Sly +1 all rolls (hidden)"


async def test_they_come_into_a_fight_and_rounds_end_with_it(world):
    await table(world)
    alice, bob, channel = world.alice, world.bob, world.channel
    said = await put(world, alice, character="Jaime", name="Blessed", modifier=1,
                     applies_to="attack", rounds=3)  # fmt: skip
    assert "for 3 rounds once in a fight (it ends with the fight)" in said.response.content
    await put(world, alice, character="Jaime", name="Limping", modifier=-1, applies_to="dodge")
    await alice.slash(channel, "fight start", name="Ambush")
    world.dice.push(15)
    await bob.slash(channel, "fight join")
    assert "Blessed +1 attacks (3)" in line_of(world, "Jaime")
    assert "Limping -1 Dodge" in line_of(world, "Jaime")
    await alice.slash(channel, "fight next")  # Jaime's turn
    await bob.slash(channel, "fight next")  # it ends: Blessed counts down
    assert "Blessed +1 attacks (2)" in line_of(world, "Jaime")
    late = await put(world, alice, character="Jaime", name="Inspired", modifier=2,
                     applies_to="check")  # fmt: skip
    assert late.response.content.startswith("**Jaime**: Inspired +2 checks")
    assert "Inspired +2 checks" in line_of(world, "Jaime")  # put on while fighting: there too
    await alice.slash(channel, "fight end")
    sheet = embed_of(await bob.slash(channel, "character show"))
    assert "Blessed" not in field(sheet, "Conditions")  # rounds end with the fight
    assert "Limping -1 Dodge" in field(sheet, "Conditions")  # until removed: stays


async def test_a_cure_in_the_fight_takes_it_off_the_sheet(world):
    await table(world)
    alice, bob, channel = world.alice, world.bob, world.channel
    await put(world, alice, character="Jaime", name="Poisoned", modifier=-1)
    await alice.slash(channel, "fight start", name="Ambush")
    world.dice.push(15)
    await bob.slash(channel, "fight join")
    await alice.slash(channel, "fight cure", combatant="Jaime", name="Poisoned")
    await alice.slash(channel, "fight end")
    sheet = embed_of(await bob.slash(channel, "character show"))
    assert "Conditions" not in str(sheet)


async def test_german(world, client_languages):
    await table(world)
    client_languages.set(world.alice, "de")
    said = await put(world, world.alice, character="Jaime", name="Gesegnet", modifier=1,
                     applies_to="attack", rounds=2)  # fmt: skip
    assert said.response.content == (
        "**Jaime**: Gesegnet +1 Angriffe, für 2 Runden, sobald im Kampf (endet mit dem Kampf)."
    )
    client_languages.set(world.bob, "de")
    refused = await put(world, world.bob, character="Jaime", name="Fokus")
    assert refused.response.content.startswith("Nur ein Chronist")
    assert "spieler_zustände:true" in refused.response.content


async def test_the_pings_buttons_count_a_sheets_condition_carried_into_the_fight(world):
    await make_jaime(world)
    await make_ser_carol(world)
    await make_goblin(world)
    alice, bob, channel = world.alice, world.bob, world.channel
    await put(world, alice, character="Jaime", name="Blessed", modifier=1, applies_to="attack")
    await alice.slash(channel, "fight start", name="Ambush")
    world.dice.push(15)
    await bob.slash(channel, "fight join")
    world.dice.push(12)
    await alice.slash(channel, "fight add", npc="Goblin", count=1)
    ping = (await alice.slash(channel, "fight next")).response  # Jaime's turn: Bob is pinged
    assert ping.content.startswith("Round 1: **Jaime** (<@")
    asked = await bob.click(ping, label="⚔️ Long sword")
    world.dice.push(10, 3)  # 10 + 3 + 5 + 1 = 19
    hit = embed_of(await bob.select(asked.response, ["Goblin"]))
    assert field(hit, "Modifiers") == "Strength +3, Long swords +5, Blessed +1"


async def test_remove_offers_the_sheets_conditions_hidden_ones_to_gms(world):
    await table(world)
    alice, bob, channel = world.alice, world.bob, world.channel
    await put(world, alice, character="Jaime", name="Blessed", modifier=1, applies_to="attack",
              rounds=2)  # fmt: skip
    await put(world, alice, character="Jaime", name="Watched", hidden=True)
    await put(world, alice, character="Jaime", name="Weakened", modifier=-3, applies_to="check",
              stat="Strength")  # fmt: skip
    await put(world, alice, character="Goblin", name="Sly", modifier=1)

    def names(user, typed="", **options):
        return offered(user, channel, "condition remove", "name", typed, **options)

    assert await names(bob, character="Jaime") == [
        ("Blessed +1 attacks (2)", "Blessed"),
        ("Weakened -3 checks of Strength", "Weakened"),
    ]
    assert await names(alice, character="jaime") == [
        ("Blessed +1 attacks (2)", "Blessed"),
        ("Watched (hidden)", "Watched"),
        ("Weakened -3 checks of Strength", "Weakened"),
    ]
    assert await names(alice, "WEA", character="Jaime") == [
        ("Weakened -3 checks of Strength", "Weakened")
    ]
    assert await names(bob, character="Goblin") == []  # an NPC's sheet is the GMs' eyes only
    assert await names(alice, character="Goblin") == [("Sly +1 all rolls", "Sly")]
    assert await names(alice, character="Nobody") == []


async def test_they_go_with_an_export_to_another_server_and_count_there(world):
    await table(world)
    alice, bob, channel = world.alice, world.bob, world.channel
    await put(world, alice, character="Jaime", name="Blessed", modifier=1, applies_to="attack")
    await put(world, alice, character="Jaime", name="Watched", hidden=True)
    await put(world, alice, character="Goblin", name="Sly", modifier=1, hidden=True)
    exported = await bob.slash(channel, "character export")
    raw = await exported.response.attachments[0].read()
    assert "Watched" not in raw.decode()  # the GM's secret stays out of the player's file
    assert [c["name"] for c in json.loads(raw)["character"]["conditions"]] == ["Blessed"]
    npc = await alice.slash(channel, "character export", name="Goblin")
    npc_file = json.loads(await npc.response.attachments[0].read())
    assert npc_file["character"]["conditions"] == [
        {"name": "Sly", "modifier": 1, "applies_to": "all", "hidden": True}
    ]

    dora = world.env.create_user("dora")
    other = world.env.create_guild("Other table", owner=dora)
    there = other.create_text_channel("game")
    dora_there = other.add_member(dora)
    bob_there = other.add_member(bob.user)
    refused = await bob_there.slash(there, "character import", file=("Jaime.json", raw))
    assert refused.response.ephemeral
    assert (
        "Only a GM of Default can change the conditions on Jaime with an import (take them "
        "out of the file, or a GM lets players" in refused.response.content
    )
    await dora_there.slash(there, "campaign settings", players_conditions=True)
    done = await bob_there.slash(there, "character import", file=("Jaime.json", raw))
    assert "Imported 1 character into" in done.response.content, done.response.content
    world.dice.push(10)  # 10 + 3 + 5 + 1 = 19
    attack = embed_of(await bob_there.slash(there, "attack", weapon="Long sword", vs=13))
    assert field(attack, "Modifiers") == "Strength +3, Long swords +5, Blessed +1"
    again = await bob_there.slash(there, "character import", file=("Jaime.json", raw),
                                  replace=True)  # fmt: skip
    assert "Imported 1 character into" in again.response.content, again.response.content
    sheet = embed_of(await bob_there.slash(there, "character show", name="Jaime"))
    assert field(sheet, "Conditions") == "Blessed +1 attacks"  # once, not twice


async def test_a_bad_condition_in_the_file_is_named_with_its_path(world):
    document = {
        "format": "wire-bot",
        "version": 5,
        "kind": "character",
        "character": {"name": "Jaime", "conditions": [{"name": "Blessed", "modifier": 11}]},
    }
    raw = json.dumps(document).encode()
    result = await world.bob.slash(world.channel, "character import", file=("bad.json", raw))
    assert result.response.ephemeral and "nothing was written" in result.response.content
    assert "character.conditions\\[0].modifier: 11 is above the maximum 10" in (
        result.response.content
    )


async def test_a_players_file_of_conditions_and_hidden_ones_is_refused_in_german(
    world, client_languages
):
    client_languages.set(world.bob, "de")
    sheet = {"name": "Jaime", "conditions": [{"name": "Gesegnet", "modifier": 1}]}
    document = {"format": "wire-bot", "version": 5, "kind": "character", "character": sheet}
    refused = await world.bob.slash(world.channel, "character import",
                                    file=("jaime.json", json.dumps(document).encode()))  # fmt: skip
    assert refused.response.ephemeral
    assert (
        "kann die Zustände von Jaime per Import ändern (nimm sie aus der Datei, oder ein "
        "Chronist erlaubt es Spielern" in refused.response.content
    )
    sheet["conditions"][0]["hidden"] = True
    hidden = await world.bob.slash(world.channel, "character import",
                                   file=("jaime.json", json.dumps(document).encode()))  # fmt: skip
    assert "kann verdeckte Zustände importieren (Jaime)" in hidden.response.content
    listing = embed_of(await world.bob.slash(world.channel, "character list"))
    assert "Jaime" not in listing["description"]  # nothing written
