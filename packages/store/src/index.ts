import { mkdirSync } from 'node:fs';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import {
  createFromTemplate,
  embeddedOptions,
  holdsEmbeddedDatabase,
  prepareEmbeddedTemplate,
} from './embedded.js';
import {
  listenPGlite,
  listenPostgres,
  type NotificationHandlers,
  type Subscription,
} from './notifications.js';
import { PGliteDialect } from './pglite-dialect.js';
import { timestamptzParser } from './timestamps.js';

export {
  embeddedTemplateDir,
  holdsEmbeddedDatabase,
  prepareEmbeddedTemplate,
} from './embedded.js';
export { type MigrationResult, migrate } from './migrate.js';
export type { NotificationHandlers, Subscription } from './notifications.js';

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
  /**
   * Longest wait for the answer to one PostgreSQL statement, in milliseconds (default 30000; 0:
   * none). PostgreSQL itself cancels a statement a little before it (`statement_timeout`, see
   * serverDeadline), rolling it back with its locks; past it the connection is destroyed, so the
   * statement fails instead of waiting for a server that stopped answering without closing the
   * connection (frozen, partitioned away). Migrations and other script transactions are not
   * bounded.
   */
  queryTimeoutMs?: number;
  /** Called when an idle pooled connection fails (for instance when PostgreSQL restarts). */
  onPoolError?: (error: Error) => void;
  /** A dump made by PGlite's `dumpDataDir`, to start a memory store from (tests). */
  loadDataDir?: Blob;
  /**
   * Embedded store in a folder: flush each commit's WAL to stable storage before the commit
   * returns (default true; see embedded.ts). False only for throwaway data: a commit then
   * survives the process being killed but not a power loss or an operating-system crash.
   */
  durable?: boolean;
  /**
   * Called before an embedded store's folder is created (its first start), so the caller can
   * say what the pause is.
   */
  onCreate?: () => void;
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
  /**
   * LISTENs to `channel` (a lower-case identifier) on a connection of its own: PostgreSQL's
   * NOTIFY from any session, of this process or another, reaches `handlers` (see
   * notifications.ts for when notifications may be missed). Close the subscription before the
   * store.
   */
  listen(channel: string, handlers: NotificationHandlers): Promise<Subscription>;
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
const TIMESTAMPTZ = 1184;
const parseNumber = (value: string) => Number(value);
const keepText = (value: string) => value;

/**
 * PostgreSQL settings of the embedded store, which runs inside the application's process: its
 * shared buffers are that process's memory. PostgreSQL's default of 128 MB made the inventory's
 * server hold 480 MB with 100,000 devices; 32 MB keeps the hot pages (the primary keys and the
 * list indexes) and leaves the rest to the operating system's file cache, which PGlite reads
 * through. WAL is kept to 256 MB (default 1 GB): after a bulk load the data folder otherwise
 * keeps a gigabyte of old segments for reuse.
 */
const EMBEDDED_SETTINGS = [
  '-c',
  'shared_buffers=32MB',
  '-c',
  'max_wal_size=256MB',
  '-c',
  'min_wal_size=32MB',
];

const parsePostgresTimestamptz = timestamptzParser(pg.types.getTypeParser(TIMESTAMPTZ, 'text'));

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
  const durable = config.durable ?? true;
  // A given dump (loadDataDir) is the cluster to start from; otherwise a new folder is created
  // from the template.
  if (!inMemory && !config.loadDataDir && !holdsEmbeddedDatabase(config.dataDir)) {
    config.onCreate?.();
    // The template is made at install (postinstall); if it is missing, it is made now, once for
    // every later folder. Without a writable cache, PGlite runs initdb in the folder itself.
    if (!(await createFromTemplate(config.dataDir, durable))) {
      if (await prepareEmbeddedTemplate()) await createFromTemplate(config.dataDir, durable);
    }
  }
  if (!inMemory) mkdirSync(config.dataDir, { recursive: true });
  const pglite = await PGlite.create({
    ...(inMemory
      ? { startParams: [...PGlite.defaultStartParams, ...EMBEDDED_SETTINGS] }
      : embeddedOptions(config.dataDir, durable, EMBEDDED_SETTINGS)),
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
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite) });
  return {
    kind: inMemory ? 'memory' : 'embedded',
    description: inMemory
      ? 'embedded PostgreSQL in memory'
      : `embedded PostgreSQL in ${config.dataDir}${durable ? '' : ' (durability off)'}`,
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
      await db.destroy();
      await pglite.close();
    },
  };
}

export const DEFAULT_QUERY_TIMEOUT_MS = 30_000;

/**
 * PostgreSQL's own deadline for a statement (`statement_timeout`), a little before the client's:
 * the server then cancels the statement and rolls it back, releasing its locks, and the request
 * fails with 57014. Destroying the socket alone left the statement running, still able to
 * commit a write whose client had been told it failed.
 */
export function serverDeadline(queryTimeoutMs: number): number {
  return Math.max(1, queryTimeoutMs - Math.min(1000, Math.floor(queryTimeoutMs / 10)));
}

/**
 * Gives every statement of `client` a deadline. `pg`'s own `query_timeout` only stops waiting:
 * the statement stays on the connection, which goes back to the pool busy. Destroying the socket
 * instead fails the statement (and any queued behind it) with "Connection terminated
 * unexpectedly", which the API answers 503 to, and the pool discards the client on release.
 * TCP alone would notice a silent server only after many minutes, if ever.
 */
function boundQueries(client: pg.PoolClient, ms: number, unbounded: WeakSet<object>): void {
  // (The server's own statement_timeout, set a little earlier, normally ends the statement
  // first: this is for a server that cannot.)
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const bounded = (...args: unknown[]) => {
    const result = query(...args);
    // Callback-style calls (pool.query) and submittables are left as they are.
    if (unbounded.has(client) || !(result instanceof Promise)) return result;
    const timer = setTimeout(() => {
      const { connection } = client as unknown as { connection?: { stream?: { destroy(): void } } };
      connection?.stream?.destroy();
    }, ms);
    return result.finally(() => clearTimeout(timer));
  };
  (client as unknown as { query: typeof bounded }).query = bounded;
}

/**
 * Named statements kept per connection, least recently used dropped first. Each one holds a
 * parsed statement and its cached plans in that connection's PostgreSQL session; the service's
 * statements are few (one per shape), but clients choose the shapes (filters, sort keys), so the
 * number must be bounded per session, not just named first come first served.
 */
const STATEMENTS_PER_CONNECTION = 200;
const namedClients = new WeakSet<pg.PoolClient>();

/** pg's record of the statements it has prepared on a connection (not in its typings). */
interface PgConnectionInternals {
  parsedStatements?: Record<string, string>;
  submittedNamedStatements?: Record<string, string>;
}

/**
 * PostgreSQL refuses a prepared statement whose result columns changed type since it was
 * prepared (a migration altered or dropped a column it reads): 0A000 on every later call on
 * that connection, until it is closed.
 */
function isStalePlan(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    code === '0A000' && typeof message === 'string' && message.includes('cached plan must not')
  );
}

/**
 * Kysely sends every statement through `client.query(text, values)`, unnamed, so PostgreSQL
 * parses and plans it again on each call (for a list, more than running it). This names them:
 * pg prepares a named statement on a connection the first time and reuses it after. Statements
 * given as text alone (migration scripts, several statements in one text) stay unnamed.
 */
function withNamedStatements(client: pg.PoolClient): pg.PoolClient {
  if (namedClients.has(client)) return client;
  namedClients.add(client);
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  /** Text to name, least recently used first. */
  const names = new Map<string, string>();
  let issued = 0;
  const nameFor = (text: string): string => {
    const known = names.get(text);
    if (known !== undefined) {
      names.delete(text);
      names.set(text, known);
      return known;
    }
    const name = `netops_${++issued}`;
    names.set(text, name);
    if (names.size > STATEMENTS_PER_CONNECTION) {
      const [oldest, oldestName] = names.entries().next().value as [string, string];
      names.delete(oldest);
      // pg forgets it (a name is never issued twice, so nothing can collide with it), and the
      // session releases it after whatever is queued on this client; in a failed transaction
      // the DEALLOCATE fails too and that one statement stays until the connection closes.
      const internals = (client as unknown as { connection?: PgConnectionInternals }).connection;
      delete internals?.parsedStatements?.[oldestName];
      delete internals?.submittedNamedStatements?.[oldestName];
      (query(`DEALLOCATE ${oldestName}`) as Promise<unknown>).catch(() => {});
    }
    return name;
  };
  (client as { query: unknown }).query = (text: unknown, values?: unknown, ...rest: unknown[]) => {
    const named = typeof text === 'string' && Array.isArray(values);
    const result = named
      ? query({ name: nameFor(text), text, values }, ...rest)
      : query(text, values, ...rest);
    // Callback-style calls answer through their callback.
    if (!(result instanceof Promise)) return result;
    return result.catch((error: unknown) => {
      if (endsTheSession(error)) brokenClients.add(client);
      if (!named || !isStalePlan(error)) throw error;
      // The statement was refused before it ran, so it can run again: unnamed, it is planned
      // against the current schema. The connection is closed on release (its session keeps the
      // stale statements). Inside a transaction the retry fails as the transaction has, and the
      // original error is the one to report.
      brokenClients.add(client);
      return (query(text, values, ...rest) as Promise<unknown>).catch(() => {
        throw error;
      });
    });
  };
  return client;
}

/** Clients whose server session ended with a statement's error, to discard on release. */
const brokenClients = new WeakSet<pg.PoolClient>();

/**
 * Whether PostgreSQL ended the session with this error: FATAL or PANIC severity (the backend was
 * terminated, the server is shutting down or crashed) or a connection-exception code (class 08).
 * The error reaches the statement before the socket closes, so without this the pool would take
 * the client back as healthy and hand the dead connection to the next request.
 */
function endsTheSession(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { severity, code } = error as { severity?: unknown; code?: unknown };
  return (
    severity === 'FATAL' ||
    severity === 'PANIC' ||
    (typeof code === 'string' && (code.startsWith('08') || code.startsWith('57P')))
  );
}

/** Checks a client out for Kysely; one whose session ended is destroyed on release, not reused. */
async function checkOut(pool: pg.Pool): Promise<pg.PoolClient> {
  const client = withNamedStatements(await pool.connect());
  const release = client.release.bind(client);
  client.release = (destroy?: Error | boolean) =>
    release(brokenClients.has(client) ? true : destroy);
  return client;
}

function openPostgres<DB>(url: string, config: StoreConfig): Store<DB> {
  const queryTimeoutMs = config.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
  const unbounded = new WeakSet<object>();
  const pool = new pg.Pool({
    connectionString: url,
    ...(queryTimeoutMs > 0 ? { statement_timeout: serverDeadline(queryTimeoutMs) } : {}),
    max: config.poolSize ?? 10,
    connectionTimeoutMillis: config.connectTimeoutMs ?? 5000,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
        if (oid === INT8 || oid === NUMERIC) return parseNumber;
        if (oid === DATE) return keepText;
        if (oid === TIMESTAMPTZ && format !== 'binary') return parsePostgresTimestamptz;
        return pg.types.getTypeParser(oid, format);
      }) as typeof pg.types.getTypeParser,
    },
  });
  // A client that loses its server (PostgreSQL stopped, restarted, crashed) emits 'error'; with no
  // listener that ends the process. The pool listens only while a client is idle, so a client
  // checked out by a request (between its statements, or when the server's FATAL message comes
  // before the socket closes) needs a listener of its own. Its statement fails on its own, with
  // the error the API answers 503 to, and the pool discards the dead client on release.
  pool.on('error', (error) => config.onPoolError?.(error));
  pool.on('connect', (client) => {
    client.on('error', (error) => config.onPoolError?.(error));
    if (queryTimeoutMs > 0) boundQueries(client, queryTimeoutMs, unbounded);
  });
  const db = new Kysely<DB>({
    dialect: new PostgresDialect({
      pool: {
        connect: () => checkOut(pool),
        end: () => pool.end(),
      } as unknown as pg.Pool,
    }),
  });
  return {
    kind: 'postgres',
    description: `PostgreSQL at ${maskUrl(url)}`,
    db,
    async scriptTransaction(work) {
      const client = await pool.connect();
      // A migration may legitimately build an index for minutes.
      unbounded.add(client);
      try {
        await client.query('BEGIN');
        await client.query('SET LOCAL statement_timeout = 0');
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
        unbounded.delete(client);
        client.release();
      }
    },
    listen: (channel, handlers) =>
      listenPostgres(channel, handlers, {
        connectionString: url,
        connectTimeoutMs: config.connectTimeoutMs ?? 5000,
        notify: async (channel, payload) => {
          await pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
        },
      }),
    async close() {
      // Kysely's PostgresDriver ends the pool it was given.
      await db.destroy();
    },
  };
}
