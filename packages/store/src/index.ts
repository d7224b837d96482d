import { mkdirSync } from 'node:fs';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { PGliteDialect } from './pglite-dialect.js';

export { type MigrationResult, migrate } from './migrate.js';

/** `postgres`: a server through `pg`; `embedded`: PGlite persisted in a folder; `memory`: PGlite thrown away on close. */
export type StoreKind = 'postgres' | 'embedded' | 'memory';

export interface StoreConfig {
  /** A `postgres://` (or `postgresql://`) URL, `memory://`, or undefined for the embedded store. */
  databaseUrl?: string | undefined;
  /** Folder of the embedded store; used when `databaseUrl` is not set. */
  dataDir: string;
  /** Size of the PostgreSQL connection pool. */
  poolSize?: number;
  /**
   * How long to wait for a new PostgreSQL connection, in milliseconds (default 5000). Without a
   * bound, a server that silently drops packets would hang every request waiting for the pool.
   */
  connectTimeoutMs?: number;
  /** Called when an idle pooled connection fails (for instance when PostgreSQL restarts). */
  onPoolError?: (error: Error) => void;
  /** A dump made by PGlite's `dumpDataDir`, to start a memory store from (tests). */
  loadDataDir?: Blob;
}

/** One multi-statement script runner inside a transaction: what migrations and test resets need. */
export interface ScriptTransaction {
  query<R>(text: string, params?: unknown[]): Promise<R[]>;
  exec(script: string): Promise<void>;
}

export interface Store<DB> {
  readonly kind: StoreKind;
  /** Where the data lives, safe to log (a PostgreSQL URL's password is masked). */
  readonly description: string;
  readonly db: Kysely<DB>;
  scriptTransaction<T>(work: (tx: ScriptTransaction) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * Both backends hand values back with the same JavaScript types: bigint counts as numbers
 * (PostgreSQL's COUNT is int8, and counts here stay far below 2^53), numerics as numbers, and
 * calendar dates as their ISO text rather than a Date at some local midnight.
 */
const INT8 = 20;
const NUMERIC = 1700;
const DATE = 1082;
const parseNumber = (value: string) => Number(value);
const keepText = (value: string) => value;

export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(ql)?:\/\//.test(url);
}

export function maskUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://(unparsable URL)';
  }
}

export async function openStore<DB>(config: StoreConfig): Promise<Store<DB>> {
  const url = config.databaseUrl;
  if (isPostgresUrl(url)) return openPostgres<DB>(url, config);
  if (url !== undefined && url !== '' && url !== 'memory://') {
    throw new Error(`DATABASE_URL must be a postgres:// URL or memory://, not "${url}"`);
  }
  const inMemory = url === 'memory://';
  if (!inMemory) mkdirSync(config.dataDir, { recursive: true });
  const pglite = await PGlite.create({
    ...(inMemory ? {} : { dataDir: config.dataDir }),
    ...(config.loadDataDir ? { loadDataDir: config.loadDataDir } : {}),
    parsers: {
      [pgliteTypes.INT8]: parseNumber,
      [pgliteTypes.NUMERIC]: parseNumber,
      [pgliteTypes.DATE]: keepText,
    },
  });
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite) });
  return {
    kind: inMemory ? 'memory' : 'embedded',
    description: inMemory
      ? 'embedded PostgreSQL in memory'
      : `embedded PostgreSQL in ${config.dataDir}`,
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
    async close() {
      await db.destroy();
      await pglite.close();
    },
  };
}

function openPostgres<DB>(url: string, config: StoreConfig): Store<DB> {
  const pool = new pg.Pool({
    connectionString: url,
    max: config.poolSize ?? 10,
    connectionTimeoutMillis: config.connectTimeoutMs ?? 5000,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
        if (oid === INT8 || oid === NUMERIC) return parseNumber;
        if (oid === DATE) return keepText;
        return pg.types.getTypeParser(oid, format);
      }) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client that loses its server emits 'error'; unhandled, that would end the process.
  pool.on('error', (error) => config.onPoolError?.(error));
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return {
    kind: 'postgres',
    description: `PostgreSQL at ${maskUrl(url)}`,
    db,
    async scriptTransaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work({
          query: async <R>(text: string, params?: unknown[]) =>
            (await client.query(text, params)).rows as R[],
          exec: async (script) => {
            // Without parameters pg uses the simple protocol, which runs several statements.
            await client.query(script);
          },
        });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    async close() {
      // Kysely's PostgresDriver ends the pool it was given.
      await db.destroy();
    },
  };
}
