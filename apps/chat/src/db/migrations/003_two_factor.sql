-- TOTP two-factor authentication, one row per user who started enabling it.

CREATE TABLE two_factor (
  user_id text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  -- The TOTP secret, encrypted with AES-256-GCM under TWO_FACTOR_KEY and bound to the user id:
  -- "v1.<key id>.<iv>.<tag>.<ciphertext>" (base64url parts). Never stored in clear.
  secret_ciphertext text NOT NULL CHECK (secret_ciphertext ~ '^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$'),
  -- false between "enable" and the confirming first code: logins do not ask for a code yet.
  enabled boolean NOT NULL DEFAULT false,
  -- HMAC-SHA-256 (keyed from TWO_FACTOR_KEY) of each unused backup code; a used code is removed.
  backup_codes jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(backup_codes) = 'array'),
  -- The last 30-second time step whose code was accepted: a code of that step or an earlier one is
  -- refused, by every instance (the check and the update are one statement).
  last_used_step bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  enabled_at timestamptz
);
