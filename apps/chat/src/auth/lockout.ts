import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { accountLocked } from '../errors.js';

/**
 * Counts failures per key and locks the key once `attempts` failures fall within `seconds`; the
 * lock then lasts `seconds`. Keys are hashed, so neither memory nor Redis holds a token.
 *
 * Attempts in flight count against the budget too: an attempt is admitted only while
 * failures + attempts in flight < `attempts`, checked and counted in one atomic step. Without
 * that, a burst of concurrent guesses would all pass the check before the first of them failed,
 * and every one would be evaluated (issue 7 measured 50 of 50 guesses answered 401).
 */
export interface FailureStore {
  /**
   * Atomically: `locked` (with the seconds left) when the key is locked; `busy` when its failures
   * and attempts in flight fill the budget; else the attempt is counted in flight: `admitted`.
   */
  admit(key: string): Promise<Admission>;
  /** Ends an admitted attempt: a failure (counted, may lock), a success (clears the failures) or neither. */
  settle(key: string, outcome: Outcome): Promise<void>;
}

export type Admission =
  | { kind: 'admitted' }
  | { kind: 'busy' }
  | { kind: 'locked'; seconds: number };
export type Outcome = 'failure' | 'success' | 'neutral';

export interface LockoutPolicy {
  attempts: number;
  seconds: number;
}

interface MemoryEntry {
  failures: number;
  inFlight: number;
  windowEnds: number;
  lockedUntil: number;
}

/** One process's counters; bounded, dropping the oldest entries first (a Map keeps insertion order). */
export class MemoryFailureStore implements FailureStore {
  readonly #entries = new Map<string, MemoryEntry>();

  constructor(
    private readonly policy: LockoutPolicy,
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 100_000,
  ) {}

  async admit(key: string): Promise<Admission> {
    const entry = this.#current(key);
    const remaining = entry.lockedUntil - this.now();
    if (remaining > 0) return { kind: 'locked', seconds: Math.ceil(remaining / 1000) };
    if (entry.failures + entry.inFlight >= this.policy.attempts) return { kind: 'busy' };
    entry.inFlight++;
    this.#touch(key, entry);
    return { kind: 'admitted' };
  }

  async settle(key: string, outcome: Outcome): Promise<void> {
    const entry = this.#current(key);
    entry.inFlight = Math.max(0, entry.inFlight - 1);
    if (outcome === 'success') entry.failures = 0;
    if (outcome === 'failure') {
      entry.failures++;
      if (entry.failures >= this.policy.attempts) {
        entry.lockedUntil = this.now() + this.policy.seconds * 1000;
      }
    }
    this.#touch(key, entry);
  }

  /** The key's entry, with an expired window and lock forgotten (attempts in flight stay). */
  #current(key: string): MemoryEntry {
    const now = this.now();
    const entry = this.#entries.get(key);
    if (!entry)
      return {
        failures: 0,
        inFlight: 0,
        windowEnds: now + this.policy.seconds * 1000,
        lockedUntil: 0,
      };
    if (entry.windowEnds <= now && entry.lockedUntil <= now) {
      entry.failures = 0;
      entry.lockedUntil = 0;
      entry.windowEnds = now + this.policy.seconds * 1000;
    }
    return entry;
  }

  #touch(key: string, entry: MemoryEntry): void {
    this.#entries.delete(key);
    if (entry.failures === 0 && entry.inFlight === 0 && entry.lockedUntil <= this.now()) return;
    this.#entries.set(key, entry);
    while (this.#entries.size > this.maxKeys) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }
}

/**
 * Admission in one Lua script, so that instances sharing the Redis cannot both take the last slot.
 * KEYS: lock, failures, in-flight. ARGV: attempts, in-flight expiry (ms). Returns
 * -seconds when locked, 0 when busy, 1 when admitted.
 */
const ADMIT = `
local lock = redis.call('PTTL', KEYS[1])
if lock > 0 then return -math.ceil(lock / 1000) end
local failures = tonumber(redis.call('GET', KEYS[2]) or '0')
local inFlight = tonumber(redis.call('GET', KEYS[3]) or '0')
if failures + inFlight >= tonumber(ARGV[1]) then return 0 end
redis.call('INCR', KEYS[3])
redis.call('PEXPIRE', KEYS[3], ARGV[2])
return 1`;

/** KEYS: lock, failures, in-flight. ARGV: outcome, attempts, window (ms). */
const SETTLE = `
local inFlight = tonumber(redis.call('GET', KEYS[3]) or '0')
if inFlight > 1 then redis.call('DECR', KEYS[3]) else redis.call('DEL', KEYS[3]) end
if ARGV[1] == 'success' then redis.call('DEL', KEYS[2]) end
if ARGV[1] == 'failure' then
  local failures = redis.call('INCR', KEYS[2])
  redis.call('PEXPIRE', KEYS[2], ARGV[3], 'NX')
  if failures >= tonumber(ARGV[2]) then redis.call('SET', KEYS[1], '1', 'PX', ARGV[3]) end
end
return 1`;

/**
 * An attempt never lasts this long (the provider budget plus a few statements); an instance that
 * dies mid-attempt leaves its in-flight count behind at most this long.
 */
const IN_FLIGHT_EXPIRY_MS = 120_000;

/** Shared by every instance using one Redis: a lock key, a failure counter and an in-flight counter per account. */
export class RedisFailureStore implements FailureStore {
  constructor(
    private readonly redis: Redis,
    private readonly policy: LockoutPolicy,
    private readonly prefix = 'chat-lockout:',
  ) {}

  #keys(key: string): [string, string, string] {
    return [
      `${this.prefix}lock:${key}`,
      `${this.prefix}count:${key}`,
      `${this.prefix}flight:${key}`,
    ];
  }

  async admit(key: string): Promise<Admission> {
    const result = Number(
      await this.redis.eval(
        ADMIT,
        3,
        ...this.#keys(key),
        this.policy.attempts,
        IN_FLIGHT_EXPIRY_MS,
      ),
    );
    if (result < 0) return { kind: 'locked', seconds: -result };
    return result === 0 ? { kind: 'busy' } : { kind: 'admitted' };
  }

  async settle(key: string, outcome: Outcome): Promise<void> {
    await this.redis.eval(
      SETTLE,
      3,
      ...this.#keys(key),
      outcome,
      this.policy.attempts,
      this.policy.seconds * 1000,
    );
  }
}

/** One admitted attempt: the caller reports how it ended, once. */
export interface Attempt {
  failed(): Promise<void>;
  succeeded(): Promise<void>;
  /** Neither: a provider outage, an unknown service, a database error, a session check that passed. */
  release(): Promise<void>;
}

/**
 * How long an attempt waits for a slot while the budget is held by attempts in flight, polling
 * with a growing pause (the same loop works for memory and Redis counters).
 */
const BUSY_WAIT_MS = 20_000;
const BUSY_POLL_MS = { first: 5, max: 100 };

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

  /**
   * Admits one attempt on `key`, or throws 429 `account-locked` (with Retry-After) while the key is
   * locked. While the budget is full of attempts in flight, waits for one of them to end (a burst
   * of legitimate requests is served a few at a time); past BUSY_WAIT_MS it is refused as locked.
   * When `signal` aborts first, throws its reason: the caller's own deadline covers the wait.
   */
  async begin(key: string, signal?: AbortSignal): Promise<Attempt> {
    const deadline = Date.now() + BUSY_WAIT_MS;
    for (let pause = BUSY_POLL_MS.first; ; pause = Math.min(pause * 2, BUSY_POLL_MS.max)) {
      let admission: Admission;
      try {
        admission = await this.store.admit(key);
      } catch (error) {
        this.onStoreError(error);
        return UNCOUNTED;
      }
      if (admission.kind === 'admitted') return this.#attempt(key);
      if (admission.kind === 'locked') throw accountLocked(admission.seconds);
      if (Date.now() >= deadline) throw accountLocked(1);
      signal?.throwIfAborted();
      await sleep(pause, undefined, signal ? { signal } : undefined).catch((error: unknown) => {
        signal?.throwIfAborted();
        throw error;
      });
    }
  }

  #attempt(key: string): Attempt {
    let settled = false;
    const settle = async (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      await this.store.settle(key, outcome).catch(this.onStoreError);
    };
    return {
      failed: () => settle('failure'),
      succeeded: () => settle('success'),
      release: () => settle('neutral'),
    };
  }
}

/** What an attempt is when the counters cannot be reached: nothing is counted (fail open). */
const UNCOUNTED: Attempt = {
  failed: async () => {},
  succeeded: async () => {},
  release: async () => {},
};
