import { sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyDatabase } from '../src/db/schema.js';
import { RESOURCES } from '../src/resources/index.js';
import { create, startTestApp, type TestContext } from './helpers.js';

/**
 * Exact totals without recounting after every write. Lists filtered by one or two
 * `counted` columns read the value counters the writes maintain (migration 014); other filters
 * are counted at most once per write by all concurrent readers of one instance (list-cache.ts).
 * These tests pin the structure: the totals equal COUNT(*) through every kind of write, a
 * maintained total is never counted, and N concurrent readers after a write run one count.
 */

let ctx: TestContext;
let db: AnyDatabase;
let locations: string[];
beforeAll(async () => {
  ctx = await startTestApp();
  db = ctx.store.db as AnyDatabase;
  locations = [];
  for (const name of ['site-a', 'site-b']) {
    locations.push((await create(ctx, 'locations', { name })).id);
  }
});
afterAll(() => ctx?.close());

const VENDORS = ['Cisco', 'Juniper', 'Arista'];
const STATUSES = ['active', 'offline', 'maintenance'];
const ROLES = ['core', 'edge'];
const TAGS = ['prod', 'lab', 'dc1', 'edge-pop', 'pci_zone'];

async function total(query: string): Promise<number> {
  const response = await ctx.as('viewer', { method: 'GET', url: `/devices?${query}&limit=1` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ meta: { total_count: number } }>().meta.total_count;
}

async function counted(where: Record<string, string>): Promise<number> {
  let query = db.selectFrom('devices').select(sql<number>`count(*)`.as('n'));
  for (const [column, value] of Object.entries(where)) query = query.where(column, '=', value);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

/** Every single, paired and declared triple filter, as the API and as COUNT(*). */
async function expectExact() {
  const filters: Record<string, string>[] = [];
  for (const vendor of VENDORS) {
    filters.push({ vendor });
    for (const status of STATUSES) {
      filters.push({ vendor, status });
      // The three common filters together: a combination of its own (migration 029).
      for (const role of ROLES) filters.push({ role, status, vendor });
    }
    for (const role of ROLES) filters.push({ role, vendor });
  }
  for (const status of STATUSES) {
    filters.push({ status });
    for (const location of locations) filters.push({ location_id: location, status });
  }
  for (const location of locations) filters.push({ location_id: location });
  for (const filter of filters) {
    const query = new URLSearchParams(filter).toString();
    expect(await total(query), query).toBe(await counted(filter));
  }
  // Tags: one, two (all of them), and one with a counted column.
  for (const [index, tag] of TAGS.entries()) {
    const other = TAGS[(index + 1) % TAGS.length] as string;
    const cases: Array<[string, string[], Record<string, string>]> = [
      [`tags=${tag}`, [tag], {}],
      [`tags=${tag}&tags=${other}`, [tag, other], {}],
      [`tags=${tag}&vendor=Cisco`, [tag], { vendor: 'Cisco' }],
      [`status=active&tags=${other}`, [other], { status: 'active' }],
    ];
    for (const [query, tags, where] of cases) {
      let sqlQuery = db
        .selectFrom('devices')
        .select(sql<number>`count(*)`.as('n'))
        .where(sql<boolean>`tags @> ${tags}::text[]`);
      for (const [column, value] of Object.entries(where)) {
        sqlQuery = sqlQuery.where(column, '=', value);
      }
      expect(await total(query), query).toBe(Number((await sqlQuery.executeTakeFirstOrThrow()).n));
    }
  }
}

const pick = <T>(items: readonly T[], n: number) => items[n % items.length] as T;

describe('value counters', () => {
  it('are installed for exactly the columns the definitions declare counted', async () => {
    const installed = await sql<{ table_name: string; columns: string[] }>`
      SELECT table_name, columns FROM value_counted_tables ORDER BY table_name`.execute(db);
    const declared = RESOURCES.map((definition) => ({
      table_name: definition.table,
      columns: Object.entries(definition.columns)
        .filter(([, column]) => column.counted)
        .map(([name]) => name)
        .sort(),
    })).filter((table) => table.columns.length > 0);
    expect(installed.rows).toEqual(declared);
  });

  it('keep counters for exactly the combinations the definitions declare', async () => {
    const installed = await sql<{ table_name: string; pairs: string[] | null }>`
      SELECT table_name, pairs FROM value_counted_tables ORDER BY table_name`.execute(db);
    const declared = RESOURCES.filter((definition) =>
      Object.values(definition.columns).some((column) => column.counted),
    ).map((definition) => ({
      table_name: definition.table,
      pairs: (definition.countedCombinations ?? [])
        .map((combination) => [...combination].sort().join(','))
        .sort(),
    }));
    expect(installed.rows.map((row) => ({ ...row, pairs: [...(row.pairs ?? [])].sort() }))).toEqual(
      declared,
    );
  });

  it('run no trigger function for an update that changes no counted column', async () => {
    const device = await create(ctx, 'devices', {
      hostname: 'vc-untouched',
      ip: '192.0.2.7',
      vendor: 'Cisco',
      status: 'active',
      tags: ['prod', 'lab'],
    });
    // Calls of the counters' trigger function by one statement (track_functions = pl). Read
    // before and after it: with track_functions on for the whole server, the session's pending
    // statistics may still hold calls of earlier transactions.
    const callsAfter = (statement: ReturnType<typeof sql>) =>
      db.transaction().execute(async (trx) => {
        await sql`SET LOCAL track_functions = 'pl'`.execute(trx);
        const calls = async () => {
          const result = await sql<{ calls: string | null }>`
            SELECT pg_stat_get_xact_function_calls('count_values__devices'::regproc) AS calls`.execute(
            trx,
          );
          return Number(result.rows[0]?.calls ?? 0);
        };
        const before = await calls();
        await statement.execute(trx);
        return (await calls()) - before;
      });
    expect(
      await callsAfter(
        sql`UPDATE devices SET rack_position = 'R7-U7', model = 'x', tags = tags, vendor = 'Cisco'
            WHERE id = ${device.id}`,
      ),
    ).toBe(0);
    expect(
      await callsAfter(sql`UPDATE devices SET status = 'offline' WHERE id = ${device.id}`),
    ).toBe(1);
    await expectExact();
  });

  it('give totals equal to COUNT(*) through every kind of write', async () => {
    await expectExact();
    const ids: string[] = [];
    for (let n = 0; n < 24; n++) {
      const device = await create(ctx, 'devices', {
        hostname: `vc-${n}`,
        ip: '192.0.2.1',
        vendor: pick(VENDORS, n),
        status: pick(STATUSES, n),
        role: pick(ROLES, n),
        tags: [pick(TAGS, n), pick(TAGS, n + 2), ...(n % 3 === 0 ? [pick(TAGS, n + 4)] : [])],
        ...(n % 4 === 3 ? {} : { location_id: pick(locations, n) }),
      });
      ids.push(device.id);
    }
    await expectExact();

    // PATCH of each counted column, PUT, a batch PATCH, deletes single and batch.
    const patch = async (id: string, payload: Record<string, unknown>) => {
      const response = await ctx.as('admin', { method: 'PATCH', url: `/devices/${id}`, payload });
      expect(response.statusCode, response.body).toBe(200);
    };
    await patch(ids[0] as string, { vendor: 'Juniper' });
    await patch(ids[1] as string, { status: 'offline', role: 'core' });
    await patch(ids[2] as string, { location_id: locations[1] });
    await patch(ids[3] as string, { rack_position: 'R1-U1' });
    const put = await ctx.as('admin', {
      method: 'PUT',
      url: `/devices/${ids[4]}`,
      payload: { hostname: 'vc-4', ip: '192.0.2.4', vendor: 'Arista', status: 'maintenance' },
    });
    expect(put.statusCode, put.body).toBe(200);
    const batch = await ctx.as('admin', {
      method: 'PATCH',
      url: '/devices',
      payload: ids.slice(5, 15).map((id, n) => ({ id, status: pick(STATUSES, n + 1) })),
    });
    expect(batch.statusCode, batch.body).toBe(200);
    await patch(ids[20] as string, { tags: ['pci_zone'] });
    const tagged = await ctx.as('admin', {
      method: 'PATCH',
      url: '/devices',
      payload: ids.slice(0, 12).map((id, n) => ({
        id,
        add_tags: [pick(TAGS, n + 1)],
        remove_tags: [pick(TAGS, n)],
      })),
    });
    expect(tagged.statusCode, tagged.body).toBe(200);
    await expectExact();
    expect(
      (await ctx.as('admin', { method: 'DELETE', url: `/devices/${ids[15]}` })).statusCode,
    ).toBe(204);
    const removed = await ctx.as('admin', {
      method: 'DELETE',
      url: '/devices',
      payload: ids.slice(16, 19),
    });
    expect(removed.statusCode, removed.body).toBe(200);
    await expectExact();

    // Behind the API's back: a multi-row INSERT, an UPDATE of many rows, a rolled-back write,
    // and a location deleted (ON DELETE SET NULL updates its devices).
    await db
      .insertInto('devices')
      .values(
        Array.from({ length: 30 }, (_, n) => ({
          id: uuidv7(),
          hostname: `vc-sql-${n}`,
          ip: '192.0.2.9',
          vendor: pick(VENDORS, n + 1),
          status: pick(STATUSES, n + 2),
          location_id: pick(locations, n),
        })),
      )
      .execute();
    await db
      .updateTable('devices')
      .set({ vendor: 'Cisco' })
      .where('status', '=', 'offline')
      .execute();
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.updateTable('devices').set({ status: 'active' }).execute();
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await expectExact();
    await db
      .deleteFrom('locations')
      .where('id', '=', locations[1] as string)
      .execute();
    await expectExact();
    // A uuid filter in capitals names the same location: the counter key is its canonical text.
    const upper = (locations[0] as string).toUpperCase();
    expect(await total(`location_id=${upper}`)).toBe(
      await counted({ location_id: locations[0] as string }),
    );
  });

  it('are written once per key by a statement changing many rows, not once per row', async () => {
    const hosts = Array.from({ length: 40 }, (_, n) => `vc-once-${n}`);
    await db
      .insertInto('devices')
      .values(
        hosts.map((hostname) => ({
          id: uuidv7(),
          hostname,
          ip: '192.0.2.40',
          vendor: 'Cisco',
          status: 'active',
          role: 'core',
          tags: ['prod'],
          location_id: locations[0] as string,
        })),
      )
      .execute();
    // Rows the statement writes into value_counts, from the transaction's table statistics.
    const counterWrites = await db.transaction().execute(async (trx) => {
      const written = async () => {
        const result = await sql<{ n: string }>`
          SELECT n_tup_ins + n_tup_upd AS n FROM pg_stat_xact_user_tables
          WHERE relname = 'value_counts'`.execute(trx);
        return Number(result.rows[0]?.n ?? 0);
      };
      const before = await written();
      await trx
        .updateTable('devices')
        .set({ status: 'maintenance' })
        .where('hostname', 'in', hosts)
        .execute();
      return (await written()) - before;
    });
    // The status alone, with the location, with the role, with the vendor, and with the role
    // and the vendor; before and after: 10 counters, each written once (one upsert per row wrote
    // them 40 times each).
    expect(counterWrites).toBe(10);
    await expectExact();
  });

  it('stay exact through several statements of one transaction, savepoints and changed ids', async () => {
    const ids: string[] = [];
    for (let n = 0; n < 6; n++) {
      const device = await create(ctx, 'devices', {
        hostname: `vc-tx-${n}`,
        ip: '192.0.2.41',
        vendor: pick(VENDORS, n),
        status: pick(STATUSES, n),
        tags: [pick(TAGS, n)],
      });
      ids.push(device.id);
    }
    // A batch whose items change different fields: one statement, an UPDATE per set of fields.
    const mixed = await ctx.as('admin', {
      method: 'PATCH',
      url: '/devices',
      payload: [
        { id: ids[0], status: 'maintenance' },
        { id: ids[1], vendor: 'Arista' },
        { id: ids[2], status: 'offline', vendor: 'Juniper' },
      ],
    });
    expect(mixed.statusCode, mixed.body).toBe(200);
    await expectExact();
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('devices').set({ status: 'active' }).where('id', 'in', ids).execute();
      // The same rows again in the next statement, then a statement rolled back to a savepoint.
      await trx.updateTable('devices').set({ vendor: 'Cisco' }).where('id', 'in', ids).execute();
      await sql`SAVEPOINT undone`.execute(trx);
      await trx.updateTable('devices').set({ status: 'offline' }).where('id', 'in', ids).execute();
      await sql`ROLLBACK TO SAVEPOINT undone`.execute(trx);
      await trx
        .updateTable('devices')
        .set({ role: 'edge' })
        .where('id', 'in', ids.slice(0, 3))
        .execute();
    });
    await expectExact();
    // Ids changed behind the API's back, with a counted column: the rows pair with nothing.
    await sql`UPDATE devices SET id = ${uuidv7()}::uuid, status = 'maintenance'
              WHERE id = ${ids[4]}`.execute(db);
    await sql`UPDATE devices SET id = ${uuidv7()}::uuid WHERE id = ${ids[5]}`.execute(db);
    await expectExact();
    // An upsert: one row inserted, one updated, by one statement.
    await sql`INSERT INTO devices (id, hostname, ip, vendor, status)
              VALUES (${uuidv7()}::uuid, 'vc-tx-0', '192.0.2.42', 'Juniper', 'offline'),
                     (${uuidv7()}::uuid, 'vc-tx-new', '192.0.2.42', 'Juniper', 'offline')
              ON CONFLICT (hostname) DO UPDATE SET vendor = excluded.vendor,
                                                   status = excluded.status`.execute(db);
    await expectExact();
  });

  it('are read, never counted: a write the triggers did not see is not in the total until recounted', async () => {
    const cache = ctx.app.listCache;
    const before = { ...cache.stats };
    const vendor = 'BehindTheTriggers';
    expect(await total(`vendor=${vendor}`)).toBe(0);
    // A load that fires no triggers (as pg_restore --disable-triggers does).
    await db.transaction().execute(async (trx) => {
      await sql`SET LOCAL session_replication_role = replica`.execute(trx);
      await trx
        .insertInto('devices')
        .values({ id: uuidv7(), hostname: 'vc-hidden', ip: '192.0.2.3', vendor })
        .execute();
    });
    // A count would find the row; the maintained total does not, which shows it is not counted.
    expect(await counted({ vendor })).toBe(1);
    expect(await total(`vendor=${vendor}`)).toBe(0);
    expect(await total(`vendor=${vendor}&status=active`)).toBe(0);
    expect(await total(`vendor=${vendor}&status=active&role=core`)).toBe(0);
    expect(cache.stats.totalsCounted).toBe(before.totalsCounted);
    // Three lists read (the repeated one is a rendered page: the table's version did not move).
    expect(cache.stats.totalsMaintained).toBe(before.totalsMaintained + 3);
    // The documented repair recounts them.
    await sql`SELECT recount_table_rows('devices')`.execute(db);
    expect(await total(`vendor=${vendor}`)).toBe(1);
    await expectExact();
  });
});

describe('counts of other filters', () => {
  it('are run once for N concurrent readers after a write, not N times', async () => {
    const cache = ctx.app.listCache;
    const query = 'hostname__ic=vc-';
    await total(query);
    // A write, then any list of the table: this instance now knows its version moved on.
    const [first] = await db.selectFrom('devices').select('id').limit(1).execute();
    const patched = await ctx.as('admin', {
      method: 'PATCH',
      url: `/devices/${first?.id}`,
      payload: { rack_position: 'R2-U2' },
    });
    expect(patched.statusCode).toBe(200);
    await total('vendor=Cisco');
    const before = { ...cache.stats };
    const readers = 16;
    // Different pages of one filter: none can be answered from a rendered page.
    const totals = await Promise.all(
      Array.from({ length: readers }, (_, n) =>
        ctx
          .as('viewer', { method: 'GET', url: `/devices?${query}&limit=1&page=${n + 1}` })
          .then((response) => response.json<{ meta: { total_count: number } }>().meta.total_count),
      ),
    );
    const exact = Number(
      (
        await db
          .selectFrom('devices')
          .select(sql<number>`count(*)`.as('n'))
          .where('hostname', 'ilike', '%vc-%')
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(totals).toEqual(Array(readers).fill(exact));
    expect(cache.stats.totalsCounted - before.totalsCounted).toBe(1);
    expect(cache.stats.countsAwaited - before.countsAwaited).toBe(readers - 1);
    expect(cache.stats.totalsReused - before.totalsReused).toBe(readers - 1);
  });
});
