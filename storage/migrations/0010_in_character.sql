-- In character (/say): a character's portrait, and the record of each post the bot made as a
-- character, which "who wrote this", edits and deletes read. The record names the Discord user
-- behind the post; /privacy forget-me deletes a user's records.

ALTER TABLE characters ADD COLUMN portrait TEXT;

CREATE TABLE character_posts (
    message_id   INTEGER PRIMARY KEY,
    guild_id     INTEGER NOT NULL,
    campaign_id  INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    channel_id   INTEGER NOT NULL,
    thread_id    INTEGER,
    character_id INTEGER REFERENCES characters (id) ON DELETE SET NULL,
    character_name TEXT NOT NULL,
    author_id    INTEGER NOT NULL,
    emote        INTEGER NOT NULL DEFAULT 0 CHECK (emote IN (0, 1)),
    webhook_id   INTEGER,
    created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX character_posts_by_author ON character_posts (author_id);
