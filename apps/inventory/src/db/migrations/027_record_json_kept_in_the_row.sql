-- A record's JSON, as a list page writes it, kept in its row (README "Performance").
--
-- A list page of whole records is written by PostgreSQL (row_to_json of the page's rows, the
-- timestamps through to_char), so the server neither converts nor serialises rows. That writing
-- was most of the statement: at 100,000 devices, `GET /devices?limit=100` with the list cache off
-- answered 2,200 statements a second on this 2-core machine, and 4,400 with the JSON already
-- written, the same bytes. A perf profile of the first put a third of PostgreSQL's time in
-- row_to_json and a tenth in to_char.
--
-- So a resource that declares `storedRecordJson` keeps its record's JSON in a generated column,
-- `_record_json`, computed from the row's own columns whenever a write changes them: an INSERT,
-- an UPDATE, a batch, an import, a foreign key's ON DELETE SET NULL. Being a generated column
-- and not a trigger, it cannot be left stale by a write that fires no triggers. A list asking for
-- every field in the API's order copies it; a list asking for some fields (`fields=`) writes them
-- as before. A write costs one more function call per row, and each row is about 470 bytes wider
-- (at 100,000 devices the table grows from 27 to 71 MB).
--
-- The JSON is the record's fields in the order given, each as row_to_json writes it, the
-- timestamps as a JavaScript Date's toISOString (UTC, milliseconds, "Z"), exactly as the list
-- statement writes them (test/record-json.test.ts compares the two byte for byte, on both
-- stores, after every kind of write). Only columns whose text cannot depend on a setting are
-- accepted: no json or jsonb (PostgreSQL writes their text with spaces, the API without), no
-- floating point (its digits follow extra_float_digits), no intervals or dates (DateStyle,
-- IntervalStyle). That is what lets the function be declared IMMUTABLE, as a generated column
-- requires: to_char is only STABLE because of its localised patterns (TMMonth), which this
-- pattern does not use.
--
-- The history's snapshots are built from the table's columns (018's generated SQL): the generated
-- column is left out of them, as it would be of any later table's.

CREATE OR REPLACE FUNCTION audit_snapshot_sql(target regclass, hidden text[], alias text) RETURNS text
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
          WHERE attrelid = target AND attnum > 0 AND NOT attisdropped AND attgenerated = ''
            AND attname::text <> ALL (hidden)) AS columns
    GROUP BY part
  ) AS parts
$$;

CREATE OR REPLACE FUNCTION audit_changes_sql(target regclass, hidden text[], before text, after text,
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
  WHERE attrelid = target AND attnum > 0 AND NOT attisdropped AND attgenerated = ''
    AND attname::text NOT IN ('id', 'created_at', 'updated_at')
$$;

-- Gives `target` the generated column `_record_json`: `fields` (its columns, in the API's order)
-- as one JSON object. Called again with other fields (a column added to the resource), it
-- replaces the column, which rewrites the table. A migration adding a resource that declares
-- `storedRecordJson` calls it after its columns.
CREATE FUNCTION install_record_json(target regclass, fields text[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  tbl text := (SELECT relname FROM pg_class WHERE oid = target);
  fn text := format('record_json__%s', tbl);
  row_type text := format('record_json_row__%s', tbl);
  field text;
  column_type regtype;
  parameters text[] := '{}';
  attributes text[] := '{}';
  values_of text[] := '{}';
  arguments text[] := '{}';
  n integer;
BEGIN
  IF cardinality(fields) IS NULL OR cardinality(fields) = 0 THEN
    RAISE EXCEPTION 'install_record_json: no fields for %', tbl;
  END IF;
  FOREACH field IN ARRAY fields LOOP
    SELECT atttypid::regtype INTO column_type FROM pg_attribute
      WHERE attrelid = target AND attname = field AND attnum > 0 AND NOT attisdropped
        AND attgenerated = '';
    IF column_type IS NULL THEN
      RAISE EXCEPTION 'install_record_json: % is not a stored column of %', field, tbl;
    END IF;
    IF column_type NOT IN ('uuid'::regtype, 'text'::regtype, 'text[]'::regtype,
                           'inet'::regtype, 'boolean'::regtype, 'integer'::regtype,
                           'bigint'::regtype, 'numeric'::regtype, 'timestamptz'::regtype) THEN
      RAISE EXCEPTION 'install_record_json: %.% is %, whose JSON text could depend on a setting',
        tbl, field, column_type;
    END IF;
    parameters := parameters || column_type::text;
    n := cardinality(parameters);
    IF column_type = 'timestamptz'::regtype THEN
      attributes := attributes || format('%I text', field);
      values_of := values_of
        || format('to_char($%s AT TIME ZONE ''UTC'', ''YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'')', n);
    ELSE
      attributes := attributes || format('%I %s', field, column_type);
      values_of := values_of || format('$%s', n);
    END IF;
    arguments := arguments || format('%I', field);
  END LOOP;
  EXECUTE format('ALTER TABLE %s DROP COLUMN IF EXISTS _record_json', target);
  IF to_regproc(fn) IS NOT NULL THEN
    EXECUTE format('DROP FUNCTION %I', fn);
  END IF;
  IF to_regtype(row_type) IS NOT NULL THEN
    EXECUTE format('DROP TYPE %I', row_type);
  END IF;
  -- The fields' names, for row_to_json: a row of this type is one expression, where a
  -- subquery naming them would be a query. PL/pgSQL evaluates such an expression without
  -- starting the executor and keeps its plan for the connection; a SQL function with this body
  -- is not inlined (it calls STABLE functions), so it was parsed and planned again in every
  -- writing statement, which cost a PATCH a quarter more database CPU.
  EXECUTE format('CREATE TYPE %I AS (%s)', row_type, array_to_string(attributes, ', '));
  EXECUTE format(
    'CREATE FUNCTION %I(%s) RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE '
    'AS $body$ BEGIN RETURN row_to_json(ROW(%s)::%I)::text; END $body$',
    fn, array_to_string(parameters, ', '), array_to_string(values_of, ', '), row_type);
  EXECUTE format(
    'ALTER TABLE %s ADD COLUMN _record_json text GENERATED ALWAYS AS (%I(%s)) STORED',
    target, fn, array_to_string(arguments, ', '));
END
$$;

-- The devices' record, as resources/definitions/devices.ts declares it (`storedRecordJson`).
SELECT install_record_json('devices', ARRAY[
  'id', 'hostname', 'ip', 'vendor', 'model', 'os', 'os_version', 'status', 'role',
  'serial_number', 'rack_position', 'location_id', 'last_seen', 'tags', 'created_at', 'updated_at'
]);
