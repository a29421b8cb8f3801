-- A placeholder that keeps the migration numbers gapless on the branch "sessions" alone: the
-- number belongs to another branch. Delete this file when merging (that branch's file takes it).
DELETE FROM meta WHERE 1 = 0;
