import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  autovacuumNeeds,
  readServerUpkeepWarning,
  serverUpkeepWarning,
  type TableActivity,
} from '../src/autovacuum.js';
import { type AutovacuumRun, type AutovacuumSchedule, openStore } from '../src/index.js';
import { openTestStore, testDatabaseUrl } from '../src/testing.js';

/*
 * The embedded store vacuums and analyzes its tables on its own (autovacuum.ts): PostgreSQL in
 * PGlite has no autovacuum launcher, and before this a store filled through the service was never
 * analyzed and never vacuumed. The rules' own cases run everywhere; the stores are embedded ones
 * whatever TEST_DATABASE_URL says, so the run on PostgreSQL skips them.
 */

/** A table of 100,000 rows as the check would read it, at PostgreSQL's default thresholds. */
function activity(overrides: Partial<TableActivity>): TableActivity {
  return {
    table: 'devices',
    dead_rows: 0,
    inserted_since_vacuum: 0,
    changed_since_analyze: 0,
    reltuples: 100_000,
    relpages: 10_000,
    pages: 10_000,
    vacuum_threshold: 50,
    vacuum_scale_factor: 0.2,
    insert_threshold: 1000,
    insert_scale_factor: 0.2,
    analyze_threshold: 50,
    analyze_scale_factor: 0.1,
    ...overrides,
  };
}

describe('when a table needs a VACUUM or an ANALYZE', () => {
  it('follows the thresholds and scale factors of PostgreSQL autovacuum', () => {
    expect(autovacuumNeeds(activity({}))).toEqual({ vacuum: false, analyze: false });
    // 50 + 0.2 × 100,000 dead rows; 1,000 + 0.2 × 100,000 inserted; 50 + 0.1 × 100,000 changed.
    expect(autovacuumNeeds(activity({ dead_rows: 20_050 })).vacuum).toBe(false);
    expect(autovacuumNeeds(activity({ dead_rows: 20_051 })).vacuum).toBe(true);
    expect(autovacuumNeeds(activity({ inserted_since_vacuum: 21_000 })).vacuum).toBe(false);
    expect(autovacuumNeeds(activity({ inserted_since_vacuum: 21_001 })).vacuum).toBe(true);
    expect(autovacuumNeeds(activity({ changed_since_analyze: 10_050 })).analyze).toBe(false);
    expect(autovacuumNeeds(activity({ changed_since_analyze: 10_051 }))).toEqual({
      vacuum: false,
      analyze: true,
    });
  });

  it('analyzes a table never analyzed that has rows, and reckons its rows as none', () => {
    const never = { reltuples: -1, relpages: 0 };
    expect(autovacuumNeeds(activity({ ...never, pages: 0 }))).toEqual({
      vacuum: false,
      analyze: false,
    });
    expect(autovacuumNeeds(activity({ ...never, pages: 1 })).analyze).toBe(true);
    expect(autovacuumNeeds(activity({ ...never, pages: 0, dead_rows: 51 })).vacuum).toBe(true);
  });

  it('analyzes a table whose size moved by more than the changes that call for it, counted or not', () => {
    // Counts lost with a restart: 10 % more pages is 10,000 rows, not more than 10,050.
    expect(autovacuumNeeds(activity({ pages: 11_000 })).analyze).toBe(false);
    expect(autovacuumNeeds(activity({ pages: 11_010 })).analyze).toBe(true);
    expect(autovacuumNeeds(activity({ pages: 8_900 })).analyze).toBe(true);
    // Analyzed while empty, rows since.
    expect(autovacuumNeeds(activity({ reltuples: 0, relpages: 0, pages: 3 })).analyze).toBe(true);
    expect(autovacuumNeeds(activity({ reltuples: 0, relpages: 0, pages: 0 })).analyze).toBe(false);
  });
});

// Made by the suite that uses it: a file whose tests are all skipped runs no hook, and a folder
// made at import would stay behind.
let scratch = '';

async function openEmbedded(name: string, autovacuum: AutovacuumSchedule) {
  const runs: AutovacuumRun[] = [];
  const errors: Error[] = [];
  const store = await openStore<unknown>({
    dataDir: join(scratch, name),
    durable: false,
    autovacuum: {
      onRun: (run) => runs.push(run),
      onError: (error) => errors.push(error),
      ...autovacuum,
    },
  });
  return { store, db: store.db, runs, errors };
}

/** Waits until `done` holds of the runs so far, for at most `ms`. */
async function runsUntil(
  runs: AutovacuumRun[],
  done: (runs: AutovacuumRun[]) => boolean,
  ms = 15_000,
) {
  for (let waited = 0; !done(runs) && waited < ms; waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return runs;
}

/** Waits until no run has come for 300 ms (15 checks or more at the tests' intervals). */
async function settled(runs: AutovacuumRun[]) {
  let seen = runs.length;
  for (let quietSince = Date.now(); Date.now() - quietSince < 300; ) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (runs.length !== seen) [seen, quietSince] = [runs.length, Date.now()];
  }
}

/** Checks often enough for a test to see its runs within a second. */
const CHECK_OFTEN: AutovacuumSchedule = { intervalMs: 50, firstCheckAfterMs: 50 };

const ranOn = (table: string, what: 'vacuumed' | 'analyzed') => (runs: AutovacuumRun[]) =>
  runs.some((run) => run.table === table && run[what]);

/** Rows the planner expects `statement` to return. */
async function plannedRows(db: Kysely<unknown>, statement: string): Promise<number> {
  const plan = (
    await sql<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>`
    EXPLAIN (FORMAT JSON) ${sql.raw(statement)}`.execute(db)
  ).rows[0];
  if (!plan) throw new Error(`no plan for ${statement}`);
  return plan['QUERY PLAN'][0].Plan['Plan Rows'];
}

/**
 * 20,000 rows: `kind` is 'common' in 19,000 of them and 'rare' in the others, indexed, the way a
 * vendor or status column is.
 */
async function fill(db: Kysely<unknown>) {
  await sql`CREATE TABLE things (id integer PRIMARY KEY, kind text NOT NULL, note text)`.execute(
    db,
  );
  await sql`CREATE INDEX things_kind ON things (kind, id)`.execute(db);
  for (let from = 0; from < 20_000; from += 2000) {
    await sql`INSERT INTO things
      SELECT g, CASE WHEN g % 20 = 0 THEN 'rare' ELSE 'common' END, md5(g::text)
      FROM generate_series(${from + 1}::int, ${from + 2000}::int) AS g`.execute(db);
  }
}

describe.skipIf(testDatabaseUrl())('embedded store autovacuum', () => {
  const opened: { close(): Promise<void> }[] = [];
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'store-autovacuum-'));
  });
  afterAll(async () => {
    for (const store of opened) await store.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('analyzes a table filled through the store, so that the planner knows a common value from a rare one', async () => {
    const { store, db, runs, errors } = await openEmbedded('filled', CHECK_OFTEN);
    opened.push(store);
    await fill(db);
    await runsUntil(runs, ranOn('things', 'analyzed'));
    expect(errors).toEqual([]);
    expect(runs.filter((run) => run.table === 'things')).toContainEqual(
      expect.objectContaining({ analyzed: true, vacuumed: true }),
    );
    // Without statistics PostgreSQL takes any value for 0.5 % of the rows it reckons from the
    // table's size: 79 here.
    const common = await plannedRows(db, `SELECT * FROM things WHERE kind = 'common'`);
    const rare = await plannedRows(db, `SELECT * FROM things WHERE kind = 'rare'`);
    expect(common).toBeGreaterThan(17_000);
    expect(rare).toBeGreaterThan(500);
    expect(rare).toBeLessThan(1_500);
  });

  it('vacuums the dead rows of updates, so that an index is read without the table', async () => {
    const { store, db, runs, errors } = await openEmbedded('updated', CHECK_OFTEN);
    opened.push(store);
    await fill(db);
    // Vacuumed while it filled, perhaps more than once: the count is taken once that is over, or
    // a vacuum that began before the update would pass for one after it.
    await runsUntil(runs, ranOn('things', 'vacuumed'));
    await settled(runs);
    const vacuums = () => runs.filter((run) => run.table === 'things' && run.vacuumed).length;
    const before = vacuums();
    // Half the rows changed: 10,000 dead rows, over the 50 + 20 % of 20,000 that call for a vacuum.
    await sql`UPDATE things SET note = 'changed' WHERE id % 2 = 0`.execute(db);
    await runsUntil(runs, () => vacuums() > before);
    expect(errors).toEqual([]);
    expect(vacuums()).toBeGreaterThan(before);
    await sql`SELECT pg_stat_force_next_flush()`.execute(db);
    const [stats] = (
      await sql<{ n_dead_tup: number }>`
        SELECT n_dead_tup::int FROM pg_stat_user_tables WHERE relname = 'things'`.execute(db)
    ).rows;
    expect(stats?.n_dead_tup).toBe(0);
    // The visibility map marks every page again: the rare rows' ids come from the index alone.
    await sql`SET enable_seqscan = off`.execute(db);
    await sql`SET enable_bitmapscan = off`.execute(db);
    const plan = (
      await sql<{ 'QUERY PLAN': string }>`
        EXPLAIN (ANALYZE, FORMAT TEXT) SELECT id FROM things WHERE kind = 'rare'`.execute(db)
    ).rows.map((row) => row['QUERY PLAN']);
    await sql`RESET enable_seqscan`.execute(db);
    await sql`RESET enable_bitmapscan`.execute(db);
    expect(plan.join('\n')).toMatch(/Index Only Scan/);
    expect(plan.join('\n')).toMatch(/Heap Fetches: 0\b/);
  });

  it('analyzes at the first check after a restart what was filled before it, counts or none', async () => {
    const first = await openEmbedded('reopened', { intervalMs: 0 });
    await fill(first.db);
    await first.store.close();

    const { store, db, runs, errors } = await openEmbedded('reopened', {
      intervalMs: 60_000,
      firstCheckAfterMs: 10,
    });
    opened.push(store);
    await runsUntil(runs, ranOn('things', 'analyzed'));
    expect(errors).toEqual([]);
    expect(runs).toContainEqual(expect.objectContaining({ table: 'things', analyzed: true }));
    expect(await plannedRows(db, `SELECT * FROM things WHERE kind = 'common'`)).toBeGreaterThan(
      17_000,
    );
  });

  it('leaves a quiet store alone, and a table whose autovacuum is off', async () => {
    const { store, db, runs, errors } = await openEmbedded('quiet', {
      intervalMs: 20,
      firstCheckAfterMs: 20,
    });
    opened.push(store);
    await sql`CREATE TABLE kept (id integer PRIMARY KEY) WITH (autovacuum_enabled = false)`.execute(
      db,
    );
    await sql`INSERT INTO kept SELECT generate_series(1, 5000)`.execute(db);
    await fill(db);
    // Analyzed while it filled, perhaps more than once; then no run for 15 checks.
    await runsUntil(runs, ranOn('things', 'analyzed'));
    await settled(runs);
    const runsBefore = runs.length;
    // Twenty checks or more with nothing written.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(errors).toEqual([]);
    expect(runs.slice(runsBefore)).toEqual([]);
    expect(runs.some((run) => run.table === 'kept')).toBe(false);
    const [kept] = (
      await sql<{ reltuples: number }>`
        SELECT reltuples::float8 AS reltuples FROM pg_class WHERE relname = 'kept'`.execute(db)
    ).rows;
    expect(kept?.reltuples).toBe(-1);
  });

  it('closes while checks run every millisecond, without an error', async () => {
    const { store, db, errors } = await openEmbedded('closing', {
      intervalMs: 1,
      firstCheckAfterMs: 0,
    });
    await fill(db);
    await store.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(errors).toEqual([]);
  });
});

describe('a PostgreSQL server that vacuums and analyzes nothing', () => {
  it('is named with the settings that are off', () => {
    expect(serverUpkeepWarning({ autovacuum: 'on', track_counts: 'on' })).toBeUndefined();
    expect(serverUpkeepWarning({ autovacuum: 'off', track_counts: 'on' })).toMatch(
      /^PostgreSQL server has autovacuum = off: nothing vacuums or analyzes/,
    );
    expect(serverUpkeepWarning({ autovacuum: 'on', track_counts: 'off' })).toMatch(
      /has track_counts = off:/,
    );
    expect(serverUpkeepWarning({ autovacuum: 'off', track_counts: 'off' })).toMatch(
      /has autovacuum = off and track_counts = off:/,
    );
  });

  it('is read from the server the store is connected to, and never for the embedded store', async () => {
    const store = await openTestStore<unknown>({
      migrations: new URL('./migrations/', import.meta.url),
    });
    try {
      const db = store.db as Kysely<unknown>;
      if (store.kind !== 'postgres') {
        expect(await readServerUpkeepWarning(db, store.kind)).toBeUndefined();
        return;
      }
      const shown = await sql<{ autovacuum: string }>`SHOW autovacuum`.execute(db);
      const warning = await readServerUpkeepWarning(db, store.kind);
      expect(warning === undefined).toBe(shown.rows[0]?.autovacuum === 'on');
      // track_counts may be turned off in a superuser's session: the warning follows it.
      await db.transaction().execute(async (trx) => {
        await sql`SET LOCAL track_counts = off`.execute(trx);
        expect(await readServerUpkeepWarning(trx, store.kind)).toMatch(/track_counts = off/);
      });
    } finally {
      await store.close();
    }
  });
});
