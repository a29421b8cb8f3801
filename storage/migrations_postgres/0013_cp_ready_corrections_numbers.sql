-- The PostgreSQL twin of storage/migrations/0019_cp_ready_corrections_numbers.sql (read it for
-- why): the ledger's 'ready' and 'correct' entries, its per-character number (existing entries
-- numbered in the order they were written), and where a request's player asked; the same
-- columns in the same order.
ALTER TABLE cp_ledger DROP CONSTRAINT cp_ledger_kind_check;
ALTER TABLE cp_ledger ADD CONSTRAINT cp_ledger_kind_check
    CHECK (kind IN ('award', 'spend', 'undo', 'ready', 'correct'));
ALTER TABLE cp_ledger ADD COLUMN number BIGINT CHECK (number >= 1);
UPDATE cp_ledger AS l SET number = n.number
  FROM (SELECT id, row_number() OVER (PARTITION BY character_id ORDER BY id) AS number
          FROM cp_ledger) AS n
 WHERE n.id = l.id;
ALTER TABLE cp_ledger ALTER COLUMN number SET NOT NULL;
CREATE UNIQUE INDEX cp_ledger_number ON cp_ledger (character_id, number);

ALTER TABLE cp_requests ADD COLUMN asked_channel_id BIGINT;
ALTER TABLE cp_requests ADD COLUMN asked_language TEXT COLLATE "C";
