import { readFile } from 'node:fs/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { toMillisecondsUp } from '../src/resources/definition.js';
import { create, deviceWithInterfaces, startTestApp, type TestContext, unique } from './helpers.js';
import { withoutCheck } from './older-release.js';

/**
 * Change history: every change of a record, whichever way it was made (single, batch,
 * bulk, CSV, a foreign key's action), is an audit row with the record before and after and the
 * fields changed, sharing its request's request_id; GET /{resource}/{id}/history lists them.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());
beforeEach(() => ctx.reset());

interface AuditRow {
  action: string;
  resource_type: string;
  resource_id: string;
  request_id: string;
  username: string;
  prechange: Record<string, unknown> | null;
  postchange: Record<string, unknown> | null;
  changes: Record<string, [unknown, unknown]>;
}

async function history(resource: string, id: string, query = ''): Promise<AuditRow[]> {
  const response = await ctx.as('admin', {
    method: 'GET',
    url: `/${resource}/${id}/history${query}`,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

async function byRequest(requestId: string): Promise<AuditRow[]> {
  const response = await ctx.as('admin', {
    method: 'GET',
    url: `/audit-logs?request_id=${encodeURIComponent(requestId)}&limit=100`,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

describe('change history', () => {
  it('a create, a PATCH, a PUT and a DELETE: snapshots and [old, new] changes, newest first', async () => {
    const device = await create(ctx, 'devices', {
      hostname: unique('hist'),
      ip: '192.0.2.10',
      vendor: 'Cisco',
    });
    const patched = await ctx.as('admin', {
      method: 'PATCH',
      url: `/devices/${device.id}`,
      payload: { vendor: 'Juniper', status: 'maintenance' },
    });
    expect(patched.statusCode).toBe(200);
    const put = await ctx.as('admin', {
      method: 'PUT',
      url: `/devices/${device.id}`,
      payload: { hostname: device.hostname, ip: '192.0.2.11' },
    });
    expect(put.statusCode).toBe(200);
    const beforeDelete = put.json();
    expect(
      (await ctx.as('admin', { method: 'DELETE', url: `/devices/${device.id}` })).statusCode,
    ).toBe(204);

    const rows = await history('devices', device.id);
    expect(rows.map((row) => row.action)).toEqual(['delete', 'replace', 'update', 'create']);
    const [deleted, replaced, updated, created] = rows;

    expect(created?.prechange).toBeNull();
    expect(created?.postchange).toEqual(device);
    expect(created?.changes).toMatchObject({
      hostname: [null, device.hostname],
      vendor: [null, 'Cisco'],
    });

    expect(updated?.prechange).toEqual(device);
    expect(updated?.postchange).toEqual(patched.json());
    // Only the fields that changed; updated_at is in the snapshots, not in changes.
    expect(updated?.changes).toEqual({
      vendor: ['Cisco', 'Juniper'],
      status: ['active', 'maintenance'],
    });

    expect(replaced?.changes).toEqual({
      ip: ['192.0.2.10', '192.0.2.11'],
      vendor: ['Juniper', null],
      status: ['maintenance', 'active'],
    });
    expect(deleted?.prechange).toEqual(beforeDelete);
    expect(deleted?.postchange).toBeNull();
    expect(deleted?.changes).toMatchObject({ hostname: [device.hostname, null] });
    for (const row of rows) {
      expect(row).toMatchObject({
        resource_type: 'devices',
        resource_id: device.id,
        username: 'admin',
      });
    }
  });

  it('a location delete: its devices set to location_id null are update rows of the same request', async () => {
    const location = await create(ctx, 'locations', { name: unique('site') });
    const devices = [];
    for (let i = 0; i < 3; i++) {
      devices.push(
        await create(ctx, 'devices', {
          hostname: unique('at-site'),
          ip: '192.0.2.20',
          location_id: location.id,
        }),
      );
    }
    const response = await ctx.as('admin', { method: 'DELETE', url: `/locations/${location.id}` });
    expect(response.statusCode).toBe(204);

    const [deletion] = await history('locations', location.id);
    expect(deletion?.action).toBe('delete');
    const rows = await byRequest(deletion?.request_id ?? '');
    expect(rows).toHaveLength(4);
    for (const device of devices) {
      const row = rows.find((candidate) => candidate.resource_id === device.id);
      expect(row).toMatchObject({
        action: 'update',
        resource_type: 'devices',
        username: 'admin',
        changes: { location_id: [location.id, null] },
      });
      expect(row?.prechange).toEqual(device);
      expect(row?.postchange).toEqual({ ...device, location_id: null });
      expect((await history('devices', device.id)).map((entry) => entry.action)).toEqual([
        'update',
        'create',
      ]);
    }
  });

  it('a device delete: its interfaces and their links are delete rows of the same request', async () => {
    const { device, interfaces } = await deviceWithInterfaces(ctx, 2);
    const other = await deviceWithInterfaces(ctx, 1);
    const link = await create(ctx, 'links', {
      a_interface_id: interfaces[0]?.id,
      b_interface_id: other.interfaces[0]?.id,
    });
    const response = await ctx.as('admin', {
      method: 'DELETE',
      url: '/devices',
      payload: [device.id],
    });
    expect(response.statusCode).toBe(200);
    const [deletion] = await history('devices', device.id);
    const rows = await byRequest(deletion?.request_id ?? '');
    expect(
      rows.map((row) => `${row.action} ${row.resource_type} ${row.resource_id}`).sort(),
    ).toEqual(
      [
        `delete devices ${device.id}`,
        ...interfaces.map((item) => `delete interfaces ${item.id}`),
        `delete links ${link.id}`,
      ].sort(),
    );
    expect(rows.find((row) => row.resource_id === link.id)?.prechange).toEqual(link);
  });

  it('batch PATCH, bulk create and CSV import: one row per record, one request_id per request', async () => {
    const bulk = await ctx.as('admin', {
      method: 'POST',
      url: '/vlans',
      payload: [
        { vlan_id: 301, name: 'a' },
        { vlan_id: 302, name: 'b' },
      ],
    });
    expect(bulk.statusCode).toBe(201);
    const vlans = bulk.json() as Array<{ id: string }>;
    const [first] = await history('vlans', vlans[0]?.id ?? '');
    const created = await byRequest(first?.request_id ?? '');
    expect(created.map((row) => row.resource_id).sort()).toEqual(vlans.map((v) => v.id).sort());
    expect(created.every((row) => row.action === 'create')).toBe(true);

    const batch = await ctx.as('admin', {
      method: 'PATCH',
      url: '/vlans',
      payload: vlans.map((vlan, index) => ({ id: vlan.id, status: `s${index}`, add_tags: ['x'] })),
    });
    expect(batch.statusCode, batch.body).toBe(200);
    const [latest] = await history('vlans', vlans[1]?.id ?? '');
    expect(latest).toMatchObject({
      action: 'update',
      changes: { status: [null, 's1'], tags: [[], ['x']] },
    });
    expect(await byRequest(latest?.request_id ?? '')).toHaveLength(2);

    const csv = await ctx.as('admin', {
      method: 'POST',
      url: '/vlans',
      headers: { 'content-type': 'text/csv' },
      payload: 'vlan_id,name\n401,csv-a\n402,csv-b\n',
    });
    expect(csv.statusCode, csv.body).toBe(201);
    const imported = csv.json() as Array<{ id: string }>;
    const [row] = await history('vlans', imported[0]?.id ?? '');
    expect(row?.action).toBe('create');
    expect(await byRequest(row?.request_id ?? '')).toHaveLength(2);
  });

  it('a failed batch writes no audit row; a no-op leaves changes empty but is recorded', async () => {
    const vlan = await create(ctx, 'vlans', { vlan_id: 500, name: 'v' });
    const failing = await ctx.as('admin', {
      method: 'PATCH',
      url: '/vlans',
      payload: [
        { id: vlan.id, name: 'changed' },
        { id: '01900000-0000-7000-8000-000000000000', name: 'x' },
      ],
    });
    expect(failing.statusCode).toBe(404);
    expect((await history('vlans', vlan.id)).map((row) => row.action)).toEqual(['create']);
    await ctx.as('admin', { method: 'PATCH', url: `/vlans/${vlan.id}`, payload: { name: 'v' } });
    const [noop] = await history('vlans', vlan.id);
    expect(noop).toMatchObject({ action: 'update', changes: {} });
  });

  it('history is paged like every list, admin only, and empty for an id never written', async () => {
    const vlan = await create(ctx, 'vlans', { vlan_id: 600, name: 'p0' });
    for (let i = 1; i <= 4; i++) {
      await ctx.as('admin', {
        method: 'PATCH',
        url: `/vlans/${vlan.id}`,
        payload: { name: `p${i}` },
      });
    }
    const page = await ctx.as('admin', {
      method: 'GET',
      url: `/vlans/${vlan.id.toUpperCase()}/history?limit=2&page=2`,
    });
    expect(page.statusCode).toBe(200);
    expect(page.json().meta).toMatchObject({ total_count: 5, limit: 2, current_page: 2 });
    expect(page.json().data.map((row: AuditRow) => row.changes.name?.[1])).toEqual(['p2', 'p1']);
    for (const role of ['editor', 'viewer'] as const) {
      const refused = await ctx.as(role, { method: 'GET', url: `/vlans/${vlan.id}/history` });
      expect(refused.statusCode).toBe(403);
    }
    expect(await history('vlans', '01900000-0000-7000-8000-000000000000')).toEqual([]);
  });

  it('changes made outside the API (no actor) are not audited', async () => {
    await ctx.store.db
      .insertInto('vlans' as never)
      .values({ id: '01900000-0000-7000-8000-0000000000aa', vlan_id: 700, name: 'sql' } as never)
      .execute();
    expect(await history('vlans', '01900000-0000-7000-8000-0000000000aa')).toEqual([]);
  });
});

describe('accounts and API tokens in the history', () => {
  it('a user created, changed, given a new password and deleted: snapshots without the hash', async () => {
    const created = await create(ctx, 'users', {
      username: unique('hist-user'),
      email: `${unique('hist')}@example.com`,
      password: 'first-password-1',
    });
    await ctx.as('admin', {
      method: 'PUT',
      url: `/users/${created.id}`,
      payload: { role: 'editor' },
    });
    await ctx.as('admin', {
      method: 'PUT',
      url: `/users/${created.id}/password`,
      payload: { new_password: 'second-password-2' },
    });
    await ctx.as('admin', { method: 'DELETE', url: `/users/${created.id}` });
    const response = await ctx.as('admin', {
      method: 'GET',
      url: `/audit-logs?resource_type=users&resource_id=${created.id}`,
    });
    const rows = response.json().data as AuditRow[];
    expect(rows.map((row) => row.action)).toEqual(['delete', 'update', 'update', 'create']);
    const [, password, role, creation] = rows;
    expect(creation?.postchange).toEqual(created);
    expect(role?.changes).toEqual({ role: ['viewer', 'editor'] });
    // The password's change is named, its hash never written.
    expect(password?.changes).toEqual({
      password_hash: ['***', '***'],
      password_changed_at: ['***', '***'],
    });
    const everything = JSON.stringify(rows);
    expect(everything).not.toContain('argon2');
    expect(everything).not.toContain('password_hash":"');
  });
});

describe('every resource is captured', () => {
  it('each table the generic mechanism declares, and the accounts, writes its history on every event', async () => {
    const { sql } = await import('kysely');
    const { RESOURCES } = await import('../src/resources/index.js');
    const tables = [...RESOURCES.map((definition) => definition.table), 'users', 'api_tokens'];
    // The triggers whose function writes history rows, by the event they fire on (tgtype bits:
    // 4 insert, 8 delete, 16 update): exactly one per table and event.
    const { rows } = await sql<{ table_name: string; event: string }>`
      SELECT c.relname AS table_name, e.event
      FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid
      CROSS JOIN (VALUES (4, 'insert'), (8, 'delete'), (16, 'update')) AS e(bit, event)
      WHERE NOT t.tgisinternal AND p.prosrc LIKE '%INSERT INTO audit_logs%' AND t.tgtype & e.bit <> 0
      `.execute(ctx.store.db);
    for (const table of tables) {
      expect(
        rows
          .filter((row) => row.table_name === table)
          .map((row) => row.event)
          .sort(),
        table,
      ).toEqual(['delete', 'insert', 'update']);
    }
  });
});

describe('timestamps are kept to the millisecond, the precision the API shows', () => {
  const sent = '2026-03-01T10:00:00.123456Z';
  const shown = '2026-03-01T10:00:00.123Z';

  it('every write path stores what it answers, a filter finds it, and an unchanged value is no change', async () => {
    const single = await create(ctx, 'devices', {
      hostname: unique('ms'),
      ip: '192.0.2.1',
      last_seen: sent,
    });
    expect(single.last_seen).toBe(shown);
    const bulk = await ctx.as('admin', {
      method: 'POST',
      url: '/devices',
      payload: [
        { hostname: unique('ms'), ip: '192.0.2.2', last_seen: '2026-03-01T12:00:00.999999+02:00' },
      ],
    });
    expect(bulk.statusCode, bulk.body).toBe(201);
    expect(bulk.json()[0].last_seen).toBe(shown.replace('.123', '.999'));
    const csv = await ctx.as('admin', {
      method: 'POST',
      url: '/devices',
      headers: { 'content-type': 'text/csv' },
      payload: `hostname,ip,last_seen\n${unique('ms')},192.0.2.3,${sent}\n`,
    });
    expect(csv.statusCode, csv.body).toBe(201);
    const put = await ctx.as('admin', {
      method: 'PUT',
      url: `/devices/${bulk.json()[0].id}`,
      payload: { hostname: bulk.json()[0].hostname, ip: '192.0.2.2', last_seen: sent },
    });
    expect(put.statusCode, put.body).toBe(200);
    const batch = await ctx.as('admin', {
      method: 'PATCH',
      url: '/devices',
      payload: [{ id: csv.json()[0].id, last_seen: sent }],
    });
    expect(batch.statusCode, batch.body).toBe(200);

    // Stored as shown: the value shown finds all four, as does the value sent.
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM devices WHERE last_seen = ${shown}::timestamptz`.execute(
      ctx.store.db,
    );
    expect(rows[0]?.n).toBe(3);
    for (const value of [shown, sent]) {
      const found = await ctx.as('admin', {
        method: 'GET',
        url: `/devices?last_seen=${encodeURIComponent(value)}`,
      });
      expect(found.statusCode, found.body).toBe(200);
      expect(found.json().meta.total_count, value).toBe(3);
      const inList = await ctx.as('admin', {
        method: 'GET',
        url: `/devices?last_seen__in=2020-01-01T00:00:00.000001Z,${encodeURIComponent(value)}`,
      });
      expect(inList.json().meta.total_count, value).toBe(3);
    }

    // A bound with digits below the millisecond: lt and gte read it rounded up to the next
    // millisecond (nothing stored lies between .123 and .123456), the others truncated.
    const window = 'hostname__isw=ms-';
    for (const [lookup, value, count] of [
      ['lt', '2026-03-01T10:00:00.123456Z', 3],
      ['gte', '2026-03-01T10:00:00.123456Z', 0],
      ['gt', '2026-03-01T10:00:00.123456Z', 0],
      ['lte', '2026-03-01T10:00:00.123456Z', 3],
      ['lt', '2026-03-01T10:00:00.123Z', 0],
      ['gte', '2026-03-01T10:00:00.123000Z', 3],
      ['lt', '2026-03-01T12:00:00.123001+02:00', 3],
      ['gte', '2026-03-01T12:00:00.122001+02:00', 3],
      ['gt', '2026-03-01T10:00:00.122999Z', 3],
    ] as const) {
      const found = await ctx.as('admin', {
        method: 'GET',
        url: `/devices?${window}&last_seen__${lookup}=${encodeURIComponent(value)}`,
      });
      expect(found.statusCode, found.body).toBe(200);
      expect(found.json().meta.total_count, `${lookup} ${value}`).toBe(count);
    }

    // A PATCH with the value shown changes nothing, and its history says so.
    const patched = await ctx.as('admin', {
      method: 'PATCH',
      url: `/devices/${single.id}`,
      payload: { last_seen: shown },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const [latest] = await history('devices', single.id);
    expect(latest).toMatchObject({ action: 'update', changes: {} });
  });

  it('a bound rounded up carries into the second, day and year, whatever its offset', () => {
    expect(toMillisecondsUp('2026-12-31T23:59:59.999001Z')).toBe('2027-01-01T00:00:00.000Z');
    expect(toMillisecondsUp('2026-03-01 12:00:00.123001+0200')).toBe('2026-03-01T10:00:00.124Z');
    expect(toMillisecondsUp('2026-03-01t10:00:00.123000z')).toBe('2026-03-01t10:00:00.123z');
    expect(toMillisecondsUp('2026-03-01T10:00:00Z')).toBe('2026-03-01T10:00:00Z');
  });

  it('the migration truncates values stored before, without writing history', async () => {
    const device = await create(ctx, 'devices', { hostname: unique('ms'), ip: '192.0.2.4' });
    await withoutCheck(ctx.store, 'devices', 'devices_last_seen_to_the_millisecond', async () => {
      await sql`UPDATE devices SET last_seen = ${sent}::timestamptz WHERE id = ${device.id}`.execute(
        ctx.store.db,
      );
      const untouched = await create(ctx, 'devices', {
        hostname: unique('ms'),
        ip: '192.0.2.5',
        last_seen: shown,
      });
      const etagOf = async (id: string) =>
        (await ctx.as('admin', { method: 'GET', url: `/devices/${id}` })).headers.etag;
      const etags = [await etagOf(device.id), await etagOf(untouched.id)];
      const migration = await readFile(
        new URL('../src/db/migrations/031_timestamps_to_the_millisecond.sql', import.meta.url),
        'utf8',
      );
      await ctx.store.scriptTransaction((tx) => tx.exec(migration));
      const { rows } = await sql<{ exact: boolean }>`
        SELECT last_seen = ${shown}::timestamptz AS exact FROM devices WHERE id = ${device.id}`.execute(
        ctx.store.db,
      );
      expect(rows[0]?.exact).toBe(true);
      expect((await history('devices', device.id)).map((row) => row.action)).toEqual(['create']);
      // A rewritten row is a new row version, so its ETag changes (a client's If-Match with the
      // old one gets 412, as the README's upgrade notes say); a row left alone keeps its own.
      expect(await etagOf(device.id)).not.toBe(etags[0]);
      expect(await etagOf(untouched.id)).toBe(etags[1]);
    });
  });
});
