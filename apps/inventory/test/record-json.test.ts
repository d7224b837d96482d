import type { InjectOptions } from 'fastify';
import { type CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import type { AnyDatabase } from '../src/db/schema.js';
import { serializerCompiler } from '../src/http/serialization.js';
import { RESOURCES } from '../src/resources/index.js';
import { listRows } from '../src/resources/list.js';
import { ListCache } from '../src/resources/list-cache.js';
import { findRecord, RECORD_JSON, recordFieldOrder } from '../src/resources/rows.js';
import { recordSchema } from '../src/resources/schemas.js';
import { create, startTestApp, type TestContext, testConfig, unique } from './helpers.js';
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

/**
 * The record as the route's schema serialiser writes it from the row's columns: what
 * `GET /devices/{id}` answered before it sent the kept text, and the reference the kept text must
 * equal.
 */
async function served(id: string): Promise<string> {
  const row = await findRecord(db, devices as NonNullable<typeof devices>, id);
  expect(row, `device ${id}`).toBeDefined();
  const serialize = serializerCompiler({
    schema: recordSchema(devices as NonNullable<typeof devices>, true),
    method: 'GET',
    url: '/devices/:id',
    httpStatus: '200',
  });
  return serialize(row);
}

/** The kept text equals the reference, and a read of the record answers exactly it. */
async function expectKeptAsServed(ids: readonly string[]) {
  for (const id of ids) {
    const kept = await keptJson(id);
    expect(kept).toBe(await served(id));
    const read = await ctx.as('viewer', { method: 'GET', url: `/devices/${id}` });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.body).toBe(kept);
  }
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
    // Text a serialiser could write differently: quotes, backslashes, a character outside the
    // BMP; an IPv6 address; tags; null and non-null timestamps.
    const device = await create(ctx, 'devices', {
      hostname: unique('kept'),
      ip: '2001:db8::7',
      vendor: 'Ven "dor" \\ ü',
      model: 'model 𝄞',
      location_id: location.id,
      last_seen: '2026-01-02T03:04:05.678Z',
      tags: ['prod', 'dc1'],
    });
    await expectKeptAsServed([device.id]);
    // Control characters: refused by every write now, but a row stored before that rule may
    // hold them, and its kept JSON must escape them as the serialiser does.
    await sql`UPDATE devices SET model = ${'tab\there 𝄞'}, os = ${'línea\nnueva\u0001'}
      WHERE id = ${device.id}`.execute(db);
    await expectKeptAsServed([device.id]);

    const patched = await ctx.as('admin', {
      method: 'PATCH',
      url: `/devices/${device.id}`,
      payload: { status: 'maintenance', last_seen: null, os_version: 'ü "1"' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    await expectKeptAsServed([device.id]);
    expect(patched.body).toBe(await keptJson(device.id));

    const replaced = await ctx.as('admin', {
      method: 'PUT',
      url: `/devices/${device.id}`,
      payload: { hostname: unique('replaced'), ip: '198.51.100.4', tags: ['lab'] },
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    await expectKeptAsServed([device.id]);
    expect(replaced.body).toBe(await keptJson(device.id));

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

  it('is the answer to a read, a create and a change of one record, which read no other column', async () => {
    const statements: string[] = [];
    const recording = beforeEachStatement(db, async (_target, query: CompiledQuery) => {
      statements.push(query.sql);
    });
    const app = await buildApp(testConfig(), {
      store: { ...ctx.store, db: recording as typeof ctx.store.db },
    });
    try {
      // Until its listening connection is up the app reads each request's user (user-cache.ts).
      for (let waited = 0; !app.userCache.enabled && waited < 10_000; waited += 20) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const as = (role: 'admin' | 'viewer', request: Omit<InjectOptions, 'headers'>) =>
        app.inject({ ...request, headers: { authorization: `Bearer ${ctx.tokens[role]}` } });
      /** The statement that answered: the one naming the kept column. */
      const answering = () => {
        const found = statements.filter((text) => text.includes(RECORD_JSON));
        statements.length = 0;
        expect(found, 'one statement reads or returns the kept JSON').toHaveLength(1);
        return found[0] as string;
      };
      const expectKeptOnly = (text: string) => {
        // No other column of the record is selected or returned: the answer is the kept text.
        for (const column of recordFieldOrder(devices as NonNullable<typeof devices>)) {
          if (column === 'id') continue;
          expect(text.split(/\bRETURNING\b|\breturning\b/).at(-1)).not.toContain(`"${column}"`);
        }
      };

      statements.length = 0;
      const created = await as('admin', {
        method: 'POST',
        url: '/devices',
        payload: { hostname: unique('answer'), ip: '192.0.2.50', vendor: 'Arista' },
      });
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json<{ id: string }>().id;
      expectKeptOnly(answering());
      expect(created.body).toBe(await keptJson(id));
      expect(created.headers['content-type']).toBe('application/json; charset=utf-8');

      const read = await as('viewer', { method: 'GET', url: `/devices/${id}` });
      expect(read.statusCode, read.body).toBe(200);
      const readStatement = answering();
      expect(readStatement).not.toMatch(/"hostname"|"vendor"|"created_at"/);
      expect(read.body).toBe(await keptJson(id));
      expect(read.body).toBe(await served(id));
      expect(read.headers.etag).toMatch(/^"\d+"$/);
      expect(read.headers['content-type']).toBe('application/json; charset=utf-8');

      const notModified = await app.inject({
        method: 'GET',
        url: `/devices/${id}`,
        headers: {
          authorization: `Bearer ${ctx.tokens.viewer}`,
          'if-none-match': read.headers.etag as string,
        },
      });
      expect(notModified.statusCode).toBe(304);
      expect(notModified.body).toBe('');
      statements.length = 0;

      const changed = await as('admin', {
        method: 'PATCH',
        url: `/devices/${id}`,
        payload: { vendor: 'Juniper' },
      });
      expect(changed.statusCode, changed.body).toBe(200);
      expectKeptOnly(answering());
      expect(changed.body).toBe(await keptJson(id));
      expect(changed.json<{ vendor: string }>().vendor).toBe('Juniper');
      expect(changed.headers.etag).not.toBe(read.headers.etag);

      // A selection of fields is written from the columns, as before.
      const some = await as('viewer', {
        method: 'GET',
        url: `/devices/${id}?fields=hostname,vendor`,
      });
      expect(some.statusCode, some.body).toBe(200);
      expect(some.body).toBe(
        JSON.stringify({
          hostname: created.json<{ hostname: string }>().hostname,
          vendor: 'Juniper',
        }),
      );
      expect(statements.join('\n')).not.toContain(RECORD_JSON);
    } finally {
      await app.close();
    }
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
