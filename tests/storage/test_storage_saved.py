"""Saved rolls in the store, on both backends: who may save, the limit, scoping, exports."""

from __future__ import annotations

import pytest

from storage.errors import InvalidValue, NameTaken, NotFound, PermissionDenied
from storage.testing import GM, GUILD, OTHER_GUILD, OTHER_PLAYER, PLAYER

CLIMB = {"name": "check", "options": {"attr_name": "Dexterity", "skill_name": "Climbing"}}


async def test_save_rename_delete_and_the_owner_rules(store, make_campaign, make_character):
    campaign = await make_campaign()
    ash = await make_character(campaign, "Ash")
    goblin = await make_character(campaign, "Goblin", npc=True)
    change = await store.save_roll(GUILD, campaign.id, PLAYER, ash.id, "climb", CLIMB)
    assert not change.replaced and change.saved.command == CLIMB
    again = await store.save_roll(GUILD, campaign.id, PLAYER, ash.id, "Climb", CLIMB, "up")
    assert again.replaced and again.saved.id == change.saved.id
    with pytest.raises(PermissionDenied):
        await store.save_roll(GUILD, campaign.id, OTHER_PLAYER, ash.id, "mine", CLIMB)
    with pytest.raises(PermissionDenied, match="Only a GM"):
        await store.save_roll(GUILD, campaign.id, PLAYER, goblin.id, "stab", CLIMB)
    await store.save_roll(GUILD, campaign.id, GM, goblin.id, "stab", CLIMB)
    await store.save_roll(GUILD, campaign.id, PLAYER, ash.id, "jump", CLIMB)
    with pytest.raises(NameTaken):
        await store.rename_saved_roll(GUILD, campaign.id, PLAYER, ash.id, "climb", "JUMP")
    renamed = await store.rename_saved_roll(GUILD, campaign.id, PLAYER, ash.id, "climb", "Klettern")
    found = await store.find_saved_roll(GUILD, campaign.id, ash.id, "klettern")
    assert found.id == renamed.id == change.saved.id
    assert await store.get_saved_roll(OTHER_GUILD, campaign.id, found.id) is None
    await store.delete_saved_roll(GUILD, campaign.id, PLAYER, ash.id, "Klettern")
    with pytest.raises(NotFound):
        await store.find_saved_roll(GUILD, campaign.id, ash.id, "Klettern")
    assert [s.name for s in await store.saved_rolls(GUILD, campaign.id, ash.id)] == ["jump"]


async def test_25_saved_rolls_at_most(store, make_campaign, make_character):
    campaign = await make_campaign()
    ash = await make_character(campaign, "Ash")
    for n in range(25):
        await store.save_roll(GUILD, campaign.id, PLAYER, ash.id, f"roll {n}", CLIMB)
    with pytest.raises(InvalidValue, match="Ash has 25 saved rolls"):
        await store.save_roll(GUILD, campaign.id, PLAYER, ash.id, "one more", CLIMB)


async def test_exports_carry_saved_rolls_and_older_files_still_import(
    store, make_campaign, make_character
):
    campaign = await make_campaign()
    ash = await make_character(campaign, "Ash")
    await store.save_roll(GUILD, campaign.id, PLAYER, ash.id, "climb", CLIMB, "Up the wall")
    document = await store.export_character(GUILD, campaign.id, "Ash")
    assert document["character"]["saved_rolls"] == [
        {"name": "climb", "command": CLIMB, "label": "Up the wall"}
    ]
    whole = await store.export_campaign(GUILD, campaign.id)
    assert whole["characters"][0]["saved_rolls"][0]["name"] == "climb"
    other = await make_campaign("Elsewhere")
    [copy] = await store.import_data(GUILD, other.id, PLAYER, document)
    [saved] = await store.saved_rolls(GUILD, other.id, copy.id)
    assert (saved.name, saved.command, saved.label) == ("climb", CLIMB, "Up the wall")
    older = {**document, "character": {**document["character"], "name": "Old Ash"}}
    del older["character"]["saved_rolls"]
    [old] = await store.import_data(GUILD, other.id, PLAYER, older)
    assert await store.saved_rolls(GUILD, other.id, old.id) == []
    bad = {**document, "character": {**document["character"], "name": "Bad"}}
    bad["character"]["saved_rolls"] = [
        {"name": "x", "command": {"name": "check", "options": {"a": 1.5}}}
    ]
    with pytest.raises(Exception, match="saved_rolls"):
        await store.import_data(GUILD, other.id, PLAYER, bad)
