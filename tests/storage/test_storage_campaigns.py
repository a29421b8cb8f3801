"""Campaigns: the default one, names, channels, settings, GMs; and persistence across restarts."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from storage.errors import InvalidValue, NameTaken, NotFound, PermissionDenied
from storage.sqlite import SqliteStore
from storage.testing import CHANNEL, GM, GUILD, OTHER_PLAYER, PLAYER, roll_record


async def test_first_use_makes_a_default_campaign_with_the_user_as_gm(store: SqliteStore) -> None:
    campaign = await store.campaign_for_channel(GUILD, CHANNEL, PLAYER)
    assert campaign.name == "Default"
    assert campaign.is_default
    assert campaign.gm_ids == (PLAYER,)
    assert campaign.npc_take10 is True
    assert campaign.gm_channel_id is None
    again = await store.campaign_for_channel(GUILD, CHANNEL + 1, GM)
    assert again == campaign  # every unbound channel, same default, first user stays GM


async def test_concurrent_first_uses_make_one_default(store: SqliteStore) -> None:
    found = await asyncio.gather(
        *(store.campaign_for_channel(GUILD, CHANNEL + i, 100 + i) for i in range(20))
    )
    assert len({c.id for c in found}) == 1
    assert len(await store.list_campaigns(GUILD)) == 1


async def test_two_connections_racing_first_use_make_one_default(
    store: SqliteStore, store_path: Path
) -> None:
    # A second store is a second SQLite connection: real lock contention, as two processes.
    other = await SqliteStore.open(store_path)
    try:
        found = await asyncio.gather(
            *((store if i % 2 else other).campaign_for_channel(7, i, 100 + i) for i in range(20))
        )
    finally:
        await other.close()
    assert len({c.id for c in found}) == 1
    assert [c.is_default for c in await store.list_campaigns(7)] == [True]


async def test_default_name_steps_aside_for_a_campaign_called_default(store: SqliteStore) -> None:
    await store.create_campaign(GUILD, "default", GM)
    campaign = await store.campaign_for_channel(GUILD, CHANNEL, PLAYER)
    assert (campaign.name, campaign.is_default) == ("Default 2", True)


async def test_campaign_names_are_unique_per_guild_case_insensitive_beyond_ascii(
    store: SqliteStore,
) -> None:
    first = await store.create_campaign(GUILD, "Ærwyn Saga", GM)
    assert first.gm_ids == (GM,)
    assert not first.is_default
    with pytest.raises(NameTaken, match="already has a campaign named 'ærwyn saga'"):
        await store.create_campaign(GUILD, "ærwyn saga", PLAYER)
    with pytest.raises(NameTaken):
        await store.create_campaign(GUILD, "  ÆRWYN SAGA ", PLAYER)
    await store.create_campaign(GUILD + 1, "Ærwyn Saga", PLAYER)  # another guild: fine
    assert (await store.get_campaign(GUILD, "æRWYN saga")).id == first.id
    with pytest.raises(NotFound, match="No campaign named 'Nope' in this server"):
        await store.get_campaign(GUILD, "Nope")


async def test_campaign_names_are_checked(store: SqliteStore) -> None:
    for bad in ("", "   ", "x" * 65, "two\nlines"):
        with pytest.raises(InvalidValue, match="campaign name"):
            await store.create_campaign(GUILD, bad, GM)
    assert (await store.create_campaign(GUILD, " " + "x" * 64 + " ", GM)).name == "x" * 64


async def test_list_campaigns_default_first_then_by_name(store: SqliteStore, make_campaign) -> None:
    await make_campaign("zeta")
    await make_campaign("Alpha")
    await store.campaign_for_channel(GUILD, CHANNEL, GM)
    assert [c.name for c in await store.list_campaigns(GUILD)] == ["Default", "Alpha", "zeta"]


async def test_binding_a_channel_moves_it_between_campaigns(
    store: SqliteStore, make_campaign
) -> None:
    default = await store.campaign_for_channel(GUILD, CHANNEL, GM)
    one = await make_campaign("One")
    two = await make_campaign("Two", gm_id=OTHER_PLAYER)
    with pytest.raises(PermissionDenied, match="Only a GM of this campaign"):
        await store.bind_channel(GUILD, CHANNEL, one.id, PLAYER)
    assert (await store.bind_channel(GUILD, CHANNEL, one.id, GM)).id == one.id
    assert (await store.campaign_for_channel(GUILD, CHANNEL, PLAYER)).id == one.id
    await store.bind_channel(GUILD, CHANNEL, two.id, OTHER_PLAYER)  # replaces the binding
    assert (await store.campaign_for_channel(GUILD, CHANNEL, PLAYER)).id == two.id
    assert (await store.campaign_for_channel(GUILD, CHANNEL + 1, PLAYER)).id == default.id
    with pytest.raises(PermissionDenied):
        await store.unbind_channel(GUILD, CHANNEL, GM)  # GM of One, not of Two
    await store.unbind_channel(GUILD, CHANNEL, OTHER_PLAYER)
    assert (await store.campaign_for_channel(GUILD, CHANNEL, PLAYER)).id == default.id
    with pytest.raises(NotFound, match="not bound"):
        await store.unbind_channel(GUILD, CHANNEL, OTHER_PLAYER)


async def test_settings_are_for_gms(store: SqliteStore, make_campaign) -> None:
    campaign = await make_campaign()
    with pytest.raises(PermissionDenied, match="Only a GM"):
        await store.update_campaign(GUILD, campaign.id, PLAYER, npc_take10=False)
    changed = await store.update_campaign(
        GUILD, campaign.id, GM, npc_take10=False, gm_channel_id=555
    )
    assert (changed.npc_take10, changed.gm_channel_id) == (False, 555)
    same = await store.update_campaign(GUILD, campaign.id, GM)  # None leaves things alone
    assert same == changed
    cleared = await store.update_campaign(GUILD, campaign.id, GM, clear_gm_channel=True)
    assert (cleared.npc_take10, cleared.gm_channel_id) == (False, None)


async def test_gms_in_order_and_never_none(store: SqliteStore, make_campaign) -> None:
    campaign = await make_campaign()
    with pytest.raises(PermissionDenied):
        await store.add_gm(GUILD, campaign.id, PLAYER, PLAYER)
    campaign = await store.add_gm(GUILD, campaign.id, GM, PLAYER)
    campaign = await store.add_gm(GUILD, campaign.id, PLAYER, OTHER_PLAYER)  # a new GM can add
    campaign = await store.add_gm(GUILD, campaign.id, GM, PLAYER)  # already one: no change
    assert campaign.gm_ids == (GM, PLAYER, OTHER_PLAYER)
    assert campaign.is_gm(OTHER_PLAYER)
    campaign = await store.remove_gm(GUILD, campaign.id, OTHER_PLAYER, GM)
    assert campaign.gm_ids == (PLAYER, OTHER_PLAYER)
    with pytest.raises(NotFound, match="is not a GM"):
        await store.remove_gm(GUILD, campaign.id, PLAYER, GM)
    with pytest.raises(PermissionDenied):
        await store.remove_gm(GUILD, campaign.id, GM, PLAYER)  # GM is no GM any more
    campaign = await store.remove_gm(GUILD, campaign.id, PLAYER, PLAYER)
    with pytest.raises(InvalidValue, match="at least one GM"):
        await store.remove_gm(GUILD, campaign.id, OTHER_PLAYER, OTHER_PLAYER)
    assert (await store.get_campaign(GUILD, campaign.name)).gm_ids == (OTHER_PLAYER,)


async def test_a_removed_gm_loses_an_active_npc(store: SqliteStore, make_campaign) -> None:
    campaign = await make_campaign(gms=(PLAYER,))
    await store.create_character(GUILD, campaign.id, PLAYER, "Goblin", is_npc=True)
    await store.set_active_character(GUILD, campaign.id, PLAYER, "Goblin")
    await store.remove_gm(GUILD, campaign.id, GM, PLAYER)
    assert await store.get_active_character(GUILD, campaign.id, PLAYER) is None


async def test_meta_values(store: SqliteStore) -> None:
    assert await store.get_meta("command_hash:global") is None
    await store.set_meta("command_hash:global", "a")
    await store.set_meta("command_hash:global", "b")
    assert await store.get_meta("command_hash:global") == "b"


async def test_everything_survives_a_restart(store_path: Path) -> None:
    store = await SqliteStore.open(store_path)
    campaign = await store.create_campaign(GUILD, "Night Market", GM)
    await store.bind_channel(GUILD, CHANNEL, campaign.id, GM)
    await store.update_campaign(GUILD, campaign.id, GM, npc_take10=False)
    ash = await store.create_character(
        GUILD, campaign.id, PLAYER, "Ash", attributes={"Strength": 3}, skills={"Parry": 4}
    )
    await store.create_character(GUILD, campaign.id, GM, "Goblin", is_npc=True)
    project = await store.start_project(GUILD, campaign.id, PLAYER, "Sword", 2, ash.id)
    roll_id = await store.log_roll(roll_record(campaign, character=ash, interaction_id=42))
    await store.set_meta("k", "v")
    await store.close()

    reopened = await SqliteStore.open(store_path)
    try:
        again = await reopened.campaign_for_channel(GUILD, CHANNEL, OTHER_PLAYER)
        assert again.id == campaign.id
        assert again.npc_take10 is False
        assert await reopened.get_active_character(GUILD, campaign.id, PLAYER) == ash
        assert (await reopened.get_character(GUILD, campaign.id, "goblin")).is_npc
        assert await reopened.get_project(GUILD, campaign.id, PLAYER, "sword") == project
        [roll] = await reopened.recent_rolls(GUILD, campaign.id)
        assert (roll.id, roll.character_name, roll.interaction_id) == (roll_id, "Ash", 42)
        assert await reopened.get_meta("k") == "v"
    finally:
        await reopened.close()
