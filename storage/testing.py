"""Pytest fixtures for tests that need a real store, for the storage's tests and the bot's.

Load with `pytest_plugins = ["storage.testing"]` in the top tests/conftest.py. Every store is a
real SQLite file in the test's tmp_path (WAL, migrations and all), not an in-memory stand-in,
so what passes here behaves the same in production.

    async def test_something(store, make_campaign, make_character):
        campaign = await make_campaign("Night Market")          # GM is testing.GM
        ash = await make_character(campaign, "Ash", skills={"Parry": 4})  # owned by PLAYER
        await store.log_roll(roll_record(campaign, character=ash))
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from storage.models import Actor, Campaign, Character, RollRecord, Weapon
from storage.sqlite import SqliteStore

GUILD = 1001
OTHER_GUILD = 1002
CHANNEL = 3001
GM = 2001
"""The first GM of campaigns made by `make_campaign`."""
PLAYER = 2002
"""The default owner of characters made by `make_character`."""
OTHER_PLAYER = 2003


def manager(user_id: int = GM) -> Actor:
    """A user acting with Manage Server: a GM of every campaign, who may create campaigns."""
    return Actor(user_id, manages_guild=True)


CampaignFactory = Callable[..., Awaitable[Campaign]]
CharacterFactory = Callable[..., Awaitable[Character]]


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    """Where the `store` fixture keeps its database (reopen it to test persistence)."""
    return tmp_path / "wire.db"


@pytest_asyncio.fixture
async def store(store_path: Path) -> AsyncIterator[SqliteStore]:
    """A fresh store on a real SQLite file, closed after the test."""
    opened = await SqliteStore.open(store_path)
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
def make_campaign(store: SqliteStore) -> CampaignFactory:
    """`await make_campaign(name=None, *, guild_id=GUILD, gm_id=GM, gms=(), channel_id=None)`.

    No name: a fresh unique one. `gms` adds more GMs; `channel_id` binds that channel to it.
    """
    count = 0

    async def make(
        name: str | None = None,
        *,
        guild_id: int = GUILD,
        gm_id: int = GM,
        gms: tuple[int, ...] = (),
        channel_id: int | None = None,
    ) -> Campaign:
        nonlocal count
        count += 1
        # Made as a server manager would (players may not create campaigns); gm_id is its GM.
        creator = manager(gm_id)
        campaign = await store.create_campaign(guild_id, name or f"Campaign {count}", creator)
        for other in gms:
            campaign = await store.add_gm(guild_id, campaign.id, gm_id, other)
        if channel_id is not None:
            campaign = await store.bind_channel(guild_id, channel_id, campaign.id, gm_id)
        return campaign

    return make


@pytest.fixture
def make_character(store: SqliteStore) -> CharacterFactory:
    """`await make_character(campaign, name="Ash", *, owner_id=PLAYER, npc=False, ...)`.

    Made by the campaign's first GM, so any owner works; `weapons` is a list of Weapon.
    """

    async def make(
        campaign: Campaign,
        name: str = "Ash",
        *,
        owner_id: int = PLAYER,
        npc: bool = False,
        attributes: dict[str, int] | None = None,
        skills: dict[str, int] | None = None,
        weapons: list[Weapon] | tuple[Weapon, ...] = (),
        shield: bool = False,
        notes: str = "",
    ) -> Character:
        gm = campaign.gm_ids[0]
        character = await store.create_character(
            campaign.guild_id,
            campaign.id,
            gm,
            name,
            is_npc=npc,
            owner_id=None if npc else owner_id,
            attributes=attributes,
            skills=skills,
            shield=shield,
            notes=notes,
        )
        for weapon in weapons:
            character = await store.set_weapon(
                campaign.guild_id, campaign.id, gm, character.name, weapon
            )
        return character

    return make


def roll_record(
    campaign: Campaign,
    *,
    user_id: int = PLAYER,
    character: Character | None = None,
    channel_id: int = CHANNEL,
    **fields: Any,
) -> RollRecord:
    """A plausible RollRecord for `campaign`; any field can be overridden by keyword."""
    values: dict[str, Any] = {
        "guild_id": campaign.guild_id,
        "campaign_id": campaign.id,
        "channel_id": channel_id,
        "user_id": user_id,
        "kind": "check",
        "inputs": {"attribute": "Strength", "skill": "Climbing", "target": 15},
        "die": 12,
        "die_source": "rolled",
        "total": 17,
        "target": 15,
        "success": True,
        "degrees": 1,
        "raw_degrees": 1,
        "character_id": character.id if character else None,
        "character_name": character.name if character else None,
    }
    values.update(fields)
    return RollRecord(**values)
