import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { totpFor } from '../src/auth/totp.js';
import { accounts } from './support/accounts.js';
import { Harness, login, loginBody, me } from './support/harness.js';

/**
 * REDIS_URL set, Redis unreachable: the lock-out counts in the instance's memory instead, so a
 * second factor, a login credential and a session token are never open to unlimited guessing
 * while Redis is down. The client is configured as service.ts configures it (no offline queue,
 * one retry): each command fails at once.
 */
let h: Harness;
let redis: Redis;
beforeAll(async () => {
  h = await Harness.open();
  // Nothing listens on port 1.
  redis = new Redis('redis://127.0.0.1:1', {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    lazyConnect: true,
  });
  redis.on('error', () => {});
  await redis.connect().catch(() => {});
});
afterEach(() => h.reset());
afterAll(async () => {
  redis.disconnect();
  await h.close();
});

const KEY = randomBytes(32);

async function signIn(app: FastifyInstance) {
  const credentials = accounts.github(h.fake);
  const response = await login(app, { ...loginBody('github', ''), ...credentials });
  expect(response.statusCode, response.body).toBe(200);
  const { data } = response.json();
  return { userId: data.userId as string, token: data.authToken as string, credentials };
}

describe('with Redis unreachable', () => {
  it('five wrong TOTP codes still lock the second factor for 300 s', async () => {
    const app = await h.app({ twoFactorKey: KEY }, redis);
    const s = await signIn(app);
    const post = (url: string, payload: object) =>
      app.inject({
        method: 'POST',
        url,
        headers: { 'x-user-id': s.userId, 'x-auth-token': s.token },
        payload,
      });
    const { secret } = (await post('/api/v1/users.2fa.enableTOTP', {})).json();
    const code = () => totpFor(secret, 'x').generate({ timestamp: h.clock });
    expect((await post('/api/v1/users.2fa.confirmTOTP', { code: code() })).statusCode).toBe(200);
    h.advance(30);
    const loginWith = (totp: string) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/login',
        payload: { ...loginBody('github', ''), ...s.credentials },
        headers: { 'x-2fa-code': totp },
      });
    const right = code();
    const wrong = right === '123456' ? '654321' : '123456';
    const errors: string[] = [];
    for (let i = 0; i < 25; i++) errors.push((await loginWith(wrong)).json().error);
    expect(errors.slice(0, 5)).toEqual(Array(5).fill('totp-invalid'));
    expect(new Set(errors.slice(5))).toEqual(new Set(['account-locked']));
    const locked = await loginWith(right);
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(290);
    h.advance(301);
    expect((await loginWith(code())).statusCode).toBe(200);
  });

  it('wrong session tokens and wrong login credentials still lock', async () => {
    const app = await h.app({}, redis);
    const s = await signIn(app);
    for (let i = 0; i < 5; i++) {
      expect((await me(app, s.userId, `wrong-token-${i}`)).statusCode).toBe(401);
    }
    const locked = await me(app, s.userId, s.token);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error).toBe('account-locked');

    const unknown = { ...loginBody('github', 'gho_unknown-token') };
    for (let i = 0; i < 5; i++) expect((await login(app, unknown)).statusCode).toBe(401);
    expect((await login(app, unknown)).json().error).toBe('account-locked');
  });
});
