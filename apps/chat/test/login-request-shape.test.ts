import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from './support/accounts.js';
import { Harness, login, loginBody } from './support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await Harness.open();
});
afterEach(() => h.reset());
afterAll(() => h.close());

describe('the shape of a login request', () => {
  it("a password body (Rocket.Chat's user/password) says password sign-in is not offered and names the ways that are", async () => {
    const app = await h.app();
    for (const body of [
      { user: 'alice', password: 'secret' },
      { username: 'alice', password: 'secret' },
      { user: { username: 'alice' }, password: { digest: 'abc', algorithm: 'sha-256' } },
      { email: 'alice@example.com', password: 'secret' },
    ]) {
      const response = await login(app, body);
      expect(response.statusCode).toBe(400);
      const answer = response.json();
      expect(answer.status).toBe('error');
      expect(answer.error).toBe('password-login-unavailable');
      expect(answer.message).toMatch(/password sign-in is not offered/i);
      expect(answer.message).toContain('serviceName');
      expect(answer.message).toContain('oauth');
      expect(answer.message).toContain('resume');
      expect(answer.message).toContain('github');
      expect(answer.details.services).toContain('github');
      expect(answer.message).not.toContain('secret');
    }
  });

  it('names every missing field at once', async () => {
    const app = await h.app();
    const response = await login(app, { serviceName: 'github' });
    expect(response.statusCode).toBe(400);
    // The access token too: a service that takes one needs it like the other five.
    expect(response.json().message).toBe(
      'accessToken, accessTokenSecret, appSecret, appId, expiresIn: required',
    );
    const empty = await login(app, {});
    expect(empty.json().message).toBe(
      'serviceName, accessToken, accessTokenSecret, appSecret, appId, expiresIn: required',
    );
  });

  it('GET /api/v1/login is 405 with Allow: POST, in the error shape', async () => {
    const app = await h.app();
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH'] as const) {
      const response = await app.inject({ method, url: '/api/v1/login' });
      expect(response.statusCode).toBe(405);
      expect(response.headers.allow).toBe('POST');
      expect(response.json()).toMatchObject({ status: 'error', error: 'method-not-allowed' });
    }
  });

  it("a new user's _updatedAt is never earlier than createdAt, whatever the service's clock", async () => {
    // The harness clock (2026-01-01) is behind the database's: the two must not be mixed.
    const app = await h.app();
    const response = await login(app, {
      ...loginBody('github', ''),
      ...accounts.github(h.fake),
    });
    expect(response.statusCode).toBe(200);
    const me = response.json().data.me;
    expect(Date.parse(me._updatedAt)).toBeGreaterThanOrEqual(Date.parse(me.createdAt));
  });
});
