import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uiResource } from '../../src/ui/catalogue.js';
import { DEFAULT_WEBHOOK_SETTINGS } from '../../src/webhooks/worker.js';
import { create, startTestApp, TEST_PASSWORD, type TestContext } from '../helpers.js';
import { type Browser, formAsShown, post, signIn, visit } from './inject.js';

/**
 * A bulk edit of an enumeration (a device's status) is a choice among its declared values, as
 * on a record's own form, each left unchanged unless one is chosen; never free text.
 */

let ctx: TestContext;
let admin: Browser;
let a: { id: string };
let b: { id: string };

beforeAll(async () => {
  // A webhook to a loopback address, never delivered to: the worker does not run.
  ctx = await startTestApp({
    webhooks: {
      ...DEFAULT_WEBHOOK_SETTINGS,
      allowPrivateTargets: true,
      workerEnabled: false,
      secretKey: undefined,
    },
  });
  admin = await signIn(ctx.app, 'admin', TEST_PASSWORD);
  a = await create(ctx, 'devices', { hostname: 'enum-a', ip: '10.250.0.1', status: 'active' });
  b = await create(ctx, 'devices', { hostname: 'enum-b', ip: '10.250.0.2', status: 'offline' });
});
afterAll(() => ctx?.close());

const bulkOf = (resource: string, ids: readonly string[]) =>
  visit(
    ctx.app,
    admin,
    `/ui/${resource}/bulk?${new URLSearchParams([['action', 'edit'], ...ids.map((id): [string, string] => ['id', id])])}`,
  );
const stored = async (id: string) =>
  (await ctx.as('admin', { method: 'GET', url: `/devices/${id}` })).json();
/** A select's options as `value=text`, in order. */
const optionsOf = (page: string, id: string) => {
  const select = new RegExp(`<select id="${id}"[^>]*>([\\s\\S]*?)</select>`).exec(page)?.[1];
  return [...(select ?? '').matchAll(/<option value="([^"]*)"[^>]*>([^<]*)</g)].map(
    ([, value, text]) => `${value}=${text}`,
  );
};

describe('a bulk edit of an enumeration', () => {
  it('is a select of the declared values, "leave unchanged" first', async () => {
    const page = await bulkOf('devices', [a.id, b.id]);
    expect(page.statusCode).toBe(200);
    const declared = uiResource('devices')?.columns.find((c) => c.name === 'status')?.choices;
    expect(declared?.length).toBeGreaterThan(1);
    expect(page.body).toMatch(/<label for="bulk-status">Status<\/label>/);
    expect(optionsOf(page.body, 'bulk-status')).toEqual([
      '=leave unchanged',
      ...(declared ?? []).map((value) => `${value}=${value}`),
    ]);
    // The status is not offered as free text beside the other fields.
    expect(optionsOf(page.body, 'bulk-field')).not.toContain('status=Status');
    // Every enumeration of the resource, derived from its declaration.
    const interfaces = await create(ctx, 'interfaces', { device_id: a.id, name: 'eth0' });
    const other = await bulkOf('interfaces', [interfaces.id]);
    for (const name of ['status', 'admin_status', 'oper_status']) {
      const values = uiResource('interfaces')?.columns.find((c) => c.name === name)?.choices ?? [];
      // Never null is not promised here: the value can be cleared.
      expect(optionsOf(other.body, `bulk-${name}`)).toEqual([
        '=leave unchanged',
        '__clear__=— (clear)',
        ...values.map((value) => `${value}=${value}`),
      ]);
    }
  });

  it('sets the chosen value on every record; left unchanged, it is not sent', async () => {
    const page = await bulkOf('devices', [a.id, b.id]);
    const form = formAsShown(page.body, '/ui/devices/bulk-edit');
    expect(form.get('set_status')).toBe('');
    expect(form.get('field')).toBe('');
    form.set('set_status', 'maintenance');
    const applied = await post(ctx.app, admin, '/ui/devices/bulk-edit', form);
    expect(applied.statusCode, applied.body.slice(0, 400)).toBe(303);
    expect((await stored(a.id)).status).toBe('maintenance');
    expect((await stored(b.id)).status).toBe('maintenance');
    // Another field changed with the status left alone: the status stays.
    const again = formAsShown(
      (await bulkOf('devices', [a.id, b.id])).body,
      '/ui/devices/bulk-edit',
    );
    again.set('field', 'model');
    again.set('value', 'C9300');
    expect((await post(ctx.app, admin, '/ui/devices/bulk-edit', again)).statusCode).toBe(303);
    expect(await stored(a.id)).toMatchObject({ status: 'maintenance', model: 'C9300' });
    // Both at once.
    const both = formAsShown((await bulkOf('devices', [a.id])).body, '/ui/devices/bulk-edit');
    both.set('set_status', 'active');
    both.set('field', 'vendor');
    both.set('value', 'Arista');
    const done = await post(ctx.app, admin, '/ui/devices/bulk-edit', both);
    expect(done.statusCode).toBe(303);
    expect(await stored(a.id)).toMatchObject({ status: 'active', vendor: 'Arista' });
  });

  it('clears a value that may be empty', async () => {
    const port = await create(ctx, 'interfaces', {
      device_id: b.id,
      name: 'eth1',
      admin_status: 'up',
    });
    const form = formAsShown(
      (await bulkOf('interfaces', [port.id])).body,
      '/ui/interfaces/bulk-edit',
    );
    form.set('set_admin_status', '__clear__');
    expect((await post(ctx.app, admin, '/ui/interfaces/bulk-edit', form)).statusCode).toBe(303);
    const after = await ctx.as('admin', { method: 'GET', url: `/interfaces/${port.id}` });
    expect(after.json().admin_status).toBeNull();
  });

  it('offers yes and no for a flag (a webhook’s enabled)', async () => {
    const hook = await create(ctx, 'webhooks', {
      name: 'bulk-hook',
      url: 'http://127.0.0.1:9/never',
      secret: 'a-secret-of-sixteen-or-more',
    });
    const page = await bulkOf('webhooks', [hook.id]);
    const options = optionsOf(page.body, 'bulk-enabled');
    expect(options[0]).toBe('=leave unchanged');
    expect(options.slice(-2)).toEqual(['true=yes', 'false=no']);
    const form = formAsShown(page.body, '/ui/webhooks/bulk-edit');
    form.set('set_enabled', 'false');
    const applied = await post(ctx.app, admin, '/ui/webhooks/bulk-edit', form);
    expect(applied.statusCode, applied.body.slice(0, 400)).toBe(303);
    const after = await ctx.as('admin', { method: 'GET', url: `/webhooks/${hook.id}` });
    expect(after.json().enabled).toBe(false);
  });

  it('with nothing chosen says so on the form, changing nothing', async () => {
    const form = formAsShown((await bulkOf('devices', [a.id])).body, '/ui/devices/bulk-edit');
    const refused = await post(ctx.app, admin, '/ui/devices/bulk-edit', form);
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('Choose a field to change');
    expect(refused.body).toContain('action="/ui/devices/bulk-edit"');
  });

  it('refuses a value the declaration does not hold, in words and escaped', async () => {
    for (const value of ['bogus', '<script>alert(1)</script>', 'x'.repeat(10_000), 'a\u0000b']) {
      const form = formAsShown((await bulkOf('devices', [a.id])).body, '/ui/devices/bulk-edit');
      form.set('set_status', value);
      const refused = await post(ctx.app, admin, '/ui/devices/bulk-edit', form);
      expect(refused.statusCode, value.slice(0, 20)).toBeGreaterThanOrEqual(400);
      expect(refused.statusCode, value.slice(0, 20)).toBeLessThan(500);
      expect(refused.body).toContain(
        'role="alert">Status: choose one of: active, offline, maintenance, provisioning, decommissioned.',
      );
      expect(refused.body).not.toContain('<script>alert');
    }
    expect((await stored(a.id)).status).toBe('active');
  });
});
