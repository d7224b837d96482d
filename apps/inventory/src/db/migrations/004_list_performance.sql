-- What keeps lists fast at 100,000 devices (see the README's "Performance" section).
--
-- 1. Composite indexes for filters combined with sorts: one index serves the filter, the order
--    and the tie-breaker, so a page is a short index range and its count an index-only scan.
-- 2. Table versions, so that an exact total_count can be reused instead of counted again: every
--    statement that writes a listed table bumps a counter of that table in the same transaction.
--    The sum of a table's counters changes with every committed write and with nothing else, so a
--    count taken when the sum was S is still exact while a list sees the same S (the list reads
--    the sum in the same statement, hence the same snapshot, as its page).

CREATE INDEX devices_vendor_status_model_hostname_idx
  ON devices (vendor, status, model, hostname DESC, id);
-- hostname and serial_number are unique, but a sort on them still ends with id.
CREATE INDEX devices_hostname_id_idx ON devices (hostname, id);
CREATE INDEX devices_serial_number_id_idx ON devices (serial_number, id);

-- One row per table and writer slot: concurrent writers (one transaction per connection) bump
-- rows of their own instead of queuing on one hot row. The row with slot -1 marks a table as
-- versioned; a list over a table without it never reuses a count.
CREATE TABLE table_versions (
  table_name text    NOT NULL,
  slot       integer NOT NULL,
  version    bigint  NOT NULL,
  PRIMARY KEY (table_name, slot)
);

CREATE FUNCTION bump_table_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO table_versions (table_name, slot, version)
  VALUES (TG_TABLE_NAME, pg_backend_pid() % 64, 1)
  ON CONFLICT (table_name, slot) DO UPDATE SET version = table_versions.version + 1;
  RETURN NULL;
END
$$;

DO $$
DECLARE
  listed text;
BEGIN
  FOREACH listed IN ARRAY ARRAY['locations', 'devices', 'interfaces', 'vlans', 'links', 'users',
                                'events', 'audit_logs']
  LOOP
    INSERT INTO table_versions (table_name, slot, version) VALUES (listed, -1, 1);
    -- Statement level: a batch of 1000 rows is one bump, and TRUNCATE is covered too.
    EXECUTE format(
      'CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I '
      'FOR EACH STATEMENT EXECUTE FUNCTION bump_table_version()',
      listed || '_version', listed);
  END LOOP;
END
$$;
