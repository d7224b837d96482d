-- Chat users, each linked to exactly one identity-provider account, and their login sessions.

CREATE TABLE users (
  -- 17 characters of [23456789ABCDEFGHJKLMNPQRSTWXYZabcdefghijkmnopqrstuvwxyz], as Rocket.Chat's ids.
  id text PRIMARY KEY CHECK (id ~ '^[A-Za-z0-9]{17}$'),
  -- The configured service name (twitter, google...) and the provider's id of the account.
  -- Accounts are linked by this pair only, never by e-mail address.
  service text NOT NULL,
  provider_user_id text NOT NULL,
  username text NOT NULL CHECK (username ~ '^[a-z0-9._-]{3,32}$'),
  name text NOT NULL,
  email text,
  email_verified boolean NOT NULL DEFAULT false,
  avatar_url text CHECK (avatar_url LIKE 'https://%'),
  utc_offset double precision NOT NULL DEFAULT 0,
  status text NOT NULL DEFAULT 'online'
    CHECK (status IN ('online', 'away', 'busy', 'offline')),
  status_connection text NOT NULL DEFAULT 'online'
    CHECK (status_connection IN ('online', 'away', 'busy', 'offline')),
  active boolean NOT NULL DEFAULT true,
  roles jsonb NOT NULL DEFAULT '["user"]',
  preferences jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT users_identity_key UNIQUE (service, provider_user_id),
  CONSTRAINT users_username_key UNIQUE (username)
);

-- Only the SHA-256 of a token is kept: a copy of this table signs nobody in.
CREATE TABLE sessions (
  token_hash text PRIMARY KEY CHECK (token_hash ~ '^[A-Za-z0-9_-]{43}$'),
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- Issue order: "the oldest token" is the lowest number, even for tokens issued in one millisecond.
  seq bigint GENERATED ALWAYS AS IDENTITY,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);

CREATE INDEX sessions_user_created_idx ON sessions (user_id, seq);
