import type { PGlite } from '@electric-sql/pglite';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { type NamedStatements, namedStatementsOf } from './pglite-statements.js';

/**
 * PGlite is a single connection. Kysely may hand a "connection" to a transaction while other
 * requests still want to run queries, so the driver lends the one connection to one holder at a
 * time; without that, statements of concurrent requests would land inside each other's
 * transactions.
 *
 * Holders are served each after a turn of the event loop (setImmediate). PGlite runs a statement
 * synchronously in WebAssembly and settles its promise without a turn of the loop. Lent at once,
 * every request read in one pass over the ready sockets ran its statement inside that pass: 32
 * clients sending batches of 100 got one pass of 2 s and more, in which no connection was
 * accepted and no timer fired, and a client that connected then waited up to 26 s while the
 * others were served again and again. Queued, the statements of one pass wait their turn;
 * between two of them the loop accepts connections, reads requests and writes answers.
 *
 * Reads are served in the order they asked. A write (the writes-first instance, see
 * writes-first.ts) goes ahead of waiting reads, but never twice in a row while reads wait: the
 * one connection's half of the turns, as a pool's writes get at most half of its connections.
 */
export class ConnectionLease {
  #busy = false;
  /** Whether the last turn went to a write while reads waited. */
  #aheadOfReads = false;
  readonly #waiting = { write: [] as Array<() => void>, read: [] as Array<() => void> };

  acquire(write = false): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#waiting[write ? 'write' : 'read'].push(resolve);
      if (!this.#busy) {
        this.#busy = true;
        setImmediate(() => this.#handOver());
      }
    });
  }

  release(): void {
    // Still busy until the hand-over: a newcomer queues behind those already waiting.
    setImmediate(() => this.#handOver());
  }

  #handOver(): void {
    const { write, read } = this.#waiting;
    const toWrite = write.length > 0 && !(read.length > 0 && this.#aheadOfReads);
    this.#aheadOfReads = toWrite && read.length > 0;
    const next = (toWrite ? write : read).shift();
    if (next) next();
    else this.#busy = false;
  }
}

class PGliteConnection implements DatabaseConnection {
  readonly #statements: NamedStatements;

  constructor(
    pglite: PGlite,
    private readonly genericPlans: boolean,
  ) {
    this.#statements = namedStatementsOf(pglite);
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.#statements.run<R>(
      compiled.sql,
      compiled.parameters,
      this.genericPlans,
    );
    const affected = result.affectedRows;
    return {
      rows: result.rows,
      ...(affected !== undefined ? { numAffectedRows: BigInt(affected) } : {}),
    };
  }

  // biome-ignore lint/correctness/useYield: streaming is not offered by PGlite
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming queries are not supported on the embedded store');
  }
}

class PGliteDriver implements Driver {
  readonly #connection: PGliteConnection;

  constructor(
    private readonly pglite: PGlite,
    private readonly lease: ConnectionLease,
    private readonly role: PGliteRole,
  ) {
    this.#connection = new PGliteConnection(pglite, role === 'generic plans');
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.lease.acquire(this.role === 'writes first');
    return this.#connection;
  }

  async beginTransaction(_conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const isolation = settings.isolationLevel ? ` ISOLATION LEVEL ${settings.isolationLevel}` : '';
    await this.pglite.exec(`BEGIN${isolation}`);
  }

  async commitTransaction(): Promise<void> {
    await this.pglite.exec('COMMIT');
  }

  async rollbackTransaction(): Promise<void> {
    await this.pglite.exec('ROLLBACK');
  }

  async releaseConnection(): Promise<void> {
    this.lease.release();
  }

  async destroy(): Promise<void> {
    // The owner of the PGlite instance closes it (see Store.close).
  }
}

/**
 * What an instance on the one PGlite session is for: the ordinary statements, writes that go
 * ahead of waiting reads (writes-first.ts), or statements planned once (generic-plans.ts).
 */
export type PGliteRole = 'ordinary' | 'writes first' | 'generic plans';

/**
 * A Kysely dialect on `pglite`, lending its connection through `lease`: the instances of one
 * PGlite share one lease, `role` telling them apart.
 */
export class PGliteDialect implements Dialect {
  constructor(
    private readonly pglite: PGlite,
    private readonly lease = new ConnectionLease(),
    private readonly role: PGliteRole = 'ordinary',
  ) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pglite, this.lease, this.role);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  // biome-ignore lint/suspicious/noExplicitAny: Kysely's introspector takes any database shape
  createIntrospector(db: Kysely<any>) {
    return new PostgresIntrospector(db);
  }
}
