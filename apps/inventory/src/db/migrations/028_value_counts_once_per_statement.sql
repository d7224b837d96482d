-- The value counters of an UPDATE written once per statement, not once per row (README
-- "Performance").
--
-- Migration 018 made the UPDATE trigger a row trigger whose WHEN clause compares the counted
-- columns, so that an update changing none of them runs no trigger function. But a statement
-- changing a counted column of many rows (a batch PATCH of 100 devices' status, an import) then
-- ran the whole upsert once per row: 100 executions, each writing the same few counters again,
-- 12-15 ms of a 35 ms batch at 100,000 devices.
--
-- Now the row trigger keeps its WHEN clause but declares the statement's transition tables,
-- which hold every row the statement changed (row triggers fire when the statement ends). Its
-- first firing in a statement writes the counters of all of them, grouped by key; the other
-- firings of that statement find it done and return. The statement is recognised by the command
-- id (cmin) of the row version it wrote, the same for every row one statement (with all its
-- CTEs) writes and different for every later statement of the transaction; the firing that did
-- the work records it in a setting local to the transaction, undone with it or with a savepoint.
--
-- Rows are paired by id to compare their columns (a key holding no changed column is not
-- built). A row whose id changed pairs with nothing: its old values are taken away and its new
-- ones added, all of their keys. Any pairing gives the same counts, since a key holding no
-- changed column is the same before and after; the pairing only saves building it.

CREATE OR REPLACE FUNCTION install_value_counts(tbl text, counted text[], pairs text[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  sorted text[] := (SELECT array_agg(c ORDER BY c COLLATE "C") FROM unnest(counted) AS c);
  cols text := (SELECT string_agg(format('%I', c), ', ' ORDER BY c COLLATE "C") FROM unnest(counted) AS c);
  all_changed text := (SELECT string_agg(format('true AS %I', 'changed__' || c), ', ')
                       FROM unnest(counted) AS c);
  -- The old and new values of a pair of rows, and whether each column changed between them
  -- (every column, for a row without a pair).
  paired_values text := (SELECT string_agg(format('o.%1$I AS %2$I, n.%1$I AS %3$I', c,
                                                  'old__' || c, 'new__' || c), ', ')
                         FROM unnest(counted) AS c);
  paired_flags text := (SELECT string_agg(format(
                           'o.id IS NULL OR n.id IS NULL OR o.%1$I IS DISTINCT FROM n.%1$I AS %2$I',
                           c, 'changed__' || c), ', ')
                        FROM unnest(counted) AS c);
  old_values text := (SELECT string_agg(format('%I AS %I', 'old__' || c, c), ', ')
                      FROM unnest(counted) AS c);
  new_values text := (SELECT string_agg(format('%I', 'new__' || c), ', ') FROM unnest(counted) AS c);
  flag_columns text := (SELECT string_agg(format('%I', 'changed__' || c), ', ')
                        FROM unnest(counted) AS c);
  any_changed text := (SELECT string_agg(format('%I', 'changed__' || c), ' OR ')
                       FROM unnest(counted) AS c);
  row_changed text := (SELECT string_agg(format('OLD.%1$I IS DISTINCT FROM NEW.%1$I', c), ' OR ')
                       FROM unnest(counted) AS c);
  keys text := value_count_keys_sql(sorted, value_count_array_columns(tbl, counted), pairs, true);
  fn text := format('count_values__%s', tbl);
  -- Names the statement whose counters are written (a custom setting: letters, digits, _).
  done_setting text := format('inventory.value_counts_done__%s', tbl);
  apply text;
BEGIN
  IF tbl !~ '^[a-z_][a-z0-9_]*$' THEN
    RAISE EXCEPTION 'install_value_counts: % is not a plain lower-case table name', tbl;
  END IF;
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', tbl || '_value_counts_insert', tbl);
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', tbl || '_value_counts_delete', tbl);
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', tbl || '_value_counts_update', tbl);
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', tbl || '_value_counts_truncate', tbl);
  EXECUTE format('DROP FUNCTION IF EXISTS %I()', fn);
  -- Applies `changes(<counted columns>, d, changed__<column>...)`: d is +1 for a row (or a
  -- row's new values) added, -1 for one removed.
  apply := format(
    'INSERT INTO value_counts (table_name, key, slot, n)
       SELECT %L, g.key, pg_backend_pid() %% 64, sum(c.d)
       FROM changes AS c CROSS JOIN LATERAL (%s) AS g(key)
       GROUP BY g.key HAVING sum(c.d) <> 0
     ON CONFLICT (table_name, key, slot) DO UPDATE SET n = value_counts.n + excluded.n',
    tbl, keys);
  EXECUTE format($f$
    CREATE FUNCTION %1$I() RETURNS trigger LANGUAGE plpgsql AS $body$
    DECLARE
      written_by text;
    BEGIN
      -- Each branch names only what its trigger provides: the transition tables, and for the
      -- UPDATE row trigger the row it fires for.
      IF TG_OP = 'INSERT' THEN
        WITH changes AS (SELECT %2$s, 1 AS d, %3$s FROM value_rows_new) %4$s;
      ELSIF TG_OP = 'DELETE' THEN
        WITH changes AS (SELECT %2$s, -1 AS d, %3$s FROM value_rows_old) %4$s;
      ELSIF TG_OP = 'UPDATE' THEN
        -- The statement that wrote this row version; the first of its firings counts all of
        -- its rows.
        SELECT cmin::text INTO written_by FROM %5$I WHERE id = NEW.id;
        IF written_by IS NULL THEN
          RAISE EXCEPTION 'value counters of %5$s: the row %% written by this statement is gone',
            NEW.id;
        END IF;
        IF written_by = current_setting(%6$L, true) THEN
          RETURN NULL;
        END IF;
        PERFORM set_config(%6$L, written_by, true);
        WITH paired AS (
               SELECT o.id IS NOT NULL AS had_old, n.id IS NOT NULL AS has_new, %7$s, %8$s
               FROM value_rows_old AS o FULL JOIN value_rows_new AS n ON o.id = n.id),
             moved AS (SELECT * FROM paired WHERE %12$s),
             changes AS (SELECT %9$s, -1 AS d, %11$s FROM moved WHERE had_old
                         UNION ALL SELECT %10$s, 1, %11$s FROM moved WHERE has_new) %4$s;
      ELSE
        DELETE FROM value_counts WHERE table_name = TG_TABLE_NAME;
      END IF;
      RETURN NULL;
    END
    $body$
  $f$, fn, cols, all_changed, apply, tbl, done_setting, paired_values, paired_flags,
     old_values, new_values, flag_columns, any_changed);
  EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS value_rows_new '
                 'FOR EACH STATEMENT EXECUTE FUNCTION %I()', tbl || '_value_counts_insert', tbl, fn);
  EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS value_rows_old '
                 'FOR EACH STATEMENT EXECUTE FUNCTION %I()', tbl || '_value_counts_delete', tbl, fn);
  EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I '
                 'REFERENCING OLD TABLE AS value_rows_old NEW TABLE AS value_rows_new '
                 'FOR EACH ROW WHEN (%s) EXECUTE FUNCTION %I()',
                 tbl || '_value_counts_update', tbl, row_changed, fn);
  EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I '
                 'FOR EACH STATEMENT EXECUTE FUNCTION %I()', tbl || '_value_counts_truncate', tbl, fn);
  INSERT INTO value_counted_tables (table_name, columns, pairs) VALUES (tbl, sorted, pairs)
  ON CONFLICT (table_name) DO UPDATE SET columns = excluded.columns, pairs = excluded.pairs;
  PERFORM recount_values(tbl);
END
$$;

-- Every table with counters gets the new trigger, with what it declared.
DO $$
DECLARE
  counted_table record;
BEGIN
  FOR counted_table IN SELECT table_name, columns, pairs FROM value_counted_tables LOOP
    PERFORM install_value_counts(counted_table.table_name, counted_table.columns,
                                 counted_table.pairs);
  END LOOP;
END
$$;
