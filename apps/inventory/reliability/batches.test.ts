import { testDatabaseUrl } from '@netops/store/testing';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { create, startTestApp, type TestContext, unique } from '../test/helpers.js';
import { report, runSeed, scale } from './support/model-figures.js';

/**
 * Batches are atomic under injected failure. A batch PATCH or DELETE (and the metrics
 * array, the other batch write) that fails on one item in the middle leaves every record exactly
 * as before: compared as full rows read with SQL (updated_at included), with the audit log and
 * the metrics. Failures: a constraint violation on one item, a trigger raising on the N-th row
 * (of the table, of a cascade, of the audit insert), and on PostgreSQL the connection cut while
 * the batch runs. Then concurrent overlapping batches: no partial result, no deadlock.
 */

const TABLES = [
  'locations',
  'devices',
  'interfaces',
  'vlans',
  'links',
  'events',
  'device_metrics',
  'audit_logs',
];
const BATCH = 6;
/** The item that fails, in the middle of the batch. */
const FAILING_ITEM = 3;

let ctx: TestContext;
const figures: Record<string, unknown> = {};
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => {
  report('batches', { ...figures, injectedDatabaseFaults: injected });
  await ctx?.close();
});
beforeEach(async () => {
  await ctx.reset();
  await ctx.store.scriptTransaction((tx) =>
    tx.exec('TRUNCATE device_metrics, device_metrics_latest, events CASCADE'),
  );
});

/** Every row of every table, in id order: what "nothing changed" is compared with. */
async function snapshot() {
  const tables: Record<string, unknown[]> = {};
  for (const table of TABLES) {
    const result = await sql`SELECT * FROM ${sql.table(table)} ORDER BY id`.execute(ctx.store.db);
    tables[table] = result.rows;
  }
  return tables;
}

interface Seeded {
  resource: string;
  ids: string[];
  /** A field every item of a harmless batch PATCH sets, and the value. */
  field: string;
  value: string;
  /** The resource's not-found message (README: `Device not found: <id>` in a batch). */
  notFound: string;
}

/** BATCH records of `resource` (and their parents), through the API. */
async function seed(resource: string, count = BATCH): Promise<Seeded> {
  const ids: string[] = [];
  const tag = unique('b');
  switch (resource) {
    case 'locations':
      for (let i = 0; i < count; i++)
        ids.push((await create(ctx, resource, { name: `${tag}-${i}` })).id);
      return { resource, ids, field: 'city', value: 'Batchville', notFound: 'Location not found' };
    case 'devices':
      for (let i = 0; i < count; i++) {
        ids.push((await create(ctx, resource, { hostname: `${tag}-${i}`, ip: '192.0.2.10' })).id);
      }
      return { resource, ids, field: 'vendor', value: 'Batchco', notFound: 'Device not found' };
    case 'interfaces': {
      const device = await create(ctx, 'devices', { hostname: tag, ip: '192.0.2.20' });
      for (let i = 0; i < count; i++) {
        ids.push((await create(ctx, resource, { device_id: device.id, name: `eth${i}` })).id);
      }
      return {
        resource,
        ids,
        field: 'description',
        value: 'batched',
        notFound: 'Interface not found',
      };
    }
    case 'vlans':
      for (let i = 0; i < count; i++) {
        ids.push((await create(ctx, resource, { vlan_id: 100 + i, name: `${tag}-${i}` })).id);
      }
      return { resource, ids, field: 'description', value: 'batched', notFound: 'VLAN not found' };
    case 'links': {
      const device = await create(ctx, 'devices', { hostname: tag, ip: '192.0.2.30' });
      for (let i = 0; i < count; i++) {
        const a = await create(ctx, 'interfaces', { device_id: device.id, name: `a${i}` });
        const b = await create(ctx, 'interfaces', { device_id: device.id, name: `b${i}` });
        ids.push((await create(ctx, resource, { a_interface_id: a.id, b_interface_id: b.id })).id);
      }
      return { resource, ids, field: 'type', value: 'fiber', notFound: 'Link not found' };
    }
    default:
      throw new Error(`no seed for ${resource}`);
  }
}

const BATCH_RESOURCES = ['locations', 'devices', 'interfaces', 'vlans', 'links'];

const batchPatch = (
  seeded: Seeded,
  items = seeded.ids.map((id) => ({ id, [seeded.field]: seeded.value })),
) => ({ method: 'PATCH', url: `/${seeded.resource}`, payload: items }) satisfies InjectOptions;
const batchDelete = (seeded: Seeded, ids = seeded.ids) =>
  ({ method: 'DELETE', url: `/${seeded.resource}`, payload: ids }) satisfies InjectOptions;

/** Sends `request` and checks that it failed with `status` (and `message`) and changed nothing. */
async function failsAtomically(request: InjectOptions, status: number, message?: string | RegExp) {
  const before = await snapshot();
  const response = await ctx.as('admin', request);
  expect(response.statusCode, response.body).toBe(status);
  const body = response.json();
  expect(body).toMatchObject({ status: 'error', message: expect.any(String) });
  if (message !== undefined) expect(body.message).toMatch(message);
  expect(await snapshot()).toEqual(before);
  return response;
}

let injected = 0;
const count = (key: string) => {
  figures[key] = ((figures[key] as number | undefined) ?? 0) + 1;
};

describe('(a) a constraint violation on one item rolls the whole batch back', () => {
  const replaceItem = (seeded: Seeded, change: Record<string, unknown>) =>
    seeded.ids.map((id, index) =>
      index === FAILING_ITEM ? { id, ...change } : { id, [seeded.field]: seeded.value },
    );

  it('duplicate unique values: hostname, location name, VLAN id, interface name (409)', async () => {
    const devices = await seed('devices');
    await failsAtomically(
      batchPatch(devices, replaceItem(devices, { hostname: await hostnameOf(devices.ids[0]) })),
      409,
      'Hostname already exists',
    );
    const locations = await seed('locations');
    const firstName = await fieldOf('locations', locations.ids[0], 'name');
    await failsAtomically(
      batchPatch(locations, replaceItem(locations, { name: firstName })),
      409,
      'Location name already exists',
    );
    const vlans = await seed('vlans');
    await failsAtomically(
      batchPatch(vlans, replaceItem(vlans, { vlan_id: 100 })),
      409,
      'VLAN id already exists',
    );
    const interfaces = await seed('interfaces');
    await failsAtomically(
      batchPatch(interfaces, replaceItem(interfaces, { name: 'eth0' })),
      409,
      'Interface name already exists on this device',
    );
    count('constraint cases');
  });

  it('a reference to a missing row (400 naming the item and the field)', async () => {
    const devices = await seed('devices');
    await failsAtomically(
      batchPatch(devices, replaceItem(devices, { location_id: crypto.randomUUID() })),
      400,
      `Item ${FAILING_ITEM} (location_id): Location not found`,
    );
    const interfaces = await seed('interfaces');
    await failsAtomically(
      batchPatch(interfaces, replaceItem(interfaces, { device_id: crypto.randomUUID() })),
      400,
      `Item ${FAILING_ITEM} (device_id): Device not found`,
    );
    count('constraint cases');
  });

  it('check constraints: a link with one interface at both ends, an interface speed out of range', async () => {
    const links = await seed('links');
    const b = await fieldOf('links', links.ids[FAILING_ITEM], 'b_interface_id');
    await failsAtomically(
      batchPatch(links, replaceItem(links, { a_interface_id: b })),
      400,
      'A link needs two different interfaces',
    );
    const interfaces = await seed('interfaces');
    await failsAtomically(
      batchPatch(interfaces, replaceItem(interfaces, { speed: '99999999999Gbps' })),
      400,
    );
    count('constraint cases');
  });

  it.each(BATCH_RESOURCES)(
    '%s: an unknown id in the middle of a PATCH or DELETE (404 naming it)',
    async (resource) => {
      const seeded = await seed(resource);
      const missing = crypto.randomUUID();
      const ids = seeded.ids.map((id, index) => (index === FAILING_ITEM ? missing : id));
      await failsAtomically(
        batchPatch(
          seeded,
          ids.map((id) => ({ id, [seeded.field]: seeded.value })),
        ),
        404,
        `${seeded.notFound}: ${missing}`,
      );
      await failsAtomically(batchDelete(seeded, ids), 404, `${seeded.notFound}: ${missing}`);
      count('unknown id cases');
    },
  );

  it('a metrics array with an unknown device in the middle stores nothing', async () => {
    const devices = await seed('devices');
    const records = devices.ids.map((device_id, index) => ({
      device_id: index === FAILING_ITEM ? crypto.randomUUID() : device_id,
      cpu: 50,
    }));
    await failsAtomically(
      { method: 'POST', url: '/metrics', payload: records },
      400,
      'device_id: Device not found',
    );
    count('constraint cases');
  });
});

async function fieldOf(resource: string, id: string | undefined, field: string): Promise<string> {
  const response = await ctx.as('admin', { method: 'GET', url: `/${resource}/${id}` });
  return String(response.json()[field]);
}
const hostnameOf = (id: string | undefined) => fieldOf('devices', id, 'hostname');

/**
 * A row trigger that raises on the N-th row it sees in a transaction (counted in a
 * transaction-local setting), on `table` for `events` (`UPDATE`, `DELETE`, `INSERT`). PL/pgSQL:
 * the same on PostgreSQL and PGlite.
 */
async function withFaultOnRow<T>(
  table: string,
  events: string,
  nth: number,
  work: () => Promise<T>,
) {
  injected++;
  await ctx.store.scriptTransaction((tx) =>
    tx.exec(`
      CREATE OR REPLACE FUNCTION reliability_fault() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE seen integer := coalesce(nullif(current_setting('reliability.seen', true), ''), '0')::integer + 1;
      BEGIN
        PERFORM set_config('reliability.seen', seen::text, true);
        IF seen = TG_ARGV[0]::integer THEN
          RAISE EXCEPTION 'injected fault on row % of %', seen, TG_TABLE_NAME;
        END IF;
        RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
      END $$;
      CREATE TRIGGER reliability_fault BEFORE ${events} ON ${table}
        FOR EACH ROW EXECUTE FUNCTION reliability_fault(${nth});`),
  );
  try {
    return await work();
  } finally {
    await ctx.store.scriptTransaction((tx) =>
      tx.exec(`DROP TRIGGER reliability_fault ON ${table}`),
    );
  }
}

describe('(b) a failure raised inside the database on the N-th row rolls the whole batch back', () => {
  it.each(BATCH_RESOURCES)('%s: batch PATCH and batch DELETE', async (resource) => {
    const seeded = await seed(resource);
    await withFaultOnRow(resource, 'UPDATE', FAILING_ITEM + 1, () =>
      failsAtomically(batchPatch(seeded), 500, 'Internal Server Error'),
    );
    await withFaultOnRow(resource, 'DELETE', FAILING_ITEM + 1, () =>
      failsAtomically(batchDelete(seeded), 500, 'Internal Server Error'),
    );
    // Without the fault the very same batches go through: it was the fault, not the batch.
    expect((await ctx.as('admin', batchPatch(seeded))).statusCode).toBe(200);
    expect((await ctx.as('admin', batchDelete(seeded))).statusCode).toBe(200);
    count('trigger faults');
  });

  it('in a cascade: deleting devices fails on the N-th of their interfaces', async () => {
    const devices = await seed('devices');
    for (const id of devices.ids) {
      await create(ctx, 'interfaces', { device_id: id, name: 'eth0' });
      await create(ctx, 'interfaces', { device_id: id, name: 'eth1' });
    }
    await withFaultOnRow('interfaces', 'DELETE', 2 * FAILING_ITEM + 1, () =>
      failsAtomically(batchDelete(devices), 500),
    );
    count('trigger faults');
  });

  it('in the audit insert: the changed rows roll back with it', async () => {
    const devices = await seed('devices');
    await withFaultOnRow('audit_logs', 'INSERT', FAILING_ITEM + 1, () =>
      failsAtomically(batchPatch(devices), 500),
    );
    await withFaultOnRow('audit_logs', 'INSERT', FAILING_ITEM + 1, () =>
      failsAtomically(batchDelete(devices), 500),
    );
    count('trigger faults');
  });

  it('in a metrics array', async () => {
    const devices = await seed('devices');
    const records = devices.ids.map((device_id) => ({ device_id, cpu: 10 }));
    await withFaultOnRow('device_metrics', 'INSERT', FAILING_ITEM + 1, () =>
      failsAtomically({ method: 'POST', url: '/metrics', payload: records }, 500),
    );
    count('trigger faults');
  });
});

const onPostgres = testDatabaseUrl() !== undefined;

/**
 * The test's own clean-up after a cut connection, tried a few times: it must not leave its
 * trigger behind (every later test would sleep in it) because it drew a dead connection itself.
 */
async function cleanUp(script: string) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ctx.store.scriptTransaction((tx) => tx.exec(script));
    } catch (error) {
      if (attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

describe('(c) the connection cut while the batch runs', () => {
  // PGlite runs in this process with one connection and no server backends: there is no
  // connection to cut (and no pg_terminate_backend), so this part runs on PostgreSQL only.
  it.skipIf(!onPostgres)(
    'PostgreSQL: 503 in the error shape, nothing changed, the next request succeeds',
    async () => {
      const rounds = scale(2, 10);
      const outcomes: number[] = [];
      const nextStatuses: number[] = [];
      for (let round = 0; round < rounds; round++) {
        for (const kind of ['PATCH', 'DELETE'] as const) {
          const seeded = await seed('devices');
          const before = await snapshot();
          await ctx.store.scriptTransaction((tx) =>
            tx.exec(`
            CREATE OR REPLACE FUNCTION reliability_slow() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE seen integer := coalesce(nullif(current_setting('reliability.seen', true), ''), '0')::integer + 1;
            BEGIN
              PERFORM set_config('reliability.seen', seen::text, true);
              IF seen = ${FAILING_ITEM + 1} THEN PERFORM pg_sleep(30); END IF;
              RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
            END $$;
            CREATE TRIGGER reliability_slow BEFORE UPDATE OR DELETE ON devices
              FOR EACH ROW EXECUTE FUNCTION reliability_slow();`),
          );
          try {
            const answer = ctx.as(
              'admin',
              kind === 'PATCH' ? batchPatch(seeded) : batchDelete(seeded),
            );
            // The batch's backend, asleep in the trigger; cut from another pooled connection.
            let terminated = false;
            for (let attempt = 0; attempt < 200 && !terminated; attempt++) {
              const result = await sql<{ terminated: boolean }>`
              SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity
              WHERE datname = current_database() AND pid <> pg_backend_pid()
                AND wait_event = 'PgSleep'`.execute(ctx.store.db);
              terminated = result.rows.some((row) => row.terminated);
              if (!terminated) await new Promise((resolve) => setTimeout(resolve, 50));
            }
            expect(terminated, 'found the batch asleep in the trigger').toBe(true);
            injected++;
            const response = await answer;
            outcomes.push(response.statusCode);
            expect(response.statusCode, response.body).toBe(503);
            expect(response.json()).toMatchObject({ status: 'error', message: expect.any(String) });
            // The very next request (a read: the slow trigger is still there) must be served:
            // the pool must not hand out the connection that was cut.
            const next = await ctx.as('admin', { method: 'GET', url: '/devices?limit=1' });
            nextStatuses.push(next.statusCode);
            expect(next.statusCode, `the request after the cut: ${next.body}`).toBe(200);
          } finally {
            await cleanUp('DROP TRIGGER reliability_slow ON devices');
          }
          expect(await snapshot()).toEqual(before);
          // And the batch itself goes through once the fault is gone.
          const again = await ctx.as('admin', batchPatch(seeded));
          expect(again.statusCode, again.body).toBe(200);
        }
      }
      figures.connectionCuts = { rounds: rounds * 2, statuses: outcomes, next: nextStatuses };
    },
  );
});

describe('concurrent overlapping batches', () => {
  const seed = runSeed();

  it('batch PATCHes over overlapping rows in different orders: all applied whole, no deadlock', async () => {
    const devices = await seedMany(25);
    const batches = fc.sample(fc.shuffledSubarray(devices, { minLength: 5, maxLength: 15 }), {
      seed,
      numRuns: scale(8, 40),
    });
    const responses = await Promise.all(
      batches.map((ids, k) =>
        ctx.as('admin', {
          method: 'PATCH',
          url: '/devices',
          payload: ids.map((id) => ({ id, vendor: `batch-${k}` })),
        }),
      ),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses, `seed ${seed}: ${responses.map((r) => r.body).join(' ')}`).toEqual(
      batches.map(() => 200),
    );
    // Some serial order of the batches explains every row: the batch a row ended with came
    // after every other batch that touched it, and those "came after" relations have no cycle.
    const finalVendor = new Map<string, string>();
    for (const id of devices) finalVendor.set(id, await fieldOf('devices', id, 'vendor'));
    const after = new Map<number, Set<number>>();
    batches.forEach((ids, k) => {
      for (const id of ids) {
        const last = Number(finalVendor.get(id)?.replace('batch-', ''));
        expect(
          batches[last]?.includes(id),
          `row ${id} ended with a batch that did not touch it`,
        ).toBe(true);
        if (last !== k) after.set(last, new Set([...(after.get(last) ?? []), k]));
      }
    });
    expect(hasCycle(after), `seed ${seed}: no serial order explains the rows`).toBe(false);
    figures.concurrentPatches = { batches: batches.length, statuses: countOf(statuses) };
  });

  it('batch DELETEs over overlapping rows: each deletes all of its ids or none', async () => {
    const devices = await seedMany(30);
    const batches = fc.sample(fc.shuffledSubarray(devices, { minLength: 3, maxLength: 8 }), {
      seed: seed + 1,
      numRuns: scale(8, 40),
    });
    const responses = await Promise.all(
      batches.map((ids) => ctx.as('admin', { method: 'DELETE', url: '/devices', payload: ids })),
    );
    const statuses = responses.map((response) => response.statusCode);
    for (const status of statuses) expect([200, 404]).toContain(status);
    const remaining = new Set(
      (await sql<{ id: string }>`SELECT id FROM devices`.execute(ctx.store.db)).rows.map(
        (row) => row.id,
      ),
    );
    const deletedBySuccess = new Set(batches.filter((_, k) => statuses[k] === 200).flat());
    batches.forEach((ids, k) => {
      if (statuses[k] === 200) for (const id of ids) expect(remaining.has(id)).toBe(false);
      // A refused batch deleted nothing: its rows are gone only if a successful batch took them.
      else
        for (const id of ids) expect(remaining.has(id) || deletedBySuccess.has(id), id).toBe(true);
    });
    figures.concurrentDeletes = { batches: batches.length, statuses: countOf(statuses) };
  });
});

/**
 * Batches over rows that reference each other, all at once: moving interfaces between devices
 * (their foreign-key checks lock the devices) while those devices are deleted (which locks and
 * deletes their interfaces and links) and links over those interfaces change. Lock orders cross
 * here; whatever PostgreSQL does about it, the client must get an answer in the error shape and
 * never a 500, and nothing half-done.
 */
describe('concurrent batches over related rows', () => {
  const relatedSeed = runSeed();

  it('moves, deletes and link changes at once: no 5xx, every answer in the documented shapes', async () => {
    const rounds = scale(10, 60);
    const statuses: Record<string, number> = {};
    for (let round = 0; round < rounds; round++) {
      const devices = await seed('devices', 4);
      const interfaces: string[][] = [];
      for (const [index, device] of devices.ids.entries()) {
        const own: string[] = [];
        for (let i = 0; i < 4; i++) {
          own.push(
            (await create(ctx, 'interfaces', { device_id: device, name: `d${index}-${i}` })).id,
          );
        }
        interfaces.push(own);
      }
      const links: string[] = [];
      for (let i = 0; i < 4; i++) {
        const a = interfaces[0]?.[i];
        const b = interfaces[1]?.[i];
        links.push((await create(ctx, 'links', { a_interface_id: a, b_interface_id: b })).id);
      }
      const [d0, d1, d2, d3] = devices.ids;
      const requests: InjectOptions[] = [
        // Interfaces of devices 0 and 1 move to 2 and 3 (names stay unique per device).
        {
          method: 'PATCH',
          url: '/interfaces',
          payload: [...(interfaces[0] ?? []), ...(interfaces[1] ?? [])].map((id, i) => ({
            id,
            device_id: i % 2 === 0 ? d2 : d3,
          })),
        },
        { method: 'DELETE', url: '/devices', payload: [d3, d2] },
        { method: 'DELETE', url: '/devices', payload: [d0] },
        {
          method: 'PATCH',
          url: '/interfaces',
          payload: [...(interfaces[2] ?? []), ...(interfaces[3] ?? [])].reverse().map((id, i) => ({
            id,
            device_id: i % 2 === 0 ? d0 : d1,
          })),
        },
        { method: 'PATCH', url: '/links', payload: links.map((id) => ({ id, status: 'down' })) },
        { method: 'DELETE', url: '/interfaces', payload: [interfaces[1]?.[0], interfaces[0]?.[3]] },
        {
          method: 'PATCH',
          url: '/devices',
          payload: [d1, d0, d2].map((id) => ({ id, vendor: `r${round}` })),
        },
        { method: 'DELETE', url: `/devices/${d1}` },
      ];
      // A different start order each round (seeded), so that each of them gets to go first.
      const order = fc.sample(fc.shuffledSubarray(requests, { minLength: requests.length }), {
        seed: relatedSeed + round,
        numRuns: 1,
      })[0] as InjectOptions[];
      const before = performance.now();
      const responses = await Promise.all(order.map((request) => ctx.as('admin', request)));
      expect(performance.now() - before).toBeLessThan(30_000);
      responses.forEach((response, k) => {
        const request = order[k];
        const key = `${request?.method} ${request?.url?.toString().replace(/\/[0-9a-f-]{36}$/, '/{id}')} ${response.statusCode}`;
        statuses[key] = (statuses[key] ?? 0) + 1;
        expect(response.statusCode, `${key} ${response.body}`).toBeLessThan(500);
        if (response.statusCode >= 400) {
          expect(response.json()).toMatchObject({ status: 'error', message: expect.any(String) });
        }
      });
      // Every interface still there points at a device still there, and every link at interfaces.
      const orphans = await sql<{ n: number }>`
        SELECT (SELECT count(*) FROM interfaces i WHERE NOT EXISTS (SELECT 1 FROM devices d WHERE d.id = i.device_id))
             + (SELECT count(*) FROM links l WHERE NOT EXISTS (SELECT 1 FROM interfaces i WHERE i.id = l.a_interface_id)
                                             OR NOT EXISTS (SELECT 1 FROM interfaces i WHERE i.id = l.b_interface_id)) AS n`.execute(
        ctx.store.db,
      );
      expect(Number(orphans.rows[0]?.n)).toBe(0);
    }
    figures.concurrentRelated = { seed: relatedSeed, rounds, statuses };
  });
});

async function seedMany(count: number): Promise<string[]> {
  return (await seed('devices', count)).ids;
}

function countOf(values: readonly number[]) {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

function hasCycle(edges: Map<number, Set<number>>): boolean {
  const state = new Map<number, 'open' | 'done'>();
  const visit = (node: number): boolean => {
    if (state.get(node) === 'done') return false;
    if (state.get(node) === 'open') return true;
    state.set(node, 'open');
    for (const next of edges.get(node) ?? []) if (visit(next)) return true;
    state.set(node, 'done');
    return false;
  };
  return [...edges.keys()].some(visit);
}

describe('a CSV batch update with hostile content', () => {
  const csvPatch = (payload: string | Buffer, contentType = 'text/csv') =>
    ({
      method: 'PATCH',
      url: '/devices',
      headers: { 'content-type': contentType },
      payload,
    }) satisfies InjectOptions;

  it('is refused whole, in the error shape, and changes nothing', async () => {
    const seeded = await seed('devices');
    const [first = '', second = ''] = seeded.ids;
    const valid = `${first},kept\n`;
    /** A body, the status and message it gets, and its content type when not text/csv. */
    const hostile: Array<[string | Buffer, number, RegExp, string?]> = [
      ['id,model\n', 400, /header row and at least one row/],
      [`id,model\n${`${first},x\n`.repeat(1001)}`, 400, /at most 1000/],
      [
        `id,model\n${valid}${first.toUpperCase()},again\n`,
        400,
        /^Row 3 \(id\): row 2 changes this record already/,
      ],
      [`id,model\n${valid}${second}' OR '1'='1,x\n`, 400, /^Row 3 \(id\): /],
      [`id,model\n${valid}"${second},x\n`, 400, /^Malformed CSV/],
      [`id,model\n${valid}${second},a\u0000b\n`, 400, /^Row 3 \(model\): /],
      [`id,model\n${valid}${second},${'x'.repeat(300_000)}\n`, 400, /^Row 3 \(model\): /],
      [
        `id,${Array.from({ length: 5000 }, (_, i) => `c${i}`).join(',')}\n${first}${',x'.repeat(5000)}\n`,
        400,
        /Unknown field in CSV header: c0$/,
      ],
      [`id,__proto__\n${valid}`, 400, /Unknown field in CSV header: __proto__/],
      [`id,constructor\n${valid}`, 400, /Unknown field in CSV header: constructor/],
      [`id,etag,model\n${first},"W/""x""junk",kept\n`, 400, /^Row 2 \(etag\): /],
      [
        `id,add_tags\n${first},"${Array.from({ length: 5000 }, (_, i) => `t${i}`).join(',')}"\n`,
        400,
        /^Row 2 \(add_tags\): /,
      ],
      [`id,tags,add_tags\n${first},a,b\n`, 400, /^Row 2: add_tags cannot be combined with tags/],
      [
        `id,model\n${valid}${second},<img src=x onerror=alert(1)>\n`,
        400,
        /contains HTML or script content/,
      ],
      [`id,model\n${valid}`, 415, /Unsupported charset/, 'text/csv; charset=koi8-r'],
      [Buffer.from(`id,model\n${first},x\xff\xfe\n`, 'latin1'), 400, /UTF-8|Unicode|encoding/i],
    ];
    for (const [payload, status, message, contentType] of hostile) {
      await failsAtomically(csvPatch(payload, contentType), status, message);
    }
    // The same file with nothing hostile in it is taken.
    const accepted = await ctx.as('admin', csvPatch(`id,model\n${valid}`));
    expect(accepted.statusCode, accepted.body).toBe(200);
  });
});
