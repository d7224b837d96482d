import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login, makeUser, startTestApp, type TestContext } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

let serial = 0;
/** An account created by the admin through the API, with a token of its own. */
async function newUser(role = 'viewer') {
  const username = `person${++serial}`;
  const password = `password-${serial}`;
  const response = await ctx.as('admin', {
    method: 'POST',
    url: '/users',
    payload: { username, email: `${username}@example.test`, password, role },
  });
  expect(response.statusCode).toBe(201);
  const user = response.json();
  return { ...user, password, token: await login(ctx.app, username, password) };
}

const withToken = (token: string) => ({ authorization: `Bearer ${token}` });

describe('user accounts', () => {
  it('admin creates users; the hash never appears; clashes are 409 naming the field', async () => {
    const user = await newUser('editor');
    expect(user).toMatchObject({ role: 'editor', inactive_status: false });
    expect(JSON.stringify(user)).not.toMatch(/password_hash|argon2/);

    for (const [payload, message] of [
      [{ username: 'other', email: user.email, password: 'long-enough' }, 'Email already exists'],
      [
        { username: user.username, email: 'x@example.test', password: 'long-enough' },
        'Username already exists',
      ],
    ] as const) {
      const response = await ctx.as('admin', { method: 'POST', url: '/users', payload });
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json()).toEqual({ status: 'error', message });
    }
    for (const payload of [
      { username: 'shortpw', email: 's@example.test', password: 'short' },
      { username: 'bademail', email: 'not-an-email', password: 'long-enough' },
      { username: 'badrole', email: 'r@example.test', password: 'long-enough', role: 'root' },
      { username: '', email: 'e@example.test', password: 'long-enough' },
    ]) {
      const response = await ctx.as('admin', { method: 'POST', url: '/users', payload });
      expect(response.statusCode, payload.username).toBe(400);
    }
  });

  it('lists users for admins, filtered by inactive_status, without hashes', async () => {
    const sleeper = await newUser();
    await ctx.as('admin', {
      method: 'PUT',
      url: `/users/${sleeper.id}`,
      payload: { inactive_status: true },
    });
    const inactive = await ctx.as('admin', { method: 'GET', url: '/users?inactive_status=true' });
    expect(inactive.statusCode).toBe(200);
    expect(inactive.json().data.map((u: { id: string }) => u.id)).toEqual([sleeper.id]);
    const active = await ctx.as('admin', {
      method: 'GET',
      url: '/users?inactive_status=false&sortby=username:asc&limit=100',
    });
    const names = active.json().data.map((u: { username: string }) => u.username);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(expect.arrayContaining(['admin', 'editor', 'viewer']));
    expect(active.body).not.toMatch(/password_hash|argon2/);
  });

  it('lets owners read and change their own record but not their role or status', async () => {
    const me = await newUser();
    const other = await newUser();
    const read = await ctx.app.inject({
      method: 'GET',
      url: `/users/${me.id}`,
      headers: withToken(me.token),
    });
    expect(read.statusCode).toBe(200);
    const peek = await ctx.app.inject({
      method: 'GET',
      url: `/users/${other.id}`,
      headers: withToken(me.token),
    });
    expect(peek.statusCode).toBe(403);

    const email = await ctx.app.inject({
      method: 'PUT',
      url: `/users/${me.id}`,
      headers: withToken(me.token),
      payload: { email: 'new-address@example.test', role: 'viewer' },
    });
    expect(email.statusCode).toBe(200);
    expect(email.json()).toMatchObject({ email: 'new-address@example.test', role: 'viewer' });

    for (const payload of [{ role: 'admin' }, { inactive_status: true }]) {
      const promote = await ctx.app.inject({
        method: 'PUT',
        url: `/users/${me.id}`,
        headers: withToken(me.token),
        payload,
      });
      expect(promote.statusCode).toBe(403);
    }
    const byAdmin = await ctx.as('admin', {
      method: 'PUT',
      url: `/users/${me.id}`,
      payload: { role: 'editor' },
    });
    expect(byAdmin.json().role).toBe('editor');
  });

  it('a password change ends earlier tokens; only owner or admin may change it', async () => {
    const me = await newUser();
    const other = await newUser();
    const url = `/users/${me.id}/password`;
    const short = await ctx.app.inject({
      method: 'PUT',
      url,
      headers: withToken(me.token),
      payload: { new_password: 'short' },
    });
    expect(short.statusCode).toBe(400);
    const stranger = await ctx.app.inject({
      method: 'PUT',
      url,
      headers: withToken(other.token),
      payload: { new_password: 'stolen-password' },
    });
    expect(stranger.statusCode).toBe(403);

    const changed = await ctx.app.inject({
      method: 'PUT',
      url,
      headers: withToken(me.token),
      payload: { new_password: 'brand-new-password' },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ status: 'success', message: 'Password changed' });
    const old = await ctx.app.inject({
      method: 'GET',
      url: `/users/${me.id}`,
      headers: withToken(me.token),
    });
    expect(old.statusCode).toBe(401);
    const fresh = await login(ctx.app, me.username, 'brand-new-password');
    expect(
      (await ctx.app.inject({ method: 'GET', url: `/users/${me.id}`, headers: withToken(fresh) }))
        .statusCode,
    ).toBe(200);

    const audit = await ctx.store.db
      .selectFrom('audit_logs')
      .selectAll()
      .where('resource_id', '=', me.id)
      .execute();
    expect(audit.map((row) => row.action)).toEqual(['create', 'update']);
    expect(JSON.stringify(audit)).not.toMatch(/argon2|brand-new-password|password-\d/);
  });

  it('owners and admins delete accounts; the account’s tokens end with it', async () => {
    const me = await newUser();
    const other = await newUser();
    const stranger = await ctx.app.inject({
      method: 'DELETE',
      url: `/users/${other.id}`,
      headers: withToken(me.token),
    });
    expect(stranger.statusCode).toBe(403);
    const own = await ctx.app.inject({
      method: 'DELETE',
      url: `/users/${me.id}`,
      headers: withToken(me.token),
    });
    expect(own.statusCode).toBe(204);
    const after = await ctx.app.inject({
      method: 'GET',
      url: '/devices',
      headers: withToken(me.token),
    });
    expect(after.statusCode).toBe(401);
    expect(
      (await ctx.as('admin', { method: 'DELETE', url: `/users/${other.id}` })).statusCode,
    ).toBe(204);
    const missing = await ctx.as('admin', { method: 'GET', url: `/users/${other.id}` });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('User not found');
  });
});

describe('an admin demoted while their request runs', () => {
  it('changes no role: the write itself checks they are still an active admin (403)', async () => {
    const admin = await makeUser(ctx, 'admin', 'stale-admin');
    const target = await makeUser(ctx, 'viewer', 'target');
    const headers = withToken(admin.token);
    // The admin's row, warm in the user cache, is what the guard reads.
    expect((await ctx.app.inject({ method: 'GET', url: '/users', headers })).statusCode).toBe(200);
    expect(ctx.app.userCache.has(admin.id)).toBe(true);
    // Demoted without the notification that would make the cache forget it: the guard still
    // sees an admin, as it would for a demotion committing while the request runs.
    await ctx.store.db.transaction().execute(async (trx) => {
      await sql`SET LOCAL session_replication_role = replica`.execute(trx);
      await trx.updateTable('users').set({ role: 'viewer' }).where('id', '=', admin.id).execute();
    });
    const refused = await ctx.app.inject({
      method: 'PUT',
      url: `/users/${target.id}`,
      headers,
      payload: { role: 'admin' },
    });
    expect(refused.statusCode, refused.body).toBe(403);
    const stored = await ctx.store.db
      .selectFrom('users')
      .select('role')
      .where('id', '=', target.id)
      .executeTakeFirstOrThrow();
    expect(stored.role).toBe('viewer');
    // Nor any other change of another's account, which only an admin may make: the writing
    // statement finds the author no longer has the role it was admitted with (401).
    const renamed = await ctx.app.inject({
      method: 'PUT',
      url: `/users/${target.id}`,
      headers,
      payload: { email: `${target.username}@renamed.test` },
    });
    expect(renamed.statusCode, renamed.body).toBe(401);
    const email = await ctx.store.db
      .selectFrom('users')
      .select('email')
      .where('id', '=', target.id)
      .executeTakeFirstOrThrow();
    expect(email.email).not.toBe(`${target.username}@renamed.test`);
  });
});
