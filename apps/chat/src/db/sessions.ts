import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { UserRow } from './users.js';

/** At most this many live tokens per user; issuing one more drops the oldest. */
export const MAX_LIVE_TOKENS = 50;

/** SHA-256 of the token, base64url: what the database keeps instead of the token. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

export interface Session {
  user: UserRow;
  tokenHash: string;
}

export class SessionRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Issues a token of 256 random bits in two statements, without a transaction: the insert, then
   * one delete of the user's expired tokens and of live ones beyond the newest MAX_LIVE_TOKENS.
   * Under READ COMMITTED each delete sees every insert committed before it, and the delete of the
   * last login of a burst runs after every insert, so a burst of concurrent logins ends with at
   * most MAX_LIVE_TOKENS (concurrency.test.ts checks 100 at once). Two round trips instead of a
   * locked transaction's six.
   */
  async issue(userId: string, now: Date, expiresAt: Date): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.db
      .insertInto('sessions')
      .values({
        token_hash: hashToken(token),
        user_id: userId,
        created_at: now,
        expires_at: expiresAt,
      })
      .execute();
    await this.db
      .deleteFrom('sessions')
      .where('user_id', '=', userId)
      .where((eb) =>
        eb.or([
          eb('expires_at', '<=', now),
          eb(
            'token_hash',
            'in',
            eb
              .selectFrom('sessions')
              .select('token_hash')
              .where('user_id', '=', userId)
              .where('expires_at', '>', now)
              .orderBy('seq', 'desc')
              .offset(MAX_LIVE_TOKENS),
          ),
        ]),
      )
      .execute();
    return token;
  }

  /** The session of an unexpired token that belongs to `userId`, with its user. */
  async find(userId: string, token: string, now: Date): Promise<Session | undefined> {
    const tokenHash = hashToken(token);
    const user = await this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .selectAll('users')
      .where('sessions.token_hash', '=', tokenHash)
      .where('sessions.user_id', '=', userId)
      .where('sessions.expires_at', '>', now)
      .executeTakeFirst();
    return user ? { user, tokenHash } : undefined;
  }

  async revoke(tokenHash: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
  }
}
