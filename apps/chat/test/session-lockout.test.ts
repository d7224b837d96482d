import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Lockout } from '../src/auth/lockout.js';
import { accounts } from './support/accounts.js';
import { Harness, login, loginBody, logout, me } from './support/harness.js';

/** A user id of Rocket.Chat's shape (17 characters) that names nobody. */
const randomUserId = () => randomBytes(16).toString('base64url').replace(/[-_]/g, 'x').slice(0, 17);

/** Wrong session tokens lock the guessing address for that user id, never the owner. */
let h: Harness;
beforeAll(async () => {
  h = await Harness.open();
});
afterEach(() => h.reset());
afterAll(() => h.close());

describe('session lock-out: per user id and client address (anyone who knew a user id could lock that user out)', () => {
  async function victim() {
    const app = await h.app({ lockout: { attempts: 5, seconds: 300, maxKeys: 100_000 } });
    const { data } = (
      await login(app, { ...loginBody('github', ''), ...accounts.github(h.fake) }, '198.51.100.1')
    ).json();
    return { app, userId: data.userId as string, token: data.authToken as string };
  }
  const from = (ip: string, userId: string, token: string, url = '/api/v1/me') => ({
    method: 'GET' as const,
    url,
    headers: { 'x-user-id': userId, 'x-auth-token': token },
    remoteAddress: ip,
  });

  it("a stranger's wrong tokens lock the stranger, not the victim's valid token", async () => {
    const { app, userId, token } = await victim();
    const strangers: number[] = [];
    for (let i = 0; i < 10; i++) {
      strangers.push((await app.inject(from('203.0.113.66', userId, `guess-${i}`))).statusCode);
    }
    expect(strangers).toEqual([...Array(5).fill(401), ...Array(5).fill(429)]);
    // The stranger's address is locked even with the right token: guessing from it stops.
    expect((await app.inject(from('203.0.113.66', userId, token))).statusCode).toBe(429);
    // The victim, elsewhere, keeps working, and can log out.
    expect((await app.inject(from('198.51.100.1', userId, token))).statusCode).toBe(200);
    const out = await app.inject({
      ...from('198.51.100.1', userId, token, '/api/v1/logout'),
      method: 'POST',
    });
    expect(out.statusCode).toBe(200);
  });

  it('guesses spread over many addresses meet a global bound: then one failure locks an address', async () => {
    const { app, userId, token } = await victim();
    // 10 addresses x 5 guesses = the global bound (10 x LOGIN_LOCKOUT_ATTEMPTS).
    for (let address = 0; address < 10; address++) {
      for (let i = 0; i < 5; i++) {
        const response = await app.inject(
          from(`203.0.113.${address}`, userId, `g-${address}-${i}`),
        );
        expect(response.statusCode).toBe(401);
      }
    }
    // A new address now gets one guess, not five.
    expect((await app.inject(from('203.0.113.200', userId, 'late-1'))).statusCode).toBe(401);
    expect((await app.inject(from('203.0.113.200', userId, 'late-2'))).statusCode).toBe(429);
    // The owner's valid token still works from an address that never failed.
    expect((await app.inject(from('198.51.100.1', userId, token))).statusCode).toBe(200);
    expect((await me(app, userId, token)).statusCode).toBe(200);
  });

  it('GET /api/v1/me and logout are rate-limited per client address (API_RATE_LIMIT)', async () => {
    const app = await h.app({ apiRateLimit: 3 });
    const { data } = (
      await login(app, { ...loginBody('github', ''), ...accounts.github(h.fake) })
    ).json();
    for (let i = 0; i < 3; i++) {
      expect((await app.inject(from('192.0.2.9', data.userId, data.authToken))).statusCode).toBe(
        200,
      );
    }
    const limited = await app.inject(from('192.0.2.9', data.userId, data.authToken));
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toBe('too-many-requests');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await app.inject(from('192.0.2.10', data.userId, data.authToken))).statusCode).toBe(
      200,
    );
    expect((await logout(app, data.userId, data.authToken)).statusCode).toBe(200);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
describe.skipIf(!redisUrl)(
  'session lock-out shared through Redis (TEST_REDIS_URL): two instances',
  () => {
    it("share the stranger's lock and leave the victim's token working", async () => {
      const redis = new Redis(redisUrl ?? '', { maxRetriesPerRequest: 1 });
      try {
        const one = await h.app({}, redis);
        const two = await h.app({}, redis);
        // A user id of its own per run: the Redis may be shared with other suites.
        const { data } = (
          await login(one, { ...loginBody('github', ''), ...accounts.github(h.fake) })
        ).json();
        const stranger = `203.0.113.${randomBytes(1)[0]}`;
        const guess = (app: typeof one, token: string, ip: string) =>
          app.inject({
            method: 'GET',
            url: '/api/v1/me',
            headers: { 'x-user-id': data.userId, 'x-auth-token': token },
            remoteAddress: ip,
          });
        const statuses: number[] = [];
        for (let i = 0; i < 7; i++) {
          statuses.push((await guess(i % 2 ? one : two, `guess-${i}`, stranger)).statusCode);
        }
        expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
        expect((await guess(one, data.authToken, stranger)).statusCode).toBe(429);
        expect((await guess(two, data.authToken, '198.51.100.1')).statusCode).toBe(200);
      } finally {
        redis.disconnect();
      }
    });

    it('a wrong token for a user id that does not exist adds no global counter; a real user id still gets one', async () => {
      const redis = new Redis(redisUrl ?? '', { maxRetriesPerRequest: 1 });
      try {
        const app = await h.app({}, redis);
        const { data } = (
          await login(app, { ...loginBody('github', ''), ...accounts.github(h.fake) })
        ).json();
        const nobody = randomUserId();
        const guess = (userId: string) =>
          app.inject({
            method: 'GET',
            url: '/api/v1/sessions/list',
            headers: { 'x-user-id': userId, 'x-auth-token': randomBytes(32).toString('base64url') },
            remoteAddress: '203.0.113.77',
          });
        const globalCount = (userId: string) =>
          redis.exists(`chat-lockout:count:${Lockout.sessionGlobalKey(userId)}`);
        expect((await guess(nobody)).statusCode).toBe(401);
        expect((await guess(data.userId)).statusCode).toBe(401);
        expect(await globalCount(nobody)).toBe(0);
        expect(await globalCount(data.userId)).toBe(1);
      } finally {
        redis.disconnect();
      }
    });
  },
);

describe('session lock-out table bounds (traffic could flush the in-memory lock-out)', () => {
  it('one address sending wrong tokens for random user ids meets API_RATE_LIMIT before the table fills; sign-ins keep working', async () => {
    // Every session route was unlimited but me and logout: 50 requests like these filled a table
    // of 100 (an entry per (user id, address) and one per user id), and every login after them
    // got 429 for its new entry.
    const app = await h.app({
      apiRateLimit: 5,
      lockout: { attempts: 5, seconds: 300, maxKeys: 100 },
    });
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof app.inject>> | undefined;
    for (let i = 0; i < 150; i++) {
      last = await app.inject({
        method: 'GET',
        url: '/api/v1/sessions/list',
        headers: {
          'x-user-id': randomUserId(),
          'x-auth-token': randomBytes(32).toString('base64url'),
        },
        remoteAddress: '203.0.113.99',
      });
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(145).fill(429)]);
    // The rate limit's answer, not the full table's.
    expect(last?.json().message).toMatch(/^Too many requests from this address/);
    expect(last?.headers['x-ratelimit-limit']).toBe('5');
    const signIn = await login(app, { ...loginBody('github', ''), ...accounts.github(h.fake) });
    expect(signIn.statusCode).toBe(200);
  });

  it('a wrong token for a user id that does not exist takes one entry, not two (no global counter for nobody)', async () => {
    // From as many addresses as it takes (no rate limit in the way): 80 unknown user ids fit a
    // table of 100 with room for a sign-in; with a global counter each, the 51st was refused.
    const app = await h.app({
      apiRateLimit: 1_000_000,
      lockout: { attempts: 5, seconds: 300, maxKeys: 100 },
    });
    const statuses: Record<number, number> = {};
    for (let i = 0; i < 80; i++) {
      const response = await app.inject({
        method: 'GET',
        url: '/api/v1/sessions/list',
        headers: { 'x-user-id': randomUserId(), 'x-auth-token': 'wrong' },
        remoteAddress: `10.5.0.${i}`,
      });
      statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
    }
    expect(statuses).toEqual({ 401: 80 });
    const signIn = await login(app, { ...loginBody('github', ''), ...accounts.github(h.fake) });
    expect(signIn.statusCode).toBe(200);
  });

  it('a lock survives more failing keys than the table holds; new keys are refused instead', async () => {
    const maxKeys = 40;
    const app = await h.app({
      lockout: { attempts: 5, seconds: 300, maxKeys },
      apiRateLimit: 1_000_000,
    });
    const credentials = accounts.twitter(h.fake);
    const wrong = { ...loginBody('twitter', ''), ...credentials, accessTokenSecret: 'guess' };
    for (let i = 0; i < 5; i++)
      expect((await login(app, wrong, `10.3.0.${i}`)).statusCode).toBe(401);
    const right = { ...loginBody('twitter', ''), ...credentials };
    expect((await login(app, right)).statusCode).toBe(429);

    // The flood: unauthenticated calls with random user ids, each a new failing key.
    const statuses: Record<number, number> = {};
    for (let i = 0; i < maxKeys * 3; i++) {
      const response = await app.inject({
        method: 'GET',
        url: '/api/v1/me',
        headers: { 'x-user-id': randomBytes(8).toString('hex'), 'x-auth-token': 'x' },
        remoteAddress: `10.4.${i >> 8}.${i & 255}`,
      });
      statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
      if (response.statusCode === 429) expect(response.json().error).toBe('too-many-requests');
    }
    expect(Object.keys(statuses).sort()).toEqual(['401', '429']);

    const stillLocked = await login(app, right);
    expect(stillLocked.statusCode).toBe(429);
    expect(stillLocked.json().error).toBe('account-locked');
    // Once the window has passed, the table empties and everything works again.
    h.advance(301);
    expect((await login(app, right)).statusCode).toBe(200);
  });
});
