import { addressBucket } from '@netops/service-runtime';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { LoginLockoutPolicy } from '../protections/login-lockout-policy.js';

/**
 * Bounds password guessing per account (README "Authentication and
 * roles"), on top of the per-client rate limit, which a guesser with many addresses escapes:
 *
 * - per account and client address ("pair"): after `failuresPerAddress` failures in a row, that
 *   address waits before its next attempt for that account (1 min, doubling with each further
 *   failure, at most `maxDelayMs`). A success resets the pair.
 * - per account: after `failuresPerAccount` failures from all addresses together, every address
 *   waits (1 s, doubling, at most `maxDelayMs`), except addresses that signed in to the account
 *   in the last `knownAddressMs`: a stranger can slow down guessing for everyone but cannot lock
 *   the owner out from where they usually sign in.
 *
 * An attempt is counted as failed when it starts (so that a burst of simultaneous guesses cannot
 * all pass the check before the first failure is recorded) and given back when it succeeds.
 * While a wait runs, attempts are refused at once (429 with Retry-After) before any password
 * work. Unknown account names are tracked exactly like existing ones: the answers say nothing
 * about which names exist. Failures are forgotten `forgetAfterMs` after the last one.
 */
export interface LoginLockout {
  /** 0: go ahead (the attempt is counted as a failure until `succeeded`); else ms to wait. */
  attempt(account: string, address: string): Promise<number>;
  /** The password matched: the pair starts afresh, the attempt is given back to the account. */
  succeeded(account: string, address: string): Promise<void>;
}

/** Names are matched regardless of case: `Admin` and `admin` share their failures. */
const accountKey = (account: string) => account.toLowerCase();

/** The wait after the `failures`-th failure, `threshold` being the first that waits. */
export function waitAfter(
  failures: number,
  threshold: number,
  firstMs: number,
  maxMs: number,
): number {
  if (failures < threshold) return 0;
  return Math.min(firstMs * 2 ** (failures - threshold), maxMs);
}

interface FailureRecord {
  failures: number;
  /** No attempt before this time (ms since the epoch); 0 when none runs. */
  until: number;
  /** The last failure, to forget it `forgetAfterMs` later. */
  last: number;
}

/**
 * One instance's memory (no REDIS_URL). At most `maxRecords` records of failures; when full, the
 * least recently failed records without a running wait are forgotten first (a guesser must make
 * that many new failed attempts, each costing an argon2 verification, to push one out). Running
 * waits are never evicted: if every record holds one, attempts for names not yet tracked are
 * refused for a minute rather than left unbounded.
 */
export class MemoryLoginLockout implements LoginLockout {
  private readonly records = new Map<string, FailureRecord>();
  private readonly knownAddresses = new Map<string, Map<string, number>>();

  constructor(
    private readonly policy: LoginLockoutPolicy,
    private readonly now: () => number = Date.now,
  ) {}

  async attempt(account: string, address: string): Promise<number> {
    const now = this.now();
    const name = accountKey(account);
    const client = addressBucket(address);
    const pairId = `p ${name} ${client}`;
    const accountId = `a ${name}`;
    const pair = this.current(pairId, now);
    if (pair.until > now) return pair.until - now;
    if (!this.isKnown(name, client, now)) {
      const wait = this.current(accountId, now).until - now;
      if (wait > 0) return wait;
    }
    const { policy } = this;
    const stored =
      this.store(pairId, pair, now, policy.failuresPerAddress, policy.addressFirstDelayMs) &&
      this.store(
        accountId,
        this.current(accountId, now),
        now,
        policy.failuresPerAccount,
        policy.accountFirstDelayMs,
      );
    return stored ? 0 : 60_000;
  }

  async succeeded(account: string, address: string): Promise<void> {
    const now = this.now();
    const name = accountKey(account);
    const client = addressBucket(address);
    this.records.delete(`p ${name} ${client}`);
    const record = this.records.get(`a ${name}`);
    if (record !== undefined && record.failures > 0) record.failures -= 1;
    const known = this.knownAddresses.get(name) ?? new Map<string, number>();
    known.delete(client);
    known.set(client, now);
    // The most recent addresses, in insertion order: drop the oldest beyond the policy's count.
    for (const oldest of known.keys()) {
      if (known.size <= this.policy.knownAddressesPerAccount) break;
      known.delete(oldest);
    }
    this.knownAddresses.set(name, known);
  }

  /** Records held (for tests of the bound). */
  get size(): number {
    return this.records.size;
  }

  private isKnown(name: string, client: string, now: number): boolean {
    const seen = this.knownAddresses.get(name)?.get(client);
    return seen !== undefined && now - seen < this.policy.knownAddressMs;
  }

  /** The record, or a fresh one if there is none or it was forgotten. */
  private current(id: string, now: number): FailureRecord {
    const record = this.records.get(id);
    if (record === undefined) return { failures: 0, until: 0, last: now };
    if (record.until <= now && now - record.last >= this.policy.forgetAfterMs) {
      this.records.delete(id);
      return { failures: 0, until: 0, last: now };
    }
    return record;
  }

  /** Counts one failure and stores the record last in the eviction order; false when full. */
  private store(
    id: string,
    record: FailureRecord,
    now: number,
    threshold: number,
    firstMs: number,
  ): boolean {
    if (!this.records.has(id) && this.records.size >= this.policy.maxRecords && !this.evict(now)) {
      return false;
    }
    record.failures += 1;
    record.last = now;
    const wait = waitAfter(record.failures, threshold, firstMs, this.policy.maxDelayMs);
    if (wait > 0) record.until = now + wait;
    this.records.delete(id);
    this.records.set(id, record);
    return true;
  }

  /** Forgets the least recently failed record without a running wait, looking at 100 at most. */
  private evict(now: number): boolean {
    let looked = 0;
    for (const [id, record] of this.records) {
      if (record.until <= now) {
        this.records.delete(id);
        return true;
      }
      if (++looked >= 100) break;
    }
    return false;
  }
}

/**
 * Both steps as one Lua script each, so that instances sharing a Redis never interleave inside
 * one. The keys of an account share a hash tag (one Redis Cluster slot).
 */
const ATTEMPT_SCRIPT = `
local now = tonumber(ARGV[1])
local function wait(key)
  local untilAt = tonumber(redis.call('HGET', key, 'until') or '0')
  if untilAt > now then return untilAt - now end
  return 0
end
local pairWait = wait(KEYS[2])
if pairWait > 0 then return pairWait end
local seen = redis.call('ZSCORE', KEYS[3], ARGV[2])
if not (seen and tonumber(seen) > now - tonumber(ARGV[9])) then
  local accountWait = wait(KEYS[1])
  if accountWait > 0 then return accountWait end
end
local maxDelay = tonumber(ARGV[7])
local forget = tonumber(ARGV[8])
local function fail(key, threshold, first)
  local failures = redis.call('HINCRBY', key, 'failures', 1)
  if failures >= threshold then
    local delay = math.min(first * 2 ^ (failures - threshold), maxDelay)
    redis.call('HSET', key, 'until', string.format('%d', now + delay))
  end
  redis.call('PEXPIRE', key, forget + maxDelay)
end
fail(KEYS[2], tonumber(ARGV[3]), tonumber(ARGV[4]))
fail(KEYS[1], tonumber(ARGV[5]), tonumber(ARGV[6]))
return 0
`;

const SUCCEEDED_SCRIPT = `
local now = tonumber(ARGV[1])
local knownFor = tonumber(ARGV[3])
local keep = tonumber(ARGV[4])
redis.call('DEL', KEYS[2])
if tonumber(redis.call('HGET', KEYS[1], 'failures') or '0') > 0 then
  redis.call('HINCRBY', KEYS[1], 'failures', -1)
end
redis.call('ZADD', KEYS[3], now, ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - knownFor)
local count = redis.call('ZCARD', KEYS[3])
if count > keep then redis.call('ZREMRANGEBYRANK', KEYS[3], 0, count - keep - 1) end
redis.call('PEXPIRE', KEYS[3], knownFor)
return 0
`;

export const DEFAULT_LOGIN_LOCKOUT_KEY_PREFIX = 'inventory:login-lockout:';

/**
 * Shared by every instance using the same Redis and key prefix. Redis keeps each record until
 * its failures are forgotten (PEXPIRE), so its memory is bounded by time, not by a count. If
 * Redis fails, the attempt goes ahead (logged), as the rate limit does: the lock-out must not
 * take sign-in down with it.
 */
export class RedisLoginLockout implements LoginLockout {
  constructor(
    private readonly redis: Redis,
    private readonly policy: LoginLockoutPolicy,
    private readonly log: FastifyBaseLogger,
    private readonly prefix: string = DEFAULT_LOGIN_LOCKOUT_KEY_PREFIX,
    private readonly now: () => number = Date.now,
  ) {}

  private keys(account: string) {
    const tag = `${this.prefix}{${encodeURIComponent(accountKey(account))}}`;
    return { account: `${tag}:account`, known: `${tag}:known` };
  }

  async attempt(account: string, address: string): Promise<number> {
    const { policy } = this;
    const client = addressBucket(address);
    const keys = this.keys(account);
    try {
      const wait = await this.redis.eval(
        ATTEMPT_SCRIPT,
        3,
        keys.account,
        `${keys.account}:${client}`,
        keys.known,
        this.now(),
        client,
        policy.failuresPerAddress,
        policy.addressFirstDelayMs,
        policy.failuresPerAccount,
        policy.accountFirstDelayMs,
        policy.maxDelayMs,
        policy.forgetAfterMs,
        policy.knownAddressMs,
      );
      return Number(wait);
    } catch (error) {
      this.log.warn({ err: error }, 'login lock-out: Redis unavailable, attempt not counted');
      return 0;
    }
  }

  async succeeded(account: string, address: string): Promise<void> {
    const client = addressBucket(address);
    const keys = this.keys(account);
    try {
      await this.redis.eval(
        SUCCEEDED_SCRIPT,
        3,
        keys.account,
        `${keys.account}:${client}`,
        keys.known,
        this.now(),
        client,
        this.policy.knownAddressMs,
        this.policy.knownAddressesPerAccount,
      );
    } catch (error) {
      this.log.warn({ err: error }, 'login lock-out: Redis unavailable, success not recorded');
    }
  }
}
