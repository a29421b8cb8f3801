-- The channel's running fight joins the read cache (storage/sqlite.py): every attack, check and
-- defence asks whether its channel has a running fight, and almost always none has. Read in a
-- transaction of its own that question cost an /attack outside any fight a fifth of its
-- throughput (#30); as a cached point read it costs a dictionary look-up while the counter
-- stands still. Only what that read reads moves the counter: a fight's start (insert), its end
-- (ended_at), and a deletion; a change of turn (round, step, current_id) or of the tracker's
-- message leaves the cache alone, since a fight changes turns far more often than it starts.

CREATE TRIGGER cache_fights_insert AFTER INSERT ON fights
BEGIN UPDATE cache_version SET version = version + 1; END;
CREATE TRIGGER cache_fights_update AFTER UPDATE OF guild_id, channel_id, name, ended_at ON fights
BEGIN UPDATE cache_version SET version = version + 1; END;
CREATE TRIGGER cache_fights_delete AFTER DELETE ON fights
BEGIN UPDATE cache_version SET version = version + 1; END;
