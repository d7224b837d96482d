import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckpointSchedule, openStore, type Store } from '../src/index.js';
import { testDatabaseUrl } from '../src/testing.js';

/*
 * The embedded store checkpoints on its own (checkpoints.ts): PostgreSQL in PGlite has no
 * checkpointer process, and before this a store kept every WAL segment it wrote until it closed.
 * These open embedded stores of their own whatever TEST_DATABASE_URL says, so the run on
 * PostgreSQL skips them.
 */

const MB = 1024 * 1024;
// Made by the suite that uses it: a file whose tests are all skipped runs no hook, and a folder
// made at import would stay behind.
let scratch = '';

async function openEmbedded(name: string, checkpoints: CheckpointSchedule) {
  const dataDir = join(scratch, name);
  // Durability off: what is measured is the WAL PostgreSQL keeps, not the disk's flushes.
  const store = await openStore<unknown>({ dataDir, durable: false, checkpoints });
  return { store, walDir: join(dataDir, 'pg_wal') };
}

async function lastCheckpoint(db: Kysely<unknown>) {
  const row = (
    await sql<{ checkpoint_lsn: string; since_redo: number }>`
      SELECT checkpoint_lsn::text,
        pg_wal_lsn_diff(pg_current_wal_insert_lsn(), redo_lsn)::float8 AS since_redo
      FROM pg_control_checkpoint()`.execute(db)
  ).rows[0];
  if (!row) throw new Error('pg_control_checkpoint() returned no row');
  return row;
}

/** The last checkpoint once `done` holds of it, or as it is after `ms`. */
async function checkpointOnce(
  db: Kysely<unknown>,
  done: (checkpoint: Awaited<ReturnType<typeof lastCheckpoint>>) => boolean,
  ms: number,
) {
  let checkpoint = await lastCheckpoint(db);
  for (let waited = 0; !done(checkpoint) && waited < ms; waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    checkpoint = await lastCheckpoint(db);
  }
  return checkpoint;
}

/** WAL segment files in the folder (16 MB each, written or recycled under a later name). */
const segments = (walDir: string) =>
  readdirSync(walDir).filter((name) => /^[0-9A-F]{24}$/.test(name));

/** The name of the segment holding the last checkpoint's redo point. */
async function redoSegment(db: Kysely<unknown>) {
  const row = (
    await sql<{ name: string }>`
      SELECT pg_walfile_name(redo_lsn) AS name FROM pg_control_checkpoint()`.execute(db)
  ).rows[0];
  if (!row) throw new Error('pg_control_checkpoint() returned no row');
  return row.name;
}

/** About `megabytes` of WAL: rows of 200 characters that do not compress, one statement a MB. */
async function writeWal(db: Kysely<unknown>, megabytes: number) {
  for (let i = 0; i < megabytes; i++) {
    await sql`INSERT INTO filler (body)
      SELECT lpad(g::text, 200, md5((g + ${i * 4000})::text)) FROM generate_series(1, 4000) AS g`.execute(
      db,
    );
    // A turn for the check between two statements, as between two requests.
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe.skipIf(testDatabaseUrl())('embedded store checkpoints', () => {
  let store: Store<unknown> | undefined;
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'store-checkpoints-'));
  });
  afterAll(async () => {
    await store?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('checkpoints once the WAL since the last one reaches the limit, and recycles the segments before it', async () => {
    const opened = await openEmbedded('by-wal', { intervalMs: 10, walBytes: 4 * MB });
    store = opened.store;
    const { db } = store;
    await sql`CREATE TABLE filler (id serial PRIMARY KEY, body text)`.execute(db);
    const before = await lastCheckpoint(db);
    const atStart = segments(opened.walDir);

    // 72 MB of WAL: four and a half segments.
    await writeWal(db, 72);
    // The next check finds the WAL since the last checkpoint under the limit, or checkpoints.
    const after = await checkpointOnce(db, (checkpoint) => checkpoint.since_redo < 4 * MB, 3000);
    expect(after.checkpoint_lsn).not.toBe(before.checkpoint_lsn);
    expect(after.since_redo).toBeLessThan(4 * MB);
    // Without checkpoints every segment written stays under its own name, the first ones
    // included. With them, each segment before the redo point's is removed or recycled: renamed
    // to a segment after it. How many are kept for later is PostgreSQL's estimate of the WAL
    // between checkpoints, which a busy machine's later checks raise, so it is not counted.
    const redo = await redoSegment(db);
    const left = segments(opened.walDir);
    expect(left.filter((name) => name < redo)).toEqual([]);
    // ... and there were such segments to remove: the store's first ones.
    expect(atStart.filter((name) => name < redo).length).toBeGreaterThan(0);
    await store.close();
    store = undefined;
  });

  it('checkpoints a store written to once checkpoint_timeout has passed, and a quiet store never', async () => {
    const opened = await openEmbedded('by-time', { intervalMs: 10, maxAgeMs: 300 });
    store = opened.store;
    const { db } = store;
    await sql`CREATE TABLE filler (id serial PRIMARY KEY, body text)`.execute(db);
    const first = await lastCheckpoint(db);
    const second = await checkpointOnce(
      db,
      (checkpoint) => checkpoint.checkpoint_lsn !== first.checkpoint_lsn,
      5000,
    );
    expect(second.checkpoint_lsn).not.toBe(first.checkpoint_lsn);

    // Nothing written since: two more timeouts pass without a checkpoint.
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect((await lastCheckpoint(db)).checkpoint_lsn).toBe(second.checkpoint_lsn);
    await store.close();
    store = undefined;
  });

  it('closes while checks run every millisecond, without an error', async () => {
    const errors: Error[] = [];
    const opened = await openEmbedded('closing', {
      intervalMs: 1,
      walBytes: 1,
      onError: (error) => errors.push(error),
    });
    await sql`CREATE TABLE filler (id serial PRIMARY KEY, body text)`.execute(opened.store.db);
    await writeWal(opened.store.db, 1);
    await opened.store.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(errors).toEqual([]);
  });
});
