import type { UserRow } from './users.js';

/** The notification channel migration 004's triggers announce session and user changes on. */
export const SESSION_CHANGES_CHANNEL = 'chat_sessions';

/** What a session check needs, as read from the database. */
export interface CachedSession {
  user: UserRow;
  tokenHash: string;
  sessionId: string;
  expiresAt: Date;
  /** When "last used" was last written (see LAST_USED_RESOLUTION_MS). */
  lastUsedAt: Date;
  /** The service clock's time when it was read. */
  readAt: number;
}

export interface SessionCacheOptions {
  /** Most sessions held; the oldest entry makes room for a new one. */
  maxEntries: number;
  /** Longest an entry is served without reading the database again. */
  maxAgeMs: number;
}

/**
 * Sessions a session check found valid, by token hash, so that `GET /api/v1/me` (and every
 * authenticated route) costs no database statement while nothing changed. It is exact because:
 *
 * - it serves only while the notification subscription is live (`listening()` .. `lost()`):
 *   migration 004's triggers announce every change of a session or user on SESSION_CHANGES_CHANNEL,
 *   whoever makes it (this instance, another one, an admin in SQL), and a lost subscription clears
 *   the cache and stops it until notifications arrive again;
 * - this instance's own logouts and revocations drop the user's entries at once, before they are
 *   answered (`invalidateUser`), without waiting for their notification;
 * - a read that started before an invalidation of its user is not cached (`ticket`/`put`): a
 *   session check running while a logout commits could otherwise put back what the logout removed;
 * - expiry is checked on every hit, and an entry is read again after `maxAgeMs` regardless.
 *
 * Only valid sessions are cached: a wrong token always reaches the database (and the lock-out).
 */
export class SessionCache {
  readonly #entries = new Map<string, CachedSession>();
  readonly #tokensByUser = new Map<string, Set<string>>();
  /** Bumped by every invalidation. */
  #epoch = 0;
  /** The epoch of each user's last invalidation (bounded: see #forgetEpochs); a read whose ticket is older is not cached. */
  readonly #userEpochs = new Map<string, number>();
  /** Reads that took their ticket before this epoch are never cached. */
  #floor = 0;
  #listening = false;

  constructor(private readonly options: SessionCacheOptions) {}

  /** Whether entries are served and stored (notifications are arriving). */
  get active(): boolean {
    return this.#listening;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The valid cached session of `tokenHash`, if any. */
  get(tokenHash: string, now: number): CachedSession | undefined {
    if (!this.#listening) return undefined;
    const entry = this.#entries.get(tokenHash);
    if (!entry) return undefined;
    if (
      entry.expiresAt.getTime() <= now ||
      now - entry.readAt >= this.options.maxAgeMs ||
      now < entry.readAt
    ) {
      this.#remove(entry);
      return undefined;
    }
    return entry;
  }

  /** Taken before reading a session from the database, handed to `put` after. */
  ticket(): number {
    return this.#epoch;
  }

  put(ticket: number, entry: CachedSession): void {
    if (!this.#listening || ticket < this.#floor) return;
    if ((this.#userEpochs.get(entry.user.id) ?? 0) > ticket) return;
    const previous = this.#entries.get(entry.tokenHash);
    if (previous) this.#remove(previous);
    if (this.#entries.size >= this.options.maxEntries) {
      const oldest = this.#entries.values().next().value;
      if (oldest) this.#remove(oldest);
    }
    this.#entries.set(entry.tokenHash, entry);
    let tokens = this.#tokensByUser.get(entry.user.id);
    if (!tokens) {
      tokens = new Set();
      this.#tokensByUser.set(entry.user.id, tokens);
    }
    tokens.add(entry.tokenHash);
  }

  /** Drops every entry of the user, and any read of it in flight. */
  invalidateUser(userId: string): void {
    this.#userEpochs.set(userId, ++this.#epoch);
    if (this.#userEpochs.size > this.options.maxEntries) this.#forgetEpochs();
    const tokens = this.#tokensByUser.get(userId);
    if (!tokens) return;
    for (const tokenHash of tokens) this.#entries.delete(tokenHash);
    this.#tokensByUser.delete(userId);
  }

  /** Drops everything, and every read in flight. */
  clear(): void {
    this.#floor = ++this.#epoch;
    this.#userEpochs.clear();
    this.#entries.clear();
    this.#tokensByUser.clear();
  }

  /** A notification on SESSION_CHANGES_CHANNEL. */
  notified(payload: string): void {
    if (payload === '*') this.clear();
    else this.invalidateUser(payload);
  }

  /** Notifications arrive from now on: entries may be served and stored. */
  listening(): void {
    this.clear();
    this.#listening = true;
  }

  /** Notifications may be missed: nothing cached can be trusted any more. */
  lost(): void {
    this.#listening = false;
    this.clear();
  }

  #remove(entry: CachedSession): void {
    this.#entries.delete(entry.tokenHash);
    const tokens = this.#tokensByUser.get(entry.user.id);
    tokens?.delete(entry.tokenHash);
    if (tokens?.size === 0) this.#tokensByUser.delete(entry.user.id);
  }

  /** The per-user epochs are bounded: past the bound, every read in flight is refused instead. */
  #forgetEpochs(): void {
    this.#userEpochs.clear();
    this.#floor = ++this.#epoch;
  }
}
