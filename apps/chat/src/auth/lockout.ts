import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { accountLocked } from '../errors.js';

/**
 * Counts failures per key and locks the key once `attempts` failures fall within `seconds`; the
 * lock then lasts `seconds`. Keys are hashed, so neither memory nor Redis holds a token.
 */
export interface FailureStore {
  /** Seconds until the key unlocks; 0 when it is not locked. */
  lockedFor(key: string): Promise<number>;
  recordFailure(key: string): Promise<void>;
  reset(key: string): Promise<void>;
}

export interface LockoutPolicy {
  attempts: number;
  seconds: number;
}

/** One process's counters; bounded, dropping the oldest entries first (a Map keeps insertion order). */
export class MemoryFailureStore implements FailureStore {
  readonly #entries = new Map<
    string,
    { failures: number; windowEnds: number; lockedUntil: number }
  >();

  constructor(
    private readonly policy: LockoutPolicy,
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 100_000,
  ) {}

  async lockedFor(key: string): Promise<number> {
    const entry = this.#entries.get(key);
    const remaining = entry ? entry.lockedUntil - this.now() : 0;
    return remaining > 0 ? Math.ceil(remaining / 1000) : 0;
  }

  async recordFailure(key: string): Promise<void> {
    const now = this.now();
    let entry = this.#entries.get(key);
    if (!entry || (entry.windowEnds <= now && entry.lockedUntil <= now)) {
      entry = { failures: 0, windowEnds: now + this.policy.seconds * 1000, lockedUntil: 0 };
    }
    entry.failures++;
    if (entry.failures >= this.policy.attempts)
      entry.lockedUntil = now + this.policy.seconds * 1000;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    while (this.#entries.size > this.maxKeys) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }

  async reset(key: string): Promise<void> {
    this.#entries.delete(key);
  }
}

/** Shared by every instance using one Redis; a failure counter and a lock key per account. */
export class RedisFailureStore implements FailureStore {
  constructor(
    private readonly redis: Redis,
    private readonly policy: LockoutPolicy,
    private readonly prefix = 'chat-lockout:',
  ) {}

  async lockedFor(key: string): Promise<number> {
    const ttl = await this.redis.pttl(`${this.prefix}lock:${key}`);
    return ttl > 0 ? Math.ceil(ttl / 1000) : 0;
  }

  async recordFailure(key: string): Promise<void> {
    const counter = `${this.prefix}count:${key}`;
    const windowMs = this.policy.seconds * 1000;
    const [[, failures] = []] = (await this.redis
      .multi()
      .incr(counter)
      .pexpire(counter, windowMs, 'NX')
      .exec()) as [Error | null, number][];
    if (typeof failures === 'number' && failures >= this.policy.attempts) {
      await this.redis.set(`${this.prefix}lock:${key}`, '1', 'PX', windowMs);
    }
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(`${this.prefix}count:${key}`);
  }
}

/**
 * The lock-out rules (README.md, "Lock-out"): an account is the pair (service, access token) on
 * the login route and the X-User-Id on authenticated routes. Store failures fail open and are
 * logged: an unreachable Redis must not take logins down with it.
 */
export class Lockout {
  constructor(
    private readonly store: FailureStore,
    private readonly onStoreError: (error: unknown) => void,
  ) {}

  static loginKey(serviceName: string, accessToken: string): string {
    return createHash('sha256').update(`login\0${serviceName}\0${accessToken}`).digest('base64url');
  }

  static tokenKey(userId: string): string {
    return createHash('sha256').update(`token\0${userId}`).digest('base64url');
  }

  /** Throws 429 `account-locked` with Retry-After while the key is locked. */
  async assertOpen(key: string): Promise<void> {
    let seconds = 0;
    try {
      seconds = await this.store.lockedFor(key);
    } catch (error) {
      this.onStoreError(error);
    }
    if (seconds > 0) throw accountLocked(seconds);
  }

  async failed(key: string): Promise<void> {
    await this.store.recordFailure(key).catch(this.onStoreError);
  }

  async succeeded(key: string): Promise<void> {
    await this.store.reset(key).catch(this.onStoreError);
  }
}
