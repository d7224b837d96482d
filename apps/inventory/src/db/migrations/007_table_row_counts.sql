-- Exact row counts of the listed tables, kept up to date by the writes themselves, so that an
-- unfiltered list (`GET /devices`, a deep page, `/debug/count`) never counts 100,000 rows, not
-- even right after a write (migration 004's versions only let a count be reused until the next
-- write). NetBox and Nautobot run COUNT(*) on every list; this is what they would need instead.
--
-- Each write statement adds the number of rows it inserted or deletes to the same per-slot row
-- of table_versions that it bumps (the slot spreads concurrent writers over 64 rows), inside the
-- writing transaction: a table's row count is the sum of its row_count column, exact in every
-- snapshot, and read in the same statement as the page. Cascaded deletes (a device's interfaces)
-- run as statements of their own and are counted too; TRUNCATE sets the count to 0 (it holds an
-- exclusive lock on the table, so no other transaction has uncommitted rows of it).

ALTER TABLE table_versions ADD COLUMN row_count bigint NOT NULL DEFAULT 0;

CREATE OR REPLACE FUNCTION bump_table_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta bigint := 0;
BEGIN
  -- Each branch names only the transition table its trigger declares (see below).
  IF TG_OP = 'INSERT' THEN
    SELECT count(*) INTO delta FROM inserted_rows;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT -count(*) INTO delta FROM deleted_rows;
  ELSIF TG_OP = 'TRUNCATE' THEN
    UPDATE table_versions SET row_count = 0 WHERE table_name = TG_TABLE_NAME;
  END IF;
  INSERT INTO table_versions (table_name, slot, version, row_count)
  VALUES (TG_TABLE_NAME, pg_backend_pid() % 64, 1, delta)
  ON CONFLICT (table_name, slot) DO UPDATE
    SET version = table_versions.version + 1, row_count = table_versions.row_count + delta;
  RETURN NULL;
END
$$;

DO $$
DECLARE
  versioned text;
BEGIN
  FOR versioned IN SELECT table_name FROM table_versions WHERE slot = -1 LOOP
    -- Transition tables need one trigger per event.
    EXECUTE format('DROP TRIGGER %I ON %I', versioned || '_version', versioned);
    EXECUTE format(
      'CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS inserted_rows '
      'FOR EACH STATEMENT EXECUTE FUNCTION bump_table_version()',
      versioned || '_version_insert', versioned);
    EXECUTE format(
      'CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS deleted_rows '
      'FOR EACH STATEMENT EXECUTE FUNCTION bump_table_version()',
      versioned || '_version_delete', versioned);
    EXECUTE format(
      'CREATE TRIGGER %I AFTER UPDATE OR TRUNCATE ON %I '
      'FOR EACH STATEMENT EXECUTE FUNCTION bump_table_version()',
      versioned || '_version_update', versioned);
    -- The rows already there, counted once, under the lock the migration holds on the table.
    EXECUTE format('LOCK TABLE %I IN SHARE MODE', versioned);
    UPDATE table_versions SET row_count = 0 WHERE table_name = versioned;
    EXECUTE format(
      'UPDATE table_versions SET row_count = (SELECT count(*) FROM %I) '
      'WHERE table_name = %L AND slot = -1', versioned, versioned);
  END LOOP;
END
$$;
