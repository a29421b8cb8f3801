"""The sessions' statements (storage/rules_sessions.py), portable to both backends.

Every read and write joins the session's campaign and filters on the guild, so a session id from
another guild finds nothing. The reminder's and the ping's claims are compare-and-sets: the
UPDATE that marks one sent is the statement that decides it is due, so of two processes (or a
restart mid-way) exactly one gets the row back.
"""

from __future__ import annotations

from storage.sql.common import ROLL_COLUMNS, Dialect

SESSION_COLUMNS = (
    "s.id, s.campaign_id, c.guild_id, s.title, s.start_at, s.minutes, s.channel_id, s.event_id, "
    "s.state, s.reminded_for, s.nudged_for, s.started_at, s.ended_at, s.thread_id, s.recap, "
    "s.created_by, s.awarded_at"
)
_FROM = (
    " FROM sessions AS s JOIN campaigns AS c ON c.id = s.campaign_id WHERE c.guild_id = :guild_id"
)
_OWN = "campaign_id IN (SELECT id FROM campaigns WHERE guild_id = :guild_id)"
# Planned sessions whose start is within the horizon (the longest a reminder or the day-before
# ping runs ahead), each with its guild and its campaign's reminder settings, for the sweep.
_DUE = (
    f"SELECT {SESSION_COLUMNS}, st.lead_minutes, coalesce(st.nudge, 0) "
    "FROM sessions AS s JOIN campaigns AS c ON c.id = s.campaign_id "
    "LEFT JOIN session_settings AS st ON st.campaign_id = s.campaign_id "
    "WHERE s.state = 'planned' AND s.start_at > :now AND s.start_at <= :horizon "
    "AND ((s.reminded_for IS NULL OR s.reminded_for <> s.start_at) "
    "OR (coalesce(st.nudge, 0) = 1 AND (s.nudged_for IS NULL OR s.nudged_for <> s.start_at)))"
)


def statements(d: Dialect) -> dict[str, str]:
    return {
        "session_by_id": f"SELECT {SESSION_COLUMNS}{_FROM} AND s.id = :session_id",
        "session_by_event": f"SELECT {SESSION_COLUMNS}{_FROM} AND s.event_id = :event_id",
        "sessions_in_states": f"SELECT {SESSION_COLUMNS}{_FROM} AND s.campaign_id = :campaign_id "
        "AND (s.state = :state_a OR s.state = :state_b) "
        "ORDER BY s.start_at DESC, s.id DESC LIMIT :limit",
        "session_running": f"SELECT {SESSION_COLUMNS}{_FROM} AND s.campaign_id = :campaign_id "
        "AND s.state = 'running'",
        "session_insert": "INSERT INTO sessions (campaign_id, title, start_at, minutes, "
        "channel_id, created_by) SELECT c.id, :title, :start_at, :minutes, :channel_id, :user_id "
        "FROM campaigns AS c WHERE c.id = :campaign_id AND c.guild_id = :guild_id RETURNING id",
        "session_set_event": f"UPDATE sessions SET event_id = :event_id "
        f"WHERE id = :session_id AND {_OWN}",
        "session_move": f"UPDATE sessions SET start_at = :start_at, minutes = :minutes "
        f"WHERE id = :session_id AND state = 'planned' AND {_OWN} RETURNING id",
        "session_cancel": f"UPDATE sessions SET state = 'cancelled' "
        f"WHERE id = :session_id AND state = 'planned' AND {_OWN} RETURNING id",
        "session_start": f"UPDATE sessions SET state = 'running', started_at = {d.now} "
        f"WHERE id = :session_id AND state = 'planned' AND {_OWN} RETURNING id",
        "session_end": f"UPDATE sessions SET state = 'ended', ended_at = {d.now} "
        f"WHERE id = :session_id AND state = 'running' AND {_OWN} RETURNING id",
        "session_set_recap": f"UPDATE sessions SET recap = :recap, thread_id = :thread_id "
        f"WHERE id = :session_id AND {_OWN}",
        # ---- an import (storage/transfer/writing.py): a session the campaign has already is
        # found by its title and start; a new one gets the file's state, times and recap
        "session_by_title_start": f"SELECT s.id{_FROM} AND s.campaign_id = :campaign_id "
        "AND s.title = :title AND s.start_at = :start_at",
        "session_import_state": "UPDATE sessions SET state = :state, started_at = :started_at, "
        "ended_at = :ended_at, recap = :recap, awarded_at = :awarded_at, "
        f"reminded_for = :reminded_for, nudged_for = :nudged_for WHERE id = :session_id AND {_OWN}",
        # ---- who comes
        "session_answer": "INSERT INTO session_answers (session_id, user_id, answer, "
        "by_interest) VALUES (:session_id, :user_id, :answer, :by_interest) "
        "ON CONFLICT (session_id, user_id) DO UPDATE SET answer = excluded.answer, "
        f"by_interest = excluded.by_interest, answered_at = {d.now}",
        "session_answer_of": "SELECT answer, by_interest FROM session_answers "
        "WHERE session_id = :session_id AND user_id = :user_id",
        "session_withdraw": "DELETE FROM session_answers "
        "WHERE session_id = :session_id AND user_id = :user_id",
        "session_answers": "SELECT a.user_id, a.answer FROM session_answers AS a "
        "JOIN sessions AS s ON s.id = a.session_id JOIN campaigns AS c ON c.id = s.campaign_id "
        "WHERE c.guild_id = :guild_id AND a.session_id = :session_id ORDER BY a.answered_at, "
        "a.user_id",
        "forget_user_session_answers": "DELETE FROM session_answers WHERE user_id = :user_id",
        # ---- settings
        "session_settings": "SELECT zone, lead_minutes, nudge FROM session_settings "
        "WHERE campaign_id = :campaign_id",
        "session_set_settings": "INSERT INTO session_settings (campaign_id, zone, lead_minutes, "
        "nudge) VALUES (:campaign_id, :zone, :lead_minutes, :nudge) ON CONFLICT (campaign_id) "
        "DO UPDATE SET zone = excluded.zone, lead_minutes = excluded.lead_minutes, "
        "nudge = excluded.nudge",
        # ---- the sweep: due reminders and pings, and their claims
        "sessions_due": _DUE + " ORDER BY s.start_at, s.id LIMIT :limit",
        "sessions_due_of_shards": _DUE
        + f" AND (c.guild_id >> 22) % :shard_count IN ({d.shard_ids})"
        " ORDER BY s.start_at, s.id LIMIT :limit",
        "session_claim_reminder": "UPDATE sessions SET reminded_for = start_at "
        "WHERE id = :session_id AND state = 'planned' AND start_at = :start_at "
        f"AND (reminded_for IS NULL OR reminded_for <> start_at) AND {_OWN} RETURNING id",
        "session_claim_nudge": "UPDATE sessions SET nudged_for = start_at "
        "WHERE id = :session_id AND state = 'planned' AND start_at = :start_at "
        f"AND (nudged_for IS NULL OR nudged_for <> start_at) AND {_OWN} RETURNING id",
        # ---- /history session: (newest first, as recent_rolls)
        "recent_rolls_of_session": f"SELECT {ROLL_COLUMNS} FROM roll_log "
        "WHERE campaign_id = :campaign_id AND guild_id = :guild_id AND session_id = :session_id "
        "AND (hidden = 0 OR :include_hidden = 1) ORDER BY id DESC LIMIT :limit",
        "recent_rolls_of_session_of_user": f"SELECT {ROLL_COLUMNS} FROM roll_log "
        "WHERE campaign_id = :campaign_id AND guild_id = :guild_id AND session_id = :session_id "
        "AND user_id = :user_id AND (hidden = 0 OR :include_hidden = 1) "
        "ORDER BY id DESC LIMIT :limit",
        # ---- what a session holds (its recap, /history session:)
        "session_rolls": "SELECT r.user_id, r.character_name, r.kind, r.total, r.target, "
        "r.success, r.degrees, r.damage, r.id, r.character_id, coalesce(ch.is_npc, 0), r.die, "
        "r.die_source "
        "FROM roll_log AS r LEFT JOIN characters AS ch ON ch.id = r.character_id "
        "WHERE r.session_id = :session_id AND r.guild_id = :guild_id AND r.hidden = 0 "
        "AND r.state <> 'waiting' ORDER BY r.id",
        # The shown conditions of the session's fights, as they came and went (no hidden one).
        "session_conditions": "SELECT f.id, m.name, l.name, l.ended_at FROM condition_log AS l "
        "JOIN combatants AS m ON m.id = l.combatant_id JOIN fights AS f ON f.id = m.fight_id "
        "WHERE f.session_id = :session_id AND f.guild_id = :guild_id AND l.hidden = 0 "
        "ORDER BY f.id, l.id",
        # Who went down in the session's fights: a blow that took a pool from above 0 to 0 or
        # below (health_log keeps each pool before and after), not undone.
        "session_downings": "SELECT h.fight_id, h.target_name FROM health_log AS h "
        "JOIN fights AS f ON f.id = h.fight_id WHERE f.session_id = :session_id "
        "AND f.guild_id = :guild_id AND h.undone = 0 AND h.before > 0 AND h.after <= 0 "
        "ORDER BY h.id",
        "condition_log_put_on": "INSERT INTO condition_log (combatant_id, effect_id, name, "
        "hidden) VALUES (:combatant_id, :effect_id, :name, :hidden)",
        "condition_log_ended": f"UPDATE condition_log SET ended_at = {d.now} "
        "WHERE effect_id = :effect_id AND ended_at IS NULL",
        "session_fights": "SELECT f.id FROM fights AS f "
        "WHERE f.session_id = :session_id AND f.guild_id = :guild_id ORDER BY f.id",
        # The player characters who played: a public roll, or a place in one of its fights.
        "session_players": "SELECT ch.id, ch.name, ch.owner_id FROM characters AS ch "
        "WHERE ch.campaign_id = :campaign_id AND ch.is_npc = 0 AND (ch.id IN (SELECT "
        "r.character_id FROM roll_log AS r WHERE r.session_id = :session_id "
        "AND r.guild_id = :guild_id AND r.hidden = 0 AND r.character_id IS NOT NULL) "
        "OR ch.id IN (SELECT cb.character_id FROM combatants AS cb JOIN fights AS f "
        "ON f.id = cb.fight_id WHERE f.session_id = :session_id AND f.guild_id = :guild_id "
        "AND cb.character_id IS NOT NULL)) ORDER BY ch.name_key",
        # The campaign's players: the owners of its player characters.
        "campaign_player_ids": "SELECT DISTINCT ch.owner_id FROM characters AS ch "
        "JOIN campaigns AS c ON c.id = ch.campaign_id WHERE c.guild_id = :guild_id "
        "AND ch.campaign_id = :campaign_id AND ch.is_npc = 0 AND ch.owner_id <> 0 "
        "ORDER BY ch.owner_id",
        "session_claim_award": f"UPDATE sessions SET awarded_at = {d.now} "
        f"WHERE id = :session_id AND awarded_at IS NULL AND {_OWN} RETURNING id",
        "session_mark_entry": "UPDATE cp_ledger SET session_id = :session_id WHERE id = :entry_id",
        "session_cp_requests": "SELECT count(*) FROM cp_requests AS q "
        "WHERE q.campaign_id = :campaign_id AND q.created_at >= :since "
        "AND q.created_at <= :until",
    }
