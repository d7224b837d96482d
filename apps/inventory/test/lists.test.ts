import { sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyDatabase } from '../src/db/schema.js';
import { create, startTestApp, statementCountingApp, type TestContext } from './helpers.js';
import { withoutCheck } from './older-release.js';

interface Device {
  id: string;
  hostname: string;
  vendor: string;
  status: string;
  ip: string;
}

const VENDORS = ['Cisco', 'Juniper', 'Arista'];
const DEVICE_COUNT = 25;

let ctx: TestContext;
let devices: Device[] = [];
let siteId: string;

beforeAll(async () => {
  ctx = await startTestApp();
  siteId = (await create(ctx, 'locations', { name: 'DC1', country: 'DE' })).id;
  for (let i = 0; i < DEVICE_COUNT; i++) {
    devices.push(
      (await create(ctx, 'devices', {
        hostname: `dev-${String(i).padStart(2, '0')}`,
        ip: `10.0.0.${i + 1}`,
        vendor: VENDORS[i % VENDORS.length],
        status: i % 4 === 0 ? 'maintenance' : 'active',
        ...(i < 5 ? { location_id: siteId, last_seen: '2026-01-02T03:04:05.000Z' } : {}),
      })) as unknown as Device,
    );
  }
  devices = devices.sort((a, b) => (a.id < b.id ? -1 : 1));
});
afterAll(() => ctx?.close());

async function list(query: string) {
  const response = await ctx.as('viewer', { method: 'GET', url: `/devices${query}` });
  return { status: response.statusCode, body: response.json() };
}

describe('paging', () => {
  it('defaults to page 1 of 10 and reports the totals', async () => {
    const { status, body } = await list('');
    expect(status).toBe(200);
    expect(body.meta).toEqual({
      current_page: 1,
      limit: 10,
      total_pages: 3,
      total_count: 25,
      next_cursor: expect.any(String),
    });
    expect(body.data).toHaveLength(10);
  });

  it('serves a limit of 100 and refuses a larger one, as the document says', async () => {
    const { body } = await list('?limit=100');
    expect(body.meta).toEqual({
      current_page: 1,
      limit: 100,
      total_pages: 1,
      total_count: 25,
      next_cursor: null,
    });
    expect(body.data).toHaveLength(25);
    const refused = await list('?limit=101');
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('querystring/limit must be <= 100');
  });

  it('gives the last partial page, and an empty data array past the end with the total', async () => {
    expect((await list('?page=3')).body.data).toHaveLength(5);
    const past = await list('?page=4');
    expect(past.body).toEqual({
      meta: { current_page: 4, limit: 10, total_pages: 3, total_count: 25, next_cursor: null },
      data: [],
    });
    const nothing = await list('?vendor=Nokia');
    expect(nothing.body).toEqual({
      meta: { current_page: 1, limit: 10, total_pages: 0, total_count: 0, next_cursor: null },
      data: [],
    });
  });

  it('walks every record exactly once when paging, ties broken by id', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 7; page++) {
      const { body } = await list(`?sortby=vendor:asc&limit=4&page=${page}`);
      seen.push(...body.data.map((row: Device) => row.id));
    }
    const expected = [...devices]
      .sort((a, b) => a.vendor.localeCompare(b.vendor) || (a.id < b.id ? -1 : 1))
      .map((row) => row.id);
    expect(seen).toEqual(expected);
  });
});

describe('sorting', () => {
  it('applies repeated sortby keys in the order given', async () => {
    const { body } = await list('?sortby=status:asc&sortby=hostname:desc&limit=100');
    const expected = [...devices]
      .sort((a, b) => a.status.localeCompare(b.status) || b.hostname.localeCompare(a.hostname))
      .map((row) => row.hostname);
    expect(body.data.map((row: Device) => row.hostname)).toEqual(expected);
  });

  it("breaks ties by id in the first key's direction: a sort's reverse is its rows reversed", async () => {
    // Devices share vendors: the ties are ordered by id, ascending or descending with the sort,
    // so one (vendor, id) index serves both directions.
    const ids = (body: { data: Device[] }) => body.data.map((row) => row.id);
    const ascending = await list('?sortby=vendor:asc&limit=100');
    const descending = await list('?sortby=vendor:desc&limit=100');
    expect(ids(ascending.body).length).toBe(devices.length);
    expect(ids(descending.body)).toEqual([...ids(ascending.body)].reverse());
  });

  it('sorts by created_at on every resource', async () => {
    const { body } = await list('?sortby=created_at:desc&limit=1');
    expect(body.data[0].hostname).toBe('dev-24');
  });

  it('rejects malformed keys, unknown fields and a field given twice with 400 naming them', async () => {
    for (const [query, fragment] of [
      ['?sortby=vendor', 'vendor'],
      ['?sortby=vendor:up', 'vendor:up'],
      ['?sortby=colour:asc', 'colour'],
      ['?sortby=location_id:asc', 'location_id'],
      // A field twice was a 500 (its sort column named twice in the statement).
      ['?sortby=created_at:asc&sortby=created_at:desc', 'created_at'],
      ['?status=active&sortby=vendor:asc&sortby=vendor:desc', 'vendor'],
      ['?sortby=hostname:asc&sortby=vendor:asc&sortby=hostname:asc', 'hostname'],
    ] as const) {
      const { status, body } = await list(query);
      expect(status, query).toBe(400);
      expect(body.status).toBe('error');
      expect(body.message).toContain(fragment);
    }
  });
});

describe('filters', () => {
  it('match exactly and combine with AND, and total_count honours them', async () => {
    const { body } = await list('?vendor=Cisco&status=maintenance&limit=100');
    const expected = devices.filter((d) => d.vendor === 'Cisco' && d.status === 'maintenance');
    expect(expected.length).toBeGreaterThan(0);
    expect(body.meta.total_count).toBe(expected.length);
    expect(body.data.map((row: Device) => row.id).sort()).toEqual(expected.map((d) => d.id).sort());
  });

  it('filter typed columns: ip, hostname, uuid, timestamp', async () => {
    expect((await list('?ip=10.0.0.7')).body.data.map((d: Device) => d.hostname)).toEqual([
      'dev-06',
    ]);
    expect((await list('?hostname=dev-1')).body.meta.total_count).toBe(0);
    expect((await list(`?location_id=${siteId}`)).body.meta.total_count).toBe(5);
    expect((await list('?last_seen=2026-01-02T03:04:05Z')).body.meta.total_count).toBe(5);
  });

  it('filter integer columns with query text converted to numbers', async () => {
    await create(ctx, 'vlans', { vlan_id: 42, name: 'blue' });
    await create(ctx, 'vlans', { vlan_id: 43, name: 'green' });
    const response = await ctx.as('viewer', { method: 'GET', url: '/vlans?vlan_id=42' });
    expect(response.json().data.map((v: { name: string }) => v.name)).toEqual(['blue']);
    const bad = await ctx.as('viewer', { method: 'GET', url: '/vlans?vlan_id=forty' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('vlan_id');
  });

  it('rejects unknown filters and badly typed values with 400 naming them, never 500', async () => {
    for (const [query, message] of [
      ['?colour=red', 'Unknown query parameter: colour'],
      ['?location_id=nope', 'querystring/location_id must be a UUID'],
      ['?ip=10.0.0', 'Invalid IP address format'],
      ['?status=exploded', 'status'],
      ['?last_seen=yesterday', 'last_seen'],
      ['?page=abc', 'page'],
      ['?page=0', 'page'],
      ['?page=1.5', 'page'],
      ['?limit=0', 'limit'],
      ['?limit=ten', 'limit'],
    ]) {
      const { status, body } = await list(query as string);
      expect(status, query).toBe(400);
      expect(body.message, query).toContain(message);
    }
  });

  it('forbids a repeated parameter other than sortby and tags', async () => {
    const { status, body } = await list('?vendor=Cisco&vendor=Juniper');
    expect(status).toBe(400);
    expect(body).toEqual({
      status: 'error',
      message: 'Duplicate query parameter forbidden: vendor',
    });
    expect((await list('?page=1&page=2')).body.message).toBe(
      'Duplicate query parameter forbidden: page',
    );
    // Checked before authentication, on unknown routes too.
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/devices?limit=1&limit=2' });
    expect(anonymous.statusCode).toBe(400);
  });
});

describe('pages written by PostgreSQL', () => {
  it('are byte for byte what the serialiser writes: field order, escapes, nulls, timestamps', async () => {
    const hostile = [
      'quote " and backslash \\ end',
      'control \u0001\u001f\b\f\n\r\t chars',
      'Zürich 東京 🚀 \u2028\u2029\u007f',
      "</script><!-- & ' $1",
    ];
    const db = ctx.store.db as AnyDatabase;
    await db
      .insertInto('devices')
      .values(
        hostile.map((text, index) => ({
          id: uuidv7(),
          hostname: `json-${index}`,
          ip: `10.9.0.${index + 1}`,
          model: text,
          vendor: 'JsonVendor',
          tags: index === 0 ? [] : ['a"b', text],
          // Microseconds: the API writes milliseconds, as a Date does.
          last_seen: index === 1 ? null : new Date('2026-03-04T05:06:07.891Z'),
        })),
      )
      .execute();
    // A last_seen with microseconds, as releases before migration 031 stored it (the database
    // refuses one since migration 035).
    await withoutCheck(ctx.store, 'devices', 'devices_last_seen_to_the_millisecond', async () => {
      await db
        .updateTable('devices')
        .set({ last_seen: sql`'2026-03-04T05:06:07.891999Z'::timestamptz` })
        .where('hostname', '=', 'json-2')
        .execute();
      for (const query of [
        '?vendor=JsonVendor',
        '?vendor=JsonVendor&fields=model,id,tags,last_seen',
      ]) {
        const response = await ctx.as('viewer', { method: 'GET', url: `/devices${query}` });
        expect(response.statusCode).toBe(200);
        // No spaces, every escape as JSON.stringify writes it.
        expect(JSON.stringify(JSON.parse(response.body))).toBe(response.body);
        const page = response.json() as { data: Array<Record<string, unknown>> };
        expect(page.data).toHaveLength(hostile.length);
        for (const item of page.data) {
          const single = await ctx.as('viewer', { method: 'GET', url: `/devices/${item.id}` });
          const record = single.json() as Record<string, unknown>;
          if (query.includes('fields')) {
            expect(Object.keys(item)).toEqual(['model', 'id', 'tags', 'last_seen']);
            expect(item).toEqual({
              model: record.model,
              id: record.id,
              tags: record.tags,
              last_seen: record.last_seen,
            });
          } else {
            expect(item).toEqual(record);
            // The serialiser's order: the single read is written by it.
            expect(Object.keys(item)).toEqual(Object.keys(record));
          }
        }
        expect(page.data.map((item) => item.model)).toEqual(hostile);
        expect(page.data.map((item) => item.last_seen)).toEqual([
          '2026-03-04T05:06:07.891Z',
          null,
          '2026-03-04T05:06:07.891Z',
          '2026-03-04T05:06:07.891Z',
        ]);
      }
      await db.deleteFrom('devices').where('vendor', '=', 'JsonVendor').execute();
    });
  });

  it('reach the server as one JSON text, not as rows to convert and serialise', async () => {
    const { app, takeRows } = await statementCountingApp(ctx, { listCache: false });
    try {
      for (const query of [
        '?limit=25',
        '?limit=20&sortby=hostname:desc&fields=hostname',
        '?page=2&limit=10',
      ]) {
        takeRows();
        const response = await app.inject({
          method: 'GET',
          url: `/devices${query}`,
          headers: { authorization: `Bearer ${ctx.tokens.viewer}` },
        });
        expect(response.statusCode).toBe(200);
        expect(response.json().data.length).toBeGreaterThan(1);
        // The token's user (first request only) and the page: one row each.
        expect(takeRows(), query).toBeLessThanOrEqual(2);
      }
    } finally {
      await app.close();
    }
  });
});

describe('cost', () => {
  it('runs the same number of SQL statements for a page of 1 and a page of 100', async () => {
    const counted = await statementCountingApp(ctx);
    try {
      const run = async (limit: number) => {
        counted.takeCount();
        const response = await counted.app.inject({
          method: 'GET',
          url: `/devices?limit=${limit}&sortby=vendor:desc`,
          headers: { authorization: `Bearer ${ctx.tokens.viewer}` },
        });
        expect(response.json().data.length).toBe(Math.min(limit, DEVICE_COUNT));
        return counted.takeCount();
      };
      await run(1); // reads the token's user, kept in memory from then on (user-cache.ts)
      const small = await run(1);
      const large = await run(100);
      expect(small).toBe(large);
      // The page itself (count and rows in one statement).
      expect(large).toBe(1);
    } finally {
      await counted.app.close();
    }
  });
});
