import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, startTestApp, TEST_PASSWORD, type TestContext } from '../helpers.js';
import { type Browser, signIn, visit } from './inject.js';

/** What a record's own page draws and lists: its topology, metrics and change history. */

let ctx: TestContext;
let admin: Browser;

beforeAll(async () => {
  ctx = await startTestApp();
  admin = await signIn(ctx.app, 'admin', TEST_PASSWORD);
});
afterAll(() => ctx?.close());

const post = async (url: string, payload: unknown) => {
  const answer = await ctx.as('admin', { method: 'POST', url, payload: payload as object });
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json();
};

describe('the topology', () => {
  it('draws every link of a location, however many interfaces its devices have', async () => {
    const location = await create(ctx, 'locations', { name: 'many-ports' });
    const ports: Record<string, Array<{ id: string }>> = {};
    for (const [index, hostname] of ['sw-a', 'sw-b', 'sw-c', 'sw-d'].entries()) {
      const device = await create(ctx, 'devices', {
        hostname,
        ip: `10.210.0.${index + 1}`,
        location_id: location.id,
      });
      ports[hostname] = await post(
        '/interfaces',
        Array.from({ length: 48 }, (_, port) => ({ device_id: device.id, name: `ge-0/0/${port}` })),
      );
    }
    const at = (hostname: string, port: number) => String(ports[hostname]?.[port]?.id);
    // Links on ports past the first 100 interfaces of the location (sw-c and sw-d).
    await post('/links', [
      { a_interface_id: at('sw-a', 0), b_interface_id: at('sw-b', 0) },
      ...Array.from({ length: 8 }, (_, port) => ({
        a_interface_id: at('sw-c', port),
        b_interface_id: at('sw-d', port),
      })),
      { a_interface_id: at('sw-c', 20), b_interface_id: at('sw-a', 20), status: 'down' },
      { a_interface_id: at('sw-d', 47), b_interface_id: at('sw-b', 47) },
    ]);
    const page = await visit(ctx.app, admin, `/ui/locations/${location.id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Topology: 4 devices, 11 links');
    expect(page.body).toContain('Link sw-d ge-0/0/47 — sw-b ge-0/0/47 (up)');
  });

  it('draws every link of a device with more than 100 interfaces on its own page', async () => {
    const device = await create(ctx, 'devices', { hostname: 'big-chassis', ip: '10.211.0.1' });
    const peer = await create(ctx, 'devices', { hostname: 'peer', ip: '10.211.0.2' });
    const mine = await post(
      '/interfaces',
      Array.from({ length: 130 }, (_, port) => ({ device_id: device.id, name: `et-${port}` })),
    );
    const theirs = await post('/interfaces', [{ device_id: peer.id, name: 'et-0' }]);
    await post('/links', { a_interface_id: theirs[0].id, b_interface_id: mine[129].id });
    const page = await visit(ctx.app, admin, `/ui/devices/${device.id}`);
    expect(page.body).toContain('Topology: 2 devices, 1 links');
    expect(page.body).toContain('Link peer et-0 — big-chassis et-129 (up)');
  });
});

describe('an empty list', () => {
  it('says so in a sentence, not with a bare header row', async () => {
    const vlans = await visit(ctx.app, admin, '/ui/vlans');
    expect(vlans.body).toContain('<p class="empty">No VLANs yet.</p>');
    expect(vlans.body).not.toContain('<table class="list">');
    const filtered = await visit(ctx.app, admin, '/ui/devices?hostname=no-such-host');
    expect(filtered.body).toContain('<p class="empty">No devices match these filters.</p>');
    const tokens = await visit(ctx.app, admin, '/ui/admin/tokens');
    expect(tokens.body).toContain('<p class="empty">No API tokens yet.</p>');
  });

  it('past its last page says there is no such page and links to the last one', async () => {
    const tokens = await visit(ctx.app, admin, '/ui/admin/tokens?page=5');
    expect(tokens.body).not.toContain('Page 5 of 1');
    expect(tokens.body).toContain('There is no page 5: there are no API tokens.');
    expect(tokens.body).toContain('<a href="/ui/admin/tokens">Go to the first page</a>');
    const users = await visit(ctx.app, admin, '/ui/admin/users?page=3');
    expect(users.body).toContain('There is no page 3: the 3 users fit on 1 page.');
  });
});

describe('a record’s change history', () => {
  it('says it shows the latest 25 of all its changes, and links to the rest', async () => {
    const device = await create(ctx, 'devices', { hostname: 'many-changes', ip: '10.212.0.1' });
    for (let change = 0; change < 30; change++) {
      const answer = await ctx.as('admin', {
        method: 'PATCH',
        url: `/devices/${device.id}`,
        payload: { model: `model-${change}` },
      });
      expect(answer.statusCode).toBe(200);
    }
    const page = await visit(ctx.app, admin, `/ui/devices/${device.id}`);
    expect(page.body).toContain(
      `The latest 25 of 31 changes, newest first: <a href="/ui/audit-logs?resource_id=${String(device.id).toLowerCase()}">all 31 in the audit log</a>.`,
    );
    const few = await create(ctx, 'devices', { hostname: 'few-changes', ip: '10.212.0.2' });
    const shown = await visit(ctx.app, admin, `/ui/devices/${few.id}`);
    expect(shown.body).not.toContain('The latest');
    expect(shown.body).toContain('All its entries in the audit log');
  });
});

describe('a device’s metric charts', () => {
  const report = async (deviceId: string, ts: Date, cpu: number) => {
    const answer = await ctx.as('admin', {
      method: 'POST',
      url: '/metrics',
      payload: { device_id: deviceId, cpu, memory: 41.25, temperature: 35, ts: ts.toISOString() },
    });
    expect(answer.statusCode, answer.body).toBeLessThan(300);
  };

  it('round their values and say which span they draw, first and last time', async () => {
    const device = await create(ctx, 'devices', { hostname: 'charted', ip: '10.213.0.1' });
    const first = new Date(Date.now() - 2 * 3600_000);
    const last = new Date(Date.now() - 3600_000);
    await report(String(device.id), first, 12.5);
    await report(String(device.id), last, 16.40647706065106);
    const page = await visit(ctx.app, admin, `/ui/devices/${device.id}`);
    const time = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    expect(page.body).toContain(
      `All 2 measurements of the last 7 days, from ${time(first)} to ${time(last)}.`,
    );
    expect(page.body).toContain('CPU (%) — latest 16.4</figcaption>');
    expect(page.body).not.toContain('16.40647706065106');
    expect(page.body).not.toContain('Metrics (last 7 days)');
    // The time axis is labelled with the first and last times.
    expect(page.body).toContain(`text-anchor="end">${time(last)}</text>`);
  });

  it('say when there are none in the last 7 days but older ones', async () => {
    const device = await create(ctx, 'devices', { hostname: 'quiet', ip: '10.213.0.2' });
    const old = new Date(Date.now() - 9 * 24 * 3600_000);
    await report(String(device.id), old, 10);
    const page = await visit(ctx.app, admin, `/ui/devices/${device.id}`);
    expect(page.body).toContain(
      `No metrics in the last 7 days (the latest is from ${old.toISOString().slice(0, 16).replace('T', ' ')} UTC).`,
    );
    const none = await create(ctx, 'devices', { hostname: 'silent', ip: '10.213.0.3' });
    const empty = await visit(ctx.app, admin, `/ui/devices/${none.id}`);
    expect(empty.body).toContain('No metrics reported for this device.');
  });
});

describe('the audit log', () => {
  it('links a row’s record to its page, and keeps its time on one line', async () => {
    const device = await create(ctx, 'devices', { hostname: 'audited-1', ip: '10.211.0.1' });
    const page = await visit(ctx.app, admin, `/ui/audit-logs?resource_id=${device.id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`<a href="/ui/devices/${device.id}">${device.id}</a>`);
    expect(page.body).toMatch(/<td class="time">\d{4}-\d\d-\d\dT/);
  });
});
