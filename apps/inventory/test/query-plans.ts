import type { Store } from '@netops/store';
import { openTestStore } from '@netops/store/testing';
import { type CompiledQuery, sql } from 'kysely';
import { type AnyDatabase, type Database, MIGRATIONS_FOLDER } from '../src/db/schema.js';

/** A node of `EXPLAIN (FORMAT JSON)`, with the fields the plan tests read. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Heap Fetches'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

/** What `EXPLAIN (FORMAT JSON)` returns: one row holding the plan. */
export type ExplainedRow = { 'QUERY PLAN': [{ Plan: PlanNode }] };

/** The node and every node under it. */
export const nodesOf = (node: PlanNode): PlanNode[] => [
  node,
  ...(node.Plans ?? []).flatMap(nodesOf),
];

/**
 * `db` as a list sees it, with `before` called on the real instance for each statement the list
 * sends, before the statement runs (to explain it, say).
 */
export function beforeEachStatement(
  db: AnyDatabase,
  before: (target: AnyDatabase, query: CompiledQuery) => Promise<void>,
): AnyDatabase {
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property !== 'executeQuery') {
        const value = Reflect.get(target, property, receiver);
        // Kysely's classes keep private fields: their methods must run on the real instance.
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return async (query: CompiledQuery) => {
        await before(target, query);
        return target.executeQuery(query);
      };
    },
  });
}

/** Rows the scans of `relation` (table or index) produced or read and removed, over every loop. */
export const rowsRead = (plan: PlanNode, relation = 'devices'): number =>
  nodesOf(plan)
    .filter((node) => node['Relation Name'] === relation)
    .reduce(
      (sum, node) =>
        sum +
        ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0)) *
          (node['Actual Loops'] ?? 1),
      0,
    );

/**
 * A test store holding these devices, in this order (a thousand a statement), vacuumed and
 * analysed so that the planner sees them as a long-running service's statistics would.
 */
export async function storeWithDevices(
  devices: ReadonlyArray<Record<string, unknown>>,
): Promise<{ store: Store<Database>; db: AnyDatabase }> {
  const store = await openTestStore<Database>({ migrations: MIGRATIONS_FOLDER });
  const db = store.db as AnyDatabase;
  for (let start = 0; start < devices.length; start += 1000) {
    await db
      .insertInto('devices')
      .values(devices.slice(start, start + 1000))
      .execute();
  }
  await vacuumUntilAllVisible(db);
  return { store, db };
}

/**
 * VACUUM marks a page all-visible, which index-only scans need, only when it can take the page's
 * cleanup lock at that moment and every row on it is older than every transaction still
 * running; a page it cannot mark is left for the next VACUUM. Under a parallel test run one pass
 * left pages unmarked (the plan tests then found heap fetches), so it runs until every page is
 * marked, as autovacuum would in time.
 */
async function vacuumUntilAllVisible(db: AnyDatabase): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await sql`VACUUM ANALYZE devices`.execute(db);
    const pages = await sql<{ relpages: number; relallvisible: number }>`
      SELECT relpages, relallvisible FROM pg_class WHERE oid = 'devices'::regclass`.execute(db);
    const { relpages = 0, relallvisible = 0 } = pages.rows[0] ?? {};
    if (relallvisible >= relpages) return;
    if (attempt === 50) {
      throw new Error(
        `VACUUM left ${relpages - relallvisible} of ${relpages} pages not all-visible`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
