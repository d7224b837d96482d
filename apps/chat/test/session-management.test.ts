import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '../src/config.js';
import { hashToken } from '../src/db/sessions.js';
import { accounts } from './support/accounts.js';
import { Harness, loginBody, me } from './support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await Harness.open();
});
afterEach(() => h.reset());
afterAll(() => h.close());

interface Signed {
  userId: string;
  token: string;
}

/** Logs a GitHub (default) or Twitter account in from `ip` with `userAgent`. */
async function signIn(
  app: FastifyInstance,
  options: { ip?: string; userAgent?: string; twitter?: boolean } = {},
): Promise<Signed> {
  const credentials = options.twitter ? accounts.twitter(h.fake) : accounts.github(h.fake);
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/login',
    payload: { ...loginBody(options.twitter ? 'twitter' : 'github', ''), ...credentials },
    remoteAddress: options.ip ?? '127.0.0.1',
    headers: options.userAgent ? { 'user-agent': options.userAgent } : {},
  });
  expect(response.statusCode).toBe(200);
  const { data } = response.json();
  return { userId: data.userId, token: data.authToken };
}

const as = (s: Signed) => ({ 'x-user-id': s.userId, 'x-auth-token': s.token });
const get = (app: FastifyInstance, s: Signed, url: string) =>
  app.inject({ method: 'GET', url, headers: as(s) });
const post = (app: FastifyInstance, s: Signed, url: string, payload?: object) =>
  app.inject({ method: 'POST', url, headers: as(s), ...(payload ? { payload } : {}) });
const resume = (app: FastifyInstance, token: unknown, ip = '127.0.0.1') =>
  app.inject({
    method: 'POST',
    url: '/api/v1/login',
    payload: { resume: token },
    remoteAddress: ip,
  });

const ADMIN = 'github:583231';
const app = (overrides: Partial<AppConfig> = {}) => h.app({ admins: [ADMIN], ...overrides });

describe('resume (POST /api/v1/login {"resume": token})', () => {
  it('answers like a login: the same token, the same user, a fresh me', async () => {
    const service = await app();
    const s = await signIn(service);
    await sql`UPDATE users SET name = 'Renamed Octocat'`.execute(h.store.db);
    const response = await resume(service, s.token);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.status).toBe('success');
    expect(body.data.authToken).toBe(s.token);
    expect(body.data.userId).toBe(s.userId);
    expect(body.data.me).toMatchObject({ _id: s.userId, name: 'Renamed Octocat' });
    // /me serves the profile under `data` or (Rocket.Chat's shape) at the top level.
    const profile = (await me(service, s.userId, s.token)).json();
    expect(profile.data ?? profile).toMatchObject({ name: 'Renamed Octocat' });
  });

  it('refuses unknown, expired and logged-out tokens (401) and deactivated users (403)', async () => {
    const service = await app();
    const s = await signIn(service);
    const unknown = await resume(service, 'x'.repeat(43));
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().error).toBe('invalid-credentials');

    const other = await signIn(service);
    await post(service, other, '/api/v1/logout');
    expect((await resume(service, other.token)).statusCode).toBe(401);

    await sql`UPDATE users SET active = false`.execute(h.store.db);
    expect((await resume(service, s.token)).statusCode).toBe(403);
    await sql`UPDATE users SET active = true`.execute(h.store.db);
    h.advance(3601);
    expect((await resume(service, s.token)).statusCode).toBe(401);
  });

  it('validates the token like any credential (400 naming "resume")', async () => {
    const service = await app();
    for (const bad of ['', 'a b', 'x'.repeat(257), 42, null, ['t'], { $ne: '' }, 'tök']) {
      const response = await resume(service, bad);
      expect(response.statusCode, JSON.stringify(bad)).toBe(400);
      expect(response.json()).toMatchObject({
        error: 'invalid-request',
        message: expect.stringMatching(/^resume: /),
      });
    }
  });

  it('shares the per-IP login rate limit with logins', async () => {
    const service = await app({ loginRateLimit: 3 });
    const s = await signIn(service, { ip: '10.0.0.7' });
    expect((await resume(service, s.token, '10.0.0.7')).statusCode).toBe(200);
    expect((await resume(service, s.token, '10.0.0.7')).statusCode).toBe(200);
    const limited = await resume(service, s.token, '10.0.0.7');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toBe('too-many-requests');
    expect((await resume(service, s.token, '10.0.0.8')).statusCode).toBe(200);
  });

  it('locks a token after 5 failed resumes, like a provider credential', async () => {
    const service = await app();
    const guess = 'g'.repeat(43);
    for (let i = 0; i < 5; i++)
      expect((await resume(service, guess, `10.1.0.${i}`)).statusCode).toBe(401);
    const locked = await resume(service, guess, '10.1.0.99');
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error).toBe('account-locked');
  });
});

describe('sessions', () => {
  it('sessions/list shows created, last used, address and user agent, never a token', async () => {
    const service = await app();
    const phone = await signIn(service, { ip: '203.0.113.9', userAgent: 'RC Mobile; iOS 17' });
    h.advance(5);
    const desktop = await signIn(service, {
      ip: '198.51.100.4',
      userAgent: 'Rocket.Chat Desktop\u0007',
    });
    const response = await get(service, desktop, '/api/v1/sessions/list');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ success: true, total: 2, count: 2, offset: 0 });
    expect(body.sessions[0]).toMatchObject({
      userId: desktop.userId,
      ip: '198.51.100.4',
      userAgent: 'Rocket.Chat Desktop',
      current: true,
      loginAt: new Date(h.clock).toISOString(),
      lastActivityAt: new Date(h.clock).toISOString(),
    });
    expect(body.sessions[0]._id).toBe(body.sessions[0].sessionId);
    expect(body.sessions[1]).toMatchObject({
      ip: '203.0.113.9',
      userAgent: 'RC Mobile; iOS 17',
      current: false,
    });
    for (const secret of [
      phone.token,
      desktop.token,
      hashToken(phone.token),
      hashToken(desktop.token),
    ]) {
      expect(response.body).not.toContain(secret);
    }
    const paged = (await get(service, desktop, '/api/v1/sessions/list?offset=1&count=1')).json();
    expect(paged).toMatchObject({ total: 2, count: 1, offset: 1 });
    expect(paged.sessions[0].ip).toBe('203.0.113.9');
    for (const query of ['count=0', 'count=101', 'offset=-1', 'count=abc']) {
      expect((await get(service, desktop, `/api/v1/sessions/list?${query}`)).statusCode).toBe(400);
    }
  });

  it('"last used" moves at most once a minute', async () => {
    const service = await app();
    const s = await signIn(service);
    const loginAt = new Date(h.clock).toISOString();
    const lastUsed = async () =>
      (await get(service, s, '/api/v1/sessions/list')).json().sessions[0].lastActivityAt;
    h.advance(30);
    expect(await lastUsed()).toBe(loginAt);
    h.advance(31);
    const moved = new Date(h.clock).toISOString();
    expect(await lastUsed()).toBe(moved);
    h.advance(20);
    expect(await lastUsed()).toBe(moved);
  });

  it("sessions/info and sessions/logout.me work on the user's own sessions only", async () => {
    const service = await app();
    const first = await signIn(service);
    const second = await signIn(service);
    const stranger = await signIn(service, { twitter: true });
    const list = (await get(service, first, '/api/v1/sessions/list')).json().sessions;
    const secondId = list.find((s: { current: boolean }) => !s.current).sessionId;
    const strangerId = (await get(service, stranger, '/api/v1/sessions/list')).json().sessions[0]
      .sessionId;

    const info = await get(service, first, `/api/v1/sessions/info?sessionId=${secondId}`);
    expect(info.statusCode).toBe(200);
    expect(info.json()).toMatchObject({ success: true, sessionId: secondId, current: false });
    expect(
      (await get(service, first, `/api/v1/sessions/info?sessionId=${strangerId}`)).statusCode,
    ).toBe(404);
    expect((await get(service, first, '/api/v1/sessions/info?sessionId=nope')).statusCode).toBe(
      400,
    );

    const foreign = await post(service, first, '/api/v1/sessions/logout.me', {
      sessionId: strangerId,
    });
    expect(foreign.statusCode).toBe(404);
    expect((await me(service, stranger.userId, stranger.token)).statusCode).toBe(200);
    const ended = await post(service, first, '/api/v1/sessions/logout.me', { sessionId: secondId });
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toEqual({ success: true, sessionId: secondId });
    expect((await me(service, second.userId, second.token)).statusCode).toBe(401);
    expect((await me(service, first.userId, first.token)).statusCode).toBe(200);
    for (const bad of [{}, { sessionId: 'x' }, { sessionId: 42 }]) {
      expect((await post(service, first, '/api/v1/sessions/logout.me', bad)).statusCode).toBe(400);
    }
  });

  it('users.logoutOtherClients and users.removeOtherTokens keep only the current session', async () => {
    const service = await app();
    const [a, b, c] = [await signIn(service), await signIn(service), await signIn(service)];
    const response = await post(service, a, '/api/v1/users.logoutOtherClients');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      token: a.token,
      tokenExpires: new Date(h.clock + 3600_000).toISOString(),
    });
    expect((await me(service, a.userId, a.token)).statusCode).toBe(200);
    expect((await me(service, b.userId, b.token)).statusCode).toBe(401);
    expect((await me(service, c.userId, c.token)).statusCode).toBe(401);
    const d = await signIn(service);
    expect((await post(service, d, '/api/v1/users.removeOtherTokens')).json()).toEqual({
      success: true,
    });
    expect((await me(service, a.userId, a.token)).statusCode).toBe(401);
    expect((await me(service, d.userId, d.token)).statusCode).toBe(200);
  });

  it('users.logout ends every session of the caller; of another user only for an admin', async () => {
    const service = await app();
    const admin = await signIn(service); // github:583231 is the admin
    const user = await signIn(service, { twitter: true });
    const userElsewhere = await signIn(service, { twitter: true });

    const refused = await post(service, user, '/api/v1/users.logout', { userId: admin.userId });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('forbidden');
    expect((await me(service, admin.userId, admin.token)).statusCode).toBe(200);

    const response = await post(service, admin, '/api/v1/users.logout', { userId: user.userId });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      message: `User ${user.userId} has been logged out!`,
    });
    expect((await me(service, user.userId, user.token)).statusCode).toBe(401);
    expect((await me(service, user.userId, userElsewhere.token)).statusCode).toBe(401);
    expect((await me(service, admin.userId, admin.token)).statusCode).toBe(200);

    const self = await post(service, admin, '/api/v1/users.logout');
    expect(self.statusCode).toBe(200);
    expect((await me(service, admin.userId, admin.token)).statusCode).toBe(401);
  });

  it('admins list every session (sessions/list.all) and end any one (sessions/logout)', async () => {
    const service = await app();
    const admin = await signIn(service);
    const user = await signIn(service, { twitter: true, userAgent: 'victim-agent' });
    expect((await get(service, user, '/api/v1/sessions/list.all')).statusCode).toBe(403);
    const all = (await get(service, admin, '/api/v1/sessions/list.all')).json();
    expect(all.total).toBe(2);
    const mine = (
      await get(service, admin, `/api/v1/sessions/list.all?userId=${user.userId}`)
    ).json();
    expect(mine.total).toBe(1);
    const { sessionId } = mine.sessions[0];
    expect(mine.sessions[0].userAgent).toBe('victim-agent');
    expect((await post(service, user, '/api/v1/sessions/logout', { sessionId })).statusCode).toBe(
      403,
    );
    expect((await me(service, user.userId, user.token)).statusCode).toBe(200);
    const ended = await post(service, admin, '/api/v1/sessions/logout', { sessionId });
    expect(ended.json()).toEqual({ success: true, sessionId });
    expect((await me(service, user.userId, user.token)).statusCode).toBe(401);
    expect((await post(service, admin, '/api/v1/sessions/logout', { sessionId })).statusCode).toBe(
      404,
    );
  });

  it('a session written by the previous version (without the new columns) is listed', async () => {
    const service = await app();
    const s = await signIn(service);
    // What the version before migration 002 inserts: no id, last use or client details.
    await sql`INSERT INTO sessions (token_hash, user_id, created_at, expires_at)
      VALUES (${hashToken('old-token')}, ${s.userId}, now(), now() + interval '1 day')`.execute(
      h.store.db,
    );
    const { sessions } = (await get(service, s, '/api/v1/sessions/list')).json();
    expect(sessions).toHaveLength(2);
    const old = sessions.find((session: { current: boolean }) => !session.current);
    expect(old).toMatchObject({ ip: null, userAgent: null, sessionId: expect.any(String) });
  });

  it('every route needs a session', async () => {
    const service = await app();
    const routes: [string, string][] = [
      ['GET', '/api/v1/sessions/list'],
      ['GET', `/api/v1/sessions/info?sessionId=${crypto.randomUUID()}`],
      ['POST', '/api/v1/sessions/logout.me'],
      ['POST', '/api/v1/users.logoutOtherClients'],
      ['POST', '/api/v1/users.removeOtherTokens'],
      ['POST', '/api/v1/users.logout'],
      ['GET', '/api/v1/sessions/list.all'],
      ['POST', '/api/v1/sessions/logout'],
    ];
    for (const [i, [method, url]] of routes.entries()) {
      const response = await service.inject({
        method: method as 'GET' | 'POST',
        url,
        // One user id per route: five wrong tokens for one id would lock it (429).
        headers: { 'x-user-id': `AAAAAAAAAAAAAAAA${i}`, 'x-auth-token': 'nope' },
        ...(method === 'POST' ? { payload: { sessionId: crypto.randomUUID() } } : {}),
      });
      expect(response.statusCode, url).toBe(401);
    }
  });
});
