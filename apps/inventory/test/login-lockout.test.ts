// The per-account login lock-out (a hostile review found none). Guessing was bounded only per client
// address (100 requests a minute), so a guesser with many addresses was not slowed at all. Now:
// a wait per (account, address) pair after 5 failures, and one per account after 20 failures
// from all addresses together, which addresses that signed in before are exempt from; refused
// attempts get 429 with Retry-After before any password work. In memory (one instance) and in
// Redis (two instances sharing it).
import { randomUUID } from 'node:crypto';
import type { Store } from '@netops/store';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressKey, MemoryLoginLockout, waitAfter } from '../src/auth/login-lockout.js';
import type { Database } from '../src/db/schema.js';
import { DEFAULT_LOGIN_LOCKOUT, type LoginLockoutPolicy } from '../src/protections/index.js';
import { startSeededApp, TEST_PASSWORD } from './helpers.js';

const redisUrl = process.env.TEST_REDIS_URL || undefined;
const LOCKED = { status: 'error', message: 'Too many failed logins, try again later' };

function startInstance(options: { redisUrl?: string; prefix?: string } = {}) {
  return startSeededApp(
    { rateLimitMax: 0, redisUrl: options.redisUrl },
    options.prefix ? { loginLockoutKeyPrefix: options.prefix } : {},
  );
}

const login = (app: FastifyInstance, username: string, password: string, address: string) =>
  app.inject({
    method: 'POST',
    url: '/users/login',
    payload: { username, password },
    remoteAddress: address,
  });

/** The scenarios, run against one instance or alternating between two sharing Redis. */
function lockoutScenarios(instances: () => FastifyInstance[]) {
  const on = (i: number) => {
    const all = instances();
    return all[i % all.length] as FastifyInstance;
  };

  it('locks a guessing address out of one account after 5 failures, not the owner', async () => {
    const guesser = '198.51.100.7';
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push((await login(on(i), 'editor', `guess-${i}`, guesser)).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    // The 6th attempt, even with the right password, waits: 429, Retry-After one minute.
    const refused = await login(on(5), 'editor', TEST_PASSWORD, guesser);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual(LOCKED);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(55);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Same name in other letter case: the same account.
    expect((await login(on(6), 'EDITOR', 'x', guesser)).statusCode).toBe(429);
    // The owner on their own address is not locked by the stranger.
    expect((await login(on(7), 'editor', TEST_PASSWORD, '203.0.113.10')).statusCode).toBe(200);
    // Another account from the guessing address is not locked either.
    expect((await login(on(8), 'viewer', TEST_PASSWORD, guesser)).statusCode).toBe(200);
  });

  it('a success resets the pair', async () => {
    const address = '198.51.100.8';
    for (let i = 0; i < 4; i++) await login(on(i), 'viewer', 'typo', address);
    expect((await login(on(4), 'viewer', TEST_PASSWORD, address)).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) {
      expect((await login(on(i), 'viewer', 'typo', address)).statusCode).toBe(401);
    }
  });

  it('slows guessing from many addresses down for the account, except where its owner signs in', async () => {
    // The owner signs in from home first: that address is known to the account.
    const home = '203.0.113.20';
    expect((await login(on(0), 'admin', TEST_PASSWORD, home)).statusCode).toBe(200);
    // 20 addresses, one guess each: every one evaluated (401), none locked by its pair.
    for (let i = 0; i < 20; i++) {
      expect((await login(on(i), 'admin', `guess-${i}`, `192.0.2.${i + 1}`)).statusCode).toBe(401);
    }
    // The account now waits for every other address: the 21st guesser is refused at once.
    const refused = await login(on(20), 'admin', 'guess-20', '192.0.2.200');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual(LOCKED);
    expect(Number(refused.headers['retry-after'])).toBe(60);
    // The owner at home is exempt.
    expect((await login(on(21), 'admin', TEST_PASSWORD, home)).statusCode).toBe(200);
    // An unknown name is counted the same way (nothing tells which names exist).
    for (let i = 0; i < 20; i++) await login(on(i), 'nobody', 'x', `192.0.2.${i + 1}`);
    expect((await login(on(0), 'nobody', 'x', '192.0.2.201')).statusCode).toBe(429);
  });

  it('bounds a simultaneous burst of guesses from many addresses', async () => {
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        login(on(i), 'burst-target', `guess-${i}`, `10.9.${Math.floor(i / 250)}.${(i % 250) + 1}`),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    // Exactly the account's 20 free failures were evaluated; the rest waited.
    expect(statuses.filter((status) => status === 401)).toHaveLength(20);
    expect(statuses.filter((status) => status === 429)).toHaveLength(40);
  });
}

describe('login lock-out, one instance (memory)', () => {
  let instance: { app: FastifyInstance; store: Store<Database> };
  beforeAll(async () => {
    instance = await startInstance();
  });
  afterAll(async () => {
    await instance.app.close();
    await instance.store.close();
  });
  lockoutScenarios(() => [instance.app]);
});

describe.skipIf(!redisUrl)('login lock-out, two instances sharing Redis', () => {
  const instances: Array<{ app: FastifyInstance; store: Store<Database> }> = [];
  beforeAll(async () => {
    const prefix = `inventory-test:login-lockout:${randomUUID()}:`;
    for (let i = 0; i < 2; i++) instances.push(await startInstance({ redisUrl, prefix }));
  });
  afterAll(async () => {
    for (const { app, store } of instances) {
      await app.close();
      await store.close();
    }
  });
  lockoutScenarios(() => instances.map(({ app }) => app));
});

describe('the policy (memory store, a clock of its own)', () => {
  const policy: LoginLockoutPolicy = { ...DEFAULT_LOGIN_LOCKOUT, maxRecords: 50 };

  it('doubles waits up to the maximum and forgets failures after a quiet day', async () => {
    let now = 1_000_000;
    const lockout = new MemoryLoginLockout(policy, () => now);
    const waits: number[] = [];
    for (let i = 0; i < 12; i++) {
      const wait = await lockout.attempt('admin', '198.51.100.1');
      if (wait > 0) {
        waits.push(wait);
        now += wait;
        expect(await lockout.attempt('admin', '198.51.100.1')).toBe(0);
      }
    }
    const minute = 60_000;
    expect(waits.slice(0, 6)).toEqual([
      minute,
      2 * minute,
      4 * minute,
      8 * minute,
      15 * minute,
      15 * minute,
    ]);
    for (const wait of waits) expect(wait).toBeLessThanOrEqual(15 * minute);
    now += 24 * 60 * minute;
    for (let i = 0; i < 4; i++) expect(await lockout.attempt('admin', '198.51.100.1')).toBe(0);
    expect(waitAfter(1000, 5, minute, 15 * minute)).toBe(15 * minute);
    // The account's waits: 1 s after the 20th failure from all addresses, then doubling.
    const { failuresPerAccount: after, accountFirstDelayMs: first, maxDelayMs: max } = policy;
    expect([20, 21, 22, 30, 31].map((n) => waitAfter(n, after, first, max))).toEqual([
      1000, 2000, 4000, 900_000, 900_000,
    ]);
    const spread = new MemoryLoginLockout(policy, () => now);
    for (let i = 0; i < 20; i++) expect(await spread.attempt('root', `192.0.2.${i}`)).toBe(0);
    expect(await spread.attempt('root', '192.0.2.99')).toBe(1000);
  });

  it('keeps at most maxRecords records and never evicts a running wait', async () => {
    let now = 1_000_000;
    const lockout = new MemoryLoginLockout(policy, () => now);
    // 10 pairs locked (5 failures each; 10 pair and 10 account records).
    for (let i = 0; i < 10; i++) {
      for (let f = 0; f < 5; f++) await lockout.attempt(`target-${i}`, `198.51.100.${i}`);
    }
    // Then a spray of names, one failure each, far beyond the bound.
    for (let i = 0; i < 500; i++) await lockout.attempt(`spray-${i}`, '192.0.2.1');
    expect(lockout.size).toBeLessThanOrEqual(50);
    for (let i = 0; i < 10; i++) {
      expect(await lockout.attempt(`target-${i}`, `198.51.100.${i}`)).toBeGreaterThan(0);
    }
    // Once everything is locked, new names wait rather than go uncounted.
    const full = new MemoryLoginLockout(
      { ...policy, maxRecords: 3, failuresPerAccount: 10 },
      () => now,
    );
    for (let f = 0; f < 5; f++) await full.attempt('a', '192.0.2.1');
    for (let f = 0; f < 5; f++) await full.attempt('a', '192.0.2.2');
    expect(await full.attempt('new-name', '192.0.2.3')).toBeGreaterThan(0);
    now += 60_000;
    expect(await full.attempt('new-name', '192.0.2.3')).toBe(0);
  });

  it('groups IPv6 clients by /64', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('192.0.2.1')).toBe('192.0.2.1');
  });
});
