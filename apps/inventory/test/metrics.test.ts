import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { create, startTestApp, type TestContext, unique } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());
beforeEach(() => ctx.reset());

const device = () => create(ctx, 'devices', { hostname: unique('m'), ip: '192.0.2.20' });
const postMetrics = (role: 'admin' | 'editor' | 'viewer', payload: unknown) =>
  ctx.as(role, { method: 'POST', url: '/metrics', payload: payload as Record<string, unknown> });
const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();

describe('metrics', () => {
  it('admins and editors post one record or an array; viewers may not', async () => {
    const { id } = await device();
    const one = await postMetrics('editor', { device_id: id, cpu: 10, memory: 20, ts: at(1) });
    expect(one.statusCode, one.body).toBe(201);
    expect(one.json()).toEqual({ status: 'success', message: '1 metric records stored', count: 1 });
    const many = await postMetrics('admin', [
      { device_id: id, cpu: 30, ts: at(3) },
      { device_id: id, cpu: 20, ts: at(2) },
    ]);
    expect(many.json().count).toBe(2);
    expect((await postMetrics('viewer', { device_id: id, cpu: 1 })).statusCode).toBe(403);
  });

  it('refuses out-of-range values, unknown fields and unknown devices (whole array)', async () => {
    const { id } = await device();
    expect((await postMetrics('admin', { device_id: id, cpu: 101 })).statusCode).toBe(400);
    expect((await postMetrics('admin', { device_id: id, disk: 5 })).statusCode).toBe(400);
    expect((await postMetrics('admin', [])).statusCode).toBe(400);
    const ghost = await postMetrics('admin', [
      { device_id: id, cpu: 5 },
      { device_id: '00000000-0000-4000-8000-000000000000', cpu: 5 },
    ]);
    expect(ghost.statusCode).toBe(400);
    expect(ghost.json().message).toBe('device_id: Device not found');
    const latest = await ctx.as('viewer', { url: `/metrics/device/${id}` });
    expect(latest.statusCode).toBe(404);
    expect(latest.json()).toEqual({
      status: 'error',
      message: 'Metrics not found for this device',
    });
  });

  it('gives a device its latest record (even when records arrive out of order) and its history', async () => {
    const { id } = await device();
    await postMetrics('admin', [
      { device_id: id, cpu: 1, memory: 11, temperature: 40, uptime_seconds: 100, ts: at(1) },
      { device_id: id, cpu: 3, memory: 13, temperature: 42, uptime_seconds: 300, ts: at(3) },
    ]);
    await postMetrics('admin', { device_id: id, cpu: 2, ts: at(2) });
    const latest = await ctx.as('viewer', { url: `/metrics/device/${id}` });
    expect(latest.json()).toEqual({
      device_id: id,
      cpu: 3,
      memory: 13,
      temperature: 42,
      uptime_seconds: 300,
      ts: at(3),
    });
    const history = await ctx.as('viewer', {
      url: `/metrics/device/${id}?from=${at(2)}&to=${at(3)}`,
    });
    expect(history.statusCode).toBe(200);
    expect(history.json().meta).toMatchObject({ total_count: 2 });
    expect(history.json().data.map((row: { cpu: number }) => row.cpu)).toEqual([3, 2]);
    const paged = await ctx.as('viewer', {
      url: `/metrics/device/${id}?from=${at(0)}&limit=1&page=3`,
    });
    expect(paged.json().data.map((row: { cpu: number }) => row.cpu)).toEqual([1]);
  });

  it('the overview holds the latest record of each device, paged and sorted', async () => {
    const devices = [await device(), await device(), await device()];
    const cpus = [50, 10, 90];
    await postMetrics(
      'admin',
      devices.flatMap((d, i) => [
        { device_id: d.id, cpu: 99, memory: 1, ts: at(1) },
        { device_id: d.id, cpu: cpus[i], memory: 100 - (cpus[i] ?? 0), ts: at(5 + i) },
      ]),
    );
    const overview = await ctx.as('viewer', { url: '/metrics?sort=cpu:asc' });
    expect(overview.statusCode, overview.body).toBe(200);
    expect(overview.json().meta).toEqual({
      current_page: 1,
      limit: 10,
      total_pages: 1,
      total_count: 3,
    });
    expect(overview.json().data.map((row: { cpu: number }) => row.cpu)).toEqual([10, 50, 90]);
    const byTime = await ctx.as('viewer', { url: '/metrics?limit=2' });
    expect(byTime.json().data.map((row: { device_id: string }) => row.device_id)).toEqual([
      devices[2]?.id,
      devices[1]?.id,
    ]);
    const second = await ctx.as('viewer', { url: '/metrics?sort=memory:desc&limit=2&page=2' });
    expect(second.json().data.map((row: { cpu: number }) => row.cpu)).toEqual([90]);
    for (const bad of ['cpu', 'disk:asc', 'cpu:up']) {
      const response = await ctx.as('viewer', { url: `/metrics?sort=${bad}` });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain('Invalid sort');
    }
    // Deleting a device removes its metrics from the overview.
    await ctx.as('admin', { method: 'DELETE', url: `/devices/${devices[0]?.id}` });
    expect((await ctx.as('viewer', { url: '/metrics' })).json().meta.total_count).toBe(2);
  });
});
