"""Fights and health in the store: turns, effects, damage that is never lost, undo, scoping."""

from __future__ import annotations

import asyncio

import pytest

from storage import open_store
from storage.errors import Conflict, InvalidValue, NameTaken, NotFound, PermissionDenied
from storage.models import HealthTarget, NewCombatant, Press, Shot
from storage.sqlite import SqliteStore
from storage.testing import CHANNEL, GM, GUILD, OTHER_GUILD, OTHER_PLAYER, PLAYER
from wire.conditions import Effect, Target, Timing
from wire.dice import Die, DieSource
from wire.errors import RulesError
from wire.fight import AttackClaim, TurnRules, Use
from wire.gear import Reset
from wire.health import DamageKind, Pool
from wire.initiative import Initiative
from wire.sheet import Weapon


def init(face: int, reaction: int = 0, surprise: int = 0) -> Initiative:
    return Initiative(Die(face, DieSource.TABLE), reaction, surprise)


@pytest.fixture
async def table(store: SqliteStore, make_campaign, make_character):
    campaign = await make_campaign()
    ash = await make_character(
        campaign,
        "Ash",
        attributes={"Constitution": 2, "Resolve": 1, "Reaction": 2},
        weapons=[Weapon("Bow", 3, "Dexterity", "Bows"), Weapon("Sword", 4, "Strength", "Blades")],
    )
    goblin = await make_character(campaign, "Goblin", npc=True, attributes={"Reaction": 1})
    return campaign, ash, goblin


def goblins(goblin, count: int, face: int = 10) -> list[NewCombatant]:
    return [
        NewCombatant(f"Goblin {n}", goblin.id, None, True, init(face, 1), (21, 21, 0), 1)
        for n in range(1, count + 1)
    ]


async def test_a_fight_runs_turns_in_initiative_order_and_counts_rounds(
    store: SqliteStore, table
) -> None:
    campaign, ash, goblin = table
    with pytest.raises(PermissionDenied, match="Only a GM of"):
        await store.start_fight(GUILD, campaign.id, CHANNEL, PLAYER, "Ambush")
    fight = await store.start_fight(GUILD, campaign.id, CHANNEL, GM, "Ambush")
    with pytest.raises(Conflict, match="already running in this channel"):
        await store.start_fight(GUILD, campaign.id, CHANNEL, GM, "Another")
    pc = NewCombatant("Ash", ash.id, PLAYER, False, init(15, 2))
    with pytest.raises(PermissionDenied):
        await store.add_combatants(GUILD, fight.id, OTHER_PLAYER, [pc])
    with pytest.raises(PermissionDenied):
        await store.add_combatants(GUILD, fight.id, PLAYER, goblins(goblin, 1))
    await store.add_combatants(GUILD, fight.id, PLAYER, [pc])
    with pytest.raises(NameTaken, match="Ash is already in this fight"):
        await store.add_combatants(GUILD, fight.id, PLAYER, [pc])
    fight = await store.add_combatants(GUILD, fight.id, GM, goblins(goblin, 2, face=16))
    assert [c.name for c in fight.order()] == ["Ash", "Goblin 1", "Goblin 2"]  # 17, 17, 17
    assert fight.current() is None

    with pytest.raises(PermissionDenied):  # the first turn is the GM's to begin
        await store.advance_turn(GUILD, fight.id, PLAYER)
    turn = await store.advance_turn(GUILD, fight.id, GM)
    assert (turn.fight.round, turn.fight.current().name) == (1, "Ash")
    with pytest.raises(PermissionDenied, match="It is Ash's turn"):
        await store.advance_turn(GUILD, fight.id, OTHER_PLAYER)
    turn = await store.advance_turn(GUILD, fight.id, PLAYER)  # Ash's player ends Ash's turn
    assert turn.fight.current().name == "Goblin 1"
    await store.advance_turn(GUILD, fight.id, GM)
    turn = await store.advance_turn(GUILD, fight.id, GM)
    assert (turn.fight.round, turn.fight.current().name, turn.new_round) == (2, "Ash", True)


async def test_surprise_counts_in_round_one_only(store: SqliteStore, table) -> None:
    campaign, ash, goblin = table
    fight = await store.start_fight(GUILD, campaign.id, CHANNEL, GM, "Ambush")
    surprised = NewCombatant("Goblin 1", goblin.id, None, True, init(18, 1, surprise=10))
    await store.add_combatants(GUILD, fight.id, GM, [surprised])
    fight = await store.add_combatants(
        GUILD, fight.id, PLAYER, [NewCombatant("Ash", ash.id, PLAYER, False, init(10, 2))]
    )
    assert [c.name for c in fight.order()] == ["Ash", "Goblin 1"]  # 12 against 9
    for _ in range(3):
        turn = await store.advance_turn(GUILD, fight.id, GM)
    assert turn.fight.round == 2
    assert [c.name for c in turn.fight.order()] == ["Goblin 1", "Ash"]  # 19 against 12


async def test_two_presses_of_one_next_button_advance_once(store: SqliteStore, table) -> None:
    campaign, _, goblin = table
    fight = await store.start_fight(GUILD, campaign.id, CHANNEL, GM, "Ambush")
    fight = await store.add_combatants(GUILD, fight.id, GM, goblins(goblin, 3))
    step = fight.step
    results = await asyncio.gather(
        *(store.advance_turn(GUILD, fight.id, GM, expected_step=step) for _ in range(5)),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert all(isinstance(r, Conflict) for r in results if isinstance(r, Exception))
    assert (await store.get_fight(GUILD, fight.id)).current().name == "Goblin 1"


async def test_effects_count_down_at_the_end_of_their_combatants_turn(
    store: SqliteStore, table
) -> None:
    campaign, _, goblin = table
    fight = await store.start_fight(GUILD, campaign.id, CHANNEL, GM, "Ambush")
    fight = await store.add_combatants(GUILD, fight.id, GM, goblins(goblin, 2))
    first = fight.order()[0]
    await store.add_effect(GUILD, fight.id, GM, first.id, "Bleeding", 2)
    await store.add_effect(GUILD, fight.id, GM, first.id, "Prone", None)
    await store.advance_turn(GUILD, fight.id, GM)  # Goblin 1's turn begins
    turn = await store.advance_turn(GUILD, fight.id, GM)  # and ends: Bleeding 1 left
    assert turn.ended_effects == ()
    await store.advance_turn(GUILD, fight.id, GM)  # Goblin 2 ends; round 2, Goblin 1
    turn = await store.advance_turn(GUILD, fight.id, GM)  # Goblin 1's turn ends again
    assert turn.ended_effects == (("Goblin 1", "Bleeding"),)
    assert [e.name for e in turn.fight.find("Goblin 1").effects] == ["Prone"]


async def test_conditions_keep_every_field_and_count_down_by_their_timing(
    store: SqliteStore, table
) -> None:
    campaign, _, goblin = table
    fight = await store.start_fight(GUILD, campaign.id, CHANNEL, GM, "Ambush")
    fight = await store.add_combatants(GUILD, fight.id, GM, goblins(goblin, 2))
    first, second = fight.order()
    await store.add_effect(
        GUILD, fight.id, GM, first.id, "Stunned", 1, modifier=-4, timing=Timing.START
    )
    await store.add_effect(
        GUILD, fight.id, GM, first.id, "Weakened", None, modifier=-3,
        applies_to=Target.CHECK, stat="Strength", hidden=True,
    )  # fmt: skip
    fight = await store.add_effect(
        GUILD, fight.id, GM, second.id, "Marked", None, modifier=2,
        applies_to=Target.PARRY, timing=Timing.TURN, until_id=first.id,
    )  # fmt: skip
    assert fight.find("Goblin 1").effects[1] == Effect(
        fight.find("Goblin 1").effects[1].id, "Weakened", None, -3, Target.CHECK, "Strength",
        Timing.END, None, True,
    )  # fmt: skip
    assert fight.find("Goblin 2").effects[0].until_id == first.id
    turn = await store.advance_turn(GUILD, fight.id, GM)  # Goblin 1's turn begins
    assert set(turn.ended_effects) == {("Goblin 1", "Stunned"), ("Goblin 2", "Marked")}
    assert [e.name for e in turn.fight.find("Goblin 1").effects] == ["Weakened"]
    fight, gone = await store.remove_effect(GUILD, fight.id, GM, first.id, "weakened")
    assert gone.name == "Weakened" and fight.find("Goblin 1").effects == ()


async def test_a_player_may_not_hide_a_condition_and_limits_hold(store: SqliteStore, table) -> None:
    campaign, ash, _ = table
    await store.update_campaign(GUILD, campaign.id, GM, players_conditions=True)
    fight = await store.start_fight(GUILD, campaign.id, CHANNEL, GM, "Ambush")
    fight = await store.add_combatants(
        GUILD, fight.id, PLAYER, [NewCombatant("Ash", ash.id, PLAYER, False, init(10))]
    )
    ash_in = fight.find("Ash")
    with pytest.raises(PermissionDenied):
        await store.add_effect(GUILD, fight.id, PLAYER, ash_in.id, "Cursed", None, hidden=True)
    with pytest.raises(RulesError):
        await store.add_effect(GUILD, fight.id, PLAYER, ash_in.id, "Blessed", None, modifier=11)
    fight = await store.add_effect(GUILD, fight.id, PLAYER, ash_in.id, "Blessed", 2, modifier=1)
    assert fight.find("Ash").effects[0].modifier == 1


async def test_who_may_put_a_condition_on_a_combatant_is_the_sheets_rule(
    store: SqliteStore, table
) -> None:
    """As on the sheet (storage.models.condition_refusal): GMs; a player on their own
    character's combatant only where the table lets players; never another's nor an NPC."""
    campaign, ash, goblin = table
    fight = await store.start_fight(GUILD, campaign.id, CHANNEL, GM, "Ambush")
    pc = NewCombatant("Ash", ash.id, PLAYER, False, init(10))
    fight = await store.add_combatants(GUILD, fight.id, GM, [pc, *goblins(goblin, 1)])
    ash_in, goblin_in = fight.find("Ash"), fight.find("Goblin 1")
    with pytest.raises(PermissionDenied, match="players_conditions:true"):
        await store.add_effect(GUILD, fight.id, PLAYER, ash_in.id, "Focused", None)
    await store.add_effect(GUILD, fight.id, GM, ash_in.id, "Prone", None, modifier=-2)
    with pytest.raises(PermissionDenied, match="players_conditions:true"):
        await store.remove_effect(GUILD, fight.id, PLAYER, ash_in.id, "Prone")
    await store.update_campaign(GUILD, campaign.id, GM, players_conditions=True)
    fight = await store.add_effect(GUILD, fight.id, PLAYER, ash_in.id, "Focused", None)
    assert [e.name for e in fight.find("Ash").effects] == ["Prone", "Focused"]
    with pytest.raises(PermissionDenied, match="Only Ash's player or a GM"):
        await store.add_effect(GUILD, fight.id, OTHER_PLAYER, ash_in.id, "Hexed", None)
    with pytest.raises(PermissionDenied, match="Only Ash's player or a GM"):
        await store.remove_effect(GUILD, fight.id, OTHER_PLAYER, ash_in.id, "Focused")
    with pytest.raises(PermissionDenied, match="an NPC"):
        await store.add_effect(GUILD, fight.id, PLAYER, goblin_in.id, "Hexed", None)
    await store.add_effect(GUILD, fight.id, GM, goblin_in.id, "Sly", None)
    with pytest.raises(PermissionDenied, match="an NPC"):
        await store.remove_effect(GUILD, fight.id, PLAYER, goblin_in.id, "Sly")
    fight, gone = await store.remove_effect(GUILD, fight.id, PLAYER, ash_in.id, "prone")
    assert gone.name == "Prone" and [e.name for e in fight.find("Ash").effects] == ["Focused"]
    assert [e.name for e in fight.find("Goblin 1").effects] == ["Sly"]


async def test_concurrent_blows_lose_no_damage_and_pcs_keep_theirs(
    store: SqliteStore, table, store_database: str
) -> None:
    campaign, ash, goblin = table
    assert ash.health().hp == 23  # 20 + Constitution 2 + Resolve 1
    fight = await store.start_fight(GUILD, campaign.id, CHANNEL, GM, "Ambush")
    await store.add_combatants(
        GUILD, fight.id, PLAYER, [NewCombatant("Ash", ash.id, PLAYER, False, init(10))]
    )
    fight = await store.add_combatants(GUILD, fight.id, GM, goblins(goblin, 2))
    one = fight.find("Goblin 1")
    me = fight.find("Ash")
    blows = [
        store.change_health(
            GUILD,
            campaign.id,
            PLAYER,
            HealthTarget(combatant_id=one.id),
            "damage",
            2,
            armour=True,
            by_roll=True,
            attacker_id=me.id,
        )
        for _ in range(10)
    ]
    await asyncio.gather(*blows)
    fight = await store.get_fight(GUILD, fight.id)
    assert fight.find("Goblin 1").health.hp == 21 - 10  # armour 1 took 1 off each blow of 2
    assert fight.find("Goblin 2").health.hp == 21  # each copy has its own health
    assert (fight.find("Ash").dealt, fight.find("Goblin 1").taken) == (10, 10)

    entry = await store.change_health(
        GUILD, campaign.id, GM, HealthTarget(combatant_id=me.id), "damage", 8,
        kind=DamageKind.NON_LETHAL,
    )  # fmt: skip
    assert (entry.change.pool, entry.change.before, entry.change.after) == (Pool.THP, 23, 15)
    await store.end_fight(GUILD, fight.id, GM)
    reopened = await open_store(store_database)
    try:  # a player character's damage stays on the sheet after the fight, until healed
        sheet = await reopened.get_character(GUILD, campaign.id, "Ash")
        assert sheet.health().thp == 15
        with pytest.raises(PermissionDenied):
            await reopened.change_health(
                GUILD, campaign.id, OTHER_PLAYER, HealthTarget(character_id=ash.id), "heal", 5,
                pool=Pool.THP,
            )  # fmt: skip
        healed = await reopened.change_health(
            GUILD, campaign.id, PLAYER, HealthTarget(character_id=ash.id), "heal", 50,
            pool=Pool.THP,
        )  # fmt: skip
        assert healed.change.after == 23  # never above the maximum
    finally:
        await reopened.close()


async def test_a_gm_undoes_the_last_change_of_health(store: SqliteStore, table) -> None:
    campaign, _, goblin = table
    fight = await store.start_fight(GUILD, campaign.id, CHANNEL, GM, "Ambush")
    fight = await store.add_combatants(GUILD, fight.id, GM, goblins(goblin, 1))
    target = HealthTarget(combatant_id=fight.find("Goblin 1").id)
    await store.change_health(GUILD, campaign.id, GM, target, "damage", 5)
    await store.change_health(GUILD, campaign.id, GM, target, "damage", 7)
    with pytest.raises(PermissionDenied):
        await store.undo_health(GUILD, campaign.id, PLAYER)
    undone = await store.undo_health(GUILD, campaign.id, GM)
    assert (undone.change.before, undone.change.after, undone.undone) == (16, 9, True)
    assert (await store.get_fight(GUILD, fight.id)).find("Goblin 1").health.hp == 16
    history = await store.recent_health(GUILD, campaign.id)
    assert [(h.change.after, h.undone) for h in history] == [(9, True), (16, False)]


async def test_fights_are_scoped_to_their_guild(store: SqliteStore, table) -> None:
    campaign, _, goblin = table
    fight = await store.start_fight(GUILD, campaign.id, CHANNEL, GM, "Ambush")
    assert await store.get_fight(OTHER_GUILD, fight.id) is None
    assert await store.running_fight(OTHER_GUILD, CHANNEL) is None
    with pytest.raises(NotFound):
        await store.add_combatants(OTHER_GUILD, fight.id, GM, goblins(goblin, 1))
    with pytest.raises(NotFound):
        await store.advance_turn(OTHER_GUILD, fight.id, GM)
    ended = await store.end_fight(GUILD, fight.id, GM)
    assert ended.ended and await store.running_fight(GUILD, CHANNEL) is None


async def test_an_attack_is_taken_once_per_claim_and_the_turn_s_counts_reset(
    store: SqliteStore, table
) -> None:
    """The store keeps what a turn did (wire.fight decides): an attack is counted as a
    compare-and-set on the count a menu was made for, a GM's reaction is kept and used up, and
    a change of turn resets both, on each backend."""
    campaign, ash, goblin = table
    fight = await store.start_fight(GUILD, campaign.id, CHANNEL, GM, "Ambush")
    pc = NewCombatant("Ash", ash.id, PLAYER, False, init(19, 2))
    await store.add_combatants(GUILD, fight.id, PLAYER, [pc])
    fight = await store.add_combatants(GUILD, fight.id, GM, goblins(goblin, 1))
    ash_id = fight.find("Ash").id
    with pytest.raises(PermissionDenied, match="The fight has not begun"):
        await store.take_attack(GUILD, fight.id, PLAYER, ash_id)
    fight = (await store.advance_turn(GUILD, fight.id, GM)).fight  # Ash's turn
    claim = AttackClaim(fight.step, 0)
    made = await store.take_attack(GUILD, fight.id, PLAYER, ash_id, claim=claim)
    assert made.verdict.uses is Use.TURN
    with pytest.raises(Conflict, match="That menu was used already"):
        await store.take_attack(GUILD, fight.id, PLAYER, ash_id, claim=claim)
    with pytest.raises(PermissionDenied, match=r"this turn's attacks already \(1 of 1"):
        await store.take_attack(GUILD, fight.id, PLAYER, ash_id)
    with pytest.raises(PermissionDenied, match="Only a GM of"):
        await store.grant_reaction(GUILD, fight.id, PLAYER, ash_id)
    fight = await store.grant_reaction(GUILD, fight.id, GM, ash_id)
    assert (fight.find("Ash").attacks, fight.find("Ash").reaction) == (1, True)
    used = await store.take_attack(GUILD, fight.id, PLAYER, ash_id)
    assert used.verdict.uses is Use.REACTION
    fight = await store.get_fight(GUILD, fight.id)
    assert (fight.find("Ash").attacks, fight.find("Ash").reaction) == (2, False)
    await store.grant_reaction(GUILD, fight.id, GM, ash_id)
    fight = (await store.advance_turn(GUILD, fight.id, PLAYER)).fight  # Goblin 1's turn
    assert all(c.attacks == 0 and not c.reaction for c in fight.combatants)
    with pytest.raises(PermissionDenied, match="It is Goblin 1's turn, not Ash's"):
        await store.take_attack(GUILD, fight.id, PLAYER, ash_id)
    by_gm = await store.take_attack(GUILD, fight.id, GM, ash_id)
    assert by_gm.verdict.uses is Use.FREE  # a GM may

    changed = await store.update_campaign(
        GUILD, campaign.id, GM, attacks_per_turn=0, out_of_turn_attacks=True
    )
    assert changed.turn_rules == TurnRules(None, True)
    assert (await store.take_attack(GUILD, fight.id, PLAYER, ash_id)).verdict.uses is Use.FREE
    with pytest.raises(RulesError, match="between 0 and 20"):
        await store.update_campaign(GUILD, campaign.id, GM, attacks_per_turn=21)
    changed = await store.update_campaign(GUILD, campaign.id, GM, attacks_per_turn=3)
    assert changed.turn_rules == TurnRules(3, True)


async def test_an_attack_refused_costs_neither_its_turn_nor_its_arrow(
    store: SqliteStore, table
) -> None:
    """The arrow is checked before the turn is taken and spent in the same transaction: at 0
    arrows the turn's attack is still there for another weapon, and an attack out of turn
    keeps its arrow."""
    campaign, ash, goblin = table
    await store.add_counter(GUILD, campaign.id, PLAYER, "Ash", "Arrows", 20, 1, Reset.FIGHT, "Bow")
    fight = await store.start_fight(GUILD, campaign.id, CHANNEL, GM, "Ambush")
    pc = NewCombatant("Ash", ash.id, PLAYER, False, init(19, 2))
    await store.add_combatants(GUILD, fight.id, PLAYER, [pc])
    fight = await store.add_combatants(GUILD, fight.id, GM, goblins(goblin, 1))
    ash_id = fight.find("Ash").id
    bow = Shot(ash.id, "Bow")

    async def arrows() -> int:
        return await store.ammunition(GUILD, campaign.id, ash.id, "Bow")

    with pytest.raises(PermissionDenied, match="The fight has not begun"):
        await store.take_attack(GUILD, fight.id, PLAYER, ash_id, shot=bow)
    assert (await arrows()).value == 1  # refused by the turn: the arrow stays
    fight = (await store.advance_turn(GUILD, fight.id, GM)).fight  # Ash's turn
    taken = await store.take_attack(GUILD, fight.id, PLAYER, ash_id, shot=bow)
    assert taken.verdict.uses is Use.TURN
    assert [c.value for c in taken.shot] == [1, 0]
    await store.advance_turn(GUILD, fight.id, PLAYER)
    fight = (await store.advance_turn(GUILD, fight.id, GM)).fight  # Ash's again, no arrow
    with pytest.raises(InvalidValue, match="Bow has no Arrows left"):
        await store.take_attack(GUILD, fight.id, PLAYER, ash_id, shot=bow)
    assert (await store.get_fight(GUILD, fight.id)).find("Ash").attacks == 0
    sword = await store.take_attack(GUILD, fight.id, PLAYER, ash_id, shot=Shot(ash.id, "Sword"))
    assert sword.verdict.uses is Use.TURN and sword.shot is None  # no ammunition to spend


async def test_a_saved_rolls_press_attacks_once_per_turn(store: SqliteStore, table) -> None:
    """With any number of attacks a turn, a press of a saved roll's button is still one
    attack: its second press in the turn (a double tap, a second client, after a restart) is
    refused, the same button on another message or the next turn attacks."""
    campaign, ash, goblin = table
    await store.update_campaign(GUILD, campaign.id, GM, attacks_per_turn=0)
    fight = await store.start_fight(GUILD, campaign.id, CHANNEL, GM, "Ambush")
    pc = NewCombatant("Ash", ash.id, PLAYER, False, init(19, 2))
    await store.add_combatants(GUILD, fight.id, PLAYER, [pc])
    fight = await store.add_combatants(GUILD, fight.id, GM, goblins(goblin, 1))
    ash_id = fight.find("Ash").id
    await store.advance_turn(GUILD, fight.id, GM)  # Ash's turn
    press = Press(message_id=555, saved_id=7)
    await store.take_attack(GUILD, fight.id, PLAYER, ash_id, press=press)
    with pytest.raises(Conflict, match="That button attacked already this turn"):
        await store.take_attack(GUILD, fight.id, PLAYER, ash_id, press=press)
    await store.take_attack(GUILD, fight.id, PLAYER, ash_id, press=Press(556, 7))
    await store.take_attack(GUILD, fight.id, PLAYER, ash_id, press=Press(555, 8))
    assert (await store.get_fight(GUILD, fight.id)).find("Ash").attacks == 3
    await store.advance_turn(GUILD, fight.id, PLAYER)
    await store.advance_turn(GUILD, fight.id, GM)  # Ash's turn again
    again = await store.take_attack(GUILD, fight.id, PLAYER, ash_id, press=press)
    assert again.verdict.uses is Use.TURN
