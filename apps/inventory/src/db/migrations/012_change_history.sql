-- Change history: every change of a record writes its audit row IN THE SAME
-- STATEMENT, with the record before (`prechange`) and after (`postchange`) and the fields that
-- changed (`changes`: field -> [old, new]).
--
-- The rows are written by triggers, not by the service's statements, because a foreign key's
-- action changes records no statement names: deleting a location sets its devices' location_id
-- to null, deleting a device deletes its interfaces and their links. Statement-level triggers
-- with transition tables write one INSERT per statement however many rows it changed.
--
-- Who made the change comes from the transaction-local setting `inventory.actor` (JSON:
-- user_id, username, request_id, client_ip, and `resource`/`action` of the record the request
-- names, which tells a PUT ('replace') from a PATCH ('update')). The service's write statements
-- set it in the statement itself (`set_config(..., true)`); AFTER triggers fire at the end of
-- the statement and see it. A change made without it (psql, a migration, a bulk load) is not
-- audited, as before this migration.

ALTER TABLE audit_logs ADD COLUMN prechange jsonb;
ALTER TABLE audit_logs ADD COLUMN postchange jsonb;
-- GET /audit-logs?request_id=… (the rows of one request).
CREATE INDEX audit_logs_request_id_idx ON audit_logs (request_id, created_at, id);

-- A UUIDv7 (RFC 9562) as the service makes them (PostgreSQL 18 has uuidv7(); 15 does not):
-- 48 bits of Unix milliseconds, then random bits with the version and variant set.
CREATE FUNCTION inventory_uuidv7() RETURNS uuid LANGUAGE sql VOLATILE AS $$
  SELECT encode(
    set_bit(set_bit(
      overlay(uuid_send(gen_random_uuid())
              PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3)
              FROM 1 FOR 6),
      52, 1), 53, 1),
    'hex')::uuid
$$;

-- The fields that differ between two states of a record, as {field: [old, new]}. The columns
-- every write touches (id, created_at, updated_at) are in the snapshots, not here.
CREATE FUNCTION audit_changed_fields(old_state jsonb, new_state jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(jsonb_object_agg(key, jsonb_build_array(coalesce(old_state -> key, 'null'),
                                                          coalesce(new_state -> key, 'null'))),
                  '{}'::jsonb)
  -- The states of one record have the same fields (or one of them is null).
  FROM jsonb_each(coalesce(new_state, old_state))
  WHERE key NOT IN ('id', 'created_at', 'updated_at')
    AND coalesce(new_state -> key, 'null') IS DISTINCT FROM coalesce(old_state -> key, 'null')
$$;

-- A record as the API shows it: without the hidden columns, timestamps as JavaScript writes them
-- (UTC, milliseconds: "2026-01-02T03:04:05.678Z") instead of to_jsonb's "+00:00" form.
CREATE FUNCTION audit_state(state jsonb, hidden text[], timestamps text[]) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT (state - hidden) || coalesce((
    SELECT jsonb_object_agg(column_name, to_char(
             (state ->> column_name)::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
    FROM unnest(timestamps) AS column_name
    WHERE state ->> column_name IS NOT NULL AND column_name <> ALL (hidden)), '{}'::jsonb)
$$;

-- TG_ARGV[0]: the resource's name (as in its URL); TG_ARGV[1]: columns never written to the
-- trail (a password hash), TG_ARGV[2]: the timestamp columns, as array literals.
CREATE FUNCTION audit_record_changes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  actor jsonb := nullif(current_setting('inventory.actor', true), '')::jsonb;
  resource text := TG_ARGV[0];
  hidden text[] := TG_ARGV[1]::text[];
  timestamps text[] := TG_ARGV[2]::text[];
  update_action text := 'update';
BEGIN
  IF actor IS NULL THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO audit_logs (id, user_id, username, action, resource_type, resource_id, prechange,
                            postchange, changes, request_id, client_ip)
    SELECT inventory_uuidv7(), (actor ->> 'user_id')::uuid, actor ->> 'username', 'create',
           resource, n.id::text, NULL, s.state, audit_changed_fields(NULL, s.state),
           actor ->> 'request_id', actor ->> 'client_ip'
    FROM new_rows AS n, LATERAL (SELECT audit_state(to_jsonb(n), hidden, timestamps) AS state OFFSET 0) AS s
    ORDER BY n.id;
  ELSIF TG_OP = 'UPDATE' THEN
    -- The record the request names is replaced (PUT) or updated (PATCH); records a foreign
    -- key's action changed are updated.
    IF actor ->> 'resource' = resource AND actor ->> 'action' = 'replace' THEN
      update_action := 'replace';
    END IF;
    INSERT INTO audit_logs (id, user_id, username, action, resource_type, resource_id, prechange,
                            postchange, changes, request_id, client_ip)
    SELECT inventory_uuidv7(), (actor ->> 'user_id')::uuid, actor ->> 'username', update_action,
           resource, n.id::text, before.state, after.state,
           -- audit_changed_fields, written out: a function call per row cost a third more.
           (SELECT coalesce(jsonb_object_agg(key, jsonb_build_array(before.state -> key, value)),
                            '{}'::jsonb)
            FROM jsonb_each(after.state)
            WHERE key NOT IN ('id', 'created_at', 'updated_at')
              AND value IS DISTINCT FROM before.state -> key)
             -- A hidden column that changed (a password) is named, its values never.
             || CASE WHEN cardinality(hidden) = 0 THEN '{}'::jsonb ELSE coalesce((
                  SELECT jsonb_object_agg(column_name, '["***", "***"]'::jsonb)
                  FROM unnest(hidden) AS column_name
                  WHERE old_row.raw -> column_name IS DISTINCT FROM new_row.raw -> column_name),
                  '{}'::jsonb) END,
           actor ->> 'request_id', actor ->> 'client_ip'
    FROM new_rows AS n
    JOIN old_rows AS o ON o.id = n.id,
    -- OFFSET 0: each state computed once per row, not again wherever it is used.
    LATERAL (SELECT to_jsonb(o) AS raw OFFSET 0) AS old_row,
    LATERAL (SELECT to_jsonb(n) AS raw OFFSET 0) AS new_row,
    LATERAL (SELECT audit_state(old_row.raw, hidden, timestamps) AS state OFFSET 0) AS before,
    LATERAL (SELECT audit_state(new_row.raw, hidden, timestamps) AS state OFFSET 0) AS after
    ORDER BY n.id;
  ELSE
    INSERT INTO audit_logs (id, user_id, username, action, resource_type, resource_id, prechange,
                            postchange, changes, request_id, client_ip)
    SELECT inventory_uuidv7(), (actor ->> 'user_id')::uuid, actor ->> 'username', 'delete',
           resource, o.id::text, s.state, NULL, audit_changed_fields(s.state, NULL),
           actor ->> 'request_id', actor ->> 'client_ip'
    FROM old_rows AS o, LATERAL (SELECT audit_state(to_jsonb(o), hidden, timestamps) AS state OFFSET 0) AS s
    ORDER BY o.id;
  END IF;
  RETURN NULL;
END
$$;

-- Attaches the history to a table (one trigger per event: a trigger with transition tables
-- may have only one). A migration adding a resource calls it for its table, after its columns
-- (the timestamp columns are read here).
CREATE FUNCTION audit_record_changes_of(target regclass, resource text, hidden text[] DEFAULT '{}')
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  table_name text := (SELECT relname FROM pg_class WHERE oid = target);
  timestamps text[] := ARRAY(
    SELECT attname::text FROM pg_attribute
    WHERE attrelid = target AND atttypid = 'timestamptz'::regtype AND attnum > 0 AND NOT attisdropped
    ORDER BY attnum);
BEGIN
  EXECUTE format(
    'CREATE TRIGGER %I AFTER INSERT ON %s REFERENCING NEW TABLE AS new_rows '
    'FOR EACH STATEMENT EXECUTE FUNCTION audit_record_changes(%L, %L, %L)',
    table_name || '_audit_insert', target, resource, hidden, timestamps);
  EXECUTE format(
    'CREATE TRIGGER %I AFTER UPDATE ON %s REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows '
    'FOR EACH STATEMENT EXECUTE FUNCTION audit_record_changes(%L, %L, %L)',
    table_name || '_audit_update', target, resource, hidden, timestamps);
  EXECUTE format(
    'CREATE TRIGGER %I AFTER DELETE ON %s REFERENCING OLD TABLE AS old_rows '
    'FOR EACH STATEMENT EXECUTE FUNCTION audit_record_changes(%L, %L, %L)',
    table_name || '_audit_delete', target, resource, hidden, timestamps);
END
$$;

SELECT audit_record_changes_of('locations', 'locations');
SELECT audit_record_changes_of('devices', 'devices');
SELECT audit_record_changes_of('interfaces', 'interfaces');
SELECT audit_record_changes_of('vlans', 'vlans');
SELECT audit_record_changes_of('links', 'links');
-- Accounts and API tokens: the columns their API does not show stay out of the snapshots.
SELECT audit_record_changes_of('users', 'users', '{password_hash,password_changed_at}');
SELECT audit_record_changes_of('api_tokens', 'api-tokens', '{token_hash}');
