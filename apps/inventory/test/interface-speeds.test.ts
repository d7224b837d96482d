import { readFile } from 'node:fs/promises';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { auditRowsOf, create, unique, useTestApp } from './helpers.js';
import { withoutCheck } from './older-release.js';

/**
 * An interface's speed and speed_mbps are one value in two forms (ColumnDefinition.formOf): a
 * write that gives either sets both, so no write leaves them disagreeing. Before, clearing speed
 * left the old speed_mbps (still found by `?speed_mbps=`), a speed_mbps written alone left the
 * old speed, and a speed written with a different speed_mbps stored both.
 */
const ctx = useTestApp();

async function anInterface(fields: Record<string, unknown> = {}) {
  const device = await create(ctx, 'devices', { hostname: unique('speed'), ip: '192.0.2.1' });
  return create(ctx, 'interfaces', { device_id: device.id, name: 'eth0', ...fields });
}

const patch = (id: string, payload: Record<string, unknown>) =>
  ctx.as('admin', { method: 'PATCH', url: `/interfaces/${id}`, payload });

const speeds = (body: Record<string, unknown>) => [body.speed, body.speed_mbps];

describe('speed and speed_mbps never disagree', () => {
  it('through PATCH: either sets both, null clears both', async () => {
    const created = await anInterface({ speed: '100Gbps' });
    expect(speeds(created)).toEqual(['100Gbps', 100000]);
    expect(speeds((await patch(created.id, { speed: '10Gbps' })).json())).toEqual([
      '10Gbps',
      10000,
    ]);
    expect(speeds((await patch(created.id, { speed: null })).json())).toEqual([null, null]);
    const found = await ctx.as('admin', {
      method: 'GET',
      url: `/interfaces?device_id=${created.device_id}&speed_mbps=10000`,
    });
    expect(found.json().meta.total_count).toBe(0);
    expect(speeds((await patch(created.id, { speed_mbps: 2500 })).json())).toEqual([
      '2.5Gbps',
      2500,
    ]);
    expect(speeds((await patch(created.id, { speed_mbps: 100 })).json())).toEqual(['0.1Gbps', 100]);
    expect(speeds((await patch(created.id, { speed_mbps: null })).json())).toEqual([null, null]);
    // Both, alike: stored; a null beside a value is filled from it.
    expect(speeds((await patch(created.id, { speed: '1Gbps', speed_mbps: 1000 })).json())).toEqual([
      '1Gbps',
      1000,
    ]);
    expect(speeds((await patch(created.id, { speed: null, speed_mbps: 40000 })).json())).toEqual([
      '40Gbps',
      40000,
    ]);
  });

  it('two values that disagree are refused, naming both', async () => {
    const created = await anInterface({ speed: '1Gbps' });
    const refused = await patch(created.id, { speed: '10Gbps', speed_mbps: 1000 });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().message).toBe(
      'speed_mbps: 1000 is not speed 10Gbps (10000): give one of them, or both alike',
    );
    const onCreate = await ctx.as('admin', {
      method: 'POST',
      url: '/interfaces',
      payload: { device_id: created.device_id, name: 'eth9', speed: '1Gbps', speed_mbps: 10 },
    });
    expect(onCreate.statusCode, onCreate.body).toBe(400);
    const read = await ctx.as('admin', { method: 'GET', url: `/interfaces/${created.id}` });
    expect(speeds(read.json())).toEqual(['1Gbps', 1000]);
  });

  it('through PUT, bulk create and batch PATCH', async () => {
    const created = await anInterface({ speed: '100Gbps' });
    const replaced = await ctx.as('admin', {
      method: 'PUT',
      url: `/interfaces/${created.id}`,
      payload: { device_id: created.device_id, name: 'eth0', speed_mbps: 25000 },
    });
    expect(speeds(replaced.json())).toEqual(['25Gbps', 25000]);
    const bulk = await ctx.as('admin', {
      method: 'POST',
      url: '/interfaces',
      payload: [
        { device_id: created.device_id, name: 'eth1', speed_mbps: 1000 },
        { device_id: created.device_id, name: 'eth2', speed: '2.5Gbps' },
      ],
    });
    expect(bulk.statusCode, bulk.body).toBe(201);
    const [one, two] = bulk.json();
    expect(speeds(one)).toEqual(['1Gbps', 1000]);
    expect(speeds(two)).toEqual(['2.5Gbps', 2500]);
    const batch = await ctx.as('admin', {
      method: 'PATCH',
      url: '/interfaces',
      payload: [
        { id: one.id, speed: null },
        { id: two.id, speed_mbps: 400000 },
      ],
    });
    expect(batch.statusCode, batch.body).toBe(200);
    for (const [id, expected] of [
      [one.id, [null, null]],
      [two.id, ['400Gbps', 400000]],
    ] as const) {
      const read = await ctx.as('admin', { method: 'GET', url: `/interfaces/${id}` });
      expect(speeds(read.json())).toEqual(expected);
    }
  });

  it('a bulk create, CSV import or batch PATCH item that disagrees is named (its index or row), nothing written', async () => {
    const created = await anInterface({ speed: '1Gbps' });
    const bulk = await ctx.as('admin', {
      method: 'POST',
      url: '/interfaces',
      payload: [
        { device_id: created.device_id, name: 'eth3', speed: '1Gbps' },
        { device_id: created.device_id, name: 'eth4', speed: '10Gbps', speed_mbps: 5 },
      ],
    });
    expect(bulk.statusCode, bulk.body).toBe(400);
    expect(bulk.json().message).toBe(
      'Item 1 (speed_mbps): 5 is not speed 10Gbps (10000): give one of them, or both alike',
    );
    const csv = await ctx.as('admin', {
      method: 'POST',
      url: '/interfaces',
      headers: { 'content-type': 'text/csv' },
      payload: `device_id,name,speed,speed_mbps\n${created.device_id},eth5,1Gbps,\n${created.device_id},eth6,10Gbps,5\n`,
    });
    expect(csv.statusCode, csv.body).toBe(400);
    expect(csv.json().message).toBe(
      'Row 3 (speed_mbps): 5 is not speed 10Gbps (10000): give one of them, or both alike',
    );
    const other = await anInterface({ speed: '1Gbps' });
    const batch = await ctx.as('admin', {
      method: 'PATCH',
      url: '/interfaces',
      payload: [
        { id: created.id, speed: '2.5Gbps' },
        { id: other.id, speed: '1Gbps', speed_mbps: 7 },
      ],
    });
    expect(batch.statusCode, batch.body).toBe(400);
    expect(batch.json().message).toBe(
      'Item 1 (speed_mbps): 7 is not speed 1Gbps (1000): give one of them, or both alike',
    );
    const unchanged = await ctx.as('admin', { method: 'GET', url: `/interfaces/${created.id}` });
    expect(speeds(unchanged.json())).toEqual(['1Gbps', 1000]);
    const listed = await ctx.as('admin', {
      method: 'GET',
      url: `/interfaces?device_id=${created.device_id}`,
    });
    expect(listed.json().meta.total_count).toBe(1);
  });

  it('the API document says so on both fields of a write', async () => {
    const document = (await ctx.app.inject({ url: '/openapi.json' })).json();
    const body =
      document.paths['/interfaces/{id}'].patch.requestBody.content['application/json'].schema;
    expect(body.properties.speed_mbps.description).toMatch(/^The value of `speed` in another form/);
    expect(body.properties.speed.description).toMatch(/^The value of `speed_mbps` in another form/);
  });

  it('a speed with more than three decimals rounds to the Mbps', async () => {
    const created = await anInterface({ speed: '2.0005Gbps' });
    expect(speeds(created)).toEqual(['2.0005Gbps', 2001]);
  });

  it('stored before in disagreement are reconciled by the migration, keeping the speed_mbps written last, with history', async () => {
    const stale = await anInterface({ speed: '100Gbps' });
    const bare = await anInterface();
    await withoutCheck(ctx.store, 'interfaces', 'interfaces_speeds_agree', async () => {
      await sql`UPDATE interfaces SET speed_mbps = 10000 WHERE id = ${stale.id}`.execute(
        ctx.store.db,
      );
      await sql`UPDATE interfaces SET speed_mbps = 2500 WHERE id = ${bare.id}`.execute(
        ctx.store.db,
      );
      const migration = await readFile(
        new URL('../src/db/migrations/034_interface_speeds_agree.sql', import.meta.url),
        'utf8',
      );
      await ctx.store.scriptTransaction((tx) => tx.exec(migration));
    });
    for (const [id, expected] of [
      [stale.id, ['10Gbps', 10000]],
      [bare.id, ['2.5Gbps', 2500]],
    ] as const) {
      const read = await ctx.as('admin', { method: 'GET', url: `/interfaces/${id}` });
      expect(speeds(read.json())).toEqual(expected);
      // The create, then the migration's change of speed.
      const rows = await auditRowsOf(ctx, id);
      expect(rows.length).toBe(2);
    }
  });
});
