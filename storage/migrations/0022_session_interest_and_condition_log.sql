-- Sessions, the parts left of issue #33.
--
-- An answer given by marking interest on the session's Discord scheduled event (1) or by a
-- button (0): taking the interest back withdraws only an answer the interest gave, never one a
-- player chose with a button (wire/sessions.py, `after_interest`).
ALTER TABLE session_answers ADD COLUMN by_interest INTEGER NOT NULL DEFAULT 0
    CHECK (by_interest IN (0, 1));

-- The conditions as they came and went in a fight: a condition's row in combatant_effects is
-- deleted when it ends, so a session's recap could not name it afterwards. One row a condition,
-- written in the transaction that puts it on; `ended_at` in the one that ends it (run out or
-- cured); NULL: still on when the fight ended. `hidden` as the condition was put on (a GM's
-- hidden condition stays out of what players see).
CREATE TABLE condition_log (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    combatant_id INTEGER NOT NULL REFERENCES combatants (id) ON DELETE CASCADE,
    effect_id    INTEGER NOT NULL,
    name         TEXT    NOT NULL,
    hidden       INTEGER NOT NULL DEFAULT 0 CHECK (hidden IN (0, 1)),
    put_on_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    ended_at     TEXT
);
CREATE INDEX condition_log_by_combatant ON condition_log (combatant_id, id);
CREATE INDEX condition_log_by_effect ON condition_log (effect_id);
