import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, startTestApp, TEST_PASSWORD, type TestContext } from '../helpers.js';
import { type Browser, formAsShown, post, signIn, visit } from './inject.js';

/** The fields of the record forms and filters: what they offer and what they say. */

let ctx: TestContext;
let admin: Browser;

beforeAll(async () => {
  ctx = await startTestApp();
  admin = await signIn(ctx.app, 'admin', TEST_PASSWORD);
});
afterAll(() => ctx?.close());

/** The options of a form's select, by the select's id. */
const optionsOf = (page: string, id: string) => {
  const start = page.indexOf(`id="${id}"`);
  expect(start, id).toBeGreaterThan(-1);
  const select = page.slice(start, page.indexOf('</select>', start));
  return [...select.matchAll(/<option value="([^"]*)"/g)].map((match) => match[1]);
};

describe('a field that cannot be empty', () => {
  it('offers no empty choice (a device’s and a link’s status)', async () => {
    const device = await create(ctx, 'devices', { hostname: 'status-1', ip: '10.70.0.1' });
    for (const url of ['/ui/devices/new', `/ui/devices/${device.id}/edit`, '/ui/links/new']) {
      const page = await visit(ctx.app, admin, url);
      const options = optionsOf(page.body, 'field-status');
      expect(options, url).not.toContain('');
      expect(options.length, url).toBeGreaterThan(1);
    }
    // A field that may be empty keeps its empty choice (an interface's status).
    const iface = await visit(ctx.app, admin, '/ui/interfaces/new');
    expect(optionsOf(iface.body, 'field-status')).toContain('');
  });
});

describe('revoking an API token', () => {
  it('is named per token, asks first, and says it was done', async () => {
    const created = await ctx.as('admin', {
      method: 'POST',
      url: '/api-tokens',
      payload: { name: 'probe-collector', scopes: ['events:write'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const tokens = await visit(ctx.app, admin, '/ui/admin/tokens');
    expect(tokens.body).toContain(
      `href="/ui/admin/tokens/${id}/revoke">Revoke<span class="visually-hidden"> token probe-collector</span></a>`,
    );
    const confirm = await visit(ctx.app, admin, `/ui/admin/tokens/${id}/revoke`);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('Revoke the token probe-collector?');
    expect(confirm.body).toContain(
      '<button type="submit" class="danger">Revoke token probe-collector</button>',
    );
    // Still there until the confirmation is sent.
    expect((await ctx.as('admin', { method: 'GET', url: `/api-tokens/${id}` })).statusCode).toBe(
      200,
    );
    const revoked = await post(
      ctx.app,
      admin,
      `/ui/admin/tokens/${id}/revoke`,
      formAsShown(confirm.body, `/ui/admin/tokens/${id}/revoke`),
    );
    expect(revoked.statusCode).toBe(303);
    const flash = revoked.cookies.find((cookie) => cookie.name === 'inventory_ui_flash');
    const after = await visit(
      ctx.app,
      { cookie: `${admin.cookie}; inventory_ui_flash=${flash?.value}` },
      '/ui/admin/tokens',
    );
    expect(after.body).toContain('id="flash">Revoked the token probe-collector.</p>');
    expect((await ctx.as('admin', { method: 'GET', url: `/api-tokens/${id}` })).statusCode).toBe(
      404,
    );
  });
});
