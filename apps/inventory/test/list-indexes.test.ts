import type { Store } from '@netops/store';
import { sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyDatabase, Database } from '../src/db/schema.js';
import { type CommonSort, commonSortKeys, sortableColumns } from '../src/resources/definition.js';
import { RESOURCES, resourceByName } from '../src/resources/index.js';
import { orderOf as listOrderOf, type SortKey } from '../src/resources/list.js';
import { type ExplainedRow, nodesOf, storeWithDevices } from './query-plans.js';

/**
 * The indexes of the lists users ask for most (a resource's `commonLists`, migrations 019 and
 * 021): one per declared (filter, sort) pair, and a deep filtered, sorted page read from it as a
 * range, in either direction, rather than by sorting every matching row or every group of equal
 * values. Planner choices, so checked with EXPLAIN on a data set large enough for the planner to
 * see the difference, with the ties a bulk create makes (hundreds of rows per created_at).
 */

let store: Store<Database>;
let db: AnyDatabase;
const DEVICES = 4000;
const VENDORS = ['Cisco', 'Juniper', 'Arista', 'Nokia'];

beforeAll(async () => {
  const rows = Array.from({ length: DEVICES }, (_, n) => ({
    id: uuidv7(),
    hostname: `li-${String((n * 7919) % DEVICES).padStart(5, '0')}`,
    ip: '192.0.2.1',
    vendor: VENDORS[n % VENDORS.length] as string,
    status: n % 3 === 0 ? 'offline' : 'active',
    role: n % 2 === 0 ? 'core' : 'edge',
    model: `m-${n % 7}`,
    // Bulk creates: each 400 devices share one created_at.
    created_at: new Date(Date.UTC(2026, 0, 1) + Math.floor(n / 400) * 60_000),
  }));
  ({ store, db } = await storeWithDevices(rows));
}, 120_000);
afterAll(() => store?.close());

/** A value of each common filter that the data set holds. */
const COMMON_FILTER_VALUES: Record<string, string> = {
  vendor: 'Juniper',
  status: 'active',
  role: 'core',
};

/**
 * What migrations 021 and 026 name a common sort's list indexes after: the column (`hostname`),
 * or each key with the descending ones marked (`model_hostname_desc`).
 */
const commonSortName = (sort: CommonSort): string =>
  commonSortKeys(sort)
    .map((key) => (key.direction === 'desc' ? `${key.column}_desc` : key.column))
    .join('_');

/**
 * Each declared (filter, sort) pair, and each filter in id order (a list without sortby): the
 * sort's name in the index's (`model_hostname_desc`) and its keys, none for id order.
 */
const declared = RESOURCES.flatMap((definition) =>
  (definition.commonLists?.filters ?? []).flatMap((filter) =>
    [...(definition.commonLists?.sorts ?? []), 'id' as const].map((sort) => ({
      table: definition.table,
      filter,
      sort: commonSortName(sort),
      keys: sort === 'id' ? [] : commonSortKeys(sort),
      others: (definition.commonLists?.filters ?? []).filter((other) => other !== filter),
    })),
  ),
);

/** Each declared sort on several keys, whose unfiltered lists have an index of their own. */
const severalKeys = RESOURCES.flatMap((definition) =>
  (definition.commonLists?.sorts ?? [])
    .filter((sort) => typeof sort !== 'string')
    .map((sort) => ({
      table: definition.table,
      sort: commonSortName(sort),
      keys: commonSortKeys(sort),
      filters: definition.commonLists?.filters ?? [],
    })),
);

/** The keys of an index, as pg_indexes writes them. */
const indexKeys = (keys: readonly SortKey[]) =>
  keys.map((key) => (key.direction === 'desc' ? `${key.column} DESC` : key.column));

/** Each declared pair, sorted ascending and descending. */
const inBothDirections = declared.flatMap((pair) => [
  { ...pair, direction: 'asc' as const },
  { ...pair, direction: 'desc' as const },
]);

const devices = resourceByName('devices');

/**
 * The list statement's own order for a declared sort's keys (none for id order), as declared
 * or all reversed: the keys, then id unless the last is unique (list.ts).
 */
const orderOf = (keys: readonly SortKey[], direction: 'asc' | 'desc') =>
  listOrderOf(
    devices,
    direction === 'asc'
      ? keys
      : keys.map((key) => ({ ...key, direction: key.direction === 'asc' ? 'desc' : 'asc' })),
  ).map((key) => sql`${sql.ref(key.column)} ${sql.raw(key.direction)}`);

describe('indexes of the common lists', () => {
  it('exist for exactly the (filter, sort) pairs the definitions declare', async () => {
    expect(declared.length).toBeGreaterThan(0);
    const installed = await sql<{ indexname: string; indexdef: string }>`
      SELECT indexname, indexdef FROM pg_indexes WHERE indexname LIKE '%\\_list\\_idx'
      ORDER BY indexname`.execute(db);
    expect(severalKeys.map(({ sort }) => sort)).toContain('model_hostname_desc');
    const expected = [
      ...declared.map(({ table, filter, sort, keys, others }) => ({
        indexname: `${table}_${filter}_${sort}_list_idx`,
        columns: `(${[filter, ...indexKeys(keys)].join(', ')}, id)${
          others.length > 0 ? ` INCLUDE (${others.join(', ')})` : ''
        }`,
      })),
      ...severalKeys.map(({ table, sort, keys, filters }) => ({
        indexname: `${table}_${sort}_list_idx`,
        columns: `(${indexKeys(keys).join(', ')}, id) INCLUDE (${filters.join(', ')})`,
      })),
    ].sort((a, b) => (a.indexname < b.indexname ? -1 : 1));
    expect(
      installed.rows.map((row) => ({
        indexname: row.indexname,
        columns: /\((.*)\)$/.exec(row.indexdef)?.[0],
      })),
    ).toEqual(expected);
  });

  it.each(inBothDirections)(
    'serve a deep page filtered by $filter, sorted by $sort $direction, from one index range',
    async ({ table, filter, sort, keys, direction }) => {
      if (sort === 'id' && direction === 'desc') return; // id order is ascending only
      const value = filter === 'vendor' ? 'Juniper' : filter === 'status' ? 'active' : 'core';
      const order = orderOf(keys, direction);
      const plan = await sql<ExplainedRow>`
      EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)
      SELECT id FROM ${sql.table(table)} WHERE ${sql.ref(filter)} = ${value}
      ORDER BY ${sql.join(order)}
      LIMIT 100 OFFSET 400`.execute(db);
      const [explained] = plan.rows;
      if (!explained) throw new Error('EXPLAIN returned no plan');
      const nodes = nodesOf(explained['QUERY PLAN'][0].Plan);
      const indexes = nodes.map((node) => node['Index Name']).filter(Boolean);
      expect(indexes).toContain(`${table}_${filter}_${sort}_list_idx`);
      // No sort of the matching rows, nor of each group of equal sort values (the ties by id).
      expect(nodes.map((node) => node['Node Type'])).not.toContain('Sort');
      expect(nodes.map((node) => node['Node Type'])).not.toContain('Incremental Sort');
      // The rows before the page and the page, from one index: fewer buffers than the table has.
      const pages = await sql<{ relpages: number }>`
      SELECT relpages FROM pg_class WHERE relname = ${table}`.execute(db);
      const buffers =
        (nodes[0]?.['Shared Hit Blocks'] ?? 0) + (nodes[0]?.['Shared Read Blocks'] ?? 0);
      expect(buffers).toBeLessThan(Number(pages.rows[0]?.relpages));
    },
  );

  it.each(declared.filter((pair) => pair.others.length > 0))(
    'serve a deep page filtered by $filter and another common filter, sorted by $sort, from the index alone',
    async ({ table, filter, keys, others }) => {
      const conditions = [filter, others[0] as string].map(
        (column) => sql`${sql.ref(column)} = ${COMMON_FILTER_VALUES[column]}`,
      );
      const order = orderOf(keys, 'desc');
      // The list statement's walk (list.ts): what orders the rows, nothing else.
      const plan = await sql<ExplainedRow>`
      EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)
      SELECT ${sql.join(['id', ...keys.map((key) => key.column)].map((column) => sql.ref(column)))} FROM ${sql.table(table)} WHERE ${sql.join(conditions, sql` AND `)}
      ORDER BY ${sql.join(order)} LIMIT 100 OFFSET 200`.execute(db);
      const [explained] = plan.rows;
      if (!explained) throw new Error('EXPLAIN returned no plan');
      const scans = nodesOf(explained['QUERY PLAN'][0].Plan).filter((node) =>
        node['Node Type'].includes('Scan'),
      );
      // One index-only scan, no row fetched from the table to test the second filter.
      expect(scans.map((node) => node['Node Type'])).toEqual(['Index Only Scan']);
      expect(scans[0]?.['Heap Fetches']).toBe(0);
    },
  );

  it.each(inBothDirections)(
    'serve a deep page filtered by $filter, sorted by $sort $direction, from one index range in a plan made once for any value',
    async ({ table, filter, sort, keys, direction }) => {
      if (sort === 'id' && direction === 'desc') return;
      // The common lists run planned once per connection (withGenericPlans): one plan for every
      // filter value, page size and offset, which must still be the index range.
      const order = orderOf(keys, direction);
      const explained = await db.transaction().execute(async (trx) => {
        await sql`SET LOCAL plan_cache_mode = force_generic_plan`.execute(trx);
        await sql`PREPARE common_list_probe(text, int, int) AS
          SELECT id FROM ${sql.table(table)} WHERE ${sql.ref(filter)} = $1
          ORDER BY ${sql.join(order)} LIMIT $2 OFFSET $3`.execute(trx);
        try {
          const plan = await sql<ExplainedRow>`
            EXPLAIN (FORMAT JSON) EXECUTE common_list_probe('Juniper', 100, 400)`.execute(trx);
          const counts = await sql<{ generic_plans: number; custom_plans: number }>`
            SELECT generic_plans::int, custom_plans::int FROM pg_prepared_statements
            WHERE name = 'common_list_probe'`.execute(trx);
          expect(counts.rows[0]).toMatchObject({ custom_plans: 0 });
          return plan.rows[0];
        } finally {
          await sql`DEALLOCATE common_list_probe`.execute(trx);
        }
      });
      if (!explained) throw new Error('EXPLAIN returned no plan');
      const nodes = nodesOf(explained['QUERY PLAN'][0].Plan);
      expect(nodes.map((node) => node['Index Name']).filter(Boolean)).toContain(
        `${table}_${filter}_${sort}_list_idx`,
      );
      expect(nodes.map((node) => node['Node Type'])).not.toContain('Sort');
      expect(nodes.map((node) => node['Node Type'])).not.toContain('Incremental Sort');
    },
  );

  it.each(['asc', 'desc'] as const)(
    'serve an unfiltered page sorted by created_at %s past a bulk create without sorting',
    async (direction) => {
      const order = orderOf([{ column: 'created_at', direction: 'asc' }], direction);
      const plan = await sql<ExplainedRow>`
      EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)
      SELECT id FROM devices ORDER BY ${sql.join(order)} LIMIT 20 OFFSET 40`.execute(db);
      const [explained] = plan.rows;
      if (!explained) throw new Error('EXPLAIN returned no plan');
      const types = nodesOf(explained['QUERY PLAN'][0].Plan).map((node) => node['Node Type']);
      expect(types).not.toContain('Sort');
      expect(types).not.toContain('Incremental Sort');
    },
  );

  it.each(
    severalKeys.flatMap((sort) => [
      { ...sort, direction: 'asc' as const },
      { ...sort, direction: 'desc' as const },
    ]),
  )(
    'serve an unfiltered page sorted by $sort, read $direction, from its own index in a plan made once',
    async ({ table, sort, keys, direction }) => {
      const order = orderOf(keys, direction);
      const explained = await db.transaction().execute(async (trx) => {
        await sql`SET LOCAL plan_cache_mode = force_generic_plan`.execute(trx);
        await sql`PREPARE several_keys_probe(int, int) AS
          SELECT id FROM ${sql.table(table)} ORDER BY ${sql.join(order)} LIMIT $1 OFFSET $2`.execute(
          trx,
        );
        try {
          const plan = await sql<ExplainedRow>`
            EXPLAIN (FORMAT JSON) EXECUTE several_keys_probe(100, 400)`.execute(trx);
          return plan.rows[0];
        } finally {
          await sql`DEALLOCATE several_keys_probe`.execute(trx);
        }
      });
      if (!explained) throw new Error('EXPLAIN returned no plan');
      const nodes = nodesOf(explained['QUERY PLAN'][0].Plan);
      expect(nodes.map((node) => [node['Node Type'], node['Index Name']])).toContainEqual([
        'Index Only Scan',
        `${table}_${sort}_list_idx`,
      ]);
      expect(nodes.map((node) => node['Node Type'])).not.toContain('Sort');
      expect(nodes.map((node) => node['Node Type'])).not.toContain('Incremental Sort');
    },
  );
});

/**
 * Every other sortable column of a resource with common lists, whose own `(column, id)` index
 * carries the common filters (migration 025): not a common filter or sort (the list indexes
 * serve those with every common filter) nor a unique column never null (it orders alone, from
 * its unique key).
 */
const otherSorts = RESOURCES.flatMap((definition) => {
  const filters = definition.commonLists?.filters ?? [];
  const sorts = definition.commonLists?.sorts ?? [];
  if (filters.length === 0) return [];
  return sortableColumns(definition)
    .filter((column) => !filters.includes(column) && !sorts.includes(column))
    .filter((column) => listOrderOf(definition, [{ column, direction: 'asc' }]).length > 1)
    .map((sort) => ({ table: definition.table, sort, filters }));
});

describe('indexes of the other sorts', () => {
  it('carry the common filters, for every sortable column but the common ones and a unique one never null', async () => {
    expect(otherSorts.map(({ sort }) => sort)).toContain('last_seen');
    const names = otherSorts.map(({ table, sort }) => `${table}_${sort}_idx`);
    const installed = await sql<{ indexname: string; indexdef: string }>`
      SELECT indexname, indexdef FROM pg_indexes WHERE indexname = ANY(${names})
      ORDER BY indexname`.execute(db);
    expect(
      installed.rows.map((row) => ({
        indexname: row.indexname,
        columns: /\((.*)\)$/.exec(row.indexdef)?.[0],
      })),
    ).toEqual(
      otherSorts
        .map(({ table, sort, filters }) => ({
          indexname: `${table}_${sort}_idx`,
          columns: `(${sort}, id) INCLUDE (${filters.join(', ')})`,
        }))
        .sort((a, b) => (a.indexname < b.indexname ? -1 : 1)),
    );
  });

  it.each(otherSorts)(
    'let a walk sorted by $sort test the common filters on its entries, reading no row from the table',
    async ({ table, sort, filters }) => {
      const conditions = filters.map(
        (column) => sql`${sql.ref(column)} = ${COMMON_FILTER_VALUES[column]}`,
      );
      const order = orderOf([{ column: sort, direction: 'asc' }], 'desc');
      // The walk along the sort's index, as PostgreSQL takes it when the filters match many rows
      // (made certain here by leaving it nothing else to take, not even a filter's index on a
      // sort of several keys starting with the column, ordered by id within each value): the list
      // statement's walk reads what orders the rows and nothing else.
      const scans = await db.transaction().execute(async (trx) => {
        await sql`SET LOCAL enable_sort = off`.execute(trx);
        await sql`SET LOCAL enable_incremental_sort = off`.execute(trx);
        await sql`SET LOCAL enable_bitmapscan = off`.execute(trx);
        const plan = await sql<ExplainedRow>`
        EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)
        SELECT id, ${sql.ref(sort)} FROM ${sql.table(table)}
        WHERE ${sql.join(conditions, sql` AND `)}
        ORDER BY ${sql.join(order)} LIMIT 100 OFFSET 200`.execute(trx);
        const [explained] = plan.rows;
        if (!explained) throw new Error('EXPLAIN returned no plan');
        return nodesOf(explained['QUERY PLAN'][0].Plan).filter((node) =>
          node['Node Type'].includes('Scan'),
        );
      });
      expect(scans.map((node) => [node['Node Type'], node['Index Name']])).toEqual([
        ['Index Only Scan', `${table}_${sort}_idx`],
      ]);
      expect(scans[0]?.['Heap Fetches']).toBe(0);
    },
  );
});
