-- A roll of a campaign that is not counted (0028_roll_counts_where_they_pay) writes nothing but
-- itself. 0028 kept each campaign's rolls ever logged in `roll_totals`, updated by every roll,
-- so that the roll reaching `count_from` would know it; that update (with its foreign key check
-- and the trigger on it) and the counting trigger's read of the new row were most of what the
-- counting cost a campaign counted nowhere. Measured with valgrind's callgrind, SQLite's own
-- instructions (sqlite3_step) for rolls inserted in batches of 17 as the bot commits them, on the
-- bench database (1,000 campaigns of 1,000 rolls, none counted): 197,600 a roll with 0028's
-- triggers, 174,000 with these, 155,700 with no counting trigger at all.
--
-- So the crossing is found differently: a roll now and then (one in `check_every`, drawn by
-- SQLite's random(); the tests set it to 1) looks at the length of its campaign's log, at most
-- `count_from` entries of the index roll_log_recent; once the log is that long, that roll marks
-- the campaign counted (`roll_counted`), whose trigger counts the whole log in one statement.
-- A campaign is
-- so counted a little later than at exactly 5,000 rolls, about `check_every` (128) rolls later
-- on average; until then /stats reads its log, as it reads any log under 5,000, and the answer
-- is the same. Every other roll of a campaign not counted passes the trigger's WHEN (one look up
-- in `roll_counted`, one random number) and runs nothing.
--
-- The trigger every roll enters is as small as it can be, because entering a trigger sets up
-- the registers of all its statements whether they run or not: the counting trigger of 0028
-- cost a roll some 10,000 instructions so with its WHEN false. So the log's trigger only hands
-- the roll that passes its WHEN to `roll_count_pending` (always empty between statements, like
-- roll_count_changes), whose trigger does the two steps in order: count this roll if the
-- campaign is counted; then mark the campaign counted if its log is long enough, the mark's own
-- trigger counting the whole log, this roll too. In one trigger and in this order, so the
-- crossing roll is counted once: two triggers on one insert fire in an order SQLite does not
-- promise.

ALTER TABLE roll_counting ADD COLUMN check_every INTEGER NOT NULL DEFAULT 128
    CHECK (check_every >= 1);

-- The campaigns whose rolls are counted.
CREATE TABLE roll_counted (
    campaign_id INTEGER PRIMARY KEY REFERENCES campaigns (id) ON DELETE CASCADE
);
INSERT INTO roll_counted (campaign_id) SELECT campaign_id FROM roll_totals WHERE counted;

DROP TRIGGER roll_counts_add;
DROP TRIGGER roll_totals_counted;
DROP TRIGGER roll_counts_remove;
DROP TRIGGER roll_counts_change_from;
DROP TRIGGER roll_counts_change_to;
DROP TABLE roll_totals;

CREATE TABLE roll_count_pending (
    roll_id     INTEGER PRIMARY KEY,
    campaign_id INTEGER NOT NULL
);

CREATE TRIGGER roll_counts_add AFTER INSERT ON roll_log
WHEN EXISTS (SELECT 1 FROM roll_counted WHERE campaign_id = NEW.campaign_id)
  OR random() % (SELECT check_every FROM roll_counting) = 0
BEGIN
    INSERT INTO roll_count_pending (roll_id, campaign_id) VALUES (NEW.id, NEW.campaign_id);
END;

CREATE TRIGGER roll_count_pending_add AFTER INSERT ON roll_count_pending
BEGIN
    INSERT INTO roll_counts
    SELECT guild_id, campaign_id, day, user_id, character_id, hidden, kind,
           die_source, die, edge, settled, success, degrees, 1, damage
      FROM roll_count_entries
     WHERE id = NEW.roll_id
       AND EXISTS (SELECT 1 FROM roll_counted WHERE campaign_id = NEW.campaign_id)
    ON CONFLICT (campaign_id, day, user_id, character_id, hidden, kind,
           die_source, die, edge, settled, success, degrees)
    DO UPDATE SET rolls = rolls + 1, damage = damage + excluded.damage;
    INSERT INTO roll_counted (campaign_id)
    SELECT NEW.campaign_id
     WHERE NOT EXISTS (SELECT 1 FROM roll_counted WHERE campaign_id = NEW.campaign_id)
       AND (SELECT count(*) FROM (SELECT 1 FROM roll_log WHERE campaign_id = NEW.campaign_id
             LIMIT (SELECT count_from FROM roll_counting)))
           >= (SELECT count_from FROM roll_counting);
    DELETE FROM roll_count_pending WHERE roll_id = NEW.roll_id;
END;

-- The crossing: the campaign's log counted in one statement, the roll that found it too.
CREATE TRIGGER roll_counted_fill AFTER INSERT ON roll_counted
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
END;

-- A roll deleted or changed is uncounted (and recounted) only where its campaign is counted.
CREATE TRIGGER roll_counts_remove BEFORE DELETE ON roll_log
WHEN EXISTS (SELECT 1 FROM roll_counted WHERE campaign_id = OLD.campaign_id)
BEGIN
    INSERT INTO roll_count_changes
    SELECT guild_id, campaign_id, day, user_id, character_id, hidden, kind,
           die_source, die, edge, settled, success, degrees, damage, -1
      FROM roll_count_entries WHERE id = OLD.id;
END;
CREATE TRIGGER roll_counts_change_from BEFORE UPDATE OF guild_id, campaign_id, created_at,
    user_id, character_id, hidden, kind, die_source, die, total, target, success, degrees, damage
    ON roll_log
WHEN EXISTS (SELECT 1 FROM roll_counted WHERE campaign_id = OLD.campaign_id)
BEGIN
    INSERT INTO roll_count_changes
    SELECT guild_id, campaign_id, day, user_id, character_id, hidden, kind,
           die_source, die, edge, settled, success, degrees, damage, -1
      FROM roll_count_entries WHERE id = OLD.id;
END;
CREATE TRIGGER roll_counts_change_to AFTER UPDATE OF guild_id, campaign_id, created_at,
    user_id, character_id, hidden, kind, die_source, die, total, target, success, degrees, damage
    ON roll_log
WHEN EXISTS (SELECT 1 FROM roll_counted WHERE campaign_id = NEW.campaign_id)
BEGIN
    INSERT INTO roll_count_changes
    SELECT guild_id, campaign_id, day, user_id, character_id, hidden, kind,
           die_source, die, edge, settled, success, degrees, damage, 1
      FROM roll_count_entries WHERE id = NEW.id;
END;
