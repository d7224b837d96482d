-- A flow the service starts itself (GET /_oauth/<service>/authorize) is bound to the browser that
-- started it: the SHA-256 of a random cookie set at the start, which the provider's return must
-- carry. Otherwise whoever loads the return address first (it holds the code and the state) gets
-- the credential secret. Flows a client starts at the provider itself have none to check.
ALTER TABLE oauth_pending_credentials
  ADD COLUMN browser_hash text CHECK (browser_hash ~ '^[A-Za-z0-9_-]{43}$');
