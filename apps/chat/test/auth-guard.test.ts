import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sessionOf } from '../src/auth/guard.js';
import { accounts } from './support/accounts.js';
import { Harness, loginBody } from './support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await Harness.open();
});
afterEach(() => h.reset());
afterAll(() => h.close());

/**
 * Who may call a route is its `config.auth`, enforced by one hook (auth/guard.ts): a route that
 * says nothing is for signed-in users, `admin` for CHAT_ADMINS, `public` for anyone.
 */
describe('the route guard', () => {
  async function service() {
    const app = await h.app({ admins: ['twitter:783214'] });
    app.get('/test/undeclared', async (request) => ({ user: sessionOf(request).user.id }));
    app.get('/test/admin', { config: { auth: 'admin' } }, async () => ({ ok: true }));
    app.get('/test/public', { config: { auth: 'public' } }, async (request) => ({
      session: request.chatSession,
    }));
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/login',
      payload: { ...loginBody('github', ''), ...accounts.github(h.fake) },
    });
    expect(response.statusCode).toBe(200);
    const { userId, authToken } = response.json().data;
    return { app, headers: { 'x-user-id': userId, 'x-auth-token': authToken }, userId };
  }

  it('keeps a route that declares nothing for signed-in users', async () => {
    const { app, headers, userId } = await service();
    const anonymous = await app.inject({ url: '/test/undeclared' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ status: 'error', error: 'unauthorized' });
    const signed = await app.inject({ url: '/test/undeclared', headers });
    expect(signed.json()).toEqual({ user: userId });
  });

  it('refuses a signed-in user who is not an admin on an admin route (403)', async () => {
    const { app, headers } = await service();
    expect((await app.inject({ url: '/test/admin' })).statusCode).toBe(401);
    const refused = await app.inject({ url: '/test/admin', headers });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'forbidden', message: /CHAT_ADMINS/ });
  });

  it('lets anyone call a public route, and reads no session there', async () => {
    const { app, headers } = await service();
    expect((await app.inject({ url: '/test/public' })).json()).toEqual({ session: null });
    expect((await app.inject({ url: '/test/public', headers })).json()).toEqual({ session: null });
  });

  it('validates the request before it authenticates: a bad body is a 400 for anyone', async () => {
    const { app } = await service();
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/sessions/logout',
      payload: { sessionId: 'not-a-uuid' },
    });
    expect(response.statusCode).toBe(400);
  });
});
