import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { CachedSession, SessionCache } from './session-cache.js';
import type { UserRow } from './users.js';

/** At most this many live tokens per user; issuing one more drops the oldest. */
export const MAX_LIVE_TOKENS = 50;

/** SHA-256 of the token, base64url: what the database keeps instead of the token. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

export interface Session {
  user: UserRow;
  tokenHash: string;
  /** The public id of the session (`sessionId`). */
  sessionId: string;
  expiresAt: Date;
}

/** Where a login came from, kept with its session for the user's session list. */
export interface ClientDetails {
  address: string | undefined;
  userAgent: string | undefined;
}

/** A session as its user (or an admin) sees it: never the token or its hash. */
export interface SessionInfo {
  sessionId: string;
  userId: string;
  createdAt: Date;
  lastUsedAt: Date;
  expiresAt: Date;
  clientAddress: string | null;
  userAgent: string | null;
}

/**
 * "Last used" is written at most this often per session: a busy client does not turn every
 * authenticated request into a write.
 */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** Bounds of the client details kept (the columns' CHECKs): longer values are cut. */
const MAX_ADDRESS = 64;
const MAX_USER_AGENT = 512;

/** Control characters never reach the table (a User-Agent is shown to the user later). */
const printable = (value: string | undefined, max: number) =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  value === undefined ? null : value.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, max) || null;

const toSession = (entry: CachedSession): Session => ({
  user: entry.user,
  tokenHash: entry.tokenHash,
  sessionId: entry.sessionId,
  expiresAt: entry.expiresAt,
});

export class SessionRepository {
  /** `cache`: valid sessions kept between checks (see SessionCache); none: every check reads. */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly cache?: SessionCache,
  ) {}

  /**
   * The session of `token` when the cache holds it valid and it belongs to `userId`: known right
   * without a statement. Undefined says nothing (not cached, or not this user's): use `find`.
   */
  cached(userId: string, token: string, now: Date): CachedSession | undefined {
    const entry = this.cache?.get(hashToken(token), now.getTime());
    return entry?.user.id === userId ? entry : undefined;
  }

  /** Marks a cached session used (a write at most once per LAST_USED_RESOLUTION_MS); returns it. */
  async touch(entry: CachedSession, now: Date): Promise<Session> {
    if (now.getTime() - entry.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
      await this.#markUsed(entry.tokenHash, now);
      entry.lastUsedAt = now;
    }
    return toSession(entry);
  }

  /** Drops what the cache holds for the user (its sessions or profile changed). */
  forgetUser(userId: string): void {
    this.cache?.invalidateUser(userId);
  }

  /**
   * Issues a token of 256 random bits in two statements, without a transaction: the insert, then
   * one delete of the user's expired tokens and of live ones beyond the newest MAX_LIVE_TOKENS.
   * Under READ COMMITTED each delete sees every insert committed before it, and the delete of the
   * last login of a burst runs after every insert, so a burst of concurrent logins ends with at
   * most MAX_LIVE_TOKENS (concurrency.test.ts checks 100 at once). Two round trips instead of a
   * locked transaction's six.
   */
  async issue(
    userId: string,
    now: Date,
    expiresAt: Date,
    client: ClientDetails = { address: undefined, userAgent: undefined },
  ): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.db
      .insertInto('sessions')
      .values({
        token_hash: hashToken(token),
        user_id: userId,
        created_at: now,
        expires_at: expiresAt,
        last_used_at: now,
        client_address: printable(client.address, MAX_ADDRESS),
        user_agent: printable(client.userAgent, MAX_USER_AGENT),
      })
      .execute();
    const pruned = await this.db
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
      .executeTakeFirst();
    if (Number(pruned.numDeletedRows) > 0) this.forgetUser(userId);
    return token;
  }

  /**
   * The session of an unexpired token that belongs to `userId`, with its user; `userId` undefined
   * finds the token whoever owns it (resume). Marks the session used, with a write at most once per
   * LAST_USED_RESOLUTION_MS.
   */
  async find(userId: string | undefined, token: string, now: Date): Promise<Session | undefined> {
    const tokenHash = hashToken(token);
    const hit = this.cache?.get(tokenHash, now.getTime());
    if (hit)
      return userId === undefined || hit.user.id === userId ? this.touch(hit, now) : undefined;
    const ticket = this.cache?.ticket() ?? 0;
    let query = this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .selectAll('users')
      .select([
        'sessions.id as session_id',
        'sessions.last_used_at as session_last_used_at',
        'sessions.expires_at as session_expires_at',
      ])
      .where('sessions.token_hash', '=', tokenHash)
      .where('sessions.expires_at', '>', now);
    if (userId !== undefined) query = query.where('sessions.user_id', '=', userId);
    const row = await query.executeTakeFirst();
    if (!row) return undefined;
    const { session_id, session_last_used_at, session_expires_at, ...user } = row;
    const entry: CachedSession = {
      user,
      tokenHash,
      sessionId: session_id,
      expiresAt: session_expires_at,
      lastUsedAt: session_last_used_at,
      readAt: now.getTime(),
    };
    const session = await this.touch(entry, now);
    this.cache?.put(ticket, entry);
    return session;
  }

  /** Conditional, so that concurrent requests of one session write once between them. */
  async #markUsed(tokenHash: string, now: Date): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ last_used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('last_used_at', '<=', new Date(now.getTime() - LAST_USED_RESOLUTION_MS))
      .execute();
  }

  async revoke(tokenHash: string): Promise<void> {
    const ended = await this.db
      .deleteFrom('sessions')
      .where('token_hash', '=', tokenHash)
      .returning('user_id')
      .execute();
    for (const { user_id } of ended) this.forgetUser(user_id);
  }

  /** The user's (every user's when undefined) unexpired sessions, most recently used first. */
  async list(
    userId: string | undefined,
    now: Date,
    page: { offset: number; count: number; sessionId?: string },
  ): Promise<{ sessions: SessionInfo[]; total: number }> {
    let base = this.db.selectFrom('sessions').where('expires_at', '>', now);
    if (userId !== undefined) base = base.where('user_id', '=', userId);
    if (page.sessionId !== undefined) base = base.where('id', '=', page.sessionId);
    const [rows, total] = await Promise.all([
      base
        .select([
          'id',
          'user_id',
          'created_at',
          'last_used_at',
          'expires_at',
          'client_address',
          'user_agent',
        ])
        .orderBy('last_used_at', 'desc')
        .orderBy('seq', 'desc')
        .offset(page.offset)
        .limit(page.count)
        .execute(),
      base.select((eb) => eb.fn.countAll<string | number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return {
      total: Number(total.total),
      sessions: rows.map((row) => ({
        sessionId: row.id,
        userId: row.user_id,
        createdAt: row.created_at,
        lastUsedAt: row.last_used_at,
        expiresAt: row.expires_at,
        clientAddress: row.client_address,
        userAgent: row.user_agent,
      })),
    };
  }

  /**
   * Ends the session `sessionId` when it belongs to `userId` (any user's when undefined: an
   * admin). Returns whether a session was ended.
   */
  async revokeById(sessionId: string, userId: string | undefined): Promise<boolean> {
    let query = this.db.deleteFrom('sessions').where('id', '=', sessionId);
    if (userId !== undefined) query = query.where('user_id', '=', userId);
    const ended = await query.returning('user_id').execute();
    for (const { user_id } of ended) this.forgetUser(user_id);
    return ended.length > 0;
  }

  /** Ends every session of the user but `keepTokenHash` (every one when undefined); returns how many. */
  async revokeAll(userId: string, keepTokenHash?: string): Promise<number> {
    let query = this.db.deleteFrom('sessions').where('user_id', '=', userId);
    if (keepTokenHash !== undefined) query = query.where('token_hash', '!=', keepTokenHash);
    const result = await query.executeTakeFirst();
    this.forgetUser(userId);
    return Number(result.numDeletedRows);
  }
}
