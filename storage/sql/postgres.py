"""The PostgreSQL catalogue: the portable statements in PostgreSQL's dialect, plus its own.

Written with the same named parameters (`:guild_id`) as SQLite's; `positional` turns each into
asyncpg's `$n` once, at load. JSON aggregates are cast to text and flags stay 0/1 integers, so
rows convert as SQLite's do (storage/rows.py). `wire_utc_now()` is the schema's function for the
columns' defaults (storage/migrations_postgres/0001_initial.sql). Where a parameter sits in a
SELECT list (INSERT ... SELECT) PostgreSQL cannot tell its type from a column, so it is cast.
"""

from __future__ import annotations

import re

from storage.sql import advancement, common, conditions, gear, incharacter, saved, sessions, stats

_IMPORTED_KEYS = "SELECT json_array_elements_text(:keys::json)"

DIALECT = common.Dialect(
    now="wire_utc_now()",
    gm_ids="""(SELECT coalesce(json_agg(g.user_id ORDER BY g.position), '[]')::text
          FROM campaign_gms AS g WHERE g.campaign_id = c.id)""",
    stats="""(SELECT coalesce(json_agg(json_build_array(s.kind, s.name, s.value)
                                   ORDER BY s.position), '[]')::text
          FROM character_stats AS s WHERE s.character_id = ch.id)""",
    weapons="""(SELECT coalesce(json_agg(json_build_array(w.name, w.base, w.attribute, w.skill,
                                                      w.kind) ORDER BY w.position), '[]')::text
          FROM weapons AS w WHERE w.character_id = ch.id)""",
    conditions="""(SELECT coalesce(json_agg(json_build_array(k.id, k.name, k.rounds, k.modifier,
                   k.applies_to, k.stat, k.timing, k.hidden) ORDER BY k.id), '[]')::text
          FROM character_conditions AS k WHERE k.character_id = ch.id)""",
    imported_keys=_IMPORTED_KEYS,
    shard_ids="SELECT json_array_elements_text(:shard_ids::json)::bigint",
)

OWN = {
    "insert_roll": """
INSERT INTO roll_log (guild_id, campaign_id, channel_id, user_id, kind, inputs, die, die_source,
    total, target, success, degrees, raw_degrees, damage, hidden, character_id, character_name,
    interaction_id, project_id, created_at, state, pending_id)
SELECT c.guild_id, c.id, :channel_id::bigint, :user_id::bigint, :kind::text, :inputs::text,
    :die::bigint, :die_source::text, :total::bigint, :target::bigint, :success::integer,
    :degrees::bigint, :raw_degrees::bigint, :damage::bigint, :hidden::integer,
    :character_id::bigint, :character_name::text, :interaction_id::bigint, :project_id::bigint,
    coalesce(:created_at::text, wire_utc_now()), :state::text, :pending_id::bigint
  FROM campaigns AS c
 WHERE c.id = :campaign_id AND c.guild_id = :guild_id
ON CONFLICT (interaction_id) DO NOTHING
RETURNING id
""",
    "insert_pending": "INSERT INTO pending_actions (guild_id, campaign_id, kind, payload, "
    "expires_at) SELECT c.guild_id, c.id, :kind::text, :payload::text, :expires_at::text "
    "FROM campaigns AS c WHERE c.id = :campaign_id AND c.guild_id = :guild_id RETURNING id",
    "find_characters": common.statements(DIALECT)["find_characters"]
    .replace(":owner_id IS NULL", ":owner_id::bigint IS NULL")
    .replace(":is_npc IS NULL", ":is_npc::integer IS NULL"),
    "projects": common.statements(DIALECT)["projects"].replace(
        ":owner_id IS NULL", ":owner_id::bigint IS NULL"
    ),
    # ---- an import: each table's rows as one JSON text, one statement each
    "import_clashes": f"""
SELECT coalesce(json_agg(json_build_array(name_key, id, name, owner_id, is_npc)), '[]')::text
  FROM characters
 WHERE campaign_id = :campaign_id AND name_key IN ({_IMPORTED_KEYS})
""",
    "import_characters": common.IMPORT_CHARACTERS_INTO
    + """SELECT :campaign_id::bigint, r->>0, r->>1, :owner_id::bigint, (r->>2)::integer,
       (r->>3)::integer, r->>4, (r->>5)::bigint, (r->>6)::bigint, (r->>7)::bigint,
       (r->>8)::bigint
  FROM json_array_elements(:rows::json) AS r"""
    + common.IMPORT_CHARACTERS_REPLACE,
    "import_stats": """
INSERT INTO character_stats (character_id, kind, name_key, name, value, position)
SELECT ch.id, s->>1, s->>2, s->>3, (s->>4)::bigint, (s->>5)::bigint
  FROM json_array_elements(:rows::json) AS s
  JOIN characters AS ch ON ch.campaign_id = :campaign_id AND ch.name_key = s->>0
""",
    "import_weapons": """
INSERT INTO weapons (character_id, name_key, name, base, attribute, skill, position, kind)
SELECT ch.id, w->>1, w->>2, (w->>3)::bigint, w->>4, w->>5, (w->>6)::bigint, w->>7
  FROM json_array_elements(:rows::json) AS w
  JOIN characters AS ch ON ch.campaign_id = :campaign_id AND ch.name_key = w->>0
""",
    "import_written": f"""
SELECT coalesce(json_object_agg(name_key, json_build_array(id, owner_id)), '{{}}')::text
  FROM characters
 WHERE campaign_id = :campaign_id AND name_key IN ({_IMPORTED_KEYS})
""",
}

_ROLL_FIELDS = (
    ("channel_id", "bigint"),
    ("user_id", "bigint"),
    ("kind", "text"),
    ("inputs", "text"),
    ("die", "bigint"),
    ("die_source", "text"),
    ("total", "bigint"),
    ("target", "bigint"),
    ("success", "integer"),
    ("degrees", "bigint"),
    ("raw_degrees", "bigint"),
    ("damage", "bigint"),
    ("hidden", "integer"),
    ("character_id", "bigint"),
    ("character_name", "text"),
    ("interaction_id", "bigint"),
    ("project_id", "bigint"),
    ("created_at", "text"),
    ("state", "text"),
    ("pending_id", "bigint"),
)
"""`insert_roll`'s parameters besides the campaign's, with their types."""
ROLL_BATCH_FIELDS = (*(name for name, _ in _ROLL_FIELDS), "campaign_id", "guild_id")

OWN["insert_rolls"] = f"""
WITH batch AS (
    SELECT r.*, nextval(pg_get_serial_sequence('roll_log', 'id')) AS new_id
      FROM (SELECT r.*, c.id AS cid, c.guild_id AS gid
              FROM unnest({", ".join(f":{n}::{t}[]" for n, t in _ROLL_FIELDS)},
                          :campaign_id::bigint[], :guild_id::bigint[])
                   WITH ORDINALITY AS r({", ".join(ROLL_BATCH_FIELDS)}, n)
              JOIN campaigns AS c ON c.id = r.campaign_id AND c.guild_id = r.guild_id
             ORDER BY r.n) AS r
), inserted AS (
    INSERT INTO roll_log (id, guild_id, campaign_id, {", ".join(n for n, _ in _ROLL_FIELDS)})
    SELECT new_id, gid, cid, {
    ", ".join(
        "coalesce(created_at, wire_utc_now())" if n == "created_at" else n for n, _ in _ROLL_FIELDS
    )
}
      FROM batch
     ORDER BY n
    ON CONFLICT (interaction_id) DO NOTHING
    RETURNING id
)
SELECT b.n, b.new_id FROM batch AS b JOIN inserted AS i ON i.id = b.new_id
"""
"""`insert_roll` for a whole batch in one round trip: each parameter an array with a row's
value at each place. Returns (place from 1, id) of the rows inserted; a place missing inserted
nothing (its campaign is gone, or its interaction was logged already), as `insert_roll`'s
empty answer. Ids are drawn before the insert so each can be told to its place (a row with
no interaction id has nothing else to be known by); a skipped row uses up its id, as
`insert_roll`'s default does. Rows insert in their order: of two with one interaction id,
the first is logged."""

STATEMENTS: dict[str, str] = {
    **common.statements(DIALECT),
    **incharacter.statements(DIALECT),
    **OWN,
    **advancement.STATEMENTS,
    **saved.STATEMENTS,
    **conditions.STATEMENTS,
    **gear.STATEMENTS,
    **stats.statements(),
    **sessions.statements(DIALECT),
}

_TOKENS = re.compile(r"'(?:[^']|'')*'|\"[^\"]*\"|::|:([A-Za-z_]\w*)|[^':\"]+|.", re.S)


def positional(sql: str) -> tuple[str, tuple[str, ...]]:
    """`:name` parameters as asyncpg's `$1, $2...`, and the names in that order.

    Quoted strings and `::` casts are left alone; a name used twice is one parameter.
    """
    names: list[str] = []
    out: list[str] = []
    for match in _TOKENS.finditer(sql):
        name = match.group(1)
        if name is None:
            out.append(match.group(0))
            continue
        if name not in names:
            names.append(name)
        out.append(f"${names.index(name) + 1}")
    return "".join(out), tuple(names)


def compiled() -> dict[str, tuple[str, tuple[str, ...]]]:
    """Every statement as (asyncpg's SQL, its parameters' names in order)."""
    return {name: positional(sql) for name, sql in STATEMENTS.items()}
