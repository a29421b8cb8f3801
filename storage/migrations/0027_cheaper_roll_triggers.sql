-- Two triggers on every roll logged, made cheaper: measured on /attack's end-to-end benchmark,
-- which logs a roll per interaction (bench/bench_e2e.py --command attack), they cost the bot's
-- process about a tenth of a millisecond of CPU a roll. What they keep does not change.
--
-- A roll is counted (0025_roll_counts) straight into roll_counts: the same entries of the same
-- view, without the hop through roll_count_changes (an insert, its trigger's upsert, a no-op
-- update and delete, and the delete of the change row). Deletions and changes of a roll, rare,
-- still go through roll_count_changes, which writes how a count falls once.
DROP TRIGGER roll_counts_add;
CREATE TRIGGER roll_counts_add AFTER INSERT ON roll_log
BEGIN
    INSERT INTO roll_counts
    SELECT guild_id, campaign_id, day, user_id, character_id, hidden, kind,
           die_source, die, edge, settled, success, degrees, 1, damage
      FROM roll_count_entries WHERE id = NEW.id
    ON CONFLICT (campaign_id, day, user_id, character_id, hidden, kind,
           die_source, die, edge, settled, success, degrees)
    DO UPDATE SET rolls = rolls + 1, damage = damage + excluded.damage;
END;

-- A roll is marked as its session's (0021_sessions) only where the campaign has a session
-- running (sessions_one_running answers that from its index): most rolls are made with none,
-- and rewrote their own row to set a NULL to NULL.
DROP TRIGGER roll_log_in_session;
CREATE TRIGGER roll_log_in_session AFTER INSERT ON roll_log
WHEN NEW.session_id IS NULL AND EXISTS (
    SELECT 1 FROM sessions AS s WHERE s.campaign_id = NEW.campaign_id AND s.state = 'running')
BEGIN
    UPDATE roll_log SET session_id = (
        SELECT s.id FROM sessions AS s WHERE s.campaign_id = NEW.campaign_id
           AND s.state = 'running' AND s.started_at <= NEW.created_at)
     WHERE id = NEW.id;
END;
