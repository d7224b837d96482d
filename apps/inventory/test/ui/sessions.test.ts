import { migrate, openStore, type Store } from '@netops/store';
import { createThrowawayDatabase, testDatabaseUrl } from '@netops/store/testing';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { PasswordHasher } from '../../src/auth/passwords.js';
import { seedInitialAccounts } from '../../src/auth/users.js';
import { type Database, MIGRATIONS_FOLDER } from '../../src/db/schema.js';
import {
  create,
  makeUser,
  startTestApp,
  TEST_HASHING,
  TEST_PASSWORD,
  type TestContext,
  THROWAWAY_PASSWORD,
  testConfig,
} from '../helpers.js';
import { type Browser, csrfOf, formAsShown, post, signIn, visit } from './inject.js';

/**
 * The web interface's sessions over HTTP (`inject`): a session lives only as long as its account
 * may sign in (deactivated, deleted or with a new password, the next page asks for sign-in, and
 * the session is gone for good), a demotion takes the old role's powers away on the next request,
 * and a session started on one instance works on another sharing the store.
 */

/** How long a change made through one instance may take to reach another (milliseconds in practice). */
const PROPAGATION_MS = 5_000;

/** Whether a page answered as a page (200), or sent the browser to sign in. */
async function pageState(app: FastifyInstance, browser: Browser, url = '/ui/devices') {
  const response = await visit(app, browser, url);
  if (response.statusCode === 303) {
    expect(response.headers.location).toMatch(/^\/ui\/login\?next=/);
    return 'signed out';
  }
  expect(response.statusCode).toBe(200);
  return 'signed in';
}

const sessionCount = async (store: Store<Database>, userId: string) =>
  Number(
    (
      await sql<{
        n: string;
      }>`SELECT count(*) AS n FROM ui_sessions WHERE user_id = ${userId}`.execute(store.db)
    ).rows[0]?.n,
  );

describe('a web interface session follows its account', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp();
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const changeAccount = async (id: string, payload: Record<string, unknown>) => {
    const current = (await ctx.as('admin', { method: 'GET', url: `/users/${id}` })).json();
    const changed = await ctx.as('admin', {
      method: 'PUT',
      url: `/users/${id}`,
      payload: { username: current.username, email: current.email, ...payload },
    });
    expect(changed.statusCode, changed.body).toBe(200);
  };

  it('ends when the account is deactivated, and stays ended once it is reactivated', async () => {
    const user = await makeUser(ctx, 'editor', 'deactivated');
    const browser = await signIn(ctx.app, user.username, THROWAWAY_PASSWORD);
    expect(await pageState(ctx.app, browser)).toBe('signed in');
    await changeAccount(user.id, { inactive_status: true });
    expect(await pageState(ctx.app, browser)).toBe('signed out');
    expect(await sessionCount(ctx.store, user.id)).toBe(0);
    // A new sign-in is refused while the account is inactive.
    const refused = await ctx.app.inject({
      method: 'POST',
      url: '/ui/login',
      payload: new URLSearchParams({ username: user.username, password: THROWAWAY_PASSWORD }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(refused.statusCode).toBe(200);
    expect(refused.body).toContain('id="login-error"');
    expect(refused.cookies.some((cookie) => cookie.name === 'inventory_ui')).toBe(false);
    // Reactivated, the old session stays dead (the account's token epoch moved); a new one works.
    await changeAccount(user.id, { inactive_status: false });
    expect(await pageState(ctx.app, browser)).toBe('signed out');
    const again = await signIn(ctx.app, user.username, THROWAWAY_PASSWORD);
    expect(await pageState(ctx.app, again)).toBe('signed in');
  });

  it('ends when the account is deleted', async () => {
    const user = await makeUser(ctx, 'viewer', 'deleted');
    const browser = await signIn(ctx.app, user.username, THROWAWAY_PASSWORD);
    expect(await pageState(ctx.app, browser)).toBe('signed in');
    const deleted = await ctx.as('admin', { method: 'DELETE', url: `/users/${user.id}` });
    expect(deleted.statusCode).toBe(204);
    expect(await pageState(ctx.app, browser)).toBe('signed out');
    expect(await sessionCount(ctx.store, user.id)).toBe(0);
  });

  it('ends when the password changes', async () => {
    const user = await makeUser(ctx, 'viewer', 'password');
    const browser = await signIn(ctx.app, user.username, THROWAWAY_PASSWORD);
    const changed = await ctx.as('admin', {
      method: 'PUT',
      url: `/users/${user.id}/password`,
      payload: { new_password: 'a-new-password-42' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await pageState(ctx.app, browser)).toBe('signed out');
  });

  it('loses a demoted role’s powers on the next page, even with a valid CSRF token', async () => {
    const user = await makeUser(ctx, 'admin', 'demoted');
    const browser = await signIn(ctx.app, user.username, THROWAWAY_PASSWORD);
    const before = await visit(ctx.app, browser, '/ui/devices');
    expect(before.body).toContain('Add device');
    const form = await visit(ctx.app, browser, '/ui/devices/new');
    expect(form.statusCode).toBe(200);
    const csrf = csrfOf(form.body);
    expect(csrf).not.toBe('');

    await changeAccount(user.id, { role: 'editor' });
    // The session goes on as an editor (who may not write devices): no edit controls, and the
    // server refuses the form the admin had open, although it carries the session's CSRF token.
    const after = await visit(ctx.app, browser, '/ui/devices');
    expect(after.statusCode).toBe(200);
    expect(after.body).toContain('(editor)');
    expect(after.body).not.toContain('Add device');
    expect(after.body).not.toContain('Edit selected');
    const refused = await post(ctx.app, browser, '/ui/devices/new', {
      _csrf: csrf,
      hostname: 'made-after-demotion',
      ip: '192.0.2.77',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['content-type']).toMatch(/^text\/html/);
    const listed = await ctx.as('admin', {
      method: 'GET',
      url: '/devices?hostname=made-after-demotion',
    });
    expect(listed.json().meta.total_count).toBe(0);
  });
});

/**
 * Two instances sharing one store, as behind a load balancer: on PostgreSQL (TEST_DATABASE_URL)
 * two apps with their own pools on one database; on the embedded store two apps on the same
 * PGlite database (the store is the data directory one process opens).
 */
describe('a web interface session across two instances', () => {
  const stores: Store<Database>[] = [];
  const apps: FastifyInstance[] = [];
  let drop: () => Promise<void> = async () => {};

  beforeAll(async () => {
    const server = testDatabaseUrl();
    if (server) {
      const database = await createThrowawayDatabase(server);
      drop = database.drop;
      for (let i = 0; i < 2; i++) {
        const store = await openStore<Database>({ databaseUrl: database.url, dataDir: '' });
        stores.push(store);
        await migrate(store as unknown as Store<unknown>, MIGRATIONS_FOLDER);
        await seedInitialAccounts(store.db, new PasswordHasher(TEST_HASHING), TEST_PASSWORD);
        apps.push(await buildApp(testConfig({ databaseUrl: database.url }), { store }));
      }
    } else {
      const ctx = await startTestApp();
      stores.push(ctx.store);
      apps.push(ctx.app, await buildApp(testConfig(), { store: ctx.store }));
    }
    for (const app of apps) await app.ready();
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const store of stores) await store.close();
    await drop();
  });

  it('works on the other instance, and signing out on one ends it on both', async () => {
    const [first, second] = apps as [FastifyInstance, FastifyInstance];
    const browser = await signIn(first, 'admin', TEST_PASSWORD);
    expect(await pageState(second, browser)).toBe('signed in');
    // A form from one instance is accepted by the other: the CSRF token is the session's.
    const form = await visit(first, browser, '/ui/devices/new');
    const created = await post(second, browser, '/ui/devices/new', {
      _csrf: csrfOf(form.body),
      hostname: 'across-instances',
      ip: '192.0.2.78',
    });
    expect(created.statusCode, created.body).toBe(303);
    expect(created.headers.location).toMatch(/^\/ui\/devices\/[0-9a-f-]{36}$/);
    const home = await visit(second, browser, '/ui/');
    const signedOut = await post(second, browser, '/ui/logout', { _csrf: csrfOf(home.body) });
    expect(signedOut.statusCode).toBe(303);
    expect(await pageState(first, browser)).toBe('signed out');
    expect(await pageState(second, browser)).toBe('signed out');
  });

  it('ends on both when the account is deactivated through one', async () => {
    const [first, second] = apps as [FastifyInstance, FastifyInstance];
    const user = await makeUser({ app: first, store: stores[0] as Store<Database> }, 'viewer');
    const browser = await signIn(second, user.username, THROWAWAY_PASSWORD);
    expect(await pageState(first, browser)).toBe('signed in');
    expect(await pageState(second, browser)).toBe('signed in');
    const admin = await signIn(first, 'admin', TEST_PASSWORD);
    const users = await visit(first, admin, '/ui/admin/users');
    const deactivated = await post(first, admin, `/ui/admin/users/${user.id}`, {
      _csrf: csrfOf(users.body),
      role: 'viewer',
      inactive_status: 'true',
    });
    expect(deactivated.statusCode, deactivated.body).toBe(303);
    // The other instance learns of the change from the database's notification (asked first,
    // before this one's next page ends the session row for both).
    await expect
      .poll(() => pageState(second, browser), { timeout: PROPAGATION_MS, interval: 20 })
      .toBe('signed out');
    expect(await pageState(first, browser)).toBe('signed out');
  });
});

describe('a form opened before the user signed out and in again', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp();
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('is shown again with the typed values, a fresh token and a message, and writes nothing', async () => {
    const device = (
      await ctx.as('admin', {
        method: 'POST',
        url: '/devices',
        payload: { hostname: 'stale-form', ip: '192.0.2.31' },
      })
    ).json<{ id: string }>();
    const before = await signIn(ctx.app, 'admin', TEST_PASSWORD);
    const edit = await visit(ctx.app, before, `/ui/devices/${device.id}/edit`);
    const form = formAsShown(edit.body, `/ui/devices/${device.id}/edit`);
    form.set('model', 'typed-before-signing-in-again');
    // Elsewhere (another tab): sign out, sign in again. The open form's token is the old one.
    await post(ctx.app, before, '/ui/logout', { _csrf: csrfOf(edit.body) });
    const after = await signIn(ctx.app, 'admin', TEST_PASSWORD);
    const sent = await post(ctx.app, after, `/ui/devices/${device.id}/edit`, form);
    expect(sent.statusCode).toBe(403);
    expect(sent.body).toContain('value="typed-before-signing-in-again"');
    expect(sent.body).toMatch(/id="error-summary" role="alert"/);
    expect(sent.body).toMatch(/id="form-error">[^<]*signed in/);
    const fresh = csrfOf(sent.body);
    expect(fresh).not.toBe(csrfOf(edit.body));
    const stored = await ctx.as('admin', { method: 'GET', url: `/devices/${device.id}` });
    expect(stored.json().model ?? null).toBeNull();
    // Sent again from the page it got back, the form saves.
    const again = await post(
      ctx.app,
      after,
      `/ui/devices/${device.id}/edit`,
      formAsShown(sent.body, `/ui/devices/${device.id}/edit`),
    );
    expect(again.statusCode, again.body).toBe(303);
    const saved = await ctx.as('admin', { method: 'GET', url: `/devices/${device.id}` });
    expect(saved.json().model).toBe('typed-before-signing-in-again');
  });
});

describe('a form sent after its session ended', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp();
  });
  afterAll(async () => {
    await ctx?.close();
  });

  /** A form posted as the browser sends it from a page of this site, with no session. */
  const postSignedOut = (url: string, form: URLSearchParams, site = 'same-origin') =>
    ctx.app.inject({
      method: 'POST',
      url,
      payload: form.toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'sec-fetch-site': site,
      },
    });
  const signInWith = (form: URLSearchParams) =>
    ctx.app.inject({
      method: 'POST',
      url: '/ui/login',
      payload: form.toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'sec-fetch-site': 'same-origin',
      },
    });

  it('keeps what was typed through a new sign-in, shows it to be saved, and saves nothing by itself', async () => {
    const device = await create(ctx, 'devices', { hostname: 'expired-form', ip: '192.0.2.41' });
    const TYPED = `typed "while" it's expiring`;
    const browser = await signIn(ctx.app, 'admin', TEST_PASSWORD);
    const edit = await visit(ctx.app, browser, `/ui/devices/${device.id}/edit`);
    const form = formAsShown(edit.body, `/ui/devices/${device.id}/edit`);
    form.set('model', TYPED);
    form.set('tags', 'core, edge');
    // The session expires while the form is open.
    await sql`UPDATE ui_sessions SET expires_at = ${new Date(Date.now() - 1000)}
      WHERE expires_at > ${new Date()}`.execute(ctx.store.db);

    const login = await ctx.app.inject({
      method: 'POST',
      url: `/ui/devices/${device.id}/edit`,
      payload: form.toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'sec-fetch-site': 'same-origin',
        cookie: browser.cookie,
      },
    });
    expect(login.statusCode).toBe(200);
    expect(login.body).toContain('id="resume-notice"');
    const carried = formAsShown(login.body, '/ui/login');
    expect(carried.get('resume_action')).toBe(`/ui/devices/${device.id}/edit`);
    const fields = JSON.parse(carried.get('resume_fields') ?? '[]') as [string, string][];
    expect(fields).toContainEqual(['model', TYPED]);
    // Its CSRF token stays behind; so would a password.
    expect(fields.some(([name]) => name === '_csrf')).toBe(false);
    // Escaped in the page's attribute.
    expect(login.body).toContain('it&#39;s expiring');

    // A wrong password keeps carrying it.
    carried.set('username', 'admin');
    carried.set('password', 'not-the-password');
    const refused = await signInWith(carried);
    expect(refused.statusCode).toBe(200);
    expect(formAsShown(refused.body, '/ui/login').get('resume_fields')).toBe(
      carried.get('resume_fields'),
    );

    carried.set('password', TEST_PASSWORD);
    const signedIn = await signInWith(carried);
    expect(signedIn.statusCode).toBe(200);
    const cookie = signedIn.cookies.find((candidate) => candidate.name === 'inventory_ui');
    const again = { cookie: `inventory_ui=${cookie?.value}` };
    const resume = formAsShown(signedIn.body, `/ui/devices/${device.id}/edit`);
    expect(resume.get('model')).toBe(TYPED);
    expect(resume.has('_csrf')).toBe(false);
    // Nothing saved yet.
    expect(
      (await ctx.as('admin', { method: 'GET', url: `/devices/${device.id}` })).json().model ?? null,
    ).toBeNull();

    // "Show what I typed": the form again, with the typed values and this session's token.
    const shown = await post(ctx.app, again, `/ui/devices/${device.id}/edit`, resume);
    expect(shown.statusCode).toBe(403);
    expect(shown.body).toContain('value="typed &quot;while&quot; it&#39;s expiring"');
    expect(
      (await ctx.as('admin', { method: 'GET', url: `/devices/${device.id}` })).json().model ?? null,
    ).toBeNull();
    const saved = await post(
      ctx.app,
      again,
      `/ui/devices/${device.id}/edit`,
      formAsShown(shown.body, `/ui/devices/${device.id}/edit`),
    );
    expect(saved.statusCode, saved.body).toBe(303);
    const stored = (await ctx.as('admin', { method: 'GET', url: `/devices/${device.id}` })).json();
    expect(stored.model).toBe(TYPED);
    expect(stored.tags).toEqual(['core', 'edge']);
  });

  it('is not carried for another site, and a forged resume goes nowhere else', async () => {
    const device = await create(ctx, 'devices', { hostname: 'cross-site-form', ip: '192.0.2.42' });
    const form = new URLSearchParams({ model: 'planted' });
    // Another site's form is refused whatever its cookies; one from a neighbouring subdomain, or
    // a client that says nothing, is sent to sign in with nothing carried.
    const crossSite = await postSignedOut(`/ui/devices/${device.id}/edit`, form, 'cross-site');
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.body).not.toContain('planted');
    for (const site of ['same-site', '']) {
      const answer = await postSignedOut(`/ui/devices/${device.id}/edit`, form, site);
      expect(answer.statusCode, site).toBe(303);
      expect(answer.headers.location).toMatch(/^\/ui\/login\?next=/);
    }
    // A sign-in carrying a resume to somewhere else, or fields that are not pairs of strings:
    // the sign-in goes on as without one.
    for (const [action, fields] of [
      ['https://evil.example/ui/x', '[["model","x"]]'],
      ['//evil.example/ui/x', '[["model","x"]]'],
      ['/api/devices', '[["model","x"]]'],
      ['/ui/../devices', '[["model","x"]]'],
      [`/ui/devices/${device.id}/edit`, '{"model":"x"}'],
      [`/ui/devices/${device.id}/edit`, '[["model",1]]'],
      [`/ui/devices/${device.id}/edit`, 'not json'],
      [`/ui/devices/${device.id}/edit`, `[["model","${'x'.repeat(20_000)}"]]`],
    ] as const satisfies readonly (readonly [string, string])[]) {
      const answer = await signInWith(
        new URLSearchParams({
          username: 'admin',
          password: TEST_PASSWORD,
          next: '/ui/',
          resume_action: action,
          resume_fields: fields,
        }),
      );
      expect(answer.statusCode, `${action} ${fields.slice(0, 40)}`).toBe(303);
      expect(answer.headers.location).toBe('/ui/');
    }
  });
});

describe('the sign-in page', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp();
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('says why the API refused what was typed, in plain words, keeping the username', async () => {
    for (const [username, password, reason] of [
      ['admin', 'x&amp;y', /The password contains HTML or script content/],
      ['a<b', 'secret-12', /The username contains HTML or script content/],
      ['x'.repeat(300), 'secret-12', /The username must be at most 255 characters long/],
    ] as const) {
      const answer = await ctx.app.inject({
        method: 'POST',
        url: '/ui/login',
        payload: new URLSearchParams({ username, password, next: '/ui/' }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(answer.body, username).toMatch(reason);
      expect(answer.body, username).not.toContain('Enter a username and a password');
    }
  });
});
