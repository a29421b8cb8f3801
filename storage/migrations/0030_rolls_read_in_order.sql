-- Every roll's two statements made cheaper (issue 30: /attack must not cost more than it did
-- before fights held their own rules). Measured with valgrind's callgrind, SQLite's own
-- instructions (sqlite3_step) on the bench database (100,000 sheets of 15 stats, 1,000
-- campaigns of 1,000 rolls), 3,000 of each statement:
--
-- 1. The roller's read (`roller_context`, and every read of a sheet) lists the campaign's GMs
--    and the sheet's stats and weapons in their order (`position`). Their primary keys are by
--    name, so SQLite sorted each list in a temporary B-tree on every read. These indexes hold
--    each list in its order with the columns read, so the read walks them and sorts nothing:
--    114,000 instructions a read before, 101,600 with them. (A sheet's stat positions are
--    unique, 1, 2, 3..., so the order is the same.)
CREATE INDEX campaign_gms_in_order ON campaign_gms (campaign_id, position, user_id);
CREATE INDEX character_stats_in_order
    ON character_stats (character_id, position, kind, name, value);
CREATE INDEX weapons_in_order
    ON weapons (character_id, position, name, base, attribute, skill, kind);

-- 2. A roll is marked as its session's (0021_sessions, 0027) by the roll's insert itself
--    (storage/sql/common.py's `insert_roll` names the campaign's running session, if it started
--    before the roll), not by a trigger: the trigger's WHEN was asked for every roll, and
--    entering a trigger costs its registers whether its body runs or not. 165,700 instructions
--    an insert in batches of 17 with the trigger, 159,900 without it. The bot's one way of
--    logging a roll is that statement (a crafting roll too); a copy between databases brings
--    each roll's session as it was. Fights and CP entries keep their triggers: they are written
--    far less often.
DROP TRIGGER roll_log_in_session;

-- 3. A roll of a campaign not yet counted (0029) looks for the crossing one time in 1,024, not
--    one in 128: the look reads up to 5,000 entries of the campaign's log, and at one roll in
--    128 that was most of what the counting trigger cost every such roll (158,500 instructions
--    an insert with 128, 155,700 with 1,024, 152,500 with no look at all). A campaign is now
--    counted some 1,000 rolls after its 5,000th on average; /stats reads its log until then,
--    with the same answer. A value set by hand is kept.
UPDATE roll_counting SET check_every = 1024 WHERE check_every = 128;
