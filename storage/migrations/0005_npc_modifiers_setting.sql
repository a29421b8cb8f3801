-- Whether the table sees an NPC's modifiers in roll embeds ("take 10 + 1 Strength + 2 Parry")
-- or only its total ("Goblin parries: 13"). Off by default: an NPC's sheet is for GMs' eyes.

ALTER TABLE campaigns ADD COLUMN show_npc_modifiers INTEGER NOT NULL DEFAULT 0
    CHECK (show_npc_modifiers IN (0, 1));
