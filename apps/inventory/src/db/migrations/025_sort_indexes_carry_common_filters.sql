-- The index of each sortable column, `(column, id)`, now INCLUDEs the resource's common filters
-- (`commonLists.filters`), as the common lists' own indexes include the other filters (021).
--
-- A list sorted by a column the common lists do not declare (last seen, model, an address) and
-- filtered on a common filter walks the sort's index to its page, testing the filter on every
-- row it passes. Each test read the row from the table: at 100,000 devices, a page 2,000 rows
-- deep by last seen among the devices in maintenance passed 22,000 entries and read 22,567
-- buffers (15 ms). With the filters in the index entry the walk reads the index alone (an
-- index-only scan): 246 buffers, 3 ms. Each entry grows by the filters' values; the number of
-- indexes a write keeps is unchanged.
--
-- Not the common filters' columns nor the common sorts' (their list indexes serve them with
-- every common filter, 021), nor a unique column that is never null (a device's hostname: its
-- unique key serves its sort, 023). `(serial_number, id)` takes the usual name,
-- `devices_serial_number_idx`.

CREATE FUNCTION cover_sort_indexes(tbl text, sorts text[], filters text[])
RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  s text;
  carried text := (SELECT string_agg(format('%I', f), ', ') FROM unnest(filters) AS f);
BEGIN
  FOREACH s IN ARRAY sorts LOOP
    EXECUTE format('DROP INDEX IF EXISTS %I', format('%s_%s_idx', tbl, s));
    EXECUTE format('CREATE INDEX %I ON %I (%I, id) INCLUDE (%s)',
                   format('%s_%s_idx', tbl, s), tbl, s, carried);
  END LOOP;
END
$$;

DROP INDEX IF EXISTS devices_serial_number_id_idx;

-- What devices.ts declares: its sortable columns besides the common filters and sorts.
SELECT cover_sort_indexes(
  'devices',
  ARRAY['ip', 'model', 'os', 'os_version', 'serial_number', 'rack_position', 'last_seen'],
  ARRAY['vendor', 'status', 'role']);

DROP FUNCTION cover_sort_indexes(text, text[], text[]);
