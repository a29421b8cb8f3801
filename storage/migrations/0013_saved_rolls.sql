-- Saved rolls: a character's roll kept under a short name (/save, the Save button), rolled
-- again with /r from the sheet as it is then. `command` is the JSON the roll log keeps under
-- inputs.command ({"name": "check", "options": {...}}): the command and its options, no die.
-- AUTOINCREMENT: a panel button names a saved roll's id, so a deleted roll's id is never handed
-- to the next one. They go with their character (ON DELETE CASCADE).

CREATE TABLE saved_rolls (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    character_id INTEGER NOT NULL REFERENCES characters (id) ON DELETE CASCADE,
    name         TEXT    NOT NULL,
    name_key     TEXT    NOT NULL,
    command      TEXT    NOT NULL,
    label        TEXT    NOT NULL DEFAULT '',
    created_at   TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE UNIQUE INDEX saved_rolls_by_name ON saved_rolls (character_id, name_key);
