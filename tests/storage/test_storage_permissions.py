"""Who may change what: the owner, another player, a GM; and NPCs."""

from __future__ import annotations

import re

import pytest

from storage.errors import NotFound, PermissionDenied
from storage.models import HealthTarget, NewCombatant
from storage.sqlite import SqliteStore
from storage.testing import CHANNEL, GM, GUILD, OTHER_PLAYER, PLAYER, manager, roll_record
from storage.transfer import character_document
from wire.advancement import Category
from wire.dice import Die, DieSource
from wire.initiative import Initiative
from wire.sheet import Weapon

# The one rule of who may change a sheet (storage.models.change_refusal), one wording.
OWN_ONLY = "Only {name}'s player or a GM can change {name} or act for them."
NPC_GM_ONLY = (
    "Only a GM of Campaign 1 can change or act for Goblin, an NPC. Its GMs are <@2001> and "
    "everyone with Manage Server; a GM makes others GMs with `/campaign gm add`."
)


@pytest.fixture
async def table(store: SqliteStore, make_campaign, make_character):
    campaign = await make_campaign()
    await make_character(campaign, "Ash", owner_id=PLAYER, skills={"Parry": 4})
    await make_character(campaign, "Bo", owner_id=OTHER_PLAYER, skills={"Parry": 4})
    await make_character(campaign, "Goblin", npc=True, skills={"Parry": 4})
    return campaign


def _changes(store: SqliteStore, campaign_id: int, actor: int, name: str):
    """Every character-changing call, as (label, coroutine factory)."""
    return [
        ("set_stat", lambda: store.set_stat(GUILD, campaign_id, actor, name, "skill", "Parry", 5)),
        ("adjust", lambda: store.adjust_stat(GUILD, campaign_id, actor, name, "skill", "Parry", 1)),
        (
            "weapon",
            lambda: store.set_weapon(GUILD, campaign_id, actor, name, Weapon("Axe", 1, "S", "M")),
        ),
        ("remove", lambda: store.remove_stat(GUILD, campaign_id, actor, name, "skill", "Parry")),
        ("update", lambda: store.update_character(GUILD, campaign_id, actor, name, notes="x")),
        (
            "replace",
            lambda: store.replace_stats(GUILD, campaign_id, actor, name, {"Wits": 1}, {"Parry": 2}),
        ),
        ("delete", lambda: store.delete_character(GUILD, campaign_id, actor, name)),
    ]


@pytest.mark.parametrize(
    ("actor", "name", "error"),
    [
        (OTHER_PLAYER, "Ash", OWN_ONLY),
        (PLAYER, "Bo", OWN_ONLY),
        (PLAYER, "Goblin", NPC_GM_ONLY),
    ],
)
async def test_players_cannot_change_what_is_not_theirs(
    store: SqliteStore, table, actor: int, name: str, error: str
) -> None:
    before = await store.get_character(GUILD, table.id, name)
    for label, call in _changes(store, table.id, actor, name):
        with pytest.raises(PermissionDenied) as raised:
            await call()
        assert str(raised.value) == error.format(name=name), label
    assert await store.get_character(GUILD, table.id, name) == before


@pytest.mark.parametrize(("actor", "name"), [(PLAYER, "Ash"), (GM, "Ash"), (GM, "Goblin")])
async def test_owners_and_gms_can_change(store: SqliteStore, table, actor: int, name: str) -> None:
    for _label, call in _changes(store, table.id, actor, name):
        await call()
    with pytest.raises(NotFound):
        await store.get_character(GUILD, table.id, name)


async def test_only_gms_create_npcs_or_characters_for_others(store: SqliteStore, table) -> None:
    with pytest.raises(
        PermissionDenied,
        match=r"Only a GM of Campaign 1 can create NPCs\. Its GMs are <@2001>",
    ):
        await store.create_character(GUILD, table.id, PLAYER, "Orc", is_npc=True)
    with pytest.raises(PermissionDenied, match="for other players"):
        await store.create_character(GUILD, table.id, PLAYER, "Cy", owner_id=OTHER_PLAYER)
    mine = await store.create_character(GUILD, table.id, PLAYER, "Cy", owner_id=PLAYER)
    assert mine.owner_id == PLAYER
    given = await store.create_character(GUILD, table.id, GM, "Di", owner_id=OTHER_PLAYER)
    assert given.owner_id == OTHER_PLAYER
    orc = await store.create_character(GUILD, table.id, GM, "Orc", is_npc=True, owner_id=PLAYER)
    assert orc.owner_id == GM  # an NPC belongs to the GM who made it


async def test_only_gms_give_characters_away(store: SqliteStore, table) -> None:
    with pytest.raises(PermissionDenied, match="give a character away"):
        await store.update_character(GUILD, table.id, PLAYER, "Ash", owner_id=OTHER_PLAYER)
    same = await store.update_character(GUILD, table.id, PLAYER, "Ash", owner_id=PLAYER)
    assert same.owner_id == PLAYER  # naming yourself is no change
    await store.set_active_character(GUILD, table.id, OTHER_PLAYER, "Bo")
    ash = await store.update_character(GUILD, table.id, GM, "Ash", owner_id=OTHER_PLAYER)
    assert ash.owner_id == OTHER_PLAYER
    assert await store.get_active_character(GUILD, table.id, PLAYER) is None  # not theirs now
    assert (await store.get_active_character(GUILD, table.id, OTHER_PLAYER)).name == "Bo"
    with pytest.raises(PermissionDenied, match=re.escape(OWN_ONLY.format(name="Ash"))):
        await store.set_stat(GUILD, table.id, PLAYER, "Ash", "skill", "Parry", 1)


async def test_activating_characters(store: SqliteStore, table) -> None:
    with pytest.raises(PermissionDenied, match="Only Bo's player or a GM can change Bo or act"):
        await store.set_active_character(GUILD, table.id, PLAYER, "Bo")
    with pytest.raises(PermissionDenied, match="can change or act for Goblin, an NPC"):
        await store.set_active_character(GUILD, table.id, PLAYER, "Goblin")
    for name in ("Bo", "Goblin", "Ash"):
        assert (await store.set_active_character(GUILD, table.id, GM, name)).name == name
    with pytest.raises(NotFound, match="No character named 'Zed'"):
        await store.set_active_character(GUILD, table.id, GM, "Zed")


async def test_crafting_permissions(store: SqliteStore, table) -> None:
    bo = await store.get_character(GUILD, table.id, "Bo")
    with pytest.raises(PermissionDenied, match="craft with your own characters"):
        await store.start_project(GUILD, table.id, PLAYER, "Sword", 0, bo.id)
    project = await store.start_project(GUILD, table.id, OTHER_PLAYER, "Sword", 0, bo.id)
    with pytest.raises(PermissionDenied, match="your own crafting projects"):
        await store.apply_craft_roll(
            project, 0, 3, roll_record(table, user_id=PLAYER, kind="craft")
        )
    with pytest.raises(NotFound):
        await store.finish_project(GUILD, table.id, PLAYER, "Sword")
    finished = await store.finish_project(GUILD, table.id, GM, "sword")  # a GM may
    assert finished.finished


async def test_import_permissions(store: SqliteStore, table) -> None:
    goblin = await store.get_character(GUILD, table.id, "Goblin")
    bo = await store.get_character(GUILD, table.id, "Bo")
    with pytest.raises(PermissionDenied, match="import NPCs"):
        await store.import_data(GUILD, table.id, PLAYER, character_document(goblin), replace=True)
    with pytest.raises(PermissionDenied, match="'Bo' is not yours"):
        await store.import_data(GUILD, table.id, PLAYER, character_document(bo), replace=True)
    campaign_doc = await store.export_campaign(GUILD, table.id)
    with pytest.raises(PermissionDenied, match="import a whole campaign"):
        await store.import_data(GUILD, table.id, PLAYER, campaign_doc, replace=True)


def _acts(store: SqliteStore, campaign_id: int, actor: int, sheet, fight_id: int):
    """The other entry points that change a character or act for it (CP, species, health, a
    fight), as (label, coroutine factory): each asks the same rule as `_changes`."""
    name = sheet.name
    joins = [
        NewCombatant(
            name,
            sheet.id,
            None if sheet.is_npc else sheet.owner_id,
            sheet.is_npc,
            Initiative(Die(10, DieSource.TABLE), 0, 0),
        )
    ]
    return [
        ("improve", lambda: store.improve(GUILD, campaign_id, actor, name, "Parry")),
        ("species", lambda: store.set_character_species(GUILD, campaign_id, actor, name, "Elf")),
        (
            "health",
            lambda: store.change_health(
                GUILD, campaign_id, actor, HealthTarget(character_id=sheet.id), "damage", 1
            ),
        ),
        ("fight", lambda: store.add_combatants(GUILD, fight_id, actor, joins)),
    ]


@pytest.fixture
async def priced(store: SqliteStore, table):
    """The table with Parry priced, 50 CP each, and a fight running."""
    await store.set_skill_categories(GUILD, table.id, GM, {"Parry": Category.ACTION})
    await store.award_cp(GUILD, table.id, GM, ["Ash", "Bo", "Goblin"], 50)
    fight = await store.start_fight(GUILD, table.id, CHANNEL, GM, "Ambush")
    return table, fight


@pytest.mark.parametrize(
    ("actor", "name", "error"),
    [
        (OTHER_PLAYER, "Ash", OWN_ONLY),
        (PLAYER, "Bo", OWN_ONLY),
        (PLAYER, "Goblin", "Only a GM of Campaign 1 can "),
    ],
)
async def test_spending_health_and_fights_ask_the_same_rule(
    store: SqliteStore, priced, actor: int, name: str, error: str
) -> None:
    table, fight = priced
    sheet = await store.get_character(GUILD, table.id, name)
    for label, call in _acts(store, table.id, actor, sheet, fight.id):
        with pytest.raises(PermissionDenied) as raised:
            await call()
        assert str(raised.value).startswith(error.format(name=name)), label
    if name != "Goblin":  # an NPC is never played into the ledger, whoever asks
        with pytest.raises(PermissionDenied, match=re.escape(OWN_ONLY.format(name=name))):
            await store.ready_for_play(GUILD, table.id, actor, name)
    assert await store.get_character(GUILD, table.id, name) == sheet
    assert not (await store.get_fight(GUILD, fight.id)).combatants


@pytest.mark.parametrize("name", ["Ash", "Goblin"])
async def test_a_server_manager_is_a_gm_at_every_entry_point(
    store: SqliteStore, priced, name: str
) -> None:
    """Manage Server makes a GM everywhere: of the sheet's changes, CP, health, fights and
    another player's crafting project (whose check was once a GM-only look-up in SQL)."""
    table, fight = priced
    boss = manager(OTHER_PLAYER + 100)
    sheet = await store.get_character(GUILD, table.id, name)
    for _label, call in [
        *_acts(store, table.id, boss, sheet, fight.id),
        *_changes(store, table.id, boss, name),
    ]:
        await call()
    with pytest.raises(NotFound):
        await store.get_character(GUILD, table.id, name)
    bo = await store.get_character(GUILD, table.id, "Bo")
    project = await store.start_project(GUILD, table.id, OTHER_PLAYER, "Sword", 0, bo.id)
    record = roll_record(table, user_id=boss, kind="craft")
    assert (await store.apply_craft_roll(project, 0, 3, record)).quality == 3
    assert (await store.start_project(GUILD, table.id, boss, "Shield", 0, bo.id)).character_id
    assert (await store.finish_project(GUILD, table.id, boss, "shield")).finished
