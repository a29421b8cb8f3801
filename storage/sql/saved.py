"""The saved rolls' statements (storage/rules_saved.py), portable to both backends.

Every read joins the character's campaign and filters on the guild and the campaign, so a saved
roll's id from another guild or campaign finds nothing.
"""

from __future__ import annotations

SAVED_COLUMNS = "s.id, s.character_id, s.name, s.command, s.label"
_SCOPED = """
  FROM saved_rolls AS s
  JOIN characters AS ch ON ch.id = s.character_id
  JOIN campaigns AS c ON c.id = ch.campaign_id
 WHERE c.guild_id = :guild_id AND c.id = :campaign_id"""

STATEMENTS: dict[str, str] = {
    "saved_rolls_of": f"SELECT {SAVED_COLUMNS}{_SCOPED} AND s.character_id = :character_id "
    "ORDER BY s.name_key",
    "saved_roll_by_id": f"SELECT {SAVED_COLUMNS}{_SCOPED} AND s.id = :saved_id",
    "saved_roll_by_name": f"SELECT {SAVED_COLUMNS}{_SCOPED} AND s.character_id = :character_id "
    "AND s.name_key = :name_key",
    "saved_rolls_of_campaign": f"SELECT {SAVED_COLUMNS}{_SCOPED} "
    "ORDER BY s.character_id, s.name_key",
    "delete_saved_of_character": "DELETE FROM saved_rolls WHERE character_id = :character_id",
    "saved_count": "SELECT count(*) FROM saved_rolls WHERE character_id = :character_id",
    "insert_saved": "INSERT INTO saved_rolls (character_id, name, name_key, command, label) "
    "VALUES (:character_id, :name, :name_key, :command, :label) RETURNING id",
    "update_saved": "UPDATE saved_rolls SET command = :command, label = :label "
    "WHERE id = :saved_id",
    "rename_saved": "UPDATE saved_rolls SET name = :name, name_key = :name_key "
    "WHERE id = :saved_id",
    "delete_saved": "DELETE FROM saved_rolls WHERE id = :saved_id",
}
