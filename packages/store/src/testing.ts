import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Kysely, Transaction } from 'kysely';
import pg from 'pg';
import { maskUrl, migrate, openStore, type Store } from './index.js';

/**
 * Test stores. With `TEST_DATABASE_URL` set, each call creates a throwaway PostgreSQL database
 * (dropped on close), so test files running in parallel never see each other's rows. Without it,
 * each call starts an in-memory PGlite from a cached dump of a freshly initialised cluster:
 * PGlite's initdb costs seconds, loading the dump well under one.
 */
export interface TestStoreOptions {
  /** Folder of the app's numbered SQL migrations. */
  migrations: string | URL;
  poolSize?: number;
  /** PostgreSQL only: the store's statement deadline (StoreConfig.queryTimeoutMs). */
  queryTimeoutMs?: number;
  /** PostgreSQL only: the longest wait for a connection (StoreConfig.connectTimeoutMs). */
  connectTimeoutMs?: number;
}

export function testDatabaseUrl(): string | undefined {
  const url = process.env.TEST_DATABASE_URL;
  return url && url.length > 0 ? url : undefined;
}

export async function openTestStore<DB>(options: TestStoreOptions): Promise<Store<DB>> {
  const serverUrl = testDatabaseUrl();
  const store = serverUrl
    ? await openThrowawayPostgres<DB>(serverUrl, options)
    : await openStore<DB>({
        databaseUrl: 'memory://',
        dataDir: '',
        loadDataDir: await pgliteTemplate(),
        // Statistics that change in the middle of a test would change the plans the tests pin;
        // the test server's PostgreSQL runs without autovacuum for the same reason. The
        // embedded store's own autovacuum has tests of its own.
        autovacuum: { intervalMs: 0 },
      });
  try {
    await migrate(store as Store<unknown>, options.migrations);
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

/** Creates a database with a random name on the server `serverUrl` points to. */
export async function createThrowawayDatabase(
  serverUrl: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  // Named after the database the URL points to, so a CI run can drop everything its run made,
  // even databases left behind by a test process that crashed.
  const parent = new URL(serverUrl).pathname.replace(/^\//, '') || 'postgres';
  const name = `${parent.slice(0, 40)}_t${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `TEST_DATABASE_URL is set but ${maskUrl(serverUrl)} cannot be reached: ${(error as Error).message}`,
    );
  }
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

async function openThrowawayPostgres<DB>(
  serverUrl: string,
  { poolSize, queryTimeoutMs, connectTimeoutMs }: TestStoreOptions,
): Promise<Store<DB>> {
  const database = await createThrowawayDatabase(serverUrl);
  const store = await openStore<DB>({
    databaseUrl: database.url,
    dataDir: '',
    ...(poolSize ? { poolSize } : {}),
    ...(queryTimeoutMs !== undefined ? { queryTimeoutMs } : {}),
    ...(connectTimeoutMs !== undefined ? { connectTimeoutMs } : {}),
  });
  return {
    ...store,
    async close() {
      await store.close();
      await database.drop();
    },
  };
}

function pgliteVersion(): string {
  try {
    const require = createRequire(import.meta.url);
    let folder = dirname(require.resolve('@electric-sql/pglite'));
    while (!existsSync(join(folder, 'package.json'))) folder = dirname(folder);
    return JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')).version as string;
  } catch {
    return 'unknown';
  }
}

let templateInProcess: Promise<Blob> | undefined;

/** A dump of an empty, freshly initialised PGlite cluster, made once per machine and version. */
export function pgliteTemplate(): Promise<Blob> {
  templateInProcess ??= (async () => {
    const file = join(tmpdir(), `netops-pglite-template-${pgliteVersion()}.tar`);
    if (existsSync(file)) return new Blob([readFileSync(file)]);
    const fresh = await PGlite.create();
    const dump = await fresh.dumpDataDir('none');
    await fresh.close();
    // Written aside and renamed, so a parallel test worker never reads half a file.
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
    return dump;
  })();
  return templateInProcess;
}

/** A transaction kept open by a test until `release()`. */
export interface HeldTransaction {
  release(): Promise<void>;
}

/**
 * Runs `lock` (say `SELECT … FOR UPDATE`) in a transaction and keeps it open, with its locks,
 * until `release()`: on PostgreSQL, statements on other connections then wait on what it locked.
 * Released by itself after `maxMs`, so a failing test cannot hang on its own lock.
 */
export async function holdInTransaction<DB>(
  db: Kysely<DB>,
  lock: (trx: Transaction<DB>) => Promise<unknown>,
  maxMs = 5000,
): Promise<HeldTransaction> {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const safety = setTimeout(release, maxMs);
  let locked = () => {};
  const isLocked = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const transaction = db.transaction().execute(async (trx) => {
    await lock(trx);
    locked();
    await held;
  });
  await Promise.race([isLocked, transaction]);
  return {
    async release() {
      clearTimeout(safety);
      release();
      await transaction;
    },
  };
}
