-- Fights (initiative, turn order, effects) and health.
--
-- A character's health is kept as damage taken per pool (hp_lost, thp_lost, wp_lost), so a
-- changed attribute or override moves the maximum without losing the wounds. hp_max and thp_max
-- are overrides (NULL: worked out from the sheet, HP = 20 + Constitution + Resolve, THP = HP);
-- wp_max is a value on the sheet (its formula is not in our sources); armour is a table
-- setting (0 unless set). A weapon has a damage kind: lethal, non-lethal or mental.
--
-- Every id a button names (fights, combatants) comes from AUTOINCREMENT: never reused.

ALTER TABLE characters ADD COLUMN hp_max INTEGER;
ALTER TABLE characters ADD COLUMN thp_max INTEGER;
ALTER TABLE characters ADD COLUMN wp_max INTEGER NOT NULL DEFAULT 0;
ALTER TABLE characters ADD COLUMN armour INTEGER NOT NULL DEFAULT 0;
ALTER TABLE characters ADD COLUMN hp_lost INTEGER NOT NULL DEFAULT 0;
ALTER TABLE characters ADD COLUMN thp_lost INTEGER NOT NULL DEFAULT 0;
ALTER TABLE characters ADD COLUMN wp_lost INTEGER NOT NULL DEFAULT 0;
ALTER TABLE weapons ADD COLUMN kind TEXT NOT NULL DEFAULT 'lethal'
    CHECK (kind IN ('lethal', 'non-lethal', 'mental'));
ALTER TABLE campaigns ADD COLUMN show_npc_health INTEGER NOT NULL DEFAULT 0
    CHECK (show_npc_health IN (0, 1));

CREATE TABLE fights (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id           INTEGER NOT NULL,
    campaign_id        INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    channel_id         INTEGER NOT NULL,
    name               TEXT    NOT NULL,
    round              INTEGER NOT NULL DEFAULT 1,
    -- NULL until the first turn begins (/fight next); then the combatant whose turn it is.
    current_id         INTEGER,
    -- Counts every change of turn: the Next button names it, so a stale press is refused.
    step               INTEGER NOT NULL DEFAULT 0,
    tracker_message_id INTEGER,
    created_at         TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    ended_at           TEXT
);
-- One running fight per channel.
CREATE UNIQUE INDEX fights_running_in_channel ON fights (guild_id, channel_id)
    WHERE ended_at IS NULL;
CREATE INDEX fights_by_campaign ON fights (campaign_id);

CREATE TABLE combatants (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    fight_id     INTEGER NOT NULL REFERENCES fights (id) ON DELETE CASCADE,
    name         TEXT    NOT NULL,
    name_key     TEXT    NOT NULL,
    character_id INTEGER REFERENCES characters (id) ON DELETE SET NULL,
    -- The player who acts for it (a player character's owner); NULL: the GMs only.
    controller_id INTEGER,
    is_npc       INTEGER NOT NULL CHECK (is_npc IN (0, 1)),
    die          INTEGER NOT NULL,
    die_source   TEXT    NOT NULL,
    reaction     INTEGER NOT NULL,
    surprise     INTEGER NOT NULL DEFAULT 0,
    position     INTEGER NOT NULL,
    -- An NPC copy's own health (a player character's is on its sheet).
    hp_max       INTEGER NOT NULL DEFAULT 0,
    thp_max      INTEGER NOT NULL DEFAULT 0,
    wp_max       INTEGER NOT NULL DEFAULT 0,
    armour       INTEGER NOT NULL DEFAULT 0,
    hp_lost      INTEGER NOT NULL DEFAULT 0,
    thp_lost     INTEGER NOT NULL DEFAULT 0,
    wp_lost      INTEGER NOT NULL DEFAULT 0,
    dealt        INTEGER NOT NULL DEFAULT 0,
    taken        INTEGER NOT NULL DEFAULT 0,
    removed      INTEGER NOT NULL DEFAULT 0 CHECK (removed IN (0, 1))
);
CREATE UNIQUE INDEX combatants_by_name ON combatants (fight_id, name_key) WHERE removed = 0;
CREATE INDEX combatants_by_character ON combatants (character_id)
    WHERE character_id IS NOT NULL;

CREATE TABLE combatant_effects (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    combatant_id INTEGER NOT NULL REFERENCES combatants (id) ON DELETE CASCADE,
    name         TEXT    NOT NULL,
    -- Counts down at the end of its combatant's turn; NULL lasts until removed.
    rounds_left  INTEGER
);
CREATE INDEX combatant_effects_by_combatant ON combatant_effects (combatant_id);

-- Every change of health: by an attack, a defence, or by hand; a GM can undo the last one.
CREATE TABLE health_log (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id      INTEGER NOT NULL,
    campaign_id   INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    fight_id      INTEGER REFERENCES fights (id) ON DELETE SET NULL,
    combatant_id  INTEGER REFERENCES combatants (id) ON DELETE SET NULL,
    character_id  INTEGER,
    -- The combatant whose attack did it (its damage dealt goes back on an undo).
    attacker_id   INTEGER REFERENCES combatants (id) ON DELETE SET NULL,
    target_name   TEXT    NOT NULL,
    is_npc        INTEGER NOT NULL CHECK (is_npc IN (0, 1)),
    pool          TEXT    NOT NULL CHECK (pool IN ('hp', 'thp', 'wp')),
    before        INTEGER NOT NULL,
    after         INTEGER NOT NULL,
    armour        INTEGER NOT NULL DEFAULT 0,
    reason        TEXT    NOT NULL,
    user_id       INTEGER NOT NULL,
    interaction_id INTEGER,
    undone        INTEGER NOT NULL DEFAULT 0 CHECK (undone IN (0, 1)),
    created_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX health_log_recent ON health_log (campaign_id, id DESC);
