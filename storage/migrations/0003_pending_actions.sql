-- Actions posted with buttons that wait for a user (an attack waiting for the defence), kept
-- here so the buttons still work after a restart. A press claims one by deleting its row, so
-- two presses cannot both resolve it.

CREATE TABLE pending_actions (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    campaign_id INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    kind        TEXT    NOT NULL,
    payload     TEXT    NOT NULL CHECK (json_valid(payload)),
    -- UTC as 'YYYY-MM-DDTHH:MM:SS.ffffffZ': fixed width, so text order is time order.
    expires_at  TEXT    NOT NULL,
    channel_id  INTEGER,
    message_id  INTEGER,
    created_at  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX pending_actions_by_expiry ON pending_actions (expires_at, id);
CREATE INDEX pending_actions_by_campaign ON pending_actions (campaign_id);
