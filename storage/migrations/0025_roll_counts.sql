-- Roll counts: what /stats needs of the roll log, kept as rolls are logged, so that a campaign's
-- statistics read a few thousand counts instead of scanning millions of rolls (docs/stats.md,
-- "Scale"). Each row counts the rolls alike in everything a figure, a view or privacy depends on:
--   day          the UTC day of the roll ('YYYY-MM-DD'), or '*' for all time (the same rolls
--                counted again: '*' sorts before every digit, so a span of days never meets it);
--   user_id, character_id (0: none), hidden  who rolled, as the views and privacy filter;
--   kind, die_source, die  the die only as far as figures tell it apart: 1, 20, 2 for any other
--                face of a d20, 0 for none (a take 10 or an expression's total);
--   edge         total - die - target (the roll's odds depend on nothing else), 0 without target;
--   settled      1 with a target (a free roll and an attack waiting for its defence have none);
--   success, degrees  the capped result.
-- So the exact luck (each roll's percentile under its own odds, their sum's distribution) comes
-- from the counts as it came from the rolls: nothing is approximated. The triggers below keep
-- the counts in the very statement that inserts, deletes (retention, /privacy forget-me, a
-- campaign's deletion) or changes a roll, so no writer of the log needs to know of them and no
-- count is ever out of step with the log it counts.

CREATE TABLE roll_counts (
    guild_id     INTEGER NOT NULL,
    campaign_id  INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    day          TEXT    NOT NULL,
    user_id      INTEGER NOT NULL,
    character_id INTEGER NOT NULL,
    hidden       INTEGER NOT NULL,
    kind         TEXT    NOT NULL,
    die_source   TEXT    NOT NULL,
    die          INTEGER NOT NULL,
    edge         INTEGER NOT NULL,
    settled      INTEGER NOT NULL,
    success      INTEGER NOT NULL,
    degrees      INTEGER NOT NULL,
    rolls        INTEGER NOT NULL,
    damage       INTEGER NOT NULL
);
CREATE UNIQUE INDEX roll_counts_key ON roll_counts (campaign_id, day, user_id, character_id,
    hidden, kind, die_source, die, edge, settled, success, degrees);

-- Each roll's two entries (its day's and all time's) with their key, as the triggers and the
-- first fill count them: the one place that says how a roll is counted.
CREATE VIEW roll_count_entries AS
SELECT r.id, r.guild_id, r.campaign_id,
       CASE t.all_time WHEN 1 THEN '*' ELSE substr(r.created_at, 1, 10) END AS day,
       r.user_id, coalesce(r.character_id, 0) AS character_id, r.hidden, r.kind, r.die_source,
       CASE WHEN r.die IN (1, 20) THEN r.die WHEN r.die BETWEEN 2 AND 19 THEN 2 ELSE 0 END AS die,
       coalesce(r.total - r.die - r.target, 0) AS edge, r.target IS NOT NULL AS settled,
       r.success, r.degrees, coalesce(r.damage, 0) AS damage
  FROM roll_log AS r CROSS JOIN (SELECT 0 AS all_time UNION ALL SELECT 1) AS t;

-- The counts of the rolls logged so far.
INSERT INTO roll_counts
SELECT guild_id, campaign_id, day, user_id, character_id, hidden, kind,
           die_source, die, edge, settled, success, degrees,
       count(*), sum(damage)
  FROM roll_count_entries
 GROUP BY campaign_id, day, user_id, character_id, hidden, kind,
           die_source, die, edge, settled, success, degrees;

-- An entry counted (sign 1) or uncounted (-1): every trigger on the log writes a roll's two
-- entries here with their keys, and this table's own trigger applies each to its count by the
-- key's index (a count that falls to none removed) and lets it go, so how a change is counted
-- is written once.
CREATE TABLE roll_count_changes (
    guild_id     INTEGER NOT NULL,
    campaign_id  INTEGER NOT NULL,
    day          TEXT    NOT NULL,
    user_id      INTEGER NOT NULL,
    character_id INTEGER NOT NULL,
    hidden       INTEGER NOT NULL,
    kind         TEXT    NOT NULL,
    die_source   TEXT    NOT NULL,
    die          INTEGER NOT NULL,
    edge         INTEGER NOT NULL,
    settled      INTEGER NOT NULL,
    success      INTEGER NOT NULL,
    degrees      INTEGER NOT NULL,
    damage       INTEGER NOT NULL,
    sign         INTEGER NOT NULL CHECK (sign IN (-1, 1))
);
CREATE TRIGGER roll_count_apply AFTER INSERT ON roll_count_changes
BEGIN
    INSERT INTO roll_counts
    SELECT NEW.guild_id, NEW.campaign_id, NEW.day, NEW.user_id, NEW.character_id, NEW.hidden,
           NEW.kind, NEW.die_source, NEW.die, NEW.edge, NEW.settled, NEW.success, NEW.degrees,
           1, NEW.damage
     WHERE NEW.sign = 1
    ON CONFLICT (campaign_id, day, user_id, character_id, hidden, kind,
           die_source, die, edge, settled, success, degrees)
    DO UPDATE SET rolls = rolls + 1, damage = damage + excluded.damage;
    -- Uncounting only lowers counts (a campaign's deletion may have taken them already).
    UPDATE roll_counts SET rolls = rolls - 1, damage = damage - NEW.damage
     WHERE NEW.sign = -1
       AND campaign_id = NEW.campaign_id AND day = NEW.day AND user_id = NEW.user_id
       AND character_id = NEW.character_id AND hidden = NEW.hidden AND kind = NEW.kind
       AND die_source = NEW.die_source AND die = NEW.die AND edge = NEW.edge
       AND settled = NEW.settled AND success = NEW.success AND degrees = NEW.degrees;
    DELETE FROM roll_counts
     WHERE NEW.sign = -1 AND rolls = 0
       AND campaign_id = NEW.campaign_id AND day = NEW.day AND user_id = NEW.user_id
       AND character_id = NEW.character_id AND hidden = NEW.hidden AND kind = NEW.kind
       AND die_source = NEW.die_source AND die = NEW.die AND edge = NEW.edge
       AND settled = NEW.settled AND success = NEW.success AND degrees = NEW.degrees;
    DELETE FROM roll_count_changes WHERE rowid = NEW.rowid;
END;

-- A roll logged is counted; one deleted (retention, /privacy forget-me, a campaign deleted) is
-- uncounted while it is still there to be read; one changed in what it is counted by is
-- uncounted as it was and counted as it is.
CREATE TRIGGER roll_counts_add AFTER INSERT ON roll_log
BEGIN
    INSERT INTO roll_count_changes
    SELECT guild_id, campaign_id, day, user_id, character_id, hidden, kind,
           die_source, die, edge, settled, success, degrees, damage, 1
      FROM roll_count_entries WHERE id = NEW.id;
END;
CREATE TRIGGER roll_counts_remove BEFORE DELETE ON roll_log
BEGIN
    INSERT INTO roll_count_changes
    SELECT guild_id, campaign_id, day, user_id, character_id, hidden, kind,
           die_source, die, edge, settled, success, degrees, damage, -1
      FROM roll_count_entries WHERE id = OLD.id;
END;
CREATE TRIGGER roll_counts_change_from BEFORE UPDATE OF guild_id, campaign_id, created_at,
    user_id, character_id, hidden, kind, die_source, die, total, target, success, degrees, damage
    ON roll_log
BEGIN
    INSERT INTO roll_count_changes
    SELECT guild_id, campaign_id, day, user_id, character_id, hidden, kind,
           die_source, die, edge, settled, success, degrees, damage, -1
      FROM roll_count_entries WHERE id = OLD.id;
END;
CREATE TRIGGER roll_counts_change_to AFTER UPDATE OF guild_id, campaign_id, created_at,
    user_id, character_id, hidden, kind, die_source, die, total, target, success, degrees, damage
    ON roll_log
BEGIN
    INSERT INTO roll_count_changes
    SELECT guild_id, campaign_id, day, user_id, character_id, hidden, kind,
           die_source, die, edge, settled, success, degrees, damage, 1
      FROM roll_count_entries WHERE id = NEW.id;
END;
