"""Turns that hold (issue #30, part 2): in a running fight a player's character attacks on its
own turn and at most the table's number of times, typed or tapped, and a menu that attacks
acts once, whoever or whatever presses it again (a second pick, a double tap, a second client,
a press after a restart). Defences, checks and /roll are never limited; GMs act for the NPCs."""

from __future__ import annotations

from simcord import actors

from tests.commands.at_once import without_waiting
from tests.commands.conftest import embed_of, field
from tests.commands.test_combat import make_jaime
from tests.commands.test_fights import fight_table, line_of

USED = "That menu was used already"
PRESSED = "That button attacked already this turn"


async def jaimes_turn(world):
    """The fight table, played on to Jaime's turn: Ser Carol (18), then Jaime (15). The last
    reply is the turn ping with Jaime's weapons."""
    await fight_table(world)
    await world.alice.slash(world.channel, "fight next")  # Ser Carol's turn
    return (await world.carol.slash(world.channel, "fight next")).response  # Jaime's: Bob pinged


async def pick_from_a_copy(actor, menu, components, values):
    """A pick from a copy of the menu as it was before (another client of the same player,
    or one that has not seen the edit): the select's old custom id, sent as Discord would."""
    stored = actor._message(menu)
    select = components[0]["components"][0]
    data = {"custom_id": select["custom_id"], "component_type": select["type"], "values": values}
    return await actors._component_interaction(actor, stored, data)


async def test_a_pick_attacks_once_and_the_menu_loses_its_select(world):
    ping = await jaimes_turn(world)
    bob = world.bob
    asked = await bob.click(ping, label="⚔️ Long sword")
    before = asked.response.components
    world.dice.push(15)  # 15 + 8 = 23 against Goblin 1 taking 10: 13
    hit = await bob.select(asked.response, ["Goblin 1"])
    assert embed_of(hit)["description"].startswith("**Hit: 5 DoS, 10 damage**")
    assert asked.response.components == []  # the menu lost its select
    assert asked.response.content.startswith("Whom does **Jaime** attack")
    after_hit = await world.alice.slash(world.channel, "fight show", private=True)
    again = await pick_from_a_copy(bob, asked.response, before, ["Goblin 2"])
    assert again.response.ephemeral and "Nothing was done" in again.response.content
    shown = await world.alice.slash(world.channel, "fight show", private=True)
    assert embed_of(shown)["description"] == embed_of(after_hit)["description"]  # no 2nd blow


async def test_a_double_tap_on_the_menu_attacks_once(world):
    ping = await jaimes_turn(world)
    bob, env = world.bob, world.env
    asked = await bob.click(ping, label="⚔️ Long sword")
    world.dice.push(15, 15)
    first = await without_waiting(env, lambda: bob.select(asked.response, ["Goblin 1"]))
    second = await bob.select(asked.response, ["Goblin 1"])
    said = [m for a in (first, second) for m in [a.response, *a.followups]]
    hits = [m for m in said if m.embeds]
    refused = [m for m in said if USED in (m.content or "")]
    assert len(hits) == 1 and len(refused) == 1
    assert refused[0].ephemeral


async def test_a_second_menu_of_the_same_turn_is_refused_after_a_restart(world):
    """Two menus for the same attack (a phone and a desktop, or the weapon pressed twice): the
    first pick attacks; the other, picked after a restart, is refused by the store."""
    ping = await jaimes_turn(world)
    bob = world.bob
    phone = await bob.click(ping, label="⚔️ Long sword")
    desktop = await bob.click(ping, label="⚔️ Long sword")
    await world.restart()  # a menu carries what it needs: it still works after a restart
    world.dice.push(15)
    hit = await bob.select(phone.response, ["Goblin 1"])
    assert embed_of(hit)["description"].startswith("**Hit")
    await world.restart()
    late = await bob.select(desktop.response, ["Goblin 2"])
    assert late.response.ephemeral and USED in late.response.content
    assert desktop.response.components != []  # refused before anything changed


async def test_a_gm_s_menu_acts_once_too(world):
    await fight_table(world)
    alice, channel = world.alice, world.channel
    one = await alice.slash(channel, "attack", npc="Goblin 1", str=1, skill=2, base=3)
    two = await alice.slash(channel, "attack", npc="Goblin 1", str=1, skill=2, base=3)
    world.dice.push(20)
    hit = await alice.select(one.response, ["Goblin 3"])
    assert embed_of(hit)["title"].startswith("Goblin 1")
    late = await alice.select(two.response, ["Goblin 2"])
    assert late.response.ephemeral and USED in late.response.content


async def test_a_typed_attack_after_a_tapped_one_is_refused_by_the_turn_s_number(world):
    ping = await jaimes_turn(world)
    bob, channel = world.bob, world.channel
    asked = await bob.click(ping, label="⚔️ Long sword")
    world.dice.push(15)
    await bob.select(asked.response, ["Goblin 1"])
    typed = await bob.slash(channel, "attack", weapon="Long sword", target="Goblin 2")
    assert typed.response.ephemeral
    assert "Jaime has made this turn's attacks already (1 of 1" in typed.response.content
    assert "End turn" in typed.response.content
    tapped = await bob.click(ping, label="⚔️ Long sword")  # refused at the weapon already
    assert tapped.response.ephemeral and "1 of 1" in tapped.response.content


async def test_out_of_turn_typed_and_tapped_are_refused_naming_whose_turn_it_is(world):
    await fight_table(world)
    alice, bob, channel = world.alice, world.bob, world.channel
    early = await bob.slash(channel, "attack", weapon="Long sword", target="Goblin 1")
    assert early.response.ephemeral and "has not begun" in early.response.content
    await alice.slash(channel, "fight next")  # Ser Carol's turn
    typed = await bob.slash(channel, "attack", weapon="Long sword", target="Goblin 1")
    assert typed.response.ephemeral
    assert typed.response.content.startswith("It is Ser Carol's turn, not Jaime's")
    assert "/fight reaction" in typed.response.content
    panel = await bob.slash(channel, "panel")
    tapped = await bob.click(panel.response, label="⚔️ Long sword")
    assert tapped.response.ephemeral
    assert tapped.response.content.startswith("It is Ser Carol's turn, not Jaime's")
    offered = await bob.slash(channel, "attack")  # the opponents are not offered either
    assert offered.response.ephemeral and "Ser Carol's turn" in offered.response.content
    assert line_of(world, "Goblin 1").endswith("· unhurt")  # no blow landed


async def test_a_refusal_speaks_the_reader_s_language(world, client_languages):
    await fight_table(world)
    await world.alice.slash(world.channel, "fight next")  # Ser Carol's turn
    client_languages.set(world.bob, "de")
    typed = await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Goblin 1")
    assert typed.response.ephemeral
    assert typed.response.content.startswith("Ser Carol ist am Zug, nicht Jaime"), typed


async def test_defences_checks_and_rolls_are_never_limited(world):
    await fight_table(world)
    alice, carol, channel = world.alice, world.carol, world.channel
    await alice.slash(channel, "fight next")  # Ser Carol's turn; Jaime waits
    world.dice.push(5)
    check = await world.bob.slash(channel, "check", attr_name="Strength", skill=0, vs=10)
    assert not check.response.ephemeral
    roll = await world.bob.slash(channel, "roll", expression="1d20")
    assert not roll.response.ephemeral
    await carol.slash(channel, "fight next")  # Jaime's turn
    await world.bob.slash(channel, "fight next")  # Goblin 1's turn: the GM attacks Jaime twice
    for _ in range(2):
        world.dice.push(10)
        attack = await alice.slash(channel, "attack", npc="Goblin 1", str=1, skill=2, base=3,
                                   target="Jaime")  # fmt: skip
        world.dice.push(10)
        defended = await world.bob.click(attack.response, label="Parry")
        assert defended.acknowledged and not defended.ephemeral


async def test_the_table_sets_the_number_and_out_of_turn_attacks(world):
    ping = await jaimes_turn(world)
    alice, bob, channel = world.alice, world.bob, world.channel
    refused = await bob.slash(channel, "campaign settings", attacks_per_turn=2)
    assert refused.response.ephemeral and "Only a GM" in refused.response.content
    set_two = await alice.slash(channel, "campaign settings", attacks_per_turn=2)
    assert "2 attacks" in set_two.response.content
    for target in ("Goblin 1", "Goblin 2"):
        world.dice.push(15)
        hit = await bob.slash(channel, "attack", weapon="Long sword", target=target)
        assert embed_of(hit)["description"].startswith("**Hit")
    third = await bob.slash(channel, "attack", weapon="Long sword", target="Goblin 3")
    assert "2 of 2" in third.response.content
    anyhow = await alice.slash(channel, "campaign settings", attacks_per_turn=0)
    assert "any number of attacks" in anyhow.response.content
    world.dice.push(15)
    more = await bob.slash(channel, "attack", weapon="Long sword", target="Goblin 3")
    assert embed_of(more)["description"].startswith("**Hit")
    await bob.click(ping, label="End turn")  # Goblin 1's turn
    out = await bob.slash(channel, "attack", weapon="Long sword", target="Goblin 2")
    assert "It is Goblin 1's turn" in out.response.content
    await alice.slash(channel, "campaign settings", out_of_turn=True)
    info = await alice.slash(channel, "campaign info")
    assert "attacks out of turn allowed" in str(embed_of(info))
    world.dice.push(15)
    allowed = await bob.slash(channel, "attack", weapon="Long sword", target="Goblin 2")
    assert embed_of(allowed)["description"].startswith("**Hit")


async def test_a_gm_grants_a_reaction_used_up_by_the_next_attack(world):
    await fight_table(world)
    alice, bob, channel = world.alice, world.bob, world.channel
    await alice.slash(channel, "fight next")  # Ser Carol's turn
    stranger = await bob.slash(channel, "fight reaction", combatant="Jaime")
    assert stranger.response.ephemeral and "Only a GM" in stranger.response.content
    granted = await alice.slash(channel, "fight reaction", combatant="Jaime")
    assert "**Jaime** may attack once out of turn" in granted.response.content
    world.dice.push(15)
    hit = await bob.slash(channel, "attack", weapon="Long sword", target="Goblin 1")
    assert embed_of(hit)["description"].startswith("**Hit")
    again = await bob.slash(channel, "attack", weapon="Long sword", target="Goblin 2")
    assert again.response.content.startswith("It is Ser Carol's turn")
    await alice.slash(channel, "fight reaction", combatant="Jaime")
    await world.carol.slash(channel, "fight next")  # the turn changed: the reaction is gone
    await world.bob.slash(channel, "fight next")  # Goblin 1's turn
    gone = await bob.slash(channel, "attack", weapon="Long sword", target="Goblin 2")
    assert gone.response.content.startswith("It is Goblin 1's turn")


async def test_a_gm_acts_for_npcs_without_a_limit(world):
    await fight_table(world)
    alice, channel = world.alice, world.channel
    for target in ("Goblin 2", "Goblin 3"):  # before the first turn, and twice
        world.dice.push(20)
        hit = await alice.slash(channel, "attack", npc="Goblin 1", str=1, skill=2, base=3,
                                target=target)  # fmt: skip
        assert embed_of(hit)["title"].startswith("Goblin 1")


async def test_a_refusal_shows_a_combatant_s_name_inert(world):
    """Names are the table's own: a refusal quotes them with their markdown inert, typed or
    tapped."""
    await make_jaime(world)
    alice, bob, carol, channel = world.alice, world.bob, world.carol, world.channel
    await carol.slash(channel, "character create", name="**Loud**")
    await alice.slash(channel, "fight start", name="Ambush")
    world.dice.push(5)
    await bob.slash(channel, "fight join")
    await carol.slash(channel, "fight join", initiative=18)
    await alice.slash(channel, "fight next")  # **Loud**'s turn
    typed = await bob.slash(channel, "attack", weapon="Long sword", target="**Loud**")
    assert typed.response.content.startswith("It is \\*\\*Loud\\*\\*'s turn, not Jaime's")
    panel = await bob.slash(channel, "panel")
    tapped = await bob.click(panel.response, label="⚔️ Long sword")
    assert tapped.response.content.startswith("It is \\*\\*Loud\\*\\*'s turn, not Jaime's")


async def test_at_zero_arrows_the_refusal_leaves_the_turn_s_attack(world):
    """The arrow is checked before the turn is taken: a refused shot costs no attack, and an
    attack refused by the turn costs no arrow."""
    await jaimes_turn(world)
    bob, channel = world.bob, world.channel
    await bob.slash(channel, "counter add", name="Arrows", maximum=20, value=0, weapon="Long sword")
    empty = await bob.slash(channel, "attack", weapon="Long sword", target="Goblin 1")
    assert empty.response.ephemeral
    assert empty.response.content.startswith("Long sword has no Arrows left (0/20)")
    await bob.slash(channel, "counter set", name="Arrows", value=2)
    world.dice.push(15)
    shot = await bob.slash(channel, "attack", weapon="Long sword", target="Goblin 1")
    assert embed_of(shot)["description"].startswith("**Hit")  # the turn's one attack was left
    assert [f.content for f in shot.followups] == ["Arrows 1/20 left."]
    second = await bob.slash(channel, "attack", weapon="Long sword", target="Goblin 2")
    assert "1 of 1" in second.response.content
    listed = await bob.slash(channel, "gear list")
    assert "Arrows 1/20" in field(embed_of(listed), "Counters")  # the refused shot kept its arrow


async def a_saved_attack(world, name: str = "Goblin shot") -> None:
    """Jaime's saved roll: the Long sword against Goblin 1 (saved as the Save button does)."""
    store, guild = world.bot.store, world.guild.id
    campaign = await store.campaign_for_channel(guild, world.channel.id, world.alice.id)
    jaime = await store.get_character(guild, campaign.id, "Jaime")
    command = {"name": "attack", "options": {"weapon": "Long sword", "target": "Goblin 1"}}
    await store.save_roll(guild, campaign.id, world.bob.id, jaime.id, name, command)


async def test_a_saved_roll_s_button_attacks_once_a_turn_even_with_any_number(world):
    """With any number of attacks a turn, a double tap on a saved roll's button is still one
    attack; a second client or a press after a restart in the same turn is refused with why;
    the same button attacks again on Jaime's next turn."""
    await jaimes_turn(world)
    await a_saved_attack(world)
    alice, bob, channel, env = world.alice, world.bob, world.channel, world.env
    await alice.slash(channel, "campaign settings", attacks_per_turn=0)
    panel = await bob.slash(channel, "panel")
    world.dice.push(15, 15)
    first = await without_waiting(env, lambda: bob.click(panel.response, label="🎲 Goblin shot"))
    second = await bob.click(panel.response, label="🎲 Goblin shot")
    said = [m for a in (first, second) for m in [a.response, *a.followups]]
    hits = [m for m in said if m.embeds]
    refused = [m for m in said if PRESSED in (m.content or "")]
    assert len(hits) == 1 and len(refused) == 1 and refused[0].ephemeral
    assert "Press it again on a later turn, or attack with /attack" in refused[0].content
    await world.restart()
    late = await bob.click(panel.response, label="🎲 Goblin shot")
    assert late.response.ephemeral and PRESSED in late.response.content
    world.dice.push(15)
    typed = await bob.slash(channel, "attack", weapon="Long sword", target="Goblin 2")
    assert embed_of(typed)["description"].startswith("**Hit")  # any number: typed still works
    for _ in range(5):  # Goblin 1, 2, 3, Ser Carol, then Jaime again
        await alice.slash(channel, "fight next")
    world.dice.push(15)
    next_turn = await bob.click(panel.response, label="🎲 Goblin shot")
    assert embed_of(next_turn)["description"].startswith("**Hit")


async def test_a_saved_roll_s_button_in_german_says_why(world, client_languages):
    await jaimes_turn(world)
    await a_saved_attack(world)
    await world.alice.slash(world.channel, "campaign settings", attacks_per_turn=0)
    panel = await world.bob.slash(world.channel, "panel")
    world.dice.push(15)
    await world.bob.click(panel.response, label="🎲 Goblin shot")
    client_languages.set(world.bob, "de")
    again = await world.bob.click(panel.response, label="🎲 Goblin shot")
    assert again.response.ephemeral and again.response.content.startswith(
        "Dieser Knopf hat in diesem Zug schon angegriffen"
    )
