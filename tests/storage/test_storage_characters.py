"""Characters: sheets, names, limits, the active character, deleting a user's data."""

from __future__ import annotations

import sqlite3

import pytest

from storage.errors import InvalidValue, NameTaken, NotFound
from storage.sql.sqlite import STATEMENTS
from storage.sqlite import SqliteStore
from storage.testing import GM, GUILD, OTHER_GUILD, OTHER_PLAYER, PLAYER, roll_record
from wire.limits import MAX_SKILLS, MAX_WEAPONS
from wire.sheet import Weapon

SABRE = Weapon("Sabre", 4, "Strength", "Melee weapons")


async def test_create_and_read_a_full_sheet(store: SqliteStore, make_campaign) -> None:
    campaign = await make_campaign()
    ash = await store.create_character(
        GUILD,
        campaign.id,
        PLAYER,
        "  Ash  ",
        attributes={"Strength": 3, "Reaction": -2},
        skills={"Parry": 4, "Heavy melee weapons": 0},
        shield=True,
        notes="Scar over the left eye.",
    )
    assert ash.name == "Ash"
    assert ash.owner_id == PLAYER
    assert ash.is_npc is False
    assert list(ash.attributes.items()) == [("Strength", 3), ("Reaction", -2)]
    assert list(ash.skills) == ["Parry", "Heavy melee weapons"]  # order as entered
    assert (ash.shield, ash.notes) == (True, "Scar over the left eye.")
    assert await store.get_character(GUILD, campaign.id, "ASH") == ash
    ash = await store.set_weapon(GUILD, campaign.id, PLAYER, "ash", SABRE)
    assert ash.weapons == (SABRE,)
    assert ash.weapon("SABRE") == SABRE


async def test_names_are_unique_per_campaign_case_insensitive(
    store: SqliteStore, make_campaign
) -> None:
    one, two = await make_campaign(), await make_campaign()
    await store.create_character(GUILD, one.id, PLAYER, "Ærwyn")
    with pytest.raises(NameTaken, match="already a character named 'ærwyn'"):
        await store.create_character(GUILD, one.id, OTHER_PLAYER, "ærwyn")
    await store.create_character(GUILD, two.id, PLAYER, "Ærwyn")  # other campaign: fine
    with pytest.raises(NotFound, match="No character named 'Bob' in this campaign"):
        await store.get_character(GUILD, one.id, "Bob")


async def test_stats_match_case_insensitively_and_keep_their_spelling(
    store: SqliteStore, make_campaign
) -> None:
    campaign = await make_campaign()
    await store.create_character(GUILD, campaign.id, PLAYER, "Ash", skills={"Parry": 4})
    ash = await store.set_stat(GUILD, campaign.id, PLAYER, "ash", "skill", "PARRY", 6)
    assert ash.skills == {"Parry": 6}
    ash = await store.set_stat(GUILD, campaign.id, PLAYER, "ash", "skill", "Dodge", 2)
    ash = await store.set_stat(GUILD, campaign.id, PLAYER, "ash", "attribute", "Parry", 1)
    assert ash.skills == {"Parry": 6, "Dodge": 2}
    assert ash.attributes == {"Parry": 1}  # kinds are separate tables of names
    ash = await store.remove_stat(GUILD, campaign.id, PLAYER, "ash", "skill", "parry")
    assert ash.skills == {"Dodge": 2}
    with pytest.raises(NotFound, match="Ash has no skill named 'Parry'"):
        await store.remove_stat(GUILD, campaign.id, PLAYER, "ash", "skill", "Parry")
    with pytest.raises(InvalidValue, match="Unknown kind"):
        await store.set_stat(GUILD, campaign.id, PLAYER, "ash", "skills", "Parry", 1)


async def test_stat_values_and_counts_are_limited(store: SqliteStore, make_campaign) -> None:
    campaign = await make_campaign()
    await store.create_character(GUILD, campaign.id, PLAYER, "Ash")
    with pytest.raises(InvalidValue, match="Parry: 11 is above the maximum 10"):
        await store.set_stat(GUILD, campaign.id, PLAYER, "Ash", "skill", "Parry", 11)
    with pytest.raises(InvalidValue, match="-11 is below the minimum -10"):
        await store.set_stat(GUILD, campaign.id, PLAYER, "Ash", "attribute", "Strength", -11)
    with pytest.raises(InvalidValue, match="whole number"):
        await store.set_stat(GUILD, campaign.id, PLAYER, "Ash", "skill", "Parry", True)
    with pytest.raises(InvalidValue, match="skill name"):
        await store.set_stat(GUILD, campaign.id, PLAYER, "Ash", "skill", "x" * 65, 1)
    for i in range(MAX_SKILLS):
        await store.set_stat(GUILD, campaign.id, PLAYER, "Ash", "skill", f"S{i}", 1)
    with pytest.raises(InvalidValue, match="already has 60 skills"):
        await store.set_stat(GUILD, campaign.id, PLAYER, "Ash", "skill", "One more", 1)
    await store.set_stat(GUILD, campaign.id, PLAYER, "Ash", "skill", "s0", 5)  # update is fine
    with pytest.raises(InvalidValue, match="Skill 'a' is listed twice \\(as 'A' too"):
        await store.create_character(GUILD, campaign.id, PLAYER, "Bo", skills={"A": 1, "a": 2})
    with pytest.raises(InvalidValue, match="21 attributes is over the limit of 20"):
        await store.create_character(
            GUILD, campaign.id, PLAYER, "Bo", attributes={f"A{i}": 1 for i in range(21)}
        )
    with pytest.raises(InvalidValue, match="Notes"):
        await store.create_character(GUILD, campaign.id, PLAYER, "Bo", notes="x" * 1001)


async def test_adjust_stat_is_relative_and_range_checked(store: SqliteStore, make_campaign) -> None:
    campaign = await make_campaign()
    await store.create_character(GUILD, campaign.id, PLAYER, "Ash", skills={"Parry": 9})
    ash = await store.adjust_stat(GUILD, campaign.id, PLAYER, "Ash", "skill", "parry", 1)
    assert ash.skills == {"Parry": 10}
    with pytest.raises(InvalidValue, match="11 is above the maximum 10"):
        await store.adjust_stat(GUILD, campaign.id, PLAYER, "Ash", "skill", "parry", 1)
    assert (await store.get_character(GUILD, campaign.id, "Ash")).skills == {"Parry": 10}
    with pytest.raises(NotFound, match="no skill named 'Dodge'"):
        await store.adjust_stat(GUILD, campaign.id, PLAYER, "Ash", "skill", "Dodge", 1)


async def test_weapons_replace_by_name_and_are_limited(store: SqliteStore, make_campaign) -> None:
    campaign = await make_campaign()
    await store.create_character(GUILD, campaign.id, PLAYER, "Ash")
    await store.set_weapon(GUILD, campaign.id, PLAYER, "Ash", SABRE)
    ash = await store.set_weapon(
        GUILD, campaign.id, PLAYER, "Ash", Weapon("SABRE", 6, "Strength", "Melee weapons")
    )
    assert ash.weapons == (Weapon("SABRE", 6, "Strength", "Melee weapons"),)
    with pytest.raises(InvalidValue, match="base damage: 51 is above the maximum 50"):
        await store.set_weapon(GUILD, campaign.id, PLAYER, "Ash", Weapon("Axe", 51, "S", "M"))
    with pytest.raises(InvalidValue, match="weapon's skill name"):
        await store.set_weapon(GUILD, campaign.id, PLAYER, "Ash", Weapon("Axe", 5, "S", ""))
    for i in range(1, MAX_WEAPONS):
        await store.set_weapon(GUILD, campaign.id, PLAYER, "Ash", Weapon(f"W{i}", 1, "S", "M"))
    with pytest.raises(InvalidValue, match="already has 10 weapons"):
        await store.set_weapon(GUILD, campaign.id, PLAYER, "Ash", Weapon("W99", 1, "S", "M"))
    ash = await store.remove_stat(GUILD, campaign.id, PLAYER, "Ash", "weapon", "sabre")
    assert len(ash.weapons) == MAX_WEAPONS - 1
    assert ash.weapon("Sabre") is None


async def test_update_rename_shield_notes(store: SqliteStore, make_campaign) -> None:
    campaign = await make_campaign()
    await store.create_character(GUILD, campaign.id, PLAYER, "Ash")
    await store.create_character(GUILD, campaign.id, PLAYER, "Bo")
    with pytest.raises(NameTaken):
        await store.update_character(GUILD, campaign.id, PLAYER, "Ash", new_name="BO")
    ash = await store.update_character(
        GUILD, campaign.id, PLAYER, "Ash", new_name="Ashen", shield=True, notes="n"
    )
    assert (ash.name, ash.shield, ash.notes) == ("Ashen", True, "n")
    ash = await store.update_character(GUILD, campaign.id, PLAYER, "ashen", new_name="ASHEN")
    assert ash.name == "ASHEN"  # a new spelling of the same name is fine
    with pytest.raises(NotFound):
        await store.get_character(GUILD, campaign.id, "Ash")


async def test_first_character_becomes_active_and_choices_stick(
    store: SqliteStore, make_campaign
) -> None:
    campaign = await make_campaign()
    assert await store.get_active_character(GUILD, campaign.id, PLAYER) is None
    ash = await store.create_character(GUILD, campaign.id, PLAYER, "Ash")
    await store.create_character(GUILD, campaign.id, PLAYER, "Bo")
    assert await store.get_active_character(GUILD, campaign.id, PLAYER) == ash
    bo = await store.set_active_character(GUILD, campaign.id, PLAYER, "bo")
    assert await store.get_active_character(GUILD, campaign.id, PLAYER) == bo
    await store.delete_character(GUILD, campaign.id, PLAYER, "Bo")
    assert await store.get_active_character(GUILD, campaign.id, PLAYER) is None
    other = await make_campaign()
    assert await store.get_active_character(GUILD, other.id, PLAYER) is None  # per campaign


async def test_npcs_are_not_made_active_on_creation(store: SqliteStore, make_campaign) -> None:
    campaign = await make_campaign()
    goblin = await store.create_character(GUILD, campaign.id, GM, "Goblin", is_npc=True)
    assert goblin.owner_id == GM
    assert await store.get_active_character(GUILD, campaign.id, GM) is None


async def test_find_characters_filters_and_escapes(
    store: SqliteStore, make_campaign, make_character
) -> None:
    campaign = await make_campaign()
    for name in ("Ash", "Bash", "Cash%", "Dot_ty"):
        await make_character(campaign, name)
    await make_character(campaign, "Goblin ash", npc=True)
    await make_character(campaign, "Mine", owner_id=OTHER_PLAYER)

    async def names(prefix: str = "", **options) -> list[str]:
        found = await store.find_characters(GUILD, campaign.id, prefix, **options)
        return [c.name for c in found]

    assert await names("ASH") == ["Ash", "Bash", "Cash%", "Goblin ash"]
    assert await names("%") == ["Cash%"]
    assert await names("_") == ["Dot_ty"]
    assert await names(is_npc=True) == ["Goblin ash"]
    assert await names(owner_id=OTHER_PLAYER) == ["Mine"]
    assert await names(limit=2) == ["Ash", "Bash"]
    assert await names(limit=0) == []


async def test_delete_user_data_across_guilds(
    store: SqliteStore, make_campaign, make_character
) -> None:
    here = await make_campaign(gms=(PLAYER,))
    there = await make_campaign(guild_id=OTHER_GUILD)
    ash = await make_character(here, "Ash")
    await make_character(there, "Ash too")
    npc = await store.create_character(GUILD, here.id, PLAYER, "Their NPC", is_npc=True)
    keep = await make_character(here, "Keep", owner_id=OTHER_PLAYER)
    await store.start_project(GUILD, here.id, PLAYER, "Sword", 0, ash.id)
    await store.start_project(GUILD, here.id, OTHER_PLAYER, "Shield")
    await store.log_roll(roll_record(here, character=ash, interaction_id=1))
    await store.log_roll(roll_record(there, interaction_id=2))
    await store.log_roll(roll_record(here, user_id=OTHER_PLAYER, interaction_id=3))
    await store.set_active_character(GUILD, here.id, PLAYER, "Keep")  # PLAYER is a GM here

    counts = await store.delete_user_data(PLAYER)
    assert counts == {
        "rolls": 2,
        "projects": 1,
        "active choices": 2,  # Ash there, Keep here
        "GM roles": 1,
        "health changes": 0,
        "combatants": 0,
        "characters": 2,
        "NPCs kept for their campaigns without your id": 1,
        "in-character post records": 0,  # tests/storage/test_storage_incharacter.py has some
        "answers to sessions": 0,  # tests/storage/test_storage_sessions.py has some
        "CP entries made anonymous": 0,  # tests/storage/test_storage_advancement.py has some
        "CP requests made anonymous": 0,
        "purse entries made anonymous": 0,  # tests/storage/test_storage_gear.py has some
        "gifts made anonymous": 0,
    }
    assert PLAYER not in (await store.get_campaign_by_id(GUILD, here.id)).gm_ids

    assert [c.name for c in await store.find_characters(GUILD, here.id)] == ["Keep", "Their NPC"]
    assert await store.find_characters(OTHER_GUILD, there.id) == []
    assert await store.get_active_character(GUILD, here.id, PLAYER) is None
    assert await store.get_active_character(GUILD, here.id, OTHER_PLAYER) == keep
    assert [p.item for p in await store.list_projects(GUILD, here.id)] == ["Shield"]
    assert [r.interaction_id for r in await store.recent_rolls(GUILD, here.id)] == [3]
    assert await store.recent_rolls(OTHER_GUILD, there.id) == []
    kept = await store.get_character(GUILD, here.id, "Their NPC")
    assert (kept.id, kept.owner_id) == (npc.id, 0)  # the campaign's still, without PLAYER's id
    assert await store.find_characters(GUILD, here.id, owner_id=PLAYER) == []
    # Its GMs manage it as before: change it, then delete it.
    assert (await store.set_stat(GUILD, here.id, GM, "Their NPC", "skill", "Lurk", 2)).owner_id == 0
    await store.delete_character(GUILD, here.id, GM, "Their NPC")
    assert [c.name for c in await store.find_characters(GUILD, here.id)] == ["Keep"]


async def test_roller_context_is_the_channel_campaign_and_the_active_character(
    store: SqliteStore, make_campaign, make_character
) -> None:
    # A new server: its default campaign is made, and nobody has a character there yet.
    default, nobody = await store.roller_context(GUILD, 7, PLAYER)
    assert default == await store.campaign_for_channel(GUILD, 7, PLAYER) and nobody is None
    bound = await make_campaign(channel_id=8)
    ash = await make_character(bound, "Ash", weapons=[SABRE])
    await store.set_active_character(GUILD, bound.id, PLAYER, "Ash")
    assert await store.roller_context(GUILD, 8, PLAYER) == (bound, ash)
    assert await store.roller_context(GUILD, 8, OTHER_PLAYER) == (bound, None)
    assert await store.roller_context(GUILD, 9, PLAYER) == (default, None)
    # Another guild's channel of the same id is bound to nothing there: its own default.
    elsewhere, none = await store.roller_context(OTHER_GUILD, 8, PLAYER)
    assert elsewhere.guild_id == OTHER_GUILD and elsewhere.id != bound.id and none is None


async def test_a_rollers_read_is_parsed_once_and_follows_every_change(
    store: SqliteStore, make_campaign, make_character
) -> None:
    """Every roll reads its roller: the sheet is parsed once while nothing changed, and a
    change to it (or to the campaign) is in the next roll's read."""
    campaign = await make_campaign(channel_id=8)
    await make_character(campaign, "Ash", weapons=[SABRE])
    await store.set_active_character(GUILD, campaign.id, PLAYER, "Ash")
    first = await store.roller_scene(GUILD, 8, PLAYER)
    assert await store.roller_scene(GUILD, 8, PLAYER) is first
    # Another sheet's change empties the read cache: this one is unchanged, and not parsed again.
    await make_character(campaign, "Bram", owner_id=OTHER_PLAYER)
    await store.set_stat(GUILD, campaign.id, OTHER_PLAYER, "Bram", "skill", "Parry", 2)
    assert await store.roller_scene(GUILD, 8, PLAYER) is first
    await store.set_stat(GUILD, campaign.id, PLAYER, "Ash", "skill", "Parry", 4)
    changed = await store.roller_scene(GUILD, 8, PLAYER)
    assert changed.character is not None and changed.character.skills == {"Parry": 4}
    assert first.character is not None and first.character.skills == {}
    await store.update_campaign(GUILD, campaign.id, GM, npc_take10=False)
    assert (await store.roller_scene(GUILD, 8, PLAYER)).campaign.npc_take10 is False


async def test_a_rollers_read_lists_stats_weapons_and_gms_without_sorting(tmp_path) -> None:
    """Every roll reads its roller's sheet with the campaign's GMs, stats and weapons in their
    order; SQLite's migration 0030 keeps each list in that order in an index, so no read sorts
    (a temporary B-tree cost a read about a tenth of its instructions). The order itself is
    what test_create_and_read_a_full_sheet and the sheet tests read."""
    store = await SqliteStore.open(tmp_path / "wire.db")
    await store.close()
    conn = sqlite3.connect(tmp_path / "wire.db")
    try:
        for name in ("roller_context", "character_by_id", "active_character"):
            params = dict.fromkeys(
                ("guild_id", "channel_id", "user_id", "campaign_id", "character_id"), 1
            )
            plan = " ".join(
                str(row) for row in conn.execute(f"EXPLAIN QUERY PLAN {STATEMENTS[name]}", params)
            )
            assert "TEMP B-TREE" not in plan, (name, plan)
            assert "character_stats_in_order" in plan and "weapons_in_order" in plan, name
        roller = conn.execute(f"EXPLAIN QUERY PLAN {STATEMENTS['roller_context']}", params)
        assert "campaign_gms_in_order" in " ".join(str(row) for row in roller)
    finally:
        conn.close()
