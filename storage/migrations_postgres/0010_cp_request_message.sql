-- The PostgreSQL twin of storage/migrations/0016_cp_request_message.sql (read it for why): a
-- waiting improvement keeps its message's channel and id and its language; the same columns
-- in the same order, NULL for requests filed before.
ALTER TABLE cp_requests ADD COLUMN channel_id BIGINT;
ALTER TABLE cp_requests ADD COLUMN message_id BIGINT;
ALTER TABLE cp_requests ADD COLUMN language TEXT COLLATE "C";
CREATE INDEX cp_requests_expiring ON cp_requests (expires_at)
    WHERE state = 'waiting' AND message_id IS NOT NULL;
