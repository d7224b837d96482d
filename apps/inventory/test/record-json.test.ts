import { type CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyDatabase } from '../src/db/schema.js';
import { RESOURCES } from '../src/resources/index.js';
import { listRows } from '../src/resources/list.js';
import { ListCache } from '../src/resources/list-cache.js';
import { RECORD_JSON, recordFieldOrder } from '../src/resources/rows.js';
import { create, startTestApp, type TestContext, unique } from './helpers.js';
import { beforeEachStatement } from './query-plans.js';

/**
 * A resource declaring `storedRecordJson` keeps its record's JSON in a generated column of the
 * row (migration 027), and a list page of whole records copies that text instead of writing it.
 * These tests pin that the kept text is the record as the API writes it, byte for byte, after
 * every kind of write; that the page statement reads it; and that nothing else sees the column.
 */

let ctx: TestContext;
let db: AnyDatabase;
const devices = RESOURCES.find((definition) => definition.name === 'devices');
if (!devices) throw new Error('no devices resource');

beforeAll(async () => {
  ctx = await startTestApp();
  db = ctx.store.db as AnyDatabase;
});
afterAll(() => ctx?.close());

async function keptJson(id: string): Promise<string | null> {
  const result = await sql<{ json: string | null }>`
    SELECT ${sql.ref(RECORD_JSON)} AS json FROM devices WHERE id = ${id}`.execute(db);
  return result.rows[0]?.json ?? null;
}

/** The record as `GET /devices/{id}` writes it (the route's schema serialiser), as text. */
async function served(id: string): Promise<string> {
  const response = await ctx.as('viewer', { method: 'GET', url: `/devices/${id}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.body;
}

async function expectKeptAsServed(ids: readonly string[]) {
  for (const id of ids) expect(await keptJson(id)).toBe(await served(id));
}

describe('the record JSON kept in the row', () => {
  it('exists exactly for the resources that declare it, with their fields in the API order', async () => {
    const generated = await sql<{ table_name: string }>`
      SELECT c.relname AS table_name FROM pg_attribute AS a JOIN pg_class AS c ON c.oid = a.attrelid
      WHERE a.attname = ${RECORD_JSON} AND a.attgenerated = 's' AND NOT a.attisdropped
        AND c.relkind = 'r'`.execute(db);
    const declared = RESOURCES.filter((definition) => definition.storedRecordJson);
    expect(generated.rows.map((row) => row.table_name).sort()).toEqual(
      declared.map((definition) => definition.table).sort(),
    );
    const device = await create(ctx, 'devices', { hostname: unique('order'), ip: '192.0.2.9' });
    const kept = await keptJson(device.id);
    expect(Object.keys(JSON.parse(kept ?? '{}'))).toEqual(recordFieldOrder(devices));
  });

  it('is the record as the API writes it after every kind of write', async () => {
    const location = await create(ctx, 'locations', { name: unique('site') });
    // Text a serialiser could write differently: quotes, backslashes, a control character, a
    // character outside the BMP; an IPv6 address; tags; null and non-null timestamps.
    const device = await create(ctx, 'devices', {
      hostname: unique('kept'),
      ip: '2001:db8::7',
      vendor: 'Ven "dor" \\ ü',
      model: 'tab\there 𝄞',
      location_id: location.id,
      last_seen: '2026-01-02T03:04:05.678Z',
      tags: ['prod', 'dc1'],
    });
    await expectKeptAsServed([device.id]);

    const patched = await ctx.as('admin', {
      method: 'PATCH',
      url: `/devices/${device.id}`,
      payload: { status: 'maintenance', last_seen: null, os: 'línea\nnueva' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    await expectKeptAsServed([device.id]);

    const replaced = await ctx.as('admin', {
      method: 'PUT',
      url: `/devices/${device.id}`,
      payload: { hostname: unique('replaced'), ip: '198.51.100.4', tags: ['lab'] },
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    await expectKeptAsServed([device.id]);

    const bulk = await ctx.as('admin', {
      method: 'POST',
      url: '/devices',
      payload: [
        { hostname: unique('bulk'), ip: '192.0.2.20', location_id: location.id },
        { hostname: unique('bulk'), ip: '192.0.2.21', serial_number: 'SN-"1"' },
      ],
    });
    expect(bulk.statusCode, bulk.body).toBe(201);
    const bulkIds = bulk.json<{ id: string }[]>().map((row) => row.id);
    await expectKeptAsServed(bulkIds);

    const batch = await ctx.as('admin', {
      method: 'PATCH',
      url: '/devices',
      payload: bulkIds.map((id, index) => ({ id, rack_position: `R${index}`, role: 'edge' })),
    });
    expect(batch.statusCode, batch.body).toBe(200);
    await expectKeptAsServed(bulkIds);

    const imported = await ctx.as('admin', {
      method: 'POST',
      url: '/devices',
      headers: { 'content-type': 'text/csv' },
      payload: `hostname,ip,vendor\r\n${unique('csv')},192.0.2.30,"Quoted, ""CSV"""\r\n`,
    });
    expect(imported.statusCode, imported.body).toBe(201);
    await expectKeptAsServed(imported.json<{ id: string }[]>().map((row) => row.id));

    // A foreign key's ON DELETE SET NULL changes the rows without any statement of the API's.
    const removed = await ctx.as('admin', { method: 'DELETE', url: `/locations/${location.id}` });
    expect(removed.statusCode, removed.body).toBe(204);
    await expectKeptAsServed([device.id, ...bulkIds]);
    expect(JSON.parse((await keptJson(bulkIds[0] as string)) ?? '{}').location_id).toBeNull();

    // A write that fires no triggers (a repair, a bulk load) still keeps it: it is a generated
    // column, not a trigger's work.
    await sql`ALTER TABLE devices DISABLE TRIGGER USER`.execute(db);
    try {
      await sql`UPDATE devices SET model = 'untriggered' WHERE id = ${device.id}`.execute(db);
    } finally {
      await sql`ALTER TABLE devices ENABLE TRIGGER USER`.execute(db);
    }
    expect(JSON.parse((await keptJson(device.id)) ?? '{}').model).toBe('untriggered');
    await expectKeptAsServed([device.id]);
  });

  it('is what a page of whole records copies, and a page of some fields is written as before', async () => {
    const statements: string[] = [];
    const recording = beforeEachStatement(db, async (_target, query: CompiledQuery) => {
      statements.push(query.sql);
    });
    const request = { page: 1, limit: 5, sort: [], conditions: [] };
    const whole = await listRows(recording, new ListCache(false), devices, {
      ...request,
      json: recordFieldOrder(devices),
    });
    const page = statements.join('\n');
    expect(page).toContain(RECORD_JSON);
    expect(page).not.toContain('row_to_json');
    const first = JSON.parse(whole.json ?? '[]')[0] as { id: string };
    expect(JSON.stringify(first)).toBe(await served(first.id));

    statements.length = 0;
    const some = await listRows(recording, new ListCache(false), devices, {
      ...request,
      columns: ['hostname', 'vendor'],
      json: ['hostname', 'vendor'],
    });
    expect(statements.join('\n')).toContain('row_to_json');
    expect(statements.join('\n')).not.toContain(RECORD_JSON);
    expect(Object.keys(JSON.parse(some.json ?? '[]')[0])).toEqual(['hostname', 'vendor']);
  });

  it('stays out of the history, the API and the export', async () => {
    const device = await create(ctx, 'devices', { hostname: unique('hist'), ip: '192.0.2.40' });
    expect(Object.keys(device)).not.toContain(RECORD_JSON);
    await ctx.as('admin', {
      method: 'PATCH',
      url: `/devices/${device.id}`,
      payload: { vendor: 'Juniper' },
    });
    const history = await sql<{ prechange: unknown; postchange: unknown; changes: unknown }>`
      SELECT prechange, postchange, changes FROM audit_logs
      WHERE resource_type = 'devices' AND resource_id = ${device.id}`.execute(db);
    expect(history.rows).toHaveLength(2);
    expect(JSON.stringify(history.rows)).not.toContain(RECORD_JSON);
    // A later migration reinstalling the history's triggers builds them from the columns.
    const snapshot = await sql<{ text: string }>`
      SELECT audit_snapshot_sql('devices', '{}', 'n') || audit_changes_sql('devices', '{}', 'b', 'a', 'o', 'n') AS text`.execute(
      db,
    );
    expect(snapshot.rows[0]?.text).not.toContain(RECORD_JSON);
    const csv = await ctx.as('viewer', { method: 'GET', url: `/devices?format=csv&limit=1` });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.body).not.toContain(RECORD_JSON);
  });

  it('refuses columns whose JSON text could depend on a setting, and unknown fields', async () => {
    const refusals: string[] = [];
    for (const fields of [
      ['id', 'payload'],
      ['id', 'ratio'],
      ['id', 'day'],
      ['id', 'no_such_column'],
      ['id', 'id); DROP TABLE devices; --'],
      [],
    ]) {
      try {
        await db.transaction().execute(async (trx) => {
          await sql`CREATE TEMP TABLE hostile_json (id uuid, payload jsonb, ratio float8, day date)`.execute(
            trx,
          );
          await sql`SELECT install_record_json('hostile_json', ${fields}::text[])`.execute(trx);
        });
        refusals.push(`accepted ${fields.join(',')}`);
      } catch (error) {
        refusals.push(String((error as Error).message).split(':')[0] ?? '');
      }
    }
    expect(refusals).toEqual(Array(6).fill('install_record_json'));
    const devicesLeft = await sql<{ n: number }>`SELECT count(*)::int AS n FROM devices`.execute(
      db,
    );
    expect(devicesLeft.rows[0]?.n).toBeGreaterThan(0);
  });
});
