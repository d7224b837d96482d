import type { Store } from '@netops/store';
import { openTestStore } from '@netops/store/testing';
import { CompiledQuery, sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyDatabase } from '../src/db/schema.js';
import { type Database, MIGRATIONS_FOLDER } from '../src/db/schema.js';
import { resourceByName } from '../src/resources/index.js';
import { type ListRequest, listRows } from '../src/resources/list.js';
import { ListCache } from '../src/resources/list-cache.js';
import { beforeEachStatement, type ExplainedRow, nodesOf, type PlanNode } from './query-plans.js';

/**
 * Position maps (list-cache.ts): a page deep in a list walks from the last row of the nearest
 * block an earlier page's walk passed, at the same version of the table, instead of from the
 * list's start. Pinned by the rows PostgreSQL reports its scans of the table and its indexes
 * produced (EXPLAIN ANALYZE of the list's own statement), and by the pages being exactly the rows a full sort gives, through writes the
 * instance saw and writes it did not.
 */

let store: Store<Database>;
let db: AnyDatabase;
const DEVICES = 1500;
const devices = resourceByName('devices');

interface Device {
  id: string;
  hostname: string;
  status: string;
  vendor: string | null;
}
const VENDORS = ['Cisco', 'Juniper', 'Arista'];
let rows: Device[] = [];

beforeAll(async () => {
  store = await openTestStore<Database>({ migrations: MIGRATIONS_FOLDER });
  db = store.db as AnyDatabase;
  rows = Array.from({ length: DEVICES }, (_, n) => ({
    id: uuidv7(),
    // Out of id order, so that sorting by hostname is not sorting by id.
    hostname: `pm-${String((n * 7919) % DEVICES).padStart(5, '0')}`,
    status: n % 5 === 0 ? 'offline' : 'active',
    // Ties and nulls in a sort column: positions must place them as PostgreSQL orders them.
    vendor: n % 7 === 0 ? null : (VENDORS[n % 3] as string),
  }));
  for (let start = 0; start < rows.length; start += 500) {
    await db
      .insertInto('devices')
      .values(rows.slice(start, start + 500).map((row) => ({ ...row, ip: '192.0.2.1' })))
      .execute();
  }
}, 120_000);
afterAll(() => store?.close());

if (!devices) throw new Error('no devices resource');
const definition = devices;

/** Rows the scans of `devices` (table or index) produced, over every loop. */
const rowsScanned = (plan: PlanNode): number =>
  nodesOf(plan)
    .filter((node) => node['Relation Name'] === 'devices')
    .reduce((sum, node) => sum + (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1), 0);

/**
 * The database as the list sees it, explaining each statement before running it: the rows its
 * scans of the table produced go to `scanned`, its plan to `plans`.
 */
function explainingDatabase(scanned: number[], plans: PlanNode[] = []): AnyDatabase {
  return beforeEachStatement(db, async (target, query) => {
    const explained = await target.executeQuery<ExplainedRow>(
      CompiledQuery.raw(`EXPLAIN (ANALYZE, FORMAT JSON) ${query.sql}`, [...query.parameters]),
    );
    const plan = explained.rows[0]?.['QUERY PLAN'][0].Plan ?? { 'Node Type': 'none' };
    plans.push(plan);
    scanned.push(rowsScanned(plan));
  });
}

type Sort = { column: 'hostname' | 'vendor'; direction: 'asc' | 'desc' };
const BY_HOSTNAME: Sort = { column: 'hostname', direction: 'desc' };

const request = (page: number, status?: string, sort = BY_HOSTNAME): ListRequest => ({
  page,
  limit: 10,
  sort: [sort],
  conditions: status ? [{ column: 'status', operator: 'exact', value: status }] : [],
  json: ['id', 'hostname'],
});

/** Adds an active device behind the list cache's back (it sees the write only in a statement). */
async function addDevice(hostname: string) {
  const device = { id: uuidv7(), hostname, status: 'active', vendor: null };
  await db
    .insertInto('devices')
    .values({ ...device, ip: '192.0.2.2' })
    .execute();
  rows = [...rows, device];
}

/** PostgreSQL's order: nulls last ascending, first descending; ties by id the same way. */
function compare(a: Device, b: Device, { column, direction }: Sort) {
  const [x, y] = [a[column], b[column]];
  let order = 0;
  if (x !== y) order = x === null ? 1 : y === null ? -1 : x < y ? -1 : 1;
  else order = a.id < b.id ? -1 : 1;
  return direction === 'asc' ? order : -order;
}

/** The page as a full sort of every row gives it. */
function expected(page: number, status?: string, sort = BY_HOSTNAME) {
  return rows
    .filter((row) => status === undefined || row.status === status)
    .sort((a, b) => compare(a, b, sort))
    .slice((page - 1) * 10, page * 10)
    .map((row) => ({ id: row.id, hostname: row.hostname }));
}

async function read(cache: ListCache, page: number, status?: string, sort = BY_HOSTNAME) {
  const scanned: number[] = [];
  const result = await listRows(
    explainingDatabase(scanned),
    cache,
    definition,
    request(page, status, sort),
  );
  expect(JSON.parse(result.json ?? 'null')).toEqual(expected(page, status, sort));
  return { scanned, total: result.totalCount };
}

describe('position maps', () => {
  it('start a deep page from the nearest block an earlier walk passed, scanning a fraction', async () => {
    const cache = new ListCache();
    const first = await read(cache, 140); // offset 1390: walks 1,400 index entries
    expect(cache.positions.size).toBe(1);
    const again = await read(cache, 139); // from the row ending block 13: walks 91
    expect(first.scanned).toHaveLength(1);
    expect(again.scanned).toHaveLength(1);
    expect(again.scanned[0] ?? 0).toBeLessThan((first.scanned[0] ?? 0) / 4);
    // Filtered lists have maps of their own.
    const filtered = await read(cache, 110, 'active');
    const filteredAgain = await read(cache, 105, 'active');
    expect(filtered.total).toBe(rows.filter((row) => row.status === 'active').length);
    expect(filteredAgain.scanned[0] ?? 0).toBeLessThan((filtered.scanned[0] ?? 0) / 4);
    expect(cache.positions.size).toBe(2);
    expect([cache.stats.walksFromStart, cache.stats.walksFromPosition]).toEqual([2, 2]);
  });

  it('are not used after a write, whether this instance saw it or not', async () => {
    // Recording again right after each write, as on a table written less than once a second.
    const cache = new ListCache(true, { positionsAfterQuietMs: 0 });
    await read(cache, 140);
    // Written behind the instance's back: the map's version still looks current to it, so the
    // statement runs with it, reads another version, and the page is read again from the start.
    await addDevice('pm-zzzzz');
    const afterUnseen = await read(cache, 139);
    expect(afterUnseen.scanned).toHaveLength(2);
    expect(cache.stats.positionsStale).toBe(1);
    // The instance has now seen the new version: the stale map is dropped before any statement.
    await read(cache, 140);
    const removed = rows.find((row) => row.hostname === 'pm-01400');
    await db
      .deleteFrom('devices')
      .where('id', '=', removed?.id ?? '')
      .execute();
    rows = rows.filter((row) => row !== removed);
    await sql`SELECT 1`.execute(db);
    const afterDelete = await read(cache, 130);
    expect(afterDelete.scanned).toHaveLength(2);
    const settled = await read(cache, 129);
    expect(settled.scanned).toHaveLength(1);
  });

  it.each([
    { column: 'vendor', direction: 'asc' },
    { column: 'vendor', direction: 'desc' },
  ] as const)(
    'place ties and nulls of the sort column exactly ($column $direction)',
    async (sort) => {
      const cache = new ListCache();
      for (const page of [140, 139, 120, 101, 11, 150]) await read(cache, page, undefined, sort);
      expect(cache.stats.walksFromPosition).toBeGreaterThanOrEqual(4);
    },
  );

  it('are not recorded while the table is being written: deep pages read with OFFSET', async () => {
    let now = 0;
    const cache = new ListCache(true, { positionsAfterQuietMs: 1000, now: () => now });
    const walked = await read(cache, 140);
    expect(cache.positions.size).toBe(1);
    await addDevice('pm-zzzzy');
    // The map is found stale, and the page read again, this time with OFFSET: the instance has
    // just seen the table written.
    const stale = await read(cache, 139);
    expect(stale.scanned).toHaveLength(2);
    expect(cache.stats.positionsStale).toBe(1);
    expect(cache.positions.size).toBe(0);
    const plans: PlanNode[] = [];
    const unrecorded = await listRows(
      explainingDatabase([], plans),
      cache,
      definition,
      request(140),
    );
    expect(JSON.parse(unrecorded.json ?? 'null')).toEqual(expected(140));
    expect(cache.positions.size).toBe(0);
    // The same rows passed as the walk passed, without numbering each of them on the way: only
    // the page's own rows (one more than its 10) are numbered.
    const [plan] = plans;
    if (!plan) throw new Error('no plan');
    expect(rowsScanned(plan)).toBeLessThanOrEqual((walked.scanned[0] ?? 0) + 10);
    const numbered = nodesOf(plan)
      .filter((node) => node['Node Type'] === 'WindowAgg')
      .map((node) => (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1));
    expect(Math.max(0, ...numbered)).toBeLessThanOrEqual(11);
    // A page past the end of its list reads its total and no row.
    const past = await read(cache, 1000, 'active');
    expect(past.scanned).toEqual([0]);
    expect(cache.stats.deepPagesUnrecorded).toBe(3);
    // Once the table has been left alone long enough, deep pages record positions again.
    now += 1000;
    await read(cache, 130);
    expect(cache.positions.size).toBe(1);
    const again = await read(cache, 129);
    expect(again.scanned[0] ?? 0).toBeLessThan((walked.scanned[0] ?? 0) / 4);
    expect(cache.stats.deepPagesUnrecorded).toBe(3);
  });

  it('keep nothing with the list cache off, and deep pages read with OFFSET', async () => {
    const cache = new ListCache(false);
    await read(cache, 140);
    await read(cache, 139);
    expect(cache.positions.size).toBe(0);
    expect(cache.stats).toMatchObject({ walksFromStart: 0, deepPagesUnrecorded: 2 });
  });
});
