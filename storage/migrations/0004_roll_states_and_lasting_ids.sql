-- An explicit state for each logged roll, and ids that are never handed out twice.
--
-- roll_log.state: 'resolved' for a roll that is settled when logged; an attack on a player
-- character is logged 'waiting' with the pending action it waits on, and becomes 'defended' or
-- 'expired' in the same transaction that settles that action. Before this, a waiting attack was
-- logged as a success with 0 degrees and /history had to guess.
--
-- characters and pending_actions get AUTOINCREMENT: a custom_id or a stored message names these
-- ids, and without it SQLite hands a deleted row's id (the largest) to the next row, so an old
-- button would act on a new attack or someone else's sheet. Their sequences start above every id
-- the roll log has seen, since rows deleted before this migration left no other trace.

ALTER TABLE roll_log ADD COLUMN state TEXT NOT NULL DEFAULT 'resolved'
    CHECK (state IN ('resolved', 'waiting', 'defended', 'expired'));
ALTER TABLE roll_log ADD COLUMN pending_id INTEGER;

UPDATE roll_log SET pending_id = json_extract(inputs, '$.pending')
 WHERE kind = 'attack' AND json_type(inputs, '$.pending') = 'integer';

UPDATE roll_log AS a SET state = CASE
        WHEN EXISTS (SELECT 1 FROM roll_log AS d
                      WHERE d.kind = 'defend' AND d.campaign_id = a.campaign_id
                        AND json_extract(d.inputs, '$.pending') = a.pending_id) THEN 'defended'
        WHEN EXISTS (SELECT 1 FROM pending_actions AS p WHERE p.id = a.pending_id) THEN 'waiting'
        ELSE 'expired'
    END
 WHERE a.pending_id IS NOT NULL;

CREATE INDEX roll_log_by_pending ON roll_log (pending_id) WHERE pending_id IS NOT NULL;

CREATE TABLE characters_new (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    name        TEXT    NOT NULL,
    name_key    TEXT    NOT NULL,
    owner_id    INTEGER NOT NULL,
    is_npc      INTEGER NOT NULL DEFAULT 0 CHECK (is_npc IN (0, 1)),
    shield      INTEGER NOT NULL DEFAULT 0 CHECK (shield IN (0, 1)),
    notes       TEXT    NOT NULL DEFAULT '',
    created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
INSERT INTO characters_new (id, campaign_id, name, name_key, owner_id, is_npc, shield, notes,
                            created_at)
SELECT id, campaign_id, name, name_key, owner_id, is_npc, shield, notes, created_at
  FROM characters;
DROP TABLE characters;
ALTER TABLE characters_new RENAME TO characters;
CREATE UNIQUE INDEX characters_by_name ON characters (campaign_id, name_key);
CREATE INDEX characters_by_owner ON characters (owner_id);

CREATE TABLE pending_actions_new (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    kind        TEXT    NOT NULL,
    payload     TEXT    NOT NULL CHECK (json_valid(payload)),
    -- UTC as 'YYYY-MM-DDTHH:MM:SS.ffffffZ': fixed width, so text order is time order.
    expires_at  TEXT    NOT NULL,
    channel_id  INTEGER,
    message_id  INTEGER,
    created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
INSERT INTO pending_actions_new (id, guild_id, campaign_id, kind, payload, expires_at,
                                 channel_id, message_id, created_at)
SELECT id, guild_id, campaign_id, kind, payload, expires_at, channel_id, message_id, created_at
  FROM pending_actions;
DROP TABLE pending_actions;
ALTER TABLE pending_actions_new RENAME TO pending_actions;
CREATE INDEX pending_actions_by_expiry ON pending_actions (expires_at, id);
CREATE INDEX pending_actions_by_campaign ON pending_actions (campaign_id);

DELETE FROM sqlite_sequence WHERE name IN ('characters', 'pending_actions');
INSERT INTO sqlite_sequence (name, seq)
SELECT 'characters', max(coalesce((SELECT max(id) FROM characters), 0),
                         coalesce((SELECT max(character_id) FROM roll_log), 0),
                         coalesce((SELECT max(character_id) FROM craft_projects), 0));
INSERT INTO sqlite_sequence (name, seq)
SELECT 'pending_actions', max(coalesce((SELECT max(id) FROM pending_actions), 0),
                              coalesce((SELECT max(pending_id) FROM roll_log), 0));
