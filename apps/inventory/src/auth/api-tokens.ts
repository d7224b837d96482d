import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { AnyDatabase } from '../db/schema.js';
import { unauthorized } from '../errors.js';
import { EXPIRED_TOKEN_MESSAGE, INVALID_TOKEN_MESSAGE } from './tokens.js';

/**
 * API tokens: credentials for systems (a monitoring system posting events), not for people. An
 * admin creates one with a name and narrow scopes, sees it once, and revokes it by deleting it.
 *
 * - The form `nit_` + 43 base64url characters (256 random bits): the prefix tells the guard it
 *   is not a JWT, and lets secret scanners and log reviewers recognise one.
 * - Only an HMAC-SHA256 of the token is stored, keyed with a key derived from the JWT secret: a
 *   copy of the table alone cannot be used, nor checked against guesses. A fast keyed hash is the
 *   right tool for a random 256-bit secret: nobody can enumerate 2^256 candidates, so the slow,
 *   memory-hard argon2 that protects human passwords (guessable, low entropy) would add nothing
 *   but ~20 ms of CPU and 19 MiB of memory to every request a system makes.
 * - A request with one costs a primary-key lookup of its hash (no cache: a revocation applies to
 *   the very next request on every instance), and a write of `last_used_at` at most once a minute.
 */
export const API_TOKEN_PREFIX = 'nit_';
/** What a token may be allowed to do; each route declares the one it accepts (`apiTokenScope`). */
export const API_TOKEN_SCOPES = ['events:write', 'events:read'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

const TOKEN_BYTES = 32;
const TOKEN_FORM = /^nit_[A-Za-z0-9_-]{43}$/;
/** Characters kept in clear (`nit_` and 8 more) to tell tokens apart in lists. */
export const TOKEN_PREFIX_LENGTH = 12;
/** `last_used_at` is written when it is older than this, not on every request. */
export const LAST_USED_RESOLUTION_SECONDS = 60;

export interface ApiTokenPrincipal {
  id: string;
  name: string;
  scopes: readonly ApiTokenScope[];
}

export const isApiToken = (token: string) => token.startsWith(API_TOKEN_PREFIX);

export class ApiTokenService {
  readonly #key: Buffer;

  constructor(
    private readonly db: AnyDatabase,
    jwtSecret: string,
  ) {
    // A key of its own, so the JWT signing key is never used for anything else.
    this.#key = Buffer.from(hkdfSync('sha256', jwtSecret, '', 'inventory api-token hash v1', 32));
  }

  hash(token: string): string {
    return createHmac('sha256', this.#key).update(token).digest('hex');
  }

  /** A new token, its stored hash and its displayable beginning. */
  mint(): { token: string; hash: string; prefix: string } {
    const token = `${API_TOKEN_PREFIX}${randomBytes(TOKEN_BYTES).toString('base64url')}`;
    return { token, hash: this.hash(token), prefix: token.slice(0, TOKEN_PREFIX_LENGTH) };
  }

  /** The token's principal; 401 for a malformed, unknown (revoked) or expired token. */
  async verify(token: string): Promise<ApiTokenPrincipal> {
    if (!TOKEN_FORM.test(token)) throw unauthorized(INVALID_TOKEN_MESSAGE);
    const row = await this.db
      .selectFrom('api_tokens')
      .select([
        'id',
        'name',
        'scopes',
        sql<boolean>`expires_at IS NOT NULL AND expires_at <= now()`.as('expired'),
        sql<boolean>`last_used_at IS NULL OR last_used_at < now() - make_interval(secs => ${LAST_USED_RESOLUTION_SECONDS})`.as(
          'stale',
        ),
      ])
      .where('token_hash', '=', this.hash(token))
      .executeTakeFirst();
    if (!row) throw unauthorized(INVALID_TOKEN_MESSAGE);
    if (row.expired) throw unauthorized(EXPIRED_TOKEN_MESSAGE);
    if (row.stale) {
      await this.db
        .updateTable('api_tokens')
        .set({ last_used_at: sql`now()` })
        .where('id', '=', row.id)
        .execute();
    }
    return { id: String(row.id), name: String(row.name), scopes: row.scopes as ApiTokenScope[] };
  }
}
