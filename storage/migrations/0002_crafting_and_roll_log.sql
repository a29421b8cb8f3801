-- Crafting projects and the roll log.

CREATE TABLE craft_projects (
    id           INTEGER PRIMARY KEY,
    campaign_id  INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    owner_id     INTEGER NOT NULL,
    item         TEXT    NOT NULL,
    item_key     TEXT    NOT NULL,
    quality      INTEGER NOT NULL DEFAULT 0,
    character_id INTEGER REFERENCES characters (id) ON DELETE SET NULL,
    finished     INTEGER NOT NULL DEFAULT 0 CHECK (finished IN (0, 1)),
    rolls        INTEGER NOT NULL DEFAULT 0,
    created_at   TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    finished_at  TEXT
);
-- One unfinished project per owner and item name; finished ones may repeat.
CREATE UNIQUE INDEX craft_projects_open_by_item
    ON craft_projects (campaign_id, owner_id, item_key) WHERE finished = 0;
CREATE INDEX craft_projects_by_owner ON craft_projects (owner_id);
CREATE INDEX craft_projects_by_character
    ON craft_projects (character_id) WHERE character_id IS NOT NULL;

-- Every logged roll. character_id has no foreign key on purpose: the log outlives a deleted
-- character, and character_name says who rolled.
CREATE TABLE roll_log (
    id             INTEGER PRIMARY KEY,
    guild_id       INTEGER NOT NULL,
    campaign_id    INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    channel_id     INTEGER NOT NULL,
    user_id        INTEGER NOT NULL,
    kind           TEXT    NOT NULL,
    inputs         TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(inputs)),
    die            INTEGER NOT NULL,
    die_source     TEXT    NOT NULL,
    total          INTEGER NOT NULL,
    target         INTEGER,
    success        INTEGER NOT NULL CHECK (success IN (0, 1)),
    degrees        INTEGER NOT NULL,
    raw_degrees    INTEGER NOT NULL,
    damage         INTEGER,
    hidden         INTEGER NOT NULL DEFAULT 0 CHECK (hidden IN (0, 1)),
    character_id   INTEGER,
    character_name TEXT,
    project_id     INTEGER REFERENCES craft_projects (id) ON DELETE SET NULL,
    interaction_id INTEGER,
    created_at     TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
-- Logging is idempotent per interaction (NULLs are distinct, so rolls without one never clash).
CREATE UNIQUE INDEX roll_log_by_interaction ON roll_log (interaction_id);
CREATE INDEX roll_log_recent ON roll_log (campaign_id, id DESC);
CREATE INDEX roll_log_recent_by_user ON roll_log (campaign_id, user_id, id DESC);
CREATE INDEX roll_log_by_project ON roll_log (project_id) WHERE project_id IS NOT NULL;
