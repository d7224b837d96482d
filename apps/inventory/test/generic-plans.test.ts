import { type Store, withGenericPlans } from '@netops/store';
import { openTestStore } from '@netops/store/testing';
import { sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyDatabase } from '../src/db/schema.js';
import { type Database, MIGRATIONS_FOLDER } from '../src/db/schema.js';
import { resourceByName } from '../src/resources/index.js';
import { type ListRequest, listRows } from '../src/resources/list.js';
import { ListCache } from '../src/resources/list-cache.js';

/**
 * The common lists' statements, and those of a search by substrings alone, are planned once per
 * connection (generic-plans.ts in the store), the others for each call's values. Pinned by
 * PostgreSQL's own count of the plans each prepared statement of a session was given
 * (`pg_prepared_statements`), on both stores: the server store keeps connections of its own
 * for the statements planned once, the embedded one (a single session) sets the plan cache mode
 * around each of them.
 */

let store: Store<Database>;
let db: AnyDatabase;
const devices = resourceByName('devices');
if (!devices) throw new Error('no devices resource');
const definition = devices;
const VENDORS = ['Cisco', 'Juniper', 'Arista'];

beforeAll(async () => {
  // One connection per pool, so the statements' plan counts are all in one session of each.
  store = await openTestStore<Database>({ migrations: MIGRATIONS_FOLDER, poolSize: 1 });
  db = store.db as AnyDatabase;
  await db
    .insertInto('devices')
    .values(
      Array.from({ length: 300 }, (_, n) => ({
        id: uuidv7(),
        hostname: `gp-${String((n * 37) % 300).padStart(3, '0')}`,
        ip: '192.0.2.1',
        status: n % 4 === 0 ? 'offline' : 'active',
        vendor: VENDORS[n % 3] as string,
      })),
    )
    .execute();
}, 60_000);
afterAll(() => store?.close());

interface PlanCounts {
  statement: string;
  generic_plans: number;
  custom_plans: number;
}

/** The prepared statements of the session `on` runs on that list devices, with plan counts. */
async function statementsOf(on: AnyDatabase, marker: string): Promise<PlanCounts[]> {
  const result = await sql<PlanCounts>`SELECT statement, generic_plans::int, custom_plans::int
    FROM pg_prepared_statements WHERE statement LIKE '%"devices"%'`.execute(on);
  // (The rows this file inserted were written by a prepared statement too.)
  return result.rows.filter(
    (row) => row.statement.includes(marker) && !/^\s*insert/i.test(row.statement),
  );
}

/**
 * The list statements of every session, each once: the ordinary one and the one for statements
 * planned once, which on the embedded store are the same.
 */
async function listStatements(marker: string): Promise<PlanCounts[]> {
  const ordinary = await statementsOf(db, marker);
  if (store.kind !== 'postgres') return ordinary;
  return [...ordinary, ...(await statementsOf(withGenericPlans(db), marker))];
}

const list = (page: number, conditions: ListRequest['conditions']): ListRequest => ({
  page,
  limit: 10,
  sort: [{ column: 'hostname', direction: 'asc' }],
  conditions,
  json: ['id', 'hostname'],
});

describe('statements planned once', () => {
  it('run without parallel workers, as the embedded store always does', async () => {
    // A plan made once for any LIMIT reckons on a tenth of the matching rows, and a parallel
    // read and sort of them all then looks cheaper than a few entries of an index in order
    // (generic-plans.ts in the store). The embedded store has no worker processes at all.
    const workers = (on: AnyDatabase) =>
      sql<{
        workers: string;
      }>`SELECT current_setting('max_parallel_workers_per_gather') AS workers`.execute(on);
    expect((await workers(withGenericPlans(db))).rows).toEqual([{ workers: '0' }]);
  });

  it('a common list (exact filter, common sort) is planned once, whatever its values', async () => {
    const cache = new ListCache(false);
    for (let call = 0; call < 8; call += 1) {
      const vendor = VENDORS[call % 3] as string;
      const page = 1 + (call % 4);
      const result = await listRows(
        db,
        cache,
        definition,
        list(page, [{ column: 'vendor', operator: 'exact', value: vendor }]),
      );
      expect(result.totalCount).toBe(100);
      expect(JSON.parse(result.json ?? '[]')).toHaveLength(10);
    }
    // Wherever it ran: the ordinary session or the one for statements planned once.
    const statements = await listStatements('"vendor" =');
    expect(statements).toHaveLength(1);
    // PostgreSQL's default would give the first five calls (at least) plans of their own.
    expect(statements[0]).toMatchObject({ generic_plans: 8, custom_plans: 0 });
  });

  it('a substring the trigram index can look up is planned once, whatever the text', async () => {
    const cache = new ListCache(false);
    for (let call = 0; call < 8; call += 1) {
      // `gp-000` to `gp-007`: one device each.
      const value = `gp-00${call}`;
      const result = await listRows(
        db,
        cache,
        definition,
        list(1, [{ column: 'hostname', operator: 'ic', value }]),
      );
      expect(result.totalCount).toBe(1);
      expect(JSON.parse(result.json ?? '[]')).toEqual([
        expect.objectContaining({ hostname: value }),
      ]);
    }
    const statements = await listStatements('ILIKE');
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatchObject({ generic_plans: 8, custom_plans: 0 });
  });

  it('a substring without three letters or digits in a row is planned for its values', async () => {
    // (From some such texts pg_trgm draws no trigram at all, and its index would be read whole.)
    const plannedOnceBefore = await statementsOf(withGenericPlans(db), 'ILIKE');
    const cache = new ListCache(false);
    for (let call = 0; call < 6; call += 1) {
      const result = await listRows(
        db,
        cache,
        definition,
        list(1, [
          { column: 'hostname', operator: 'ic', value: call % 2 === 0 ? `${call}` : 'p-1' },
        ]),
      );
      expect(result.totalCount).toBeGreaterThan(0);
    }
    const statements = await statementsOf(db, 'ILIKE');
    expect(statements).toHaveLength(1);
    expect(statements[0]?.custom_plans).toBeGreaterThanOrEqual(5);
    if (store.kind === 'postgres') {
      // The session for statements planned once ran none of these calls.
      expect(await statementsOf(withGenericPlans(db), 'ILIKE')).toEqual(plannedOnceBefore);
    }
  });
});
