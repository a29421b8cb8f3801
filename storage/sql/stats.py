"""The roll statistics' statements (storage/rules_stats.py), portable to both backends.

One filter serves every scope: each optional part is `(:x IS NULL OR ...)`, so a scope that
does not name a user, a character, a channel or a time leaves that part out. Privacy is in the
filter itself: without `:gm`, a roll counts only if it is public (or the viewer's own) and made
by a player character of the campaign, or with no character by someone who is not a GM of the
campaign; so hidden rolls, NPC rolls and GMs' rolls never reach a player's numbers, not even as
a count. A roll whose character was deleted is left out for players (nothing shows it was not
an NPC's).
"""

from __future__ import annotations

STATS_FIELDS = "r.kind, r.die, r.die_source, r.total, r.target, r.success, r.degrees"
"""What a roll's figures depend on; the grouped query groups by exactly these."""

_WHO = """
   AND (CAST(:user_id AS BIGINT) IS NULL OR r.user_id = CAST(:user_id AS BIGINT))
   AND (CAST(:character_id AS BIGINT) IS NULL OR r.character_id = CAST(:character_id AS BIGINT))
   AND (CAST(:gm AS INTEGER) = 1 OR (
        (r.hidden = 0 OR r.user_id = CAST(:viewer_id AS BIGINT))
        AND (r.character_id IN (SELECT ch.id FROM characters AS ch
                                 WHERE ch.campaign_id = :campaign_id AND ch.is_npc = 0)
             OR (r.character_id {no_character}
                 AND r.user_id NOT IN (SELECT g.user_id FROM campaign_gms AS g
                                        WHERE g.campaign_id = :campaign_id)))))"""
"""Whose rolls, and privacy: the same for the log and its counts (storage/migrations/
0025_roll_counts.sql), where a roll without a character counts under character 0."""

_FILTER = """
  FROM roll_log AS r {on_index}
 WHERE r.campaign_id = :campaign_id AND r.guild_id = :guild_id
   AND r.id >= CAST(:first_id AS BIGINT)
   AND r.id < CAST(:end_id AS BIGINT)
   AND (CAST(:channel_id AS BIGINT) IS NULL OR r.channel_id = CAST(:channel_id AS BIGINT))
   AND (CAST(:session_id AS BIGINT) IS NULL OR r.session_id = CAST(:session_id AS BIGINT))
   AND (CAST(:since AS TEXT) IS NULL OR r.created_at >= CAST(:since AS TEXT))
   AND (CAST(:until AS TEXT) IS NULL OR r.created_at < CAST(:until AS TEXT))""" + _WHO.replace(
    "{no_character}", "IS NULL"
)

_DAYS = """
  FROM roll_counts AS r
 WHERE r.campaign_id = :campaign_id AND r.guild_id = :guild_id
   AND r.day >= CAST(:first_day AS TEXT) AND r.day <= CAST(:last_day AS TEXT)"""
"""The counts of a run of whole days, or all time's (from '*' to '*'; '*' sorts before every
digit, so a run of days never meets it)."""
_COUNTED_WHO = _WHO.replace("{no_character}", "= 0")

COUNT_FIELDS = "r.kind, r.die, r.die_source, r.edge, r.settled, r.success, r.degrees"
"""What a count's figures depend on (the die as 1, 20, another face or none; the total less
the die and the target): the counted query groups by exactly these."""

_IN_CAMPAIGN = "FROM roll_log {on_index} WHERE campaign_id = :campaign_id AND guild_id = :guild_id"


def statements(on_index: str = "") -> dict[str, str]:
    """The statements; `on_index` names the (campaign_id, id) index where the dialect can
    (SQLite's `INDEXED BY`): its planner, seeing few campaigns, would read the whole table."""
    scoped = _FILTER.format(on_index=on_index)
    campaign = _IN_CAMPAIGN.format(on_index=on_index)
    return {
        # How many, up to a limit: whether to read roll by roll or grouped, without decoding
        # thousands of rows on the event loop to find out (asyncpg decodes there).
        "stats_count": f"SELECT count(*) FROM (SELECT 1{scoped} LIMIT :limit) AS scope",
        # Roll by roll, oldest first.
        "stats_rolls": f"SELECT {STATS_FIELDS}, r.damage, r.created_at, r.character_name, "
        f"r.user_id, r.id{scoped} ORDER BY r.id LIMIT :limit",
        # The same rolls grouped by what their figures depend on: a few thousand rows at most,
        # however long the log.
        "stats_groups": f"SELECT {STATS_FIELDS}, count(*), sum(r.damage){scoped} "
        f"GROUP BY {STATS_FIELDS}",
        # From the counts: how many rolls the scope holds, and the whole campaign's (the
        # GMs' view); a few thousand rows however long the log.
        "stats_counted": f"SELECT sum(CASE WHEN 1 = 1 {_COUNTED_WHO} THEN r.rolls ELSE 0 END), "
        f"sum(r.rolls){_DAYS}",
        # The scope's rolls from the counts, grouped as `stats_groups` groups the log's.
        "stats_counted_groups": f"SELECT {COUNT_FIELDS}, sum(r.rolls), sum(r.damage)"
        f"{_DAYS}{_COUNTED_WHO} GROUP BY {COUNT_FIELDS}",
        # The first roll of the campaign at or after an id, with its time: a step of the binary
        # search that turns "since" into a range of ids on the (campaign_id, id) index.
        "stats_roll_at": f"SELECT id, created_at {campaign} AND id >= :id "
        "ORDER BY campaign_id, id LIMIT 1",
        # The campaign's first and last ids (each one step down the index).
        "stats_id_range": f"SELECT (SELECT id {campaign} ORDER BY campaign_id, id LIMIT 1), "
        f"(SELECT id {campaign} ORDER BY campaign_id DESC, id DESC LIMIT 1)",
        # The fight in a channel for /stats: the running one, else the last that ended.
        "stats_fight": "SELECT channel_id, created_at, ended_at, name FROM fights "
        "WHERE guild_id = :guild_id AND campaign_id = :campaign_id AND channel_id = :channel_id "
        "ORDER BY id DESC LIMIT 1",
    }
