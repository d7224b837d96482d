-- What a write's triggers cost: the value counters (migration 014) and the change history
-- (migration 012) do only the work a statement's changes need. Two parts below.

-- ---------------------------------------------------------------------------------------------
-- 1. Value counters that cost a write only what it changed.
--
-- 014's UPDATE trigger ran for every UPDATE statement: it captured both transition tables,
-- compared them as multisets, built every key (single and paired) of each changed row's old and
-- new values, and let the GROUP BY cancel the keys that had not changed. A device with three tags
-- has 28 keys, so a PATCH of its status built 56 to write 14, and a PATCH of its rack position
-- still ran the trigger. Now:
--
-- * the UPDATE trigger is a row trigger whose WHEN clause compares the counted columns: an
--   update that changes none of them runs no trigger function at all (PostgreSQL evaluates the
--   WHEN in the executor, before queueing the event);
-- * a row whose counted values changed writes only the keys holding a column that changed (a
--   status change: the status single and the status pairs; never the vendor's, role's or tags');
-- * pairs are kept only for the combinations the resource declares (`countedPairs` in its
--   definition): the filters users combine, not every pair of every tag with every value.
--
-- INSERT and DELETE keep their statement triggers (one statement for a bulk create). Totals stay
-- exact as before: the counters change in the writing transaction; a filter whose pair is not
-- kept is counted (and its count reused while the table's version holds, list-cache.ts).

-- NULL: every pair of the counted columns (the tables migration 014 installed and nothing since).
ALTER TABLE value_counted_tables ADD COLUMN pairs text[];

-- The keys of one row, as SQL over its columns: one per value of each counted column, one per
-- pair of values of the declared pairs ('a,b' with a < b by byte; 'tags,tags' for two tags of a
-- list). With `flagged`, each key is produced only when a column it holds changed: the row then
-- carries a boolean `changed__<column>` per counted column.
CREATE FUNCTION value_count_keys_sql(counted text[], array_columns text[], pairs text[],
                                     flagged boolean) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  selects text[] := '{}';
  i integer;
  j integer;
  a text;
  b text;
  value_of text;
  from_of text;
  when_of text;
  kept boolean;
BEGIN
  FOR i IN 1 .. cardinality(counted) LOOP
    a := counted[i];
    when_of := CASE WHEN flagged THEN format(' WHERE %I', 'changed__' || a) ELSE '' END;
    IF a = ANY (array_columns) THEN
      selects := selects || (format('SELECT ARRAY[%L, a.v] FROM (SELECT DISTINCT unnest(%I)) AS a(v)',
                                    a, a) || when_of);
      IF pairs IS NULL OR (a || ',' || a) = ANY (pairs) THEN
        selects := selects || (format(
          'SELECT ARRAY[%L, a.v, %L, b.v] FROM (SELECT DISTINCT unnest(%I)) AS a(v), '
          '(SELECT DISTINCT unnest(%I)) AS b(v) WHERE a.v COLLATE "C" < b.v COLLATE "C"',
          a, a, a, a) || CASE WHEN flagged THEN format(' AND %I', 'changed__' || a) ELSE '' END);
      END IF;
    ELSE
      selects := selects || (format('SELECT ARRAY[%L, %I::text]', a, a) || when_of);
    END IF;
    FOR j IN i + 1 .. cardinality(counted) LOOP
      b := counted[j];
      kept := pairs IS NULL OR (a || ',' || b) = ANY (pairs);
      CONTINUE WHEN NOT kept;
      value_of := '';
      from_of := '';
      IF a = ANY (array_columns) THEN
        from_of := format(' FROM (SELECT DISTINCT unnest(%I)) AS a(v)', a);
        value_of := format('ARRAY[%L, a.v', a);
      ELSE
        value_of := format('ARRAY[%L, %I::text', a, a);
      END IF;
      IF b = ANY (array_columns) THEN
        from_of := from_of || CASE WHEN from_of = '' THEN ' FROM ' ELSE ', ' END
                   || format('(SELECT DISTINCT unnest(%I)) AS b(v)', b);
        value_of := value_of || format(', %L, b.v]', b);
      ELSE
        value_of := value_of || format(', %L, %I::text]', b, b);
      END IF;
      selects := selects || ('SELECT ' || value_of || from_of
        || CASE WHEN flagged THEN format(' WHERE %I OR %I', 'changed__' || a, 'changed__' || b)
                ELSE '' END);
    END LOOP;
  END LOOP;
  RETURN array_to_string(selects, ' UNION ALL ');
END
$$;

-- Counts the values of `tbl` afresh under a SHARE lock (held until the transaction ends), for
-- the declared pairs only.
CREATE OR REPLACE FUNCTION recount_values(tbl text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  counted text[];
  kept_pairs text[];
BEGIN
  SELECT columns, pairs INTO counted, kept_pairs FROM value_counted_tables WHERE table_name = tbl;
  IF counted IS NULL THEN RETURN; END IF;
  EXECUTE format('LOCK TABLE %I IN SHARE MODE', tbl);
  DELETE FROM value_counts WHERE table_name = tbl;
  EXECUTE format(
    'INSERT INTO value_counts (table_name, key, slot, n)
       SELECT %L, g.key, -1, count(*) FROM %I AS t CROSS JOIN LATERAL (%s) AS g(key)
       GROUP BY g.key',
    tbl, tbl,
    value_count_keys_sql(counted, value_count_array_columns(tbl, counted), kept_pairs, false));
END
$$;

-- (Re)installs the counters of `counted` and the declared `pairs` on `tbl`: its trigger function
-- (static SQL, prepared once per connection), the triggers, and the counts of the rows there.
CREATE FUNCTION install_value_counts(tbl text, counted text[], pairs text[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  sorted text[] := (SELECT array_agg(c ORDER BY c COLLATE "C") FROM unnest(counted) AS c);
  cols text := (SELECT string_agg(format('%I', c), ', ' ORDER BY c COLLATE "C") FROM unnest(counted) AS c);
  all_changed text := (SELECT string_agg(format('true AS %I', 'changed__' || c), ', ')
                       FROM unnest(counted) AS c);
  old_values text := (SELECT string_agg(format('OLD.%1$I AS %1$I', c), ', ') FROM unnest(counted) AS c);
  new_values text := (SELECT string_agg(format('NEW.%1$I', c), ', ') FROM unnest(counted) AS c);
  flags text := (SELECT string_agg(format('OLD.%1$I IS DISTINCT FROM NEW.%1$I AS %2$I', c,
                                          'changed__' || c), ', ')
                 FROM unnest(counted) AS c);
  row_changed text := (SELECT string_agg(format('OLD.%1$I IS DISTINCT FROM NEW.%1$I', c), ' OR ')
                       FROM unnest(counted) AS c);
  keys text := value_count_keys_sql(sorted, value_count_array_columns(tbl, counted), pairs, true);
  fn text := format('count_values__%s', tbl);
  apply text;
BEGIN
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
    BEGIN
      -- Each branch names only what its trigger provides: the statement triggers' transition
      -- tables, the row trigger's OLD and NEW.
      IF TG_OP = 'INSERT' THEN
        WITH changes AS (SELECT %2$s, 1 AS d, %3$s FROM value_rows_new) %7$s;
      ELSIF TG_OP = 'DELETE' THEN
        WITH changes AS (SELECT %2$s, -1 AS d, %3$s FROM value_rows_old) %7$s;
      ELSIF TG_OP = 'UPDATE' THEN
        WITH changes AS (SELECT %4$s, -1 AS d, %6$s
                         UNION ALL SELECT %5$s, 1, %6$s) %7$s;
      ELSE
        DELETE FROM value_counts WHERE table_name = TG_TABLE_NAME;
      END IF;
      RETURN NULL;
    END
    $body$
  $f$, fn, cols, all_changed, old_values, new_values, flags, apply);
  EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS value_rows_new '
                 'FOR EACH STATEMENT EXECUTE FUNCTION %I()', tbl || '_value_counts_insert', tbl, fn);
  EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS value_rows_old '
                 'FOR EACH STATEMENT EXECUTE FUNCTION %I()', tbl || '_value_counts_delete', tbl, fn);
  EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I FOR EACH ROW WHEN (%s) '
                 'EXECUTE FUNCTION %I()', tbl || '_value_counts_update', tbl, row_changed, fn);
  EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I '
                 'FOR EACH STATEMENT EXECUTE FUNCTION %I()', tbl || '_value_counts_truncate', tbl, fn);
  INSERT INTO value_counted_tables (table_name, columns, pairs) VALUES (tbl, sorted, pairs)
  ON CONFLICT (table_name) DO UPDATE SET columns = excluded.columns, pairs = excluded.pairs;
  PERFORM recount_values(tbl);
END
$$;

-- What devices.ts declares: its counted columns and the pairs users filter by together.
SELECT install_value_counts('devices', ARRAY['location_id', 'role', 'status', 'tags', 'vendor'],
  ARRAY['location_id,status', 'role,status', 'role,vendor', 'status,vendor', 'tags,tags',
        'tags,vendor']);


-- ---------------------------------------------------------------------------------------------
-- 2. The change history's snapshots built from the changed rows' own columns (migration 012 kept).
--
-- 012's trigger turned each old and new row into JSON with to_jsonb, then rewrote every
-- timestamp of both by reading it back from that JSON as text, parsing it and formatting it again
-- (audit_state), and found the changed fields by walking the new snapshot key by key
-- (jsonb_each). That was most of what the history cost a PATCH. Here each audited table gets
-- its own trigger function, generated from its columns when installed (static SQL, planned once
-- per connection): a snapshot is one jsonb_build_object over the row's columns, timestamps
-- formatted straight from their values, hidden columns never named; the changed fields are one
-- comparison per column. The rows written are the same as 012's (same snapshots, same changes,
-- same order, in the writing statement), as test/change-history.test.ts checks on both stores.

-- A row of `target` as the API shows it, as SQL over the alias `alias`: without the hidden
-- columns, timestamps as JavaScript writes them (UTC, milliseconds, "Z"). jsonb_build_object
-- takes at most 100 arguments, so wide tables are built in parts joined with ||.
CREATE FUNCTION audit_snapshot_sql(target regclass, hidden text[], alias text) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT coalesce(string_agg(format('jsonb_build_object(%s)', pairs), ' || ' ORDER BY part),
                  '''{}''::jsonb')
  FROM (
    SELECT part, string_agg(format('%L, %s', attname,
             CASE WHEN atttypid = 'timestamptz'::regtype
                  THEN format('to_char(%I.%I AT TIME ZONE ''UTC'', ''YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'')',
                              alias, attname)
                  ELSE format('%I.%I', alias, attname) END), ', ' ORDER BY attnum) AS pairs
    FROM (SELECT attname::text AS attname, atttypid, attnum,
                 (row_number() OVER (ORDER BY attnum) - 1) / 40 AS part
          FROM pg_attribute
          WHERE attrelid = target AND attnum > 0 AND NOT attisdropped
            AND attname::text <> ALL (hidden)) AS columns
    GROUP BY part
  ) AS parts
$$;

-- The fields that differ between the snapshots `before` and `after` (aliases of jsonb values),
-- as {field: [old, new]}, without the columns every write touches; a hidden column that changed
-- (a password) is named with its values masked, compared on the rows `old_alias`/`new_alias`.
CREATE FUNCTION audit_changes_sql(target regclass, hidden text[], before text, after text,
                                  old_alias text, new_alias text) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT '''{}''::jsonb' || coalesce(string_agg(
           CASE WHEN attname::text = ANY (hidden)
                THEN format(' || CASE WHEN %1$I.%3$I IS DISTINCT FROM %2$I.%3$I '
                            'THEN jsonb_build_object(%4$L, ''["***", "***"]''::jsonb) ELSE ''{}''::jsonb END',
                            old_alias, new_alias, attname, attname)
                ELSE format(' || CASE WHEN %1$s -> %3$L IS DISTINCT FROM %2$s -> %3$L '
                            'THEN jsonb_build_object(%3$L, jsonb_build_array(%1$s -> %3$L, %2$s -> %3$L)) '
                            'ELSE ''{}''::jsonb END', before, after, attname::text) END,
           '' ORDER BY attnum), '')
  FROM pg_attribute
  WHERE attrelid = target AND attnum > 0 AND NOT attisdropped
    AND attname::text NOT IN ('id', 'created_at', 'updated_at')
$$;

-- Attaches the history to a table, or replaces 012's on it: one generated function and one
-- trigger per event (a trigger with transition tables may have only one). A migration adding a
-- resource calls it for its table, after its columns.
CREATE OR REPLACE FUNCTION audit_record_changes_of(target regclass, resource text,
                                                   hidden text[] DEFAULT '{}')
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  table_name text := (SELECT relname FROM pg_class WHERE oid = target);
  fn text := format('audit_changes__%s', table_name);
  columns text := format('INSERT INTO audit_logs (id, user_id, username, action, resource_type, '
                         'resource_id, prechange, postchange, changes, request_id, client_ip)');
  actor_columns text := '(actor ->> ''user_id'')::uuid, actor ->> ''username''';
  request_columns text := 'actor ->> ''request_id'', actor ->> ''client_ip''';
BEGIN
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %s', table_name || '_audit_insert', target);
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %s', table_name || '_audit_update', target);
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %s', table_name || '_audit_delete', target);
  EXECUTE format('DROP FUNCTION IF EXISTS %I()', fn);
  EXECUTE format($f$
    CREATE FUNCTION %1$I() RETURNS trigger LANGUAGE plpgsql AS $body$
    DECLARE
      actor jsonb := nullif(current_setting('inventory.actor', true), '')::jsonb;
      update_action text := 'update';
    BEGIN
      -- A change made without an actor (psql, a migration, a bulk load) is not audited.
      IF actor IS NULL THEN
        RETURN NULL;
      END IF;
      IF TG_OP = 'INSERT' THEN
        %2$s
        SELECT inventory_uuidv7(), %3$s, 'create', %4$L, n.id::text, NULL, s.state,
               audit_changed_fields(NULL, s.state), %5$s
        FROM new_rows AS n, LATERAL (SELECT %6$s AS state OFFSET 0) AS s
        ORDER BY n.id;
      ELSIF TG_OP = 'UPDATE' THEN
        -- The record the request names is replaced (PUT) or updated (PATCH); records a foreign
        -- key's action changed are updated.
        IF actor ->> 'resource' = %4$L AND actor ->> 'action' = 'replace' THEN
          update_action := 'replace';
        END IF;
        %2$s
        SELECT inventory_uuidv7(), %3$s, update_action, %4$L, n.id::text, b.state, a.state, %8$s,
               %5$s
        FROM new_rows AS n
        JOIN old_rows AS o ON o.id = n.id,
        -- OFFSET 0: each snapshot built once per row, not again wherever it is used.
        LATERAL (SELECT %7$s AS state OFFSET 0) AS b,
        LATERAL (SELECT %6$s AS state OFFSET 0) AS a
        ORDER BY n.id;
      ELSE
        %2$s
        SELECT inventory_uuidv7(), %3$s, 'delete', %4$L, o.id::text, s.state, NULL,
               audit_changed_fields(s.state, NULL), %5$s
        FROM old_rows AS o, LATERAL (SELECT %7$s AS state OFFSET 0) AS s
        ORDER BY o.id;
      END IF;
      RETURN NULL;
    END
    $body$
  $f$, fn, columns, actor_columns, resource, request_columns,
       audit_snapshot_sql(target, hidden, 'n'), audit_snapshot_sql(target, hidden, 'o'),
       audit_changes_sql(target, hidden, 'b.state', 'a.state', 'o', 'n'));
  EXECUTE format(
    'CREATE TRIGGER %I AFTER INSERT ON %s REFERENCING NEW TABLE AS new_rows '
    'FOR EACH STATEMENT EXECUTE FUNCTION %I()', table_name || '_audit_insert', target, fn);
  EXECUTE format(
    'CREATE TRIGGER %I AFTER UPDATE ON %s REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows '
    'FOR EACH STATEMENT EXECUTE FUNCTION %I()', table_name || '_audit_update', target, fn);
  EXECUTE format(
    'CREATE TRIGGER %I AFTER DELETE ON %s REFERENCING OLD TABLE AS old_rows '
    'FOR EACH STATEMENT EXECUTE FUNCTION %I()', table_name || '_audit_delete', target, fn);
END
$$;

-- Every table 012's trigger audits (whichever migration attached it), with the same resource
-- name and hidden columns, read from its trigger's arguments.
DO $$
DECLARE
  audited record;
BEGIN
  FOR audited IN
    SELECT t.tgrelid::regclass AS target,
           split_part(encode(t.tgargs, 'escape'), '\000', 1) AS resource,
           split_part(encode(t.tgargs, 'escape'), '\000', 2)::text[] AS hidden
    FROM pg_trigger AS t
    WHERE t.tgfoid = 'audit_record_changes'::regproc AND t.tgname LIKE '%\_audit\_update'
    ORDER BY t.tgrelid::regclass::text
  LOOP
    PERFORM audit_record_changes_of(audited.target, audited.resource, audited.hidden);
  END LOOP;
END
$$;
