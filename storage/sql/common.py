"""The portable statements, built from a dialect's fragments (see storage/sql/__init__.py).

Column order in the SELECTs and in the converters of storage/rows.py must match.
"""

from __future__ import annotations

from dataclasses import dataclass

from storage.sql.advancement import REQUEST_COLUMNS


@dataclass(frozen=True)
class Dialect:
    """What differs between the SQL of two databases in the statements below."""

    now: str
    """The current moment as fixed-width UTC text, like the columns' defaults."""
    gm_ids: str
    """A JSON array (text) of campaign `c`'s GMs' user ids, in order."""
    stats: str
    """A JSON array (text) of character `ch`'s stats as [kind, name, value], in order."""
    weapons: str
    """A JSON array (text) of character `ch`'s weapons as [name, base, attribute, skill, kind]."""
    conditions: str
    """A JSON array (text) of character `ch`'s conditions outside a fight, in the order they
    were put on, as [id, name, rounds, modifier, applies_to, stat, timing, hidden]."""
    imported_keys: str
    """A subquery: the texts of the JSON array `:keys` (an import's characters' name keys)."""
    shard_ids: str
    """A subquery: the integers of the JSON array `:shard_ids` (a process's shards)."""


CAMPAIGN_WIDTH = 14
"""Columns of a campaign's SELECT, where roller_context's character columns start."""

ROLL_COLUMNS = """guild_id, campaign_id, channel_id, user_id, kind, inputs, die, die_source,
    total, target, success, degrees, raw_degrees, damage, hidden, character_id, character_name,
    interaction_id, created_at, id, state, pending_id"""

FIGHT_COLUMNS = (
    "id, guild_id, campaign_id, channel_id, name, round, current_id, step, "
    "tracker_message_id, CASE WHEN ended_at IS NULL THEN 0 ELSE 1 END"
)
COMBATANT_COLUMNS = (
    "id, fight_id, name, character_id, controller_id, is_npc, die, die_source, reaction, "
    "surprise, position, hp_max, thp_max, wp_max, armour, hp_lost, thp_lost, wp_lost, dealt, "
    "taken, (SELECT portrait FROM characters WHERE characters.id = combatants.character_id), "
    "turn_attacks, granted_reaction"
)
HEALTH_COLUMNS = (
    "id, target_name, is_npc, armour, pool, before, after, user_id, reason, combatant_id, "
    "character_id, attacker_id, undone, created_at"
)
LOST_COLUMNS = ("hp_lost", "thp_lost", "wp_lost")
HEALTH_VALUES = ("armour", "wp_max", "hp_max", "thp_max")
CAMPAIGN_FLAGS = (
    "npc_take10",
    "show_npc_modifiers",
    "show_npc_health",
    "out_of_turn_attacks",
    "players_conditions",
)

IMPORT_CHARACTERS_INTO = """
INSERT INTO characters (campaign_id, name, name_key, owner_id, is_npc, shield, notes,
                        armour, wp_max, hp_max, thp_max)
"""
IMPORT_CHARACTERS_REPLACE = """
    ON CONFLICT (campaign_id, name_key) DO UPDATE
   SET name = excluded.name, is_npc = excluded.is_npc, shield = excluded.shield,
       notes = excluded.notes, armour = excluded.armour, wp_max = excluded.wp_max,
       hp_max = excluded.hp_max, thp_max = excluded.thp_max
"""
"""An import's characters: new sheets are the importer's; a replaced one keeps its id and
owner. Each dialect writes the SELECT of the rows in between."""

_CHANNEL_CAMPAIGN = """
   AND c.id = coalesce(
        (SELECT campaign_id FROM channel_bindings
          WHERE guild_id = :guild_id AND channel_id = :channel_id),
        (SELECT id FROM campaigns WHERE guild_id = :guild_id AND is_default = 1))
"""


def statements(d: Dialect) -> dict[str, str]:
    """The portable catalogue in dialect `d`."""
    campaign_columns = f"""c.id, c.guild_id, c.name, c.npc_take10, c.gm_channel_id, c.is_default,
       {d.gm_ids}, c.show_npc_modifiers, c.show_npc_health, c.attribute_names,
       c.language, c.attacks_per_turn, c.out_of_turn_attacks, c.players_conditions"""
    campaign = f"SELECT {campaign_columns}\n  FROM campaigns AS c\n"
    character_columns = f"""ch.id, ch.campaign_id, ch.name, ch.owner_id, ch.is_npc, ch.shield,
       ch.notes, {d.stats}, {d.weapons},
       ch.hp_max, ch.thp_max, ch.wp_max, ch.armour, ch.hp_lost, ch.thp_lost, ch.wp_lost,
       ch.portrait, {d.conditions}"""
    character = (
        f"SELECT {character_columns}\n  FROM characters AS ch\n"
        "  JOIN campaigns AS c ON c.id = ch.campaign_id\n"
    )
    project = """
SELECT p.id, p.campaign_id, p.owner_id, p.item, p.quality, p.character_id, p.finished, p.rolls,
       p.attribute, p.skill, p.target, p.goal
  FROM craft_projects AS p
  JOIN campaigns AS c ON c.id = p.campaign_id
"""
    pending = (
        "SELECT id, guild_id, campaign_id, kind, payload, expires_at, channel_id, message_id\n"
        "  FROM pending_actions\n"
    )
    expired_requests = (
        "SELECT c.guild_id, "
        + ", ".join(f"r.{c.strip()}" for c in REQUEST_COLUMNS.split(","))
        + " FROM cp_requests AS r JOIN campaigns AS c ON c.id = r.campaign_id"
        " WHERE r.state = 'waiting' AND r.expires_at <= :now AND r.message_id IS NOT NULL"
    )
    found: dict[str, str] = {
        # ---- meta
        "meta_get": "SELECT value FROM meta WHERE key = :key",
        "meta_set": "INSERT INTO meta (key, value) VALUES (:key, :value) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        # ---- campaigns
        "campaign_by_id": campaign + " WHERE c.id = :campaign_id AND c.guild_id = :guild_id",
        "campaign_by_name": campaign + " WHERE c.guild_id = :guild_id AND c.name_key = :name_key",
        "campaigns_of_guild": campaign
        + " WHERE c.guild_id = :guild_id ORDER BY c.is_default DESC, c.name_key",
        "campaign_for_channel": campaign + " WHERE c.guild_id = :guild_id" + _CHANNEL_CAMPAIGN,
        "default_names_taken": "SELECT name_key FROM campaigns "
        "WHERE guild_id = :guild_id AND name_key LIKE :pattern",
        "insert_default_campaign": "INSERT INTO campaigns (guild_id, name, name_key, is_default) "
        "VALUES (:guild_id, :name, :name_key, 1) RETURNING id",
        "gm_somewhere": "SELECT 1 FROM campaign_gms AS g JOIN campaigns AS c "
        "ON c.id = g.campaign_id WHERE c.guild_id = :guild_id AND g.user_id = :user_id LIMIT 1",
        "count_campaigns": "SELECT count(*) FROM campaigns WHERE guild_id = :guild_id",
        "insert_campaign": "INSERT INTO campaigns (guild_id, name, name_key) "
        "VALUES (:guild_id, :name, :name_key) ON CONFLICT DO NOTHING RETURNING id",
        "insert_first_gm": "INSERT INTO campaign_gms (campaign_id, user_id, position) "
        "VALUES (:campaign_id, :user_id, 0)",
        "add_gm": "INSERT INTO campaign_gms (campaign_id, user_id, position) "
        "VALUES (:campaign_id, :user_id, (SELECT coalesce(max(position), -1) + 1 "
        "FROM campaign_gms WHERE campaign_id = :campaign_id)) ON CONFLICT DO NOTHING",
        "remove_gm": "DELETE FROM campaign_gms WHERE campaign_id = :campaign_id "
        "AND user_id = :user_id",
        "drop_active_of_former_gm": "DELETE FROM active_characters "
        "WHERE campaign_id = :campaign_id AND user_id = :user_id AND character_id IN "
        "(SELECT id FROM characters WHERE campaign_id = :campaign_id "
        "AND (owner_id != :user_id OR is_npc = 1))",
        "channel_binding": "SELECT campaign_id FROM channel_bindings "
        "WHERE guild_id = :guild_id AND channel_id = :channel_id",
        "bind_channel": "INSERT INTO channel_bindings (guild_id, channel_id, campaign_id) "
        "VALUES (:guild_id, :channel_id, :campaign_id) ON CONFLICT (guild_id, channel_id) "
        "DO UPDATE SET campaign_id = excluded.campaign_id",
        "unbind_channel": "DELETE FROM channel_bindings "
        "WHERE guild_id = :guild_id AND channel_id = :channel_id",
        "campaign_set_gm_channel": "UPDATE campaigns SET gm_channel_id = :value "
        "WHERE id = :campaign_id AND guild_id = :guild_id",
        "campaign_set_attribute_names": "UPDATE campaigns SET attribute_names = :value "
        "WHERE id = :campaign_id AND guild_id = :guild_id",
        "campaign_set_language": "UPDATE campaigns SET language = :value "
        "WHERE id = :campaign_id AND guild_id = :guild_id",
        "campaign_set_attacks_per_turn": "UPDATE campaigns SET attacks_per_turn = :value "
        "WHERE id = :campaign_id AND guild_id = :guild_id",
        # ---- characters
        "character_access_by_name": "SELECT id, name, owner_id, is_npc FROM characters "
        "WHERE campaign_id = :campaign_id AND name_key = :name_key",
        "character_access_by_id": "SELECT id, name, owner_id, is_npc FROM characters "
        "WHERE campaign_id = :campaign_id AND id = :character_id",
        "count_characters": "SELECT count(*) FROM characters "
        "WHERE campaign_id = :campaign_id AND is_npc = :is_npc",
        "character_by_id": character
        + " WHERE c.guild_id = :guild_id AND c.id = :campaign_id AND ch.id = :character_id",
        "character_by_name": character
        + " WHERE c.guild_id = :guild_id AND c.id = :campaign_id AND ch.name_key = :name_key",
        "characters_of_campaign": character
        + " WHERE c.guild_id = :guild_id AND c.id = :campaign_id ORDER BY ch.name_key",
        "find_characters": character + " WHERE c.guild_id = :guild_id AND c.id = :campaign_id"
        " AND ch.name_key LIKE :pattern ESCAPE '\\'"
        " AND (:owner_id IS NULL OR ch.owner_id = :owner_id)"
        " AND (:is_npc IS NULL OR ch.is_npc = :is_npc)"
        " ORDER BY ch.name_key LIMIT :limit",
        "insert_character": "INSERT INTO characters (campaign_id, name, name_key, owner_id, "
        "is_npc, shield, notes) VALUES (:campaign_id, :name, :name_key, :owner_id, :is_npc, "
        ":shield, :notes) ON CONFLICT DO NOTHING RETURNING id",
        "insert_stat": """
INSERT INTO character_stats (character_id, kind, name_key, name, value, position)
VALUES (:character_id, :kind, :name_key, :name, :value,
        (SELECT coalesce(max(position), 0) + 1 FROM character_stats
          WHERE character_id = :character_id))
ON CONFLICT (character_id, kind, name_key) DO UPDATE SET value = excluded.value
""",
        "insert_weapon": """
INSERT INTO weapons (character_id, name_key, name, base, attribute, skill, kind, position)
VALUES (:character_id, :name_key, :name, :base, :attribute, :skill, :kind,
        (SELECT coalesce(max(position), 0) + 1 FROM weapons WHERE character_id = :character_id))
ON CONFLICT (character_id, name_key) DO UPDATE
   SET name = excluded.name, base = excluded.base,
       attribute = excluded.attribute, skill = excluded.skill, kind = excluded.kind
""",
        "stat_count": "SELECT count(*), coalesce(sum(CASE WHEN name_key = :name_key "
        "THEN 1 ELSE 0 END), 0) FROM character_stats "
        "WHERE character_id = :character_id AND kind = :kind",
        "weapon_count": "SELECT count(*), coalesce(sum(CASE WHEN name_key = :name_key "
        "THEN 1 ELSE 0 END), 0) FROM weapons WHERE character_id = :character_id",
        "delete_stats": "DELETE FROM character_stats WHERE character_id = :character_id",
        "delete_stat": "DELETE FROM character_stats "
        "WHERE character_id = :character_id AND kind = :kind AND name_key = :name_key",
        "delete_weapon": "DELETE FROM weapons "
        "WHERE character_id = :character_id AND name_key = :name_key",
        "adjust_stat": "UPDATE character_stats SET value = value + :delta "
        "WHERE character_id = :character_id AND kind = :kind AND name_key = :name_key "
        "RETURNING name, value",
        "activate_if_first": "INSERT INTO active_characters (campaign_id, user_id, character_id) "
        "VALUES (:campaign_id, :user_id, :character_id) ON CONFLICT DO NOTHING",
        "set_active": "INSERT INTO active_characters (campaign_id, user_id, character_id) "
        "VALUES (:campaign_id, :user_id, :character_id) ON CONFLICT (campaign_id, user_id) "
        "DO UPDATE SET character_id = excluded.character_id",
        "character_set_owner": "UPDATE characters SET owner_id = :owner_id "
        "WHERE id = :character_id",
        "drop_active_of_former_owner": "DELETE FROM active_characters "
        "WHERE character_id = :character_id AND user_id != :owner_id "
        "AND user_id NOT IN (SELECT user_id FROM campaign_gms WHERE campaign_id = :campaign_id)",
        "character_name_clash": "SELECT name FROM characters WHERE campaign_id = :campaign_id "
        "AND name_key = :name_key AND id != :character_id",
        "character_rename": "UPDATE characters SET name = :name, name_key = :name_key "
        "WHERE id = :character_id",
        "character_set_shield": "UPDATE characters SET shield = :value WHERE id = :character_id",
        "character_set_notes": "UPDATE characters SET notes = :value WHERE id = :character_id",
        "delete_character": "DELETE FROM characters WHERE id = :character_id",
        "active_character": f"SELECT {character_columns}\n"
        "  FROM active_characters AS a\n"
        "  JOIN characters AS ch ON ch.id = a.character_id AND ch.campaign_id = a.campaign_id\n"
        "  JOIN campaigns AS c ON c.id = ch.campaign_id\n"
        " WHERE a.campaign_id = :campaign_id AND a.user_id = :user_id AND c.guild_id = :guild_id",
        "roller_context": f"SELECT {campaign_columns},\n       {character_columns},\n"
        "       (SELECT f.id FROM fights AS f WHERE f.guild_id = :guild_id\n"
        "           AND f.channel_id = :channel_id AND f.ended_at IS NULL)\n"
        "  FROM campaigns AS c\n"
        "  LEFT JOIN active_characters AS a ON a.campaign_id = c.id AND a.user_id = :user_id\n"
        "  LEFT JOIN characters AS ch ON ch.id = a.character_id "
        "AND ch.campaign_id = a.campaign_id\n"
        " WHERE c.guild_id = :guild_id" + _CHANNEL_CAMPAIGN,
        # ---- crafting
        "character_owner": "SELECT owner_id, is_npc FROM characters "
        "WHERE id = :character_id AND campaign_id = :campaign_id",
        "count_open_projects": "SELECT count(*) FROM craft_projects "
        "WHERE campaign_id = :campaign_id AND owner_id = :owner_id AND finished = 0",
        "insert_project": "INSERT INTO craft_projects (campaign_id, owner_id, item, item_key, "
        "quality, character_id, attribute, skill, target, goal) VALUES (:campaign_id, "
        ":owner_id, :item, :item_key, :quality, :character_id, :attribute, :skill, :target, "
        ":goal) ON CONFLICT DO NOTHING RETURNING id",
        "project_by_id": project
        + " WHERE c.guild_id = :guild_id AND c.id = :campaign_id AND p.id = :project_id",
        "open_project_by_item": project
        + " WHERE c.guild_id = :guild_id AND c.id = :campaign_id AND p.owner_id = :owner_id"
        " AND p.item_key = :item_key AND p.finished = 0",
        "projects": project + " WHERE c.guild_id = :guild_id AND c.id = :campaign_id"
        " AND (:owner_id IS NULL OR p.owner_id = :owner_id)"
        " AND (p.finished = 0 OR :include_finished = 1)"
        " ORDER BY p.finished, p.item_key, p.id",
        "project_of_interaction": "SELECT project_id FROM roll_log "
        "WHERE interaction_id = :interaction_id AND guild_id = :guild_id "
        "AND campaign_id = :campaign_id",
        "project_for_roll": "SELECT p.item, p.owner_id, p.finished, p.quality"
        " FROM craft_projects AS p JOIN campaigns AS c ON c.id = p.campaign_id"
        " WHERE p.id = :project_id AND c.id = :campaign_id AND c.guild_id = :guild_id",
        "project_set_quality": "UPDATE craft_projects SET quality = :quality, rolls = rolls + 1 "
        "WHERE id = :project_id",
        "open_projects_by_item": "SELECT id, owner_id FROM craft_projects "
        "WHERE campaign_id = :campaign_id AND item_key = :item_key AND finished = 0 "
        "ORDER BY owner_id != :user_id",
        "finish_project": f"UPDATE craft_projects SET finished = 1, finished_at = {d.now} "
        "WHERE id = :project_id",
        # ---- roll log
        # The roll names its session itself (SQLite's migration 0030): the campaign's running
        # one, if it started before the roll (an import's older roll stays outside it).
        "insert_roll": f"""
INSERT INTO roll_log (guild_id, campaign_id, channel_id, user_id, kind, inputs, die, die_source,
    total, target, success, degrees, raw_degrees, damage, hidden, character_id, character_name,
    interaction_id, project_id, created_at, state, pending_id, session_id)
SELECT c.guild_id, c.id, :channel_id, :user_id, :kind, :inputs, :die, :die_source,
    :total, :target, :success, :degrees, :raw_degrees, :damage, :hidden, :character_id,
    :character_name, :interaction_id, :project_id, coalesce(:created_at, {d.now}), :state,
    :pending_id,
    (SELECT s.id FROM sessions AS s WHERE s.campaign_id = c.id AND s.state = 'running'
        AND s.started_at <= coalesce(:created_at, {d.now}))
  FROM campaigns AS c
 WHERE c.id = :campaign_id AND c.guild_id = :guild_id
ON CONFLICT (interaction_id) DO NOTHING
RETURNING id
""",
        "roll_of_interaction_anywhere": "SELECT id, guild_id, campaign_id FROM roll_log "
        "WHERE interaction_id = :interaction_id",
        "roll_by_id": f"SELECT {ROLL_COLUMNS} FROM roll_log "
        "WHERE id = :roll_id AND guild_id = :guild_id",
        "roll_of_interaction": "SELECT id FROM roll_log "
        "WHERE interaction_id = :interaction_id AND guild_id = :guild_id",
        # Two statements, so the one for a user uses the (campaign_id, user_id, id) index.
        "recent_rolls": f"SELECT {ROLL_COLUMNS} FROM roll_log "
        "WHERE campaign_id = :campaign_id AND guild_id = :guild_id "
        "AND (hidden = 0 OR :include_hidden = 1) ORDER BY id DESC LIMIT :limit",
        "recent_rolls_of_user": f"SELECT {ROLL_COLUMNS} FROM roll_log "
        "WHERE campaign_id = :campaign_id AND guild_id = :guild_id AND user_id = :user_id "
        "AND (hidden = 0 OR :include_hidden = 1) ORDER BY id DESC LIMIT :limit",
        # The retention job's batch: of the `batch` oldest rows after `after_id`, those logged
        # before `before` (ids grow with time, so the old rows are a prefix; a row out of order
        # only stays a day longer).
        "delete_old_rolls": "DELETE FROM roll_log WHERE id IN (SELECT id FROM roll_log "
        "WHERE id > :after_id ORDER BY id LIMIT :batch) AND created_at < :before RETURNING id",
        # The NPCs the table has seen roll: of the newest public rolls only, so the look-up
        # stays on the (campaign_id, id) index however long the log grows.
        "npcs_in_play": "SELECT DISTINCT ch.name, ch.name_key FROM (SELECT character_id "
        "FROM roll_log WHERE campaign_id = :campaign_id AND guild_id = :guild_id "
        "AND hidden = 0 ORDER BY id DESC LIMIT :window) AS r "
        "JOIN characters AS ch ON ch.id = r.character_id "
        "WHERE ch.campaign_id = :campaign_id AND ch.is_npc = 1 "
        "AND ch.name_key LIKE :pattern ESCAPE '\\' ORDER BY ch.name_key LIMIT :limit",
        # ---- pending actions
        "insert_pending": "INSERT INTO pending_actions (guild_id, campaign_id, kind, payload, "
        "expires_at) SELECT c.guild_id, c.id, :kind, :payload, :expires_at FROM campaigns AS c "
        "WHERE c.id = :campaign_id AND c.guild_id = :guild_id RETURNING id",
        "set_pending_message": "UPDATE pending_actions SET channel_id = :channel_id, "
        "message_id = :message_id WHERE id = :pending_id AND guild_id = :guild_id",
        "pending_by_id": pending + " WHERE id = :pending_id AND guild_id = :guild_id",
        "claim_pending": "DELETE FROM pending_actions "
        "WHERE id = :pending_id AND guild_id = :guild_id RETURNING id",
        "settle_waiting_rolls": "UPDATE roll_log SET state = :state "
        "WHERE pending_id = :pending_id AND guild_id = :guild_id AND state = 'waiting'",
        # An attack its defender's roll settled: the defender's total becomes its target, with
        # the attacker's result against it (the rolls just marked settled by the line above).
        "settle_waiting_attack": "UPDATE roll_log SET target = :target, success = :success, "
        "degrees = :degrees, raw_degrees = :raw_degrees "
        "WHERE pending_id = :pending_id AND guild_id = :guild_id AND target IS NULL "
        "AND kind = 'attack'",
        "expired_pending": pending
        + " WHERE expires_at <= :now ORDER BY expires_at, id LIMIT :limit",
        # Discord's shard of a guild: (guild_id >> 22) % shard_count.
        "expired_pending_of_shards": pending
        + " WHERE expires_at <= :now AND (guild_id >> 22) % :shard_count IN "
        f"({d.shard_ids}) ORDER BY expires_at, id LIMIT :limit",
        # Waiting improvements past their expiry whose GMs' message is known (the CP sweep).
        "expired_cp_requests": expired_requests + " ORDER BY r.expires_at, r.id LIMIT :limit",
        "expired_cp_requests_of_shards": expired_requests
        + f" AND (c.guild_id >> 22) % :shard_count IN ({d.shard_ids})"
        " ORDER BY r.expires_at, r.id LIMIT :limit",
        # ---- a user's data, everywhere
        "forget_user_rolls": "DELETE FROM roll_log WHERE user_id = :user_id",
        "forget_user_projects": "DELETE FROM craft_projects WHERE owner_id = :user_id",
        "forget_user_active": "DELETE FROM active_characters WHERE user_id = :user_id",
        "forget_user_gm_roles": "DELETE FROM campaign_gms WHERE user_id = :user_id",
        "forget_user_health": "DELETE FROM health_log WHERE user_id = :user_id",
        "forget_user_combatants": "UPDATE combatants SET removed = 1, controller_id = NULL "
        "WHERE controller_id = :user_id AND removed = 0",
        "forget_user_characters": "DELETE FROM characters WHERE owner_id = :user_id AND is_npc = 0",
        # NPCs belong to their campaign, whose GMs manage them whoever made them: they stay,
        # and their maker's id becomes 0 (no user; owner_id is NOT NULL).
        "forget_user_npcs": "UPDATE characters SET owner_id = 0 "
        "WHERE owner_id = :user_id AND is_npc = 1",
        # ---- fights
        "fight_by_id": f"SELECT {FIGHT_COLUMNS} FROM fights "
        "WHERE id = :fight_id AND guild_id = :guild_id",
        "fight_combatants": f"SELECT {COMBATANT_COLUMNS} FROM combatants "
        "WHERE fight_id = :fight_id AND removed = 0 ORDER BY position",
        "fight_sheets": f"SELECT {character_columns}\n  FROM combatants AS m\n"
        "  JOIN characters AS ch ON ch.id = m.character_id\n"
        "  JOIN campaigns AS c ON c.id = ch.campaign_id\n"
        " WHERE m.fight_id = :fight_id AND m.removed = 0 AND m.is_npc = 0 "
        "AND c.guild_id = :guild_id",
        "fight_effects": "SELECT e.combatant_id, e.id, e.name, e.rounds_left, e.modifier, "
        "e.applies_to, e.stat, e.timing, e.until_id, e.hidden "
        "FROM combatant_effects AS e JOIN combatants AS m ON m.id = e.combatant_id "
        "WHERE m.fight_id = :fight_id AND m.removed = 0 ORDER BY e.id",
        "running_fight_of_channel": "SELECT id, name FROM fights "
        "WHERE guild_id = :guild_id AND channel_id = :channel_id AND ended_at IS NULL",
        "insert_fight": "INSERT INTO fights (guild_id, campaign_id, channel_id, name) "
        "VALUES (:guild_id, :campaign_id, :channel_id, :name) RETURNING id",
        "insert_combatant": "INSERT INTO combatants (fight_id, name, name_key, character_id, "
        "controller_id, is_npc, die, die_source, reaction, surprise, position, hp_max, "
        "thp_max, wp_max, armour) VALUES (:fight_id, :name, :name_key, :character_id, "
        ":controller_id, :is_npc, :die, :die_source, :reaction, :surprise, :position, "
        ":hp_max, :thp_max, :wp_max, :armour)",
        "pass_turn": "UPDATE fights SET current_id = :current_id, step = step + 1 "
        "WHERE id = :fight_id",
        "remove_combatant": "UPDATE combatants SET removed = 1 WHERE id = :combatant_id",
        # A change of turn: every combatant's per-turn state is fresh (wire.fight.advanced).
        "reset_turn_state": "UPDATE combatants SET turn_attacks = 0, granted_reaction = 0 "
        "WHERE fight_id = :fight_id",
        # An attack taken, as a compare-and-set on the count the control was made for.
        "take_attack": "UPDATE combatants SET turn_attacks = turn_attacks + 1, "
        "granted_reaction = :reaction WHERE id = :combatant_id AND fight_id = :fight_id "
        "AND turn_attacks = :attacks RETURNING id",
        # A saved-roll button's attack: once per message, saved roll and turn of the fight.
        "take_press": "INSERT INTO attack_presses (fight_id, message_id, saved_id, step) "
        "VALUES (:fight_id, :message_id, :saved_id, :step) ON CONFLICT DO NOTHING "
        "RETURNING fight_id",
        "grant_reaction": "UPDATE combatants SET granted_reaction = 1 "
        "WHERE id = :combatant_id AND fight_id = :fight_id",
        "advance_turn": "UPDATE fights SET round = :round, current_id = :current_id, "
        "step = step + 1 WHERE id = :fight_id AND step = :step RETURNING id",
        "delete_effect": "DELETE FROM combatant_effects WHERE id = :effect_id",
        "count_down_effect": "UPDATE combatant_effects SET rounds_left = rounds_left - 1 "
        "WHERE id = :effect_id",
        "insert_effect": "INSERT INTO combatant_effects (combatant_id, name, rounds_left, "
        "modifier, applies_to, stat, timing, until_id, hidden) VALUES (:combatant_id, :name, "
        ":rounds, :modifier, :applies_to, :stat, :timing, :until_id, :hidden) RETURNING id",
        "remove_effect": "DELETE FROM combatant_effects WHERE id = :effect_id "
        "AND combatant_id = :combatant_id",
        "end_fight": f"UPDATE fights SET ended_at = {d.now} WHERE id = :fight_id",
        "set_tracker": "UPDATE fights SET tracker_message_id = :message_id "
        "WHERE id = :fight_id AND guild_id = :guild_id",
        # ---- health
        "combatant_fight": "SELECT f.id FROM combatants AS m JOIN fights AS f "
        "ON f.id = m.fight_id WHERE m.id = :combatant_id AND f.guild_id = :guild_id "
        "AND f.campaign_id = :campaign_id AND m.removed = 0 AND f.ended_at IS NULL",
        "combatant_kind": "SELECT is_npc, character_id FROM combatants WHERE id = :combatant_id",
        "combatant_add_taken": "UPDATE combatants SET taken = taken + :amount "
        "WHERE id = :combatant_id",
        "combatant_add_dealt": "UPDATE combatants SET dealt = dealt + :amount "
        "WHERE id = :combatant_id",
        "combatant_add_dealt_in_fight": "UPDATE combatants SET dealt = dealt + :amount "
        "WHERE id = :combatant_id AND fight_id = :fight_id",
        "insert_health_log": "INSERT INTO health_log (guild_id, campaign_id, fight_id, "
        "combatant_id, character_id, attacker_id, target_name, is_npc, pool, before, after, "
        "armour, reason, user_id, interaction_id) VALUES (:guild_id, :campaign_id, :fight_id, "
        ":combatant_id, :character_id, :attacker_id, :target_name, :is_npc, :pool, :before, "
        ":after, :armour, :reason, :user_id, :interaction_id) RETURNING id, created_at",
        "last_health_change": f"SELECT {HEALTH_COLUMNS} FROM health_log "
        "WHERE guild_id = :guild_id AND campaign_id = :campaign_id AND undone = 0 "
        "ORDER BY id DESC LIMIT 1",
        "health_undone": "UPDATE health_log SET undone = 1 WHERE id = :entry_id",
        "recent_health": f"SELECT {HEALTH_COLUMNS} FROM health_log "
        "WHERE guild_id = :guild_id AND campaign_id = :campaign_id "
        "ORDER BY id DESC LIMIT :limit",
    }
    for table in ("character_stats", "weapons"):
        found[f"import_clear_{table}"] = (
            f"DELETE FROM {table} WHERE character_id IN (SELECT id FROM characters "
            f"WHERE campaign_id = :campaign_id AND name_key IN ({d.imported_keys}))"
        )
    for flag in CAMPAIGN_FLAGS:
        found[f"campaign_set_{flag}"] = (
            f"UPDATE campaigns SET {flag} = :value WHERE id = :campaign_id AND guild_id = :guild_id"
        )
    for column in HEALTH_VALUES:
        found[f"character_set_{column}"] = (
            f"UPDATE characters SET {column} = :value WHERE id = :character_id"
        )
    for column in LOST_COLUMNS:
        for table, key in (("combatants", "combatant_id"), ("characters", "character_id")):
            found[f"{table}_add_{column}"] = (
                f"UPDATE {table} SET {column} = {column} + :amount WHERE id = :{key}"
            )
    return found
