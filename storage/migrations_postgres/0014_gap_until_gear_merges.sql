-- A placeholder that keeps the migration numbers gapless on the branch "gear" alone: the
-- number belongs to another branch. Delete this file when merging (that branch's file takes it).
DROP TABLE IF EXISTS gap_until_gear_merges;
