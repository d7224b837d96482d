import { migrate, openStore, type Store } from '@netops/store';
import { createThrowawayDatabase, testDatabaseUrl } from '@netops/store/testing';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { PasswordHasher } from '../src/auth/passwords.js';
import type { Role } from '../src/auth/roles.js';
import { seedInitialAccounts } from '../src/auth/users.js';
import { type Database, MIGRATIONS_FOLDER } from '../src/db/schema.js';
import {
  login,
  makeUser as makeTestUser,
  startTestApp,
  TEST_HASHING,
  TEST_PASSWORD,
  type TestContext,
  testConfig,
} from './helpers.js';

/**
 * The guard reads account rows from memory (src/auth/user-cache.ts). These tests check that this
 * never answers from a row known to have changed: changes through this instance apply to the
 * very next request, changes from anywhere else within a moment, and nothing is served from
 * memory while the notifications that report changes cannot arrive. Each test first makes a
 * request with the token, so the row is in memory before it changes.
 */

const hasher = new PasswordHasher(TEST_HASHING);
/** How long a change made elsewhere may take to reach an instance (in practice milliseconds). */
const PROPAGATION_MS = 5000;

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

const makeUser = (role: Role = 'viewer') => makeTestUser(ctx, role, 'cached');

const status = async (app: FastifyInstance, token: string, url = '/devices') =>
  (await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } }))
    .statusCode;

describe('changes through this instance apply to the next request', () => {
  // The notifications of these changes reach this app only after 500 ms: what makes the next
  // request see them is the instance forgetting its own changes as they commit.
  let app: FastifyInstance;
  beforeAll(async () => {
    const slowNotifications: Store<Database> = {
      ...ctx.store,
      listen: (channel, handlers) =>
        ctx.store.listen(channel, {
          ...handlers,
          notification: (payload) => setTimeout(() => handlers.notification(payload), 500),
        }),
    };
    app = await buildApp(testConfig(), { store: slowNotifications });
  });
  afterAll(() => app?.close());

  /**
   * A request with the token until its row is served from memory: the notification of the
   * account's creation reaches this app late too, and makes it forget the row once.
   */
  const warm = async (user: { id: string; token: string }, url = '/devices') => {
    await expect
      .poll(
        async () => {
          expect(await status(app, user.token, url)).toBe(200);
          return app.userCache.has(user.id);
        },
        { timeout: PROPAGATION_MS, interval: 50 },
      )
      .toBe(true);
  };

  const asAdmin = (method: 'PUT' | 'DELETE', url: string, payload?: object) =>
    app.inject({
      method,
      url,
      headers: bearer(ctx.tokens.admin),
      ...(payload ? { payload } : {}),
    });

  it('deactivation', async () => {
    const user = await makeUser();
    await warm(user);
    const changed = await asAdmin('PUT', `/users/${user.id}`, { inactive_status: true });
    expect(changed.statusCode).toBe(200);
    expect(await status(app, user.token)).toBe(403);
  });

  it('password change', async () => {
    const user = await makeUser();
    await warm(user);
    const changed = await asAdmin('PUT', `/users/${user.id}/password`, {
      new_password: 'another-password-1',
    });
    expect(changed.statusCode).toBe(200);
    expect(await status(app, user.token)).toBe(401);
  });

  it('demotion', async () => {
    const user = await makeUser('admin');
    await warm(user, '/users');
    const changed = await asAdmin('PUT', `/users/${user.id}`, { role: 'viewer' });
    expect(changed.statusCode).toBe(200);
    expect(await status(app, user.token, '/users')).toBe(403);
  });

  it('deletion', async () => {
    const user = await makeUser();
    await warm(user);
    const deleted = await asAdmin('DELETE', `/users/${user.id}`);
    expect(deleted.statusCode).toBe(204);
    expect(await status(app, user.token)).toBe(401);
  });
});

describe('changes made behind the API', () => {
  it('apply within a moment', async () => {
    const user = await makeUser();
    expect(await status(ctx.app, user.token)).toBe(200);
    await ctx.store.db
      .updateTable('users')
      .set({ inactive_status: true })
      .where('id', '=', user.id)
      .execute();
    await expect
      .poll(() => status(ctx.app, user.token), { timeout: PROPAGATION_MS, interval: 10 })
      .toBe(403);
  });
});

/**
 * On PostgreSQL the notifications travel on a connection of their own, from any session: two
 * instances with their own pools, and the cache switched off while that connection is down.
 */
describe.skipIf(!testDatabaseUrl())('on PostgreSQL', () => {
  const stores: Store<Database>[] = [];
  const apps: FastifyInstance[] = [];
  let drop: () => Promise<void> = async () => {};

  beforeAll(async () => {
    const database = await createThrowawayDatabase(testDatabaseUrl() ?? '');
    drop = database.drop;
    for (let i = 0; i < 2; i++) {
      const store = await openStore<Database>({ databaseUrl: database.url, dataDir: '' });
      stores.push(store);
      await migrate(store as unknown as Store<unknown>, MIGRATIONS_FOLDER);
      await seedInitialAccounts(store.db, hasher, TEST_PASSWORD);
      apps.push(await buildApp(testConfig({ databaseUrl: database.url }), { store }));
    }
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const store of stores) await store.close();
    await drop();
  });

  it('a change through one instance reaches the other within a moment', async () => {
    const [first, second] = apps as [FastifyInstance, FastifyInstance];
    const admin = await login(first, 'admin', TEST_PASSWORD);
    const viewer = await login(first, 'viewer', TEST_PASSWORD);
    expect(await status(second, viewer)).toBe(200);
    const { id } = await first
      .inject({ method: 'GET', url: '/users?username=viewer', headers: bearer(admin) })
      .then((response) => response.json<{ data: Array<{ id: string }> }>().data[0] ?? { id: '' });
    const changed = await first.inject({
      method: 'PUT',
      url: `/users/${id}`,
      headers: bearer(admin),
      payload: { inactive_status: true },
    });
    expect(changed.statusCode).toBe(200);
    expect(await status(first, viewer)).toBe(403);
    await expect
      .poll(() => status(second, viewer), { timeout: PROPAGATION_MS, interval: 10 })
      .toBe(403);
    await first.inject({
      method: 'PUT',
      url: `/users/${id}`,
      headers: bearer(admin),
      payload: { inactive_status: false },
    });
    // Reactivated, the account's tokens from before the deactivation stay dead (a hostile
    // review found them revived): the other instance learns that too, and a new sign-in works on both.
    await expect
      .poll(() => status(second, viewer), { timeout: PROPAGATION_MS, interval: 10 })
      .toBe(401);
    const fresh = await login(first, 'viewer', TEST_PASSWORD);
    expect(await status(second, fresh)).toBe(200);
  });

  it('reads every row from the database while the notification connection is down', async () => {
    const [app] = apps as [FastifyInstance];
    const [store] = stores as [Store<Database>];
    const editor = await login(app, 'editor', TEST_PASSWORD);
    expect(await status(app, editor)).toBe(200);
    expect(app.userCache.enabled).toBe(true);

    // Ends the connections listening for the changes (the other instance's too).
    await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE datname = current_database() AND query LIKE 'LISTEN %'`.execute(store.db);
    await expect
      .poll(() => app.userCache.enabled, { timeout: PROPAGATION_MS, interval: 2 })
      .toBe(false);
    // The reconnection waits 100 ms first: this change and request fall in the gap, when no
    // notification can arrive, and must still be seen because nothing is served from memory.
    await store.db
      .updateTable('users')
      .set({ role: 'viewer' })
      .where('username', '=', 'editor')
      .execute();
    const refused = await app.inject({
      method: 'POST',
      url: '/links',
      headers: bearer(editor),
      payload: {},
    });
    expect(refused.statusCode).toBe(403);
    // It reconnects by itself, and starts again from an empty memory.
    await expect.poll(() => app.userCache.enabled, { timeout: PROPAGATION_MS }).toBe(true);
    await store.db
      .updateTable('users')
      .set({ role: 'editor' })
      .where('username', '=', 'editor')
      .execute();
    await expect
      .poll(
        async () =>
          (
            await app.inject({
              method: 'POST',
              url: '/links',
              headers: bearer(editor),
              payload: {},
            })
          ).statusCode,
        { timeout: PROPAGATION_MS, interval: 10 },
      )
      .toBe(400);
  });
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
