-- `/privacy forget-me` deletes a user's rolls in every campaign: `DELETE FROM roll_log WHERE
-- user_id = ?`. The (campaign_id, user_id, id) index serves it only by a skip-scan campaign by
-- campaign, which SQLite picks only with the statistics `PRAGMA optimize` gathers; without
-- them it reads the whole index (22 to 50 ms a million rows, seconds at a year's log, every
-- other write waiting on the lock meanwhile). An index on the user makes the fast plan certain
-- (docs/scaling.md, "What gives first"). On a big log this migration takes a while once: it
-- reads every row (about 10 s for 10 million rows on the development VM).
CREATE INDEX roll_log_by_user ON roll_log (user_id);
