/**
 * The session cache. Pins the structural gain (no database statement for a `me` whose
 * session is cached, one without the cache) and that it never serves what has changed: logout on
 * this instance at once, on another instance as soon as the database's notification arrives, a
 * deactivation made by hand in SQL, and a lock on the address even for the right token.
 */
import type { Store } from '@netops/store';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { type KyselyPlugin, sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import type { Database } from '../src/db/schema.js';
import { SessionCache } from '../src/db/session-cache.js';
import type { UserRow } from '../src/db/users.js';
import { accounts } from './support/accounts.js';
import { Harness, login, loginBody, logout, me, testConfig } from './support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await Harness.open();
});
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
  await h.reset();
});
afterAll(() => h.close());

const apps: FastifyInstance[] = [];

/** The harness's store, with every statement the app sends counted. */
function countingStore(): { store: Store<Database>; statements: () => number } {
  let count = 0;
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      count++;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return {
    store: { ...h.store, db: h.store.db.withPlugin(plugin) },
    statements: () => count,
  };
}

async function instance(options: { cache?: boolean; redis?: Redis } = {}) {
  const { store, statements } = countingStore();
  const app = await buildApp(testConfig(h.fake.url), {
    store,
    now: () => new Date(h.clock),
    ...(options.redis ? { redis: options.redis } : {}),
    ...(options.cache === false ? { sessionCache: false as const } : {}),
  });
  apps.push(app);
  return { app, statements };
}

async function signIn(app: FastifyInstance) {
  const answer = await login(app, { ...loginBody('github', ''), ...accounts.github(h.fake) });
  expect(answer.statusCode).toBe(200);
  const { userId, authToken } = answer.json().data as { userId: string; authToken: string };
  return { userId, authToken };
}

describe('statements per GET /api/v1/me', () => {
  it('reads the session once, then answers from the cache with no statement', async () => {
    const { app, statements } = await instance();
    const { userId, authToken } = await signIn(app);
    const first = await me(app, userId, authToken);
    expect(first.statusCode).toBe(200);
    const before = statements();
    for (let i = 0; i < 20; i++) {
      const answer = await me(app, userId, authToken);
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual(first.json());
    }
    expect(statements() - before).toBe(0);
  });

  it('sends one statement per check with SESSION_CACHE=off', async () => {
    const { app, statements } = await instance({ cache: false });
    const { userId, authToken } = await signIn(app);
    const before = statements();
    for (let i = 0; i < 20; i++) expect((await me(app, userId, authToken)).statusCode).toBe(200);
    expect(statements() - before).toBe(20);
  });

  it('still writes "last used" once a minute for a cached session', async () => {
    const { app } = await instance();
    const { userId, authToken } = await signIn(app);
    await me(app, userId, authToken);
    h.advance(61);
    expect((await me(app, userId, authToken)).statusCode).toBe(200);
    const row = await h.store.db
      .selectFrom('sessions')
      .select('last_used_at')
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(row.last_used_at.getTime()).toBe(h.clock);
  });

  it('still ends a cached session when it expires', async () => {
    const { app } = await instance();
    const answer = await login(app, {
      ...loginBody('github', '', { expiresIn: 120 }),
      ...accounts.github(h.fake),
    });
    const { userId, authToken } = answer.json().data;
    expect((await me(app, userId, authToken)).statusCode).toBe(200);
    h.advance(121);
    expect((await me(app, userId, authToken)).statusCode).toBe(401);
  });
});

describe('the cache never serves what changed', () => {
  it('logout takes effect at once on the instance that served it', async () => {
    const { app } = await instance();
    const { userId, authToken } = await signIn(app);
    expect((await me(app, userId, authToken)).statusCode).toBe(200);
    expect((await logout(app, userId, authToken)).statusCode).toBe(200);
    expect((await me(app, userId, authToken)).statusCode).toBe(401);
  });

  it('logout on one instance ends the session cached by another', async () => {
    const a = await instance();
    const b = await instance();
    const { userId, authToken } = await signIn(a.app);
    expect((await me(b.app, userId, authToken)).statusCode).toBe(200);
    const before = b.statements();
    expect((await me(b.app, userId, authToken)).statusCode).toBe(200);
    expect(b.statements()).toBe(before); // served by b's cache
    expect((await logout(a.app, userId, authToken)).statusCode).toBe(200);
    await expect
      .poll(async () => (await me(b.app, userId, authToken)).statusCode, { timeout: 2_000 })
      .toBe(401);
  });

  it('a deactivation made in SQL reaches every instance', async () => {
    const a = await instance();
    const b = await instance();
    const { userId, authToken } = await signIn(a.app);
    expect((await me(a.app, userId, authToken)).statusCode).toBe(200);
    expect((await me(b.app, userId, authToken)).statusCode).toBe(200);
    await sql`UPDATE users SET active = false WHERE id = ${userId}`.execute(h.store.db);
    for (const { app } of [a, b]) {
      await expect
        .poll(async () => (await me(app, userId, authToken)).statusCode, { timeout: 2_000 })
        .toBe(403);
    }
  });

  it('a profile refreshed by a login on another instance shows in me', async () => {
    const a = await instance();
    const b = await instance();
    const { userId, authToken } = await signIn(a.app);
    expect((await me(b.app, userId, authToken)).json().name).toBe('The Octocat');
    const account = h.fake.github.get('gho_583231');
    if (!account) throw new Error('no account');
    account.user.name = 'Mona Lisa Octocat';
    // The same account signs in again (accounts.github would reset the fake's record).
    const again = await login(a.app, { ...loginBody('github', ''), accessToken: 'gho_583231' });
    expect(again.statusCode).toBe(200);
    await expect
      .poll(async () => (await me(b.app, userId, authToken)).json().name, { timeout: 2_000 })
      .toBe('Mona Lisa Octocat');
  });

  it('a locked address gets 429 even with the right token held in the cache', async () => {
    const { app } = await instance();
    const { userId, authToken } = await signIn(app);
    expect((await me(app, userId, authToken)).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) {
      expect((await me(app, userId, `wrong-token-${i}`)).statusCode).toBe(401);
    }
    expect((await me(app, userId, authToken)).statusCode).toBe(429);
  });

  it('a cached token sent with another user id is refused and goes to the lock-out', async () => {
    const { app } = await instance();
    const { userId, authToken } = await signIn(app);
    expect((await me(app, userId, authToken)).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) {
      expect((await me(app, 'AAAAAAAAAAAAAAAAA', authToken)).statusCode).toBe(401);
    }
    expect((await me(app, 'AAAAAAAAAAAAAAAAA', authToken)).statusCode).toBe(429);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
describe.skipIf(!redisUrl)('with Redis (TEST_REDIS_URL)', () => {
  it('an address locked through one instance gets 429 from another that caches the session', async () => {
    const redis = new Redis(redisUrl ?? '', { maxRetriesPerRequest: 1 });
    try {
      const a = await instance({ redis });
      const b = await instance({ redis });
      const { userId, authToken } = await signIn(a.app);
      expect((await me(b.app, userId, authToken)).statusCode).toBe(200);
      for (let i = 0; i < 5; i++) {
        expect((await me(a.app, userId, `wrong-token-${i}`)).statusCode).toBe(401);
      }
      expect((await me(b.app, userId, authToken)).statusCode).toBe(429);
    } finally {
      const keys = await redis.keys('chat-lockout:*');
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    }
  });
});

describe('SessionCache', () => {
  const user = { id: 'u1' } as UserRow;
  const entry = (tokenHash: string, now: number) => ({
    user,
    tokenHash,
    sessionId: 's',
    expiresAt: new Date(now + 60_000),
    lastUsedAt: new Date(now),
    readAt: now,
  });
  const options = { maxEntries: 3, maxAgeMs: 10_000 };

  it('serves nothing until notifications arrive, and nothing after they are lost', () => {
    const cache = new SessionCache(options);
    cache.put(cache.ticket(), entry('t1', 0));
    expect(cache.get('t1', 1)).toBeUndefined();
    cache.listening();
    cache.put(cache.ticket(), entry('t1', 0));
    expect(cache.get('t1', 1)).toBeDefined();
    cache.lost();
    expect(cache.get('t1', 1)).toBeUndefined();
  });

  it('does not cache a read that started before its user was invalidated', () => {
    const cache = new SessionCache(options);
    cache.listening();
    const ticket = cache.ticket();
    cache.notified('u1'); // a logout committed while the read was in flight
    cache.put(ticket, entry('t1', 0));
    expect(cache.get('t1', 1)).toBeUndefined();
    cache.put(cache.ticket(), entry('t1', 0)); // a read started after it is cached
    expect(cache.get('t1', 1)).toBeDefined();
    cache.notified('*');
    expect(cache.get('t1', 1)).toBeUndefined();
  });

  it('is bounded in entries and in age', () => {
    const cache = new SessionCache(options);
    cache.listening();
    for (const token of ['t1', 't2', 't3', 't4']) cache.put(cache.ticket(), entry(token, 0));
    expect(cache.size).toBe(3);
    expect(cache.get('t1', 1)).toBeUndefined();
    expect(cache.get('t4', 1)).toBeDefined();
    expect(cache.get('t4', 10_000)).toBeUndefined();
  });
});
