-- An OpenID Connect flow the service starts itself (GET /_oauth/<service>/authorize) sends a random
-- `nonce` in its authorization request, and the ID token its code is exchanged for must carry it:
-- that binds the token to the flow that asked for it, even at a provider that ignores PKCE (a code
-- leaked from someone else's flow and brought back under a flow of one's own is refused). Erased
-- once the code is exchanged, like the PKCE verifier. A flow started before this migration has
-- none, and its return is refused (the person starts again).
ALTER TABLE oauth_pending_credentials
  ADD COLUMN nonce text CHECK (nonce ~ '^[A-Za-z0-9_-]{22,128}$');
