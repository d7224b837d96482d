import { createSigner } from 'fast-jwt';
import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { PasswordHasher } from '../src/auth/passwords.js';
import { isAllowed, ROLES, type Role } from '../src/auth/roles.js';
import { DEFAULT_PASSWORD_HASHING } from '../src/config.js';
import { RESOURCES } from '../src/resources/index.js';
import {
  login,
  makeUser as makeTestUser,
  TEST_HASHING,
  TEST_PASSWORD,
  THROWAWAY_PASSWORD,
  testConfig,
  useTestApp,
} from './helpers.js';

const ctx = useTestApp();

const hasher = new PasswordHasher(TEST_HASHING);

const makeUser = (role: Role = 'viewer') => makeTestUser(ctx, role);

const get = (headers: Record<string, string>) =>
  ctx.app.inject({ method: 'GET', url: '/devices', headers });

describe('login', () => {
  it('returns a token and sets the Bearer cookie (HttpOnly, Secure, SameSite=Strict)', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/users/login',
      payload: { username: 'editor', password: TEST_PASSWORD },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ status: 'success', message: expect.any(String) });
    const [, payload] = body.token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    expect(claims).toMatchObject({ username: 'editor', role: 'editor', sub: expect.any(String) });
    expect(claims.exp - claims.iat).toBe(3600);

    const cookie = String(response.headers['set-cookie']);
    expect(cookie).toMatch(/^Bearer=[\w.-]+;/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('Secure');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain('Max-Age=3600');
    expect(cookie).toContain('Path=/');
  });

  it('answers 401 Invalid credentials for a wrong password and an unknown user alike', async () => {
    for (const payload of [
      { username: 'admin', password: 'wrong-password' },
      { username: 'nobody', password: TEST_PASSWORD },
    ]) {
      const response = await ctx.app.inject({ method: 'POST', url: '/users/login', payload });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ status: 'error', message: 'Invalid credentials' });
      expect(response.headers['set-cookie']).toBeUndefined();
    }
    const missing = await ctx.app.inject({
      method: 'POST',
      url: '/users/login',
      payload: { username: 'admin' },
    });
    expect(missing.statusCode).toBe(400);
  });

  it('costs an unknown user what a wrong password costs (dummy hash verify)', async () => {
    const production = new PasswordHasher(DEFAULT_PASSWORD_HASHING);
    const hash = await production.hash('correct horse');
    await production.verify(undefined, 'warm-up');
    const timed = async (work: () => Promise<boolean>) => {
      const start = performance.now();
      expect(await work()).toBe(false);
      return performance.now() - start;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 7; i++) {
      known.push(await timed(() => production.verify(hash, 'wrong')));
      unknown.push(await timed(() => production.verify(undefined, 'wrong')));
    }
    // The fastest run of each is the work itself: other processes on the machine only ever add
    // time, so minimums compare the two paths where medians would compare the machine's load.
    const ratio = Math.min(...unknown) / Math.min(...known);
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  });

  it('stores argon2id hashes only', async () => {
    const row = await ctx.store.db
      .selectFrom('users')
      .select('password_hash')
      .where('username', '=', 'admin')
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.password_hash).not.toContain(TEST_PASSWORD);
  });

  it('refuses an inactive account with 403, and its tokens stop working', async () => {
    const user = await makeUser();
    expect((await get({ authorization: `Bearer ${user.token}` })).statusCode).toBe(200);
    await ctx.store.db
      .updateTable('users')
      .set({ inactive_status: true })
      .where('id', '=', user.id)
      .execute();
    const refused = await ctx.app.inject({
      method: 'POST',
      url: '/users/login',
      payload: { username: user.username, password: THROWAWAY_PASSWORD },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ status: 'error', message: 'Account is inactive' });
    // A change made behind the API reaches the guard's memory of the row through a
    // notification, a moment after its commit (test/user-cache.test.ts).
    const withToken = () => get({ authorization: `Bearer ${user.token}` });
    await expect.poll(async () => (await withToken()).statusCode, { timeout: 5000 }).toBe(403);
    expect((await withToken()).json().message).toBe('Account is inactive');
  });

  it('ends tokens issued before a password change', async () => {
    const user = await makeUser();
    await ctx.store.db
      .updateTable('users')
      .set({ password_hash: await hasher.hash('new-password-1'), password_changed_at: new Date() })
      .where('id', '=', user.id)
      .execute();
    const old = () => get({ authorization: `Bearer ${user.token}` });
    await expect.poll(async () => (await old()).statusCode, { timeout: 5000 }).toBe(401);
    const fresh = await login(ctx.app, user.username, 'new-password-1');
    expect((await get({ authorization: `Bearer ${fresh}` })).statusCode).toBe(200);
  });

  it('takes the role from the account, so a promotion or demotion made behind the API applies within a moment', async () => {
    const user = await makeUser('viewer');
    const attempt = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/vlans',
        headers: { authorization: `Bearer ${user.token}` },
        payload: { vlan_id: 3000, name: 'promoted' },
      });
    expect((await attempt()).statusCode).toBe(403);
    await ctx.store.db
      .updateTable('users')
      .set({ role: 'admin' })
      .where('id', '=', user.id)
      .execute();
    await expect.poll(async () => (await attempt()).statusCode, { timeout: 5000 }).toBe(201);
  });
});

describe('tokens', () => {
  it('401 with the spec message when no token is sent', async () => {
    const response = await get({});
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      status: 'error',
      message: 'Unauthorized: No security token provided',
    });
  });

  it('401 for a malformed, foreign, unsigned or expired token', async () => {
    const secret = testConfig().jwtSecret;
    const claims = { sub: uuidv7(), username: 'admin', role: 'admin', pwd: 0 };
    const expired = createSigner({
      key: secret,
      expiresIn: 1000,
      clockTimestamp: Date.now() - 60_000,
    })(claims);
    const foreign = createSigner({ key: 'another-secret-another-secret-another' })(claims);
    const unsigned = createSigner({ algorithm: 'none' })(claims);
    for (const [token, message] of [
      ['garbage', 'Unauthorized: Invalid token'],
      [foreign, 'Unauthorized: Invalid token'],
      [unsigned, 'Unauthorized: Invalid token'],
      [expired, 'Unauthorized: Token expired'],
    ]) {
      const response = await get({ authorization: `Bearer ${token}` });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ status: 'error', message });
    }
    const otherScheme = await get({ authorization: 'Basic YWRtaW46YWRtaW4=' });
    expect(otherScheme.statusCode).toBe(401);
  });

  it('accepts the cookie, and the header wins over it', async () => {
    expect((await get({ cookie: `Bearer=${ctx.tokens.viewer}` })).statusCode).toBe(200);
    const headerWins = await get({
      authorization: 'Bearer garbage',
      cookie: `Bearer=${ctx.tokens.viewer}`,
    });
    expect(headerWins.statusCode).toBe(401);
    const headerGood = await ctx.app.inject({
      method: 'POST',
      url: '/locations',
      headers: {
        authorization: `Bearer ${ctx.tokens.admin}`,
        cookie: `Bearer=${ctx.tokens.viewer}`,
      },
      payload: { name: 'header-wins' },
    });
    expect(headerGood.statusCode).toBe(201);
  });

  it('logout expires the cookie', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: '/users/logout' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'success', message: 'Logged out' });
    const cookie = String(response.headers['set-cookie']);
    expect(cookie).toMatch(/^Bearer=;/);
    expect(cookie).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/);
  });
});

describe('role matrix', () => {
  it('declares who writes what: admin for the inventory, admin or editor for links', () => {
    const writeAccess = new Map(
      ctx.app.routeCatalogue
        .filter(
          (route) => route.method === 'POST' && RESOURCES.some((r) => route.url === `/${r.name}`),
        )
        .map((route) => [route.url, route.access]),
    );
    expect(Object.fromEntries(writeAccess)).toEqual({
      '/locations': ['admin'],
      '/devices': ['admin'],
      '/interfaces': ['admin'],
      '/vlans': ['admin'],
      '/links': ['admin', 'editor'],
      // Webhooks: admin only, reads included (README, Webhooks).
      '/webhooks': ['admin'],
    });
  });

  // Every route of the app × every kind of caller, generated from the route table.
  const identities = ['none', 'bad token', ...ROLES] as const;
  it('enforces every route’s access for every caller', async () => {
    const routes = ctx.app.routeCatalogue.filter((route) => route.method !== 'HEAD');
    expect(routes.length).toBeGreaterThan(40);
    const failures: string[] = [];
    for (const route of routes) {
      const url = route.url.replace(/:id/g, uuidv7());
      const isBatch = !route.url.includes(':id') && ['PATCH', 'DELETE'].includes(route.method);
      const payload = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method)
        ? isBatch
          ? []
          : {}
        : undefined;
      for (const identity of identities) {
        const headers: Record<string, string> = {};
        if (identity === 'bad token') headers.authorization = 'Bearer not.a.token';
        else if (identity !== 'none') headers.authorization = `Bearer ${ctx.tokens[identity]}`;
        const response = await ctx.app.inject({
          method: route.method as 'GET',
          url,
          headers,
          ...(payload !== undefined ? { payload } : {}),
        });
        const status = response.statusCode;
        let expected: string;
        if (route.access === 'public') expected = 'allowed';
        else if (identity === 'none' || identity === 'bad token') expected = '401';
        // The random :id is never the caller's own: owner-or-admin routes admit admins only.
        else if (isAllowed(route.access, { id: 'caller', role: identity })) expected = 'allowed';
        else expected = '403';
        const actual = status === 401 || status === 403 ? String(status) : 'allowed';
        if (actual !== expected || status >= 500) {
          failures.push(
            `${route.method} ${route.url} as ${identity}: ${status} (expected ${expected})`,
          );
        }
        if (expected === '403') {
          expect(response.json().message).toBe(
            'Forbidden: You do not have permission to perform this action',
          );
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
