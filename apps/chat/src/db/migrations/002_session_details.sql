-- What a user sees of their sessions (GET /api/v1/sessions/list): a public id that is not the
-- token, when it was last used, and from where it was opened. Rows from before this migration get
-- their creation time as "last used" and no client details.

ALTER TABLE sessions
  ADD COLUMN id uuid NOT NULL DEFAULT gen_random_uuid(),
  -- A default, so that an instance still running the previous version can go on inserting.
  ADD COLUMN last_used_at timestamptz NOT NULL DEFAULT now(),
  -- The client address and User-Agent of the login that opened the session, as the service saw
  -- them; bounded so a client cannot store megabytes per session.
  ADD COLUMN client_address text CHECK (length(client_address) <= 64),
  ADD COLUMN user_agent text CHECK (length(user_agent) <= 512);

UPDATE sessions SET last_used_at = created_at;

ALTER TABLE sessions ADD CONSTRAINT sessions_id_key UNIQUE (id);
