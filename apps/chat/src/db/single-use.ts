import type { Kysely } from 'kysely';
import type { NormalisedIdentity } from '../providers/types.js';
import type { Database } from './schema.js';

/** ID tokens already accepted (migration 006): each signs in once, on every instance. */
export class UsedIdTokens {
  constructor(private readonly db: Kysely<Database>) {}

  /** Records the key; false when it was recorded before (the token is being replayed). */
  async claim(use: { key: string; expiresAt: Date }): Promise<boolean> {
    const inserted = await this.db
      .insertInto('used_id_tokens')
      .values({ token_key: use.key, expires_at: use.expiresAt })
      .onConflict((conflict) => conflict.column('token_key').doNothing())
      .returning('token_key')
      .executeTakeFirst();
    return inserted !== undefined;
  }
}

/** A pending credential waiting for its login. */
export interface PendingCredential {
  service: string;
  identity: NormalisedIdentity;
}

/**
 * The OAuth redirect flow's state in the database (migration 006), so that any instance can take
 * any step: start (PKCE verifier), the provider's return (once per credentialToken), the login
 * (once per pending credential).
 */
export class PendingCredentials {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * A flow the service starts itself, bound to the browser whose cookie hashes to `browserHash`,
   * with the OpenID Connect `nonce` its authorization request carries (null for a provider without
   * ID tokens); false when the credentialToken is already taken.
   */
  async start(
    credentialToken: string,
    service: string,
    codeVerifier: string,
    nonce: string | null,
    browserHash: string,
    now: Date,
    expiresAt: Date,
  ): Promise<boolean> {
    const inserted = await this.db
      .insertInto('oauth_pending_credentials')
      .values({
        credential_token: credentialToken,
        service,
        code_verifier: codeVerifier,
        nonce,
        browser_hash: browserHash,
        started_at: now,
        expires_at: expiresAt,
      })
      .onConflict((conflict) => conflict.column('credential_token').doNothing())
      .returning('credential_token')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  /**
   * Takes the provider's return for `credentialToken`, once: a flow started here (its PKCE
   * verifier and nonce returned), or a flow the client started itself (a new row, neither). A refusal
   * says why: `another-browser` when the flow was started here in a browser whose cookie hashes
   * otherwise (`browserHash`, null without the cookie; nothing is taken, so the browser that
   * started it can still finish), `another-service` when the token is another service's flow,
   * else `used` when the token was already returned to (a replayed or forged state) or its flow
   * expired.
   */
  async claimReturn(
    credentialToken: string,
    service: string,
    browserHash: string | null,
    startedHereOnly: boolean,
    now: Date,
    expiresAt: Date,
  ): Promise<
    | { codeVerifier: string | null; nonce: string | null }
    | { refused: 'another-browser' | 'another-service' | 'not-started' | 'used' }
  > {
    if (startedHereOnly) {
      const started = await this.db
        .updateTable('oauth_pending_credentials')
        .set({ returned_at: now })
        .where('credential_token', '=', credentialToken)
        .where('service', '=', service)
        .where('returned_at', 'is', null)
        .where('expires_at', '>', now)
        .where('code_verifier', 'is not', null)
        .where('browser_hash', '=', browserHash ?? '')
        .returning(['code_verifier', 'nonce'])
        .executeTakeFirst();
      if (started) return { codeVerifier: started.code_verifier, nonce: started.nonce };
      return { refused: (await this.#refusal(credentialToken, service, now)) ?? 'not-started' };
    }
    const row = await this.db
      .insertInto('oauth_pending_credentials')
      .values({
        credential_token: credentialToken,
        service,
        started_at: now,
        expires_at: expiresAt,
        returned_at: now,
      })
      .onConflict((conflict) =>
        conflict
          .column('credential_token')
          .doUpdateSet({ returned_at: now })
          .where('oauth_pending_credentials.returned_at', 'is', null)
          .where('oauth_pending_credentials.service', '=', service)
          .where('oauth_pending_credentials.expires_at', '>', now)
          .where((row) =>
            row.or([
              row('oauth_pending_credentials.browser_hash', 'is', null),
              row('oauth_pending_credentials.browser_hash', '=', browserHash ?? ''),
            ]),
          ),
      )
      .returning(['code_verifier', 'nonce'])
      .executeTakeFirst();
    if (row) return { codeVerifier: row.code_verifier, nonce: row.nonce };
    return { refused: (await this.#refusal(credentialToken, service, now)) ?? 'used' };
  }

  /**
   * Why a return was refused, when a row says so: `another-service` for a token of another
   * service's flow, `another-browser` for a flow started here and waiting for its return, `used`
   * for any other row of the token; undefined without a row.
   */
  async #refusal(
    credentialToken: string,
    service: string,
    now: Date,
  ): Promise<'another-browser' | 'another-service' | 'used' | undefined> {
    const row = await this.db
      .selectFrom('oauth_pending_credentials')
      .select(['service', 'returned_at', 'expires_at', 'browser_hash'])
      .where('credential_token', '=', credentialToken)
      .executeTakeFirst();
    if (!row) return undefined;
    if (row.service !== service) return 'another-service';
    const waiting =
      row.service === service &&
      row.returned_at === null &&
      row.expires_at > now &&
      row.browser_hash !== null;
    return waiting ? 'another-browser' : 'used';
  }

  /** Stores the verified identity under the hash of the fresh credentialSecret. */
  async complete(
    credentialToken: string,
    secretHash: string,
    identity: NormalisedIdentity,
    expiresAt: Date,
  ): Promise<void> {
    await this.db
      .updateTable('oauth_pending_credentials')
      .set({
        secret_hash: secretHash,
        identity: JSON.stringify(identity),
        expires_at: expiresAt,
        // The verifier and nonce have served; nothing secret stays longer than needed.
        code_verifier: null,
        nonce: null,
      })
      .where('credential_token', '=', credentialToken)
      .execute();
  }

  /** The pending credential of the pair, when it is valid and unused; consumes nothing. */
  async find(
    credentialToken: string,
    secretHash: string,
    now: Date,
  ): Promise<PendingCredential | undefined> {
    const row = await this.db
      .selectFrom('oauth_pending_credentials')
      .select(['service', 'identity'])
      .where('credential_token', '=', credentialToken)
      .where('secret_hash', '=', secretHash)
      .where('consumed_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row ? { service: row.service, identity: revive(row.identity) } : undefined;
  }

  /** Uses the pending credential up; false when another login used it first (or it expired). */
  async consume(credentialToken: string, secretHash: string, now: Date): Promise<boolean> {
    const used = await this.db
      .updateTable('oauth_pending_credentials')
      .set({ consumed_at: now, identity: null })
      .where('credential_token', '=', credentialToken)
      .where('secret_hash', '=', secretHash)
      .where('consumed_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(used.numUpdatedRows) > 0;
  }
}

/** The identity as stored (JSON): dates of `oneTimeUse` come back as strings. */
function revive(stored: unknown): NormalisedIdentity {
  const identity = (typeof stored === 'string' ? JSON.parse(stored) : stored) as NormalisedIdentity;
  return { ...identity, oneTimeUse: undefined };
}

/**
 * How long a redirect flow's row outlives its expiry. Until it goes, its credentialToken cannot be
 * returned to again: without the row, a late or replayed return would be taken for a flow the
 * client started itself. Past it, the provider's authorization code in that return has long
 * expired (OAuth 2.0 advises ten minutes at most), so the provider refuses the replay. Anyone can
 * start flows (within LOGIN_RATE_LIMIT): an hour keeps what they leave behind small.
 */
export const FLOW_TOMBSTONE_MS = 3600 * 1000;

/**
 * Deletes the expired rows of both tables; returns how many went. Redirect flows go an hour
 * after their expiry (FLOW_TOMBSTONE_MS), used ID tokens at theirs (past it, the token is refused as
 * too old anyway).
 */
export async function purgeExpired(db: Kysely<Database>, now: Date): Promise<number> {
  const flowsBefore = new Date(now.getTime() - FLOW_TOMBSTONE_MS);
  // An expired flow keeps only its token: no verifier, nonce, secret or identity waits for nothing.
  await db
    .updateTable('oauth_pending_credentials')
    .set({ code_verifier: null, nonce: null, secret_hash: null, identity: null })
    .where('expires_at', '<=', now)
    .where((row) =>
      row.or([
        row('code_verifier', 'is not', null),
        row('nonce', 'is not', null),
        row('secret_hash', 'is not', null),
        row('identity', 'is not', null),
      ]),
    )
    .execute();
  const [tokens, pending] = await Promise.all([
    db.deleteFrom('used_id_tokens').where('expires_at', '<=', now).executeTakeFirst(),
    db
      .deleteFrom('oauth_pending_credentials')
      .where('expires_at', '<=', flowsBefore)
      .executeTakeFirst(),
  ]);
  return Number(tokens.numDeletedRows) + Number(pending.numDeletedRows);
}
