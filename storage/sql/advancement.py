"""The statements of character points (storage/rules_advancement.py, rules_ledger.py and
rules_spending.py), portable as written.

Kept out of storage/sql/common.py so the advancement tables' SQL is in one place; both
catalogues add these. Every statement is scoped by campaign (the rules check the campaign's
guild first, in the same transaction).
"""

from __future__ import annotations

LEDGER_COLUMNS = (
    "id, character_id, user_id, kind, amount, reason, stat_kind, stat_name, level_before, "
    "level_after, undoes, created_at, number"
)
REQUEST_COLUMNS = (
    "id, campaign_id, character_id, user_id, stat_kind, stat_name, level_before, level_after, "
    "cost, state, decided_by, created_at, expires_at, channel_id, message_id, language, "
    "asked_channel_id, asked_language"
)
NEXT_NUMBER = (
    "(SELECT coalesce(max(number), 0) + 1 FROM cp_ledger WHERE character_id = :character_id)"
)
"""A character's next entry number: its entries count 1, 2, 3 (written under the guild's write
lock, and the unique index (character_id, number) backs it)."""

STATEMENTS: dict[str, str] = {
    "cp_categories": "SELECT name, category FROM skill_categories "
    "WHERE campaign_id = :campaign_id ORDER BY name_key",
    "cp_category_count": "SELECT count(*) FROM skill_categories WHERE campaign_id = :campaign_id",
    "cp_set_category": "INSERT INTO skill_categories (campaign_id, name_key, name, category) "
    "VALUES (:campaign_id, :name_key, :name, :category) ON CONFLICT (campaign_id, name_key) "
    "DO UPDATE SET name = excluded.name, category = excluded.category",
    "cp_drop_category": "DELETE FROM skill_categories "
    "WHERE campaign_id = :campaign_id AND name_key = :name_key",
    "cp_drop_categories": "DELETE FROM skill_categories WHERE campaign_id = :campaign_id",
    "cp_species": "SELECT name, cost FROM cp_species WHERE campaign_id = :campaign_id "
    "ORDER BY name_key",
    "cp_species_count": "SELECT count(*) FROM cp_species WHERE campaign_id = :campaign_id",
    "cp_set_species": "INSERT INTO cp_species (campaign_id, name_key, name, cost) "
    "VALUES (:campaign_id, :name_key, :name, :cost) ON CONFLICT (campaign_id, name_key) "
    "DO UPDATE SET name = excluded.name, cost = excluded.cost",
    "cp_drop_species": "DELETE FROM cp_species "
    "WHERE campaign_id = :campaign_id AND name_key = :name_key",
    "cp_sheet_species": "SELECT s.character_id, s.name FROM character_species AS s "
    "JOIN characters AS ch ON ch.id = s.character_id WHERE ch.campaign_id = :campaign_id",
    "cp_set_sheet_species": "INSERT INTO character_species (character_id, name) "
    "VALUES (:character_id, :name) ON CONFLICT (character_id) DO UPDATE SET name = excluded.name",
    "cp_drop_sheet_species": "DELETE FROM character_species WHERE character_id = :character_id",
    "cp_settings": "SELECT attribute_price, starting_cp, approval FROM advancement_settings "
    "WHERE campaign_id = :campaign_id",
    "cp_set_settings": "INSERT INTO advancement_settings "
    "(campaign_id, attribute_price, starting_cp, approval) "
    "VALUES (:campaign_id, :attribute_price, :starting_cp, :approval) "
    "ON CONFLICT (campaign_id) DO UPDATE SET attribute_price = excluded.attribute_price, "
    "starting_cp = excluded.starting_cp, approval = excluded.approval",
    "cp_totals": """
SELECT coalesce(sum(CASE WHEN l.kind = 'award' OR u.kind = 'award' THEN l.amount ELSE 0 END), 0),
       coalesce(sum(CASE WHEN l.kind = 'spend' OR u.kind = 'spend' THEN -l.amount ELSE 0 END), 0)
  FROM cp_ledger AS l
  LEFT JOIN cp_ledger AS u ON u.id = l.undoes
 WHERE l.campaign_id = :campaign_id AND l.character_id = :character_id
""",
    "cp_waiting_total": "SELECT coalesce(sum(cost), 0) FROM cp_requests "
    "WHERE campaign_id = :campaign_id AND character_id = :character_id AND state = 'waiting' "
    "AND expires_at > :now",
    "cp_waiting_stats": "SELECT stat_kind, stat_name FROM cp_requests "
    "WHERE campaign_id = :campaign_id AND character_id = :character_id AND state = 'waiting' "
    "AND expires_at > :now",
    "cp_entries": f"SELECT {LEDGER_COLUMNS} FROM cp_ledger "
    "WHERE campaign_id = :campaign_id AND character_id = :character_id "
    "ORDER BY id DESC LIMIT :limit",
    "cp_entries_page": f"SELECT {LEDGER_COLUMNS} FROM cp_ledger "
    "WHERE campaign_id = :campaign_id AND character_id = :character_id "
    "ORDER BY id DESC LIMIT :limit OFFSET :offset",
    "cp_entry_count": "SELECT count(*) FROM cp_ledger "
    "WHERE campaign_id = :campaign_id AND character_id = :character_id",
    "cp_undone_ids": "SELECT undoes FROM cp_ledger "
    "WHERE campaign_id = :campaign_id AND character_id = :character_id AND undoes IS NOT NULL",
    "cp_last_open_entry": f"SELECT {LEDGER_COLUMNS} FROM cp_ledger AS l "
    "WHERE campaign_id = :campaign_id AND character_id = :character_id AND kind <> 'undo' "
    "AND NOT EXISTS (SELECT 1 FROM cp_ledger AS u WHERE u.undoes = l.id) "
    "ORDER BY id DESC LIMIT 1",
    "cp_insert_entry": "INSERT INTO cp_ledger (campaign_id, character_id, user_id, kind, "
    "amount, reason, stat_kind, stat_name, level_before, level_after, undoes, number) "
    "VALUES (:campaign_id, :character_id, :user_id, :kind, :amount, :reason, :stat_kind, "
    f":stat_name, :level_before, :level_after, :undoes, {NEXT_NUMBER}) "
    f"RETURNING {LEDGER_COLUMNS}",
    "cp_import_entry": "INSERT INTO cp_ledger (campaign_id, character_id, user_id, kind, "
    "amount, reason, stat_kind, stat_name, level_before, level_after, undoes, created_at, "
    "number) VALUES (:campaign_id, :character_id, :user_id, :kind, :amount, :reason, "
    ":stat_kind, :stat_name, :level_before, :level_after, :undoes, :created_at, "
    f"{NEXT_NUMBER}) RETURNING {LEDGER_COLUMNS}",
    # Ready for play: a 'ready' entry no undo has reversed.
    "cp_is_ready": "SELECT count(*) FROM cp_ledger AS l "
    "WHERE l.campaign_id = :campaign_id AND l.character_id = :character_id "
    "AND l.kind = 'ready' AND NOT EXISTS (SELECT 1 FROM cp_ledger AS u WHERE u.undoes = l.id)",
    "cp_campaign_entries": f"SELECT {LEDGER_COLUMNS} FROM cp_ledger "
    "WHERE campaign_id = :campaign_id ORDER BY id",
    "cp_insert_request": "INSERT INTO cp_requests (campaign_id, character_id, user_id, "
    "stat_kind, stat_name, level_before, level_after, cost, expires_at, asked_channel_id, "
    "asked_language) VALUES (:campaign_id, :character_id, :user_id, :stat_kind, :stat_name, "
    ":level_before, :level_after, :cost, :expires_at, :asked_channel_id, :asked_language) "
    "RETURNING id",
    "cp_request": f"SELECT {REQUEST_COLUMNS} FROM cp_requests "
    "WHERE id = :request_id AND campaign_id IN "
    "(SELECT id FROM campaigns WHERE guild_id = :guild_id)",
    "cp_request_posted": "UPDATE cp_requests SET channel_id = :channel_id, "
    "message_id = :message_id, language = :language "
    "WHERE id = :request_id AND campaign_id IN "
    "(SELECT id FROM campaigns WHERE guild_id = :guild_id)",
    "cp_sweep_request": "UPDATE cp_requests SET state = 'expired' "
    "WHERE id = :request_id AND state = 'waiting' AND expires_at <= :now AND campaign_id IN "
    "(SELECT id FROM campaigns WHERE guild_id = :guild_id) RETURNING id",
    "cp_expire_request": "UPDATE cp_requests SET state = 'expired' "
    "WHERE id = :request_id AND state = 'waiting'",
    "cp_decide_request": "UPDATE cp_requests SET state = :state, decided_by = :user_id "
    "WHERE id = :request_id AND state = 'waiting'",
    "cp_active_characters": "SELECT a.character_id FROM active_characters AS a "
    "JOIN characters AS ch ON ch.id = a.character_id "
    "WHERE a.campaign_id = :campaign_id AND ch.is_npc = 0 ORDER BY a.character_id",
    # /privacy forget-me: the user's own characters' ledgers go with them (ON DELETE CASCADE);
    # on the entries and requests of other users' characters the user (a GM who awarded,
    # approved or undid) becomes FORGOTTEN_USER, so the ledger keeps its sums but not the id.
    "forget_user_cp_entries": "UPDATE cp_ledger SET user_id = 0 WHERE user_id = :user_id",
    "forget_user_cp_requests": "UPDATE cp_requests SET "
    "user_id = CASE WHEN user_id = :user_id THEN 0 ELSE user_id END, "
    "decided_by = CASE WHEN decided_by = :user_id THEN NULL ELSE decided_by END "
    "WHERE user_id = :user_id OR decided_by = :user_id",
    "cp_campaign_skills": "SELECT min(s.name) FROM character_stats AS s "
    "JOIN characters AS ch ON ch.id = s.character_id "
    "WHERE ch.campaign_id = :campaign_id AND s.kind = 'skill' AND (ch.is_npc = 0 OR :npcs = 1) "
    "GROUP BY s.name_key ORDER BY s.name_key LIMIT :limit",
    # The skills on the campaign's NPC sheets that no player character has (a player's lists
    # of categories leave them out: they tell what the GM's NPCs can do).
    "cp_npc_only_skills": "SELECT DISTINCT s.name_key FROM character_stats AS s "
    "JOIN characters AS ch ON ch.id = s.character_id "
    "WHERE ch.campaign_id = :campaign_id AND s.kind = 'skill' AND ch.is_npc = 1 "
    "AND NOT EXISTS (SELECT 1 FROM character_stats AS p JOIN characters AS pc "
    "ON pc.id = p.character_id WHERE pc.campaign_id = :campaign_id AND pc.is_npc = 0 "
    "AND p.kind = 'skill' AND p.name_key = s.name_key)",
    "cp_set_stat_value": "UPDATE character_stats SET value = :value "
    "WHERE character_id = :character_id AND kind = :kind AND name_key = :name_key",
}
