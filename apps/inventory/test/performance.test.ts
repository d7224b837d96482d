import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import type { AnyDatabase } from '../src/db/schema.js';
import {
  create,
  startTestApp,
  statementCountingApp,
  type TestContext,
  testConfig,
} from './helpers.js';

/**
 * What keeps lists and batches fast must not change what they answer: totals stay
 * exact through writes, cascades and other instances (src/resources/list-cache.ts), deep pages
 * hold the rows a full sort gives, even when they start from a recorded position, a batch PATCH
 * of any size and mix of fields applies every item, and both cost a fixed number of SQL
 * statements whatever their size.
 */

const VENDORS = ['Cisco', 'Juniper', 'Arista', null] as const;
const STATUSES = ['active', 'offline', 'maintenance'] as const;
/** Enough rows for pages past the offset where the ids-first page query takes over (1000). */
const DEVICE_COUNT = 1250;

interface Device {
  id: string;
  hostname: string;
  vendor: string | null;
  status: string;
}

let ctx: TestContext;
let devices: Device[];

beforeAll(async () => {
  ctx = await startTestApp();
  // Through the data layer: 1250 creates through HTTP would make this file slow for nothing.
  devices = Array.from({ length: DEVICE_COUNT }, (_, index) => ({
    id: uuidv7(),
    // Hostnames out of id order, so that sorting by them is not sorting by id.
    hostname: `host-${String((index * 7919) % DEVICE_COUNT).padStart(5, '0')}`,
    ip: '192.0.2.10',
    vendor: VENDORS[index % VENDORS.length] ?? null,
    status: STATUSES[index % STATUSES.length] ?? 'active',
  }));
  const db = ctx.store.db as AnyDatabase;
  for (let start = 0; start < devices.length; start += 500) {
    await db
      .insertInto('devices')
      .values(devices.slice(start, start + 500))
      .execute();
  }
});
afterAll(() => ctx?.close());

async function list(path: string, context = ctx) {
  const response = await context.as('viewer', { method: 'GET', url: path });
  expect(response.statusCode).toBe(200);
  return response.json<{ meta: { total_count: number }; data: Device[] }>();
}

const byId = (a: Device, b: Device) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

describe('deep pages', () => {
  it('hold the rows a full sort gives, on the ids-first path past offset 1000', async () => {
    const sorted = [...devices].sort((a, b) =>
      a.hostname === b.hostname ? byId(a, b) : a.hostname < b.hostname ? 1 : -1,
    );
    for (const page of [1, 11, 13]) {
      const body = await list(`/devices?sortby=hostname:desc&limit=100&page=${page}`);
      expect(body.meta.total_count).toBe(DEVICE_COUNT);
      expect(body.data.map((device) => device.id)).toEqual(
        sorted.slice((page - 1) * 100, page * 100).map((device) => device.id),
      );
    }
  });

  it('in id order restart from a row an earlier page found, unless the table changed since', async () => {
    const db = ctx.store.db as AnyDatabase;
    const ids = async () =>
      (await list('/devices?limit=100&page=12')).data.map((device) => device.id);
    const expected = () =>
      [...devices]
        .sort(byId)
        .slice(1100, 1200)
        .map((device) => device.id);
    await list('/devices?limit=100&page=11'); // records where page 11 starts
    expect(await ids()).toEqual(expected());
    expect(await ids()).toEqual(expected()); // from page 12's own start this time

    // A row removed before the recorded positions shifts every later page by one.
    const [removed] = [...devices].sort(byId);
    await db.deleteFrom('devices').where('id', '=', removed?.id).execute();
    devices = devices.filter((device) => device.id !== removed?.id);
    expect(await ids()).toEqual(expected());

    // So does a row added before them (the smallest possible UUIDv7).
    const early = {
      id: '00000000-0000-7000-8000-000000000001',
      hostname: 'early',
      ip: '192.0.2.9',
      vendor: null,
      status: 'active',
    };
    await db.insertInto('devices').values(early).execute();
    devices = [...devices, early];
    expect(await ids()).toEqual(expected());
  });

  it('keep filters, nulls last and the id tie-breaker', async () => {
    const byVendor = (a: Device, b: Device) => {
      if (a.vendor !== b.vendor) {
        if (a.vendor === null) return 1;
        if (b.vendor === null) return -1;
        return a.vendor < b.vendor ? -1 : 1;
      }
      return byId(a, b);
    };
    const all = [...devices].sort(byVendor);
    const deep = await list('/devices?sortby=vendor:asc&limit=100&page=11');
    expect(deep.data.map((device) => device.id)).toEqual(
      all.slice(1000, 1100).map((device) => device.id),
    );
    const active = all.filter((device) => device.status === 'active');
    const filtered = await list('/devices?status=active&sortby=vendor:asc&limit=100&page=4');
    expect(filtered.meta.total_count).toBe(active.length);
    expect(filtered.data.map((device) => device.id)).toEqual(
      active.slice(300, 400).map((device) => device.id),
    );
    const past = await list('/devices?status=active&limit=100&page=40');
    expect(past.meta.total_count).toBe(active.length);
    expect(past.data).toEqual([]);
  });
});

describe('exact totals', () => {
  it('follow creates, updates, deletes and cascades, on this instance and another', async () => {
    // A second app over the same database: its own count cache, as another instance would have.
    const other = await buildApp(testConfig(), { store: ctx.store });
    const otherCtx: TestContext = {
      ...ctx,
      app: other,
      as: (role, options) =>
        other.inject({
          ...options,
          headers: { ...options.headers, authorization: `Bearer ${ctx.tokens[role ?? 'viewer']}` },
        }),
    };
    try {
      const site = await create(ctx, 'locations', { name: 'count-site' });
      const query = `/devices?vendor=Nokia&location_id=${site.id}`;
      const total = async () => {
        const [here, there] = await Promise.all([list(query), list(query, otherCtx)]);
        expect(there.meta.total_count).toBe(here.meta.total_count);
        return here.meta.total_count;
      };
      expect(await total()).toBe(0);

      const first = await create(ctx, 'devices', {
        hostname: 'count-1',
        ip: '192.0.2.1',
        vendor: 'Nokia',
        location_id: site.id,
      });
      await create(ctx, 'devices', {
        hostname: 'count-2',
        ip: '192.0.2.2',
        vendor: 'Nokia',
        location_id: site.id,
      });
      expect(await total()).toBe(2);
      // Asked twice without a write: the same, exact answer.
      expect(await total()).toBe(2);

      const moved = await ctx.as('admin', {
        method: 'PATCH',
        url: `/devices/${first.id}`,
        payload: { vendor: 'Ciena' },
      });
      expect(moved.statusCode).toBe(200);
      expect(await total()).toBe(1);

      // Deleting the location sets location_id to null through the foreign key.
      const gone = await ctx.as('admin', { method: 'DELETE', url: `/locations/${site.id}` });
      expect(gone.statusCode).toBe(204);
      expect(await total()).toBe(0);
      expect((await list('/devices?vendor=Nokia', otherCtx)).meta.total_count).toBe(1);

      // A write the API never saw (another service, a migration) counts too.
      await (ctx.store.db as AnyDatabase)
        .deleteFrom('devices')
        .where('vendor', '=', 'Nokia')
        .execute();
      expect((await list('/devices?vendor=Nokia', otherCtx)).meta.total_count).toBe(0);
      expect((await list('/devices?vendor=Nokia')).meta.total_count).toBe(0);
    } finally {
      await other.close();
    }
  });
});

describe('GET /debug/count and the child counts', () => {
  it('stay exact through writes the API never saw, on this instance and another', async () => {
    const other = await buildApp(testConfig(), { store: ctx.store });
    const db = ctx.store.db as AnyDatabase;
    const counts = async () => {
      const answers = await Promise.all(
        [ctx.app, other].map((app) => app.inject({ method: 'GET', url: '/debug/count' })),
      );
      const [here, there] = answers.map((answer) => answer.json<{ count: number }>().count);
      expect(there).toBe(here);
      return here;
    };
    try {
      const [{ n }] = (await db
        .selectFrom('devices')
        .select((eb) => eb.fn.countAll().as('n'))
        .execute()) as [{ n: number }];
      expect(await counts()).toBe(Number(n));
      expect(await counts()).toBe(Number(n));
      const extra = { id: uuidv7(), hostname: 'debug-count', ip: '192.0.2.9' };
      await db.insertInto('devices').values(extra).execute();
      expect(await counts()).toBe(Number(n) + 1);

      const url = `/devices/${extra.id}/interfacecount`;
      const interfaces = async () =>
        (await ctx.as('viewer', { method: 'GET', url })).json<{ count: number }>().count;
      expect(await interfaces()).toBe(0);
      await db
        .insertInto('interfaces')
        .values({ id: uuidv7(), device_id: extra.id, name: 'eth0' })
        .execute();
      expect(await interfaces()).toBe(1);

      await db.deleteFrom('devices').where('id', '=', extra.id).execute();
      expect(await counts()).toBe(Number(n));
    } finally {
      await other.close();
    }
  });
});

describe('rendered pages', () => {
  it('are sent again only while their table is unchanged, whoever changes it', async () => {
    const db = ctx.store.db as AnyDatabase;
    const url = '/devices?limit=3&sortby=hostname:asc';
    const first = await ctx.as('viewer', { method: 'GET', url });
    const again = await ctx.as('viewer', { method: 'GET', url });
    expect(again.body).toBe(first.body);
    const [top] = first.json<{ data: Device[] }>().data as [Device];

    // A change the API never saw, to a field only (the total stays).
    await db
      .updateTable('devices')
      .set({ model: 'changed-behind' })
      .where('id', '=', top.id)
      .execute();
    const after = await ctx.as('viewer', { method: 'GET', url });
    expect(after.json().data[0]).toMatchObject({ id: top.id, model: 'changed-behind' });
    expect(after.json().meta).toEqual(first.json().meta);

    // A change through the API.
    const patched = await ctx.as('admin', {
      method: 'PATCH',
      url: `/devices/${top.id}`,
      payload: { model: 'changed-through-api' },
    });
    expect(patched.statusCode).toBe(200);
    const latest = await ctx.as('viewer', { method: 'GET', url });
    expect(latest.json().data[0]).toMatchObject({ model: 'changed-through-api' });
    // The same bytes as a fresh read would give: compare with another app's first answer.
    const other = await buildApp(testConfig(), { store: ctx.store });
    try {
      const fresh = await other.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${ctx.tokens.viewer}` },
      });
      expect(latest.body).toBe(fresh.body);
      expect(latest.headers['content-type']).toBe(fresh.headers['content-type']);
    } finally {
      await other.close();
    }
  });
});

describe('LIST_CACHE=off', () => {
  it('gives the same answers and keeps nothing between requests', async () => {
    // The same store: each app has its cache, and this one must not disable the shared app's.
    const uncached = await buildApp(testConfig({ listCache: false }), { store: ctx.store });
    try {
      for (const url of [
        '/devices?limit=5&sortby=hostname:desc',
        '/devices?limit=100&page=12',
        '/devices?status=active&vendor=Cisco&limit=10',
        '/metrics?sort=cpu:desc',
      ]) {
        const expected = await ctx.as('viewer', { method: 'GET', url });
        for (let round = 0; round < 2; round++) {
          const response = await uncached.inject({
            method: 'GET',
            url,
            headers: { authorization: `Bearer ${ctx.tokens.viewer}` },
          });
          expect(response.body, url).toBe(expected.body);
        }
      }
      const cache = uncached.listCache;
      expect([cache.counts.size, cache.positions.size, cache.pages.size]).toEqual([0, 0, 0]);
      // The shared app's cache is untouched.
      expect(ctx.app.listCache.pages.size).toBeGreaterThan(0);
    } finally {
      await uncached.close();
    }
  });
});

describe('the metrics overview', () => {
  it('is reused only while device_metrics_latest is unchanged, cascades included', async () => {
    const [device] = [...devices].sort(byId).slice(400, 401) as [Device];
    const post = (cpu: number) =>
      ctx.as('admin', { method: 'POST', url: '/metrics', payload: { device_id: device.id, cpu } });
    expect((await post(11)).statusCode).toBe(201);
    const overview = async () =>
      (await ctx.as('viewer', { method: 'GET', url: '/metrics?sort=cpu:desc&limit=100' })).json<{
        meta: { total_count: number };
        data: Array<{ device_id: string; cpu: number }>;
      }>();
    const before = await overview();
    expect(await overview()).toEqual(before);
    const mine = () => before.data.find((row) => row.device_id === device.id);
    expect(mine()?.cpu).toBe(11);

    expect((await post(97)).statusCode).toBe(201);
    const after = await overview();
    expect(after.data.find((row) => row.device_id === device.id)?.cpu).toBe(97);

    // The device's deletion removes its latest row through a foreign key cascade.
    await (ctx.store.db as AnyDatabase).deleteFrom('devices').where('id', '=', device.id).execute();
    devices = devices.filter((row) => row.id !== device.id);
    const gone = await overview();
    expect(gone.meta.total_count).toBe(after.meta.total_count - 1);
    expect(gone.data.some((row) => row.device_id === device.id)).toBe(false);
  });
});

describe('batch PATCH', () => {
  it('applies items that set different fields, nulls and typed values alike', async () => {
    const [a, b, c] = [...devices].sort(byId).slice(0, 3) as [Device, Device, Device];
    const response = await ctx.as('admin', {
      method: 'PATCH',
      url: '/devices',
      payload: [
        { id: a.id, vendor: 'Nokia' },
        { id: b.id, status: 'offline', vendor: null },
        { id: c.id.toUpperCase(), ip: '2001:db8::7', last_seen: '2026-01-02T03:04:05.000Z' },
      ],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ count: 3 });
    const read = async (id: string) =>
      (await ctx.as('viewer', { method: 'GET', url: `/devices/${id}` })).json();
    expect(await read(a.id)).toMatchObject({ vendor: 'Nokia', status: a.status });
    expect(await read(b.id)).toMatchObject({ vendor: null, status: 'offline' });
    const third = await read(c.id);
    expect(third).toMatchObject({ ip: '2001:db8::7', last_seen: '2026-01-02T03:04:05.000Z' });
    expect(third.updated_at > third.created_at).toBe(true);
    a.vendor = 'Nokia';
    b.vendor = null;
    b.status = 'offline';
  });

  it('lets concurrent batches over the same rows in opposite orders both succeed', async () => {
    const rows = [...devices].sort(byId).slice(100, 160);
    const batch = (order: Device[], position: string) =>
      ctx.as('admin', {
        method: 'PATCH',
        url: '/devices',
        payload: order.map((device) => ({ id: device.id, rack_position: position })),
      });
    const answers = await Promise.all([
      batch(rows, 'R1-U1'),
      batch([...rows].reverse(), 'R2-U2'),
      batch(rows, 'R3-U3'),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
  });
});

describe('cost', () => {
  it('is a fixed number of SQL statements whatever the size, filters, sort and depth', async () => {
    const counted = await statementCountingApp(ctx);
    try {
      const run = async (query: string) => {
        counted.takeCount();
        const response = await counted.app.inject({
          method: 'GET',
          url: `/devices${query}`,
          headers: { authorization: `Bearer ${ctx.tokens.viewer}` },
        });
        expect(response.statusCode).toBe(200);
        return counted.takeCount();
      };
      // The first request reads the token's user; later ones find it in memory (user-cache.ts).
      expect(await run('?limit=1')).toBe(2);
      const counts = [
        await run('?limit=1'),
        await run('?limit=100'),
        await run('?limit=100&page=12'),
        await run('?limit=100&page=99'),
        await run('?limit=100&page=12'),
        await run('?status=active&vendor=Cisco&sortby=vendor:asc&sortby=hostname:desc&limit=100'),
        await run('?status=active&sortby=hostname:desc&limit=100&page=5'),
        // Lookups, tags, search, field selection and keyset pages are one too.
        await run('?hostname__ic=host-00&vendor__in=Cisco,Arista&vendor__isnull=false&limit=100'),
        await run('?tags=core&tags=prod&q=host&status__n=offline&limit=100'),
        await run('?fields=id,hostname&sortby=hostname:asc&limit=100'),
      ];
      // A cursor deep in the list: the same single statement.
      const deep = await counted.app.inject({
        method: 'GET',
        url: '/devices?limit=100&page=12&sortby=vendor:desc',
        headers: { authorization: `Bearer ${ctx.tokens.viewer}` },
      });
      const cursor = encodeURIComponent(deep.json().meta.next_cursor);
      counts.push(await run(`?limit=100&sortby=vendor:desc&cursor=${cursor}`));
      // The page: version, count and rows in one statement.
      expect(counts).toEqual(counts.map(() => 1));
    } finally {
      await counted.app.close();
    }
  });

  it('is one SQL statement for a rendered page a later statement already showed stale', async () => {
    const counted = await statementCountingApp(ctx);
    const db = ctx.store.db as AnyDatabase;
    try {
      const get = async (query: string) => {
        const response = await counted.app.inject({
          method: 'GET',
          url: `/devices${query}`,
          headers: { authorization: `Bearer ${ctx.tokens.viewer}` },
        });
        expect(response.statusCode).toBe(200);
        return response;
      };
      const stats = async () =>
        (
          await counted.app.inject({
            method: 'GET',
            url: '/debug/list-cache',
            headers: { authorization: `Bearer ${ctx.tokens.viewer}` },
          })
        ).json<{ pages_reused: number; pages_known_stale: number }>();
      const rendered = '?limit=4&sortby=hostname:desc';
      await get('?limit=1');
      const first = await get(rendered);
      const [top] = first.json<{ data: Device[] }>().data as [Device];
      // Unchanged: the version alone is asked, and the page is sent again.
      counted.takeCount();
      expect((await get(rendered)).body).toBe(first.body);
      expect(counted.takeCount()).toBe(1);

      // A write behind the instance's back, which another list's statement then shows it.
      await db
        .updateTable('devices')
        .set({ model: 'seen-by-another-list' })
        .where('id', '=', top.id)
        .execute();
      await get('?limit=2&status=active');
      const before = await stats();
      counted.takeCount();
      const after = await get(rendered);
      // The page and its version in one statement: no question whose answer was known.
      expect(counted.takeCount()).toBe(1);
      expect(after.json().data[0]).toMatchObject({ id: top.id, model: 'seen-by-another-list' });
      const now = await stats();
      expect(now.pages_known_stale).toBe(before.pages_known_stale + 1);
      expect(now.pages_reused).toBe(before.pages_reused);
    } finally {
      await counted.app.close();
    }
  });

  it('is one SQL statement for a batch PATCH of 1 or 100 items, and for every single write', async () => {
    const counted = await statementCountingApp(ctx);
    try {
      const run = async (size: number) => {
        counted.takeCount();
        const response = await counted.app.inject({
          method: 'PATCH',
          url: '/devices',
          headers: { authorization: `Bearer ${ctx.tokens.admin}` },
          payload: [...devices]
            .sort(byId)
            .slice(200, 200 + size)
            .map((device) => ({ id: device.id, rack_position: `R${size}` })),
        });
        expect(response.statusCode).toBe(200);
        return counted.takeCount();
      };
      await run(1); // reads the token's user, kept in memory from then on
      // Row locks, UPDATE and audit rows in one statement, which is its own transaction (no
      // BEGIN or COMMIT either).
      expect([await run(1), await run(100)]).toEqual([1, 1]);

      // So is every single-record write.
      const [target] = [...devices].sort(byId).slice(300, 301) as [Device];
      const single = async (
        method: 'POST' | 'PATCH' | 'PUT' | 'DELETE',
        url: string,
        payload?: object,
      ) => {
        counted.takeCount();
        const response = await counted.app.inject({
          method,
          url,
          headers: { authorization: `Bearer ${ctx.tokens.admin}` },
          ...(payload ? { payload } : {}),
        });
        expect(response.statusCode).toBeLessThan(300);
        return counted.takeCount();
      };
      const created = { hostname: 'cost-created', ip: '192.0.2.77' };
      expect([
        await single('PATCH', `/devices/${target.id}`, { rack_position: 'R9' }),
        await single('PUT', `/devices/${target.id}`, {
          hostname: target.hostname,
          ip: '192.0.2.8',
        }),
        await single('POST', '/devices', created),
        await single('DELETE', `/devices/${target.id}`),
      ]).toEqual([1, 1, 1, 1]);
      devices = devices.filter((device) => device.id !== target.id);
    } finally {
      await counted.app.close();
    }
  });
});
