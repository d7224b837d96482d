import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  create,
  makeUser,
  startTestApp,
  TEST_PASSWORD,
  type TestContext,
  THROWAWAY_PASSWORD,
} from '../helpers.js';
import { type Browser, csrfOf, formAsShown, signIn, visit } from './inject.js';

/**
 * A form sent after its session ended is carried through the sign-in page only as this service
 * carried it (signed, bound to the user whose session ended), only for a sign-in posted by a
 * page of this site, only back to that same user, and only when the sign-in form that carries
 * it stays within the size a form may send.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** The browser's session ends as it does when it expires while the user types. */
async function expire(browser: Browser) {
  await sql`UPDATE ui_sessions SET expires_at = ${new Date(Date.now() - 1000)}
    WHERE expires_at > ${new Date()} AND id_hash IS NOT NULL`.execute(ctx.store.db);
  expect((await visit(ctx.app, browser, '/ui/devices')).statusCode).toBe(303);
}

/** A form posted from a page of this site by a browser whose session has ended. */
const postEnded = (browser: Browser, url: string, form: URLSearchParams) =>
  ctx.app.inject({
    method: 'POST',
    url,
    payload: form.toString(),
    headers: { ...FORM, cookie: browser.cookie, 'sec-fetch-site': 'same-origin' },
  });
const signInWith = (form: URLSearchParams, site = 'same-origin') =>
  ctx.app.inject({
    method: 'POST',
    url: '/ui/login',
    payload: form.toString(),
    headers: { ...FORM, ...(site ? { 'sec-fetch-site': site } : {}) },
  });

async function carriedForm(username: string, password: string, model: string) {
  const device = await create(ctx, 'devices', {
    hostname: `resumed-${Math.random().toString(36).slice(2, 8)}`,
    ip: `192.0.2.${Math.floor(Math.random() * 200) + 20}`,
  });
  const browser = await signIn(ctx.app, username, password);
  const edit = await visit(ctx.app, browser, `/ui/devices/${device.id}/edit`);
  const form = formAsShown(edit.body, `/ui/devices/${device.id}/edit`);
  form.set('model', model);
  await expire(browser);
  const login = await postEnded(browser, `/ui/devices/${device.id}/edit`, form);
  expect(login.statusCode).toBe(200);
  return { device, carried: formAsShown(login.body, '/ui/login'), login };
}

describe('a resumed form', () => {
  it('comes back to the user whose session ended', async () => {
    const { device, carried } = await carriedForm('admin', TEST_PASSWORD, 'resumed-same-user');
    carried.set('username', 'admin');
    carried.set('password', TEST_PASSWORD);
    const signedIn = await signInWith(carried);
    expect(signedIn.statusCode).toBe(200);
    expect(formAsShown(signedIn.body, `/ui/devices/${device.id}/edit`).get('model')).toBe(
      'resumed-same-user',
    );
  });

  it('of an import comes back with the pasted CSV, imported only once sent again', async () => {
    const browser = await signIn(ctx.app, 'admin', TEST_PASSWORD);
    const page = await visit(ctx.app, browser, '/ui/devices/import');
    const csv = 'hostname,ip\nresumed-import,192.0.2.19\n';
    const form = new URLSearchParams({ _csrf: csrfOf(page.body), step: 'import', csv });
    await expire(browser);
    const login = await postEnded(browser, '/ui/devices/import', form);
    expect(login.statusCode).toBe(200);
    const carried = formAsShown(login.body, '/ui/login');
    carried.set('username', 'admin');
    carried.set('password', TEST_PASSWORD);
    const signedIn = await signInWith(carried);
    expect(signedIn.statusCode).toBe(200);
    expect(formAsShown(signedIn.body, '/ui/devices/import').get('csv')).toBe(csv);
    const stored = await ctx.as('admin', {
      method: 'GET',
      url: '/devices?hostname=resumed-import',
    });
    expect(stored.json<{ data: unknown[] }>().data).toEqual([]);
  });

  it('is dropped when another user signs in on that browser', async () => {
    const other = await makeUser(ctx, 'editor', 'resume-other');
    const { carried } = await carriedForm('admin', TEST_PASSWORD, 'typed-by-admin');
    carried.set('username', other.username);
    carried.set('password', THROWAWAY_PASSWORD);
    const signedIn = await signInWith(carried);
    expect(signedIn.statusCode).toBe(303);
    expect(signedIn.body).not.toContain('typed-by-admin');
  });

  it('is dropped when it was not carried by this service, or the sign-in is not from this site', async () => {
    const device = await create(ctx, 'devices', { hostname: 'planted-form', ip: '192.0.2.19' });
    // A neighbouring origin plants a form (no signature, or one for other fields).
    const planted = new URLSearchParams({
      username: 'admin',
      password: TEST_PASSWORD,
      next: '/ui/',
      resume_action: `/ui/devices/${device.id}/edit`,
      resume_fields: '[["model","planted"]]',
    });
    for (const site of ['same-origin', 'same-site']) {
      const answer = await signInWith(planted, site);
      expect(answer.statusCode, site).toBe(303);
      expect(answer.body).not.toContain('planted');
    }
    const { carried } = await carriedForm('admin', TEST_PASSWORD, 'carried-then-altered');
    carried.set('username', 'admin');
    carried.set('password', TEST_PASSWORD);
    const altered = new URLSearchParams(carried);
    altered.set('resume_fields', '[["model","altered"]]');
    expect((await signInWith(altered)).statusCode).toBe(303);
    // Signed as carried, but posted from another origin of the site.
    expect((await signInWith(carried, 'same-site')).statusCode).toBe(303);
    expect((await signInWith(carried, '')).statusCode).toBe(303);
  });

  it('is carried only when the sign-in form that carries it can be sent', async () => {
    /** A new location's form, its address as given, sent once the session has ended. */
    const sendEnded = async (address: string) => {
      const browser = await signIn(ctx.app, 'admin', TEST_PASSWORD);
      const page = await visit(ctx.app, browser, '/ui/locations/new');
      const form = formAsShown(page.body, '/ui/locations/new');
      form.set('name', 'big');
      form.set('address', address);
      await expire(browser);
      return postEnded(browser, '/ui/locations/new', form);
    };
    // Within the form's 64 KB as typed, but not once carried as JSON text and urlencoded again:
    // not carried (sent to sign in), rather than carried into a sign-in form refused as too large.
    const heavy = await sendEnded(`${'中'.repeat(7000)}${'"'.repeat(800)}`);
    if (heavy.statusCode === 200) {
      const carried = formAsShown(heavy.body, '/ui/login');
      carried.set('username', 'admin');
      carried.set('password', TEST_PASSWORD);
      const signedIn = await signInWith(carried);
      expect(signedIn.statusCode, 'the sign-in carrying it').not.toBe(413);
    }
    expect(heavy.statusCode).toBe(303);
    expect(heavy.headers.location).toMatch(/^\/ui\/login\?next=/);
    // Non-ASCII text that fits is still carried.
    const fits = await sendEnded('中'.repeat(1000));
    expect(fits.statusCode).toBe(200);
    expect(fits.body).toContain('id="resume-notice"');
  });
});
