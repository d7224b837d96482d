import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { accounts } from './support/accounts.js';
import { Harness, login, loginBody, logout, me } from './support/harness.js';

/**
 * Issue 16, "Findings of a hostile review": one regression test (or more) per finding, each
 * written before its fix and seen failing.
 */
let h: Harness;
beforeAll(async () => {
  h = await Harness.open();
});
afterEach(() => h.reset());
afterAll(() => h.close());

const env = (vars: Record<string, string>) => ({ CHAT_CONFIG: '', ...vars });

describe('finding 1: TRUST_PROXY=true let the client choose its rate-limit address', () => {
  it('refuses TRUST_PROXY=true at start-up with a message saying what to set', () => {
    for (const value of ['true', 'TRUE', 'yes']) {
      expect(() => loadConfig(env({ TRUST_PROXY: value }), '/nonexistent')).toThrow(ConfigError);
      expect(() => loadConfig(env({ TRUST_PROXY: value }), '/nonexistent')).toThrow(
        /TRUST_PROXY: .*addresses.*hop count/,
      );
    }
  });

  it('takes trusted proxy addresses, CIDR ranges or a hop count', () => {
    const read = (value: string) =>
      loadConfig(env({ TRUST_PROXY: value }), '/nonexistent').trustProxy;
    expect(read('10.0.0.1, 192.168.0.0/16,loopback')).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      'loopback',
    ]);
    expect(read('1')).toBe(1);
    expect(read('false')).toBe(false);
    expect(read('')).toBe(false);
    expect(read('0')).toBe(false);
    for (const bad of ['11', 'proxy.example.com', '10.0.0.0/33', '1.2.3']) {
      expect(() => read(bad), bad).toThrow(ConfigError);
    }
  });

  for (const setting of ['10.0.0.1', '1']) {
    it(`TRUST_PROXY=${setting}: 25 logins with a forged X-Forwarded-For are limited by the real address`, async () => {
      const { trustProxy } = loadConfig(env({ TRUST_PROXY: setting }), '/nonexistent');
      const app = await h.app({ trustProxy, loginRateLimit: 10 });
      const body = { ...loginBody('facebook', ''), ...accounts.facebook(h.fake) };
      const statuses: number[] = [];
      for (let i = 0; i < 25; i++) {
        const response = await app.inject({
          method: 'POST',
          url: '/api/v1/login',
          payload: body,
          // The client wrote "9.9.9.<i>"; the proxy at 10.0.0.1 appended the address it saw.
          headers: { 'x-forwarded-for': `9.9.9.${i}, 203.0.113.7` },
          remoteAddress: '10.0.0.1',
        });
        statuses.push(response.statusCode);
      }
      expect(statuses.filter((status) => status === 200)).toHaveLength(10);
      expect(statuses.slice(10)).toEqual(Array(15).fill(429));
    });
  }
});

describe('finding 2: anyone who knew a user id could lock that user out', () => {
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
describe.skipIf(!redisUrl)('finding 2 with Redis (TEST_REDIS_URL): two instances', () => {
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
});

describe('finding 3: traffic could flush the in-memory lock-out', () => {
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

describe('finding 4: /avatar/{username} redirected to any https URL a provider returned', () => {
  it('never redirects to a host that is not an avatar host of the service', async () => {
    const app = await h.app();
    const credentials = accounts.keycloak(h.fake);
    const account = h.fake.oidc.get(credentials.accessToken);
    if (!account) throw new Error('fixture');
    account.userinfo = { ...account.userinfo, picture: 'https://attacker.example/phish.png' };
    const { data } = (await login(app, { ...loginBody('keycloak', ''), ...credentials })).json();
    const response = await app.inject({ method: 'GET', url: `/avatar/${data.me.username}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers.location).toBeUndefined();
    expect(response.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
  });

  it('redirects to an allowed host, exact or by a *.domain pattern', async () => {
    const app = await h.app();
    const { data } = (
      await login(app, { ...loginBody('google', ''), ...accounts.google(h.fake) })
    ).json();
    const response = await app.inject({ method: 'GET', url: `/avatar/${data.me.username}` });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('https://lh3.example.com/a/margaret');
  });

  it('a look-alike host does not match a pattern', async () => {
    const app = await h.app();
    const credentials = accounts.google(h.fake);
    const account = h.fake.google.get(credentials.accessToken);
    if (!account) throw new Error('fixture');
    for (const picture of [
      'https://lh3.example.com.attacker.example/a.png',
      'https://attacker.example/lh3.example.com/a.png',
      'https://lh3.example.com@attacker.example/a.png',
      'https://example.com/a.png',
    ]) {
      account.userinfo = { ...account.userinfo, picture };
      const { data } = (await login(app, { ...loginBody('google', ''), ...credentials })).json();
      const response = await app.inject({ method: 'GET', url: `/avatar/${data.me.username}` });
      expect(response.statusCode, picture).toBe(200);
      expect(response.headers.location, picture).toBeUndefined();
    }
  });
});

describe('finding 5: username squatting', () => {
  async function usernameFor(preferred: string, reservedUsernames?: string[]) {
    const app = await h.app(reservedUsernames ? { reservedUsernames } : {});
    const sub = randomBytes(6).toString('hex');
    const credentials = accounts.keycloak(h.fake, sub);
    const account = h.fake.oidc.get(credentials.accessToken);
    if (!account) throw new Error('fixture');
    account.userinfo = {
      sub,
      preferred_username: preferred,
      name: 'Mallory Example',
    };
    const response = await login(app, { ...loginBody('keycloak', ''), ...credentials });
    expect(response.statusCode).toBe(200);
    return response.json().data.me.username as string;
  }

  it('path-like handles are refused before normalising: ../../admin is not admin', async () => {
    for (const handle of ['../../admin', '..\\admin', '/admin', 'admin/..', '%2e%2e%2fadmin']) {
      const username = await usernameFor(handle);
      expect(username, handle).not.toMatch(/admin/);
      expect(username, handle).toMatch(/^mallory\.example\d*$/);
    }
  });

  it('reserved names are never given, whatever their case or accents', async () => {
    for (const handle of [
      'admin',
      'Administrator',
      'ROOT',
      'rocket.cat',
      'System',
      'support',
      'ádmin',
    ]) {
      const username = await usernameFor(handle);
      expect(username, handle).toMatch(/^mallory\.example\d*$/);
    }
  });

  it('the list is configurable (RESERVED_USERNAMES)', async () => {
    expect(await usernameFor('linus_t', ['linus_t'])).toMatch(/^mallory\.example\d*$/);
    expect(await usernameFor('admin', ['nobody'])).toBe('admin');
  });
});
