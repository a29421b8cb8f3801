"""The PostgreSQL backend's own behaviour: Busy when a lock is held too long, connections the
server ended replaced, and a URL's password kept out of messages."""

from __future__ import annotations

import asyncpg
import pytest

from storage import open_store
from storage.errors import Busy, StorageError
from storage.postgres import PostgresStore
from storage.testing import GM, GUILD, PLAYER, manager


async def test_an_unreachable_server_is_named_without_its_password() -> None:
    url = "postgresql://wire:s3cret-pw@127.0.0.1:1/wire"  # port 1: nothing listens
    with pytest.raises(StorageError) as caught:
        await open_store(url)
    message = str(caught.value)
    assert "s3cret-pw" not in message
    assert "postgresql://wire:***@127.0.0.1:1/wire" in message and "WIRE_DATABASE" in message


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
