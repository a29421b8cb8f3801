-- Conditions with a mechanical effect (wire/conditions.py): an effect on a combatant gets a
-- modifier (-10..+10) and what it applies to (all rolls, attacks, defences or one of them,
-- checks of a named stat, initiative, damage dealt or taken), how its duration runs out (rounds
-- counted at the end or the start of its bearer's turn, or until another combatant's next
-- turn), and whether only GMs see it. Rows written before read as they did: a modifier of 0 on
-- every roll, counted at the end of the bearer's turn, shown.
ALTER TABLE combatant_effects ADD COLUMN modifier INTEGER NOT NULL DEFAULT 0
    CHECK (modifier BETWEEN -10 AND 10);
ALTER TABLE combatant_effects ADD COLUMN applies_to TEXT NOT NULL DEFAULT 'all';
ALTER TABLE combatant_effects ADD COLUMN stat TEXT;
ALTER TABLE combatant_effects ADD COLUMN timing TEXT NOT NULL DEFAULT 'end'
    CHECK (timing IN ('end', 'start', 'turn'));
-- With timing 'turn': the combatant whose next turn ends it (its leaving ends it too).
ALTER TABLE combatant_effects ADD COLUMN until_id INTEGER
    REFERENCES combatants (id) ON DELETE CASCADE;
ALTER TABLE combatant_effects ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0
    CHECK (hidden IN (0, 1));

-- A campaign's own named conditions (GMs make them; /fight effect offers them and fills in
-- what is not given): WIRE defines none, so the bot ships none. AUTOINCREMENT: an id is never
-- handed out twice.
CREATE TABLE condition_presets (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    name        TEXT    NOT NULL,
    name_key    TEXT    NOT NULL,
    modifier    INTEGER NOT NULL DEFAULT 0 CHECK (modifier BETWEEN -10 AND 10),
    applies_to  TEXT    NOT NULL DEFAULT 'all',
    stat        TEXT,
    rounds      INTEGER,
    timing      TEXT    NOT NULL DEFAULT 'end' CHECK (timing IN ('end', 'start'))
);
CREATE UNIQUE INDEX condition_presets_by_name ON condition_presets (campaign_id, name_key);
