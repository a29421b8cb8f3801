-- A counter that moves whenever a table that the store caches reads of changes, whoever writes
-- it (this bot, the `python -m storage` CLI, a second process). The store's read cache is
-- valid while the counter stands still. Before, the cache was dropped whenever anything was
-- committed (`PRAGMA data_version`), so under load every roll-log commit emptied it; rolls
-- do not touch these tables, so now they leave it alone.

CREATE TABLE cache_version (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    version INTEGER NOT NULL
);

INSERT INTO cache_version (id, version) VALUES (1, 0);

CREATE TRIGGER cache_campaigns_insert AFTER INSERT ON campaigns
BEGIN UPDATE cache_version SET version = version + 1; END;
CREATE TRIGGER cache_campaigns_update AFTER UPDATE ON campaigns
BEGIN UPDATE cache_version SET version = version + 1; END;
CREATE TRIGGER cache_campaigns_delete AFTER DELETE ON campaigns
BEGIN UPDATE cache_version SET version = version + 1; END;

CREATE TRIGGER cache_campaign_gms_insert AFTER INSERT ON campaign_gms
BEGIN UPDATE cache_version SET version = version + 1; END;
CREATE TRIGGER cache_campaign_gms_update AFTER UPDATE ON campaign_gms
BEGIN UPDATE cache_version SET version = version + 1; END;
CREATE TRIGGER cache_campaign_gms_delete AFTER DELETE ON campaign_gms
BEGIN UPDATE cache_version SET version = version + 1; END;

CREATE TRIGGER cache_channel_bindings_insert AFTER INSERT ON channel_bindings
BEGIN UPDATE cache_version SET version = version + 1; END;
CREATE TRIGGER cache_channel_bindings_update AFTER UPDATE ON channel_bindings
BEGIN UPDATE cache_version SET version = version + 1; END;
CREATE TRIGGER cache_channel_bindings_delete AFTER DELETE ON channel_bindings
BEGIN UPDATE cache_version SET version = version + 1; END;

CREATE TRIGGER cache_characters_insert AFTER INSERT ON characters
BEGIN UPDATE cache_version SET version = version + 1; END;
CREATE TRIGGER cache_characters_update AFTER UPDATE ON characters
BEGIN UPDATE cache_version SET version = version + 1; END;
CREATE TRIGGER cache_characters_delete AFTER DELETE ON characters
BEGIN UPDATE cache_version SET version = version + 1; END;

CREATE TRIGGER cache_character_stats_insert AFTER INSERT ON character_stats
BEGIN UPDATE cache_version SET version = version + 1; END;
CREATE TRIGGER cache_character_stats_update AFTER UPDATE ON character_stats
BEGIN UPDATE cache_version SET version = version + 1; END;
CREATE TRIGGER cache_character_stats_delete AFTER DELETE ON character_stats
BEGIN UPDATE cache_version SET version = version + 1; END;

CREATE TRIGGER cache_weapons_insert AFTER INSERT ON weapons
BEGIN UPDATE cache_version SET version = version + 1; END;
CREATE TRIGGER cache_weapons_update AFTER UPDATE ON weapons
BEGIN UPDATE cache_version SET version = version + 1; END;
CREATE TRIGGER cache_weapons_delete AFTER DELETE ON weapons
BEGIN UPDATE cache_version SET version = version + 1; END;

CREATE TRIGGER cache_active_characters_insert AFTER INSERT ON active_characters
BEGIN UPDATE cache_version SET version = version + 1; END;
CREATE TRIGGER cache_active_characters_update AFTER UPDATE ON active_characters
BEGIN UPDATE cache_version SET version = version + 1; END;
CREATE TRIGGER cache_active_characters_delete AFTER DELETE ON active_characters
BEGIN UPDATE cache_version SET version = version + 1; END;
