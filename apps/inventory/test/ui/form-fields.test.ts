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

describe('a required field left empty', () => {
  it('is said in plain words beside it, not as the validator’s “Missing required body field”', async () => {
    const form = await visit(ctx.app, admin, '/ui/devices/new');
    const fields = formAsShown(form.body, '/ui/devices/new');
    fields.set('hostname', '');
    fields.set('ip', '192.0.2.77');
    const refused = await post(ctx.app, admin, '/ui/devices/new', fields);
    expect(refused.statusCode).toBe(400);
    expect(refused.body).not.toContain('Missing required');
    expect(refused.body).toContain(
      '<p class="error" id="field-hostname-error">Must not be empty</p>',
    );
    const iface = await visit(ctx.app, admin, '/ui/interfaces/new');
    const port = formAsShown(iface.body, '/ui/interfaces/new');
    port.set('name', 'eth0');
    port.set('device_id', '');
    const noDevice = await post(ctx.app, admin, '/ui/interfaces/new', port);
    expect(noDevice.body).toContain(
      '<p class="error" id="field-device_id-error">Choose a device</p>',
    );
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
    // Back to the confirmation after revoking: it says the token is gone, not "No such page".
    const back = await visit(ctx.app, admin, `/ui/admin/tokens/${id}/revoke`);
    expect(back.statusCode).toBe(404);
    expect(back.body).not.toContain('No such page');
    expect(back.body).toContain('This API token has been revoked: it no longer works.');
    expect(back.body).toContain('<a href="/ui/admin/tokens">Back to the API tokens</a>');
  });
});

describe('a refusal of the validator', () => {
  it('is said in plain words beside the field, in a filter and in a batch', async () => {
    const device = await create(ctx, 'devices', { hostname: 'plain-words', ip: '10.71.0.1' });
    const edit = await visit(ctx.app, admin, `/ui/devices/${device.id}/edit`);
    const form = formAsShown(edit.body, `/ui/devices/${device.id}/edit`);
    form.set('tags', 'Bad Tag');
    const refused = await post(ctx.app, admin, `/ui/devices/${device.id}/edit`, form);
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain(
      'Tags: Each tag is 1–64 lower-case letters, digits, - or _ (no spaces)',
    );
    expect(refused.body).not.toMatch(/[Bb]ody\/tags/);
    for (const [url, said] of [
      [
        '/ui/devices?last_seen__gte=yesterday',
        'Last seen ≥: Must be a date and time, such as 2026-12-06T14:30:00Z',
      ],
      // A reference is looked up by its record's name: one no record has is said so.
      ['/ui/devices?location_id=dc-east', 'Location: no location is named “dc-east”.'],
      [
        '/ui/devices?location_id__in=a,b',
        'Location: no location is named “a”. Location: no location is named “b”.',
      ],
    ] as const) {
      const page = await visit(ctx.app, admin, url);
      expect(page.body, url).toContain(`class="alert" role="alert">${said}</p>`);
      expect(page.body, url).not.toContain('querystring/');
    }
    const exported = await visit(ctx.app, admin, '/ui/devices/export.csv?location_id=dc-east');
    expect(exported.body).toContain('Location: no location is named “dc-east”.');
    // A batch names the record, not "Item 0".
    const other = await create(ctx, 'devices', { hostname: 'plain-words-2', ip: '10.71.0.2' });
    const bulk = await visit(
      ctx.app,
      admin,
      `/ui/devices/bulk?action=edit&id=${device.id}&id=${other.id}`,
    );
    const batch = formAsShown(bulk.body, '/ui/devices/bulk-edit');
    batch.set('field', 'status');
    batch.set('value', '');
    const batchRefused = await post(ctx.app, admin, '/ui/devices/bulk-edit', batch);
    expect(batchRefused.statusCode).toBe(400);
    expect(batchRefused.body).toContain(
      'plain-words (Status): choose one of: active, offline, maintenance, provisioning, decommissioned',
    );
    expect(batchRefused.body).not.toContain('Item 0');
  });

  it('of a batch changed meanwhile (412) names the record and says where to see the change', async () => {
    const a = await create(ctx, 'devices', { hostname: 'stale-a', ip: '10.72.0.1' });
    const b = await create(ctx, 'devices', { hostname: 'stale-b', ip: '10.72.0.2' });
    const bulk = await visit(ctx.app, admin, `/ui/devices/bulk?action=edit&id=${a.id}&id=${b.id}`);
    const form = formAsShown(bulk.body, '/ui/devices/bulk-edit');
    await ctx.as('admin', { method: 'PATCH', url: `/devices/${b.id}`, payload: { model: 'x' } });
    form.set('field', 'model');
    form.set('value', 'bulk');
    const refused = await post(ctx.app, admin, '/ui/devices/bulk-edit', form);
    expect(refused.statusCode).toBe(412);
    expect(refused.body).toContain(
      `Nothing was changed: <a href="/ui/devices/${String(b.id).toLowerCase()}">stale-b</a> was changed by someone else after this page was read (its page shows what changed, in its change history).`,
    );
    expect(refused.body).not.toContain(`${String(b.id).toLowerCase()} has changed`);
  });
});

describe('a bulk edit of a reference', () => {
  it('takes the referenced record by its name, as the selects show it', async () => {
    const site = await create(ctx, 'locations', { name: 'dc-west' });
    const a = await create(ctx, 'devices', { hostname: 'move-a', ip: '10.73.0.1' });
    const b = await create(ctx, 'devices', { hostname: 'move-b', ip: '10.73.0.2' });
    const bulk = await visit(ctx.app, admin, `/ui/devices/bulk?action=edit&id=${a.id}&id=${b.id}`);
    const form = formAsShown(bulk.body, '/ui/devices/bulk-edit');
    form.set('field', 'location_id');
    form.set('value', 'dc-west');
    const applied = await post(ctx.app, admin, '/ui/devices/bulk-edit', form);
    expect(applied.statusCode, applied.body).toBe(303);
    for (const device of [a, b]) {
      const stored = await ctx.as('admin', { method: 'GET', url: `/devices/${device.id}` });
      expect(stored.json().location_id).toBe(site.id);
    }
    // A name no record has is refused in words, the form kept.
    const again = await visit(ctx.app, admin, `/ui/devices/bulk?action=edit&id=${a.id}`);
    const unknown = formAsShown(again.body, '/ui/devices/bulk-edit');
    unknown.set('field', 'location_id');
    unknown.set('value', 'dc-nowhere');
    const refused = await post(ctx.app, admin, '/ui/devices/bulk-edit', unknown);
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('move-a (Location): choose a location');
    expect(formAsShown(refused.body, '/ui/devices/bulk-edit').get('value')).toBe('dc-nowhere');
  });
});
