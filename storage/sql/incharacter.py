"""The in-character statements (portraits and the post record), portable to both backends.

Kept apart from storage/sql/common.py so the feature's SQL reads in one place; each backend's
catalogue adds these to its own.
"""

from __future__ import annotations

from storage.sql.common import Dialect

POST_COLUMNS = (
    "message_id, guild_id, campaign_id, channel_id, thread_id, character_id, character_name, "
    "author_id, emote, webhook_id, created_at"
)


def statements(d: Dialect) -> dict[str, str]:
    return {
        "character_set_portrait": "UPDATE characters SET portrait = :value "
        "WHERE id = :character_id",
        "import_clear_portraits": "UPDATE characters SET portrait = NULL "
        f"WHERE campaign_id = :campaign_id AND name_key IN ({d.imported_keys})",
        "import_portrait": "UPDATE characters SET portrait = :portrait "
        "WHERE campaign_id = :campaign_id AND name_key = :name_key",
        # The campaign join keeps a record inside its guild, whatever id the caller passes.
        "insert_post": f"INSERT INTO character_posts ({POST_COLUMNS}) "
        # Typed, so PostgreSQL knows the parameters of a SELECT list (SQLite takes them alike).
        "SELECT CAST(:message_id AS BIGINT), c.guild_id, c.id, CAST(:channel_id AS BIGINT), "
        "CAST(:thread_id AS BIGINT), CAST(:character_id AS BIGINT), "
        "CAST(:character_name AS TEXT), CAST(:author_id AS BIGINT), CAST(:emote AS INTEGER), "
        f"CAST(:webhook_id AS BIGINT), {d.now} FROM campaigns AS c "
        "WHERE c.id = :campaign_id AND c.guild_id = :guild_id "
        "ON CONFLICT (message_id) DO NOTHING",
        "post_by_message": f"SELECT {POST_COLUMNS} FROM character_posts "
        "WHERE message_id = :message_id AND guild_id = :guild_id",
        "delete_post": "DELETE FROM character_posts "
        "WHERE message_id = :message_id AND guild_id = :guild_id",
        "forget_user_posts": "DELETE FROM character_posts WHERE author_id = :user_id",
    }
