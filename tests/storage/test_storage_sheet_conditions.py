"""Conditions on a character outside a fight in the store, both backends: read with the sheet
(the cached roll read too, emptied by the change), who may, the limits, scoping, and what a
fight does to them (copied in as it joins, rounds ending with it, a cure taking it off)."""

from __future__ import annotations

import pytest

from storage.errors import InvalidValue, NotFound, PermissionDenied
from storage.models import NewCombatant
from storage.testing import CHANNEL, GM, GUILD, OTHER_GUILD, OTHER_PLAYER, PLAYER
from tests.storage.test_storage_fights import init
from wire.conditions import MAX_CONDITIONS, Effect, Target, Timing
from wire.errors import RulesError


def blessed(**changes) -> Effect:
    fields = {"modifier": 1, "applies_to": Target.ATTACK, **changes}
    return Effect(0, fields.pop("name", "Blessed"), fields.pop("rounds", None), **fields)


@pytest.fixture
async def table(store, make_campaign, make_character):
    campaign = await make_campaign(channel_id=CHANNEL)
    ash = await make_character(campaign, "Ash")
    await store.set_active_character(GUILD, campaign.id, PLAYER, "Ash")
    goblin = await make_character(campaign, "Goblin", npc=True)
    return campaign, ash, goblin


async def test_a_condition_is_read_with_the_sheet_and_the_rolls_read(store, table) -> None:
    campaign, _ash, _goblin = table
    _c, before = await store.roller_context(GUILD, CHANNEL, PLAYER)  # cached now
    assert before is not None and before.conditions == ()
    sheet, kept = await store.add_sheet_condition(GUILD, campaign.id, GM, "ash", blessed())
    assert [c.name for c in sheet.conditions] == ["Blessed"] and kept.rounds_left is None
    _c, after = await store.roller_context(GUILD, CHANNEL, PLAYER)
    assert after is not None and after.conditions == (kept,)  # the cache saw the change
    assert (await store.get_character(GUILD, campaign.id, "Ash")).conditions == (kept,)
    sheet, gone = await store.remove_sheet_condition(GUILD, campaign.id, GM, "Ash", "BLESSED")
    assert gone == kept and sheet.conditions == ()
    _c, again = await store.roller_context(GUILD, CHANNEL, PLAYER)
    assert again is not None and again.conditions == ()


async def test_who_may_and_the_players_setting(store, table) -> None:
    campaign, _ash, _goblin = table
    with pytest.raises(PermissionDenied, match="players_conditions"):
        await store.add_sheet_condition(GUILD, campaign.id, PLAYER, "Ash", blessed())
    await store.update_campaign(GUILD, campaign.id, GM, players_conditions=True)
    await store.add_sheet_condition(GUILD, campaign.id, PLAYER, "Ash", blessed())
    with pytest.raises(PermissionDenied):
        await store.add_sheet_condition(GUILD, campaign.id, OTHER_PLAYER, "Ash", blessed())
    with pytest.raises(PermissionDenied):
        await store.add_sheet_condition(GUILD, campaign.id, PLAYER, "Goblin", blessed())
    with pytest.raises(PermissionDenied):
        await store.add_sheet_condition(GUILD, campaign.id, PLAYER, "Ash", blessed(hidden=True))
    with pytest.raises(PermissionDenied):
        await store.remove_sheet_condition(GUILD, campaign.id, OTHER_PLAYER, "Ash", "Blessed")
    with pytest.raises(NotFound):  # another guild never finds the sheet
        await store.add_sheet_condition(OTHER_GUILD, campaign.id, GM, "Ash", blessed())


async def test_the_limits(store, table) -> None:
    campaign, _ash, _goblin = table
    with pytest.raises(RulesError):
        await store.add_sheet_condition(GUILD, campaign.id, GM, "Ash", blessed(modifier=11))
    with pytest.raises(RulesError):
        await store.add_sheet_condition(GUILD, campaign.id, GM, "Ash", blessed(name="x" * 41))
    with pytest.raises(RulesError):
        await store.add_sheet_condition(
            GUILD, campaign.id, GM, "Ash", blessed(timing=Timing.TURN, until_id=1)
        )
    for n in range(MAX_CONDITIONS):
        await store.add_sheet_condition(GUILD, campaign.id, GM, "Ash", blessed(name=f"C{n}"))
    with pytest.raises(InvalidValue, match="the limit"):
        await store.add_sheet_condition(GUILD, campaign.id, GM, "Ash", blessed(name="More"))


async def test_a_fight_takes_them_in_and_ends_those_in_rounds(store, table) -> None:
    campaign, ash, goblin = table
    await store.add_sheet_condition(GUILD, campaign.id, GM, "Ash", blessed(rounds=1))
    await store.add_sheet_condition(GUILD, campaign.id, GM, "Ash", blessed(name="Limping"))
    await store.add_sheet_condition(GUILD, campaign.id, GM, "Goblin", blessed(name="Sly"))
    fight = await store.start_fight(GUILD, campaign.id, CHANNEL, GM, "Ambush")
    pc = NewCombatant("Ash", ash.id, PLAYER, False, init(15, 2))
    npcs = [
        NewCombatant(f"Goblin {n}", goblin.id, None, True, init(10, 1), (21, 21, 0), 1)
        for n in (1, 2)
    ]
    fight = await store.add_combatants(GUILD, fight.id, GM, [pc, *npcs])
    named = {c.name: [e.name for e in c.effects] for c in fight.combatants}
    assert named == {"Ash": ["Blessed", "Limping"], "Goblin 1": ["Sly"], "Goblin 2": ["Sly"]}
    await store.add_sheet_condition(GUILD, campaign.id, GM, "Ash", blessed(name="Late"))
    fight = await store.running_fight(GUILD, CHANNEL)
    assert [e.name for e in fight.find("Ash").effects] == ["Blessed", "Limping", "Late"]
    await store.remove_sheet_condition(GUILD, campaign.id, GM, "Ash", "Late")
    fight = await store.running_fight(GUILD, CHANNEL)
    assert [e.name for e in fight.find("Ash").effects] == ["Blessed", "Limping"]
    ash_id = fight.find("Ash").id
    with pytest.raises(PermissionDenied, match="players_conditions"):  # the GMs' (setting off)
        await store.remove_effect(GUILD, fight.id, PLAYER, ash_id, "Limping")
    await store.remove_effect(GUILD, fight.id, GM, fight.find("Goblin 1").id, "Sly")
    await store.remove_effect(GUILD, fight.id, GM, ash_id, "Limping")  # a PC's: off the sheet
    await store.end_fight(GUILD, fight.id, GM)
    assert (await store.get_character(GUILD, campaign.id, "Ash")).conditions == ()
    goblin_sheet = await store.get_character(GUILD, campaign.id, "Goblin")
    assert [c.name for c in goblin_sheet.conditions] == ["Sly"]  # the NPC sheet keeps it
