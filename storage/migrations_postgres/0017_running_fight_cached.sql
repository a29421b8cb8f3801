-- The channel's running fight joins the read cache: the PostgreSQL twin of
-- SQLite migration *_running_fight_cached.sql (read it for why). Only what the cached read
-- reads notifies: a fight's start, its end (ended_at), a deletion; a change of turn does not.

CREATE TRIGGER fights_cache_notify
    AFTER INSERT OR UPDATE OF guild_id, channel_id, name, ended_at OR DELETE OR TRUNCATE ON fights
    FOR EACH STATEMENT EXECUTE FUNCTION wire_cache_notify();
