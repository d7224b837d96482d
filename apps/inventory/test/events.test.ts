import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { create, startTestApp, type TestContext, unique } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());
beforeEach(async () => {
  await ctx.reset();
  await ctx.store.scriptTransaction((tx) => tx.exec('TRUNCATE events'));
});

const post = (role: 'admin' | 'editor' | 'viewer' | undefined, payload: unknown) =>
  ctx.as(role, { method: 'POST', url: '/events', payload: payload as Record<string, unknown> });

const list = async (query: string) => {
  const response = await ctx.as('viewer', { url: `/events${query}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ meta: Record<string, number>; data: Array<Record<string, unknown>> }>();
};

describe('events', () => {
  it('admins and editors post an event (viewers cannot modify); the stored record comes back', async () => {
    const device = await create(ctx, 'devices', { hostname: unique('ev'), ip: '192.0.2.7' });
    expect((await post('viewer', { severity: 'info', type: 't', message: 'm' })).statusCode).toBe(
      403,
    );
    for (const role of ['admin', 'editor'] as const) {
      const response = await post(role, {
        severity: 'critical',
        type: 'security',
        message: `seen by ${role}`,
        device_id: device.id,
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json()).toMatchObject({
        id: expect.any(String),
        severity: 'critical',
        type: 'security',
        message: `seen by ${role}`,
        device_id: device.id,
        created_at: expect.any(String),
      });
      const read = await ctx.as('viewer', { url: `/events/${response.json().id}` });
      expect(read.json()).toEqual(response.json());
    }
    expect((await post(undefined, { severity: 'info', type: 't', message: 'm' })).statusCode).toBe(
      401,
    );
  });

  it('rejects an unknown severity, a missing field and a device that does not exist', async () => {
    const badSeverity = await post('editor', { severity: 'fatal', type: 't', message: 'm' });
    expect(badSeverity.statusCode).toBe(400);
    expect(badSeverity.json().message).toContain('severity');
    const missing = await post('editor', { severity: 'info', type: 't' });
    expect(missing.json()).toEqual({
      status: 'error',
      message: 'Missing required body field: message',
    });
    const ghost = await post('editor', {
      severity: 'info',
      type: 't',
      message: 'm',
      device_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(ghost.statusCode).toBe(400);
    expect(ghost.json().message).toBe('device_id: Device not found');
    const unknown = await ctx.as('viewer', { url: '/events/00000000-0000-4000-8000-000000000000' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Event not found');
  });

  it('lists newest first, filters by severity, type, device and a time range, and sorts', async () => {
    const device = await create(ctx, 'devices', { hostname: unique('ev'), ip: '192.0.2.8' });
    const made: Array<Record<string, string>> = [];
    for (const [severity, type, onDevice] of [
      ['critical', 'security', true],
      ['info', 'config', false],
      ['major', 'security', true],
      ['warning', 'link', false],
    ] as const) {
      const response = await post('editor', {
        severity,
        type,
        message: `${severity} ${type}`,
        ...(onDevice ? { device_id: device.id } : {}),
      });
      made.push(response.json());
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const all = await list('');
    expect(all.meta).toEqual({
      current_page: 1,
      limit: 10,
      total_pages: 1,
      total_count: 4,
      next_cursor: null,
    });
    expect(all.data.map((event) => event.id)).toEqual(made.map((event) => event.id).reverse());

    expect((await list('?severity=critical')).data.map((event) => event.message)).toEqual([
      'critical security',
    ]);
    const security = await list('?type=security&sortby=severity:asc');
    expect(security.data.map((event) => event.severity)).toEqual(['critical', 'major']);
    expect((await list(`?device_id=${device.id}`)).meta.total_count).toBe(2);

    const [first, second, third] = made;
    // Responses carry milliseconds, PostgreSQL keeps microseconds: end the window 1 ms later.
    const to = new Date(Date.parse(String(third?.created_at)) + 1).toISOString();
    const window = await list(
      `?from=${encodeURIComponent(String(second?.created_at))}&to=${encodeURIComponent(to)}`,
    );
    expect(window.data.map((event) => event.id)).toEqual([third?.id, second?.id]);
    const since = await list(`?from=${encodeURIComponent(String(first?.created_at))}&limit=2`);
    expect(since.meta).toMatchObject({ total_count: 4, total_pages: 2, limit: 2 });

    const badRange = await ctx.as('viewer', { url: '/events?from=yesterday' });
    expect(badRange.statusCode).toBe(400);
    expect(badRange.json().message).toContain('from');
    const badFilter = await ctx.as('viewer', { url: '/events?severity=fatal' });
    expect(badFilter.statusCode).toBe(400);
  });
});

describe('audit logs', () => {
  it('only admins read them, newest first, filtered by user, action and resource', async () => {
    const location = await create(ctx, 'locations', { name: 'Audited' });
    const patched = await ctx.as('admin', {
      method: 'PATCH',
      url: `/locations/${location.id}`,
      payload: { city: 'Lyon' },
    });
    expect(patched.statusCode).toBe(200);
    await create(ctx, 'vlans', { vlan_id: 10, name: 'ten' });

    for (const role of ['editor', 'viewer'] as const) {
      expect((await ctx.as(role, { url: '/audit-logs' })).statusCode).toBe(403);
    }
    const response = await ctx.as('admin', { url: '/audit-logs' });
    expect(response.statusCode).toBe(200);
    const page = response.json<{
      meta: { total_count: number };
      data: Array<Record<string, unknown>>;
    }>();
    expect(page.meta.total_count).toBe(3);
    expect(page.data.map((row) => [row.action, row.resource_type])).toEqual([
      ['create', 'vlans'],
      ['update', 'locations'],
      ['create', 'locations'],
    ]);
    expect(page.data[1]).toMatchObject({
      user_id: expect.any(String),
      username: 'admin',
      resource_id: location.id,
      // The change history: [old, new] per changed field, and the record before and after.
      changes: { city: [null, 'Lyon'] },
      prechange: { city: null, name: 'Audited' },
      postchange: { city: 'Lyon', name: 'Audited' },
      request_id: expect.any(String),
      client_ip: '127.0.0.1',
      created_at: expect.any(String),
    });

    const filtered = await ctx.as('admin', {
      url: `/audit-logs?resource_type=locations&resource_id=${location.id}&action=update`,
    });
    expect(filtered.json().data).toHaveLength(1);
    const byUser = await ctx.as('admin', {
      url: `/audit-logs?user_id=${page.data[0]?.user_id}&limit=1`,
    });
    expect(byUser.json().meta).toMatchObject({ total_count: 3, total_pages: 3 });
    const badAction = await ctx.as('admin', { url: '/audit-logs?action=explode' });
    expect(badAction.statusCode).toBe(400);
  });
});
