-- Webhook targets that fail are backed off as a whole (src/webhooks/worker.ts): after a failed
-- attempt, none of the webhook's deliveries is claimed before `until`, which grows with each
-- further failure and is cleared by a success. A receiver that never answers then holds no
-- delivery slot most of the time, and its retries no longer go first.
CREATE TABLE webhook_target_backoffs (
  webhook_id uuid PRIMARY KEY CONSTRAINT webhook_target_backoffs_webhook_id_fkey
             REFERENCES webhooks (id) ON DELETE CASCADE,
  failures   integer NOT NULL,
  until      timestamptz NOT NULL
);

-- There is always an active admin: deleting, deactivating or demoting the last one is refused
-- here, in the database, so it holds for every path that writes accounts (the API's routes,
-- batches, plain SQL). SQLSTATE IA001 becomes a 409 (src/db/errors.ts). Race-safe: the check
-- takes a transaction-wide advisory lock first, so two transactions removing two different
-- admins run the check one after the other, and the second (its statement taking a new snapshot
-- in READ COMMITTED) sees the first's committed change and is refused. Rows removed earlier by
-- the same statement are visible to a BEFORE ROW trigger, so a batch removing every admin is
-- refused too. `npm run inventory -- create-admin <name>` is the way back that needs no API.
CREATE FUNCTION users_keep_an_admin() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.role <> 'admin' OR OLD.inactive_status THEN
    RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
  END IF;
  IF TG_OP = 'UPDATE' AND NEW.role = 'admin' AND NOT NEW.inactive_status THEN
    RETURN NEW;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('inventory: the last active admin'));
  IF NOT EXISTS (
    SELECT 1 FROM users
    WHERE role = 'admin' AND NOT inactive_status AND id <> OLD.id
  ) THEN
    RAISE EXCEPTION 'The last active admin cannot be deleted, deactivated or demoted: make another account an active admin first'
      USING ERRCODE = 'IA001';
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END;
$$;
CREATE TRIGGER users_keep_an_admin BEFORE UPDATE OF role, inactive_status OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION users_keep_an_admin();
