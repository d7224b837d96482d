import { createSigner, createVerifier, TokenError } from 'fast-jwt';
import { unauthorized } from '../errors.js';
import type { Role } from './roles.js';

export interface TokenClaims {
  /** User id. */
  sub: string;
  username: string;
  role: Role;
  /**
   * The user's password_changed_at in epoch milliseconds when the token was minted: the account's
   * token epoch, moved by a password change and by a deactivation (migration 010). A token whose
   * value differs from the current one predates one of those and is refused.
   */
  pwd: number;
  /**
   * The web interface's session the token was minted for (its id hash, ui/sessions.ts): set only
   * on the tokens the interface mints for its own calls, so a write made for a session that has
   * ended since is refused (migration 020).
   */
  sid?: string;
}

export const INVALID_TOKEN_MESSAGE = 'Unauthorized: Invalid token';
export const EXPIRED_TOKEN_MESSAGE = 'Unauthorized: Token expired';

/** HS256 JSON Web Tokens. The algorithm is pinned on both sides (no `alg: none`, no RSA swap). */
export class TokenService {
  readonly #sign: (claims: TokenClaims) => string;
  readonly #verify: (token: string) => TokenClaims & { exp: number; iat: number };

  constructor(
    secret: string,
    readonly ttlSeconds: number,
  ) {
    this.#sign = createSigner({ key: secret, algorithm: 'HS256', expiresIn: ttlSeconds * 1000 });
    // Verified tokens are remembered (1,000, under fast-jwt's hash of each token), each until
    // its own expiry: a client sends the same token with every request. Revocation does not
    // depend on this: every request still checks the account (auth/guard.ts).
    this.#verify = createVerifier({ key: secret, algorithms: ['HS256'], cache: 1000 });
  }

  sign(claims: TokenClaims): string {
    return this.#sign(claims);
  }

  /** The claims of a valid, unexpired token; a 401 ApiError otherwise. */
  verify(token: string): TokenClaims {
    let claims: TokenClaims;
    try {
      claims = this.#verify(token);
    } catch (error) {
      if (error instanceof TokenError && error.code === TokenError.codes.expired) {
        throw unauthorized(EXPIRED_TOKEN_MESSAGE);
      }
      throw unauthorized(INVALID_TOKEN_MESSAGE);
    }
    if (
      typeof claims.sub !== 'string' ||
      typeof claims.pwd !== 'number' ||
      (claims.sid !== undefined && typeof claims.sid !== 'string')
    ) {
      throw unauthorized(INVALID_TOKEN_MESSAGE);
    }
    return claims;
  }
}
