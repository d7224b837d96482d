-- A request is authenticated when its headers arrive (src/auth/guard.ts); its body may arrive
-- seconds later, and meanwhile its account may be deactivated or demoted, its password changed,
-- its API token revoked or its web interface session ended. What it writes must be written by an
-- identity still valid when the write commits, so the check is made again here, in the writing
-- transaction, with the rows it reads locked (FOR SHARE) until that transaction ends:
--
-- * a revocation committed before the check is seen (a locking read under READ COMMITTED reads
--   the newest committed version of the row, waiting for a transaction still changing it);
-- * a revocation made after it waits for the write to commit, so it comes after the write.
--
-- The identity the request was admitted as is `principal` in the transaction-local setting
-- `inventory.actor` (migration 012), which the service's write statements set:
--   {"user": uuid, "role": text, "epoch": ms, "session": text?}   a person (JWT; `session` when
--                                                               the web interface made the call)
--   {"token": uuid, "scope": text}                                an API token
-- The account must still be active, hold the same role (a request admitted for its role is not
-- carried out for another one), and have the same token epoch (users.password_changed_at, which
-- a password change and a deactivation move, migration 010); the token must still exist, be
-- unexpired and hold the scope; the session must still exist and be unexpired.
--
-- A refusal is SQLSTATE IA002 with the message the client gets (a 401, src/db/errors.ts). A write
-- without a principal (the command line, the webhook worker, psql, a sign-in) is not checked.

CREATE FUNCTION inventory_require_principal(principal jsonb, account_before users DEFAULT NULL)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  account users;
BEGIN
  IF principal IS NULL OR jsonb_typeof(principal) <> 'object' THEN
    RETURN;
  END IF;
  IF principal ? 'token' THEN
    PERFORM 1 FROM api_tokens
    WHERE id = (principal ->> 'token')::uuid
      AND (expires_at IS NULL OR expires_at > now())
      AND scopes @> ARRAY[principal ->> 'scope']
    FOR SHARE;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'Unauthorized: the API token was revoked or expired before the request was written (nothing was changed)'
        USING ERRCODE = 'IA002';
    END IF;
    RETURN;
  END IF;
  IF account_before.id IS NOT NULL THEN
    -- The statement changed the account itself (a user deactivating themselves, changing their
    -- own password): it is judged as it was when the statement locked it.
    account := account_before;
  ELSE
    SELECT * INTO account FROM users WHERE id = (principal ->> 'user')::uuid FOR SHARE;
  END IF;
  IF account.id IS NULL
     OR account.inactive_status
     OR account.role IS DISTINCT FROM principal ->> 'role'
     OR floor(extract(epoch FROM account.password_changed_at) * 1000)
        IS DISTINCT FROM (principal ->> 'epoch')::numeric THEN
    RAISE EXCEPTION 'Unauthorized: the account was deactivated, its role or its password changed before the request was written (nothing was changed)'
      USING ERRCODE = 'IA002';
  END IF;
  IF principal ? 'session' THEN
    PERFORM 1 FROM ui_sessions
    WHERE id_hash = principal ->> 'session' AND user_id = account.id AND expires_at > now()
    FOR SHARE;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'Unauthorized: the session ended before the request was written (nothing was changed)'
        USING ERRCODE = 'IA002';
    END IF;
  END IF;
END;
$$;

-- The check after every statement writing a table of the API: statement-level, so one check
-- per statement however many rows it wrote, in the same transaction (its raise undoes the
-- statement). TG_ARGV[0] = 'accounts' on the users table's UPDATE and DELETE triggers, which see
-- the rows as they were (`old_rows`): the principal's own row, if the statement changed it.
CREATE FUNCTION inventory_check_principal() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  principal jsonb := nullif(current_setting('inventory.actor', true), '')::jsonb -> 'principal';
  before users;
BEGIN
  IF principal IS NULL OR jsonb_typeof(principal) <> 'object' THEN
    RETURN NULL;
  END IF;
  IF TG_NARGS > 0 AND TG_ARGV[0] = 'accounts' AND principal ? 'user' THEN
    SELECT * INTO before FROM old_rows WHERE id = (principal ->> 'user')::uuid;
  END IF;
  PERFORM inventory_require_principal(principal, before);
  RETURN NULL;
END;
$$;

CREATE FUNCTION inventory_check_principal_on(target regclass) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  table_name text := (SELECT relname FROM pg_class WHERE oid = target);
BEGIN
  IF table_name = 'users' THEN
    CREATE TRIGGER users_principal_insert AFTER INSERT ON users
      FOR EACH STATEMENT EXECUTE FUNCTION inventory_check_principal();
    CREATE TRIGGER users_principal_update AFTER UPDATE ON users
      REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION inventory_check_principal('accounts');
    CREATE TRIGGER users_principal_delete AFTER DELETE ON users
      REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION inventory_check_principal('accounts');
    RETURN;
  END IF;
  EXECUTE format(
    'CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %s '
    'FOR EACH STATEMENT EXECUTE FUNCTION inventory_check_principal()',
    table_name || '_principal', target);
END;
$$;

-- Every table a resource of the API writes (test/accounts/revoked-mid-request.test.ts checks
-- that each resource's table has the trigger). Multi-statement flows (account flows, metrics)
-- call inventory_require_principal first in their transaction instead.
SELECT inventory_check_principal_on('locations');
SELECT inventory_check_principal_on('devices');
SELECT inventory_check_principal_on('interfaces');
SELECT inventory_check_principal_on('vlans');
SELECT inventory_check_principal_on('links');
SELECT inventory_check_principal_on('users');
SELECT inventory_check_principal_on('api_tokens');
SELECT inventory_check_principal_on('events');
SELECT inventory_check_principal_on('webhooks');
