-- One index on the user for both readers of a user's rolls, in place of two: `/history` of a
-- player (`campaign_id = ? AND user_id = ? ORDER BY id DESC`) and `/privacy forget-me`
-- (`user_id = ?`) both go by (user_id, campaign_id, id): the first by its whole key, the second
-- by its first column, the plan 0011's (user_id) index made certain. Every roll's insert then
-- updates five indexes again, not six: the sixth cost each roll about 10 to 16 us of the event
-- loop's time (bench/profile_e2e.py --cprofile, docs/scaling.md "Measured for issue 26"). On a
-- big log this migration reads every row once (about 10 s for 10 million rows).
DROP INDEX roll_log_recent_by_user;
DROP INDEX roll_log_by_user;
CREATE INDEX roll_log_by_user ON roll_log (user_id, campaign_id, id DESC);
