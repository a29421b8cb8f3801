-- Conditions on a character outside a fight (issue #30, wire/conditions.py says what each field
-- means): a GM (or, where the table lets them, the character's player) puts "Prone -2 to all
-- defences" on a sheet, and every roll of that character outside a fight counts it. They are
-- read with the sheet (one JSON column of the character's SELECT), so a roll reads nothing more.
-- `rounds` NULL: until removed; else rounds that count down once the character is in a fight.
-- Timing is 'end' or 'start' only ("until someone's next turn" needs a fight). AUTOINCREMENT:
-- an id is never handed out twice.
CREATE TABLE character_conditions (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    character_id INTEGER NOT NULL REFERENCES characters (id) ON DELETE CASCADE,
    name         TEXT    NOT NULL,
    modifier     INTEGER NOT NULL DEFAULT 0 CHECK (modifier BETWEEN -10 AND 10),
    applies_to   TEXT    NOT NULL DEFAULT 'all',
    stat         TEXT,
    rounds       INTEGER CHECK (rounds IS NULL OR rounds BETWEEN 1 AND 100),
    timing       TEXT    NOT NULL DEFAULT 'end' CHECK (timing IN ('end', 'start')),
    hidden       INTEGER NOT NULL DEFAULT 0 CHECK (hidden IN (0, 1))
);
CREATE INDEX character_conditions_by_character ON character_conditions (character_id, id);

-- A fight's copy of a sheet's condition (made as the character joins, or as one is put on a
-- sheet that is fighting) names it: removing it from the sheet ends the copies too.
ALTER TABLE combatant_effects ADD COLUMN source_id INTEGER
    REFERENCES character_conditions (id) ON DELETE CASCADE;
CREATE INDEX combatant_effects_by_source ON combatant_effects (source_id)
    WHERE source_id IS NOT NULL;

-- A table setting: players may put conditions on their own characters (default: GMs only).
ALTER TABLE campaigns ADD COLUMN players_conditions INTEGER NOT NULL DEFAULT 0
    CHECK (players_conditions IN (0, 1));

-- Every roll reads a sheet's conditions from the read cache: a change must move its version.
CREATE TRIGGER cache_character_conditions_insert AFTER INSERT ON character_conditions
BEGIN UPDATE cache_version SET version = version + 1; END;
CREATE TRIGGER cache_character_conditions_update AFTER UPDATE ON character_conditions
BEGIN UPDATE cache_version SET version = version + 1; END;
CREATE TRIGGER cache_character_conditions_delete AFTER DELETE ON character_conditions
BEGIN UPDATE cache_version SET version = version + 1; END;
