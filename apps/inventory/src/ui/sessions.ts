import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import type { AnyDatabase } from '../db/schema.js';

/** The interface's own cookie; the API's `Bearer` cookie is left as the API sets it. */
export const SESSION_COOKIE = 'inventory_ui';
/** The form field carrying the session's CSRF token. */
export const CSRF_FIELD = '_csrf';

export interface UiSession {
  idHash: string;
  userId: string;
  tokenEpoch: number;
  csrfToken: string;
  expiresAt: Date;
}

const hash = (sessionId: string) => createHash('sha256').update(sessionId).digest('base64url');

/** A cookie value that could be a session id (43 base64url characters) before any lookup. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

/** Sessions in the database (migration 017): every instance sees the same ones. */
export class SessionStore {
  constructor(
    private readonly db: AnyDatabase,
    private readonly ttlSeconds: number,
  ) {}

  /** A new session for the account; returns the cookie value (never stored) and the session. */
  async create(
    userId: string,
    tokenEpoch: number,
  ): Promise<{ cookie: string; session: UiSession }> {
    const cookie = randomBytes(32).toString('base64url');
    const session: UiSession = {
      idHash: hash(cookie),
      userId,
      tokenEpoch,
      csrfToken: randomBytes(32).toString('base64url'),
      expiresAt: new Date(Date.now() + this.ttlSeconds * 1000),
    };
    await sql`INSERT INTO ui_sessions (id_hash, user_id, token_epoch, csrf_token, expires_at)
      VALUES (${session.idHash}, ${userId}, ${tokenEpoch}, ${session.csrfToken}, ${session.expiresAt})`.execute(
      this.db,
    );
    // Expired sessions of anyone are swept now and then by sign-ins (no timer to run).
    await sql`DELETE FROM ui_sessions WHERE expires_at < now()`.execute(this.db);
    return { cookie, session };
  }

  /** The unexpired session a cookie names, or undefined. */
  async find(cookie: string | undefined): Promise<UiSession | undefined> {
    if (cookie === undefined || !SESSION_ID.test(cookie)) return undefined;
    const { rows } = await sql<{
      id_hash: string;
      user_id: string;
      token_epoch: string | number;
      csrf_token: string;
      expires_at: Date | string;
    }>`SELECT id_hash, user_id, token_epoch, csrf_token, expires_at FROM ui_sessions
       WHERE id_hash = ${hash(cookie)} AND expires_at > now()`.execute(this.db);
    const row = rows[0];
    if (!row) return undefined;
    return {
      idHash: row.id_hash,
      userId: row.user_id,
      tokenEpoch: Number(row.token_epoch),
      csrfToken: row.csrf_token,
      expiresAt: new Date(row.expires_at),
    };
  }

  /**
   * The account of the session a cookie names, expired or not (until a sign-in sweeps it): a
   * form sent after its session expired is carried back to that account only.
   */
  async userOfEnded(cookie: string | undefined): Promise<string | undefined> {
    if (cookie === undefined || !SESSION_ID.test(cookie)) return undefined;
    const { rows } = await sql<{ user_id: string }>`SELECT user_id FROM ui_sessions
       WHERE id_hash = ${hash(cookie)}`.execute(this.db);
    return rows[0]?.user_id;
  }

  async end(session: Pick<UiSession, 'idHash'>): Promise<void> {
    await sql`DELETE FROM ui_sessions WHERE id_hash = ${session.idHash}`.execute(this.db);
  }
}

/** Constant-time comparison of the CSRF token a form sent with the session's. */
export function csrfMatches(session: UiSession, sent: unknown): boolean {
  if (typeof sent !== 'string') return false;
  const expected = Buffer.from(session.csrfToken);
  const given = Buffer.from(sent);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Where to go after signing in: a path of this interface only, never another site. */
export function safeNext(next: unknown): string {
  if (typeof next !== 'string') return '/ui/';
  // `/ui/...` only: no scheme, no `//host`, no backslash (browsers read `/\host` as `//host`).
  if (!/^\/ui\/[A-Za-z0-9\-._~/?=&%+,:]*$/.test(next) || next.includes('//')) return '/ui/';
  // Dot segments, plain or percent-encoded (`/ui/../x`, `/ui/%2e%2e/x`), leave the interface
  // once the browser resolves them.
  if (!new URL(next, 'http://inventory.invalid').pathname.startsWith('/ui/')) return '/ui/';
  return next;
}
