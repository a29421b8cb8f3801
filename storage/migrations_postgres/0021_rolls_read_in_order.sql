-- The PostgreSQL twin of storage/migrations/0030_rolls_read_in_order.sql (read it for why):
-- the campaign's GMs and a sheet's stats and weapons kept in their order in an index, so a
-- read of a sheet need not sort them. Where SQLite's migration drops the roll's session
-- trigger, PostgreSQL keeps its own (wire_in_session, a BEFORE trigger that fills the row
-- being written, not a second write).
CREATE INDEX campaign_gms_in_order ON campaign_gms (campaign_id, position, user_id);
CREATE INDEX character_stats_in_order
    ON character_stats (character_id, position, kind, name, value);
CREATE INDEX weapons_in_order
    ON weapons (character_id, position, name, base, attribute, skill, kind);
