-- The common lists' sorts on several keys (`commonLists.sorts`: devices by model, then hostname
-- descending) get the indexes a single column's common sort has: one per common filter,
-- `(filter, key <direction>, …, id)`, INCLUDE the other filters (as 021's), and one of their
-- own that INCLUDEs every filter (as 025's for a column's sort).
--
-- Without them a page by model then hostname walked the model index, read each entry's row from
-- the table for its vendor and hostname, and sorted every model's rows by hostname: at 100,000
-- devices, 51 rows of `vendor=Juniper` 500 rows deep passed 58,264 entries and dropped 56,721 of
-- them (33,510 buffers, 20.8 ms); from `(vendor, model, hostname DESC, id)` the same page reads
-- 547 buffers (1.7 ms). In the `mixed` benchmark these sorts were a tenth of the lists and a
-- quarter of PostgreSQL's time.
--
-- A btree index is read forwards or backwards, so each serves its keys' directions and their
-- reverse (model descending, then hostname ascending). Named <table>_<filter>_<keys>_list_idx
-- and <table>_<keys>_list_idx, where <keys> names each key and marks the descending ones
-- (`model_hostname_desc`).
--
-- Migration 004's `(vendor, status, model, hostname DESC, id)` held that order only within a
-- vendor's status: the vendor's index below serves the pair too, testing the status on its
-- entries, so one index fewer is kept by every write.

DROP INDEX IF EXISTS devices_vendor_status_model_hostname_idx;

CREATE FUNCTION create_common_sort_indexes(tbl text, sort_name text, sort_keys text, filters text[])
RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  f text;
  others text;
BEGIN
  FOREACH f IN ARRAY filters LOOP
    SELECT string_agg(format('%I', o), ', ') INTO others
      FROM unnest(filters) AS o WHERE o <> f;
    EXECUTE format('CREATE INDEX %I ON %I (%I, %s, id)%s',
                   format('%s_%s_%s_list_idx', tbl, f, sort_name), tbl, f, sort_keys,
                   CASE WHEN others IS NULL THEN '' ELSE format(' INCLUDE (%s)', others) END);
  END LOOP;
  EXECUTE format('CREATE INDEX %I ON %I (%s, id) INCLUDE (%s)',
                 format('%s_%s_list_idx', tbl, sort_name), tbl, sort_keys,
                 (SELECT string_agg(format('%I', o), ', ') FROM unnest(filters) AS o));
END
$$;

-- What devices.ts declares in `commonLists`.
SELECT create_common_sort_indexes('devices', 'model_hostname_desc', 'model, hostname DESC',
                                  ARRAY['vendor', 'status', 'role']);

DROP FUNCTION create_common_sort_indexes(text, text, text, text[]);
