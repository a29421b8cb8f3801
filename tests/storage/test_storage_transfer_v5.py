"""The conditions on a sheet in its export (format version 5), on both backends: a campaign's
export carries every sheet's conditions and comes back the same in another server, where a roll
counts them; a player's export of their character never holds the hidden ones a GM put on; a
bad condition in the file is refused with its path; a second import of the same file adds
nothing twice; rounds come back as written though the fight they counted in is gone; and a
file without them is written as version 4 or lower, as before. (WIRE defines no conditions:
"Blessed", "Cursed" and "Prone" are a table's own, as examples.)"""

from __future__ import annotations

import json

import pytest

from storage.errors import GmOnly, InvalidValue, NameTaken, NotFound, PermissionDenied
from storage.models import NewCombatant
from storage.testing import CHANNEL, GM, GUILD, OTHER_GUILD, PLAYER
from storage.transfer import check_import
from tests.storage.test_storage_fights import init
from wire.conditions import MAX_CONDITIONS, Effect, RollFor, Target, Timing, condition_modifiers
from wire.sheet_file import sheets_of_document

BLESSED = Effect(0, "Blessed", 3, 1, Target.ATTACK, timing=Timing.START)
CURSED = Effect(0, "Cursed", None, -1, Target.ALL, hidden=True)
SHAKEN = Effect(0, "Shaken", None, -1, Target.CHECK, "Resolve")
PRONE = Effect(0, "Prone", None, -2, Target.PARRY, hidden=True)


def fields(sheet) -> list[tuple]:
    """A sheet's conditions as a table sees them: all but the ids."""
    return [
        (c.name, c.modifier, c.applies_to, c.stat, c.rounds_left, c.timing, c.hidden)
        for c in sheet.conditions
    ]


@pytest.fixture
async def table(store, make_campaign, make_character):
    """Ash (a player's) blessed, shaken and secretly cursed; a goblin secretly prone."""
    campaign = await make_campaign(channel_id=CHANNEL)
    await make_character(campaign, "Ash")
    await make_character(campaign, "Goblin", npc=True)
    for condition in (BLESSED, SHAKEN, CURSED):
        await store.add_sheet_condition(GUILD, campaign.id, GM, "Ash", condition)
    await store.add_sheet_condition(GUILD, campaign.id, GM, "Goblin", PRONE)
    return campaign


async def test_a_campaign_export_carries_each_sheets_conditions_to_another_server(
    store, make_campaign, table
) -> None:
    document = await store.export_campaign(GUILD, table.id)
    assert document["version"] == 5
    ash, goblin = document["characters"]
    assert ash["conditions"] == [
        {"name": "Blessed", "modifier": 1, "applies_to": "attack", "rounds": 3, "timing": "start"},
        {"name": "Shaken", "modifier": -1, "applies_to": "check", "stat": "Resolve"},
        {"name": "Cursed", "modifier": -1, "applies_to": "all", "hidden": True},
    ]
    assert goblin["conditions"] == [
        {"name": "Prone", "modifier": -2, "applies_to": "parry", "hidden": True}
    ]

    other = await make_campaign("Elsewhere", guild_id=OTHER_GUILD)
    await store.import_sheets(OTHER_GUILD, other.id, GM, document)
    for name in ("Ash", "Goblin"):
        before = await store.get_character(GUILD, table.id, name)
        after = await store.get_character(OTHER_GUILD, other.id, name)
        assert fields(after) == fields(before), name
    ash_there = await store.get_character(OTHER_GUILD, other.id, "Ash")
    attack = condition_modifiers(ash_there.conditions, RollFor.attack())
    assert [(m.label, m.value) for m in attack] == [("Blessed", 1), ("hidden condition", -1)]
    check = condition_modifiers(ash_there.conditions, RollFor.check("Strength", "Resolve"))
    assert [(m.label, m.value) for m in check] == [("Shaken", -1), ("hidden condition", -1)]
    again = await store.export_campaign(OTHER_GUILD, other.id)
    assert again["characters"] == document["characters"]
    # The CLI's sheet reader takes the sheets and passes their conditions by.
    assert [sheet.name for sheet in sheets_of_document(again)] == ["Ash", "Goblin"]


async def test_a_players_export_of_their_character_holds_no_hidden_condition(
    store, make_campaign, table
) -> None:
    document = await store.export_character(GUILD, table.id, "Ash")
    assert document["version"] == 5
    assert [c["name"] for c in document["character"]["conditions"]] == ["Blessed", "Shaken"]
    assert "Cursed" not in json.dumps(document) and '"hidden"' not in json.dumps(document)
    npc = await store.export_character(GUILD, table.id, "Goblin", hidden=True)  # a GM's
    assert npc["character"]["conditions"] == [
        {"name": "Prone", "modifier": -2, "applies_to": "parry", "hidden": True}
    ]
    unhidden = await store.export_character(GUILD, table.id, "Goblin")
    assert "conditions" not in unhidden["character"] and unhidden["version"] == 1

    # The player moves Ash to another server whose table lets players put conditions on.
    other = await make_campaign("Elsewhere", guild_id=OTHER_GUILD, channel_id=CHANNEL)
    await store.update_campaign(OTHER_GUILD, other.id, GM, players_conditions=True)
    await store.import_data(OTHER_GUILD, other.id, PLAYER, document)
    _campaign, rolling = await store.roller_context(OTHER_GUILD, CHANNEL, PLAYER)
    assert rolling is not None and rolling.name == "Ash"
    assert [c.name for c in rolling.conditions] == ["Blessed", "Shaken"]
    attack = condition_modifiers(rolling.conditions, RollFor.attack())
    assert [(m.label, m.value) for m in attack] == [("Blessed", 1)]


async def test_a_player_brings_no_condition_a_gm_did_not_allow(store, make_campaign, table) -> None:
    document = await store.export_character(GUILD, table.id, "Ash")
    other = await make_campaign("Elsewhere", guild_id=OTHER_GUILD)
    with pytest.raises(GmOnly, match="players_conditions"):
        await store.import_data(OTHER_GUILD, other.id, PLAYER, document)
    with pytest.raises(NotFound):  # nothing written
        await store.get_character(OTHER_GUILD, other.id, "Ash")
    hiding = json.loads(json.dumps(document))
    hiding["character"]["conditions"][0]["hidden"] = True
    await store.update_campaign(OTHER_GUILD, other.id, GM, players_conditions=True)
    with pytest.raises(GmOnly, match="import hidden conditions"):
        await store.import_data(OTHER_GUILD, other.id, PLAYER, hiding)
    with pytest.raises(NotFound):
        await store.get_character(OTHER_GUILD, other.id, "Ash")


async def test_imported_twice_the_conditions_are_there_once(store, make_campaign, table) -> None:
    document = await store.export_campaign(GUILD, table.id)
    other = await make_campaign("Elsewhere", guild_id=OTHER_GUILD)
    await store.import_sheets(OTHER_GUILD, other.id, GM, document)
    first = await store.get_character(OTHER_GUILD, other.id, "Ash")
    left = await store.import_sheets(OTHER_GUILD, other.id, GM, document)  # without replace
    assert sorted(c.name for c in left.left_out) == ["Ash", "Goblin"]
    with pytest.raises(NameTaken):
        await store.import_data(OTHER_GUILD, other.id, GM, document)
    await store.import_sheets(OTHER_GUILD, other.id, GM, document, replace=True)
    second = await store.get_character(OTHER_GUILD, other.id, "Ash")
    assert second.conditions == first.conditions  # the same ones, ids and all
    goblin = await store.get_character(OTHER_GUILD, other.id, "Goblin")
    assert [c.name for c in goblin.conditions] == ["Prone"]


async def test_a_replacing_import_makes_the_sheets_conditions_the_files(store, table) -> None:
    document = await store.export_campaign(GUILD, table.id)
    document["characters"][0]["conditions"] = [
        {"name": "Blessed", "modifier": 1, "applies_to": "attack", "rounds": 3, "timing": "start"},
        {"name": "Blessed", "modifier": 2, "applies_to": "attack"},  # a name may come twice
    ]
    del document["characters"][1]["conditions"]  # none listed: the goblin keeps its own
    before = await store.get_character(GUILD, table.id, "Ash")
    await store.import_sheets(GUILD, table.id, GM, document, replace=True, overwrite=[before.id])
    after = await store.get_character(GUILD, table.id, "Ash")
    assert [(c.name, c.modifier) for c in after.conditions] == [("Blessed", 1), ("Blessed", 2)]
    assert after.conditions[0] == before.conditions[0]  # kept, not written again
    goblin = await store.get_character(GUILD, table.id, "Goblin")
    assert [c.name for c in goblin.conditions] == ["Prone"]


async def test_a_players_own_reimport_leaves_the_gms_hidden_conditions(store, table) -> None:
    document = await store.export_character(GUILD, table.id, "Ash")
    document["character"]["notes"] = "Back from the market."
    # Unchanged conditions need no right to change them (players_conditions is off).
    await store.import_data(GUILD, table.id, PLAYER, document, replace=True)
    ash = await store.get_character(GUILD, table.id, "Ash")
    assert ash.notes == "Back from the market."
    assert [(c.name, c.hidden) for c in ash.conditions] == [
        ("Blessed", False),
        ("Shaken", False),
        ("Cursed", True),
    ]
    document["character"]["conditions"] = []  # taking the GM's conditions off is a change
    with pytest.raises(PermissionDenied, match="players_conditions"):
        await store.import_data(GUILD, table.id, PLAYER, document, replace=True)
    assert len((await store.get_character(GUILD, table.id, "Ash")).conditions) == 3


async def test_more_than_a_sheet_bears_with_the_hidden_ones_refuses_the_import(
    store, table
) -> None:
    await store.update_campaign(GUILD, table.id, GM, players_conditions=True)
    document = await store.export_character(GUILD, table.id, "Ash")
    document["character"]["conditions"] = [
        {"name": f"Mark {n}", "modifier": 1} for n in range(MAX_CONDITIONS)
    ]  # ten of its own, and the GM's hidden curse stays: eleven
    with pytest.raises(InvalidValue, match="at most 10 conditions"):
        await store.import_data(GUILD, table.id, PLAYER, document, replace=True)
    ash = await store.get_character(GUILD, table.id, "Ash")
    assert [c.name for c in ash.conditions] == ["Blessed", "Shaken", "Cursed"]


async def test_rounds_come_back_as_written_when_their_fight_stayed_behind(
    store, make_campaign, table
) -> None:
    ash = await store.get_character(GUILD, table.id, "Ash")
    fight = await store.start_fight(GUILD, table.id, CHANNEL, GM, "Ambush")
    pc = NewCombatant("Ash", ash.id, PLAYER, False, init(15, 2))
    await store.add_combatants(GUILD, fight.id, GM, [pc])
    for _turn in range(2):  # Blessed counts down as each of Ash's turns starts: 3, 2, 1
        await store.advance_turn(GUILD, fight.id, GM)
    running = await store.running_fight(GUILD, CHANNEL)
    blessed = running.find("Ash").effects[0]
    assert (blessed.name, blessed.rounds_left) == ("Blessed", 1)
    document = await store.export_campaign(GUILD, table.id)
    assert document["characters"][0]["conditions"][0]["rounds"] == 3
    other = await make_campaign("Elsewhere", guild_id=OTHER_GUILD)
    await store.import_sheets(OTHER_GUILD, other.id, GM, document)
    there = await store.get_character(OTHER_GUILD, other.id, "Ash")
    assert (there.conditions[0].name, there.conditions[0].rounds_left) == ("Blessed", 3)


async def test_a_replaced_sheet_in_a_fight_keeps_its_unchanged_conditions_there(
    store, table
) -> None:
    ash = await store.get_character(GUILD, table.id, "Ash")
    fight = await store.start_fight(GUILD, table.id, CHANNEL, GM, "Ambush")
    await store.add_combatants(
        GUILD, fight.id, GM, [NewCombatant("Ash", ash.id, PLAYER, False, init(15, 2))]
    )
    document = await store.export_campaign(GUILD, table.id)
    document["characters"][0]["conditions"].append({"name": "Dazed", "modifier": -1})
    await store.import_sheets(GUILD, table.id, GM, document, replace=True, overwrite=[ash.id])
    running = await store.running_fight(GUILD, CHANNEL)
    assert [e.name for e in running.find("Ash").effects] == [
        "Blessed",
        "Shaken",
        "Cursed",
        "Dazed",
    ]


def _problems(conditions, version: int = 5) -> list[str]:
    document = {
        "format": "wire-bot",
        "version": version,
        "kind": "campaign",
        "characters": [{"name": "Ash"}, {"name": "Goblin", "conditions": conditions}],
    }
    plan, problems = check_import(json.dumps(document))
    assert plan is None
    return [str(p) for p in problems]


@pytest.mark.parametrize(
    ("conditions", "expected"),
    [
        (
            [{"name": "Prone"}, {"name": "Enraged", "modifier": 11}],
            "characters[1].conditions[1].modifier: 11 is above the maximum 10",
        ),
        (
            [{"name": "x" * 41}],
            "characters[1].conditions[0].name: at most 40 characters",
        ),
        (
            [{"name": "Prone", "hidden": "yes"}],
            "characters[1].conditions[0].hidden: expected true or false, got text",
        ),
        (
            [{"name": "Prone", "timing": "turn"}],
            "characters[1].conditions[0].timing: expected end or start",
        ),
        (
            [{"name": "Prone", "rounds": 0}],
            "characters[1].conditions[0].rounds: 0 is below the minimum 1",
        ),
        (
            [{"modifier": -2}],
            "characters[1].conditions[0].name: missing",
        ),
        (
            [{"name": f"Mark {n}"} for n in range(MAX_CONDITIONS + 1)],
            "characters[1].conditions: 11 entries is over the limit of 10",
        ),
    ],
)
def test_a_bad_condition_on_a_sheet_is_named_with_its_path(conditions, expected) -> None:
    assert _problems(conditions) == [expected]


def test_a_version_4_file_has_no_conditions_on_sheets() -> None:
    assert _problems([], version=4) == ["characters[1].conditions: unknown field"]


async def test_a_table_without_them_exports_as_before(store, make_campaign, make_character):
    campaign = await make_campaign()
    await make_character(campaign, "Ash")
    await store.save_condition_preset(GUILD, campaign.id, GM, SHAKEN)
    document = await store.export_campaign(GUILD, campaign.id)
    assert document["version"] == 4  # named conditions only
    assert "conditions" not in document["characters"][0]
    alone = await store.export_character(GUILD, campaign.id, "Ash")
    assert alone["version"] == 1 and "conditions" not in alone["character"]
