-- `/privacy forget-me` deletes a user's rolls in every campaign by `user_id`; without an index
-- on it PostgreSQL scans the whole roll log. The twin of storage/migrations/0011_roll_log_by_user.sql
-- (docs/scaling.md, "What gives first").
CREATE INDEX roll_log_by_user ON roll_log (user_id);
