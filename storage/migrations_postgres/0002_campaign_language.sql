-- The language every reply in the campaign speaks (a catalogue's code, "de"), fixed by its GMs
-- with /campaign settings language:; NULL: each user reads their own Discord language.
-- (The PostgreSQL twin of storage/migrations/0008_campaign_language.sql.)

ALTER TABLE campaigns ADD COLUMN language TEXT
    CHECK (language IS NULL OR length(language) BETWEEN 2 AND 16);
