"""The SQLite catalogue: the portable statements in SQLite's dialect, plus the import's.

An import's statements take all rows of a table as one JSON text (see `rules.import_rows`):
one statement each, whatever the import's size, which SQLite runs without taking Python's GIL.
"""

from __future__ import annotations

from storage.sql import advancement, common, conditions, gear, incharacter, saved, sessions, stats

NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"

_IMPORTED_KEYS = "SELECT value FROM json_each(:keys)"

DIALECT = common.Dialect(
    now=NOW,
    gm_ids="""(SELECT json_group_array(g.user_id)
          FROM (SELECT user_id FROM campaign_gms
                 WHERE campaign_id = c.id ORDER BY position) AS g)""",
    stats="""(SELECT json_group_array(json_array(s.kind, s.name, s.value))
          FROM (SELECT kind, name, value FROM character_stats
                 WHERE character_id = ch.id ORDER BY position) AS s)""",
    weapons="""(SELECT json_group_array(json_array(w.name, w.base, w.attribute, w.skill, w.kind))
          FROM (SELECT name, base, attribute, skill, kind FROM weapons
                 WHERE character_id = ch.id ORDER BY position) AS w)""",
    conditions="""(SELECT json_group_array(json_array(k.id, k.name, k.rounds, k.modifier,
                                                k.applies_to, k.stat, k.timing, k.hidden))
          FROM (SELECT id, name, rounds, modifier, applies_to, stat, timing, hidden
                  FROM character_conditions WHERE character_id = ch.id ORDER BY id) AS k)""",
    imported_keys=_IMPORTED_KEYS,
    shard_ids="SELECT value FROM json_each(:shard_ids)",
)

IMPORT = {
    # One row whatever the number: a row each would be a trip back to Python each.
    "import_clashes": f"""
SELECT json_group_array(json_array(name_key, id, name, owner_id, is_npc)) FROM characters
 WHERE campaign_id = :campaign_id AND name_key IN ({_IMPORTED_KEYS})
""",
    "import_characters": common.IMPORT_CHARACTERS_INTO
    + """SELECT :campaign_id, json_extract(value, '$[0]'), json_extract(value, '$[1]'), :owner_id,
       json_extract(value, '$[2]'), json_extract(value, '$[3]'), json_extract(value, '$[4]'),
       json_extract(value, '$[5]'), json_extract(value, '$[6]'), json_extract(value, '$[7]'),
       json_extract(value, '$[8]')
  FROM json_each(:rows) WHERE true"""
    + common.IMPORT_CHARACTERS_REPLACE,
    "import_stats": """
INSERT INTO character_stats (character_id, kind, name_key, name, value, position)
SELECT ch.id, json_extract(s.value, '$[1]'), json_extract(s.value, '$[2]'),
       json_extract(s.value, '$[3]'), json_extract(s.value, '$[4]'),
       json_extract(s.value, '$[5]')
  FROM json_each(:rows) AS s
  CROSS JOIN characters AS ch
    ON ch.campaign_id = :campaign_id AND ch.name_key = json_extract(s.value, '$[0]')
""",
    "import_weapons": """
INSERT INTO weapons (character_id, name_key, name, base, attribute, skill, position, kind)
SELECT ch.id, json_extract(w.value, '$[1]'), json_extract(w.value, '$[2]'),
       json_extract(w.value, '$[3]'), json_extract(w.value, '$[4]'),
       json_extract(w.value, '$[5]'), json_extract(w.value, '$[6]'),
       json_extract(w.value, '$[7]')
  FROM json_each(:rows) AS w
  CROSS JOIN characters AS ch
    ON ch.campaign_id = :campaign_id AND ch.name_key = json_extract(w.value, '$[0]')
""",
    "import_written": f"""
SELECT json_group_object(name_key, json_array(id, owner_id)) FROM characters
 WHERE campaign_id = :campaign_id AND name_key IN ({_IMPORTED_KEYS})
""",
}

STATEMENTS: dict[str, str] = {
    **common.statements(DIALECT),
    **incharacter.statements(DIALECT),
    **IMPORT,
    **advancement.STATEMENTS,
    **saved.STATEMENTS,
    **conditions.STATEMENTS,
    **gear.STATEMENTS,
    **stats.statements("INDEXED BY roll_log_recent"),
    **sessions.statements(DIALECT),
}
