import type { Store } from '@netops/store';
import { CompiledQuery, sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AnyDatabase, Database } from '../src/db/schema.js';
import { resourceByName } from '../src/resources/index.js';
import { type ListRequest, listRows } from '../src/resources/list.js';
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
 * Lists planned for their values (a sort on two fields, a sort no declared index serves with the
 * filters, tags): what PostgreSQL reads for them, from the plans of the list's own statements.
 */

let store: Store<Database>;
let db: AnyDatabase;
const devices = resourceByName('devices');
if (!devices) throw new Error('no devices resource');
const definition = devices;

// Most devices are Cisco's, with models and systems early in their order; Adtran's few devices
// have models and systems that sort after every other one, as a vendor's own names sit together.
const DEVICES = 6000;
const ADTRAN_EVERY = 40;
const rows = Array.from({ length: DEVICES }, (_, n) => {
  const adtran = n % ADTRAN_EVERY === 0;
  return {
    id: uuidv7(),
    hostname: `pv-${String((n * 7919) % DEVICES).padStart(5, '0')}`,
    ip: '192.0.2.1',
    vendor: adtran ? 'Adtran' : 'Cisco',
    model: adtran ? `z-${n % 3}` : `c-${String(n % 50).padStart(2, '0')}`,
    os: adtran ? `z-os-${n % 3}` : `c-os-${String(n % 50).padStart(2, '0')}`,
    role: n % 3 === 0 ? 'core' : 'edge',
    // Adtran's devices alone carry `edge`: a tag whose rows sit at the far end of the OS order.
    tags: adtran ? ['dc1', 'edge', 'prod'] : n % 2 === 0 ? ['dc1', 'prod'] : ['dc2'],
  };
});
const ADTRAN = rows.filter((row) => row.vendor === 'Adtran');

beforeAll(async () => {
  ({ store, db } = await storeWithDevices(rows));
}, 120_000);
afterAll(() => store?.close());

/**
 * The database as the list sees it, explaining each statement it sends (with its values) before
 * running it; with sequential scans priced out, so a plan that still has one could use no index.
 */
function explainingDatabase(on: AnyDatabase, plans: PlanNode[], noSeqScan = false): AnyDatabase {
  return beforeEachStatement(on, (target, query) =>
    target.transaction().execute(async (trx) => {
      if (noSeqScan) await sql`SET LOCAL enable_seqscan = off`.execute(trx);
      const plan = await trx.executeQuery<ExplainedRow>(
        CompiledQuery.raw(
          `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${query.sql}`,
          query.parameters as unknown[],
        ),
      );
      plans.push(plan.rows[0]?.['QUERY PLAN'][0].Plan ?? { 'Node Type': 'none' });
    }),
  );
}

async function list(request: ListRequest, cache = new ListCache(false), noSeqScan = false) {
  const plans: PlanNode[] = [];
  const result = await listRows(
    explainingDatabase(db, plans, noSeqScan),
    cache,
    definition,
    request,
  );
  expect(plans).toHaveLength(1);
  const plan = plans[0] ?? { 'Node Type': 'none' };
  return { result, plan, read: rowsRead(plan) };
}

const exact = (column: string, value: string): Condition => ({ column, operator: 'exact', value });
const tags = (...values: string[]): Condition => ({
  column: 'tags',
  operator: 'all',
  value: values,
});

const hostnames = (json: string | undefined) =>
  JSON.parse(json ?? '[]').map((row: { hostname: string }) => row.hostname);

/** The first page of ten by `column` ascending, then hostname descending, as JSON text. */
const byThenNameDescending =
  (column: string) =>
  (...conditions: Condition[]): ListRequest => ({
    page: 1,
    limit: 10,
    sort: [
      { column, direction: 'asc' },
      { column: 'hostname', direction: 'desc' },
    ],
    conditions,
    json: ['id', 'hostname'],
  });

describe('a list whose sort no index serves with its filter', () => {
  // By operating system, then hostname descending: a sort of two keys no index serves with a
  // filter (the OS's own index carries the filters, but not the hostname).
  const byOs = byThenNameDescending('os');
  const expected = ADTRAN.toSorted(
    (a, b) => a.os.localeCompare(b.os) || b.hostname.localeCompare(a.hostname),
  )
    .slice(0, 10)
    .map((row) => row.hostname);

  it('reads the rows of a filter matching few, then sorts them, instead of walking the sort', async () => {
    const cache = new ListCache(false);
    // Before the counts are read the plan is PostgreSQL's: it walks the OS index, reckoning on
    // one Adtran device in forty along it, and passes every Cisco system first.
    const walked = await list(byOs(exact('vendor', 'Adtran')), cache);
    await cache.frequencies.read(db, 'devices');
    expect(cache.frequencies.fewestRows(db, 'devices', [exact('vendor', 'Adtran')])).toBe(
      ADTRAN.length,
    );
    const filtered = await list(byOs(exact('vendor', 'Adtran')), cache);
    for (const { result } of [walked, filtered]) {
      expect(result.totalCount).toBe(ADTRAN.length);
      expect(hostnames(result.json)).toEqual(expected);
    }
    expect(walked.read).toBeGreaterThan(DEVICES / 2);
    // Adtran's rows from the vendor's index, then the page's ten by id.
    expect(filtered.read).toBeLessThan(ADTRAN.length + 50);
  });

  it('takes a pair counter for the rows two filters match together', async () => {
    const cache = new ListCache(false);
    await cache.frequencies.read(db, 'devices');
    const pair = rows.filter((row) => row.vendor === 'Adtran' && row.role === 'core').length;
    expect(pair).toBeLessThan(ADTRAN.length);
    expect(
      cache.frequencies.fewestRows(db, 'devices', [
        exact('role', 'core'),
        exact('vendor', 'Adtran'),
      ]),
    ).toBe(pair);
    // Two tags of one list are a pair too, and a pair no device has holds none.
    expect(cache.frequencies.fewestRows(db, 'devices', [tags('prod', 'dc1')])).toBe(DEVICES / 2);
    expect(cache.frequencies.fewestRows(db, 'devices', [tags('dc2', 'prod')])).toBe(0);
    // A value no device has matches none; a column without counters fixes nothing.
    expect(cache.frequencies.fewestRows(db, 'devices', [exact('vendor', 'Nobody')])).toBe(0);
    expect(cache.frequencies.fewestRows(db, 'devices', [exact('model', 'z-1')])).toBeUndefined();
  });

  it('keeps the walk when the sort starts with the filtered column', async () => {
    const cache = new ListCache(false);
    await cache.frequencies.read(db, 'devices');
    const { result, read } = await list(
      {
        ...byOs(exact('vendor', 'Adtran')),
        sort: [
          { column: 'vendor', direction: 'asc' },
          { column: 'hostname', direction: 'asc' },
        ],
      },
      cache,
    );
    expect(hostnames(result.json)).toEqual(
      ADTRAN.map((row) => row.hostname)
        .sort()
        .slice(0, 10),
    );
    // The (vendor, hostname) list index serves it: the page and the row after it.
    expect(read).toBeLessThan(30);
  });
});

describe('a list whose sort has an index holding its filters', () => {
  // By operating system alone: the OS's own index, (os, id), holds the common filters (migration
  // 025), so a walk along it tests the role on each entry without reading the table.
  const byOsAlone = (...conditions: Condition[]): ListRequest => ({
    page: 1,
    limit: 10,
    sort: [{ column: 'os', direction: 'asc' }],
    conditions,
    json: ['id', 'hostname'],
  });
  const CORE = rows.filter((row) => row.role === 'core');

  it('walks that index for a filter matching many rows, rather than reading them all first', async () => {
    const cache = new ListCache(false);
    await cache.frequencies.read(db, 'devices');
    expect(cache.frequencies.fewestRows(db, 'devices', [exact('role', 'core')])).toBe(CORE.length);
    // Few enough to be read first (FILTER_FIRST_ROWS), yet a third of the table: the page's ten
    // come after about thirty entries of the index.
    expect(CORE.length).toBeLessThan(5000);
    const inOrder = CORE.toSorted((a, b) => a.os.localeCompare(b.os) || a.id.localeCompare(b.id));
    const first = await list(byOsAlone(exact('role', 'core')), cache);
    expect(first.result.totalCount).toBe(CORE.length);
    expect(hostnames(first.result.json)).toEqual(inOrder.slice(0, 10).map((row) => row.hostname));
    // The entries passed and the page's rows, not the 2,000 core devices.
    expect(first.read).toBeLessThan(100);
    // Page 20 walks to its rows (list.ts): along the index alone, about 600 entries.
    const deep = await list({ ...byOsAlone(exact('role', 'core')), page: 20 }, cache);
    expect(hostnames(deep.result.json)).toEqual(inOrder.slice(190, 200).map((row) => row.hostname));
    const walked = nodesOf(deep.plan).filter((node) => node['Index Name'] === 'devices_os_idx');
    expect(walked.map((node) => node['Node Type'])).toEqual(['Index Only Scan']);
    expect(deep.read).toBeLessThan(CORE.length / 2);
  });

  it('walks it for a tag the index does not hold when the page comes after a few rows', async () => {
    const cache = new ListCache(false);
    await cache.frequencies.read(db, 'devices');
    const dc1 = rows.filter((row) => row.tags.includes('dc1'));
    const inOrder = dc1.toSorted((a, b) => a.os.localeCompare(b.os) || a.id.localeCompare(b.id));
    const { result, read } = await list(byOsAlone(tags('dc1')), cache);
    expect(result.totalCount).toBe(DEVICES / 2);
    expect(hostnames(result.json)).toEqual(inOrder.slice(0, 10).map((row) => row.hostname));
    // Every other device carries it: the walk reads about twenty rows from the table to find the
    // page's ten, where reading the tag's rows first read all 3,000 of them.
    expect(read).toBeLessThan(100);
  });

  it('still reads first the rows of a rare tag the walk would find only at the far end', async () => {
    const cache = new ListCache(false);
    // Before the counts are read the plan is PostgreSQL's: one device in forty carries the tag,
    // so it walks the OS index expecting the page after 400 rows, and passes every Cisco system.
    const walked = await list(byOsAlone(tags('edge')), cache);
    await cache.frequencies.read(db, 'devices');
    const filtered = await list(byOsAlone(tags('edge')), cache);
    const expected = ADTRAN.toSorted((a, b) => a.os.localeCompare(b.os) || a.id.localeCompare(b.id))
      .slice(0, 10)
      .map((row) => row.hostname);
    for (const { result } of [walked, filtered]) {
      expect(result.totalCount).toBe(ADTRAN.length);
      expect(hostnames(result.json)).toEqual(expected);
    }
    expect(walked.read).toBeGreaterThan(DEVICES / 2);
    expect(filtered.read).toBeLessThan(ADTRAN.length + 50);
  });
});

describe('a list filtered by a tag and a vendor, in an order the vendor’s index serves', () => {
  // By hostname: `(vendor, hostname, id)` serves the order within a vendor's rows (migration
  // 025), but holds no tag, so a walk along it reads each row it passes from the table.
  const byHostname = (page: number): ListRequest => ({
    page,
    limit: 10,
    sort: [{ column: 'hostname', direction: 'asc' }],
    conditions: [tags('prod'), exact('vendor', 'Cisco')],
    json: ['id', 'hostname'],
  });
  const matching = rows
    .filter((row) => row.vendor === 'Cisco' && row.tags.includes('prod'))
    .map((row) => row.hostname)
    .sort();

  it.each([
    [1, 100],
    [20, 600],
  ])(
    'walks the vendor’s rows to page %i rather than reading every match first',
    async (page, most) => {
      const cache = new ListCache(false);
      await cache.frequencies.read(db, 'devices');
      // Few enough to be read first (FILTER_FIRST_ROWS): 2,850 devices.
      expect(
        cache.frequencies.fewestRows(db, 'devices', [tags('prod'), exact('vendor', 'Cisco')]),
      ).toBe(matching.length);
      const { result, read } = await list(byHostname(page), cache);
      expect(result.totalCount).toBe(matching.length);
      expect(hostnames(result.json)).toEqual(matching.slice((page - 1) * 10, page * 10));
      // Half of Cisco's devices carry the tag: about two rows passed for each one the page needs.
      expect(read).toBeLessThan(most);
    },
  );
});

describe('a list by a common sort on several keys', () => {
  const byModelThenName = byThenNameDescending('model');
  const expectedOf = (vendor: string) =>
    rows
      .filter((row) => row.vendor === vendor)
      .sort((a, b) => a.model.localeCompare(b.model) || b.hostname.localeCompare(a.hostname))
      .slice(0, 10)
      .map((row) => row.hostname);

  it.each(['Adtran', 'Cisco'])(
    'reads the page of %s from the filter’s index for that sort, however many devices it has',
    async (vendor) => {
      // Declared in the definition (commonLists.sorts), the sort has an index per common filter
      // (migration 026): the page is a range of it, whatever the counts say.
      const { result, read } = await list(byModelThenName(exact('vendor', vendor)));
      expect(hostnames(result.json)).toEqual(expectedOf(vendor));
      expect(result.totalCount).toBe(rows.filter((row) => row.vendor === vendor).length);
      // The page and the row after it, and each of them again by id.
      expect(read).toBeLessThan(30);
    },
  );
});

describe('the value counts a list is weighed by', () => {
  /** The database, counting the statements that read the value counts. */
  function countingCountReads(on: AnyDatabase) {
    const counted = { reads: 0 };
    const watched = on.withPlugin({
      transformQuery: (args) => {
        const node = args.node as { kind: string; sqlFragments?: readonly string[] };
        if (node.kind === 'RawNode' && node.sqlFragments?.some((t) => t.includes('value_counts'))) {
          counted.reads++;
        }
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    return { watched, counted };
  }
  const byModel = (...conditions: Condition[]): ListRequest => ({
    page: 1,
    limit: 10,
    sort: [{ column: 'model', direction: 'asc' }],
    conditions,
  });

  it('are not read for a list that fixes no counted value', async () => {
    const { watched, counted } = countingCountReads(db);
    const cache = new ListCache(false);
    await listRows(watched, cache, definition, byModel());
    await listRows(watched, cache, definition, byModel(exact('hostname', 'pv-00001')));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(counted.reads).toBe(0);
    // A counted value to weigh reads them, in the background, once.
    await listRows(watched, cache, definition, byModel(exact('vendor', 'Adtran')));
    await listRows(watched, cache, definition, byModel(exact('vendor', 'Cisco')));
    await vi.waitFor(() =>
      expect(cache.frequencies.fewestRows(db, 'devices', [exact('vendor', 'Adtran')])).toBe(
        ADTRAN.length,
      ),
    );
    expect(counted.reads).toBe(1);
  });
});

describe('the total of a list filtered by tags', () => {
  it.each([
    ['one tag', [tags('prod')], DEVICES / 2],
    ['two tags', [tags('prod', 'dc1')], DEVICES / 2],
    ['a tag and a vendor', [tags('prod'), exact('vendor', 'Adtran')], DEVICES / ADTRAN_EVERY],
  ])('is read from its counter by the counter key (%s)', async (_, conditions, total) => {
    const { result, plan } = await list(
      { page: 1, limit: 5, sort: [], conditions, json: ['id'] },
      new ListCache(false),
      true,
    );
    expect(result.totalCount).toBe(total);
    // A key of another collation than the counters' primary key cannot be its index's
    // condition: PostgreSQL then reads every counter of the table to find it.
    const counters = nodesOf(plan).filter((node) => node['Relation Name'] === 'value_counts');
    expect(counters.length).toBeGreaterThan(0);
    for (const node of counters) expect(node['Index Cond'] ?? '').toMatch(/\bkey = /);
  });
});
