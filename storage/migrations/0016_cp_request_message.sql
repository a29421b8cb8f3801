-- A waiting improvement keeps where its message for the GMs was posted and the language it
-- was written in, so the expiry sweep (cogs/advancement.py) can close the message of one
-- nobody decided in time: "Expired", no buttons, in the table's language of then. All three
-- stay NULL for requests filed before (and until the message is posted): the sweep leaves
-- those alone and a press on their buttons closes them as before.
ALTER TABLE cp_requests ADD COLUMN channel_id INTEGER;
ALTER TABLE cp_requests ADD COLUMN message_id INTEGER;
ALTER TABLE cp_requests ADD COLUMN language TEXT;
CREATE INDEX cp_requests_expiring ON cp_requests (expires_at)
    WHERE state = 'waiting' AND message_id IS NOT NULL;
