"""Conditions with a mechanical effect, through the simulated Discord: a GM puts "Prone: -2 to
defences" on a goblin and "Blessed: +1 to attacks" on Jaime, and the rolls change by them.
(WIRE defines no conditions: these are a table's own, as examples.)"""

from __future__ import annotations

from tests.commands.conftest import embed_of, field, offered
from tests.commands.test_fights import any_attacks, fight_table, line_of, tracker


async def effect(world, user, **options):
    return await user.slash(world.channel, "fight effect", **options)


async def players_conditions(world) -> None:
    """The table lets players put conditions on their own characters (default off)."""
    await world.alice.slash(world.channel, "campaign settings", players_conditions=True)


async def test_a_prone_goblins_parry_is_worse_and_the_hit_deals_more(world):
    await fight_table(world)
    await any_attacks(world)  # what a condition does, not whose turn it is
    world.dice.push(9)  # Jaime 9 + 3 + 5 = 17 against the goblin's take 10 + 1 + 2 = 13
    plain = embed_of(
        await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Goblin 1")
    )
    assert field(plain, "Total") == "**17** vs defence 13"
    assert plain["description"].startswith("**Hit: 2 DoS, 7 damage**")
    put = await effect(world, world.alice, combatant="Goblin 2", name="Prone", modifier=-2,
                       applies_to="defence")  # fmt: skip
    assert put.response.content == "**Goblin 2**: Prone -2 all defences, until the fight ends."
    world.dice.push(9)
    prone = embed_of(
        await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Goblin 2")
    )
    assert field(prone, "Total") == "**17** vs defence 11"
    assert prone["description"].startswith("**Hit: 3 DoS, 8 damage**")
    assert "Prone -2 all defences" in line_of(world, "Goblin 2")


async def test_a_prone_players_parry_names_the_condition_in_its_breakdown(world):
    await fight_table(world)
    await any_attacks(world)  # what a condition does, not whose turn it is
    await players_conditions(world)
    await effect(world, world.carol, combatant="Ser Carol", name="Prone", modifier=-2,
                 applies_to="parry")  # fmt: skip
    world.dice.push(15)
    attack = await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Ser Carol")
    world.dice.push(5)  # Carol parries 5 + 2 + 3 - 2 = 8 against 23
    done = embed_of(await world.carol.click(attack.response, label="Parry"))
    parry = field(done, "Ser Carol: Parry")
    assert "Prone" in parry and "= 8" in parry
    world.dice.push(15)
    attack = await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Ser Carol")
    world.dice.push(5)  # Block is not Parry: 5 + 2 + 4 = 11
    blocked = embed_of(await world.carol.click(attack.response, label="Block"))
    assert "Prone" not in field(blocked, "Ser Carol: Block")
    assert "= 11" in field(blocked, "Ser Carol: Block")


async def test_a_blessed_players_attack_is_better(world):
    await fight_table(world)
    await any_attacks(world)  # what a condition does, not whose turn it is
    await effect(world, world.alice, combatant="Jaime", name="Blessed", modifier=1,
                 applies_to="attack", rounds=2)  # fmt: skip
    world.dice.push(10)  # 10 + 3 + 5 + 1 = 19 against 13: 3 DoS (2 without the blessing)
    embed = embed_of(
        await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Goblin 1")
    )
    assert field(embed, "Modifiers") == "Strength +3, Long swords +5, Blessed +1"
    assert embed["description"].startswith("**Hit: 3 DoS, 8 damage**")
    assert "Blessed +1 attacks (2)" in line_of(world, "Jaime")
    check = embed_of(await world.bob.slash(world.channel, "check", vs=10, attr=1, skill=1))
    assert "Blessed" not in field(check, "Modifiers")  # attacks only


async def test_a_condition_on_checks_of_one_stat_and_damage_taken(world):
    await fight_table(world)
    await any_attacks(world)  # what a condition does, not whose turn it is
    await players_conditions(world)
    await effect(world, world.bob, combatant="Jaime", name="Weakened", modifier=-3,
                 applies_to="check", stat="strength")  # fmt: skip
    world.dice.push(10)
    weak = embed_of(await world.bob.slash(world.channel, "check", vs=10, attr_name="Strength",
                                          skill=0))  # fmt: skip
    assert "Weakened -3" in field(weak, "Modifiers") and "**10**" in field(weak, "Total")
    await effect(world, world.alice, combatant="Goblin 1", name="Hexed", modifier=2,
                 applies_to="damage-taken")  # fmt: skip
    world.dice.push(9)  # 17 against 13: 2 DoS, base 5 + 2 Hexed = 7 + 2 = 9 damage
    embed = embed_of(
        await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Goblin 1")
    )
    assert embed["description"].startswith("**Hit: 2 DoS, 9 damage**")
    assert field(embed, "Base damage") == "Hexed +2 → 7"


async def test_conditions_end_on_their_turn_and_the_turn_line_says_so(world):
    await fight_table(world)
    await any_attacks(world)  # what a condition does, not whose turn it is
    await world.alice.slash(world.channel, "fight next")  # Ser Carol, then Jaime, Goblin 1...
    await effect(world, world.alice, combatant="Goblin 1", name="Stunned", modifier=-4,
                 rounds=1, counted="start")  # fmt: skip
    await effect(world, world.alice, combatant="Ser Carol", name="Marked", modifier=-1,
                 until="Goblin 1")  # fmt: skip
    assert "Marked -1 all rolls (until Goblin 1's turn)" in line_of(world, "Ser Carol")
    jaime = await world.carol.slash(world.channel, "fight next")
    assert "has ended" not in jaime.response.content
    goblin = await world.bob.slash(world.channel, "fight next")  # Goblin 1's turn begins
    said = goblin.response.content
    assert "Stunned on Goblin 1 has ended." in said and "Marked on Ser Carol has ended." in said
    assert "Stunned" not in line_of(world, "Goblin 1")
    assert "Marked" not in line_of(world, "Ser Carol")


async def test_a_hidden_condition_is_for_gms_only_and_still_counts(world):
    await fight_table(world)
    await any_attacks(world)  # what a condition does, not whose turn it is
    await players_conditions(world)
    refused = await effect(world, world.bob, combatant="Jaime", name="Cursed", hidden=True)
    assert refused.response.ephemeral and "can hide a condition" in refused.response.content
    put = await effect(world, world.alice, combatant="Goblin 1", name="Enraged", modifier=3,
                       applies_to="parry", hidden=True)  # fmt: skip
    assert put.response.ephemeral
    assert "Enraged" not in line_of(world, "Goblin 1")
    mine = embed_of(await world.bob.slash(world.channel, "fight show", private=True))
    assert "Enraged" not in mine["description"]
    gm = embed_of(await world.alice.slash(world.channel, "fight show", private=True))
    assert "Enraged +3 Parry (hidden)" in gm["description"]
    world.dice.push(9)  # 17 against 13 + 3 = 16: the hidden condition counts
    embed = embed_of(
        await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Goblin 1")
    )
    assert field(embed, "Total") == "**17** vs defence 16"
    await effect(world, world.alice, combatant="Jaime", name="Doomed", modifier=-1,
                 applies_to="attack", hidden=True)  # fmt: skip
    world.dice.push(9)
    embed = embed_of(
        await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Goblin 2")
    )
    assert field(embed, "Modifiers") == "Strength +3, Long swords +5, hidden condition -1"


async def test_limits_are_refused_with_what_to_do(world):
    await fight_table(world)
    await any_attacks(world)  # what a condition does, not whose turn it is
    long = await effect(world, world.alice, combatant="Goblin 1", name="x" * 41)
    assert long.response.ephemeral and "at most 40 characters" in long.response.content
    stat = await effect(world, world.alice, combatant="Goblin 1", name="Prone", stat="Strength")
    assert stat.response.ephemeral and "checks only" in stat.response.content
    both = await effect(world, world.alice, combatant="Goblin 1", name="Prone", rounds=2,
                        until="Jaime")  # fmt: skip
    assert both.response.ephemeral and "not both" in both.response.content
    for n in range(10):
        await effect(world, world.alice, combatant="Goblin 1", name=f"C{n}")
    full = await effect(world, world.alice, combatant="Goblin 1", name="Eleventh")
    assert full.response.ephemeral and "the limit" in full.response.content
    marked = await effect(world, world.alice, combatant="Goblin 2", name="**Bold** @everyone")
    assert "\\*\\*Bold\\*\\*" in marked.response.content  # shown inert


async def test_cure_ends_a_condition_and_its_modifier_goes(world):
    await fight_table(world)
    await any_attacks(world)  # what a condition does, not whose turn it is
    await effect(world, world.alice, combatant="Goblin 1", name="Prone", modifier=-2,
                 applies_to="defence")  # fmt: skip
    cured = await world.alice.slash(world.channel, "fight cure", combatant="Goblin 1",
                                    name="prone")  # fmt: skip
    assert cured.response.content == "Prone on Goblin 1 has ended."
    world.dice.push(9)
    embed = embed_of(
        await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Goblin 1")
    )
    assert field(embed, "Total") == "**17** vs defence 13"
    missing = await world.alice.slash(world.channel, "fight cure", combatant="Goblin 1",
                                      name="Prone")  # fmt: skip
    assert missing.response.ephemeral and "no condition" in missing.response.content


async def test_conditions_survive_a_restart(world):
    await fight_table(world)
    await any_attacks(world)  # what a condition does, not whose turn it is
    await effect(world, world.alice, combatant="Goblin 1", name="Prone", modifier=-2,
                 applies_to="defence", rounds=3)  # fmt: skip
    await world.restart()
    world.dice.push(9)
    embed = embed_of(
        await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Goblin 1")
    )
    assert field(embed, "Total") == "**17** vs defence 11"
    assert "Prone -2 all defences (3)" in line_of(world, "Goblin 1")


async def test_a_condition_in_german(world, client_languages):
    await fight_table(world)
    await any_attacks(world)  # what a condition does, not whose turn it is
    client_languages.set(world.alice, "de")
    put = await effect(world, world.alice, combatant="Goblin 1", name="Liegend", modifier=-2,
                       applies_to="defence", rounds=2)  # fmt: skip
    assert put.response.content == "**Goblin 1**: Liegend -2 alle Abwehren, für 2 Runden."
    long = await effect(world, world.alice, combatant="Goblin 1", name="x" * 41)
    assert "höchstens 40 Zeichen" in long.response.content
    assert tracker(world) is not None


async def test_defence_odds_show_the_chance_with_and_without_the_condition(world):
    await fight_table(world)
    await any_attacks(world)  # what a condition does, not whose turn it is
    alice, channel = world.alice, world.channel
    await effect(world, alice, combatant="Goblin 1", name="Prone", modifier=-2,
                 applies_to="defence")  # fmt: skip
    panel = await alice.slash(channel, "panel", npc="Goblin 1")
    odds = (await alice.click(panel.response, label="Defence odds")).response.content
    parry = next(line for line in odds.splitlines() if line.startswith("Parry"))
    assert parry.startswith("Parry (d20 +1)")  # Strength 1 + Parry 2 - Prone 2
    without = odds.splitlines()[odds.splitlines().index(parry) + 1]
    assert without.startswith("  with Prone -2; without: d20 +3, ")
    other = await alice.slash(channel, "panel", npc="Goblin 2")
    plain = (await alice.click(other.response, label="Defence odds")).response.content
    assert "Parry (d20 +3)" in plain and "without" not in plain


async def test_odds_count_the_rollers_conditions(world):
    await fight_table(world)
    await any_attacks(world)  # what a condition does, not whose turn it is
    before = await world.bob.slash(world.channel, "odds attack", weapon="Long sword", vs=15)
    await players_conditions(world)
    await effect(world, world.bob, combatant="Jaime", name="Blessed", modifier=1,
                 applies_to="attack")  # fmt: skip
    after = await world.bob.slash(world.channel, "odds attack", weapon="Long sword", vs=15)
    assert "Blessed" in str(embed_of(after)) and "Blessed" not in str(embed_of(before))
    assert embed_of(after) != embed_of(before)


async def test_a_campaigns_named_condition_is_offered_and_fills_in_the_rest(world):
    await fight_table(world)
    await any_attacks(world)  # what a condition does, not whose turn it is
    alice, channel = world.alice, world.channel
    empty = await alice.slash(channel, "condition list")
    assert "WIRE defines none" in empty.response.content
    refused = await world.bob.slash(channel, "condition save", name="Prone", modifier=-2)
    assert refused.response.ephemeral and "Only a GM" in refused.response.content
    saved = await alice.slash(channel, "condition save", name="Prone", modifier=-2,
                              applies_to="defence", rounds=2)  # fmt: skip
    assert saved.response.content == "Saved: Prone -2 all defences, for 2 rounds."
    offered = await alice.autocomplete(channel, "fight effect", "name", "pro",
                                       combatant="Goblin 1")  # fmt: skip
    assert [c["value"] for c in offered] == ["Prone"]
    put = await effect(world, alice, combatant="Goblin 1", name="prone")
    assert put.response.content == "**Goblin 1**: Prone -2 all defences, for 2 rounds."
    longer = await effect(world, alice, combatant="Goblin 2", name="Prone", rounds=5)
    assert longer.response.content == "**Goblin 2**: Prone -2 all defences, for 5 rounds."
    world.dice.push(9)
    embed = embed_of(
        await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Goblin 1")
    )
    assert field(embed, "Total") == "**17** vs defence 11"
    gone = await alice.slash(channel, "condition delete", name="Prone")
    assert gone.response.content.startswith("Deleted Prone.")
    assert "Prone -2 all defences (2)" in line_of(world, "Goblin 1")  # stays on


async def test_named_conditions_in_german(world, client_languages):
    await fight_table(world)
    await any_attacks(world)  # what a condition does, not whose turn it is
    client_languages.set(world.alice, "de")
    saved = await world.alice.slash(world.channel, "condition save", name="Liegend",
                                    modifier=-2, applies_to="parry")  # fmt: skip
    assert saved.response.content == "Gespeichert: Liegend -2 Parieren, bis der Kampf endet."
    listed = await world.alice.slash(world.channel, "condition list")
    assert listed.response.content == "• Liegend -2 Parieren, bis der Kampf endet"


async def test_an_initiative_condition_moves_its_bearer_in_the_order(world):
    await fight_table(world)
    await any_attacks(world)  # what a condition does, not whose turn it is
    await effect(world, world.alice, combatant="Goblin 3", name="Quickened", modifier=5,
                 applies_to="initiative")  # fmt: skip
    assert line_of(world, "Goblin 3").startswith("· ` 17` **Goblin 3**")  # 12 + 5
    names = [line.split("**")[1] for line in tracker(world).embeds[0].description.splitlines()]
    assert names[1:4] == ["Ser Carol", "Goblin 3", "Jaime"]


async def test_an_npc_whose_parry_a_condition_spoils_dodges_instead(world):
    await fight_table(world)
    await any_attacks(world)  # what a condition does, not whose turn it is
    await effect(world, world.alice, combatant="Goblin 1", name="Disarmed", modifier=-4,
                 applies_to="parry")  # fmt: skip
    world.dice.push(9)  # 17 against a dodge of 10 + Reaction 0 + Dodge 0 (the parry: 10 - 1)
    embed = embed_of(
        await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Goblin 1")
    )
    assert field(embed, "Total") == "**17** vs defence 10"
    assert field(embed, "Goblin 1: Dodge") == "**10**"


async def test_who_may_put_one_on_a_combatant_is_the_sheets_rule(world):
    """A GM puts conditions on combatants; a player on his own character's, and only where the
    table lets players (as on the sheet); never on another's nor an NPC's."""
    await fight_table(world)
    alice, bob, carol = world.alice, world.bob, world.carol
    own = await effect(world, bob, combatant="Jaime", name="Focused", modifier=1)
    assert own.response.ephemeral and "Only a GM" in own.response.content
    assert "/campaign settings players_conditions:true" in own.response.content
    await effect(world, alice, combatant="Jaime", name="Prone", modifier=-2, applies_to="defence")
    cure = await bob.slash(world.channel, "fight cure", combatant="Jaime", name="Prone")
    assert cure.response.ephemeral and "players_conditions:true" in cure.response.content
    assert "Focused" not in line_of(world, "Jaime") and "Prone" in line_of(world, "Jaime")
    await players_conditions(world)
    own = await effect(world, bob, combatant="Jaime", name="Focused", modifier=1)
    assert own.response.content == "**Jaime**: Focused +1 all rolls, until the fight ends."
    theirs = await effect(world, carol, combatant="Jaime", name="Hexed", modifier=-2)
    assert theirs.response.ephemeral and "Only Jaime's player or a GM" in theirs.response.content
    npc = await effect(world, bob, combatant="Goblin 1", name="Hexed", modifier=-2)
    assert npc.response.ephemeral and "Only a GM" in npc.response.content
    assert "Goblin 1, an NPC" in npc.response.content
    taken = await carol.slash(world.channel, "fight cure", combatant="Jaime", name="Focused")
    assert taken.response.ephemeral and "Only Jaime's player" in taken.response.content
    cured = await bob.slash(world.channel, "fight cure", combatant="Jaime", name="Prone")
    assert cured.response.content == "Prone on Jaime has ended."
    assert "Focused +1 all rolls" in line_of(world, "Jaime") and "Prone" not in line_of(
        world, "Jaime"
    )
    assert "Hexed" not in line_of(world, "Goblin 1")


async def test_cure_offers_the_combatants_conditions_hidden_ones_to_gms(world, client_languages):
    await fight_table(world)
    alice, bob, channel = world.alice, world.bob, world.channel
    await effect(world, alice, combatant="Goblin 1", name="Prone", modifier=-2,
                 applies_to="defence", rounds=2)  # fmt: skip
    await effect(world, alice, combatant="Goblin 1", name="Enraged", modifier=3, hidden=True)
    await effect(world, alice, combatant="Goblin 1", name="**Loud** @everyone")
    await effect(world, alice, combatant="Goblin 2", name="Marked", until="Jaime")
    await effect(world, alice, combatant="Jaime", name="Bleeding")

    def names(user, typed="", **options):
        return offered(user, channel, "fight cure", "name", typed, **options)

    assert await names(bob, combatant="Goblin 1") == [
        ("Prone -2 all defences (2)", "Prone"),
        ("**Loud** @everyone", "**Loud** @everyone"),  # a choice shows it as typed
    ]
    assert await names(alice, combatant="goblin 1") == [
        ("Prone -2 all defences (2)", "Prone"),
        ("Enraged +3 all rolls (hidden)", "Enraged"),
        ("**Loud** @everyone", "**Loud** @everyone"),
    ]
    assert await names(alice, "RAG", combatant="Goblin 1") == [
        ("Enraged +3 all rolls (hidden)", "Enraged")
    ]
    assert await names(bob, combatant="Goblin 2") == [("Marked (until Jaime's turn)", "Marked")]
    assert await names(bob, combatant="Nobody") == []
    assert await names(bob) == []  # no combatant chosen yet
    client_languages.set(bob, "de")
    assert await names(bob, "pro", combatant="Goblin 1") == [
        ("Prone -2 alle Abwehren (2)", "Prone")
    ]
    picked = await alice.slash(channel, "fight cure", combatant="Goblin 1", name="Enraged")
    assert picked.response.content == "Enraged on Goblin 1 has ended."
