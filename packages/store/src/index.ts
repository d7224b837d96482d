import { mkdirSync, statfsSync } from 'node:fs';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely } from 'kysely';
import { startAutovacuum } from './autovacuum.js';
import { startCheckpoints } from './checkpoints.js';
import { type DataDirLock, lockDataDir } from './data-dir-lock.js';
import {
  bestTemplateFor,
  createFromTemplate,
  embeddedOptions,
  holdsEmbeddedDatabase,
  prepareEmbeddedTemplate,
  prepareMigratedTemplateWith,
} from './embedded.js';
import { guardFatalFailures } from './fatal.js';
import { registerGenericPlans } from './generic-plans.js';
import { migrate } from './migrate.js';
import { listenPGlite } from './notifications.js';
import { ConnectionLease, PGliteDialect } from './pglite-dialect.js';
import { isPostgresUrl, openPostgres } from './postgres.js';
import { type Store, type StoreConfig, StoreOpenError } from './store.js';
import { timestamptzParser } from './timestamps.js';
import { keepText, parseNumber } from './value-types.js';
import { registerWritesFirst } from './writes-first.js';

export {
  type AutovacuumRun,
  type AutovacuumSchedule,
  embeddedUpkeepNotes,
  readServerUpkeepWarning,
  type ServerUpkeepSettings,
  serverUpkeepWarning,
} from './autovacuum.js';
export type { CheckpointSchedule } from './checkpoints.js';
export { type CopyOut, copyOutOf, inlineParameters } from './copy-out.js';
export { DataDirBusyError } from './data-dir-lock.js';
export {
  embeddedTemplateDir,
  holdsEmbeddedDatabase,
  prepareEmbeddedTemplate,
} from './embedded.js';
export { StoreFailedError } from './fatal.js';
export { withGenericPlans } from './generic-plans.js';
export { type MigrationResult, migrate, NewerSchemaError } from './migrate.js';
export type { NotificationHandlers, Subscription } from './notifications.js';
export {
  DEFAULT_POOL_SIZE,
  DEFAULT_QUERY_TIMEOUT_MS,
  isPostgresUrl,
  maskUrl,
  serverDeadline,
} from './postgres.js';
export {
  type ScriptTransaction,
  type Store,
  type StoreConfig,
  type StoreKind,
  StoreOpenError,
} from './store.js';
export { defaultReadsBesideWrites, writesFirst } from './writes-first.js';

/**
 * The embedded store's `shared_buffers` unless the service sets them (StoreConfig's
 * `sharedBuffersMb`): the store runs inside the application's process, so its shared buffers
 * are that process's memory, all of it taken at open. PostgreSQL's default of 128 MB made the
 * inventory's server hold 480 MB with 100,000 devices; 32 MB keeps the hot pages (the primary
 * keys and the list indexes) and leaves the rest to the operating system's file cache, which
 * PGlite reads through, a page at a time.
 */
export const DEFAULT_EMBEDDED_SHARED_BUFFERS_MB = 32;

/**
 * PostgreSQL settings of the embedded store. WAL is kept to 256 MB (default 1 GB): after a bulk
 * load the data folder otherwise keeps a gigabyte of old segments for reuse.
 */
function embeddedSettings(sharedBuffersMb: number): string[] {
  if (!Number.isSafeInteger(sharedBuffersMb) || sharedBuffersMb < 1) {
    throw new RangeError(
      `shared buffers must be a whole number of megabytes, not ${sharedBuffersMb}`,
    );
  }
  return [
    '-c',
    `shared_buffers=${sharedBuffersMb}MB`,
    '-c',
    'max_wal_size=256MB',
    '-c',
    'min_wal_size=32MB',
  ];
}

/**
 * Makes, once, the template a new embedded folder is created from when `openStore` is given the
 * same `migrations`: PGlite's initdb template with every migration of the folder applied, so a
 * first start copies the schema instead of building it (see prepareMigratedTemplateWith).
 * Returns its folder, or undefined when it cannot be made.
 */
export function prepareMigratedTemplate(migrations: string | URL): Promise<string | undefined> {
  return prepareMigratedTemplateWith(migrations, async (dataDir) => {
    const store = await openStore<unknown>({ dataDir, durable: false });
    try {
      await migrate(store, migrations);
    } finally {
      await store.close();
    }
  });
}

/** Where the embedded store is, and each setting it runs with that is not the default. */
function embeddedDescription(
  config: StoreConfig,
  inMemory: boolean,
  durable: boolean,
  sharedBuffersMb: number,
): string {
  const notes = [
    ...(durable || inMemory ? [] : ['durability off']),
    ...(sharedBuffersMb === DEFAULT_EMBEDDED_SHARED_BUFFERS_MB
      ? []
      : [`shared buffers ${sharedBuffersMb} MB`]),
  ];
  const where = inMemory
    ? 'embedded PostgreSQL in memory'
    : `embedded PostgreSQL in ${config.dataDir}`;
  return notes.length > 0 ? `${where} (${notes.join(', ')})` : where;
}

export async function openStore<DB>(config: StoreConfig): Promise<Store<DB>> {
  const url = config.databaseUrl;
  if (isPostgresUrl(url)) return openPostgres<DB>(url, config);
  if (url !== undefined && url !== '' && url !== 'memory://') {
    throw new Error(`DATABASE_URL must be a postgres:// URL or memory://, not "${url}"`);
  }
  const inMemory = url === 'memory://';
  const durable = config.durable ?? true;
  const sharedBuffersMb = config.sharedBuffersMb ?? DEFAULT_EMBEDDED_SHARED_BUFFERS_MB;
  const settings = embeddedSettings(sharedBuffersMb);
  // One process at a time: the lock is taken before anything in the folder is touched, a first
  // start's copy of the template included, and held until close (see data-dir-lock.ts).
  let lock: DataDirLock | undefined;
  if (!inMemory) {
    try {
      mkdirSync(config.dataDir, { recursive: true });
    } catch (error) {
      throw openFailure(config.dataDir, error);
    }
    try {
      lock = await lockDataDir(config.dataDir);
    } catch (error) {
      // A refusal says itself; the host refusing a file or socket (EACCES) names it in one line.
      throw error instanceof StoreOpenError ? error : openFailure(config.dataDir, error);
    }
  }
  let pglite: PGlite;
  try {
    pglite = await openPGlite(config, inMemory, durable, settings);
  } catch (error) {
    await lock?.release();
    throw inMemory ? error : openFailure(config.dataDir, error);
  }
  // A PANIC (a WAL write failing on a full disk) is final: later statements are refused at once
  // instead of entering PGlite again, where they spun for good (see fatal.ts).
  const guard = guardFatalFailures(
    pglite,
    inMemory ? 'memory' : `DATA_DIR ${config.dataDir}`,
    (error) => config.onFailure?.(error),
  );
  const lease = new ConnectionLease();
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite, lease) });
  registerWritesFirst(
    db,
    new Kysely<DB>({ dialect: new PGliteDialect(pglite, lease, 'writes first') }),
  );
  registerGenericPlans(
    db,
    new Kysely<DB>({ dialect: new PGliteDialect(pglite, lease, 'generic plans') }),
  );
  const checkpoints = startCheckpoints(db as Kysely<unknown>, config.checkpoints ?? {});
  const autovacuum = startAutovacuum(db as Kysely<unknown>, config.autovacuum ?? {});
  return {
    kind: inMemory ? 'memory' : 'embedded',
    description: embeddedDescription(config, inMemory, durable, sharedBuffersMb),
    db,
    scriptTransaction: (work) =>
      pglite.transaction((tx) =>
        work({
          query: async <R>(text: string, params?: unknown[]) =>
            (await tx.query<R>(text, params)).rows,
          exec: async (script) => {
            await tx.exec(script);
          },
        }),
      ),
    listen: (channel, handlers) =>
      listenPGlite(pglite, channel, handlers, (work) => db.connection().execute(work)),
    async close() {
      await Promise.all([checkpoints.stop(), autovacuum.stop()]);
      await db.destroy();
      // After a failure PGlite is not entered again, its close included: the folder is as
      // PostgreSQL left it, and the next start recovers it from the WAL.
      if (guard.failure === undefined) await pglite.close();
      await lock?.release();
    },
  };
}

/** Below this much free space a failed start is put down to the disk (a WAL segment: 16 MB). */
const LOW_DISK_BYTES = 16 * 1024 * 1024;

function freeBytes(path: string): number | undefined {
  try {
    const { bavail, bsize } = statfsSync(path);
    return bavail * bsize;
  } catch {
    return undefined;
  }
}

/**
 * Why an embedded folder would not open, in one line naming DATA_DIR and what to do. PGlite
 * answers every start-up failure of PostgreSQL inside it (a PG_VERSION of random bytes, a
 * pg_control or catalog overwritten, a folder half deleted) with the one "PGlite failed to
 * initialize properly" and a stack into its bundle, which told an operator nothing.
 */
function openFailure(dataDir: string, error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) {
    // The host refused a file operation (EACCES, ENOSPC, EROFS): its message names the file.
    return new StoreOpenError(`DATA_DIR ${dataDir} could not be opened: ${error.message}`);
  }
  if (error.message.includes('PGlite failed to initialize')) {
    // A disk too full for PostgreSQL's start (recovery writes WAL and data files) is not damage:
    // said apart, so that nobody restores or moves a sound folder for want of space.
    const free = freeBytes(dataDir);
    if (free !== undefined && free < LOW_DISK_BYTES) {
      return new StoreOpenError(
        `DATA_DIR ${dataDir}: the embedded PostgreSQL could not start, and its disk has ${Math.floor(free / 1024)} kB free: free space on it (at least 16 MB), then start again.`,
      );
    }
    return new StoreOpenError(
      `DATA_DIR ${dataDir} holds files the embedded PostgreSQL cannot start from (damaged, or not a database): restore it from a backup, or point DATA_DIR at another folder (an empty or new one starts a new store).`,
    );
  }
  return error;
}

async function openPGlite(
  config: StoreConfig,
  inMemory: boolean,
  durable: boolean,
  settings: string[],
): Promise<PGlite> {
  // A given dump (loadDataDir) is the cluster to start from; otherwise a new folder is created
  // from the template.
  if (!inMemory && !config.loadDataDir && !holdsEmbeddedDatabase(config.dataDir)) {
    config.onCreate?.();
    // The templates are made at install (postinstall): the one holding the migrated schema
    // leaves the migrator nothing to apply. If only the initdb template is missing, it is made
    // now, once for every later folder; without a writable cache, PGlite runs initdb in the
    // folder itself.
    const template = bestTemplateFor(config.migrations) ?? (await prepareEmbeddedTemplate());
    if (template !== undefined) createFromTemplate(config.dataDir, durable, template);
  }
  return PGlite.create({
    ...(inMemory
      ? { startParams: [...PGlite.defaultStartParams, ...settings] }
      : embeddedOptions(config.dataDir, durable, settings)),
    // Trigram indexes (`CREATE EXTENSION pg_trgm` in the apps' migrations): PostgreSQL ships the
    // extension with the server, PGlite as a module loaded here.
    extensions: { pg_trgm },
    ...(config.loadDataDir ? { loadDataDir: config.loadDataDir } : {}),
    parsers: {
      [pgliteTypes.INT8]: parseNumber,
      [pgliteTypes.NUMERIC]: parseNumber,
      [pgliteTypes.DATE]: keepText,
      [pgliteTypes.TIMESTAMPTZ]: timestamptzParser(
        (text) => pgliteTypes.parseType(text, pgliteTypes.TIMESTAMPTZ) as unknown,
      ),
    },
  });
}
