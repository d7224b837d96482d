-- The indexes of the common lists (a resource's `commonLists`), made to answer every filter of
-- the list from the index alone and to serve both directions of each sort.
--
-- * Both directions: a list breaks ties by id in the direction of its first sort key (list.ts),
--   so `(filter, sort, id)` read forwards serves ascending and read backwards descending. 019's
--   newest-first `(filter, created_at DESC, id)` served only created_at descending with ids
--   ascending; oldest first gave ids descending, and PostgreSQL sorted every group of equal
--   timestamps (a bulk create gives thousands of devices one created_at) before the page.
-- * Covering: each index INCLUDEs the list's other common filters, so a page filtered on two of
--   them (vendor and role, sorted by hostname) walks to its offset in one index, reading the
--   second filter from the index entry (an index-only scan) instead of fetching every walked row
--   from the table to test it; at 100,000 devices those heap fetches were most of what a varied
--   list cost PostgreSQL.
-- * Id order (a list without `sortby`) gets the same: `(filter, id) INCLUDE (others)`, which
--   replaces migration 001's plain `(filter, id)` index of that column (it serves every query
--   the plain one did).
--
-- One index per (filter, sort) pair and per filter in id order, named
-- <table>_<filter>_<sort>_list_idx; each costs writes an index entry, so only declared filters
-- and sorts get one.

CREATE OR REPLACE FUNCTION create_common_list_indexes(tbl text, filters text[], sorts text[])
RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  f text;
  s text;
  others text;
BEGIN
  FOREACH f IN ARRAY filters LOOP
    SELECT string_agg(format('%I', o), ', ') INTO others
      FROM unnest(filters) AS o WHERE o <> f;
    FOREACH s IN ARRAY sorts || ARRAY['id'] LOOP
      EXECUTE format('DROP INDEX IF EXISTS %I', format('%s_%s_%s_list_idx', tbl, f, s));
      EXECUTE format('CREATE INDEX %I ON %I (%I%s, id)%s',
                     format('%s_%s_%s_list_idx', tbl, f, s), tbl, f,
                     CASE WHEN s = 'id' THEN '' ELSE format(', %I', s) END,
                     CASE WHEN others IS NULL THEN '' ELSE format(' INCLUDE (%s)', others) END);
    END LOOP;
    EXECUTE format('DROP INDEX IF EXISTS %I', format('%s_%s_idx', tbl, f));
  END LOOP;
END
$$;

DROP FUNCTION create_common_list_indexes(text, text[], text[], text[]);

-- What devices.ts declares in `commonLists`.
SELECT create_common_list_indexes('devices', ARRAY['vendor', 'status', 'role'],
                                  ARRAY['hostname', 'created_at']);
