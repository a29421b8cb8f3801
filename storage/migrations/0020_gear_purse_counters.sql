-- Gear, money and counters (issue #36, docs/gear.md): what a character carries, its purse and
-- the purse's ledger, its counters, the campaign's currency, and gifts waiting for the
-- receiver's Accept.
--
-- gear_items: weight each in whole grams (kg with up to three decimals, summed exactly);
-- carried 0: stored elsewhere, weighing nothing on the character.
-- purses: the balance kept beside its ledger so a change is one compare-and-set UPDATE
-- (balance + delta >= 0) and the CHECK keeps it from going below 0 whatever runs it;
-- `revision` counts every change (an import compares it with the export's).
-- purse_ledger: append-only, as cp_ledger: each change (pay, receive, give, grant, take) an
-- entry with who, when, how much (signed), why; an undo a new entry naming the one it `undoes`,
-- each undone at most once. A give is two entries sharing `transfer_id`. `press_id` is the
-- interaction that made it: one press never writes twice.
-- counters: value between 0 and maximum always; reset_on says when it fills up again; a
-- counter with weapon_key is that weapon's ammunition.
-- gifts: AUTOINCREMENT, as its id is in the Accept/Refuse buttons and is never handed out twice.

CREATE TABLE gear_items (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    character_id INTEGER NOT NULL REFERENCES characters (id) ON DELETE CASCADE,
    name         TEXT    NOT NULL,
    name_key     TEXT    NOT NULL,
    quantity     INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 10000),
    grams        INTEGER NOT NULL DEFAULT 0 CHECK (grams BETWEEN 0 AND 1000000),
    note         TEXT    NOT NULL DEFAULT '',
    carried      INTEGER NOT NULL DEFAULT 1 CHECK (carried IN (0, 1))
);
CREATE UNIQUE INDEX gear_items_by_name ON gear_items (character_id, name_key);

CREATE TABLE purses (
    character_id INTEGER PRIMARY KEY REFERENCES characters (id) ON DELETE CASCADE,
    balance      INTEGER NOT NULL DEFAULT 0 CHECK (balance BETWEEN 0 AND 1000000000000),
    revision     INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE purse_ledger (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id  INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    character_id INTEGER NOT NULL REFERENCES characters (id) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL,
    kind         TEXT    NOT NULL
        CHECK (kind IN ('pay', 'receive', 'give', 'grant', 'take', 'undo', 'import')),
    amount       INTEGER NOT NULL,
    reason       TEXT    NOT NULL DEFAULT '',
    transfer_id  INTEGER,
    undoes       INTEGER REFERENCES purse_ledger (id) ON DELETE CASCADE,
    press_id     INTEGER,
    created_at   TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX purse_ledger_by_character ON purse_ledger (character_id, id);
CREATE UNIQUE INDEX purse_ledger_undone_once ON purse_ledger (undoes) WHERE undoes IS NOT NULL;
CREATE UNIQUE INDEX purse_ledger_one_press ON purse_ledger (character_id, press_id)
    WHERE press_id IS NOT NULL;

CREATE TABLE counters (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    character_id INTEGER NOT NULL REFERENCES characters (id) ON DELETE CASCADE,
    name         TEXT    NOT NULL,
    name_key     TEXT    NOT NULL,
    value        INTEGER NOT NULL CHECK (value >= 0),
    maximum      INTEGER NOT NULL CHECK (maximum BETWEEN 1 AND 1000),
    reset_on     TEXT    NOT NULL DEFAULT 'gm' CHECK (reset_on IN ('gm', 'fight', 'session')),
    weapon_key   TEXT,
    CHECK (value <= maximum)
);
CREATE UNIQUE INDEX counters_by_name ON counters (character_id, name_key);

CREATE TABLE gear_settings (
    campaign_id   INTEGER PRIMARY KEY REFERENCES campaigns (id) ON DELETE CASCADE,
    coins         TEXT    NOT NULL DEFAULT '[]',
    rates         TEXT    NOT NULL DEFAULT '[]',
    gifts_at_once INTEGER NOT NULL DEFAULT 0 CHECK (gifts_at_once IN (0, 1))
);

CREATE TABLE gifts (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id  INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    giver_id     INTEGER NOT NULL REFERENCES characters (id) ON DELETE CASCADE,
    receiver_id  INTEGER NOT NULL REFERENCES characters (id) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL,
    item_name    TEXT,
    quantity     INTEGER NOT NULL DEFAULT 0,
    amount       INTEGER NOT NULL DEFAULT 0,
    state        TEXT    NOT NULL DEFAULT 'waiting'
        CHECK (state IN ('waiting', 'accepted', 'refused', 'failed')),
    created_at   TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX gifts_waiting ON gifts (receiver_id) WHERE state = 'waiting';
