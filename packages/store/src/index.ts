import { mkdirSync } from 'node:fs';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely } from 'kysely';
import { startAutovacuum } from './autovacuum.js';
import { startCheckpoints } from './checkpoints.js';
import {
  bestTemplateFor,
  createFromTemplate,
  embeddedOptions,
  holdsEmbeddedDatabase,
  prepareEmbeddedTemplate,
  prepareMigratedTemplateWith,
} from './embedded.js';
import { registerGenericPlans } from './generic-plans.js';
import { migrate } from './migrate.js';
import { listenPGlite } from './notifications.js';
import { ConnectionLease, PGliteDialect } from './pglite-dialect.js';
import { isPostgresUrl, openPostgres } from './postgres.js';
import type { Store, StoreConfig } from './store.js';
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
export {
  embeddedTemplateDir,
  holdsEmbeddedDatabase,
  prepareEmbeddedTemplate,
} from './embedded.js';
export { withGenericPlans } from './generic-plans.js';
export { type MigrationResult, migrate } from './migrate.js';
export type { NotificationHandlers, Subscription } from './notifications.js';
export {
  DEFAULT_POOL_SIZE,
  DEFAULT_QUERY_TIMEOUT_MS,
  isPostgresUrl,
  maskUrl,
  serverDeadline,
} from './postgres.js';
export type { ScriptTransaction, Store, StoreConfig, StoreKind } from './store.js';
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
  if (!inMemory) mkdirSync(config.dataDir, { recursive: true });
  const pglite = await PGlite.create({
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
      await pglite.close();
    },
  };
}
