-- Exact counts of the common filters without counting (README "Performance").
--
-- Migration 004 lets a filtered list reuse its count only until the next write to its table, so
-- under a steady trickle of writes every filtered list counted its matching rows again
-- (21,823 index entries for vendor=Cisco at 100,000 devices, about 4 ms of database CPU). Here
-- the writes themselves keep the counts of the low-cardinality columns a resource declares
-- `counted` (resources/list.ts): one counter per value of each such column and per pair of values
-- of two of them (`vendor=Cisco`, `status=active`, `vendor=Cisco&status=active`, ...). A
-- statement trigger with transition tables adds what each INSERT, UPDATE or DELETE statement
-- changed, in the writing transaction, so the sum of a key's counters is exact in every
-- snapshot, like migration 007's row counts, and a list reads it in the same statement as its
-- page. A write that changes no counted value (a rack position, a batch of tag edits) writes no
-- counter at all: the old and new rows are compared as multisets first.
--
-- Counters are spread over writer slots (pg_backend_pid() % 64, as in migration 004) so that
-- concurrent writers of a common value do not queue on one row; slot -1 holds what was there
-- when counting started. Writes that fire no triggers are repaired by recount_table_rows(),
-- which now recounts these too.

CREATE TABLE value_counts (
  table_name text    NOT NULL,
  -- [column, value] or [column_a, value_a, column_b, value_b] with column_a < column_b; values
  -- as their text form (a uuid in lower case, as PostgreSQL writes it).
  key        text[]  NOT NULL,
  slot       integer NOT NULL,
  n          bigint  NOT NULL,
  PRIMARY KEY (table_name, key, slot)
);

-- Which tables keep value counts, and of which columns (sorted): what the app's definitions
-- declare (`counted: true`), checked by test/value-counts.test.ts.
CREATE TABLE value_counted_tables (
  table_name text   PRIMARY KEY,
  columns    text[] NOT NULL
);

-- The keys of one row of `counted`, as SQL over the row's columns: one per value, one per pair
-- of values of two columns. A tag list (`array_columns`) has one value per distinct tag, so it
-- gives a key per tag, per tag and value of another column, and per two of its tags. Columns and
-- tags are ordered by byte (COLLATE "C"), as the app orders them when it builds a key.
CREATE FUNCTION value_count_keys_sql(counted text[], array_columns text[]) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  selects text[] := '{}';
  i integer;
  j integer;
  -- The value of column k in a key, and the FROM item it needs (a tag list is unnested).
  value_of text;
  from_of text;
BEGIN
  FOR i IN 1 .. cardinality(counted) LOOP
    IF counted[i] = ANY (array_columns) THEN
      selects := selects || format('SELECT ARRAY[%L, a.v] FROM (SELECT DISTINCT unnest(%I)) AS a(v)',
                                   counted[i], counted[i]);
      selects := selects || format(
        'SELECT ARRAY[%L, a.v, %L, b.v] FROM (SELECT DISTINCT unnest(%I)) AS a(v), '
        '(SELECT DISTINCT unnest(%I)) AS b(v) WHERE a.v COLLATE "C" < b.v COLLATE "C"',
        counted[i], counted[i], counted[i], counted[i]);
    ELSE
      selects := selects || format('SELECT ARRAY[%L, %I::text]', counted[i], counted[i]);
    END IF;
    FOR j IN i + 1 .. cardinality(counted) LOOP
      value_of := '';
      from_of := '';
      IF counted[i] = ANY (array_columns) THEN
        from_of := format(' FROM (SELECT DISTINCT unnest(%I)) AS a(v)', counted[i]);
        value_of := format('ARRAY[%L, a.v', counted[i]);
      ELSE
        value_of := format('ARRAY[%L, %I::text', counted[i], counted[i]);
      END IF;
      IF counted[j] = ANY (array_columns) THEN
        from_of := from_of || CASE WHEN from_of = '' THEN ' FROM ' ELSE ', ' END
                   || format('(SELECT DISTINCT unnest(%I)) AS b(v)', counted[j]);
        value_of := value_of || format(', %L, b.v]', counted[j]);
      ELSE
        value_of := value_of || format(', %L, %I::text]', counted[j], counted[j]);
      END IF;
      selects := selects || ('SELECT ' || value_of || from_of);
    END LOOP;
  END LOOP;
  RETURN array_to_string(selects, ' UNION ALL ');
END
$$;

-- The tag lists among `counted` columns of `tbl`.
CREATE FUNCTION value_count_array_columns(tbl text, counted text[]) RETURNS text[]
LANGUAGE sql STABLE AS $$
  SELECT coalesce(array_agg(attname::text), '{}') FROM pg_attribute
  WHERE attrelid = tbl::regclass AND attname = ANY (counted) AND atttypid = 'text[]'::regtype
$$;

-- Installs the counters of `counted` on `tbl`: its trigger function (static SQL, so its plans are
-- prepared once per connection), the triggers, and the counts of the rows already there, taken
-- under a SHARE lock so that nobody writes meanwhile.
CREATE FUNCTION install_value_counts(tbl text, counted text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  sorted text[] := (SELECT array_agg(c ORDER BY c COLLATE "C") FROM unnest(counted) AS c);
  cols text := (SELECT string_agg(format('%I', c), ', ' ORDER BY c COLLATE "C") FROM unnest(counted) AS c);
  keys text := value_count_keys_sql(sorted, value_count_array_columns(tbl, counted));
  fn text := format('count_values__%s', tbl);
  apply text;
BEGIN
  -- Applies `changes(<counted columns>, d)`: d is +1 for a row added, -1 for one removed.
  apply := format(
    'INSERT INTO value_counts (table_name, key, slot, n)
       SELECT %L, g.key, pg_backend_pid() %% 64, sum(c.d)
       FROM changes AS c CROSS JOIN LATERAL (%s) AS g(key)
       GROUP BY g.key HAVING sum(c.d) <> 0
     ON CONFLICT (table_name, key, slot) DO UPDATE SET n = value_counts.n + excluded.n',
    tbl, keys);
  EXECUTE format($f$
    CREATE FUNCTION %I() RETURNS trigger LANGUAGE plpgsql AS $body$
    BEGIN
      -- Each branch names only the transition tables its trigger declares.
      IF TG_OP = 'INSERT' THEN
        WITH changes AS (SELECT %2$s, 1 AS d FROM value_rows_new) %3$s;
      ELSIF TG_OP = 'DELETE' THEN
        WITH changes AS (SELECT %2$s, -1 AS d FROM value_rows_old) %3$s;
      ELSIF TG_OP = 'UPDATE' THEN
        -- Only what the statement changed: rows whose counted values stayed are in both sides.
        WITH changes AS (
          SELECT *, -1 AS d FROM (SELECT %2$s FROM value_rows_old
                                  EXCEPT ALL SELECT %2$s FROM value_rows_new) AS removed
          UNION ALL
          SELECT *, 1 AS d FROM (SELECT %2$s FROM value_rows_new
                                 EXCEPT ALL SELECT %2$s FROM value_rows_old) AS added)
        %3$s;
      ELSE
        DELETE FROM value_counts WHERE table_name = TG_TABLE_NAME;
      END IF;
      RETURN NULL;
    END
    $body$
  $f$, fn, cols, apply);
  EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS value_rows_new '
                 'FOR EACH STATEMENT EXECUTE FUNCTION %I()', tbl || '_value_counts_insert', tbl, fn);
  EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS value_rows_old '
                 'FOR EACH STATEMENT EXECUTE FUNCTION %I()', tbl || '_value_counts_delete', tbl, fn);
  EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I '
                 'REFERENCING OLD TABLE AS value_rows_old NEW TABLE AS value_rows_new '
                 'FOR EACH STATEMENT EXECUTE FUNCTION %I()', tbl || '_value_counts_update', tbl, fn);
  EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I '
                 'FOR EACH STATEMENT EXECUTE FUNCTION %I()', tbl || '_value_counts_truncate', tbl, fn);
  INSERT INTO value_counted_tables (table_name, columns) VALUES (tbl, sorted);
  PERFORM recount_values(tbl);
END
$$;

-- Counts the values of `tbl` afresh under a SHARE lock (held until the transaction ends).
CREATE FUNCTION recount_values(tbl text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  counted text[] := (SELECT columns FROM value_counted_tables WHERE table_name = tbl);
BEGIN
  IF counted IS NULL THEN RETURN; END IF;
  EXECUTE format('LOCK TABLE %I IN SHARE MODE', tbl);
  DELETE FROM value_counts WHERE table_name = tbl;
  EXECUTE format(
    'INSERT INTO value_counts (table_name, key, slot, n)
       SELECT %L, g.key, -1, count(*) FROM %I AS t CROSS JOIN LATERAL (%s) AS g(key)
       GROUP BY g.key',
    tbl, tbl, value_count_keys_sql(counted, value_count_array_columns(tbl, counted)));
END
$$;

-- Migration 008's repair, now also of the value counts.
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
  PERFORM recount_values(versioned);
  RETURN total;
END
$$;

-- The columns devices.ts declares `counted`: few distinct values, filtered often.
SELECT install_value_counts('devices', ARRAY['location_id', 'role', 'status', 'tags', 'vendor']);
