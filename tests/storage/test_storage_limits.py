"""Caps per campaign and per user: each refused with a message, nothing written past them."""

from __future__ import annotations

import pytest

from storage import rules_characters, rules_crafting
from storage.errors import InvalidValue
from storage.sqlite import SqliteStore
from storage.testing import GM, GUILD, PLAYER
from storage.transfer import campaign_document


async def test_characters_and_npcs_have_their_own_caps(
    store: SqliteStore, make_campaign, make_character, monkeypatch
) -> None:
    monkeypatch.setattr(rules_characters, "MAX_CHARACTERS_PER_CAMPAIGN", 2)
    monkeypatch.setattr(rules_characters, "MAX_NPCS_PER_CAMPAIGN", 1)
    campaign = await make_campaign()
    await make_character(campaign, "Ash")
    await make_character(campaign, "Bo")
    with pytest.raises(InvalidValue, match="2 player characters; the limit is 2"):
        await make_character(campaign, "Cy")
    await make_character(campaign, "Goblin", npc=True)  # NPCs count apart
    with pytest.raises(InvalidValue, match="1 NPCs; the limit is 1"):
        await make_character(campaign, "Orc", npc=True)
    names = [c.name for c in await store.find_characters(GUILD, campaign.id, limit=10)]
    assert names == ["Ash", "Bo", "Goblin"]


async def test_an_import_past_the_cap_writes_nothing(
    store: SqliteStore, make_campaign, make_character, monkeypatch
) -> None:
    source = await make_campaign("Source")
    for name in ("Ash", "Bo", "Cy"):
        await make_character(source, name)
    monkeypatch.setattr(rules_characters, "MAX_CHARACTERS_PER_CAMPAIGN", 2)
    document = campaign_document(source, await store.find_characters(GUILD, source.id))
    target = await make_campaign("Target")
    with pytest.raises(InvalidValue, match="limit is 2"):
        await store.import_data(GUILD, target.id, GM, document)
    assert await store.find_characters(GUILD, target.id) == []


async def test_open_crafting_projects_per_user_are_capped(
    store: SqliteStore, make_campaign, monkeypatch
) -> None:
    monkeypatch.setattr(rules_crafting, "MAX_OPEN_PROJECTS_PER_USER", 2)
    campaign = await make_campaign()
    await store.start_project(GUILD, campaign.id, PLAYER, "Sword")
    await store.start_project(GUILD, campaign.id, PLAYER, "Shield")
    with pytest.raises(InvalidValue, match="2 unfinished crafting projects"):
        await store.start_project(GUILD, campaign.id, PLAYER, "Helmet")
    await store.start_project(GUILD, campaign.id, GM, "Helmet")  # another user: their own count
    await store.finish_project(GUILD, campaign.id, PLAYER, "Sword")
    await store.start_project(GUILD, campaign.id, PLAYER, "Helmet")  # room again
