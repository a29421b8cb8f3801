"""Two bot processes on one PostgreSQL database lose nothing: here two stores, each with a pool
of its own (as two processes have), writing the same guild at once."""

from __future__ import annotations

import asyncio
import itertools

import asyncpg
import pytest

from storage.errors import Busy
from storage.models import STAT_MAX, STAT_MIN, HealthTarget
from storage.postgres import PostgresStore
from storage.testing import GM, GUILD, PLAYER, manager, roll_record


async def test_two_pools_writing_one_guild_lose_no_update(postgres_database: str) -> None:
    one = await PostgresStore.open(postgres_database, pool_size=5)
    two = await PostgresStore.open(postgres_database, pool_size=5)
    try:
        campaign = await one.create_campaign(GUILD, "Race", manager(GM))
        ash = await one.create_character(
            GUILD, campaign.id, GM, "Ash", owner_id=PLAYER, attributes={"Counter": STAT_MIN}
        )
        await one.set_health_values(GUILD, campaign.id, GM, "Ash", hp_max=500)
        stores = itertools.cycle((one, two))
        bumps = [
            next(stores).adjust_stat(GUILD, campaign.id, GM, "Ash", "attribute", "Counter", 1)
            for _ in range(STAT_MAX - STAT_MIN)
        ]
        blows = [
            next(stores).change_health(
                GUILD, campaign.id, GM, HealthTarget(character_id=ash.id), "damage", 1
            )
            for _ in range(60)
        ]
        # 150 rolls from each process; interactions 0-19 reach both (a retried delivery).
        rolls = [
            store.log_roll(roll_record(campaign, interaction_id=n))
            for store, first in ((one, 0), (two, 1000))
            for n in [*range(first, first + 130), *range(20)]
        ]
        mixed = [c for group in itertools.zip_longest(bumps, blows, rolls) for c in group if c]
        outcomes = await asyncio.gather(*mixed)
        ids = [o for o in outcomes if isinstance(o, int)]

        sheet = await two.get_character(GUILD, campaign.id, "Ash")
        assert sheet.attributes == {"Counter": STAT_MAX}  # every +1 of both processes
        assert sheet.health().hp == 500 - 60  # every blow
        # Blows ran one after another: each one's "before" is the previous one's "after".
        history = await one.recent_health(GUILD, campaign.id, limit=100)
        chain = [(e.change.before, e.change.after) for e in reversed(history)]
        assert chain == [(500 - n, 499 - n) for n in range(60)]

        conn = await asyncpg.connect(postgres_database)
        try:
            logged = await conn.fetch("SELECT id, interaction_id FROM roll_log ORDER BY id")
        finally:
            await conn.close()
        by_interaction = {row["interaction_id"]: row["id"] for row in logged}
        assert len(logged) == len(by_interaction) == 130 + 130  # the 20 retried: once each
        assert sorted(by_interaction) == [*range(130), *range(1000, 1130)]
        assert len(ids) == len(rolls) and set(ids) == set(by_interaction.values())
    finally:
        await one.close()
        await two.close()


async def test_a_write_kept_waiting_past_the_timeout_is_busy(postgres_database: str) -> None:
    """Another process holding the guild's lock too long: the user is told to try again, and
    the store goes on once the lock is free."""
    store = await PostgresStore.open(postgres_database, pool_size=2, busy_timeout=0.2)
    other = await asyncpg.connect(postgres_database)
    try:
        campaign = await store.create_campaign(GUILD, "Slow", manager(GM))
        await store.create_character(GUILD, campaign.id, GM, "Ash", owner_id=PLAYER)
        async with other.transaction():
            await other.execute("SELECT pg_advisory_xact_lock($1)", GUILD)
            with pytest.raises(Busy, match=r"busy\. Try again in a moment"):
                await store.set_stat(GUILD, campaign.id, PLAYER, "Ash", "skill", "Parry", 3)
            # Another guild's writes do not wait for this one's lock.
            await store.campaign_for_channel(GUILD + 1, 1, PLAYER)
        ash = await store.set_stat(GUILD, campaign.id, PLAYER, "Ash", "skill", "Parry", 3)
        assert ash.skills == {"Parry": 3}
    finally:
        await other.close()
        await store.close()


async def test_connections_the_server_ended_are_replaced(postgres_database: str) -> None:
    store = await PostgresStore.open(postgres_database, pool_size=1)
    try:
        campaign = await store.create_campaign(GUILD, "Gone", manager(GM))
        admin = await asyncpg.connect(postgres_database)
        try:  # the server ends this store's connection, as a restart or a failover would
            await admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE application_name = 'wire-bot' AND pid <> pg_backend_pid()"
            )
        finally:
            await admin.close()
        assert (await store.get_campaign_by_id(GUILD, campaign.id)).name == "Gone"
    finally:
        await store.close()
