-- Tells every bot process that a table the store caches reads of has changed, whoever wrote it
-- (this bot, the `python -m storage` CLI, another process, psql): each process LISTENs on
-- wire_cache and empties its read cache when a notification arrives (storage/postgres.py).
-- The PostgreSQL twin of storage/migrations/0009_cache_version.sql. Per statement, not per row:
-- one notification per writing statement at most, and PostgreSQL folds identical ones of a
-- transaction into one, delivered when it commits (never for a rollback). The roll log is not
-- among these tables, so logging rolls leaves the caches alone.

CREATE FUNCTION wire_cache_notify() RETURNS trigger
    LANGUAGE plpgsql
AS $$
BEGIN
    PERFORM pg_notify('wire_cache', '');
    RETURN NULL;
END
$$;

CREATE TRIGGER campaigns_cache_notify
    AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON campaigns
    FOR EACH STATEMENT EXECUTE FUNCTION wire_cache_notify();

CREATE TRIGGER campaign_gms_cache_notify
    AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON campaign_gms
    FOR EACH STATEMENT EXECUTE FUNCTION wire_cache_notify();

CREATE TRIGGER channel_bindings_cache_notify
    AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON channel_bindings
    FOR EACH STATEMENT EXECUTE FUNCTION wire_cache_notify();

CREATE TRIGGER characters_cache_notify
    AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON characters
    FOR EACH STATEMENT EXECUTE FUNCTION wire_cache_notify();

CREATE TRIGGER character_stats_cache_notify
    AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON character_stats
    FOR EACH STATEMENT EXECUTE FUNCTION wire_cache_notify();

CREATE TRIGGER weapons_cache_notify
    AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON weapons
    FOR EACH STATEMENT EXECUTE FUNCTION wire_cache_notify();

CREATE TRIGGER active_characters_cache_notify
    AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON active_characters
    FOR EACH STATEMENT EXECUTE FUNCTION wire_cache_notify();
