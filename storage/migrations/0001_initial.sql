-- Campaigns with their GMs and channels, characters with their sheets, active characters, and
-- bot-wide settings. Names are unique through a `name_key` column holding name.casefold(),
-- because SQLite's NOCASE folds ASCII only ("Ærwyn" and "ærwyn" would both be allowed).
-- Value ranges are checked by the bot (storage/validation.py), not by CHECK constraints, so a
-- changed limit needs no migration.

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE campaigns (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    name_key      TEXT    NOT NULL,
    is_default    INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1)),
    npc_take10    INTEGER NOT NULL DEFAULT 1 CHECK (npc_take10 IN (0, 1)),
    gm_channel_id INTEGER,
    created_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE UNIQUE INDEX campaigns_by_name ON campaigns (guild_id, name_key);
-- At most one default campaign per guild, even when two first uses race.
CREATE UNIQUE INDEX campaigns_one_default ON campaigns (guild_id) WHERE is_default = 1;

CREATE TABLE campaign_gms (
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    user_id     INTEGER NOT NULL,
    position    INTEGER NOT NULL, -- 0 for the creator, then in the order they were added
    PRIMARY KEY (campaign_id, user_id)
) WITHOUT ROWID;

CREATE TABLE channel_bindings (
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    PRIMARY KEY (guild_id, channel_id)
) WITHOUT ROWID;
CREATE INDEX channel_bindings_by_campaign ON channel_bindings (campaign_id);

CREATE TABLE characters (
    id          INTEGER PRIMARY KEY,
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    name        TEXT    NOT NULL,
    name_key    TEXT    NOT NULL,
    owner_id    INTEGER NOT NULL,
    is_npc      INTEGER NOT NULL DEFAULT 0 CHECK (is_npc IN (0, 1)),
    shield      INTEGER NOT NULL DEFAULT 0 CHECK (shield IN (0, 1)),
    notes       TEXT    NOT NULL DEFAULT '',
    created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE UNIQUE INDEX characters_by_name ON characters (campaign_id, name_key);
CREATE INDEX characters_by_owner ON characters (owner_id);

-- One row per attribute or skill, so setting one stat is one atomic UPSERT and two writers of
-- different stats cannot overwrite each other. WITHOUT ROWID keeps a character's stats together
-- in one b-tree page; `position` keeps the order they were added in.
CREATE TABLE character_stats (
    character_id INTEGER NOT NULL REFERENCES characters (id) ON DELETE CASCADE,
    kind         TEXT    NOT NULL CHECK (kind IN ('attribute', 'skill')),
    name_key     TEXT    NOT NULL,
    name         TEXT    NOT NULL,
    value        INTEGER NOT NULL,
    position     INTEGER NOT NULL,
    PRIMARY KEY (character_id, kind, name_key)
) WITHOUT ROWID;

CREATE TABLE weapons (
    character_id INTEGER NOT NULL REFERENCES characters (id) ON DELETE CASCADE,
    name_key     TEXT    NOT NULL,
    name         TEXT    NOT NULL,
    base         INTEGER NOT NULL,
    attribute    TEXT    NOT NULL,
    skill        TEXT    NOT NULL,
    position     INTEGER NOT NULL,
    PRIMARY KEY (character_id, name_key)
) WITHOUT ROWID;

-- The character each user rolls with in each campaign (the primary key is the look-up index).
CREATE TABLE active_characters (
    campaign_id  INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL,
    character_id INTEGER NOT NULL REFERENCES characters (id) ON DELETE CASCADE,
    PRIMARY KEY (campaign_id, user_id)
) WITHOUT ROWID;
CREATE INDEX active_characters_by_character ON active_characters (character_id);
