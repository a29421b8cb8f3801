-- In character (/say): the PostgreSQL twin of storage/migrations/0010_in_character.sql.

ALTER TABLE characters ADD COLUMN portrait TEXT COLLATE "C";

CREATE TABLE character_posts (
    message_id   BIGINT PRIMARY KEY,
    guild_id     BIGINT NOT NULL,
    campaign_id  BIGINT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    channel_id   BIGINT NOT NULL,
    thread_id    BIGINT,
    character_id BIGINT REFERENCES characters (id) ON DELETE SET NULL,
    character_name TEXT COLLATE "C" NOT NULL,
    author_id    BIGINT NOT NULL,
    emote        INTEGER NOT NULL DEFAULT 0 CHECK (emote IN (0, 1)),
    webhook_id   BIGINT,
    created_at   TEXT COLLATE "C" NOT NULL DEFAULT wire_utc_now()
);
CREATE INDEX character_posts_by_author ON character_posts (author_id);
