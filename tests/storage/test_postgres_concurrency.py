"""Two bot processes on one PostgreSQL database lose nothing: here two stores, each with a pool
of its own (as two processes have), writing the same guild at once."""

from __future__ import annotations

import asyncio
import itertools

import asyncpg

from storage.models import HealthTarget
from storage.postgres import PostgresStore
from storage.testing import GM, GUILD, PLAYER, manager, roll_record
from wire.limits import STAT_MAX, STAT_MIN


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
