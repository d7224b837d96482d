-- Every change that can alter the answer to a session check (GET /api/v1/me and every
-- authenticated route) is announced on the channel chat_sessions: the user id as payload, '*' for
-- everything. Each instance's session cache (src/db/session-cache.ts) drops what it holds for that
-- user when the notification arrives. Triggers, not the service's code, announce them, so a change
-- made by another instance or by hand in SQL (an admin deactivating a user:
-- UPDATE users SET active = false) is heard like a logout.

CREATE FUNCTION chat_sessions_user_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('chat_sessions', OLD.id);
  RETURN NULL;
END
$$;

CREATE FUNCTION chat_sessions_session_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('chat_sessions', OLD.user_id);
  RETURN NULL;
END
$$;

CREATE FUNCTION chat_sessions_all_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('chat_sessions', '*');
  RETURN NULL;
END
$$;

-- Any column of a user is part of `me` (and `active` decides whether a token still works).
CREATE TRIGGER users_changed_notify AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION chat_sessions_user_changed();
-- A session that ends, moves or is shortened; "last used" (written once a minute) is not announced.
CREATE TRIGGER sessions_changed_notify AFTER DELETE OR UPDATE OF token_hash, user_id, expires_at ON sessions
  FOR EACH ROW EXECUTE FUNCTION chat_sessions_session_changed();
CREATE TRIGGER users_truncated_notify AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION chat_sessions_all_changed();
CREATE TRIGGER sessions_truncated_notify AFTER TRUNCATE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION chat_sessions_all_changed();
