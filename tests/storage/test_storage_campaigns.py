"""Campaigns: the default one, names, channels, settings, GMs; and persistence across restarts."""

from __future__ import annotations

import asyncio

import pytest

from storage import open_store
from storage.errors import InvalidValue, NameTaken, NotFound, PermissionDenied
from storage.models import MAX_CAMPAIGNS_PER_GUILD
from storage.sqlite import SqliteStore
from storage.testing import CHANNEL, GM, GUILD, OTHER_PLAYER, PLAYER, manager, roll_record


async def test_first_use_makes_a_default_campaign_with_no_player_gm(store: SqliteStore) -> None:
    """Nobody becomes GM by touching the bot first; the server's managers are its GMs."""
    campaign = await store.campaign_for_channel(GUILD, CHANNEL, PLAYER)
    assert campaign.name == "Default"
    assert campaign.is_default
    assert campaign.gm_ids == ()
    assert not campaign.is_gm(PLAYER)
    assert campaign.is_gm(manager(PLAYER))
    assert campaign.npc_take10 is True
    assert campaign.gm_channel_id is None
    again = await store.campaign_for_channel(GUILD, CHANNEL + 1, GM)
    assert again == campaign  # every unbound channel, same default


async def test_server_managers_are_gms_of_every_campaign(store: SqliteStore, make_campaign) -> None:
    campaign = await make_campaign()
    boss = manager(OTHER_PLAYER)
    with pytest.raises(PermissionDenied, match="Its GMs are <@2001> and everyone with Manage"):
        await store.update_campaign(GUILD, campaign.id, OTHER_PLAYER, npc_take10=False)
    changed = await store.update_campaign(GUILD, campaign.id, boss, npc_take10=False)
    assert changed.npc_take10 is False
    assert (await store.add_gm(GUILD, campaign.id, boss, PLAYER)).gm_ids == (GM, PLAYER)
    npc = await store.create_character(GUILD, campaign.id, boss, "Goblin", is_npc=True)
    await store.set_stat(GUILD, campaign.id, boss, npc.name, "skill", "Parry", 2)


async def test_only_managers_and_gms_create_campaigns_up_to_the_cap(
    store: SqliteStore, make_campaign
) -> None:
    with pytest.raises(PermissionDenied, match="Creating a campaign takes Manage Server"):
        await store.create_campaign(GUILD, "Mine", PLAYER)
    await make_campaign("Theirs", gms=(PLAYER,))
    assert (await store.create_campaign(GUILD, "Mine", PLAYER)).gm_ids == (PLAYER,)
    with pytest.raises(PermissionDenied):  # a GM in another server counts for nothing here
        await store.create_campaign(GUILD + 1, "Mine", PLAYER)
    for number in range(MAX_CAMPAIGNS_PER_GUILD - 2):
        await store.create_campaign(GUILD, f"More {number}", PLAYER)
    with pytest.raises(InvalidValue, match=f"the limit is {MAX_CAMPAIGNS_PER_GUILD}"):
        await store.create_campaign(GUILD, "One too many", manager())


async def test_concurrent_first_uses_make_one_default(store: SqliteStore) -> None:
    found = await asyncio.gather(
        *(store.campaign_for_channel(GUILD, CHANNEL + i, 100 + i) for i in range(20))
    )
    assert len({c.id for c in found}) == 1
    assert len(await store.list_campaigns(GUILD)) == 1


async def test_two_connections_racing_first_use_make_one_default(
    store: SqliteStore, store_database: str
) -> None:
    # A second store is a second connection (pool): real lock contention, as two processes.
    other = await open_store(store_database)
    try:
        found = await asyncio.gather(
            *((store if i % 2 else other).campaign_for_channel(7, i, 100 + i) for i in range(20))
        )
    finally:
        await other.close()
    assert len({c.id for c in found}) == 1
    assert [c.is_default for c in await store.list_campaigns(7)] == [True]


async def test_default_name_steps_aside_for_a_campaign_called_default(store: SqliteStore) -> None:
    await store.create_campaign(GUILD, "default", manager(GM))
    campaign = await store.campaign_for_channel(GUILD, CHANNEL, PLAYER)
    assert (campaign.name, campaign.is_default) == ("Default 2", True)


async def test_campaign_names_are_unique_per_guild_case_insensitive_beyond_ascii(
    store: SqliteStore,
) -> None:
    first = await store.create_campaign(GUILD, "Ærwyn Saga", manager(GM))
    assert first.gm_ids == (GM,)
    assert not first.is_default
    with pytest.raises(NameTaken, match="already has a campaign named 'ærwyn saga'"):
        await store.create_campaign(GUILD, "ærwyn saga", manager(PLAYER))
    with pytest.raises(NameTaken):
        await store.create_campaign(GUILD, "  ÆRWYN SAGA ", manager(PLAYER))
    await store.create_campaign(GUILD + 1, "Ærwyn Saga", manager(PLAYER))  # another guild: fine
    assert (await store.get_campaign(GUILD, "æRWYN saga")).id == first.id
    with pytest.raises(NotFound, match="No campaign named 'Nope' in this server"):
        await store.get_campaign(GUILD, "Nope")


async def test_campaign_names_are_checked(store: SqliteStore) -> None:
    for bad in ("", "   ", "x" * 65, "two\nlines"):
        with pytest.raises(InvalidValue, match="campaign name"):
            await store.create_campaign(GUILD, bad, manager(GM))
    assert (await store.create_campaign(GUILD, " " + "x" * 64 + " ", manager(GM))).name == "x" * 64


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
    with pytest.raises(PermissionDenied, match="Only a GM of One can play it in a channel"):
        await store.bind_channel(GUILD, CHANNEL, one.id, PLAYER)
    assert (await store.bind_channel(GUILD, CHANNEL, one.id, GM)).id == one.id
    assert (await store.campaign_for_channel(GUILD, CHANNEL, PLAYER)).id == one.id
    # A GM of Two alone may not take a channel that One plays in ...
    with pytest.raises(PermissionDenied, match="Only a GM of One can move this channel"):
        await store.bind_channel(GUILD, CHANNEL, two.id, OTHER_PLAYER)
    assert (await store.campaign_for_channel(GUILD, CHANNEL, PLAYER)).id == one.id
    # ... a server manager may.
    await store.bind_channel(GUILD, CHANNEL, two.id, manager(OTHER_PLAYER))
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


async def test_gms_in_order_and_the_last_may_go(store: SqliteStore, make_campaign) -> None:
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
    # The last player GM may step down: the server's managers remain its GMs.
    campaign = await store.remove_gm(GUILD, campaign.id, OTHER_PLAYER, OTHER_PLAYER)
    assert campaign.gm_ids == ()
    assert (await store.add_gm(GUILD, campaign.id, manager(), GM)).gm_ids == (GM,)


async def test_everything_survives_a_restart(store_database: str) -> None:
    store = await open_store(store_database)
    campaign = await store.create_campaign(GUILD, "Night Market", manager(GM))
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

    reopened = await open_store(store_database)
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
