-- What makes a login credential single-use across instances: ID tokens already accepted, and the
-- pending credentials of the OAuth redirect flow (GET /_oauth/<service>, then POST /api/v1/login
-- with {"oauth": {credentialToken, credentialSecret}}). Expired rows are purged by the service.

-- An ID token signs in once: its issuer and `jti` (or the SHA-256 of the whole token when it has
-- none), kept until the token could no longer be accepted anyway (ID_TOKEN_MAX_AGE).
CREATE TABLE used_id_tokens (
  token_key text PRIMARY KEY CHECK (length(token_key) <= 2048),
  expires_at timestamptz NOT NULL
);
CREATE INDEX used_id_tokens_expires_idx ON used_id_tokens (expires_at);

-- One row per credentialToken (the client's, from the OAuth `state`). A flow the service started
-- itself (GET /_oauth/<service>/authorize) has its PKCE code verifier from the start; the
-- provider's return is handled once (`returned_at`), then the pending credential waits for one
-- login: only the SHA-256 of its credentialSecret is kept, with the identity the provider module
-- verified. `consumed_at` keeps the token from being used again until the row expires.
CREATE TABLE oauth_pending_credentials (
  credential_token text PRIMARY KEY CHECK (credential_token ~ '^[A-Za-z0-9_-]{16,128}$'),
  service text NOT NULL,
  code_verifier text CHECK (code_verifier ~ '^[A-Za-z0-9._~-]{43,128}$'),
  started_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  returned_at timestamptz,
  secret_hash text CHECK (secret_hash ~ '^[A-Za-z0-9_-]{43}$'),
  identity jsonb,
  consumed_at timestamptz
);
CREATE INDEX oauth_pending_credentials_expires_idx ON oauth_pending_credentials (expires_at);
