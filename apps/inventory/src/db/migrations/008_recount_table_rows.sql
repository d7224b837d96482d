-- Repairs the row counts of migration 007 after writes that fired no triggers: rows loaded with
-- `SET session_replication_role = replica`, `pg_restore --data-only --disable-triggers`, or
-- `ALTER TABLE … DISABLE TRIGGER`. Those writes also left the table's version as it was, so the
-- recount bumps it too: every count and page reused under the old version is read again.
--
--   SELECT recount_table_rows('devices');   -- one table, answers its row count
--   SELECT recount_table_rows(table_name) FROM table_versions WHERE slot = -1;   -- every table
--
-- It takes a SHARE lock on the table until the calling transaction ends (writers wait, readers
-- do not), so the count is of a table nobody else is changing.
CREATE OR REPLACE FUNCTION recount_table_rows(versioned text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  total bigint;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM table_versions WHERE table_name = versioned AND slot = -1) THEN
    RAISE EXCEPTION 'recount_table_rows: % is not a table with a maintained row count', versioned;
  END IF;
  EXECUTE format('LOCK TABLE %I IN SHARE MODE', versioned);
  EXECUTE format('SELECT count(*) FROM %I', versioned) INTO total;
  UPDATE table_versions SET row_count = 0 WHERE table_name = versioned;
  UPDATE table_versions SET row_count = total, version = version + 1
  WHERE table_name = versioned AND slot = -1;
  RETURN total;
END
$$;
