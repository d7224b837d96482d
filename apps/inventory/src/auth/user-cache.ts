import type { Subscription } from '@netops/store';
import type { Role } from './roles.js';

/** What a request needs to know about its user (see guard.ts). */
export interface RequestUser {
  id: string;
  username: string;
  role: Role;
  inactive_status: boolean;
  password_changed_at: Date;
}

/** The channel migration 005's trigger announces every change to `users` on. */
export const USER_CHANGES_CHANNEL = 'inventory_users';
/** The payload announcing that every row may have changed (TRUNCATE). */
const EVERY_USER = '*';
/** Accounts kept in memory at most; the least recently stored is dropped first. */
export const USER_CACHE_CAPACITY = 10_000;

/**
 * The account rows authentication reads, kept in memory so that a request costs no database
 * round trip for its user, yet never answered from a row that is known to have changed:
 *
 * - Every change to `users`, by this instance, another one or plain SQL, is announced by a
 *   trigger (migration 005) and forgotten here when the notification arrives, milliseconds
 *   after its commit. Changes made through this instance's API are also forgotten as soon as
 *   they commit (`forget`, called through audit-log.ts's forgetChangedAccount by the accounts'
 *   write hooks and account flows), before their response is sent, so the client that
 *   deactivated an account or changed a password is never answered from the old row.
 * - The cache is used only while the notifications are certain to arrive (`listening` to
 *   `lost`); in between, every request reads its row, as if there were no cache, and a
 *   reconnection starts from an empty cache (notifications may have been missed meanwhile).
 * - A row read from the database while a change was being forgotten is not stored: the read may
 *   have seen the row before that change (the generation check below).
 *
 * Misses (a token of a deleted account) are not cached.
 */
export class UserCache {
  readonly #entries = new Map<string, RequestUser>();
  /** Bumped by every forget: a read that started before one may hold an outdated row. */
  #generation = 0;
  #enabled = false;
  #subscription: Subscription | undefined;

  constructor(
    private readonly lookup: (id: string) => Promise<RequestUser | undefined>,
    private readonly capacity = USER_CACHE_CAPACITY,
  ) {}

  /** Whether rows are being served from memory (the notifications are arriving). */
  get enabled(): boolean {
    return this.#enabled;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Whether the account's row is served from memory now. */
  has(id: string): boolean {
    return this.#enabled && this.#entries.has(id.toLowerCase());
  }

  async find(anyCaseId: string): Promise<RequestUser | undefined> {
    // Notifications name ids as PostgreSQL writes uuids: in lower case.
    const id = anyCaseId.toLowerCase();
    if (this.#enabled) {
      const cached = this.#entries.get(id);
      if (cached !== undefined) return cached;
    }
    const generation = this.#generation;
    const row = await this.lookup(id);
    if (row !== undefined && this.#enabled && generation === this.#generation) {
      if (this.#entries.size >= this.capacity) {
        const oldest = this.#entries.keys().next().value;
        if (oldest !== undefined) this.#entries.delete(oldest);
      }
      this.#entries.set(id, row);
    }
    return row;
  }

  forget(id: string): void {
    this.#generation++;
    this.#entries.delete(id.toLowerCase());
  }

  forgetAll(): void {
    this.#generation++;
    this.#entries.clear();
  }

  /** Handlers for Store.listen on USER_CHANGES_CHANNEL. */
  readonly handlers = {
    notification: (payload: string) => {
      if (payload === EVERY_USER) this.forgetAll();
      else this.forget(payload);
    },
    listening: () => {
      // Changes made while nobody listened were not heard of: start from nothing.
      this.forgetAll();
      this.#enabled = true;
    },
    lost: () => {
      this.#enabled = false;
      this.forgetAll();
    },
  };

  /** Keeps the subscription, to close with the app. */
  attach(subscription: Subscription): void {
    this.#subscription = subscription;
  }

  async close(): Promise<void> {
    this.#enabled = false;
    this.forgetAll();
    await this.#subscription?.close();
  }
}
