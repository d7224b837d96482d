import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { addressBucket } from '@netops/service-runtime';
import type { Redis } from 'ioredis';
import { accountLocked, tooManyRequests } from '../errors.js';

/**
 * Counts failures per key and locks the key once `attempts` failures fall within `seconds`; the
 * lock then lasts `seconds`. Keys are hashed, so neither memory nor Redis holds a token.
 *
 * Attempts in flight count against the budget too: an attempt is admitted only while
 * failures + attempts in flight < `attempts`, checked and counted in one atomic step. Without
 * that, a burst of concurrent guesses would all pass the check before the first of them failed,
 * and every one would be evaluated (50 of 50 concurrent guesses were answered 401 before any lock).
 */
export interface FailureStore {
  /**
   * Atomically: `locked` (with the seconds left) when the key is locked; `busy` when its failures
   * and attempts in flight fill `attempts`; `full` when the store cannot take one more key (memory
   * only: it never forgets a key to make room); else the attempt is counted in flight: `admitted`.
   */
  admit(key: string, attempts: number): Promise<Admission>;
  /**
   * Ends an admitted attempt: a failure (counted; `attempts` failures lock the key), a success
   * (clears the failures) or neither.
   */
  settle(key: string, outcome: Outcome, attempts: number): Promise<void>;
  /** The failures counted on `key` in its current window (a counter that never locks). */
  failures(key: string): Promise<number>;
  /** Counts one failure on `key` without an attempt (the counter `failures` reads). */
  addFailure(key: string): Promise<void>;
  /**
   * Read-only: the seconds `key` stays locked (0: not locked), where it counts as locked also
   * once its failures reach `attempts`, or 1 when `globalKey`'s failures reach `globalLimit`.
   * Admits nothing: for a request already known to be right (see Lockout.checkSession).
   */
  lockedSeconds(
    key: string,
    attempts: number,
    globalKey: string,
    globalLimit: number,
  ): Promise<number>;
}

export type Admission =
  | { kind: 'admitted' }
  | { kind: 'busy' }
  | { kind: 'locked'; seconds: number }
  | { kind: 'full'; seconds: number };
export type Outcome = 'failure' | 'success' | 'neutral';

export interface LockoutPolicy {
  attempts: number;
  seconds: number;
  /** Memory store: most keys held (LOCKOUT_MAX_ENTRIES). */
  maxKeys?: number;
}

interface MemoryEntry {
  failures: number;
  inFlight: number;
  windowEnds: number;
  lockedUntil: number;
}

/** How often a full memory store looks for expired entries (a sweep reads every entry). */
const SWEEP_INTERVAL_MS = 1_000;

/**
 * One process's counters, bounded at `maxKeys` entries. An entry is dropped only once it means
 * nothing any more (its window and lock are over and no attempt is in flight); when the table is
 * full of live entries a new key is refused (`full`) rather than an old one forgotten: evicting
 * the oldest let 105,000 requests with random user ids lift a lock.
 * Attempts on keys already held, and so every lock, keep working while it is full.
 */
export class MemoryFailureStore implements FailureStore {
  readonly #entries = new Map<string, MemoryEntry>();
  readonly #maxKeys: number;
  #lastSweep = Number.NEGATIVE_INFINITY;
  /** When the soonest entry left by the last sweep expires. */
  #nextRoomAt = 0;

  constructor(
    private readonly policy: LockoutPolicy,
    private readonly now: () => number = Date.now,
  ) {
    this.#maxKeys = policy.maxKeys ?? 100_000;
  }

  /** Entries held (tests and the reliability suite read it). */
  get size(): number {
    return this.#entries.size;
  }

  async admit(key: string, attempts: number): Promise<Admission> {
    const entry = this.#current(key);
    const remaining = entry.lockedUntil - this.now();
    if (remaining > 0) return { kind: 'locked', seconds: Math.ceil(remaining / 1000) };
    // Failures alone at the budget (it shrank, see Lockout.beginSession): as good as locked.
    if (entry.failures >= attempts) {
      return {
        kind: 'locked',
        seconds: Math.max(1, Math.ceil((entry.windowEnds - this.now()) / 1000)),
      };
    }
    if (entry.failures + entry.inFlight >= attempts) return { kind: 'busy' };
    if (!this.#entries.has(key) && !this.#roomForOneMore()) {
      return { kind: 'full', seconds: this.#secondsUntilRoom() };
    }
    entry.inFlight++;
    this.#store(key, entry);
    return { kind: 'admitted' };
  }

  async settle(key: string, outcome: Outcome, attempts: number): Promise<void> {
    const entry = this.#entries.get(key);
    if (!entry) return; // only an admitted key is settled, and it is held until then
    this.#current(key);
    entry.inFlight = Math.max(0, entry.inFlight - 1);
    if (outcome === 'success') entry.failures = 0;
    if (outcome === 'failure') {
      entry.failures++;
      if (entry.failures >= attempts) {
        entry.lockedUntil = this.now() + this.policy.seconds * 1000;
      }
    }
    this.#store(key, entry);
  }

  async failures(key: string): Promise<number> {
    return this.#entries.has(key) ? this.#current(key).failures : 0;
  }

  async addFailure(key: string): Promise<void> {
    if (!this.#entries.has(key) && !this.#roomForOneMore()) return;
    const entry = this.#current(key);
    entry.failures++;
    this.#store(key, entry);
  }

  async lockedSeconds(
    key: string,
    attempts: number,
    globalKey: string,
    globalLimit: number,
  ): Promise<number> {
    const now = this.now();
    const entry = this.#entries.get(key);
    if (!entry) return 0;
    if (entry.lockedUntil > now) return Math.ceil((entry.lockedUntil - now) / 1000);
    if (entry.windowEnds <= now) return 0;
    const global = this.#entries.get(globalKey);
    const budget =
      global && global.windowEnds > now && global.failures >= globalLimit ? 1 : attempts;
    return entry.failures >= budget ? Math.max(1, Math.ceil((entry.windowEnds - now) / 1000)) : 0;
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

  #meaningless(entry: MemoryEntry, now: number): boolean {
    const expired = entry.windowEnds <= now && entry.lockedUntil <= now;
    return entry.inFlight === 0 && (expired || (entry.failures === 0 && entry.lockedUntil <= now));
  }

  #store(key: string, entry: MemoryEntry): void {
    if (this.#meaningless(entry, this.now())) this.#entries.delete(key);
    else this.#entries.set(key, entry);
  }

  /** Whether one more key fits, after dropping expired entries (at most once a second). */
  #roomForOneMore(): boolean {
    if (this.#entries.size < this.#maxKeys) return true;
    const now = this.now();
    if (now - this.#lastSweep >= SWEEP_INTERVAL_MS || now < this.#lastSweep) {
      this.#lastSweep = now;
      let soonest = Number.POSITIVE_INFINITY;
      for (const [key, entry] of this.#entries) {
        if (this.#meaningless(entry, now)) this.#entries.delete(key);
        else soonest = Math.min(soonest, Math.max(entry.windowEnds, entry.lockedUntil));
      }
      this.#nextRoomAt = soonest;
    }
    return this.#entries.size < this.#maxKeys;
  }

  /** When room is expected (the soonest expiry seen by the last sweep): a refusal's Retry-After. */
  #secondsUntilRoom(): number {
    const seconds = Math.ceil((this.#nextRoomAt - this.now()) / 1000);
    return Number.isFinite(seconds) ? Math.max(1, seconds) : 1;
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
if failures >= tonumber(ARGV[1]) then return -math.max(1, math.ceil(redis.call('PTTL', KEYS[2]) / 1000)) end
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
 * KEYS: lock, failures, global failures. ARGV: attempts, global limit. Returns the seconds locked,
 * 0 when not (read-only).
 */
const LOCKED_SECONDS = `
local lock = redis.call('PTTL', KEYS[1])
if lock > 0 then return math.ceil(lock / 1000) end
local attempts = tonumber(ARGV[1])
if tonumber(redis.call('GET', KEYS[3]) or '0') >= tonumber(ARGV[2]) then attempts = 1 end
if tonumber(redis.call('GET', KEYS[2]) or '0') >= attempts then
  return math.max(1, math.ceil(redis.call('PTTL', KEYS[2]) / 1000))
end
return 0`;

/** KEYS: failures. ARGV: window (ms). */
const ADD_FAILURE = `
redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[1], 'NX')
return 1`;

/**
 * An attempt never lasts this long (the provider budget plus a few statements); an instance that
 * dies mid-attempt leaves its in-flight count behind at most this long.
 */
const IN_FLIGHT_EXPIRY_MS = 120_000;

/**
 * Shared by every instance using one Redis: a lock key, a failure counter and an in-flight counter
 * per account, each with a TTL, so Redis forgets nothing before its time (run it with
 * `maxmemory-policy noeviction`: an evicting policy could drop a lock).
 */
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

  async admit(key: string, attempts: number): Promise<Admission> {
    const result = Number(
      await this.redis.eval(ADMIT, 3, ...this.#keys(key), attempts, IN_FLIGHT_EXPIRY_MS),
    );
    if (result < 0) return { kind: 'locked', seconds: -result };
    return result === 0 ? { kind: 'busy' } : { kind: 'admitted' };
  }

  async settle(key: string, outcome: Outcome, attempts: number): Promise<void> {
    await this.redis.eval(
      SETTLE,
      3,
      ...this.#keys(key),
      outcome,
      attempts,
      this.policy.seconds * 1000,
    );
  }

  async failures(key: string): Promise<number> {
    return Number((await this.redis.get(this.#keys(key)[1])) ?? 0);
  }

  async addFailure(key: string): Promise<void> {
    await this.redis.eval(ADD_FAILURE, 1, this.#keys(key)[1], this.policy.seconds * 1000);
  }

  async lockedSeconds(
    key: string,
    attempts: number,
    globalKey: string,
    globalLimit: number,
  ): Promise<number> {
    const [lock, count] = this.#keys(key);
    return Number(
      await this.redis.eval(
        LOCKED_SECONDS,
        3,
        lock,
        count,
        this.#keys(globalKey)[1],
        attempts,
        globalLimit,
      ),
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

/** An admitted session check (Lockout.beginSession). */
export interface SessionAttempt extends Omit<Attempt, 'failed'> {
  /** A wrong token; `userExists`: whether the user id names a user (only then counted globally). */
  failed(userExists: boolean): Promise<void>;
}

/**
 * How long an attempt waits for a slot while the budget is held by attempts in flight, polling
 * with a growing pause (the same loop works for memory and Redis counters).
 */
const BUSY_WAIT_MS = 20_000;
const BUSY_POLL_MS = { first: 5, max: 100 };

/**
 * Failures on one user id from every address together, in LOGIN_LOCKOUT_ATTEMPTS, past which
 * each address gets one failure before its own lock instead of LOGIN_LOCKOUT_ATTEMPTS.
 */
export const SESSION_GLOBAL_FACTOR = 10;

/**
 * The lock-out rules (README.md, "Lock-out"). On the login route the account is the pair
 * (service, access token). On authenticated routes guesses are counted per (user id, client
 * address): five wrong tokens lock that address out of that user id, and nobody else; failures
 * on one user id from all addresses together past SESSION_GLOBAL_FACTOR x attempts leave every
 * address a single failure before its lock (guessing spread over many addresses stays bounded),
 * while an address that has not failed is still served, so a valid token keeps working. A store that fails (an unreachable Redis) is logged and, when a `fallback`
 * is given (the instance's memory store, bounded by LOCKOUT_MAX_ENTRIES), counting goes on there
 * until it answers again: an outage must not take logins down with it, nor leave a second factor
 * or a token open to unlimited guessing. Without a fallback a failing store lets attempts through.
 */
export class Lockout {
  constructor(
    private readonly store: FailureStore,
    private readonly policy: LockoutPolicy,
    private readonly onStoreError: (error: unknown) => void,
    private readonly fallback?: FailureStore,
  ) {}

  /**
   * `operation` on the store, or, when it fails, on the fallback (undefined without one, or when
   * the fallback fails too: nothing is counted).
   */
  async #either<T>(
    operation: (store: FailureStore) => Promise<T>,
  ): Promise<{ value: T; store: FailureStore } | undefined> {
    try {
      return { value: await operation(this.store), store: this.store };
    } catch (error) {
      this.onStoreError(error);
    }
    if (!this.fallback) return undefined;
    try {
      return { value: await operation(this.fallback), store: this.fallback };
    } catch (error) {
      this.onStoreError(error);
      return undefined;
    }
  }

  static loginKey(serviceName: string, accessToken: string): string {
    return createHash('sha256').update(`login\0${serviceName}\0${accessToken}`).digest('base64url');
  }

  static sessionKey(userId: string, clientIp: string): string {
    return createHash('sha256')
      .update(`token\0${userId}\0${addressBucket(clientIp)}`)
      .digest('base64url');
  }

  static sessionGlobalKey(userId: string): string {
    return createHash('sha256').update(`token-all\0${userId}`).digest('base64url');
  }

  /**
   * Admits one attempt on `key`, or throws 429 `account-locked` (with Retry-After) while the key is
   * locked. While the budget is full of attempts in flight, waits for one of them to end (a burst
   * of legitimate requests is served a few at a time); past BUSY_WAIT_MS it is refused as locked.
   * When `signal` aborts first, throws its reason: the caller's own deadline covers the wait.
   * A memory store that is full refuses the attempt: 429 `too-many-requests`.
   */
  begin(key: string, signal?: AbortSignal): Promise<Attempt> {
    return this.#begin(key, this.policy.attempts, signal);
  }

  /**
   * An attempt to authenticate as `userId` with a token, from `clientIp` (see the class). A wrong
   * token counts against (user id, address) always, and against the user id from every address
   * only when the id names a user: random ids would otherwise add a global counter each (a second
   * entry in memory, a second key in Redis) and fill the table for nothing, since nobody's token
   * can be guessed. Reading the global counter adds nothing.
   */
  async beginSession(userId: string, clientIp: string): Promise<SessionAttempt> {
    const globalKey = Lockout.sessionGlobalKey(userId);
    const spread = (await this.#either((store) => store.failures(globalKey)))?.value ?? 0;
    const attempts =
      spread >= this.policy.attempts * SESSION_GLOBAL_FACTOR ? 1 : this.policy.attempts;
    const attempt = await this.#begin(Lockout.sessionKey(userId, clientIp), attempts);
    return {
      ...attempt,
      failed: async (userExists: boolean) => {
        await attempt.failed();
        if (userExists) await this.#either((store) => store.addFailure(globalKey));
      },
    };
  }

  /**
   * For a request whose token is already known to be right (a cached session): throws 429
   * `account-locked` when `beginSession` would have, else lets it through without counting an
   * attempt in flight. The in-flight budget bounds guesses evaluated at once; a request known to be
   * right is not a guess, while a locked address must still get 429 even with the right token, or
   * the lock would tell a guesser which guess was right. One read (one Redis round trip, the
   * same decision as beginSession's two reads and admission) instead of four.
   */
  async checkSession(userId: string, clientIp: string): Promise<void> {
    const seconds =
      (
        await this.#either((store) =>
          store.lockedSeconds(
            Lockout.sessionKey(userId, clientIp),
            this.policy.attempts,
            Lockout.sessionGlobalKey(userId),
            this.policy.attempts * SESSION_GLOBAL_FACTOR,
          ),
        )
      )?.value ?? 0;
    if (seconds > 0) throw accountLocked(seconds);
  }

  async #begin(key: string, attempts: number, signal?: AbortSignal): Promise<Attempt> {
    const deadline = Date.now() + BUSY_WAIT_MS;
    for (let pause = BUSY_POLL_MS.first; ; pause = Math.min(pause * 2, BUSY_POLL_MS.max)) {
      const answer = await this.#either((store) => store.admit(key, attempts));
      if (!answer) return UNCOUNTED;
      const { value: admission, store } = answer;
      if (admission.kind === 'admitted') return this.#attempt(store, key, attempts);
      if (admission.kind === 'locked') throw accountLocked(admission.seconds);
      if (admission.kind === 'full') {
        throw tooManyRequests(
          `Too many failed attempts are being tracked; try again in ${admission.seconds} seconds`,
          admission.seconds,
        );
      }
      if (Date.now() >= deadline) throw accountLocked(1);
      signal?.throwIfAborted();
      await sleep(pause, undefined, signal ? { signal } : undefined).catch((error: unknown) => {
        signal?.throwIfAborted();
        throw error;
      });
    }
  }

  /** An attempt `store` admitted, settled there (its attempt in flight is counted there). */
  #attempt(store: FailureStore, key: string, attempts: number): Attempt {
    let settled = false;
    const settle = async (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      try {
        await store.settle(key, outcome, attempts);
      } catch (error) {
        this.onStoreError(error);
        // Admitted by Redis, which failed since: the failure still counts, in memory.
        if (outcome === 'failure' && store !== this.fallback) {
          await this.fallback?.addFailure(key).catch(this.onStoreError);
        }
      }
    };
    return {
      failed: () => settle('failure'),
      succeeded: () => settle('success'),
      release: () => settle('neutral'),
    };
  }
}

/** What an attempt is when no counter can be reached: nothing is counted (fail open). */
const UNCOUNTED: Attempt = {
  failed: async () => {},
  succeeded: async () => {},
  release: async () => {},
};
