import { randomInt } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from './support/accounts.js';
import { Harness, login, loginBody, me } from './support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await Harness.open();
});
afterEach(() => h.reset());
afterAll(() => h.close());

describe('rate limit per client IP (LOGIN_RATE_LIMIT)', () => {
  it('answers 429 too-many-requests with Retry-After past the limit, per IP', async () => {
    const app = await h.app({ loginRateLimit: 3 });
    const credentials = accounts.facebook(h.fake);
    const body = { ...loginBody('facebook', ''), ...credentials };
    for (let i = 0; i < 3; i++) expect((await login(app, body, '10.0.0.1')).statusCode).toBe(200);
    const limited = await login(app, body, '10.0.0.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ status: 'error', error: 'too-many-requests' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await login(app, body, '10.0.0.2')).statusCode).toBe(200);
  });

  it('counts only well-formed requests (the body is validated first)', async () => {
    const app = await h.app({ loginRateLimit: 2 });
    for (let i = 0; i < 5; i++) {
      expect((await login(app, { serviceName: 'x' }, '10.0.0.3')).statusCode).toBe(400);
    }
    // Well-formed JSON without the credential its service takes (it was counted: 429 from the
    // third on, and the valid login after it refused too).
    for (let i = 0; i < 5; i++) {
      const { accessToken: _none, ...withoutToken } = loginBody('github', 'unused');
      const missing = await login(app, withoutToken, '10.0.0.3');
      expect(missing.statusCode).toBe(400);
      expect(missing.body).toContain('accessToken: required');
    }
    const body = { ...loginBody('facebook', ''), ...accounts.facebook(h.fake) };
    expect((await login(app, body, '10.0.0.3')).statusCode).toBe(200);
  });
});

describe('lock-out of one account', () => {
  it('locks (service, access token) for 5 minutes after 5 refused attempts, even from many IPs', async () => {
    const app = await h.app();
    const credentials = accounts.twitter(h.fake);
    const wrong = { ...loginBody('twitter', ''), ...credentials, accessTokenSecret: 'guess' };
    for (let i = 0; i < 5; i++) {
      expect((await login(app, wrong, `10.1.0.${i}`)).statusCode).toBe(401);
    }
    const callsBefore = h.fake.calls.length;
    // Locked now: even the right secret is refused, without asking the provider.
    const right = { ...loginBody('twitter', ''), ...credentials };
    const locked = await login(app, right, '10.1.0.99');
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error).toBe('account-locked');
    expect(locked.headers['retry-after']).toBe('300');
    expect(h.fake.calls.length).toBe(callsBefore);
    // Another account is not affected.
    const other = { ...loginBody('twitter', ''), ...accounts.twitter(h.fake, '99', 'other') };
    expect((await login(app, other)).statusCode).toBe(200);
    h.advance(240);
    expect((await login(app, right)).headers['retry-after']).toBe('60');
    h.advance(61);
    expect((await login(app, right)).statusCode).toBe(200);
  });

  it('counts application mismatches and deactivated accounts as failures too', async () => {
    const app = await h.app({ lockout: { attempts: 2, seconds: 300 } });
    const credentials = accounts.github(h.fake);
    const wrongApp = { ...loginBody('github', ''), ...credentials, appSecret: 'nope' };
    expect((await login(app, wrongApp)).statusCode).toBe(401);
    expect((await login(app, wrongApp)).statusCode).toBe(401);
    expect((await login(app, { ...loginBody('github', ''), ...credentials })).statusCode).toBe(429);
  });

  it('a success resets the count', async () => {
    const app = await h.app({ lockout: { attempts: 3, seconds: 300 } });
    const credentials = accounts.twitter(h.fake);
    const right = { ...loginBody('twitter', ''), ...credentials };
    const wrong = { ...right, accessTokenSecret: 'guess' };
    for (let round = 0; round < 3; round++) {
      expect((await login(app, wrong)).statusCode).toBe(401);
      expect((await login(app, wrong)).statusCode).toBe(401);
      expect((await login(app, right)).statusCode).toBe(200);
    }
  });

  it('locks a user id after 5 wrong X-Auth-Token guesses', async () => {
    const app = await h.app();
    const { data } = (
      await login(app, { ...loginBody('facebook', ''), ...accounts.facebook(h.fake) })
    ).json();
    for (let i = 0; i < 5; i++) {
      expect((await me(app, data.userId, `guess-${i}`)).statusCode).toBe(401);
    }
    const locked = await me(app, data.userId, data.authToken);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error).toBe('account-locked');
    expect(Number(locked.headers['retry-after'])).toBe(300);
    h.advance(301);
    expect((await me(app, data.userId, data.authToken)).statusCode).toBe(200);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
describe.skipIf(!redisUrl)('with Redis (TEST_REDIS_URL): limits shared by instances', () => {
  it('two instances share the rate limit and the lock-out', async () => {
    const redis = new Redis(redisUrl ?? '', { maxRetriesPerRequest: 1 });
    try {
      // Keys are made unique per run (IP, token): Redis may be shared with other suites.
      const one = await h.app({ loginRateLimit: 3 }, redis);
      const two = await h.app({ loginRateLimit: 3 }, redis);
      const body = { ...loginBody('facebook', ''), ...accounts.facebook(h.fake) };
      const ip = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(256)}`;
      expect((await login(one, body, ip)).statusCode).toBe(200);
      expect((await login(two, body, ip)).statusCode).toBe(200);
      expect((await login(one, body, ip)).statusCode).toBe(200);
      expect((await login(two, body, ip)).statusCode).toBe(429);

      const wrong = { ...body, accessToken: `unknown-${Date.now()}` };
      for (let i = 0; i < 5; i++) {
        const instance = i % 2 === 0 ? one : two;
        expect((await login(instance, wrong, `10.8.0.${i}`)).statusCode).toBe(401);
      }
      const locked = await login(one, wrong, '10.8.1.1');
      expect(locked.statusCode).toBe(429);
      expect(locked.json().error).toBe('account-locked');
    } finally {
      redis.disconnect();
    }
  });
});
