-- Roll counts kept only for the campaigns whose log is long enough for them to pay. The counts
-- (0025_roll_counts) let /stats read a few thousand rows instead of a long log; a campaign with
-- a short log is read from the log as fast (rules_stats.py reads roll by roll up to 5,000 rolls
-- either way), and counting its every roll cost the roll's commit two random pages of a large
-- table: on /attack's end-to-end benchmark (bench/bench_e2e.py --command attack; a million rolls
-- over 1,000 campaigns) about 0.1 ms of the bot's CPU a roll, all of what the bot had lost
-- against the shaped bare bot since #30's day.
--
-- So a campaign is counted from the roll that takes its log to `roll_counting.count_from` rolls
-- (5,000: where /stats stops reading roll by roll): that roll's trigger counts the campaign's
-- whole log in one statement and marks it counted, and from then on each of its rolls is counted
-- as it is logged, deleted or changed, as before. A campaign not counted has no counts; /stats
-- then finds none and reads the log (rules_stats.py already does when the counts hold too few).
-- PostgreSQL counts every campaign as before (its statement triggers count a whole batch at
-- once); these two tables are SQLite's own (storage/schema.py's SQLITE_ONLY_TABLES).

CREATE TABLE roll_counting (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    count_from INTEGER NOT NULL CHECK (count_from >= 0)
);
INSERT INTO roll_counting (id, count_from) VALUES (1, 5000);

-- Each campaign's rolls ever logged (a deletion does not lower it: it only says when the
-- campaign reached count_from), and whether its rolls are counted.
CREATE TABLE roll_totals (
    campaign_id INTEGER PRIMARY KEY REFERENCES campaigns (id) ON DELETE CASCADE,
    logged      INTEGER NOT NULL,
    counted     INTEGER NOT NULL DEFAULT 0
);
INSERT INTO roll_totals (campaign_id, logged, counted)
SELECT campaign_id, count(*), count(*) >= 5000 FROM roll_log GROUP BY campaign_id;
DELETE FROM roll_counts
 WHERE campaign_id NOT IN (SELECT campaign_id FROM roll_totals WHERE counted);

-- A roll logged: counted where its campaign is counted; then the campaign's total, whose
-- trigger below counts the whole log at the crossing. In this order, in one trigger, so the
-- crossing roll is counted once (by the whole log's count, not here too).
DROP TRIGGER roll_counts_add;
CREATE TRIGGER roll_counts_add AFTER INSERT ON roll_log
BEGIN
    INSERT INTO roll_counts
    SELECT guild_id, campaign_id, day, user_id, character_id, hidden, kind,
           die_source, die, edge, settled, success, degrees, 1, damage
      FROM roll_count_entries
     WHERE id = NEW.id
       AND EXISTS (SELECT 1 FROM roll_totals AS t
                    WHERE t.campaign_id = NEW.campaign_id AND t.counted)
    ON CONFLICT (campaign_id, day, user_id, character_id, hidden, kind,
           die_source, die, edge, settled, success, degrees)
    DO UPDATE SET rolls = rolls + 1, damage = damage + excluded.damage;
    INSERT OR IGNORE INTO roll_totals (campaign_id, logged) VALUES (NEW.campaign_id, 0);
    UPDATE roll_totals SET logged = logged + 1 WHERE campaign_id = NEW.campaign_id;
END;

-- The crossing: the campaign's log counted in one statement, and the campaign marked. A WHEN
-- on the total's row, so no roll before or after it pays for more than that test. (Its first
-- roll too goes through this update, so count_from 0 or 1 counts it from that roll: the tests
-- count every campaign from its first roll so.)
CREATE TRIGGER roll_totals_counted AFTER UPDATE OF logged ON roll_totals
WHEN NOT NEW.counted AND NEW.logged >= (SELECT count_from FROM roll_counting)
BEGIN
    INSERT INTO roll_counts
    SELECT guild_id, campaign_id, day, user_id, character_id, hidden, kind,
           die_source, die, edge, settled, success, degrees, count(*), sum(damage)
      FROM roll_count_entries WHERE campaign_id = NEW.campaign_id
     GROUP BY campaign_id, day, user_id, character_id, hidden, kind,
           die_source, die, edge, settled, success, degrees
    ON CONFLICT (campaign_id, day, user_id, character_id, hidden, kind,
           die_source, die, edge, settled, success, degrees)
    DO UPDATE SET rolls = rolls + excluded.rolls, damage = damage + excluded.damage;
    UPDATE roll_totals SET counted = 1 WHERE campaign_id = NEW.campaign_id;
END;
-- A roll deleted or changed is uncounted (and recounted) only where its campaign is counted.
DROP TRIGGER roll_counts_remove;
CREATE TRIGGER roll_counts_remove BEFORE DELETE ON roll_log
WHEN EXISTS (SELECT 1 FROM roll_totals WHERE campaign_id = OLD.campaign_id AND counted)
BEGIN
    INSERT INTO roll_count_changes
    SELECT guild_id, campaign_id, day, user_id, character_id, hidden, kind,
           die_source, die, edge, settled, success, degrees, damage, -1
      FROM roll_count_entries WHERE id = OLD.id;
END;
DROP TRIGGER roll_counts_change_from;
CREATE TRIGGER roll_counts_change_from BEFORE UPDATE OF guild_id, campaign_id, created_at,
    user_id, character_id, hidden, kind, die_source, die, total, target, success, degrees, damage
    ON roll_log
WHEN EXISTS (SELECT 1 FROM roll_totals WHERE campaign_id = OLD.campaign_id AND counted)
BEGIN
    INSERT INTO roll_count_changes
    SELECT guild_id, campaign_id, day, user_id, character_id, hidden, kind,
           die_source, die, edge, settled, success, degrees, damage, -1
      FROM roll_count_entries WHERE id = OLD.id;
END;
DROP TRIGGER roll_counts_change_to;
CREATE TRIGGER roll_counts_change_to AFTER UPDATE OF guild_id, campaign_id, created_at,
    user_id, character_id, hidden, kind, die_source, die, total, target, success, degrees, damage
    ON roll_log
WHEN EXISTS (SELECT 1 FROM roll_totals WHERE campaign_id = NEW.campaign_id AND counted)
BEGIN
    INSERT INTO roll_count_changes
    SELECT guild_id, campaign_id, day, user_id, character_id, hidden, kind,
           die_source, die, edge, settled, success, degrees, damage, 1
      FROM roll_count_entries WHERE id = NEW.id;
END;
