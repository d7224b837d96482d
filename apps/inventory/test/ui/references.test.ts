import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, startTestApp, TEST_PASSWORD, type TestContext } from '../helpers.js';
import { type Browser, formAsShown, post, signIn, visit } from './inject.js';

/**
 * A form's reference to another record, when there are more records than one list page (100)
 * holds: any of them can be chosen, by name, and the current one is shown by its name.
 */

let ctx: TestContext;
let admin: Browser;
/** Devices `ref-000` … `ref-149`, by hostname. */
const devices = new Map<string, string>();
/** A device that is not among the first 100 the API lists. */
let far: { id: string; hostname: string };

beforeAll(async () => {
  ctx = await startTestApp();
  admin = await signIn(ctx.app, 'admin', TEST_PASSWORD);
  for (const start of [0, 75]) {
    const answer = await ctx.as('admin', {
      method: 'POST',
      url: '/devices',
      payload: Array.from({ length: 75 }, (_, offset) => ({
        hostname: `ref-${String(start + offset).padStart(3, '0')}`,
        ip: `10.230.${Math.floor((start + offset) / 200)}.${((start + offset) % 200) + 1}`,
      })),
    });
    expect(answer.statusCode, answer.body).toBe(201);
    for (const device of answer.json<Array<{ id: string; hostname: string }>>())
      devices.set(device.hostname, device.id);
  }
  const first = await ctx.as('admin', { method: 'GET', url: '/devices?limit=100&fields=id' });
  const listed = new Set(first.json<{ data: Array<{ id: string }> }>().data.map((row) => row.id));
  const [hostname, id] = [...devices].find(([, candidate]) => !listed.has(candidate)) ?? [];
  far = { id: String(id), hostname: String(hostname) };
});
afterAll(() => ctx?.close());

/** The text a form's field for `name` shows: an input's value, or a select's chosen option. */
function shownValue(page: string, name: string): string | undefined {
  const input = new RegExp(`<input[^>]*\\sname="${name}"[^>]*\\svalue="([^"]*)"`).exec(page);
  if (input) return input[1];
  const select = new RegExp(`<select[^>]*\\sname="${name}"[^>]*>([\\s\\S]*?)</select>`).exec(page);
  return select ? /<option[^>]*\sselected[^>]*>([^<]*)</.exec(select[1] ?? '')?.[1] : undefined;
}

describe('a reference to one of more than 100 records', () => {
  it('is pre-filled from the address, shown by its name, and saved', async () => {
    const form = await visit(ctx.app, admin, `/ui/interfaces/new?device_id=${far.id}`);
    expect(form.statusCode).toBe(200);
    expect(shownValue(form.body, 'device_id')).toBe(far.hostname);
    const fields = formAsShown(form.body, '/ui/interfaces/new');
    fields.set('name', 'eth9');
    const saved = await post(ctx.app, admin, '/ui/interfaces/new', fields);
    expect(saved.statusCode, saved.body.slice(0, 500)).toBe(303);
    const id = String(saved.headers.location).split('/').pop();
    const stored = await ctx.as('admin', { method: 'GET', url: `/interfaces/${id}` });
    expect(stored.json().device_id).toBe(far.id);
  });

  it('is chosen by typing its name, any of them', async () => {
    const form = await visit(ctx.app, admin, '/ui/interfaces/new');
    const fields = formAsShown(form.body, '/ui/interfaces/new');
    fields.set('name', 'eth0');
    fields.set('device_id', 'ref-149');
    const saved = await post(ctx.app, admin, '/ui/interfaces/new', fields);
    expect(saved.statusCode, saved.body.slice(0, 500)).toBe(303);
    const id = String(saved.headers.location).split('/').pop();
    const stored = await ctx.as('admin', { method: 'GET', url: `/interfaces/${id}` });
    expect(stored.json().device_id).toBe(devices.get('ref-149'));
  });

  it('names a record no one has in words, keeping what was typed', async () => {
    const form = await visit(ctx.app, admin, '/ui/interfaces/new');
    const fields = formAsShown(form.body, '/ui/interfaces/new');
    fields.set('name', 'eth1');
    fields.set('device_id', 'ref-nowhere');
    const refused = await post(ctx.app, admin, '/ui/interfaces/new', fields);
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('No device is named ref-nowhere');
    expect(shownValue(refused.body, 'device_id')).toBe('ref-nowhere');
  });

  it('is shown by its name on an edit, and kept when another field is saved', async () => {
    const port = await create(ctx, 'interfaces', { device_id: far.id, name: 'xe-0/0/1' });
    const form = await visit(ctx.app, admin, `/ui/interfaces/${port.id}/edit`);
    expect(shownValue(form.body, 'device_id')).toBe(far.hostname);
    expect(form.body).not.toContain(`>${far.id}<`);
    const fields = formAsShown(form.body, `/ui/interfaces/${port.id}/edit`);
    fields.set('description', 'uplink');
    const saved = await post(ctx.app, admin, `/ui/interfaces/${port.id}/edit`, fields);
    expect(saved.statusCode, saved.body.slice(0, 500)).toBe(303);
    const stored = await ctx.as('admin', { method: 'GET', url: `/interfaces/${port.id}` });
    expect(stored.json()).toMatchObject({ device_id: far.id, description: 'uplink' });
  });

  it('is an interface of any device, chosen by its device and name; a record page links to adding its children', async () => {
    const a = await create(ctx, 'interfaces', { device_id: devices.get('ref-140'), name: 'ge-1' });
    const b = await create(ctx, 'interfaces', { device_id: devices.get('ref-141'), name: 'ge-1' });
    const device = await visit(ctx.app, admin, `/ui/devices/${devices.get('ref-140')}`);
    expect(device.body).toContain(`href="/ui/interfaces/new?device_id=${devices.get('ref-140')}"`);
    const port = await visit(ctx.app, admin, `/ui/interfaces/${a.id}`);
    expect(port.body).toContain(`href="/ui/links/new?a_interface_id=${a.id}"`);
    const form = await visit(ctx.app, admin, `/ui/links/new?a_interface_id=${a.id}`);
    expect(shownValue(form.body, 'a_interface_id')).toBe('ref-140 · ge-1');
    const fields = formAsShown(form.body, '/ui/links/new');
    fields.set('b_interface_id', 'ref-141 · ge-1');
    const saved = await post(ctx.app, admin, '/ui/links/new', fields);
    expect(saved.statusCode, saved.body.slice(0, 800)).toBe(303);
    const id = String(saved.headers.location).split('/').pop();
    const stored = await ctx.as('admin', { method: 'GET', url: `/links/${id}` });
    expect(stored.json()).toMatchObject({ a_interface_id: a.id, b_interface_id: b.id });
  });

  it('takes only a field the form has from the address', async () => {
    const form = await visit(
      ctx.app,
      admin,
      '/ui/interfaces/new?id=x&created_at=y&device_id=%3Cb%3E',
    );
    expect(form.statusCode).toBe(200);
    expect(form.body).not.toContain('<b>');
    expect(shownValue(form.body, 'device_id')).toBe('&lt;b&gt;');
  });

  it('is set on many records at once by its name', async () => {
    const port = await create(ctx, 'interfaces', {
      device_id: devices.get('ref-001'),
      name: 'mv-1',
    });
    const opened = await visit(ctx.app, admin, `/ui/interfaces/bulk?action=edit&id=${port.id}`);
    const fields = formAsShown(opened.body, '/ui/interfaces/bulk-edit');
    fields.set('field', 'device_id');
    fields.set('value', far.hostname);
    const applied = await post(ctx.app, admin, '/ui/interfaces/bulk-edit', fields);
    expect(applied.statusCode, applied.body.slice(0, 500)).toBe(303);
    const stored = await ctx.as('admin', { method: 'GET', url: `/interfaces/${port.id}` });
    expect(stored.json().device_id).toBe(far.id);
  });
});
