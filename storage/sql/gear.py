"""The statements of gear, purses and counters (storage/rules_gear.py), portable as written.

Every read joins the character and filters on its campaign (the rules check the campaign's guild
first, in the same transaction), so an id from another guild or campaign finds nothing. The
changes that must act once are compare-and-set: they name the value they expect and change no
row when it is not so any more.
"""

from __future__ import annotations

ITEM_COLUMNS = "i.name, i.quantity, i.grams, i.note, i.carried, i.id"
COUNTER_COLUMNS = "k.name, k.value, k.maximum, k.reset_on, k.id, k.weapon_key"
ENTRY_COLUMNS = (
    "l.id, l.character_id, l.user_id, l.kind, l.amount, l.reason, l.transfer_id, l.undoes, "
    "l.created_at"
)
GIFT_COLUMNS = (
    "g.id, g.campaign_id, g.giver_id, g.receiver_id, g.user_id, g.item_name, g.quantity, "
    "g.amount, g.state"
)
_ITEMS = """
  FROM gear_items AS i JOIN characters AS ch ON ch.id = i.character_id
 WHERE ch.campaign_id = :campaign_id"""
_COUNTERS = """
  FROM counters AS k JOIN characters AS ch ON ch.id = k.character_id
 WHERE ch.campaign_id = :campaign_id"""
_ENTRIES = """
  FROM purse_ledger AS l WHERE l.campaign_id = :campaign_id"""

STATEMENTS: dict[str, str] = {
    # ---- items ----
    "gear_items_of": f"SELECT {ITEM_COLUMNS}{_ITEMS} AND i.character_id = :character_id "
    "ORDER BY i.name_key",
    "gear_item_by_name": f"SELECT {ITEM_COLUMNS}{_ITEMS} AND i.character_id = :character_id "
    "AND i.name_key = :name_key",
    "gear_items_of_campaign": f"SELECT i.character_id, {ITEM_COLUMNS}{_ITEMS} "
    "ORDER BY i.character_id, i.name_key",
    "gear_item_count": "SELECT count(*) FROM gear_items WHERE character_id = :character_id",
    "gear_insert_item": "INSERT INTO gear_items "
    "(character_id, name, name_key, quantity, grams, note, carried) "
    "VALUES (:character_id, :name, :name_key, :quantity, :grams, :note, :carried)",
    "gear_set_quantity": "UPDATE gear_items SET quantity = :quantity "
    "WHERE id = :item_id AND quantity = :expected",
    "gear_update_item": "UPDATE gear_items SET grams = :grams, note = :note, carried = :carried "
    "WHERE id = :item_id",
    "gear_delete_item": "DELETE FROM gear_items WHERE id = :item_id AND quantity = :expected",
    "gear_delete_items_of": "DELETE FROM gear_items WHERE character_id = :character_id",
    # ---- purses ----
    "purse_of": "SELECT p.balance, p.revision FROM purses AS p "
    "JOIN characters AS ch ON ch.id = p.character_id "
    "WHERE ch.campaign_id = :campaign_id AND p.character_id = :character_id",
    "purses_of_campaign": "SELECT p.character_id, p.balance, p.revision FROM purses AS p "
    "JOIN characters AS ch ON ch.id = p.character_id WHERE ch.campaign_id = :campaign_id "
    "ORDER BY p.character_id",
    "purse_ensure": "INSERT INTO purses (character_id) VALUES (:character_id) "
    "ON CONFLICT (character_id) DO NOTHING",
    "purse_move": "UPDATE purses SET balance = balance + :delta, revision = revision + 1 "
    "WHERE character_id = :character_id AND balance = :expected "
    "AND balance + :delta BETWEEN 0 AND :most",
    "purse_set": "UPDATE purses SET balance = :balance, revision = :revision "
    "WHERE character_id = :character_id",
    "purse_insert_entry": "INSERT INTO purse_ledger "
    "(campaign_id, character_id, user_id, kind, amount, reason, transfer_id, undoes, press_id) "
    "VALUES (:campaign_id, :character_id, :user_id, :kind, :amount, :reason, :transfer_id, "
    ":undoes, :press_id) RETURNING id",
    "purse_link_transfer": "UPDATE purse_ledger SET transfer_id = :transfer_id "
    "WHERE id = :entry_id",
    "purse_press_seen": "SELECT count(*) FROM purse_ledger "
    "WHERE character_id = :character_id AND press_id = :press_id",
    "purse_entry_count": f"SELECT count(*){_ENTRIES} AND l.character_id = :character_id",
    "purse_entries_page": f"SELECT {ENTRY_COLUMNS}{_ENTRIES} AND l.character_id = :character_id "
    "ORDER BY l.id DESC LIMIT :limit OFFSET :offset",
    "purse_undone_ids": f"SELECT l.undoes{_ENTRIES} AND l.character_id = :character_id "
    "AND l.undoes IS NOT NULL",
    "purse_last_open_entry": f"SELECT {ENTRY_COLUMNS}{_ENTRIES} "
    "AND l.character_id = :character_id AND l.kind NOT IN ('undo', 'import') "
    "AND NOT EXISTS (SELECT 1 FROM purse_ledger AS u WHERE u.undoes = l.id) "
    "ORDER BY l.id DESC LIMIT 1",
    "purse_transfer_entries": f"SELECT {ENTRY_COLUMNS}{_ENTRIES} "
    "AND l.transfer_id = :transfer_id AND l.id <> :entry_id",
    "purse_entries_of_campaign": f"SELECT {ENTRY_COLUMNS}{_ENTRIES} ORDER BY l.id",
    # ---- counters ----
    "counters_of": f"SELECT {COUNTER_COLUMNS}{_COUNTERS} AND k.character_id = :character_id "
    "ORDER BY k.name_key",
    "counter_by_name": f"SELECT {COUNTER_COLUMNS}{_COUNTERS} "
    "AND k.character_id = :character_id AND k.name_key = :name_key",
    "counter_for_weapon": f"SELECT {COUNTER_COLUMNS}{_COUNTERS} "
    "AND k.character_id = :character_id AND k.weapon_key = :weapon_key",
    "counters_of_campaign": f"SELECT k.character_id, {COUNTER_COLUMNS}{_COUNTERS} "
    "ORDER BY k.character_id, k.name_key",
    "counter_count": "SELECT count(*) FROM counters WHERE character_id = :character_id",
    "counter_insert": "INSERT INTO counters "
    "(character_id, name, name_key, value, maximum, reset_on, weapon_key) "
    "VALUES (:character_id, :name, :name_key, :value, :maximum, :reset_on, :weapon_key)",
    "counter_update": "UPDATE counters SET value = :value, maximum = :maximum, "
    "reset_on = :reset_on, weapon_key = :weapon_key WHERE id = :counter_id",
    "counter_set": "UPDATE counters SET value = :value "
    "WHERE id = :counter_id AND value = :expected",
    "counter_delete": "DELETE FROM counters WHERE id = :counter_id",
    "counters_delete_of": "DELETE FROM counters WHERE character_id = :character_id",
    "counters_reset_after_fight": "UPDATE counters SET value = maximum "
    "WHERE reset_on = 'fight' AND character_id IN "
    "(SELECT character_id FROM combatants "
    "WHERE fight_id = :fight_id AND character_id IS NOT NULL)",
    "counters_reset_after_session": "UPDATE counters SET value = maximum "
    "WHERE reset_on = 'session' AND character_id IN "
    "(SELECT id FROM characters WHERE campaign_id = :campaign_id)",
    # ---- settings and gifts ----
    "gear_settings_of": "SELECT coins, rates, gifts_at_once FROM gear_settings "
    "WHERE campaign_id = :campaign_id",
    "gear_set_settings": "INSERT INTO gear_settings (campaign_id, coins, rates, gifts_at_once) "
    "VALUES (:campaign_id, :coins, :rates, :gifts_at_once) ON CONFLICT (campaign_id) "
    "DO UPDATE SET coins = excluded.coins, rates = excluded.rates, "
    "gifts_at_once = excluded.gifts_at_once",
    "gift_insert": "INSERT INTO gifts "
    "(campaign_id, giver_id, receiver_id, user_id, item_name, quantity, amount) "
    "VALUES (:campaign_id, :giver_id, :receiver_id, :user_id, :item_name, :quantity, :amount) "
    "RETURNING id",
    "gift_by_id": f"SELECT {GIFT_COLUMNS} FROM gifts AS g "
    "WHERE g.campaign_id = :campaign_id AND g.id = :gift_id",
    "gift_decide": "UPDATE gifts SET state = :state WHERE id = :gift_id AND state = 'waiting'",
    "forget_user_purse_entries": "UPDATE purse_ledger SET user_id = 0 WHERE user_id = :user_id",
    "forget_user_gifts": "UPDATE gifts SET user_id = 0 WHERE user_id = :user_id",
    "gifts_waiting_count": "SELECT count(*) FROM gifts "
    "WHERE giver_id = :giver_id AND state = 'waiting'",
}
