"""Gear, purses and counters in the store, on both backends: who may, limits, acting once,
gives on both sides at once, the ledger and its undo, the fight's end, scoping."""

from __future__ import annotations

import asyncio

import pytest

from storage.errors import Conflict, InvalidValue, NotFound, PermissionDenied
from storage.models import NewCombatant
from storage.testing import CHANNEL, GM, GUILD, OTHER_GUILD, OTHER_PLAYER, PLAYER
from storage.transfer import check_import
from wire.dice import Die, DieSource
from wire.gear import MAX_COUNTERS, MAX_ITEMS, Currency, Reset
from wire.initiative import Initiative
from wire.sheet import Weapon

BOW = Weapon("Longbow", 4, "Dexterity", "Bows")


@pytest.fixture
async def table(store, make_campaign, make_character):
    campaign = await make_campaign()
    ash = await make_character(
        campaign, "Ash", attributes={"Strength": 2, "Resolve": 1}, weapons=[BOW]
    )
    bram = await make_character(campaign, "Bram", owner_id=OTHER_PLAYER)
    goblin = await make_character(campaign, "Goblin", npc=True)
    return campaign, ash, bram, goblin


async def test_items_add_up_weigh_and_come_off(store, table) -> None:
    campaign, _ash, _bram, _goblin = table
    await store.add_item(GUILD, campaign.id, PLAYER, "Ash", "Rope", 1, 1500, "hemp")
    item, gear = await store.add_item(GUILD, campaign.id, PLAYER, "ash", "rope", 2, 1000)
    assert (item.name, item.quantity, item.grams, item.note) == ("Rope", 3, 1000, "hemp")
    await store.add_item(GUILD, campaign.id, PLAYER, "Ash", "Tent", 1, 9000, carried=False)
    tent, _gear = await store.add_item(GUILD, campaign.id, PLAYER, "Ash", "tent")
    assert (tent.quantity, tent.grams, tent.carried) == (2, 9000, False)  # none given: kept
    await store.remove_item(GUILD, campaign.id, PLAYER, "Ash", "Tent", 1)
    gear = await store.gear(GUILD, campaign.id, PLAYER, "Ash")
    assert gear.load.carried_g == 3000 and gear.load.max_load_g == 6000
    taken, gear = await store.remove_item(GUILD, campaign.id, PLAYER, "Ash", "Rope", 1)
    assert taken.quantity == 1 and [i.quantity for i in gear.items] == [2, 1]
    await store.remove_item(GUILD, campaign.id, PLAYER, "Ash", "Rope")
    with pytest.raises(NotFound, match="carries no Rope"):
        await store.remove_item(GUILD, campaign.id, PLAYER, "Ash", "Rope", 1)
    with pytest.raises(InvalidValue, match="has 1 of Tent, not 2"):
        await store.remove_item(GUILD, campaign.id, PLAYER, "Ash", "Tent", 2)


async def test_players_keep_to_their_own_and_npcs_gear_is_the_gms(store, table) -> None:
    campaign, _ash, _bram, _goblin = table
    with pytest.raises(PermissionDenied, match="Only Ash's player or a GM"):
        await store.add_item(GUILD, campaign.id, OTHER_PLAYER, "Ash", "Rope")
    with pytest.raises(PermissionDenied, match="Only Ash's player or a GM"):
        await store.gear(GUILD, campaign.id, OTHER_PLAYER, "Ash")
    with pytest.raises(PermissionDenied, match="Only a GM"):
        await store.gear(GUILD, campaign.id, PLAYER, "Goblin")
    await store.add_item(GUILD, campaign.id, GM, "Goblin", "Rusty knife")
    await store.add_item(GUILD, campaign.id, GM, "Ash", "Letter")
    with pytest.raises(NotFound):
        await store.gear(OTHER_GUILD, campaign.id, GM, "Ash")


async def test_limits_are_refused_clearly(store, table) -> None:
    campaign, _ash, _bram, _goblin = table
    with pytest.raises(InvalidValue, match="quantity is 1 to 10000"):
        await store.add_item(GUILD, campaign.id, PLAYER, "Ash", "Arrow", 10_001)
    with pytest.raises(InvalidValue, match="weighs 0 to"):
        await store.add_item(GUILD, campaign.id, PLAYER, "Ash", "Anvil", 1, 1_000_001)
    with pytest.raises(InvalidValue, match="item name"):
        await store.add_item(GUILD, campaign.id, PLAYER, "Ash", "x" * 65)
    for n in range(MAX_ITEMS):
        await store.add_item(GUILD, campaign.id, PLAYER, "Ash", f"Thing {n}")
    with pytest.raises(InvalidValue, match="100 different items"):
        await store.add_item(GUILD, campaign.id, PLAYER, "Ash", "One more")
    for n in range(MAX_COUNTERS):
        await store.add_counter(GUILD, campaign.id, PLAYER, "Ash", f"C{n}", 3)
    with pytest.raises(InvalidValue, match="25 counters"):
        await store.add_counter(GUILD, campaign.id, PLAYER, "Ash", "Luck", 3)
    with pytest.raises(InvalidValue, match="maximum is 1 to 1000"):
        await store.add_counter(GUILD, campaign.id, PLAYER, "Ash", "C1", 1001)


async def test_the_purse_keeps_a_ledger_never_goes_below_zero_and_a_gm_undoes(store, table) -> None:
    campaign, _ash, _bram, _goblin = table
    got = await store.change_purse(GUILD, campaign.id, PLAYER, "Ash", "receive", 50, "loot")
    assert got.purse.balance == 50
    with pytest.raises(InvalidValue, match="not that much money"):
        await store.change_purse(GUILD, campaign.id, PLAYER, "Ash", "pay", 51)
    await store.change_purse(GUILD, campaign.id, PLAYER, "Ash", "pay", 20, "rope")
    with pytest.raises(PermissionDenied, match="Only a GM"):
        await store.change_purse(GUILD, campaign.id, PLAYER, "Ash", "grant", 5, "mine")
    granted = await store.change_purse(GUILD, campaign.id, GM, "Ash", "grant", 100, "reward")
    assert granted.purse.balance == 130
    with pytest.raises(PermissionDenied):
        await store.undo_purse(GUILD, campaign.id, PLAYER, "Ash")
    undone = await store.undo_purse(GUILD, campaign.id, GM, "Ash")
    assert undone.purse.balance == 30 and undone.entry.amount == -100
    ledger = await store.purse_ledger(GUILD, campaign.id, PLAYER, "Ash")
    assert [(e.kind, e.amount) for e in ledger.entries] == [
        ("undo", -100),
        ("grant", 100),
        ("pay", -20),
        ("receive", 50),
    ]
    assert ledger.entries[1].id in ledger.undone and ledger.entries[2].user_id == PLAYER
    await store.undo_purse(GUILD, campaign.id, GM, "Ash")  # the payment of 20
    assert (await store.gear(GUILD, campaign.id, PLAYER, "Ash")).purse.balance == 50


async def test_one_press_changes_a_purse_once(store, table) -> None:
    campaign, _ash, _bram, _goblin = table
    await store.change_purse(GUILD, campaign.id, PLAYER, "Ash", "receive", 5, press_id=77)
    with pytest.raises(Conflict, match="counted already"):
        await store.change_purse(GUILD, campaign.id, PLAYER, "Ash", "receive", 5, press_id=77)
    assert (await store.gear(GUILD, campaign.id, PLAYER, "Ash")).purse.balance == 5


async def test_a_give_moves_both_sides_at_once_and_its_undo_both(store, table) -> None:
    campaign, _ash, _bram, _goblin = table
    await store.change_purse(GUILD, campaign.id, GM, "Ash", "grant", 30, "pay day")
    await store.set_gear_settings(GUILD, campaign.id, GM, gifts_at_once=True)
    outcome = await store.give(GUILD, campaign.id, PLAYER, "Ash", "Bram", amount=10)
    assert outcome.gift is None
    assert (await store.gear(GUILD, campaign.id, GM, "Bram")).purse.balance == 10
    await store.undo_purse(GUILD, campaign.id, GM, "Bram")
    assert (await store.gear(GUILD, campaign.id, GM, "Bram")).purse.balance == 0
    assert (await store.gear(GUILD, campaign.id, GM, "Ash")).purse.balance == 30


async def test_a_players_give_waits_for_the_receiver_and_acts_once(store, table) -> None:
    campaign, _ash, _bram, _goblin = table
    await store.add_item(GUILD, campaign.id, PLAYER, "Ash", "Arrow", 3, 50)
    outcome = await store.give(GUILD, campaign.id, PLAYER, "Ash", "Bram", item="arrow", quantity=2)
    assert outcome.gift is not None and outcome.receiver_owner == OTHER_PLAYER
    gift_id = outcome.gift.id
    assert [i.quantity for i in (await store.gear(GUILD, campaign.id, PLAYER, "Ash")).items] == [3]
    with pytest.raises(PermissionDenied, match="Only Bram's player"):
        await store.answer_gift(GUILD, campaign.id, PLAYER, gift_id, True)
    _gift, state = await store.answer_gift(GUILD, campaign.id, OTHER_PLAYER, gift_id, True)
    assert state == "accepted"
    with pytest.raises(Conflict, match="answered already"):
        await store.answer_gift(GUILD, campaign.id, OTHER_PLAYER, gift_id, True)
    bram = await store.gear(GUILD, campaign.id, OTHER_PLAYER, "Bram")
    assert [(i.name, i.quantity, i.grams) for i in bram.items] == [("Arrow", 2, 50)]
    ash = await store.gear(GUILD, campaign.id, PLAYER, "Ash")
    assert [i.quantity for i in ash.items] == [1]


async def test_an_accepted_gift_the_giver_no_longer_has_moves_nothing(store, table) -> None:
    campaign, _ash, _bram, _goblin = table
    await store.add_item(GUILD, campaign.id, PLAYER, "Ash", "Arrow", 1)
    outcome = await store.give(GUILD, campaign.id, PLAYER, "Ash", "Bram", item="Arrow")
    await store.remove_item(GUILD, campaign.id, PLAYER, "Ash", "Arrow")
    assert outcome.gift is not None
    _gift, state = await store.answer_gift(GUILD, campaign.id, OTHER_PLAYER, outcome.gift.id, True)
    assert state == "failed"
    assert (await store.gear(GUILD, campaign.id, OTHER_PLAYER, "Bram")).items == ()


async def test_two_gives_of_the_last_arrow_at_once_one_succeeds(store, table) -> None:
    campaign, _ash, _bram, _goblin = table
    await store.add_item(GUILD, campaign.id, GM, "Ash", "Arrow", 1)
    results = await asyncio.gather(
        store.give(GUILD, campaign.id, GM, "Ash", "Bram", item="Arrow"),
        store.give(GUILD, campaign.id, GM, "Ash", "Goblin", item="Arrow"),
        return_exceptions=True,
    )
    assert sorted(type(r).__name__ for r in results) == ["GiveOutcome", "NotFound"]
    bram = await store.gear(GUILD, campaign.id, GM, "Bram")
    goblin = await store.gear(GUILD, campaign.id, GM, "Goblin")
    assert len(bram.items) + len(goblin.items) == 1


async def test_two_spends_of_the_last_arrow_at_once_one_succeeds(store, table) -> None:
    campaign, _ash, _bram, _goblin = table
    await store.add_counter(GUILD, campaign.id, PLAYER, "Ash", "Arrows", 20, 1)
    results = await asyncio.gather(
        *(store.change_counter(GUILD, campaign.id, PLAYER, "Ash", "Arrows", spend=1) for _ in "ab"),
        return_exceptions=True,
    )
    assert sorted(type(r).__name__ for r in results) == ["InvalidValue", "tuple"]
    [arrows] = (await store.gear(GUILD, campaign.id, PLAYER, "Ash")).counters
    assert arrows.value == 0


async def test_counters_never_leave_zero_to_maximum_and_a_press_acts_once(store, table) -> None:
    campaign, _ash, _bram, _goblin = table
    counter = await store.add_counter(GUILD, campaign.id, PLAYER, "Ash", "Luck", 3, 1)
    assert (counter.value, counter.maximum, counter.reset) == (1, 3, Reset.GM)
    before, after = await store.change_counter(
        GUILD, campaign.id, PLAYER, "Ash", "luck", spend=1, expected=1
    )
    assert (before.value, after.value) == (1, 0)
    with pytest.raises(Conflict, match="at 0 now, not 1"):
        await store.change_counter(GUILD, campaign.id, PLAYER, "Ash", "luck", spend=1, expected=1)
    with pytest.raises(InvalidValue, match="Luck is at 0"):
        await store.change_counter(GUILD, campaign.id, PLAYER, "Ash", "luck", spend=1)
    _, back = await store.change_counter(GUILD, campaign.id, PLAYER, "Ash", "luck", spend=-9)
    assert back.value == 3
    with pytest.raises(InvalidValue, match="0 to its maximum 3"):
        await store.change_counter(GUILD, campaign.id, PLAYER, "Ash", "luck", value=4)


async def test_a_fights_end_fills_its_fighters_fight_counters_only(store, table) -> None:
    campaign, ash, bram, _goblin = table
    await store.add_counter(
        GUILD, campaign.id, PLAYER, "Ash", "Arrows", 20, 2, Reset.FIGHT, "longbow"
    )
    await store.add_counter(GUILD, campaign.id, PLAYER, "Ash", "Luck", 3, 0, Reset.SESSION)
    await store.add_counter(GUILD, campaign.id, OTHER_PLAYER, "Bram", "Bolts", 9, 0, Reset.FIGHT)
    fight = await store.start_fight(GUILD, campaign.id, CHANNEL, GM, "Ambush")
    pc = NewCombatant(
        "Ash", ash.id, PLAYER, False, Initiative(Die(10, DieSource.TABLE), 0), (0, 0, 0), 0
    )
    await store.add_combatants(GUILD, fight.id, GM, [pc])
    spent = await store.spend_ammunition(GUILD, campaign.id, ash.id, "Longbow")
    assert spent is not None and spent[1].value == 1
    await store.spend_ammunition(GUILD, campaign.id, ash.id, "Longbow")
    with pytest.raises(InvalidValue, match="Longbow has no Arrows left"):
        await store.spend_ammunition(GUILD, campaign.id, ash.id, "Longbow")
    assert await store.spend_ammunition(GUILD, campaign.id, ash.id, "Dagger") is None
    await store.end_fight(GUILD, fight.id, GM)
    ash_counters = {
        c.name: c.value for c in (await store.gear(GUILD, campaign.id, GM, "Ash")).counters
    }
    assert ash_counters == {"Arrows": 20, "Luck": 0}
    assert [c.value for c in (await store.gear(GUILD, campaign.id, GM, bram.id)).counters] == [0]
    assert await store.reset_counters(GUILD, campaign.id, GM) == 1  # the session's end
    luck = (await store.gear(GUILD, campaign.id, GM, "Ash")).counters[1]
    assert luck.value == 3


async def test_the_currency_is_the_gms_and_kept(store, table) -> None:
    campaign, _ash, _bram, _goblin = table
    gold = Currency(("Kupfer", "Silber", "Gold"), (10, 10))
    with pytest.raises(PermissionDenied):
        await store.set_gear_settings(GUILD, campaign.id, PLAYER, currency=gold)
    await store.set_gear_settings(GUILD, campaign.id, GM, currency=gold)
    settings = await store.gear_settings(GUILD, campaign.id)
    assert settings.currency == gold and not settings.gifts_at_once
    await store.set_gear_settings(GUILD, campaign.id, GM, currency=None)
    assert (await store.gear_settings(GUILD, campaign.id)).currency == Currency()


async def test_exports_carry_gear_and_older_files_still_import(store, table, make_campaign) -> None:
    campaign, _ash, _bram, _goblin = table
    plain = await store.export_character(GUILD, campaign.id, "Bram")
    assert plain["version"] == 1 and "gear" not in plain["character"]  # as before
    gold = Currency(("copper", "silver", "gold"), (10, 10))
    await store.set_gear_settings(GUILD, campaign.id, GM, currency=gold)
    await store.add_item(GUILD, campaign.id, PLAYER, "Ash", "Rope", 2, 1500, "hemp")
    await store.add_counter(
        GUILD, campaign.id, PLAYER, "Ash", "Arrows", 20, 7, Reset.FIGHT, "Longbow"
    )
    await store.change_purse(GUILD, campaign.id, GM, "Ash", "grant", 345, "loot")
    whole = await store.export_campaign(GUILD, campaign.id)
    assert whole["version"] == 3
    assert whole["campaign"]["currency"] == {
        "coins": ["copper", "silver", "gold"],
        "rates": [10, 10],
        "gifts_at_once": False,
    }
    [ash_data] = [c for c in whole["characters"] if c["name"] == "Ash"]
    assert ash_data["gear"] == {
        "items": [{"name": "Rope", "quantity": 2, "grams": 1500, "note": "hemp", "carried": True}],
        "purse": {"balance": 345, "revision": 1},
        "counters": [
            {"name": "Arrows", "value": 7, "maximum": 20, "reset": "fight", "weapon": "longbow"}
        ],
    }
    other = await make_campaign("Elsewhere")
    await store.import_data(GUILD, other.id, GM, whole)
    copy = await store.gear(GUILD, other.id, GM, "Ash")
    assert [(i.name, i.quantity, i.grams, i.note) for i in copy.items] == [
        ("Rope", 2, 1500, "hemp")
    ]
    assert copy.purse.balance == 345 and copy.currency == gold
    assert [(c.name, c.value, c.maximum) for c in copy.counters] == [("Arrows", 7, 20)]
    assert await store.ammunition(GUILD, other.id, copy.sheet.id, "Longbow") is not None
    # A version 2 file (gear did not exist) still imports, without any.
    older = {**whole, "version": 2, "campaign": {"name": "Old"}}
    older["characters"] = [{k: v for k, v in c.items() if k != "gear"} for c in whole["characters"]]
    third = await make_campaign("Third")
    await store.import_data(GUILD, third.id, GM, older)
    assert (await store.gear(GUILD, third.id, GM, "Ash")).items == ()
    with pytest.raises(Exception, match="gear: unknown field"):
        await store.import_data(GUILD, third.id, GM, {**whole, "version": 2}, replace=True)


async def test_an_import_never_silently_overwrites_a_purse_the_bot_changed(store, table) -> None:
    campaign, _ash, _bram, _goblin = table
    await store.change_purse(GUILD, campaign.id, GM, "Ash", "grant", 100, "loot")
    document = await store.export_character(GUILD, campaign.id, "Ash")
    assert document["character"]["gear"]["purse"] == {"balance": 100, "revision": 1}
    # Re-importing what the bot has is fine: the purse is as the file says.
    await store.import_data(GUILD, campaign.id, PLAYER, document, replace=True)
    await store.change_purse(GUILD, campaign.id, PLAYER, "Ash", "pay", 30, "a horse")
    await store.add_item(GUILD, campaign.id, PLAYER, "Ash", "Horse")
    with pytest.raises(Conflict, match="changed the purse of Ash after this file was exported"):
        await store.import_data(GUILD, campaign.id, GM, document, replace=True)
    kept = await store.gear(GUILD, campaign.id, PLAYER, "Ash")
    assert kept.purse.balance == 70 and [i.name for i in kept.items] == ["Horse"]  # nothing
    without = {**document, "character": {**document["character"], "gear": {"items": []}}}
    await store.import_data(GUILD, campaign.id, PLAYER, without, replace=True)
    after = await store.gear(GUILD, campaign.id, PLAYER, "Ash")
    assert after.purse.balance == 70 and after.items == ()


def test_bad_gear_in_a_file_is_named_where_it_stands() -> None:
    sheet = {
        "name": "Ash",
        "gear": {
            "items": [{"name": "Rope", "quantity": 10_001}, {"name": "rope"}],
            "purse": {"balance": -1},
            "counters": [{"name": "Arrows", "value": 21, "maximum": 20, "reset": "dawn"}],
        },
    }
    document = {"format": "wire-bot", "version": 3, "kind": "character", "character": sheet}
    plan, problems = check_import(document)
    assert plan is None
    assert [str(p) for p in problems] == [
        "character.gear.items[0].quantity: 10001 is above the maximum 10000",
        "character.gear.items[1].name: written twice; keep one",
        "character.gear.purse.balance: -1 is below the minimum 0",
        "character.gear.counters[0].value: 21 is above the maximum 20",
        "character.gear.counters[0].reset: expected gm, fight or session",
    ]


async def test_forget_me_keeps_the_purses_without_the_makers_id(store, table) -> None:
    campaign, _ash, _bram, _goblin = table
    await store.change_purse(GUILD, campaign.id, GM, "Bram", "grant", 50, "loot")
    await store.add_item(GUILD, campaign.id, PLAYER, "Ash", "Lamp")
    await store.give(GUILD, campaign.id, PLAYER, "Ash", "Bram", item="Lamp")
    counts = await store.delete_user_data(GM)
    assert counts["purse entries made anonymous"] == 1
    ledger = await store.purse_ledger(GUILD, campaign.id, OTHER_PLAYER, "Bram")
    assert [(e.user_id, e.amount) for e in ledger.entries] == [(0, 50)]
    assert ledger.purse.balance == 50
    counts = await store.delete_user_data(PLAYER)  # Ash goes with its player; the gift too
    assert counts["characters"] == 1


async def test_a_gift_the_receiver_has_no_room_for_moves_nothing_at_all(store, table) -> None:
    campaign, _ash, _bram, _goblin = table
    await store.add_item(GUILD, campaign.id, PLAYER, "Ash", "Arrow", 1)
    await store.add_item(GUILD, campaign.id, OTHER_PLAYER, "Bram", "Arrow", 10_000)
    outcome = await store.give(GUILD, campaign.id, PLAYER, "Ash", "Bram", item="Arrow")
    assert outcome.gift is not None
    _gift, state = await store.answer_gift(GUILD, campaign.id, OTHER_PLAYER, outcome.gift.id, True)
    assert state == "failed"
    assert [i.quantity for i in (await store.gear(GUILD, campaign.id, PLAYER, "Ash")).items] == [1]
    bram = await store.gear(GUILD, campaign.id, OTHER_PLAYER, "Bram")
    assert [i.quantity for i in bram.items] == [10_000]


async def test_a_player_imports_no_money_into_a_purse(store, table) -> None:
    campaign, _ash, _bram, _goblin = table
    await store.change_purse(GUILD, campaign.id, GM, "Ash", "grant", 10, "loot")
    document = await store.export_character(GUILD, campaign.id, "Ash")
    document["character"]["gear"]["purse"]["balance"] = 10**9
    with pytest.raises(PermissionDenied, match="Only a GM"):
        await store.import_data(GUILD, campaign.id, PLAYER, document, replace=True)
    assert (await store.gear(GUILD, campaign.id, PLAYER, "Ash")).purse.balance == 10
    await store.import_data(GUILD, campaign.id, GM, document, replace=True)
    assert (await store.gear(GUILD, campaign.id, PLAYER, "Ash")).purse.balance == 10**9


async def test_a_sessions_end_fills_the_session_counters(store, table) -> None:
    """A counter that fills at a session's end fills when /session end ends one (issue 36
    with issue 33): before sessions existed only a GM's `/counter reset` could say so."""
    from datetime import UTC, datetime, timedelta

    campaign, _ash, _bram, _goblin = table
    await store.add_counter(GUILD, campaign.id, PLAYER, "Ash", "Luck", 3, 0, Reset.SESSION)
    await store.add_counter(GUILD, campaign.id, PLAYER, "Ash", "Arrows", 20, 2, Reset.FIGHT)
    start = datetime.now(UTC).replace(microsecond=0) + timedelta(hours=1)
    session = await store.plan_session(GUILD, campaign.id, GM, "Warrens", start, 180, CHANNEL)
    await store.start_session(GUILD, session.id, GM)
    values = {c.name: c.value for c in (await store.gear(GUILD, campaign.id, GM, "Ash")).counters}
    assert values == {"Arrows": 2, "Luck": 0}
    await store.end_session(GUILD, session.id, GM)
    values = {c.name: c.value for c in (await store.gear(GUILD, campaign.id, GM, "Ash")).counters}
    assert values == {"Arrows": 2, "Luck": 3}
