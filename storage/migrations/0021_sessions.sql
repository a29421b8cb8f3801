-- Sessions (issue #33): a campaign's evenings planned in Discord, answered, reminded, played and
-- recapped. `start_at` is UTC text (storage.rows.utc_text), so text order is time order.
-- `reminded_for` / `nudged_for` hold the start the reminder / the day-before ping was sent for:
-- claiming one is a compare-and-set that writes it (UPDATE ... WHERE reminded_for IS NOT
-- start_at RETURNING), so two processes or a restart never send it twice, and a moved session
-- (a new start_at) is due again. AUTOINCREMENT: buttons name a session's id, never reused.

CREATE TABLE sessions (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id  INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    title        TEXT    NOT NULL,
    start_at     TEXT    NOT NULL,
    minutes      INTEGER NOT NULL CHECK (minutes > 0),
    channel_id   INTEGER NOT NULL,
    event_id     INTEGER,
    state        TEXT    NOT NULL DEFAULT 'planned'
                 CHECK (state IN ('planned', 'running', 'ended', 'cancelled')),
    reminded_for TEXT,
    nudged_for   TEXT,
    started_at   TEXT,
    ended_at     TEXT,
    thread_id    INTEGER,
    recap        TEXT,
    -- When the recap's panel awarded CP to who played: once a session (NULL: not yet).
    awarded_at   TEXT,
    created_by   INTEGER NOT NULL,
    created_at   TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX sessions_by_campaign ON sessions (campaign_id, start_at);
CREATE INDEX sessions_planned ON sessions (start_at) WHERE state = 'planned';
CREATE INDEX sessions_by_event ON sessions (event_id) WHERE event_id IS NOT NULL;
-- At most one session of a campaign runs at a time: what it marks is unambiguous.
CREATE UNIQUE INDEX sessions_one_running ON sessions (campaign_id) WHERE state = 'running';

-- Who comes: one answer per user and session, changeable.
CREATE TABLE session_answers (
    session_id  INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    user_id     INTEGER NOT NULL,
    answer      TEXT    NOT NULL CHECK (answer IN ('coming', 'maybe', 'not')),
    answered_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (session_id, user_id)
);

-- A campaign's session settings: the zone starts are typed in (NULL: UTC), the reminder's lead
-- in minutes (NULL: 15), and whether a day before the players who have not answered are pinged.
CREATE TABLE session_settings (
    campaign_id  INTEGER PRIMARY KEY REFERENCES campaigns (id) ON DELETE CASCADE,
    zone         TEXT,
    lead_minutes INTEGER CHECK (lead_minutes BETWEEN 0 AND 1440),
    nudge        INTEGER NOT NULL DEFAULT 0 CHECK (nudge IN (0, 1))
);

-- Which session a roll, a fight and a CP entry belong to: set by the database as the row is
-- written while a session of its campaign runs (the triggers below), so no writer of those
-- tables needs to know of sessions; NULL otherwise. A row carrying an older time (an import)
-- stays NULL.
ALTER TABLE roll_log ADD COLUMN session_id INTEGER;
ALTER TABLE fights ADD COLUMN session_id INTEGER;
ALTER TABLE cp_ledger ADD COLUMN session_id INTEGER;
CREATE INDEX roll_log_by_session ON roll_log (session_id, id) WHERE session_id IS NOT NULL;
CREATE INDEX fights_by_session ON fights (session_id) WHERE session_id IS NOT NULL;
CREATE INDEX cp_ledger_by_session ON cp_ledger (session_id) WHERE session_id IS NOT NULL;

CREATE TRIGGER roll_log_in_session AFTER INSERT ON roll_log WHEN NEW.session_id IS NULL
BEGIN
    UPDATE roll_log SET session_id = (
        SELECT s.id FROM sessions AS s WHERE s.campaign_id = NEW.campaign_id
           AND s.state = 'running' AND s.started_at <= NEW.created_at)
     WHERE id = NEW.id;
END;
CREATE TRIGGER fights_in_session AFTER INSERT ON fights WHEN NEW.session_id IS NULL
BEGIN
    UPDATE fights SET session_id = (
        SELECT s.id FROM sessions AS s WHERE s.campaign_id = NEW.campaign_id
           AND s.state = 'running' AND s.started_at <= NEW.created_at)
     WHERE id = NEW.id;
END;
CREATE TRIGGER cp_ledger_in_session AFTER INSERT ON cp_ledger WHEN NEW.session_id IS NULL
BEGIN
    UPDATE cp_ledger SET session_id = (
        SELECT s.id FROM sessions AS s WHERE s.campaign_id = NEW.campaign_id
           AND s.state = 'running' AND s.started_at <= NEW.created_at)
     WHERE id = NEW.id;
END;
