-- One trigger function per table and event for what every write of a resource's table must do
-- in its own transaction (README "Performance").
--
-- Until here a single-row PATCH of a device fired six PL/pgSQL trigger functions besides the
-- value counters: the history (018), the table version and row count (004/007), the writer's
-- identity check (020, which called a second function), and, for the history row it wrote, the
-- version of audit_logs and the webhook outbox (013). Each parsed `inventory.actor` again, each
-- statement trigger with transition tables was queued and run on its own, and a statement that
-- wrote several tables (a cascade, a batch) checked the same identity once per table. Now:
--
-- * each table of the API gets one generated statement trigger function per event,
--   `write_triggers__<table>`, doing in order: the identity check, the table's version and row
--   count, the history rows. `inventory.actor` is parsed once;
-- * the identity is checked once per transaction: the rows the check reads stay locked (FOR
--   SHARE) until the transaction ends, so a second check in the same transaction could only
--   repeat the first's answer. `inventory.principal_checked` (transaction-local, undone with a
--   rolled-back subtransaction like the locks themselves) remembers which principal was checked;
--   a statement changing accounts always checks again, and forgets it, since it may have changed
--   the principal's own account;
-- * the history row's INSERT fires one trigger on audit_logs (version, row count and outbox)
--   instead of two.
--
-- What is written is unchanged: the same history rows and snapshots (018's generated SQL), the
-- same counts, the same outbox rows, all in the writing statement. The accounts table keeps its
-- own triggers (its identity check judges the principal's row as it was before the statement).

-- The identity check of migration 020, at most once per transaction for one principal.
CREATE FUNCTION inventory_check_principal_once(principal jsonb) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF principal IS NULL OR jsonb_typeof(principal) <> 'object'
     OR current_setting('inventory.principal_checked', true) = principal::text THEN
    RETURN;
  END IF;
  PERFORM inventory_require_principal(principal);
  PERFORM set_config('inventory.principal_checked', principal::text, true);
END;
$$;

-- 020's trigger, kept for the accounts and for any table a later migration checks with
-- inventory_check_principal_on: it honours and, on accounts, clears the marker above.
CREATE OR REPLACE FUNCTION inventory_check_principal() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  principal jsonb := nullif(current_setting('inventory.actor', true), '')::jsonb -> 'principal';
  before users;
BEGIN
  IF principal IS NULL OR jsonb_typeof(principal) <> 'object' THEN
    RETURN NULL;
  END IF;
  IF TG_NARGS > 0 AND TG_ARGV[0] = 'accounts' THEN
    IF principal ? 'user' THEN
      SELECT * INTO before FROM old_rows WHERE id = (principal ->> 'user')::uuid;
    END IF;
    PERFORM inventory_require_principal(principal, before);
    PERFORM set_config('inventory.principal_checked', '', true);
    RETURN NULL;
  END IF;
  PERFORM inventory_check_principal_once(principal);
  RETURN NULL;
END;
$$;

-- Installs the combined triggers on `target`, replacing its history (018), version (004/007)
-- and identity (020) triggers. `resource` NULL: a table without history (events). The version
-- and row count are kept when the table is versioned (its slot -1 row in table_versions).
-- A migration adding a resource calls this (or audit_record_changes_of, below) after its columns.
CREATE FUNCTION install_write_triggers(target regclass, resource text DEFAULT NULL,
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
    -- 018's statements, unchanged: the same rows, snapshots and changes.
    history_insert := format($h$
        IF actor IS NOT NULL THEN
          %1$s
          SELECT inventory_uuidv7(), %2$s, 'create', %3$L, n.id::text, NULL, s.state,
                 audit_changed_fields(NULL, s.state), %4$s
          FROM new_rows AS n, LATERAL (SELECT %5$s AS state OFFSET 0) AS s
          ORDER BY n.id;
        END IF;$h$,
      columns, actor_columns, resource, request_columns, audit_snapshot_sql(target, hidden, 'n'));
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
                 audit_changed_fields(s.state, NULL), %4$s
          FROM old_rows AS o, LATERAL (SELECT %5$s AS state OFFSET 0) AS s
          ORDER BY o.id;
        END IF;$h$,
      columns, actor_columns, resource, request_columns, audit_snapshot_sql(target, hidden, 'o'));
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

-- 018's entry point for a new resource's history now installs the combined triggers.
CREATE OR REPLACE FUNCTION audit_record_changes_of(target regclass, resource text,
                                                   hidden text[] DEFAULT '{}')
RETURNS void LANGUAGE sql AS $$
  SELECT install_write_triggers(target, resource, hidden)
$$;

-- The tables of the API, with the resource names and hidden columns 012 and 013 gave them.
SELECT install_write_triggers('locations', 'locations');
SELECT install_write_triggers('devices', 'devices');
SELECT install_write_triggers('interfaces', 'interfaces');
SELECT install_write_triggers('vlans', 'vlans');
SELECT install_write_triggers('links', 'links');
SELECT install_write_triggers('api_tokens', 'api-tokens', '{token_hash}');
SELECT install_write_triggers('webhooks', 'webhooks', '{secret}');
SELECT install_write_triggers('events');

-- audit_logs: its version and row count and the outbox, in one trigger on INSERT (the history
-- rows' only event on the write path). 013's function, with 007's bump first.
CREATE OR REPLACE FUNCTION enqueue_webhook_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  enqueued bigint;
BEGIN
  INSERT INTO table_versions (table_name, slot, version, row_count)
  SELECT TG_TABLE_NAME, pg_backend_pid() % 64, 1, count(*) FROM inserted_audit_rows
  ON CONFLICT (table_name, slot) DO UPDATE
    SET version = table_versions.version + 1, row_count = table_versions.row_count + excluded.row_count;
  IF NOT EXISTS (SELECT 1 FROM webhooks WHERE enabled) THEN
    RETURN NULL;
  END IF;
  WITH changed AS (
    SELECT n.*,
           CASE n.action WHEN 'create' THEN 'created' WHEN 'delete' THEN 'deleted' ELSE 'updated' END AS event
    FROM inserted_audit_rows AS n
    WHERE n.action IN ('create', 'replace', 'update', 'delete')
      AND n.resource_id IS NOT NULL
      -- Accounts, sessions, tokens and the webhooks themselves are never sent out.
      AND n.resource_type NOT IN ('users', 'sessions', 'api-tokens', 'api_tokens', 'webhooks')
  ), queued AS (
    INSERT INTO webhook_deliveries (id, webhook_id, audit_id, event, resource_type, resource_id, payload, created_at, retry_from)
    SELECT gen_random_uuid(), w.id, c.id, c.event, c.resource_type, c.resource_id,
           jsonb_build_object(
             'event', c.event,
             'resource', c.resource_type,
             'id', c.resource_id,
             'timestamp', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
             'request_id', c.request_id,
             'username', c.username,
             'data', c.postchange,
             'snapshots', jsonb_build_object('prechange', c.prechange, 'postchange', c.postchange),
             'changes', c.changes),
           c.created_at, c.created_at
    FROM changed AS c
    JOIN webhooks AS w
      ON w.enabled
     AND c.event = ANY (w.events)
     AND (cardinality(w.resources) = 0 OR c.resource_type = ANY (w.resources))
     AND (w.filter IS NULL OR COALESCE(c.postchange, c.prechange) @> w.filter)
    ORDER BY c.created_at, c.id, w.id
    RETURNING 1
  )
  SELECT count(*) INTO enqueued FROM queued;
  -- No NOTIFY here (013): the notification lock would make concurrent writes commit one at a time.
  RETURN NULL;
END
$$;
DROP TRIGGER audit_logs_version_insert ON audit_logs;
DROP TRIGGER audit_logs_webhooks ON audit_logs;
CREATE TRIGGER audit_logs_inserted AFTER INSERT ON audit_logs
  REFERENCING NEW TABLE AS inserted_audit_rows
  FOR EACH STATEMENT EXECUTE FUNCTION enqueue_webhook_deliveries();
