import type { Store } from '@netops/store';
import { CompiledQuery, sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyDatabase, Database } from '../src/db/schema.js';
import { FILTER_FIRST_ROWS } from '../src/resources/filter-frequencies.js';
import { resourceByName } from '../src/resources/index.js';
import { type ListRequest, listRows, plannedOnce, type SortKey } from '../src/resources/list.js';
import { ListCache } from '../src/resources/list-cache.js';
import type { Condition } from '../src/resources/lookups.js';
import {
  beforeEachStatement,
  type ExplainedRow,
  nodesOf,
  type PlanNode,
  rowsRead,
  storeWithDevices,
} from './query-plans.js';

/**
 * The common lists run on connections that plan each statement once for all its values
 * (withGenericPlans). That one plan must not read the whole table for the values it fits
 * worst: a rare pair of filters on a first page, or a page of rows past the deferred-join
 * offset. Pinned by the rows PostgreSQL reports its scans of `devices` produced and removed,
 * under `plan_cache_mode = force_generic_plan`, for the list's own statement.
 */

let store: Store<Database>;
let db: AnyDatabase;
const DEVICES = 4000;
const RARE = 20;
const NEWEST = 20;
const VENDORS = ['Cisco', 'Juniper', 'Arista', 'Nokia'];
const devices = resourceByName('devices');
if (!devices) throw new Error('no devices resource');
const definition = devices;

beforeAll(async () => {
  const device = (n: number, vendor: string, status: string) => ({
    id: uuidv7(),
    hostname: `gp-${String((n * 7919) % (DEVICES + RARE)).padStart(5, '0')}`,
    ip: '192.0.2.1',
    vendor,
    status,
    role: n % 2 === 0 ? 'core' : 'edge',
  });
  // Offline is common, and so is Cisco, but never together...
  const rows = Array.from({ length: DEVICES }, (_, n) => {
    const vendor = VENDORS[n % VENDORS.length] as string;
    return device(n, vendor, vendor !== 'Cisco' && n % 3 === 0 ? 'offline' : 'active');
  });
  // ...except for a few devices whose hostnames sort after every other Cisco device's.
  const rare = Array.from({ length: RARE }, (_, n) => ({
    ...device(DEVICES + n, 'Cisco', 'offline'),
    hostname: `gp-z${String(n).padStart(4, '0')}`,
  }));
  // And a vendor whose devices were all added last: they sit at the end of the table's order
  // and of the id's (ids are time-ordered).
  const newest = Array.from({ length: NEWEST }, (_, n) => ({
    ...device(DEVICES + RARE + n, 'Adtran', 'active'),
    hostname: `gp-y${String(n).padStart(4, '0')}`,
  }));
  ({ store, db } = await storeWithDevices([...rows, ...rare, ...newest]));
}, 120_000);
afterAll(() => store?.close());

/** A statement's value as a SQL literal (PREPARE infers each parameter's type, as Parse does). */
const literal = (value: unknown): string =>
  value === null || value === undefined ? 'NULL' : `'${String(value).replaceAll("'", "''")}'`;

/**
 * The database as the list sees it, explaining each of its statements before running it, with
 * the plan made once for any values (a prepared statement under force_generic_plan) or the one
 * made for its own (force_custom_plan).
 */
function explainingDatabase(db: AnyDatabase, plans: PlanNode[], mode: PlanMode): AnyDatabase {
  return beforeEachStatement(db, (target, query) =>
    target.transaction().execute(async (trx) => {
      await sql`SET LOCAL plan_cache_mode = ${sql.raw(mode)}`.execute(trx);
      await trx.executeQuery(CompiledQuery.raw(`PREPARE generic_list_probe AS ${query.sql}`));
      const values = query.parameters.map(literal).join(', ');
      const plan = await trx.executeQuery<ExplainedRow>(
        CompiledQuery.raw(
          `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE generic_list_probe(${values})`,
        ),
      );
      await sql`DEALLOCATE generic_list_probe`.execute(trx);
      plans.push(plan.rows[0]?.['QUERY PLAN'][0].Plan ?? { 'Node Type': 'none' });
    }),
  );
}

/** Plans made once for any values (the common lists'), or for each call's values (the rest). */
type PlanMode = 'force_generic_plan' | 'force_custom_plan';

async function list(
  request: ListRequest,
  on = db,
  cache = new ListCache(),
  mode: PlanMode = 'force_generic_plan',
) {
  const plans: PlanNode[] = [];
  const result = await listRows(explainingDatabase(on, plans, mode), cache, definition, request);
  expect(plans).toHaveLength(1);
  const plan = plans[0] ?? { 'Node Type': 'none' };
  return {
    result,
    read: rowsRead(plan),
    buffers: (plan['Shared Hit Blocks'] ?? 0) + (plan['Shared Read Blocks'] ?? 0),
    nodes: nodesOf(plan),
  };
}

const exact = (column: string, value: string): Condition => ({ column, operator: 'exact', value });

/** A page of ten, sorted by hostname, written as JSON text (ids and hostnames). */
const byHostname = (page: number, ...conditions: Condition[]): ListRequest => ({
  page,
  limit: 10,
  sort: [{ column: 'hostname', direction: 'asc' }],
  conditions,
  json: ['id', 'hostname'],
});

describe('lists planned once for all values', () => {
  it('read a rare pair of common filters from a covering index, not row by row from the table', async () => {
    const { result, read, buffers } = await list(
      byHostname(1, exact('status', 'offline'), exact('vendor', 'Cisco')),
    );
    expect(result.totalCount).toBe(RARE);
    expect(JSON.parse(result.json ?? '[]')).toEqual(
      Array.from({ length: 10 }, (_, n) =>
        expect.objectContaining({ hostname: `gp-z${String(n).padStart(4, '0')}` }),
      ),
    );
    // Whichever filter's index the plan walks, it passes about a thousand entries before the
    // pair's first row. From the covering index that is a few dozen pages; testing each entry
    // on its row in the table, a buffer per entry.
    expect(read).toBeGreaterThan(900);
    expect(buffers).toBeLessThan(300);
  });

  it('read a filter’s rows from its own index, not along an order the table is stored in', async () => {
    // The table's order follows the ids and the creation times, so PostgreSQL reckons a walk
    // along them reads the table in order, and for any values prefers it to the filter's
    // index. For the vendor added last, that walk passes every other device first.
    for (const sort of [[], [{ column: 'created_at', direction: 'asc' }]] as const) {
      for (const json of [['id', 'hostname'], undefined]) {
        const { result, read } = await list({
          page: 1,
          limit: 10,
          sort,
          conditions: [exact('vendor', 'Adtran')],
          ...(json ? { json } : {}),
        });
        expect(result.totalCount).toBe(NEWEST);
        const rows = json ? JSON.parse(result.json ?? '[]') : result.rows;
        expect(rows.map((row: { hostname: string }) => row.hostname)).toEqual(
          Array.from({ length: 10 }, (_, n) => `gp-y${String(n).padStart(4, '0')}`),
        );
        // The page's eleven entries of the vendor's index and its rows by id.
        expect(read, JSON.stringify({ sort, json })).toBeLessThan(50);
      }
    }
  });

  it('read a deep page of rows by id, not by hashing the whole table', async () => {
    const { result, read } = await list({
      page: 101,
      limit: 10,
      sort: [{ column: 'hostname', direction: 'asc' }],
      conditions: [{ column: 'status', operator: 'exact', value: 'active' }],
    });
    expect(result.rows).toHaveLength(10);
    // The walk to the page (1,000 index entries and the page's 11) and the page's rows by id.
    expect(read).toBeLessThan(1000 + 11 + 11 + 50);
  });
});

describe('lists by a common sort on several keys', () => {
  const modelThenName: SortKey[] = [
    { column: 'model', direction: 'asc' },
    { column: 'hostname', direction: 'desc' },
  ];
  const reversed: SortKey[] = [
    { column: 'model', direction: 'desc' },
    { column: 'hostname', direction: 'asc' },
  ];
  const vendor = [exact('vendor', 'Adtran')];

  it('are planned once as declared and all reversed, not with one key turned', () => {
    expect(plannedOnce(definition, vendor, [], modelThenName)).toBe(true);
    expect(plannedOnce(definition, vendor, [], reversed)).toBe(true);
    expect(plannedOnce(definition, [], [], reversed)).toBe(true);
    // Another order of the same columns is another sort, which no index of theirs serves.
    expect(
      plannedOnce(definition, vendor, [], [modelThenName[0] as SortKey, reversed[1] as SortKey]),
    ).toBe(false);
    expect(plannedOnce(definition, vendor, [], modelThenName.toReversed())).toBe(false);
    expect(plannedOnce(definition, vendor, [], [modelThenName[0] as SortKey])).toBe(false);
  });

  it.each([
    ['as declared', modelThenName],
    ['reversed', reversed],
  ])(
    'read a filter’s page %s from its index in a plan made once for any value',
    async (_, sort) => {
      const { result, read, nodes } = await list({
        page: 1,
        limit: 10,
        sort,
        conditions: vendor,
        json: ['id', 'hostname'],
      });
      expect(result.totalCount).toBe(NEWEST);
      // No model is set: the hostname alone orders them, descending as declared.
      const names = Array.from({ length: NEWEST }, (_, n) => `gp-y${String(n).padStart(4, '0')}`);
      expect(
        JSON.parse(result.json ?? '[]').map((row: { hostname: string }) => row.hostname),
      ).toEqual((sort === reversed ? names : names.toReversed()).slice(0, 10));
      expect(nodes.map((node) => node['Index Name'])).toContain(
        'devices_vendor_model_hostname_desc_list_idx',
      );
      expect(nodes.map((node) => node['Node Type'])).not.toContain('Incremental Sort');
      expect(read).toBeLessThan(50);
    },
  );
});

describe('pages that start at or past the end of their list', () => {
  // A deep page walks to its first row along the list's order (readList). Asked for a page
  // past the last matching row, the walk used to pass every matching row, or for a sort no
  // index serves with the filters the whole index of the sort, to find nothing. The statement
  // reads the exact total first and runs the walk only when the page starts before it.
  const offline = [exact('status', 'offline'), exact('vendor', 'Cisco')];
  it.each(['force_generic_plan', 'force_custom_plan'] as const)(
    'read no row when the total is maintained (%s)',
    async (mode) => {
      // The pair's 20 devices, kept by its value counter: page 15 of ten starts at 140.
      const { result, read } = await list(byHostname(15, ...offline), db, new ListCache(), mode);
      expect(result.totalCount).toBe(RARE);
      expect(JSON.parse(result.json ?? 'null')).toEqual([]);
      expect(result.nextKey).toBeUndefined();
      // Walked, the covering index's 1,000 entries before the pair's rows, and then theirs.
      expect(read).toBe(0);
    },
  );

  it.each(['force_generic_plan', 'force_custom_plan'] as const)(
    'read no row for the first page of an empty list whose total is maintained (%s)',
    async (mode) => {
      // Adtran's devices are all active: no device matches, which the pair's counter says, and
      // the triple's. A first page along an order no index serves with these filters walked the
      // whole last-seen index to find nothing; two tags no device shares walked the primary key.
      const none = [exact('status', 'offline'), exact('vendor', 'Adtran')];
      for (const conditions of [none, [...none, exact('role', 'core')]]) {
        for (const sort of [
          [{ column: 'last_seen', direction: 'desc' }],
          [{ column: 'hostname', direction: 'asc' }],
          [],
        ] as const) {
          const request = { page: 1, limit: 10, sort, conditions, json: ['id', 'hostname'] };
          const { result, read } = await list(request, db, new ListCache(), mode);
          expect(result.totalCount).toBe(0);
          expect(JSON.parse(result.json ?? 'null')).toEqual([]);
          expect(read, JSON.stringify(request)).toBe(0);
        }
      }
    },
  );

  it.each(['force_generic_plan', 'force_custom_plan'] as const)(
    'read only what the count reads when it must be counted, and the last page whole (%s)',
    async (mode) => {
      // No counter holds `ip`: every device has this address, and the total is counted.
      const everyDevice = exact('ip', '192.0.2.1');
      const all = DEVICES + RARE + NEWEST;
      const hostnames = await sql<{ hostname: string }>`
        SELECT hostname FROM devices ORDER BY hostname DESC LIMIT 10`.execute(db);
      const lastPage = Math.ceil(all / 10);
      const last = await list(byHostname(lastPage, everyDevice), db, new ListCache(), mode);
      expect(last.result.totalCount).toBe(all);
      expect(
        JSON.parse(last.result.json ?? '[]').map((row: { hostname: string }) => row.hostname),
      ).toEqual(hostnames.rows.map((row) => row.hostname).reverse());
      expect(last.result.nextKey).toBeUndefined();
      const past = await list(byHostname(lastPage + 1, everyDevice), db, new ListCache(), mode);
      expect(past.result.totalCount).toBe(all);
      expect(JSON.parse(past.result.json ?? 'null')).toEqual([]);
      // The count's rows; the walk would have read every one of them again.
      expect(past.read).toBeLessThanOrEqual(all + 50);
    },
  );
});

describe('lists sorted by a unique column that is never null', () => {
  // No two devices share a hostname, so a sort by hostname needs no id to break ties: its
  // unique constraint's index orders the rows alone, and no `(hostname, id)` index costs every
  // write of a device an entry (list.ts, orderOf; migration 023).
  it.each(['asc', 'desc'] as const)(
    'order by it alone, read from its unique index, on a first page, a cursor’s and a deep one (%s)',
    async (direction) => {
      const all = await sql<{ hostname: string }>`
        SELECT hostname FROM devices ORDER BY hostname ${sql.raw(direction)}`.execute(db);
      const hostnames = all.rows.map((row) => row.hostname);
      const sort = [{ column: 'hostname', direction }] as const;
      const cache = new ListCache();
      const page = (request: Partial<ListRequest>) =>
        list(
          { page: 1, limit: 10, sort, conditions: [], json: ['id', 'hostname'], ...request },
          db,
          cache,
        );
      const first = await page({});
      const next = await page({ after: first.result.nextKey });
      // Deep enough to walk (list-cache.ts): from the start, then from the position map.
      const deep = await page({ page: 151 });
      const deeper = await page({ page: 152 });
      const pages = [
        [first, 0],
        [next, 10],
        [deep, 1500],
        [deeper, 1510],
      ] as const;
      for (const [{ result, nodes }, offset] of pages) {
        expect(
          JSON.parse(result.json ?? '[]').map((row: { hostname: string }) => row.hostname),
        ).toEqual(hostnames.slice(offset, offset + 10));
        const names = nodes.map((node) => node['Index Name']).filter(Boolean);
        expect(names, String(offset)).toContain('devices_hostname_key');
        if (offset >= 1500) {
          // A walk reads what orders the rows and their ids from the index alone (its INCLUDE).
          const walked = nodes.filter((node) => node['Index Name'] === 'devices_hostname_key');
          expect(walked.map((node) => node['Node Type'])).toEqual(['Index Only Scan']);
        }
        // No sort of the rows walked, only of a few as the JSON is joined: the page's, and the
        // block ends a walk passed for the position map (one per hundred rows).
        const sorted = nodes
          .filter((node) => node['Node Type'].includes('Sort'))
          .map((node) => node['Actual Rows'] ?? Number.POSITIVE_INFINITY);
        expect(Math.max(0, ...sorted), String(offset)).toBeLessThanOrEqual(16);
      }
      expect(cache.stats.walksFromPosition).toBe(1);
      const tieBreakers = await sql<{ indexname: string }>`
        SELECT indexname FROM pg_indexes
        WHERE tablename = 'devices' AND indexdef LIKE '%(hostname, id)%'`.execute(db);
      expect(tieBreakers.rows).toEqual([]);
    },
  );
});

describe('lists filtered by a substring', () => {
  // `hostname__ic`: the devices whose hostname holds `z00` are 20 that sort after all the
  // others and come last in id order. PostgreSQL cannot count a substring's matches before
  // planning: walking the hostname index (or the primary key) testing each row, it passed every
  // device to fill a page. The list statement reads the exact total first and, when it is small
  // (FILTER_FIRST_ROWS), the matching rows through the trigram index (list.ts,
  // matchedByTrigrams); a substring of more rows than that walks the sort as before.
  const COMMON = FILTER_FIRST_ROWS + 1000;
  let substringStore: Store<Database>;
  let substringDb: AnyDatabase;
  beforeAll(async () => {
    const device = (n: number, hostname: string) => ({
      id: uuidv7(),
      hostname,
      ip: '192.0.2.1',
      vendor: VENDORS[n % VENDORS.length] as string,
      status: 'active',
    });
    const common = Array.from({ length: COMMON }, (_, n) =>
      device(n, `sub-${String((n * 7919) % COMMON).padStart(5, '0')}`),
    );
    const rare = Array.from({ length: RARE }, (_, n) =>
      device(n, `sub-z${String(n).padStart(4, '0')}`),
    );
    ({ store: substringStore, db: substringDb } = await storeWithDevices([...common, ...rare]));
  }, 120_000);
  afterAll(() => substringStore?.close());

  const rare: Condition = { column: 'hostname', operator: 'ic', value: 'z00' };
  const everyDevice: Condition = { column: 'hostname', operator: 'ic', value: 'sub-' };
  const inIdOrder = (...conditions: Condition[]): ListRequest => ({
    ...byHostname(1, ...conditions),
    sort: [],
  });
  const hostnamesOf = (json: string | undefined) =>
    JSON.parse(json ?? '[]').map((row: { hostname: string }) => row.hostname);
  const rareHostnames = Array.from({ length: 10 }, (_, n) => `sub-z${String(n).padStart(4, '0')}`);

  it.each(['force_custom_plan', 'force_generic_plan'] as const)(
    'read a rare one’s few rows, not every device along the sort (%s)',
    async (mode) => {
      for (const request of [byHostname(1, rare), inIdOrder(rare)]) {
        const { result, read } = await list(request, substringDb, new ListCache(), mode);
        expect(result.totalCount).toBe(RARE);
        expect(hostnamesOf(result.json)).toEqual(rareHostnames);
        // The count's matches and the page's: a few dozen rows, where a walk passes 6,020.
        expect(read, JSON.stringify(request.sort)).toBeLessThan(200);
      }
    },
  );

  it('page deep into a substring’s rows, walked from the start and then from the position map', async () => {
    // `sub-01`: the 1,000 devices sub-01000 to sub-01999, few enough to read first.
    const some: Condition = { column: 'hostname', operator: 'ic', value: 'sub-01' };
    const cache = new ListCache();
    for (const page of [31, 32]) {
      const { result, read } = await list(byHostname(page, some), substringDb, cache);
      expect(result.totalCount).toBe(1000);
      expect(hostnamesOf(result.json)).toEqual(
        Array.from({ length: 10 }, (_, n) => `sub-0${1300 + (page - 31) * 10 + n}`),
      );
      // The count's 1,000 matches (once) and the walk's, never the other 5,020 devices.
      expect(read).toBeLessThanOrEqual(2 * 1000 + 50);
    }
    expect(cache.stats.walksFromPosition).toBe(1);
  });

  // Planned once for any pattern too (substringsPlannedOnce): a plan made for any pattern
  // reckons with few matches, and would read them all through the trigram index, but on the way
  // along the sort the substring is only tested (`IS TRUE`), never looked up.
  it.each(['force_custom_plan', 'force_generic_plan'] as const)(
    'walk the sort for a common one, reading no more than its count does (%s)',
    async (mode) => {
      const all = COMMON + RARE;
      const hostnames = await sql<{ hostname: string }>`
        SELECT hostname FROM devices ORDER BY hostname LIMIT 20`.execute(substringDb);
      const cache = new ListCache();
      const first = await list(byHostname(1, everyDevice), substringDb, cache, mode);
      expect(first.result.totalCount).toBe(all);
      expect(hostnamesOf(first.result.json)).toEqual(
        hostnames.rows.slice(0, 10).map((row) => row.hostname),
      );
      // The count reads every device; the page, its own eleven rows along the hostname index.
      expect(first.read).toBeLessThanOrEqual(all + 50);
      // The total now held (the next page's), the page alone: no row beyond the walk's.
      const next = await list(byHostname(2, everyDevice), substringDb, cache, mode);
      expect(next.result.totalCount).toBe(all);
      expect(hostnamesOf(next.result.json)).toEqual(
        hostnames.rows.slice(10, 20).map((row) => row.hostname),
      );
      expect(next.read).toBeLessThanOrEqual(50);
    },
  );
});

describe('lists with several filters planned once', () => {
  // Roles of many values, one of them on most devices; vendors of two, one of them rare. A plan
  // made for any values takes a role for the rarer filter (1 of 13 values against 1 of 2) and
  // walks the role's index, but for `access` that is nine devices in ten.
  let leadStore: Store<Database>;
  let leadDb: AnyDatabase;
  const LEAD_DEVICES = 4000;
  const ROLES = Array.from({ length: 12 }, (_, n) => `role-${n}`);
  const leadRows = Array.from({ length: LEAD_DEVICES }, (_, n) => ({
    id: uuidv7(),
    hostname: `fl-${String((n * 7919) % LEAD_DEVICES).padStart(5, '0')}`,
    ip: '192.0.2.1',
    role: n % 10 === 0 ? (ROLES[(n / 10) % ROLES.length] as string) : 'access',
    vendor: n % 10 === 3 || n % 10 === 7 ? 'Adtran' : 'Cisco',
  }));

  beforeAll(async () => {
    ({ store: leadStore, db: leadDb } = await storeWithDevices(leadRows));
  }, 120_000);
  afterAll(() => leadStore?.close());

  const page = (number: number) =>
    byHostname(number, exact('role', 'access'), exact('vendor', 'Adtran'));
  const expected = (number: number) =>
    leadRows
      .filter((row) => row.role === 'access' && row.vendor === 'Adtran')
      .map((row) => row.hostname)
      .sort()
      .slice((number - 1) * 10, number * 10);

  it('walk the index of the filter the value counters say matches fewest rows', async () => {
    // Off, the cache keeps no position map that would shorten the second walk; it still keeps
    // the counts that choose the leading filter.
    const cache = new ListCache(false);
    // Before the counts are read the plan is PostgreSQL's choice: the role's index.
    const unled = await list(page(13), leadDb, cache);
    await cache.frequencies.read(leadDb, 'devices');
    expect(cache.frequencies.leadOf(leadDb, 'devices', page(13).conditions)).toBe('vendor');
    // A vendor no device has leads; a column without counters leaves the choice to PostgreSQL.
    const lead = (...conditions: Condition[]) =>
      cache.frequencies.leadOf(leadDb, 'devices', conditions);
    expect(lead(exact('role', 'access'), exact('vendor', 'Nobody'))).toBe('vendor');
    expect(lead(exact('vendor', 'Adtran'), exact('model', 'MX204'))).toBeUndefined();
    const led = await list(page(13), leadDb, cache);
    for (const { result } of [unled, led]) {
      expect(result.totalCount).toBe(800);
      expect(
        JSON.parse(result.json ?? '[]').map((row: { hostname: string }) => row.hostname),
      ).toEqual(expected(13));
    }
    // Page 13 is rows 121 to 130 of the 800 Adtran access devices: about 600 entries of the
    // role's index come before its end (one access device in 4.5 is an Adtran), 130 of the
    // vendor's (every Adtran device is an access one).
    expect(unled.read).toBeGreaterThan(500);
    expect(led.read).toBeLessThan(250);
  });
});
