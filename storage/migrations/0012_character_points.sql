-- Character points (CP): a campaign's skill categories (which price table a skill uses), its
-- advancement settings, every character's CP ledger, and improvements waiting for a GM.
--
-- skill_categories: like campaigns.attribute_names, the campaign's own list, set by its GMs;
-- a skill not in it is unpriced (WIRE's sources price by category and we guess none).
-- advancement_settings: table settings the rules leave open; NULL means "not set", never 0:
-- attribute_price (CP per attribute point; NULL: attributes are not priced), starting_cp (a
-- new character's budget; NULL: none, nothing is flagged), approval (1: improvements wait for
-- a GM's Approve).
-- cp_ledger: append-only. An award (amount > 0, or < 0 for a correction), a spend (amount < 0,
-- with the stat change it paid for) or an undo (the negated amount of the entry it `undoes`,
-- each entry undone at most once). Nothing is edited in place, so the totals are sums.
-- cp_requests: an improvement waiting for a GM (its id is in the Approve/Refuse buttons, so
-- AUTOINCREMENT: never handed out twice); decided once, then it is history.

CREATE TABLE skill_categories (
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    name_key    TEXT    NOT NULL,
    name        TEXT    NOT NULL,
    category    TEXT    NOT NULL CHECK (category IN ('combat', 'action', 'knowledge', 'language')),
    PRIMARY KEY (campaign_id, name_key)
);

CREATE TABLE advancement_settings (
    campaign_id     INTEGER PRIMARY KEY REFERENCES campaigns (id) ON DELETE CASCADE,
    attribute_price INTEGER CHECK (attribute_price IS NULL OR attribute_price BETWEEN 0 AND 1000),
    starting_cp     INTEGER CHECK (starting_cp IS NULL OR starting_cp BETWEEN 0 AND 100000),
    approval        INTEGER NOT NULL DEFAULT 0 CHECK (approval IN (0, 1))
);

CREATE TABLE cp_ledger (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id  INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    character_id INTEGER NOT NULL REFERENCES characters (id) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL,
    kind         TEXT    NOT NULL CHECK (kind IN ('award', 'spend', 'undo')),
    amount       INTEGER NOT NULL CHECK (amount BETWEEN -100000 AND 100000),
    reason       TEXT    NOT NULL DEFAULT '',
    stat_kind    TEXT    CHECK (stat_kind IS NULL OR stat_kind IN ('attribute', 'skill')),
    stat_name    TEXT,
    level_before INTEGER,
    level_after  INTEGER,
    undoes       INTEGER REFERENCES cp_ledger (id) ON DELETE CASCADE,
    created_at   TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX cp_ledger_by_character ON cp_ledger (character_id, id);
CREATE INDEX cp_ledger_by_campaign ON cp_ledger (campaign_id, id);
CREATE UNIQUE INDEX cp_ledger_undone_once ON cp_ledger (undoes) WHERE undoes IS NOT NULL;

CREATE TABLE cp_requests (
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
        CHECK (state IN ('waiting', 'approved', 'refused')),
    decided_by   INTEGER,
    created_at   TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX cp_requests_waiting ON cp_requests (character_id) WHERE state = 'waiting';
