"""Quick play through the simulated Discord: saved rolls, the panel, the turn ping's taps."""

from __future__ import annotations

from cogs.sheet_edit import TEXT_ID
from cogs.utils.save_button import NAME_INPUT
from tests.commands.conftest import embed_of, field
from tests.commands.test_combat import make_goblin, make_jaime, make_ser_carol
from tests.commands.test_fights import any_attacks, fight_table


async def test_save_and_reroll_from_the_sheet_as_it_is_now(world):
    await make_jaime(world)
    bob, channel = world.bob, world.channel
    world.dice.push(10)
    first = await bob.slash(channel, "check", attr_name="Strength", skill_name="Long swords", vs=15)
    assert field(embed_of(first), "Total") == "**18** vs TN 15"
    refused = await world.carol.click(first.response, label="Save")
    assert refused.response.ephemeral and "Only <@" in refused.response.content
    assert refused.modal is None
    form = await bob.click(first.response, label="Save")
    assert name_input(form)["value"] == "check Strength Long swords"  # the suggested name
    saved = await bob.submit_modal(form, {NAME_INPUT: "check Strength Long swords"})
    assert saved.response.ephemeral
    assert "**check Strength Long swords**" in saved.response.content
    named = await bob.slash(channel, "save", name="swing")
    assert "**swing**" in named.response.content
    await bob.slash(channel, "character set", attribute="Strength", value=5)
    world.dice.push(10)
    again = await bob.slash(channel, "r", name="swing", mod=2)
    assert field(embed_of(again), "Total") == "**22** vs TN 15"  # 10 + 5 (now) + 5 + 2
    listed = await bob.slash(channel, "save")
    assert "**swing**" in listed.response.content
    await bob.slash(channel, "save", name="swing", rename="Hieb")
    gone = await bob.slash(channel, "r", name="swing")
    assert gone.response.ephemeral and "No saved roll named" in gone.response.content
    await bob.slash(channel, "save", name="Hieb", delete=True)
    listed = await bob.slash(channel, "save")
    assert "**Hieb**" not in listed.response.content


def name_input(shown) -> dict:
    """The name box of the Save button's form (in its label, as Discord shows it)."""
    assert shown.modal is not None, "the press opened no form"
    [label] = shown.modal["components"]
    assert label["type"] == 18 and label["label"] == "Name"
    box = label["component"]
    assert box["custom_id"] == NAME_INPUT and box["min_length"] == 1 and box["max_length"] == 64
    return box


async def test_the_save_form_names_the_roll_and_refuses_a_clash_or_the_limit(world):
    await make_jaime(world)
    bob, channel = world.bob, world.channel
    first = await bob.slash(channel, "check", attr_name="Strength", skill_name="Long swords", vs=15)
    form = await bob.click(first.response, label="Save")
    assert form.modal["title"] == "Save a roll of Jaime"
    await world.restart()  # the form carries all it needs: a submit after a restart still saves
    saved = await bob.submit_modal(form, {NAME_INPUT: "  *climb*  "})
    assert saved.response.content.startswith("Saved for Jaime as **\\*climb\\***")
    again = await bob.click(first.response, label="Save")
    blank = await bob.submit_modal(again, {NAME_INPUT: "   "})  # checked as /save name: is
    assert blank.response.ephemeral and blank.response.content.startswith("Name: "), blank
    again = await bob.click(first.response, label="Save")
    clash = await bob.submit_modal(again, {NAME_INPUT: "*CLIMB*"})
    assert clash.response.ephemeral
    assert "Jaime already has a saved roll named" in clash.response.content
    assert "Press Save again and pick another name" in clash.response.content
    for number in range(24):
        await bob.slash(channel, "save", name=f"roll {number}")
    again = await bob.click(first.response, label="Save")
    full = await bob.submit_modal(again, {NAME_INPUT: "one more"})
    assert full.response.ephemeral and "25 saved rolls, the most" in full.response.content
    listed = await bob.slash(channel, "save")
    assert "one more" not in listed.response.content


async def test_the_panel_attacks_with_a_target_select_in_a_running_fight(world):
    await fight_table(world)
    await any_attacks(world)
    bob, channel = world.bob, world.channel
    panel = await bob.slash(channel, "panel")
    assert panel.response.ephemeral
    asked = await bob.click(panel.response, label="⚔️ Long sword")
    assert asked.response.ephemeral
    world.dice.push(15, 3)
    hit = await bob.select(asked.response, ["Goblin 2"])
    assert "Goblin 2" in str(embed_of(hit))
    assert embed_of(hit)["description"].startswith("**Hit: 5 DoS, 10 damage**")
    await world.restart()
    asked = await bob.click(panel.response, label="⚔️ Long sword")
    assert asked.response.ephemeral and "Whom does" in asked.response.content


async def test_a_turn_taken_with_taps_from_the_ping(world):
    await fight_table(world)
    alice, bob, carol, channel = world.alice, world.bob, world.carol, world.channel
    await alice.slash(channel, "fight next")  # Ser Carol's turn
    carols = await carol.slash(channel, "fight next")  # Jaime's turn: Bob is pinged
    ping = carols.response
    assert ping.content.startswith("Round 1: **Jaime** (<@")
    stranger = await carol.click(ping, label="⚔️ Long sword")
    assert stranger.response.ephemeral and "only its player" in stranger.response.content
    asked = await bob.click(ping, label="⚔️ Long sword")
    assert [o["value"] for o in asked.response.components[0]["components"][0]["options"]] == [
        "Goblin 1",  # the likely opponents first (tests/commands/test_sides.py)
        "Goblin 2",
        "Goblin 3",
        "Ser Carol",
    ]
    world.dice.push(15, 3)  # 15 + 8 = 23 against 3 + 2 = 5 (Goblin 1 parries)
    hit = await bob.select(asked.response, ["Goblin 1"])
    assert embed_of(hit)["description"].startswith("**Hit")
    ended = await bob.click(ping, label="End turn")
    assert ended.response.content.startswith("Round 1: **Goblin 1**")
    late = await bob.click(ping, label="⚔️ Long sword")
    assert late.response.ephemeral and "moved on" in late.response.content


async def test_attack_without_target_in_a_fight_offers_the_opponents(world):
    await fight_table(world)
    await any_attacks(world)
    offered = await world.bob.slash(world.channel, "attack")
    assert offered.response.ephemeral and "Whom does **Jaime**" in offered.response.content
    world.dice.push(15, 3)
    hit = await world.bob.select(offered.response, ["Goblin 3"])
    assert "Goblin 3" in str(embed_of(hit))


async def test_stale_presses_are_refused_with_a_note(world):
    await fight_table(world)
    await any_attacks(world)
    bob, alice, channel = world.bob, world.alice, world.channel
    panel = await bob.slash(channel, "panel")
    await bob.slash(channel, "character remove", weapon="Long sword")
    gone = await bob.click(panel.response, label="⚔️ Long sword")
    assert gone.response.ephemeral and "no longer has that weapon" in gone.response.content
    await bob.slash(
        channel, "character weapon", weapon="Long sword", base=5, attribute="Strength",
        skill="Long swords",
    )  # fmt: skip
    asked = await bob.click(panel.response, label="⚔️ Long sword")
    await alice.slash(channel, "fight end")
    ended = await bob.select(asked.response, ["Goblin 1"])
    assert ended.response.ephemeral and "fight is over" in ended.response.content


async def test_a_deleted_character_s_panel_is_refused(world):
    await make_jaime(world)
    panel = await world.bob.slash(world.channel, "panel")
    deleted = await world.bob.slash(world.channel, "character delete", name="Jaime")
    if deleted.response.components:  # a confirmation question
        await world.bob.click(deleted.response, label="Delete")
    gone = await world.bob.click(panel.response, label="Sheet")
    assert gone.response.ephemeral and "no longer exists" in gone.response.content


async def test_saved_rolls_stop_at_25_with_a_clear_refusal(world):
    await make_jaime(world)
    bob, channel = world.bob, world.channel
    await bob.slash(channel, "check", attr_name="Strength", skill_name="Long swords", vs=15)
    for number in range(25):
        await bob.slash(channel, "save", name=f"roll {number}")
    refused = await bob.slash(channel, "save", name="one more")
    assert refused.response.ephemeral
    assert "Jaime has 25 saved rolls, the most a character keeps" in refused.response.content
    replaced = await bob.slash(channel, "save", name="roll 3")
    assert "in place of the roll saved under that name" in replaced.response.content
    panel = await bob.slash(channel, "panel")  # 1 weapon, 25 saved rolls: they go in a select
    rows = panel.response.components
    assert len(rows) <= 5 and all(len(row["components"]) <= 5 for row in rows)
    world.dice.push(10)
    rolled = await bob.select(
        panel.response, [str(rows[1]["components"][0]["options"][0]["value"])]
    )
    assert field(embed_of(rolled), "Total") == "**18** vs TN 15"


async def test_panel_rolls_are_in_the_history_and_a_player_sees_no_hidden_npc(world):
    await make_jaime(world)
    await make_goblin(world)
    await make_ser_carol(world)
    bob, channel = world.bob, world.channel
    panel = await bob.slash(channel, "panel")
    asked = await bob.click(panel.response, label="⚔️ Long sword")
    offered = [o["value"] for o in asked.response.components[0]["components"][0]["options"]]
    assert offered == ["Ser Carol"]  # a GM's NPC not yet in play stays hidden from players
    await world.alice.slash(channel, "check", npc="Goblin", attr=1, skill=1, vs=10)
    shown = await bob.click(panel.response, label="⚔️ Long sword")
    offered = [o["value"] for o in shown.response.components[0]["components"][0]["options"]]
    assert offered == ["Ser Carol", "Goblin"]  # it rolled in public: now it is in play
    world.dice.push(15)
    attack = await bob.select(asked.response, ["Ser Carol"])
    assert asked.response.components == []  # the pick used the menu up
    [posted] = attack.followups
    assert not posted.ephemeral and "<@" in posted.content  # Carol defends
    history = embed_of(await bob.slash(channel, "history"))["description"]
    assert "Ser Carol" in history
    asked = await world.alice.slash(channel, "panel", npc="Goblin")
    assert asked.response.ephemeral


async def test_german_quick_play(world, client_languages):
    client_languages.set(world.bob, "de")
    await make_jaime(world)
    await make_ser_carol(world)
    bob, channel = world.bob, world.channel
    world.dice.push(10)
    first = await bob.slash(channel, "check", attr_name="Strength", skill_name="Long swords", vs=15)
    form = await bob.click(first.response, label="Speichern")
    assert form.modal["title"] == "Einen Wurf von Jaime speichern"
    assert name_input(form)["value"] == "check Strength Long swords"
    saved = await bob.submit_modal(form, {NAME_INPUT: "Hieb"})
    assert saved.response.content.startswith("Für Jaime als **Hieb**")
    form = await bob.click(first.response, label="Speichern")
    clash = await bob.submit_modal(form, {NAME_INPUT: "hieb"})
    assert clash.response.ephemeral
    assert clash.response.content.startswith("Jaime hat schon einen gespeicherten Wurf namens")
    panel = await bob.slash(channel, "panel")
    assert panel.response.content == "**Jaime**: Schnellaktionen, nur für dich."
    asked = await bob.click(panel.response, label="⚔️ Long sword")
    assert asked.response.content.startswith("Wen greift **Jaime** mit **Long sword** an?")
    odds = await bob.click(panel.response, label="Abwehrchancen")
    assert "% gegen 15" in odds.response.content


async def test_attack_with_numbers_in_a_fight_offers_the_opponents_too(world):
    await fight_table(world)
    await any_attacks(world)
    offered = await world.bob.slash(world.channel, "attack", str=3, skill=5, base=5, mod=1)
    assert offered.response.content == "Whom does **Jaime** attack?"
    world.dice.push(15, 3)
    hit = await world.bob.select(offered.response, ["Goblin 1"])
    assert field(embed_of(hit), "Total").startswith("**24**")  # 15 + 3 + 5 + 1


async def test_attack_with_its_own_die_or_private_in_a_fight_asks_for_a_target(world):
    """The pick from the opponents rolls a fresh public die: an attack given its own die, a take
    10, a defence or private is asked for its target instead of losing them there."""
    await fight_table(world)
    for options in ({"private": True}, {"roll": 12}, {"take10": True}):
        asked = await world.bob.slash(world.channel, "attack", **options)
        assert asked.response.ephemeral and not asked.response.components, options
        assert "with target" in asked.response.content, asked.response.content


async def goblins_turn(world, turns: int = 4) -> None:
    """fight_table, then the turns moved on to Goblin 2 (Ser Carol, Jaime, Goblin 1, Goblin 2)."""
    await fight_table(world)
    for _ in range(turns):
        await world.alice.slash(world.channel, "fight next")


async def test_a_gm_s_attack_as_a_copy_picked_from_the_opponents_is_that_copy_s(world):
    """npc:Goblin 1 without a target while Goblin 2 has the turn: Goblin 1 attacks and is
    credited, and it may attack its fellow copies (not itself)."""
    await goblins_turn(world)
    alice, channel = world.alice, world.channel
    offered = await alice.slash(channel, "attack", npc="Goblin 1", str=1, skill=2, base=3)
    assert offered.response.content == "Whom does **Goblin 1** attack?"
    values = [o["value"] for o in offered.response.components[0]["components"][0]["options"]]
    assert values == ["Ser Carol", "Jaime", "Goblin 2", "Goblin 3"]
    stranger = await world.carol.slash(channel, "attack", npc="Goblin 1", str=1, skill=2, base=3)
    assert stranger.response.ephemeral and "Only a GM" in stranger.response.content
    world.dice.push(20)  # 20 + 3 = 23 against Goblin 3 taking 10: 10 + 1 + 2 = 13: 5 DoS, 8 damage
    hit = await alice.select(offered.response, ["Goblin 3"])
    assert embed_of(hit)["title"].startswith("Goblin 1"), embed_of(hit)["title"]
    assert offered.response.components == []  # the menu attacked: it is used up
    await world.restart()
    offered = await alice.slash(channel, "attack", npc="Goblin 1", str=1, skill=2, base=3)
    world.dice.push(20)
    again = await alice.select(offered.response, ["Goblin 2"])
    assert embed_of(again)["title"].startswith("Goblin 1")
    summary = embed_of(await alice.slash(channel, "fight end"))["description"]
    assert "**Goblin 1**: dealt 16, took 0" in summary, summary
    assert "**Goblin 2**: dealt 0, took 8" in summary, summary


async def test_a_copy_s_panel_acts_as_that_copy(world):
    await goblins_turn(world)
    alice, channel = world.alice, world.channel
    await alice.slash(channel, "character weapon", name="Goblin", weapon="Club", base=3,
                      attribute="Strength", skill="Parry")  # fmt: skip
    panel = await alice.slash(channel, "panel", npc="Goblin 1")
    assert panel.response.content.startswith("**Goblin 1**: quick actions")
    refused = await world.bob.slash(channel, "panel", npc="Goblin 1")
    assert refused.response.ephemeral and "Only a GM" in refused.response.content
    await world.restart()
    asked = await alice.click(panel.response, label="⚔️ Club")
    assert asked.response.content == "Whom does **Goblin 1** attack with **Club**?"
    world.dice.push(20)
    hit = await alice.select(asked.response, ["Goblin 3"])
    assert embed_of(hit)["title"].startswith("Goblin 1"), embed_of(hit)["title"]
    await alice.slash(channel, "fight remove", combatant="Goblin 1")
    gone = await alice.click(panel.response, label="⚔️ Club")
    assert gone.response.ephemeral and "no longer in the fight" in gone.response.content


def labels(message) -> list[str]:
    return [c.get("label") for row in message.components for c in row["components"]]


async def test_the_sheet_s_panel_button_opens_the_panel_for_its_player_alone(world):
    await make_jaime(world)
    await make_ser_carol(world)
    await make_goblin(world)
    bob, channel = world.bob, world.channel
    sheet = await bob.slash(channel, "character show")
    assert labels(sheet.response) == ["Edit", "Panel"]
    others = await bob.slash(channel, "character show", name="Ser Carol")
    assert labels(others.response) == ["Edit"]  # not Bob's to play
    stranger = await world.carol.click(sheet.response, label="Panel")
    assert stranger.response.ephemeral and "only its player" in stranger.response.content
    await world.restart()
    panel = await bob.click(sheet.response, label="Panel")
    assert panel.response.ephemeral
    assert panel.response.content.startswith("**Jaime**: quick actions, for you alone.")
    assert "⚔️ Long sword" in labels(panel.response)
    npc = await world.alice.slash(channel, "character show", name="Goblin")
    assert npc.response.ephemeral and labels(npc.response) == ["Edit", "Panel"]
    gm = await world.alice.click(npc.response, label="Panel")
    assert gm.response.content.startswith("**Goblin**: quick actions")
    await bob.slash(channel, "character create", name="Bran")
    await bob.slash(channel, "character use", name="Bran")  # now Bob plays Bran
    moved = await bob.click(sheet.response, label="Panel")
    assert moved.response.ephemeral and "not your active character" in moved.response.content


async def test_the_sheet_s_panel_button_in_german(world, client_languages):
    client_languages.set(world.bob, "de")
    await make_jaime(world)
    sheet = await world.bob.slash(world.channel, "character show")
    assert labels(sheet.response) == ["Bearbeiten", "Aktionen"]
    panel = await world.bob.click(sheet.response, label="Aktionen")
    assert panel.response.content.startswith("**Jaime**: Schnellaktionen, nur für dich.")


async def test_defence_odds_in_a_fight_are_against_those_in_it(world):
    await fight_table(world)
    alice, bob, channel = world.alice, world.bob, world.channel
    await world.carol.slash(channel, "character weapon", weapon="Mace", base=4,
                            attribute="Strength", skill="Parry")  # fmt: skip  # 2 + 3 = +5
    await alice.slash(channel, "character weapon", name="Goblin", weapon="Club", base=3,
                      attribute="Strength", skill="Parry")  # fmt: skip  # 1 + 2 = +3
    panel = await bob.slash(channel, "panel")
    await world.restart()
    odds = (await bob.click(panel.response, label="Defence odds")).response.content.splitlines()
    assert odds[0].startswith("**Jaime**: the odds of each defence against each attacker in")
    assert odds[1] == "• **Ser Carol**: d20 +5 with Mace"
    # Both roll, a tie to the attacker: parry +3 holds against +5 when d - a >= 3, 153 of the
    # 400 pairs (38.25 %); dodge +0 when d - a >= 6, 105 pairs (26.25 %); half to even.
    assert odds[2] == "Parry (d20 +3): 38.2% against **Ser Carol**"
    assert odds[3] == "Dodge (d20 +0): 26.2% against **Ser Carol**"
    # A player is not told the odds against the GM's NPCs: they would give their bonus away.
    assert odds[4] == (
        "Not shown: **Goblin 1**, **Goblin 2**, **Goblin 3**, whose sheets are for the GMs' eyes."
    )
    gm = await alice.slash(channel, "panel", npc="Goblin")
    lines = (await alice.click(gm.response, label="Defence odds")).response.content.splitlines()
    assert lines[1:4] == [
        "• **Ser Carol**: d20 +5 with Mace",
        "• **Jaime**: d20 +8 with Long sword",
        "Goblin takes 10 to defend, as this table's NPCs do.",
    ]
    # Parry 3 + 10 = 13: Ser Carol hits on 8 or more (35 % held), Jaime on 5 or more (20 %).
    assert lines[4] == "Parry (d20 +3): 35% against **Ser Carol**; 20% against **Jaime**"
    await alice.slash(channel, "fight end")
    after = await bob.click(panel.response, label="Defence odds")
    assert "against an attack total" in after.response.content
    assert "% against 15" in after.response.content


async def test_the_sheet_keeps_its_panel_button_through_an_edit(world):
    await make_jaime(world)
    sheet = await world.bob.slash(world.channel, "character show")
    form = await world.bob.click(sheet.response, label="Edit")
    await world.bob.submit_modal(form, {TEXT_ID: "Strength 4; Long swords 5"})
    assert labels(sheet.response) == ["Edit", "Panel"]
    panel = await world.bob.click(sheet.response, label="Panel")
    assert panel.response.content.startswith("**Jaime**: quick actions")
