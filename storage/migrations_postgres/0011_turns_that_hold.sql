-- The PostgreSQL twin of storage/migrations/0017_turns_that_hold.sql (read it for why): the
-- table's rules of a turn on campaigns, and each combatant's attacks this turn and granted
-- reaction; the same columns in the same order.
ALTER TABLE campaigns ADD COLUMN attacks_per_turn BIGINT DEFAULT 1
    CHECK (attacks_per_turn IS NULL OR attacks_per_turn BETWEEN 1 AND 20);
ALTER TABLE campaigns ADD COLUMN out_of_turn_attacks INTEGER NOT NULL DEFAULT 0
    CHECK (out_of_turn_attacks IN (0, 1));
ALTER TABLE combatants ADD COLUMN turn_attacks BIGINT NOT NULL DEFAULT 0;
ALTER TABLE combatants ADD COLUMN granted_reaction INTEGER NOT NULL DEFAULT 0
    CHECK (granted_reaction IN (0, 1));
