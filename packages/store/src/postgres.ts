import { PassThrough, type Readable } from 'node:stream';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { registerCopyOut } from './copy-out.js';
import { registerGenericPlans } from './generic-plans.js';
import { listenPostgres } from './notifications.js';
import type { Store, StoreConfig } from './store.js';
import { timestamptzParser } from './timestamps.js';
import { DATE, INT8, keepText, NUMERIC, parseNumber, TIMESTAMPTZ } from './value-types.js';
import { CheckoutQueue, registerWritesFirst } from './writes-first.js';

/**
 * The PostgreSQL server store: a `pg` pool whose statements are named (prepared once per
 * connection), bounded in time, and whose broken connections are discarded.
 */

const parsePostgresTimestamptz = timestamptzParser(pg.types.getTypeParser(TIMESTAMPTZ, 'text'));

export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(ql)?:\/\//.test(url);
}

/**
 * A database URL as a message may show it: the password and every query parameter's value
 * masked (`pg` reads `?password=` and `?sslpassword=` as secrets too), any fragment dropped.
 */
export function maskUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    const names = [...parsed.searchParams.keys()];
    parsed.search =
      names.length > 0
        ? `?${names.map((name) => `${encodeURIComponent(name)}=***`).join('&')}`
        : '';
    parsed.hash = '';
    return parsed.toString();
  } catch {
    return 'postgres://(unparsable URL)';
  }
}

export const DEFAULT_QUERY_TIMEOUT_MS = 30_000;

/** Statements an instance runs at once on PostgreSQL, unless StoreConfig.poolSize says. */
export const DEFAULT_POOL_SIZE = 10;

const DEFAULT_CONNECT_TIMEOUT_MS = 5000;

/**
 * How long a pooled connection may sit idle before it is closed (`pg`'s default is 10 s). Its
 * session holds the statements it has prepared and their plans, which cost several times a later
 * call to make again (a list's first call on a connection: parse and plan, 1.5 ms or more), so a
 * pause of a few seconds in the traffic should not throw them away.
 */
const IDLE_CONNECTION_MS = 5 * 60_000;

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
export const STATEMENTS_PER_CONNECTION = 200;
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
async function checkOut(
  pool: pg.Pool,
  queue: CheckoutQueue,
  write: boolean,
  connectTimeoutMs: number,
): Promise<pg.PoolClient> {
  // As long as `pg`'s pool would have waited for a free connection (connectionTimeoutMillis).
  await queue.enter(write, connectTimeoutMs);
  let client: pg.PoolClient;
  try {
    client = withNamedStatements(await pool.connect());
  } catch (error) {
    queue.leave(write);
    throw error;
  }
  const release = client.release.bind(client);
  let released = false;
  client.release = (destroy?: Error | boolean) => {
    if (!released) {
      released = true;
      queue.leave(write);
    }
    return release(brokenClients.has(client) ? true : destroy);
  };
  return client;
}

/**
 * `COPY … TO STDOUT` on a connection of its own for as long as the stream lasts, in a read-only
 * transaction whose statement deadline is the caller's (`deadlineMs`): a COPY lasts as long as
 * its reader takes, which for a large export on a slow link is longer than any one query should.
 * A stream that ends early (the client went away, an error) leaves the connection in the middle
 * of the COPY: it is closed, not reused.
 */
function copyOut(pool: pg.Pool, text: string, deadlineMs: number): Readable {
  const output = new PassThrough();
  let released = false;
  const start = async () => {
    const client = await pool.connect();
    const release = (broken: boolean) => {
      if (released) return;
      released = true;
      client.release(broken);
    };
    try {
      await client.query('BEGIN READ ONLY');
      await client.query(`SET LOCAL statement_timeout = ${Math.max(0, Math.floor(deadlineMs))}`);
    } catch (error) {
      release(true);
      throw error;
    }
    if (output.destroyed) {
      // The reader left before the COPY started.
      release(true);
      return;
    }
    const stream = client.query(copyTo(text));
    stream.on('error', (error) => {
      release(true);
      output.destroy(error);
    });
    stream.on('end', () => {
      client.query('COMMIT').then(
        () => release(false),
        () => release(true),
      );
    });
    output.on('close', () => {
      if (!stream.readableEnded) {
        stream.destroy();
        release(true);
      }
    });
    stream.pipe(output);
  };
  start().catch((error: Error) => output.destroy(error));
  return output;
}

/**
 * A `pg` pool with the store's types, deadlines and error handling, and the Kysely instances on
 * it: `db`, and `writesFirst`, whose statements wait for a connection ahead of `db`'s
 * (writes-first.ts). Connections are checked out through `queue`, which the store's pools
 * share. `sessionSetting`, when given, is run on each new connection before its first statement.
 */
function openPool<DB>(
  url: string,
  config: StoreConfig,
  queryTimeoutMs: number,
  unbounded: WeakSet<object>,
  queue: CheckoutQueue,
  sessionSetting?: string,
): { pool: pg.Pool; db: Kysely<DB>; writesFirst: Kysely<DB> } {
  const connectTimeoutMs = config.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const pool = new pg.Pool({
    connectionString: url,
    ...(queryTimeoutMs > 0 ? { statement_timeout: serverDeadline(queryTimeoutMs) } : {}),
    max: config.poolSize ?? DEFAULT_POOL_SIZE,
    idleTimeoutMillis: IDLE_CONNECTION_MS,
    connectionTimeoutMillis: connectTimeoutMs,
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
    // Queued ahead of the statement the connection was opened for. Should it fail, the session
    // keeps PostgreSQL's defaults: slower, never wrong.
    if (sessionSetting) client.query(sessionSetting).catch(() => {});
  });
  const on = (write: boolean, end: () => Promise<void>) =>
    new Kysely<DB>({
      dialect: new PostgresDialect({
        pool: {
          connect: () => checkOut(pool, queue, write, connectTimeoutMs),
          end,
        } as unknown as pg.Pool,
      }),
    });
  // The pool is ended once, by `db`'s destroy.
  return { pool, db: on(false, () => pool.end()), writesFirst: on(true, async () => {}) };
}

export function openPostgres<DB>(url: string, config: StoreConfig): Store<DB> {
  const queryTimeoutMs = config.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
  const unbounded = new WeakSet<object>();
  // One queue for both pools: the instance runs at most `poolSize` statements at once, however
  // they are split between the pools (see StoreConfig.poolSize).
  const queue = new CheckoutQueue(config.poolSize ?? DEFAULT_POOL_SIZE, config.readsBesideWrites);
  const { pool, db, writesFirst } = openPool<DB>(url, config, queryTimeoutMs, unbounded, queue);
  registerWritesFirst(db, writesFirst);
  // A pool of its own (opened lazily, as any pool's connections are), since the settings belong
  // to a session: see generic-plans.ts.
  const generic = openPool<DB>(
    url,
    config,
    queryTimeoutMs,
    unbounded,
    queue,
    'SET plan_cache_mode = force_generic_plan; SET max_parallel_workers_per_gather = 0',
  );
  registerGenericPlans(db, generic.db);
  registerCopyOut(db as unknown as Kysely<never>, (text, deadlineMs) =>
    copyOut(pool, text, deadlineMs),
  );
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
        connectTimeoutMs: config.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
        notify: async (channel, payload) => {
          await pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
        },
      }),
    async close() {
      // Kysely's PostgresDriver ends the pool it was given.
      await Promise.all([db.destroy(), writesFirst.destroy(), generic.db.destroy()]);
    },
  };
}
