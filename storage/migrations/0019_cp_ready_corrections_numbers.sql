-- Every stat change accounted for (issue #31). The ledger gains two kinds of entry and a number
-- per character, and a request keeps where its player asked:
-- * 'ready' (amount 0): a character is ready for play, said by a GM or by its player with the
--   sheet within the starting budget. Until then a new character is built freely; from then on,
--   in a campaign that uses CP, its priced stats move only through the ledger. An undo of it
--   makes the sheet free to build again.
-- * 'correct' (amount 0): a GM's change of a stat, with who and why (the reason); CP move only
--   by an award, so the entry says what the change is worth and moves none.
-- * number: one character's entries count 1, 2, 3 (the id, campaign-wide, stays the key an
--   undo names); existing entries are numbered in the order they were written.
-- * cp_requests.asked_channel_id / asked_language: where the player asked and in which
--   language, so the GMs' answer (or the expiry) is told to them there. NULL for older ones.
--
-- SQLite cannot change a CHECK in place, so the ledger is rebuilt; its AUTOINCREMENT counter
-- is carried over (an entry's id is never handed out twice).

CREATE TABLE cp_ledger_new (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id  INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    character_id INTEGER NOT NULL REFERENCES characters (id) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL,
    kind         TEXT    NOT NULL
        CHECK (kind IN ('award', 'spend', 'undo', 'ready', 'correct')),
    amount       INTEGER NOT NULL CHECK (amount BETWEEN -100000 AND 100000),
    reason       TEXT    NOT NULL DEFAULT '',
    stat_kind    TEXT    CHECK (stat_kind IS NULL OR stat_kind IN ('attribute', 'skill')),
    stat_name    TEXT,
    level_before INTEGER,
    level_after  INTEGER,
    undoes       INTEGER REFERENCES cp_ledger_new (id) ON DELETE CASCADE,
    created_at   TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    number       INTEGER NOT NULL CHECK (number >= 1)
);
INSERT INTO cp_ledger_new (id, campaign_id, character_id, user_id, kind, amount, reason,
                           stat_kind, stat_name, level_before, level_after, undoes, created_at,
                           number)
SELECT l.id, l.campaign_id, l.character_id, l.user_id, l.kind, l.amount, l.reason, l.stat_kind,
       l.stat_name, l.level_before, l.level_after, l.undoes, l.created_at,
       (SELECT count(*) FROM cp_ledger AS n WHERE n.character_id = l.character_id AND n.id <= l.id)
  FROM cp_ledger AS l;
DELETE FROM sqlite_sequence WHERE name = 'cp_ledger_new';
INSERT INTO sqlite_sequence (name, seq)
SELECT 'cp_ledger_new', max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'cp_ledger'), 0),
                            coalesce((SELECT max(id) FROM cp_ledger), 0));
DROP TABLE cp_ledger;
ALTER TABLE cp_ledger_new RENAME TO cp_ledger;
CREATE INDEX cp_ledger_by_character ON cp_ledger (character_id, id);
CREATE INDEX cp_ledger_by_campaign ON cp_ledger (campaign_id, id);
CREATE UNIQUE INDEX cp_ledger_undone_once ON cp_ledger (undoes) WHERE undoes IS NOT NULL;
CREATE UNIQUE INDEX cp_ledger_number ON cp_ledger (character_id, number);

ALTER TABLE cp_requests ADD COLUMN asked_channel_id INTEGER;
ALTER TABLE cp_requests ADD COLUMN asked_language TEXT;
