-- Every change to an account is announced on the channel `inventory_users` (payload: the
-- user's id; `*` when the table is truncated), so that each instance can keep the rows its
-- authentication reads in memory and still forget a changed one within milliseconds, whoever
-- changed it: this instance, another one, or plain SQL (see src/auth/user-cache.ts).
-- NOTIFY is transactional: listeners hear of a change once it is committed, never of one that
-- was rolled back.

CREATE FUNCTION notify_user_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('inventory_users', '*');
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('inventory_users', OLD.id::text);
  ELSE
    PERFORM pg_notify('inventory_users', NEW.id::text);
    -- An UPDATE that changes the id itself leaves no row under the old one.
    IF TG_OP = 'UPDATE' AND OLD.id <> NEW.id THEN
      PERFORM pg_notify('inventory_users', OLD.id::text);
    END IF;
  END IF;
  RETURN NULL;
END
$$;

-- Every row operation, inserts included: what a cache keeps is then its own business.
CREATE TRIGGER users_notify_change AFTER INSERT OR UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION notify_user_change();
CREATE TRIGGER users_notify_truncate AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION notify_user_change();
