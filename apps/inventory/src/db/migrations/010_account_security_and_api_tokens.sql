-- Account security: tokens ended by deactivation, reset codes that end, bounded forgot-password
-- requests, and API tokens for systems.

-- 1. Every token carries its account's password_changed_at (claim `pwd`) and is refused once the
--    value moves (src/auth/guard.ts): the column is the account's token epoch. It now moves on a
--    deactivation too, so that reactivating an account does not revive the tokens it had, and it
--    only ever moves forward, by at least a millisecond (tokens carry milliseconds), so no update
--    can bring an old token back. A trigger, so that a deactivation by plain SQL counts as well.
-- 2. A change of password or e-mail address, and a deactivation, delete the account's pending
--    password-reset codes: a code mailed to an old address, or asked for before the owner chose
--    a new password, or before an admin locked the account, is dead.
CREATE FUNCTION users_end_credentials() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_WHEN = 'BEFORE' THEN
    IF NEW.password_changed_at IS DISTINCT FROM OLD.password_changed_at
       OR (NEW.inactive_status AND NOT OLD.inactive_status) THEN
      NEW.password_changed_at := date_trunc('milliseconds', greatest(
        CASE WHEN NEW.password_changed_at IS DISTINCT FROM OLD.password_changed_at
             THEN NEW.password_changed_at ELSE clock_timestamp() END,
        OLD.password_changed_at + interval '1 millisecond'));
    END IF;
    RETURN NEW;
  END IF;
  IF NEW.password_changed_at IS DISTINCT FROM OLD.password_changed_at
     OR NEW.email IS DISTINCT FROM OLD.email
     OR (NEW.inactive_status AND NOT OLD.inactive_status) THEN
    DELETE FROM password_reset_codes WHERE user_id = NEW.id;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER users_end_credentials_before BEFORE UPDATE ON users
  FOR EACH ROW EXECUTE FUNCTION users_end_credentials();
CREATE TRIGGER users_end_credentials_after AFTER UPDATE ON users
  FOR EACH ROW EXECUTE FUNCTION users_end_credentials();

-- 3. Expired codes are purged (by forgot-password, see src/users/password-reset.ts).
CREATE INDEX password_reset_codes_expires_at_idx ON password_reset_codes (expires_at);

-- 4. What bounds forgot-password's e-mails and the owner's attempts at names already taken,
--    counted here so that every instance sharing the database shares the budgets: one row per
--    counted event, `kind` the budget, `subject` what it is counted against (an account id, a
--    client address). Rows older than their window are deleted as budgets are checked.
CREATE TABLE account_throttle (
  kind       text NOT NULL,
  subject    text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX account_throttle_subject_idx ON account_throttle (kind, subject, created_at);
CREATE INDEX account_throttle_created_at_idx ON account_throttle (created_at);

-- 5. API tokens: credentials for systems (monitoring posting events), not people. Only an
--    HMAC-SHA256 of the token is stored (keyed with a key derived from the JWT secret), with its
--    first characters to recognise it by; the token itself is shown once, at creation.
CREATE TABLE api_tokens (
  id           uuid PRIMARY KEY,
  name         text NOT NULL,
  scopes       text[] NOT NULL
               CONSTRAINT api_tokens_scopes_check
               CHECK (cardinality(scopes) > 0 AND scopes <@ ARRAY['events:write', 'events:read']::text[]),
  token_hash   text NOT NULL CONSTRAINT api_tokens_token_hash_key UNIQUE,
  token_prefix text NOT NULL,
  created_by   uuid,
  expires_at   timestamptz,
  last_used_at timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX api_tokens_created_at_idx ON api_tokens (created_at, id);
CREATE INDEX api_tokens_name_idx ON api_tokens (name, id);
