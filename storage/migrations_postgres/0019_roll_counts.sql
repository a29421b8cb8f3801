-- Roll counts: the PostgreSQL twin of storage/migrations/0025_roll_counts.sql (read it for what
-- each column counts and why); the same columns in the same order. The counts are kept by
-- statement triggers reading the statement's rows as a whole (transition tables), so a batch
-- insert, a retention pass or /privacy forget-me updates each count once per statement, in the
-- statement's transaction. Counts are written in key order, so two transactions counting the
-- same rolls wait for each other instead of deadlocking.

CREATE TABLE roll_counts (
    guild_id     BIGINT  NOT NULL,
    campaign_id  BIGINT  NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    day          TEXT COLLATE "C" NOT NULL,
    user_id      BIGINT  NOT NULL,
    character_id BIGINT  NOT NULL,
    hidden       INTEGER NOT NULL,
    kind         TEXT COLLATE "C" NOT NULL,
    die_source   TEXT COLLATE "C" NOT NULL,
    die          BIGINT  NOT NULL,
    edge         BIGINT  NOT NULL,
    settled      INTEGER NOT NULL,
    success      INTEGER NOT NULL,
    degrees      BIGINT  NOT NULL,
    rolls        BIGINT  NOT NULL,
    damage       BIGINT  NOT NULL
);
CREATE UNIQUE INDEX roll_counts_key ON roll_counts (campaign_id, day, user_id, character_id,
    hidden, kind, die_source, die, edge, settled, success, degrees);

-- A roll's two entries (its day's and all time's) with their key: the one place that says how
-- a roll is counted, for the first fill and the triggers alike.
CREATE FUNCTION wire_roll_count_entries(r roll_log)
    RETURNS TABLE (guild_id BIGINT, campaign_id BIGINT, day TEXT, user_id BIGINT,
                   character_id BIGINT, hidden INTEGER, kind TEXT, die_source TEXT, die BIGINT,
                   edge BIGINT, settled INTEGER, success INTEGER, degrees BIGINT, damage BIGINT)
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
SELECT r.guild_id, r.campaign_id, d.day, r.user_id, coalesce(r.character_id, 0), r.hidden,
       r.kind, r.die_source,
       CASE WHEN r.die IN (1, 20) THEN r.die WHEN r.die BETWEEN 2 AND 19 THEN 2 ELSE 0 END,
       coalesce(r.total - r.die - r.target, 0), (r.target IS NOT NULL)::integer, r.success,
       r.degrees, coalesce(r.damage, 0)
  FROM (VALUES (substr(r.created_at, 1, 10)), ('*')) AS d(day)
$$;

-- The counts of the rolls logged so far.
INSERT INTO roll_counts
SELECT e.guild_id, e.campaign_id, e.day, e.user_id, e.character_id, e.hidden, e.kind,
       e.die_source, e.die, e.edge, e.settled, e.success, e.degrees, count(*), sum(e.damage)
  FROM roll_log AS r, wire_roll_count_entries(r) AS e
 GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13;

-- Uncounts the statement's old rows and counts its new ones (an update does both); a count that
-- falls to none is removed.
CREATE FUNCTION wire_roll_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        UPDATE roll_counts AS c SET rolls = c.rolls - g.rolls, damage = c.damage - g.damage
          FROM (SELECT e.campaign_id, e.day, e.user_id, e.character_id, e.hidden, e.kind,
                       e.die_source, e.die, e.edge, e.settled, e.success, e.degrees,
                       count(*) AS rolls, sum(e.damage) AS damage
                  FROM old_rows AS r, wire_roll_count_entries(r) AS e
                 GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
                 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12) AS g
         WHERE (c.campaign_id, c.day, c.user_id, c.character_id, c.hidden, c.kind, c.die_source,
                c.die, c.edge, c.settled, c.success, c.degrees)
             = (g.campaign_id, g.day, g.user_id, g.character_id, g.hidden, g.kind, g.die_source,
                g.die, g.edge, g.settled, g.success, g.degrees);
        DELETE FROM roll_counts AS c
         WHERE c.rolls = 0
           AND (c.campaign_id, c.day, c.user_id, c.character_id, c.hidden, c.kind, c.die_source,
                c.die, c.edge, c.settled, c.success, c.degrees)
            IN (SELECT e.campaign_id, e.day, e.user_id, e.character_id, e.hidden, e.kind,
                       e.die_source, e.die, e.edge, e.settled, e.success, e.degrees
                  FROM old_rows AS r, wire_roll_count_entries(r) AS e);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO roll_counts
        SELECT e.guild_id, e.campaign_id, e.day, e.user_id, e.character_id, e.hidden, e.kind,
               e.die_source, e.die, e.edge, e.settled, e.success, e.degrees, count(*),
               sum(e.damage)
          FROM new_rows AS r, wire_roll_count_entries(r) AS e
         GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13
         ORDER BY 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13
        ON CONFLICT (campaign_id, day, user_id, character_id, hidden, kind, die_source, die,
                     edge, settled, success, degrees)
        DO UPDATE SET rolls = roll_counts.rolls + excluded.rolls,
                      damage = roll_counts.damage + excluded.damage;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER roll_counts_add AFTER INSERT ON roll_log REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION wire_roll_counts_apply();
CREATE TRIGGER roll_counts_remove AFTER DELETE ON roll_log REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION wire_roll_counts_apply();
CREATE TRIGGER roll_counts_change AFTER UPDATE ON roll_log
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION wire_roll_counts_apply();
