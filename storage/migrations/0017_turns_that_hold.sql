-- Turns that hold (wire/fight.py decides, this keeps): the table's rules of a turn, and what
-- each combatant did in the current turn.
-- attacks_per_turn: attacks a combatant makes in its turn (WIRE's Action Point limit, whose
-- number our sources do not give); NULL: any number. out_of_turn_attacks: 1 lets a player's
-- combatant attack in another's turn.
-- turn_attacks: attacks the combatant made since the turn last changed; a menu that attacks
-- names the count it was made for, so its second pick finds it changed (a compare-and-set that
-- holds across a restart and a second process). granted_reaction: a GM granted it one action
-- out of turn. Both are reset at each change of turn, in the same transaction.
ALTER TABLE campaigns ADD COLUMN attacks_per_turn INTEGER DEFAULT 1
    CHECK (attacks_per_turn IS NULL OR attacks_per_turn BETWEEN 1 AND 20);
ALTER TABLE campaigns ADD COLUMN out_of_turn_attacks INTEGER NOT NULL DEFAULT 0
    CHECK (out_of_turn_attacks IN (0, 1));
ALTER TABLE combatants ADD COLUMN turn_attacks INTEGER NOT NULL DEFAULT 0;
ALTER TABLE combatants ADD COLUMN granted_reaction INTEGER NOT NULL DEFAULT 0
    CHECK (granted_reaction IN (0, 1));
