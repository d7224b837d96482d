-- The history rows of a create and of a delete name their changes without calling a SQL function
-- (README "Performance").
--
-- A created or deleted record's changes (each field it holds, against null) came from
-- audit_changed_fields, a SQL function with a FROM clause, which PostgreSQL cannot inline: every
-- statement that called it parsed, analysed and planned the function's query again before running
-- it once per row. In a profile of POST /devices that was a tenth of the database's time. The
-- trigger functions now hold the same query as a subquery of their own statement, planned once per
-- connection with it; an update's changes were already written out per column (018).
--
-- What is written is unchanged: the same fields and [old, new] pairs (test/write-triggers.test.ts
-- compares them with audit_changed_fields, which stays for the accounts' history). Only
-- install_write_triggers changes, and every table of the API gets its triggers again from it,
-- with the arguments migration 022 gave.

CREATE OR REPLACE FUNCTION install_write_triggers(target regclass, resource text DEFAULT NULL,
                                                  hidden text[] DEFAULT '{}')
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  tbl text := (SELECT relname FROM pg_class WHERE oid = target);
  fn text := format('write_triggers__%s', tbl);
  versioned boolean;
  -- The upsert of 007's bump_table_version, with the statement's row delta.
  bump text := 'INSERT INTO table_versions (table_name, slot, version, row_count) '
               'SELECT %L, pg_backend_pid() %% 64, 1, %s '
               'ON CONFLICT (table_name, slot) DO UPDATE '
               'SET version = table_versions.version + 1, '
               'row_count = table_versions.row_count + excluded.row_count;';
  bump_insert text := '';
  bump_update text := '';
  bump_delete text := '';
  history_insert text := '';
  history_update text := '';
  history_delete text := '';
  columns text := 'INSERT INTO audit_logs (id, user_id, username, action, resource_type, '
                  'resource_id, prechange, postchange, changes, request_id, client_ip)';
  actor_columns text := '(actor ->> ''user_id'')::uuid, actor ->> ''username''';
  request_columns text := 'actor ->> ''request_id'', actor ->> ''client_ip''';
  -- audit_changed_fields(NULL, s.state) for a create, (s.state, NULL) for a delete, written out:
  -- the same fields and [old, new] pairs, planned with the statement (%s: the pair).
  written_out_changes text :=
    '(SELECT coalesce(jsonb_object_agg(f.key, jsonb_build_array(%s)), ''{}''::jsonb) '
    'FROM jsonb_each(s.state) AS f '
    'WHERE f.key NOT IN (''id'', ''created_at'', ''updated_at'') AND f.value <> ''null''::jsonb)';
BEGIN
  IF tbl = 'users' THEN
    RAISE EXCEPTION 'the accounts keep their own identity check (migration 020)';
  END IF;
  versioned := EXISTS (SELECT 1 FROM table_versions AS v WHERE v.table_name = tbl AND slot = -1);
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %s', tbl || '_audit_insert', target);
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %s', tbl || '_audit_update', target);
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %s', tbl || '_audit_delete', target);
  EXECUTE format('DROP FUNCTION IF EXISTS %I()', 'audit_changes__' || tbl);
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %s', tbl || '_principal', target);
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %s', tbl || '_version_insert', target);
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %s', tbl || '_version_update', target);
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %s', tbl || '_version_delete', target);
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %s', tbl || '_written_insert', target);
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %s', tbl || '_written_update', target);
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %s', tbl || '_written_delete', target);
  EXECUTE format('DROP FUNCTION IF EXISTS %I()', fn);
  IF versioned THEN
    bump_insert := format(bump, tbl, '(SELECT count(*) FROM new_rows)');
    bump_update := format(bump, tbl, '0');
    bump_delete := format(bump, tbl, '(SELECT -count(*) FROM old_rows)');
  END IF;
  IF resource IS NOT NULL THEN
    -- 018's statements: the same rows, snapshots and changes.
    history_insert := format($h$
        IF actor IS NOT NULL THEN
          %1$s
          SELECT inventory_uuidv7(), %2$s, 'create', %3$L, n.id::text, NULL, s.state,
                 %6$s, %4$s
          FROM new_rows AS n, LATERAL (SELECT %5$s AS state OFFSET 0) AS s
          ORDER BY n.id;
        END IF;$h$,
      columns, actor_columns, resource, request_columns, audit_snapshot_sql(target, hidden, 'n'),
      format(written_out_changes, '''null''::jsonb, f.value'));
    history_update := format($h$
        IF actor IS NOT NULL THEN
          -- The record the request names is replaced (PUT) or updated (PATCH); records a
          -- foreign key's action changed are updated.
          IF actor ->> 'resource' = %3$L AND actor ->> 'action' = 'replace' THEN
            update_action := 'replace';
          END IF;
          %1$s
          SELECT inventory_uuidv7(), %2$s, update_action, %3$L, n.id::text, b.state, a.state,
                 %7$s, %4$s
          FROM new_rows AS n
          JOIN old_rows AS o ON o.id = n.id,
          LATERAL (SELECT %6$s AS state OFFSET 0) AS b,
          LATERAL (SELECT %5$s AS state OFFSET 0) AS a
          ORDER BY n.id;
        END IF;$h$,
      columns, actor_columns, resource, request_columns, audit_snapshot_sql(target, hidden, 'n'),
      audit_snapshot_sql(target, hidden, 'o'),
      audit_changes_sql(target, hidden, 'b.state', 'a.state', 'o', 'n'));
    history_delete := format($h$
        IF actor IS NOT NULL THEN
          %1$s
          SELECT inventory_uuidv7(), %2$s, 'delete', %3$L, o.id::text, s.state, NULL,
                 %6$s, %4$s
          FROM old_rows AS o, LATERAL (SELECT %5$s AS state OFFSET 0) AS s
          ORDER BY o.id;
        END IF;$h$,
      columns, actor_columns, resource, request_columns, audit_snapshot_sql(target, hidden, 'o'),
      format(written_out_changes, 'f.value, ''null''::jsonb'));
  END IF;
  -- Static SQL in each branch: planned once per connection, like 018's functions. Each branch
  -- names only the transition tables its trigger declares.
  EXECUTE format($f$
    CREATE FUNCTION %1$I() RETURNS trigger LANGUAGE plpgsql AS $body$
    DECLARE
      actor jsonb := nullif(current_setting('inventory.actor', true), '')::jsonb;
      update_action text := 'update';
    BEGIN
      -- First: a refused identity costs no further work (its error undoes the statement).
      PERFORM inventory_check_principal_once(actor -> 'principal');
      IF TG_OP = 'INSERT' THEN
        %2$s
        %5$s
      ELSIF TG_OP = 'UPDATE' THEN
        %3$s
        %6$s
      ELSE
        %4$s
        %7$s
      END IF;
      RETURN NULL;
    END
    $body$
  $f$, fn, bump_insert, bump_update, bump_delete, history_insert, history_update, history_delete);
  EXECUTE format(
    'CREATE TRIGGER %I AFTER INSERT ON %s REFERENCING NEW TABLE AS new_rows '
    'FOR EACH STATEMENT EXECUTE FUNCTION %I()', tbl || '_written_insert', target, fn);
  EXECUTE format(
    'CREATE TRIGGER %I AFTER UPDATE ON %s REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows '
    'FOR EACH STATEMENT EXECUTE FUNCTION %I()', tbl || '_written_update', target, fn);
  EXECUTE format(
    'CREATE TRIGGER %I AFTER DELETE ON %s REFERENCING OLD TABLE AS old_rows '
    'FOR EACH STATEMENT EXECUTE FUNCTION %I()', tbl || '_written_delete', target, fn);
  IF versioned THEN
    -- TRUNCATE has no transition tables: 007's function sets the row count to 0.
    EXECUTE format('DROP TRIGGER IF EXISTS %I ON %s', tbl || '_version_truncate', target);
    EXECUTE format(
      'CREATE TRIGGER %I AFTER TRUNCATE ON %s FOR EACH STATEMENT EXECUTE FUNCTION bump_table_version()',
      tbl || '_version_truncate', target);
  END IF;
END
$$;

SELECT install_write_triggers('locations', 'locations');
SELECT install_write_triggers('devices', 'devices');
SELECT install_write_triggers('interfaces', 'interfaces');
SELECT install_write_triggers('vlans', 'vlans');
SELECT install_write_triggers('links', 'links');
SELECT install_write_triggers('api_tokens', 'api-tokens', '{token_hash}');
SELECT install_write_triggers('webhooks', 'webhooks', '{secret}');
SELECT install_write_triggers('events');
