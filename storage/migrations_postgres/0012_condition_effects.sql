-- The PostgreSQL twin of storage/migrations/0018_condition_effects.sql (read it for why): an
-- effect's modifier, what it applies to, its stat, its timing, the combatant whose turn ends
-- it, and whether only GMs see it; the same columns in the same order and defaults.
ALTER TABLE combatant_effects ADD COLUMN modifier BIGINT NOT NULL DEFAULT 0
    CHECK (modifier BETWEEN -10 AND 10);
ALTER TABLE combatant_effects ADD COLUMN applies_to TEXT COLLATE "C" NOT NULL DEFAULT 'all';
ALTER TABLE combatant_effects ADD COLUMN stat TEXT COLLATE "C";
ALTER TABLE combatant_effects ADD COLUMN timing TEXT COLLATE "C" NOT NULL DEFAULT 'end'
    CHECK (timing IN ('end', 'start', 'turn'));
ALTER TABLE combatant_effects ADD COLUMN until_id BIGINT
    REFERENCES combatants (id) ON DELETE CASCADE;
ALTER TABLE combatant_effects ADD COLUMN hidden BIGINT NOT NULL DEFAULT 0
    CHECK (hidden IN (0, 1));
