"""Guild isolation: ids and names from one guild read and change nothing from another.

Every store method that takes a campaign id, a character name, a project or a pending id is
called from another guild with guild A's ids, by guild A's own GM (being a GM there must not
help), and must find nothing; afterwards the database must be as it was (SQLite: byte for
byte; PostgreSQL: every row of every table).
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta

import asyncpg
import pytest

from storage import is_postgres
from storage.errors import InvalidValue, NotFound
from storage.sqlite import SqliteStore
from storage.testing import CHANNEL, GM, GUILD, OTHER_GUILD, PLAYER, roll_record
from storage.transfer import character_document
from wire.sheet import Weapon


async def _dump(database: str) -> list[str]:
    if is_postgres(database):
        conn = await asyncpg.connect(database)
        try:
            tables = await conn.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"
            )
            return [
                f"{table}: {row[0]}"
                for (table,) in tables
                for row in await conn.fetch(f'SELECT t::text FROM "{table}" AS t ORDER BY 1')
            ]
        finally:
            await conn.close()
    conn = sqlite3.connect(database)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


async def test_another_guild_sees_and_changes_nothing(
    store: SqliteStore, store_database: str, make_campaign, make_character
) -> None:
    a = await make_campaign("Secret", channel_id=CHANNEL)
    ash = await make_character(a, "Ash", owner_id=GM, skills={"Parry": 4})
    await make_character(a, "Goblin", npc=True)
    project = await store.start_project(GUILD, a.id, GM, "Sword", 0, ash.id)
    await store.log_roll(roll_record(a, user_id=GM, interaction_id=1))
    pending = await store.create_pending(GUILD, a.id, "defend", {}, datetime.now(UTC))
    # Guild B exists and has its own default campaign.
    b_default = await store.campaign_for_channel(OTHER_GUILD, CHANNEL + 1, PLAYER)
    before = await _dump(store_database)

    B = OTHER_GUILD
    not_found = [
        store.bind_channel(B, CHANNEL + 1, a.id, GM),
        store.unbind_channel(B, CHANNEL, GM),
        store.update_campaign(B, a.id, GM, npc_take10=False),
        store.set_attribute_names(B, a.id, GM, ["Strength", "Charisma"]),
        store.set_attribute_names(B, a.id, GM, None),
        store.add_gm(B, a.id, GM, PLAYER),
        store.remove_gm(B, a.id, GM, GM),
        store.get_campaign(B, "Secret"),
        store.create_character(B, a.id, GM, "Intruder"),
        store.get_character(B, a.id, "Ash"),
        store.set_stat(B, a.id, GM, "Ash", "skill", "Parry", 9),
        store.adjust_stat(B, a.id, GM, "Ash", "skill", "Parry", 1),
        store.replace_stats(B, a.id, GM, "Ash", {"Strength": 3}, {}),
        store.replace_stats(B, a.id, GM, ash.id, {"Strength": 3}, {}),
        store.remove_stat(B, a.id, GM, "Ash", "skill", "Parry"),
        store.set_weapon(B, a.id, GM, "Ash", Weapon("Axe", 1, "S", "M")),
        store.update_character(B, a.id, GM, "Ash", notes="pwned"),
        store.delete_character(B, a.id, GM, "Ash"),
        store.set_active_character(B, a.id, GM, "Goblin"),
        store.start_project(B, a.id, GM, "Axe"),
        store.get_project(B, a.id, GM, "Sword"),
        store.finish_project(B, a.id, GM, "Sword"),
        store.apply_craft_roll(project, 0, 5, roll_record(a, user_id=GM, guild_id=B)),
        store.log_roll(roll_record(a, user_id=GM, guild_id=B)),
        store.export_character(B, a.id, "Ash"),
        store.export_campaign(B, a.id),
        store.import_data(B, a.id, GM, character_document(ash), replace=True),
        store.create_pending(B, a.id, "defend", {}, datetime.now(UTC)),
    ]
    for call in not_found:
        with pytest.raises(NotFound):
            await call
    # Interaction ids are global: one logged in guild A cannot be claimed from guild B.
    with pytest.raises(InvalidValue):
        await store.log_roll(roll_record(b_default, user_id=GM, interaction_id=1))

    assert await store.find_characters(B, a.id) == []
    assert await store.get_active_character(B, a.id, GM) is None
    assert await store.list_projects(B, a.id, include_finished=True) == []
    assert await store.recent_rolls(B, a.id, include_hidden=True) == []
    assert await store.get_pending(B, pending.id) is None
    assert await store.claim_pending(B, pending.id) is False
    await store.set_pending_message(B, pending.id, 1, 2)
    assert await store.expired_pending(datetime.now(UTC) + timedelta(days=1)) == [pending]
    assert [c.id for c in await store.list_campaigns(B)] == [b_default.id]
    assert (await store.campaign_for_channel(B, CHANNEL, PLAYER)).id == b_default.id

    assert await _dump(store_database) == before
