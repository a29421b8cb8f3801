-- Improvements waiting for approval expire, and species costs: the PostgreSQL twin of
-- storage/migrations/0014_cp_expiry_and_species.sql (read it for why); the same columns in the
-- same order. Rows from before get their created_at plus 7 days, in the same text form.

ALTER TABLE cp_requests ADD COLUMN expires_at TEXT COLLATE "C";
UPDATE cp_requests SET expires_at = to_char(
    (created_at::timestamptz + interval '7 days') AT TIME ZONE 'UTC',
    'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'
);
ALTER TABLE cp_requests ALTER COLUMN expires_at SET NOT NULL;
ALTER TABLE cp_requests DROP CONSTRAINT cp_requests_state_check;
ALTER TABLE cp_requests ADD CONSTRAINT cp_requests_state_check
    CHECK (state IN ('waiting', 'approved', 'refused', 'expired'));

CREATE TABLE cp_species (
    campaign_id BIGINT NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    name_key    TEXT COLLATE "C" NOT NULL,
    name        TEXT COLLATE "C" NOT NULL,
    cost        BIGINT NOT NULL CHECK (cost BETWEEN 0 AND 10000),
    PRIMARY KEY (campaign_id, name_key)
);

CREATE TABLE character_species (
    character_id BIGINT PRIMARY KEY REFERENCES characters (id) ON DELETE CASCADE,
    name         TEXT COLLATE "C" NOT NULL
);
