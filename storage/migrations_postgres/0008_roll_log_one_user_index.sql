-- One index on the user for `/history` of a player and `/privacy forget-me`, in place of two:
-- (user_id, campaign_id, id) serves `campaign_id = ? AND user_id = ? ORDER BY id DESC` by its
-- whole key and `user_id = ?` by its first column, so every roll's insert updates one index
-- less. The twin of storage/migrations/0014_roll_log_one_user_index.sql.
DROP INDEX roll_log_recent_by_user;
DROP INDEX roll_log_by_user;
CREATE INDEX roll_log_by_user ON roll_log (user_id, campaign_id, id DESC);
