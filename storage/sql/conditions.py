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

_EFFECT_INTO = (
    "combatant_id, name, rounds_left, modifier, applies_to, stat, timing, hidden, source_id"
)
_EFFECT_FROM = "k.name, k.rounds, k.modifier, k.applies_to, k.stat, k.timing, k.hidden, k.id"
_ROOM = "(SELECT count(*) FROM combatant_effects AS e WHERE e.combatant_id = m.id) < :most"

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
    # ---- a sheet's conditions outside a fight (the sheet found in its campaign first)
    "sheet_conditions_of": "SELECT id, name, rounds, modifier, applies_to, stat, timing, hidden "
    "FROM character_conditions WHERE character_id = :character_id ORDER BY id",
    "sheet_condition_count": "SELECT count(*) FROM character_conditions "
    "WHERE character_id = :character_id",
    "insert_sheet_condition": "INSERT INTO character_conditions (character_id, name, modifier, "
    "applies_to, stat, rounds, timing, hidden) VALUES (:character_id, :name, :modifier, "
    ":applies_to, :stat, :rounds, :timing, :hidden) RETURNING id",
    "delete_sheet_condition": "DELETE FROM character_conditions "
    "WHERE id = :condition_id AND character_id = :character_id",
    # A condition put on a sheet that is fighting: a copy on each of its combatants in a
    # running fight, as if it had been on the sheet when they joined (while room is left).
    "sheet_condition_into_fights": f"INSERT INTO combatant_effects ({_EFFECT_INTO}) "
    f"SELECT m.id, {_EFFECT_FROM} FROM character_conditions AS k "
    "JOIN combatants AS m ON m.character_id = k.character_id "
    "JOIN fights AS f ON f.id = m.fight_id "
    "WHERE k.id = :condition_id AND m.removed = 0 AND f.ended_at IS NULL "
    "AND f.campaign_id = :campaign_id AND f.guild_id = :guild_id "
    f"AND {_ROOM}",
    # A character joins a fight: its sheet's conditions come with it.
    "sheet_conditions_join_fight": f"INSERT INTO combatant_effects ({_EFFECT_INTO}) "
    f"SELECT m.id, {_EFFECT_FROM} FROM combatants AS m "
    "JOIN character_conditions AS k ON k.character_id = m.character_id "
    "WHERE m.fight_id = :fight_id AND m.name_key = :name_key AND m.removed = 0 ORDER BY k.id",
    # A player character's copy ends in the fight (counted out, or cured): so does the sheet's.
    "end_sheet_condition_of_effect": "DELETE FROM character_conditions WHERE id = "
    "(SELECT e.source_id FROM combatant_effects AS e "
    "JOIN combatants AS m ON m.id = e.combatant_id "
    "WHERE e.id = :effect_id AND m.is_npc = 0)",
    # The fight ends: its characters' conditions counted in rounds end with it.
    "end_sheet_conditions_with_fight": "DELETE FROM character_conditions "
    "WHERE rounds IS NOT NULL AND character_id IN (SELECT character_id FROM combatants "
    "WHERE fight_id = :fight_id AND character_id IS NOT NULL)",
}
