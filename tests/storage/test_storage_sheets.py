"""A whole sheet's stats replaced at once, and a campaign's list of attribute names."""

from __future__ import annotations

import pytest

from storage.errors import GmOnly, InvalidValue, NotFound, PermissionDenied
from storage.models import WIRE_ATTRIBUTES
from storage.sqlite import SqliteStore
from storage.testing import GM, GUILD, OTHER_GUILD, OTHER_PLAYER, PLAYER, manager
from wire.limits import MAX_ATTRIBUTES
from wire.sheet import Weapon

SWORD = Weapon("Long sword", 5, "Strength", "Long swords")


@pytest.fixture
async def jaime(store: SqliteStore, make_campaign, make_character):
    campaign = await make_campaign()
    character = await make_character(
        campaign,
        "Jaime",
        attributes={"Strength": 3, "Reaction": 2},
        skills={"Long swords": 5, "Parry": 3},
        weapons=[SWORD],
        shield=True,
        notes="Oathsworn.",
    )
    return campaign, character


# ---- replace_stats ---------------------------------------------------------------------------


async def test_the_sheet_becomes_exactly_the_new_stats(store: SqliteStore, jaime) -> None:
    campaign, before = jaime
    after = await store.replace_stats(
        GUILD,
        campaign.id,
        PLAYER,
        "jaime",
        {"Strength": 4, "Resolve": 1},  # changed, added; Reaction removed
        {"Parry": 3, "Dodge": 1},  # kept, added; Long swords removed
    )
    assert list(after.attributes.items()) == [("Strength", 4), ("Resolve", 1)]
    assert list(after.skills.items()) == [("Parry", 3), ("Dodge", 1)]
    # Everything else on the sheet stays.
    assert (after.weapons, after.shield, after.notes) == (before.weapons, True, "Oathsworn.")
    assert (after.id, after.owner_id, after.name) == (before.id, before.owner_id, "Jaime")
    assert await store.get_character(GUILD, campaign.id, "Jaime") == after


async def test_an_empty_text_clears_the_stats(store: SqliteStore, jaime) -> None:
    campaign, _ = jaime
    after = await store.replace_stats(GUILD, campaign.id, PLAYER, "Jaime", {}, {})
    assert (after.attributes, after.skills) == ({}, {})


async def test_by_id_a_renamed_sheet_is_still_found(store: SqliteStore, jaime) -> None:
    campaign, before = jaime
    await store.update_character(GUILD, campaign.id, PLAYER, "Jaime", new_name="Ser Jaime")
    after = await store.replace_stats(GUILD, campaign.id, PLAYER, before.id, {"Strength": 5}, {})
    assert (after.name, after.attributes) == ("Ser Jaime", {"Strength": 5})
    with pytest.raises(NotFound, match="no longer exists"):
        await store.replace_stats(GUILD, campaign.id, PLAYER, before.id + 99, {}, {})


@pytest.mark.parametrize(
    ("attributes", "skills", "message"),
    [
        ({"Strength": 3}, {"Parry": 11}, "Parry: 11 is above the maximum 10"),
        ({"Strength": 31}, {}, "Strength: 31 is above the maximum 30"),
        ({"Strength": 3, "STRENGTH": 4}, {}, "listed twice"),
        ({"": 3}, {}, "name is not usable"),
        ({f"A{i}": 1 for i in range(MAX_ATTRIBUTES + 1)}, {}, "over the limit of 20"),
    ],
)
async def test_a_bad_stat_changes_nothing(
    store: SqliteStore, jaime, attributes, skills, message
) -> None:
    campaign, before = jaime
    with pytest.raises(InvalidValue, match=message):
        await store.replace_stats(GUILD, campaign.id, PLAYER, "Jaime", attributes, skills)
    assert await store.get_character(GUILD, campaign.id, "Jaime") == before


async def test_a_failure_halfway_rolls_the_whole_change_back(
    store: SqliteStore, jaime, monkeypatch
) -> None:
    """The old stats are deleted and the new written in one transaction: a failure while
    writing the skills leaves the attributes (deleted and rewritten by then) as they were."""
    campaign, before = jaime
    write = store._write_stats

    async def failing(db, character_id, kind, stats):
        if kind == "skill":
            raise RuntimeError("disk full")
        await write(db, character_id, kind, stats)

    monkeypatch.setattr(store, "_write_stats", failing)
    with pytest.raises(RuntimeError, match="disk full"):
        await store.replace_stats(GUILD, campaign.id, PLAYER, "Jaime", {"Wits": 9}, {"Dodge": 1})
    monkeypatch.undo()
    assert await store.get_character(GUILD, campaign.id, "Jaime") == before


async def test_only_the_owner_or_a_gm_replaces_and_npcs_take_a_gm(
    store: SqliteStore, jaime, make_character
) -> None:
    campaign, before = jaime
    with pytest.raises(PermissionDenied, match="Only Jaime's player or a GM can change Jaime"):
        await store.replace_stats(GUILD, campaign.id, OTHER_PLAYER, "Jaime", {}, {})
    goblin = await make_character(campaign, "Goblin", npc=True, skills={"Parry": 2})
    with pytest.raises(GmOnly, match="can change or act for Goblin, an NPC"):
        await store.replace_stats(GUILD, campaign.id, PLAYER, goblin.id, {}, {})
    assert await store.get_character(GUILD, campaign.id, "Jaime") == before
    done = await store.replace_stats(GUILD, campaign.id, GM, goblin.id, {"Strength": 1}, {})
    assert done.attributes == {"Strength": 1} and done.skills == {}
    done = await store.replace_stats(GUILD, campaign.id, GM, "Jaime", {}, {"Parry": 4})
    assert done.skills == {"Parry": 4}


async def test_an_id_from_another_campaign_or_guild_finds_nothing(
    store: SqliteStore, jaime, make_campaign
) -> None:
    campaign, before = jaime
    other = await make_campaign()
    with pytest.raises(NotFound):
        await store.replace_stats(GUILD, other.id, GM, before.id, {"Strength": 9}, {})
    with pytest.raises(NotFound):
        await store.replace_stats(OTHER_GUILD, campaign.id, GM, before.id, {"Strength": 9}, {})
    assert await store.get_character(GUILD, campaign.id, "Jaime") == before


# ---- set_attribute_names ---------------------------------------------------------------------


async def test_a_campaign_starts_with_wires_attributes(store: SqliteStore, make_campaign) -> None:
    campaign = await make_campaign()
    assert campaign.attribute_names is None
    assert campaign.attributes() == WIRE_ATTRIBUTES


async def test_a_gm_sets_the_names_and_resets_them(
    store: SqliteStore, store_path, make_campaign
) -> None:
    campaign = await make_campaign()
    names = ["Strength", " Constitution ", "Reaction", "Resolve", "Charisme\u0301"]
    changed = await store.set_attribute_names(GUILD, campaign.id, GM, names)
    assert changed.attributes() == ("Strength", "Constitution", "Reaction", "Resolve", "Charismé")
    # Kept: read back, and after a reopen.
    assert (await store.get_campaign_by_id(GUILD, campaign.id)).attributes() == changed.attributes()
    await store.close()
    reopened = await SqliteStore.open(store_path)
    try:
        kept = await reopened.get_campaign_by_id(GUILD, campaign.id)
        assert kept.attributes() == changed.attributes()
        reset = await reopened.set_attribute_names(GUILD, campaign.id, manager(GM + 50), None)
        assert reset.attribute_names is None and reset.attributes() == WIRE_ATTRIBUTES
    finally:
        await reopened.close()


async def test_only_gms_set_the_names(store: SqliteStore, make_campaign) -> None:
    campaign = await make_campaign()
    with pytest.raises(GmOnly, match="can change its attribute names"):
        await store.set_attribute_names(GUILD, campaign.id, PLAYER, ["Wits"])
    with pytest.raises(GmOnly):
        await store.set_attribute_names(GUILD, campaign.id, PLAYER, None)
    assert (await store.get_campaign_by_id(GUILD, campaign.id)).attribute_names is None


async def test_bad_names_are_all_named_and_nothing_changes(
    store: SqliteStore, make_campaign
) -> None:
    campaign = await make_campaign()
    await store.set_attribute_names(GUILD, campaign.id, GM, ["Wits"])
    with pytest.raises(InvalidValue) as raised:
        await store.set_attribute_names(
            GUILD, campaign.id, GM, ["Wits", "WITS", "x" * 65, "Ja\u200bime", "  "]
        )
    message = str(raised.value)
    assert "WITS is listed twice" in message
    assert "65 characters long, the limit is 64" in message
    assert "U+200B" in message
    assert "only spaces" in message
    with pytest.raises(InvalidValue, match="21 names, the limit is 20"):
        await store.set_attribute_names(GUILD, campaign.id, GM, [f"A{i}" for i in range(21)])
    with pytest.raises(InvalidValue, match="the list is empty"):
        await store.set_attribute_names(GUILD, campaign.id, GM, [])
    assert (await store.get_campaign_by_id(GUILD, campaign.id)).attributes() == ("Wits",)


async def test_the_names_belong_to_one_campaign_of_one_guild(
    store: SqliteStore, make_campaign
) -> None:
    one, two = await make_campaign(), await make_campaign()
    await store.set_attribute_names(GUILD, one.id, GM, ["Might"])
    assert (await store.get_campaign_by_id(GUILD, two.id)).attributes() == WIRE_ATTRIBUTES
    with pytest.raises(NotFound):
        await store.set_attribute_names(OTHER_GUILD, one.id, manager(), ["Pwned"])
    assert (await store.get_campaign_by_id(GUILD, one.id)).attributes() == ("Might",)
