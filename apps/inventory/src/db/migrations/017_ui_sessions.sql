-- The web interface's sign-in sessions and each user's list preferences (README "Web interface").
--
-- A session is a random 256-bit value in the browser's cookie; only its SHA-256 is stored, so a
-- copy of this table signs nobody in. Kept in the database, a session holds across every
-- instance behind a load balancer, and signing out (or an expiry) ends it everywhere at once.
-- It also records the account's token epoch (users.password_changed_at, which a password
-- change and a deactivation move: migration 010): a session from before the epoch moved is
-- over, exactly as the API's tokens are.

CREATE TABLE ui_sessions (
  id_hash     text PRIMARY KEY,
  user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_epoch bigint NOT NULL,
  -- Sent back in every state-changing form (synchroniser token); random, per session.
  csrf_token  text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL
);
CREATE INDEX ui_sessions_user_id_idx ON ui_sessions (user_id);
CREATE INDEX ui_sessions_expires_at_idx ON ui_sessions (expires_at);

-- The list columns a user chose, per resource (in the order shown).
CREATE TABLE ui_list_columns (
  user_id  uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  resource text NOT NULL,
  columns  text[] NOT NULL CONSTRAINT ui_list_columns_columns_check CHECK (cardinality(columns) BETWEEN 1 AND 64),
  PRIMARY KEY (user_id, resource)
);
