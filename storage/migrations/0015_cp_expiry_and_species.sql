-- Improvements waiting for a GM's approval expire: `expires_at` (UTC text, the fixed width of
-- storage/rows.py's utc_text, so text order is time order) is set when the request is filed
-- (storage/models_advancement.py's REQUEST_DAYS after), and a request pressed after it is
-- closed as 'expired': nothing is spent and its CP are no longer held. Rows from before get
-- their created_at plus 7 days.
--
-- SQLite cannot change a CHECK in place, so the table is rebuilt; its AUTOINCREMENT counter is
-- carried over, since a request's id is in its buttons and must never be handed out again.

CREATE TABLE cp_requests_new (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id  INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    character_id INTEGER NOT NULL REFERENCES characters (id) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL,
    stat_kind    TEXT    NOT NULL CHECK (stat_kind IN ('attribute', 'skill')),
    stat_name    TEXT    NOT NULL,
    level_before INTEGER NOT NULL,
    level_after  INTEGER NOT NULL,
    cost         INTEGER NOT NULL CHECK (cost >= 0),
    state        TEXT    NOT NULL DEFAULT 'waiting'
        CHECK (state IN ('waiting', 'approved', 'refused', 'expired')),
    decided_by   INTEGER,
    created_at   TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    expires_at   TEXT    NOT NULL
);
INSERT INTO cp_requests_new (id, campaign_id, character_id, user_id, stat_kind, stat_name,
                             level_before, level_after, cost, state, decided_by, created_at,
                             expires_at)
SELECT id, campaign_id, character_id, user_id, stat_kind, stat_name, level_before, level_after,
       cost, state, decided_by, created_at,
       strftime('%Y-%m-%dT%H:%M:%fZ', created_at, '+7 days')
  FROM cp_requests;
DELETE FROM sqlite_sequence WHERE name = 'cp_requests_new';
INSERT INTO sqlite_sequence (name, seq)
SELECT 'cp_requests_new', max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'cp_requests'), 0),
                              coalesce((SELECT max(id) FROM cp_requests), 0));
DROP TABLE cp_requests;
ALTER TABLE cp_requests_new RENAME TO cp_requests;
CREATE INDEX cp_requests_waiting ON cp_requests (character_id) WHERE state = 'waiting';

-- Species costs, a table setting (WIRE's sources give no species prices): cp_species is the
-- campaign's list of species and what each costs in CP, set by its GMs; character_species
-- names a character's species (set by its player or a GM). A species not in the list is shown
-- as not priced, never as 0. Both go with their campaign or character.
CREATE TABLE cp_species (
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    name_key    TEXT    NOT NULL,
    name        TEXT    NOT NULL,
    cost        INTEGER NOT NULL CHECK (cost BETWEEN 0 AND 10000),
    PRIMARY KEY (campaign_id, name_key)
);

CREATE TABLE character_species (
    character_id INTEGER PRIMARY KEY REFERENCES characters (id) ON DELETE CASCADE,
    name         TEXT    NOT NULL
);
