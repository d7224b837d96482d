import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, startTestApp, TEST_PASSWORD, type TestContext } from '../helpers.js';
import { type Browser, csrfOf, formAsShown, post, signIn, visit } from './inject.js';

/**
 * A reference typed by its record's title, past the 100 records a select holds: a title with
 * spaces around it, or typed in another letter case, still names its record; an edit that
 * leaves the reference as shown keeps it whatever its title.
 */

let ctx: TestContext;
let admin: Browser;
const locations = new Map<string, string>();

beforeAll(async () => {
  ctx = await startTestApp();
  admin = await signIn(ctx.app, 'admin', TEST_PASSWORD);
  const names = [
    ...Array.from({ length: 101 }, (_, index) => `pad-site-${String(index).padStart(3, '0')}`),
    ' pad ',
    'Twin',
    'twin',
  ];
  const answer = await ctx.as('admin', {
    method: 'POST',
    url: '/locations',
    payload: names.map((name) => ({ name })),
  });
  expect(answer.statusCode, answer.body).toBe(201);
  for (const row of answer.json<Array<{ id: string; name: string }>>())
    locations.set(row.name, row.id);
});
afterAll(() => ctx?.close());

describe('a reference whose record’s title has spaces around it', () => {
  it('is kept by an edit that changes another field', async () => {
    const device = await create(ctx, 'devices', {
      hostname: 'padded-ref',
      ip: '192.0.2.71',
      location_id: locations.get(' pad '),
    });
    const edit = await visit(ctx.app, admin, `/ui/devices/${device.id}/edit`);
    const form = formAsShown(edit.body, `/ui/devices/${device.id}/edit`);
    expect(form.get('location_id')).toBe(' pad ');
    form.set('model', 'only-the-model');
    const saved = await post(ctx.app, admin, `/ui/devices/${device.id}/edit`, form);
    expect(saved.statusCode, saved.body.slice(0, 2000)).toBe(303);
    const stored = (await ctx.as('admin', { method: 'GET', url: `/devices/${device.id}` })).json();
    expect(stored.model).toBe('only-the-model');
    expect(stored.location_id).toBe(locations.get(' pad '));
  });

  it('is found typed exactly, and a title typed with spaces around it is found without them', async () => {
    for (const [typed, hostname, named] of [
      [' pad ', 'padded-new-1', ' pad '],
      ['  pad-site-005 ', 'padded-new-2', 'pad-site-005'],
    ] as const) {
      const page = await visit(ctx.app, admin, '/ui/devices/new');
      const form = formAsShown(page.body, '/ui/devices/new');
      form.set('hostname', hostname);
      form.set('ip', `192.0.2.${hostname.endsWith('1') ? 72 : 73}`);
      form.set('location_id', typed);
      const saved = await post(ctx.app, admin, '/ui/devices/new', form);
      expect(saved.statusCode, `${typed}: ${saved.body.slice(0, 2000)}`).toBe(303);
      const id = String(saved.headers.location).split('/').pop();
      const stored = (await ctx.as('admin', { method: 'GET', url: `/devices/${id}` })).json();
      expect(stored.location_id, typed).toBe(locations.get(named));
    }
  });
});

describe('a reference typed in another letter case', () => {
  it('names the one record it matches, in a form and a bulk edit; two matches are refused', async () => {
    const page = await visit(ctx.app, admin, '/ui/devices/new');
    const form = formAsShown(page.body, '/ui/devices/new');
    form.set('hostname', 'case-ref');
    form.set('ip', '192.0.2.74');
    form.set('location_id', 'PAD-SITE-100');
    const saved = await post(ctx.app, admin, '/ui/devices/new', form);
    expect(saved.statusCode, saved.body.slice(0, 2000)).toBe(303);
    const id = String(saved.headers.location).split('/').pop() ?? '';
    const stored = (await ctx.as('admin', { method: 'GET', url: `/devices/${id}` })).json();
    expect(stored.location_id).toBe(locations.get('pad-site-100'));

    // "TWIN" is both "Twin" and "twin": neither is chosen; each typed exactly is its own.
    form.set('hostname', 'case-ref-2');
    form.set('ip', '192.0.2.75');
    form.set('location_id', 'TWIN');
    const twice = await post(ctx.app, admin, '/ui/devices/new', form);
    expect(twice.statusCode).toBe(400);
    expect(twice.body).toContain('No location is named TWIN');
    form.set('location_id', 'twin');
    const exact = await post(ctx.app, admin, '/ui/devices/new', form);
    expect(exact.statusCode, exact.body.slice(0, 2000)).toBe(303);

    const bulk = await post(ctx.app, admin, '/ui/devices/bulk-edit', {
      _csrf: csrfOf(page.body),
      id,
      field: 'location_id',
      value: 'PAD-SITE-001',
    });
    expect(bulk.statusCode, bulk.body.slice(0, 2000)).toBe(303);
    const moved = (await ctx.as('admin', { method: 'GET', url: `/devices/${id}` })).json();
    expect(moved.location_id).toBe(locations.get('pad-site-001'));
  });
});
