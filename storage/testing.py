"""Pytest fixtures for tests that need a real store, for the storage's tests and the bot's.

Load with `pytest_plugins = ["storage.testing"]` in the top tests/conftest.py. Every store is a
real database, not an in-memory stand-in, so what passes here behaves the same in production:
a SQLite file in the test's tmp_path (WAL, migrations and all), and for the tests in
tests/storage/ also a fresh PostgreSQL database on the throwaway server of storage/pg_testing.py
(the test runs once on each; its id ends in [sqlite] or [postgresql]). A test about SQLite's
files (it asks for `store_path`, or is marked `sqlite_only`) runs on SQLite alone.

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

from storage.models import Actor, Campaign, RollRecord
from storage.rules import RuleStore
from storage.sqlite import SqliteStore
from wire.sheet import Character, Weapon

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


BACKENDS = ("sqlite", "postgresql")
BOTH_BACKENDS_UNDER = ("tests/storage/",)
"""Where the `store` fixture runs each test on both backends; elsewhere (the cogs' tests) on
SQLite, which is what the backend-neutral rules make enough there."""


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "sqlite_only: a storage test about SQLite itself (files, WAL, PRAGMAs, CLI)"
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run each test that uses `store` on every backend that applies to it."""
    if "store_backend" not in metafunc.fixturenames:
        return
    where = metafunc.definition.nodeid.replace("\\", "/")
    both = any(where.startswith(folder) for folder in BOTH_BACKENDS_UNDER)
    sqlite_only = (
        "store_path" in metafunc.fixturenames
        or metafunc.definition.get_closest_marker("sqlite_only") is not None
    )
    backends = BACKENDS if both and not sqlite_only else BACKENDS[:1]
    metafunc.parametrize("store_backend", backends, indirect=True)


@pytest.fixture
def store_backend(request: pytest.FixtureRequest) -> str:
    """The backend the `store` fixture opens: "sqlite" or "postgresql"."""
    return getattr(request, "param", "sqlite")


@pytest.fixture
def store_database(request: pytest.FixtureRequest, store_backend: str) -> str:
    """What the `store` fixture opened: the SQLite file's path, or the PostgreSQL database's
    URL (for other processes, or other connections, on the same database)."""
    if store_backend == "postgresql":
        return request.getfixturevalue("postgres_database")
    return str(request.getfixturevalue("store_path"))


@pytest_asyncio.fixture
async def store(store_backend: str, store_database: str) -> AsyncIterator[RuleStore]:
    """A fresh store on a real database (see the module's docstring), closed after the test."""
    opened: RuleStore
    if store_backend == "postgresql":
        from storage.postgres import PostgresStore

        opened = await PostgresStore.open(store_database, pool_size=4)
    else:
        opened = await SqliteStore.open(store_database)
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
def make_campaign(store: RuleStore) -> CampaignFactory:
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
def make_character(store: RuleStore) -> CharacterFactory:
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
