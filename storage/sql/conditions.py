"""The condition presets' statements (storage/rules_conditions.py), portable to both backends.

Every read joins the campaign and filters on the guild, so a preset of another guild's campaign
is never found.
"""

from __future__ import annotations

PRESET_COLUMNS = "p.id, p.name, p.modifier, p.applies_to, p.stat, p.rounds, p.timing"
_SCOPED = """
  FROM condition_presets AS p
  JOIN campaigns AS c ON c.id = p.campaign_id
 WHERE c.guild_id = :guild_id AND c.id = :campaign_id"""

STATEMENTS: dict[str, str] = {
    "condition_presets_of": f"SELECT {PRESET_COLUMNS}{_SCOPED} ORDER BY p.name_key",
    "condition_preset_by_name": f"SELECT {PRESET_COLUMNS}{_SCOPED} AND p.name_key = :name_key",
    "condition_preset_count": f"SELECT count(*){_SCOPED}",
    "insert_condition_preset": "INSERT INTO condition_presets (campaign_id, name, name_key, "
    "modifier, applies_to, stat, rounds, timing) VALUES (:campaign_id, :name, :name_key, "
    ":modifier, :applies_to, :stat, :rounds, :timing)",
    "update_condition_preset": "UPDATE condition_presets SET name = :name, modifier = :modifier, "
    "applies_to = :applies_to, stat = :stat, rounds = :rounds, timing = :timing "
    "WHERE id = :preset_id",
    "delete_condition_preset": "DELETE FROM condition_presets WHERE id = :preset_id",
}
