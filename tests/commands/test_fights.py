"""/fight and /health through the simulated Discord: a GM runs a fight with nothing on paper."""

from __future__ import annotations

from cogs.utils.tracker import TrackerEdits
from tests.commands.conftest import embed_of, field
from tests.commands.test_combat import make_goblin, make_jaime, make_ser_carol


async def fight_table(world) -> None:
    """Jaime (Bob) and Ser Carol (Carol) with their sheets, the goblin NPC; a fight begun."""
    await make_jaime(world)
    await make_ser_carol(world)
    await make_goblin(world)
    alice, channel = world.alice, world.channel
    await alice.slash(channel, "character set", name="Goblin", attribute="Constitution", value=1)
    started = await alice.slash(channel, "fight start", name="Ambush")
    assert not started.response.ephemeral
    world.dice.push(15)  # Jaime: 15 + Reaction 0 = 15
    await world.bob.slash(channel, "fight join")
    await world.carol.slash(channel, "fight join", initiative=18)  # 18, first
    world.dice.push(12)  # the goblins: 12 + 0, after Jaime
    added = await alice.slash(channel, "fight add", npc="Goblin", count=3)
    assert added.response.ephemeral
    assert "**Goblin 1**, **Goblin 2**, **Goblin 3**" in added.response.content


async def any_attacks(world) -> None:
    """The table lets everyone attack at any time, as often as they like: for the tests of what
    an attack does, not of whose turn it is (tests/commands/test_turns.py)."""
    await world.alice.slash(
        world.channel, "campaign settings", attacks_per_turn=0, out_of_turn=True
    )


def tracker(world):
    """The tracker message as the channel sees it now (the bot's last embed titled ⚔️)."""
    for message in reversed(world.channel.history()):
        if message.embeds and message.embeds[0].title.startswith("⚔️"):
            return message
    raise AssertionError("no tracker in the channel")


def lines(message) -> list[str]:
    return message.embeds[0].description.splitlines()


def line_of(world, name: str) -> str:
    """The tracker's line for one combatant."""
    return next(line for line in lines(tracker(world)) if f"**{name}**" in line)


async def test_a_fight_from_start_to_the_second_round(world):
    await fight_table(world)
    refused = await world.bob.slash(world.channel, "fight start")
    assert refused.response.ephemeral and "Only a GM" in refused.response.content
    shown = lines(tracker(world))
    assert shown[0].startswith("Everyone in?")
    assert [line.split("**")[1] for line in shown[1:]] == [
        "Ser Carol",
        "Jaime",
        "Goblin 1",
        "Goblin 2",
        "Goblin 3",
    ]
    assert "` 18` **Ser Carol** · HP 20/20" in shown[1]  # 20 + Constitution 0 + Resolve 0
    assert shown[3].endswith("· unhurt")  # players see an NPC's health as a descriptor

    begun = await world.alice.slash(world.channel, "fight next")
    assert begun.response.content == f"Round 1: **Ser Carol** (<@{world.carol.id}>)'s turn."
    wrong = await world.bob.slash(world.channel, "fight next")
    assert wrong.response.ephemeral and "It is Ser Carol's turn" in wrong.response.content
    done = await world.carol.slash(world.channel, "fight next")
    assert "**Jaime**" in done.response.content
    assert line_of(world, "Jaime").startswith("▶ ` 15` **Jaime**")
    for _ in range(4):
        turn = await world.alice.slash(world.channel, "fight next")
    assert turn.response.content.startswith("Round 2 begins: **Ser Carol**")
    assert tracker(world).embeds[0].title == "⚔️ Ambush: round 2"


async def test_an_attack_in_a_fight_applies_its_damage_to_that_copy(world):
    await fight_table(world)
    await any_attacks(world)
    world.dice.push(15)  # Jaime 23 against the goblin's take 10 + 3 = 13: 10 damage
    attack = await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Goblin 2")
    embed = embed_of(attack)
    assert embed["title"] == "Jaime: Attack with Long sword on Goblin 2"
    assert field(embed, "Health") == "Goblin 2 is wounded."  # 21 → 11 of 21, numbers hidden
    goblins = [line for line in lines(tracker(world)) if "Goblin" in line]
    assert [g.rsplit("· ", 1)[1] for g in goblins] == ["unhurt", "wounded", "unhurt"]
    gm = await world.alice.slash(world.channel, "fight show")
    numbers = gm.followups[0].embeds[0].description
    assert "**Goblin 2** · HP 11/21" in numbers and "**Goblin 1** · HP 21/21" in numbers
    world.dice.push(20)  # 28 against 13: 7 DoS capped 5, another 10
    embed = embed_of(
        await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Goblin 2")
    )
    assert field(embed, "Health") == "Goblin 2 is badly wounded."  # 1 of 21 left
    world.dice.push(20)
    embed = embed_of(
        await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Goblin 2")
    )
    assert field(embed, "Health") == "Goblin 2 is down."
    end = await world.alice.slash(world.channel, "fight end")
    summary = embed_of(end)
    # 10 + 10 + the last 1 of its 21 HP: the 9 past 0 are overkill, not damage dealt.
    assert "**Jaime**: dealt 21, took 0" in summary["description"]
    assert "**Goblin 2**: dealt 0, took 21 · down" in summary["description"]
    assert field(summary, "Down") == "Goblin 2"
    assert tracker(world).components == []  # no Next button on an ended fight


async def test_an_attack_on_a_player_in_a_fight_lands_after_the_defence(world):
    await fight_table(world)
    await any_attacks(world)
    await world.alice.slash(world.channel, "fight next")  # Ser Carol's turn
    world.dice.push(15)
    attack = await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Ser Carol")
    world.dice.push(5)  # Carol parries 5 + 2 + 3 = 10 against 23: 6 DoS capped 5, 10 damage
    done = await world.carol.click(attack.response, label="Parry")
    assert field(embed_of(done), "Health") == "Ser Carol: HP 20 → 10"
    assert "**Ser Carol** · HP 10/20" in line_of(world, "Ser Carol")
    sheet = embed_of(await world.carol.slash(world.channel, "fight show"))
    assert "HP 10/20" in sheet["description"]


async def test_health_by_hand_heal_and_undo(world):
    await fight_table(world)
    refused = await world.bob.slash(world.channel, "health damage", target="Goblin 1", amount=5)
    assert refused.response.ephemeral and "Only a GM" in refused.response.content
    hurt = await world.alice.slash(world.channel, "health damage", target="Goblin 1", amount=5)
    assert hurt.response.ephemeral and hurt.response.content == "Goblin 1: HP 21 → 16"
    assert hurt.followups[0].content == "Goblin 1 is wounded."  # what the table sees
    own = await world.bob.slash(world.channel, "health damage", target="Jaime", amount=4)
    assert own.response.content == "Jaime: HP 20 → 16"
    healed = await world.bob.slash(world.channel, "health heal", target="Jaime", amount=50)
    assert healed.response.content == "Jaime: HP 16 → 20"  # never above the maximum
    undone = await world.alice.slash(world.channel, "health undo")
    assert undone.response.content.startswith("Undone: Jaime HP 16 → 20")
    assert "**Jaime** · HP 16/20" in "\n".join(lines(tracker(world)))


async def test_effects_count_down_and_are_announced(world):
    await fight_table(world)
    await world.alice.slash(world.channel, "fight next")  # Ser Carol
    await world.alice.slash(world.channel, "fight effect", combatant="Ser Carol", name="Bleeding",
                            rounds=1)  # fmt: skip
    assert "Bleeding (1)" in line_of(world, "Ser Carol")
    ended = await world.carol.slash(world.channel, "fight next")
    assert "Bleeding on Ser Carol has ended." in ended.response.content
    assert "Bleeding" not in line_of(world, "Ser Carol")


async def test_the_next_button_survives_a_restart_and_obeys_the_turn(world):
    await fight_table(world)
    await world.alice.slash(world.channel, "fight next")  # Ser Carol's turn
    old = tracker(world)
    await world.restart()
    refused = await world.bob.click(old, label="Next turn")  # not Jaime's turn yet
    assert refused.response.ephemeral and "It is Ser Carol's turn" in refused.response.content
    pressed = await world.carol.click(old, label="Next turn")
    assert pressed.followups[0].content == f"Round 1: **Jaime** (<@{world.bob.id}>)'s turn."
    assert line_of(world, "Jaime").startswith("▶")


async def test_a_deleted_tracker_is_posted_again_on_the_next_change(world):
    await fight_table(world)
    await world.alice.delete(tracker(world))
    await world.alice.slash(world.channel, "fight next")
    assert line_of(world, "Ser Carol").startswith("▶ ` 18` **Ser Carol**")


async def test_join_without_a_character_or_fight_says_what_to_do(world):
    nothing = await world.bob.slash(world.channel, "fight join")
    assert nothing.response.ephemeral and "/character create" in nothing.response.content
    await make_jaime(world)
    no_fight = await world.bob.slash(world.channel, "fight join")
    assert no_fight.response.ephemeral and "/fight start" in no_fight.response.content


async def test_history_lists_health_changes_with_npc_numbers_for_gms_only(world):
    await fight_table(world)
    await any_attacks(world)
    world.dice.push(15)
    await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Goblin 2")
    player = embed_of(await world.carol.slash(world.channel, "history"))["description"]
    assert "**Goblin 2** lost health (hit)" in player and "HP 21" not in player
    gm = await world.alice.slash(world.channel, "history")
    assert gm.response.ephemeral
    assert "**Goblin 2** HP 21 → 11 (hit)" in embed_of(gm)["description"]


async def test_a_gm_attacks_as_one_copy_of_an_npc_by_its_name_in_the_fight(world):
    await fight_table(world)
    alice, channel = world.alice, world.channel
    await alice.slash(channel, "character weapon", name="Goblin", weapon="Spear", base=7,
                      attribute="Strength", skill="Spears")  # fmt: skip
    await alice.slash(channel, "fight next")  # Ser Carol's turn: no goblin's
    world.dice.push(15)  # 15 + Strength 1 + Spears 0 = 16
    attack = await alice.slash(channel, "attack", weapon="Spear", npc="Goblin 3", target="Jaime")
    assert embed_of(attack)["title"] == "Goblin 3: Attack with Spear on Jaime"
    world.dice.push(1)  # Jaime parries 1 + 3 + 0 = 4 against 16: 5 DoS (capped), 12 damage
    done = await world.bob.click(attack.response, label="Parry")
    assert field(embed_of(done), "Health") == "Jaime: HP 20 → 8"
    unknown = await alice.slash(channel, "attack", weapon="Spear", npc="Goblin 9", target="Jaime")
    assert unknown.response.ephemeral
    assert "No character named 'Goblin 9'" in unknown.response.content
    summary = embed_of(await alice.slash(channel, "fight end"))["description"]
    assert "**Goblin 3**: dealt 12, took 0" in summary  # the copy named, not the first
    assert "**Goblin 1**: dealt 0, took 0" in summary


async def test_a_non_lethal_beating_shows_on_the_tracker_as_it_does_in_the_attack(world):
    await fight_table(world)
    await any_attacks(world)
    await world.bob.slash(world.channel, "character weapon", weapon="Club", base=8,
                          attribute="Strength", skill="Long swords", kind="non-lethal")  # fmt: skip
    world.dice.push(15)  # 23 against 13: 5 DoS, 13 non-lethal: THP 21 → 8, HP still 21
    attack = await world.bob.slash(world.channel, "attack", weapon="Club", target="Goblin 1")
    assert field(embed_of(attack), "Health") == "Goblin 1 is badly wounded."
    assert line_of(world, "Goblin 1").endswith("· badly wounded")  # not "unhurt"
    world.dice.push(3)  # 11 against 13: the goblin's 1 DoS leave 5 - 1 = 4: HP 17 of 21
    attack = await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Goblin 1")
    assert field(embed_of(attack), "Health") == "Goblin 1 is badly wounded."  # THP is worse
    assert line_of(world, "Goblin 1").endswith("· badly wounded")


async def test_a_tracker_edit_that_lands_after_a_newer_one_is_made_again():
    edits = TrackerEdits()

    async def state(name: str) -> str:
        return name

    (older, first), (newer, second) = [
        await edits.read(7, lambda n=name: state(n)) for name in ("older", "newer")
    ]
    assert (older, newer) == ("older", "newer") and first < second  # read later, numbered higher
    assert edits.landed(7, second)
    assert not edits.landed(7, first)  # the older state landed on top: show the latest again
    _, third = await edits.read(7, lambda: state("latest"))
    assert edits.landed(7, third)
    assert edits.landed(8, first)  # each fight on its own


async def test_a_defence_after_the_fight_ended_says_its_damage_was_not_counted(world):
    """The fight ended while the attack waited for its defence: the defence still settles the
    roll, and says that its damage went nowhere and how to count it, instead of a silent
    '10 damage' that no health shows."""
    await fight_table(world)
    await any_attacks(world)
    await world.alice.slash(world.channel, "fight next")
    world.dice.push(15)
    attack = await world.bob.slash(world.channel, "attack", weapon="Long sword", target="Ser Carol")
    await world.alice.slash(world.channel, "fight end")
    world.dice.push(5)
    done = await world.carol.click(attack.response, label="Parry")
    embed = embed_of(done)
    assert embed["description"].startswith("**Hit: 5 DoS (capped from 6), 10 damage**")
    note = field(embed, "Not counted")
    assert note == (
        "The fight ended, or Ser Carol left it, before this defence: the damage is on no "
        "one's health. A GM can count it with `/health damage`."
    )
