import type { Kysely } from 'kysely';
import type { AutovacuumSchedule } from './autovacuum.js';
import type { CheckpointSchedule } from './checkpoints.js';
import type { StoreFailedError } from './fatal.js';
import type { NotificationHandlers, Subscription } from './notifications.js';

/** `postgres`: a server through `pg`; `embedded`: PGlite persisted in a folder; `memory`: PGlite thrown away on close. */
export type StoreKind = 'postgres' | 'embedded' | 'memory';

export interface StoreConfig {
  /** A `postgres://` (or `postgresql://`) URL, `memory://`, or undefined for the embedded store. */
  databaseUrl?: string | undefined;
  /** Folder of the embedded store; used when `databaseUrl` is not set. */
  dataDir: string;
  /**
   * Statements an instance runs at once on PostgreSQL (default 10), over both of its connection
   * pools: the ordinary one and the one for statements planned once (generic-plans.ts). Each
   * pool opens up to this many connections, so an instance holds at most twice this many, plus
   * one to listen for notifications. Writes wait for a turn ahead of reads (writes-first.ts).
   * More statements at once than the database's cores only share them: on two cores, 6 at once
   * answered more lists, and writes sooner, than 10 or 20.
   */
  poolSize?: number;
  /**
   * Reads that may start while some writes run, fewer than their half of the turns (default a
   * fifth of `poolSize`, at least 1; `poolSize` or more: no limit), so that a write shares the
   * server's cores with fewer statements. Beside a flood of writes reads keep their half
   * (writes-first.ts).
   */
  readsBesideWrites?: number;
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
   * Embedded store (a folder or `memory://`): PostgreSQL's `shared_buffers`, in megabytes
   * (default DEFAULT_EMBEDDED_SHARED_BUFFERS_MB). They are the process's own memory, taken
   * whole when the store opens; a page missing from them is read from its file through
   * PGlite's file system, one system call and a copy per 8 kB page.
   */
  sharedBuffersMb?: number;
  /**
   * Embedded store in a folder: flush each commit's WAL to stable storage before the commit
   * returns (default true; see embedded.ts). False only for throwaway data: a commit then
   * survives the process being killed but not a power loss or an operating-system crash.
   */
  durable?: boolean;
  /**
   * Embedded store: when it checkpoints (see checkpoints.ts). PostgreSQL does not on its own
   * there; by default the store checks every second and follows PostgreSQL's own rules.
   */
  checkpoints?: CheckpointSchedule;
  /**
   * Embedded store: when it vacuums and analyzes its tables (see autovacuum.ts). PostgreSQL does
   * not on its own there; by default the store checks a second after opening and then every
   * minute, and follows the rules of PostgreSQL's autovacuum.
   */
  autovacuum?: AutovacuumSchedule;
  /**
   * The folder of the migrations the service applies after opening (see `migrate`): a new
   * embedded folder is created from the template that holds the most of them (made at install
   * by prepareMigratedTemplate), so that a first start has few or none left to apply.
   */
  migrations?: string | URL;
  /**
   * Embedded store (a folder or `memory://`): called once if PostgreSQL inside the process fails
   * past recovery (a PANIC, as when a WAL write fails on a full disk; a FATAL; the WebAssembly
   * module aborting). Every later statement is then refused with the StoreFailedError given here
   * (code 57P02, crash_shutdown), and close() only releases the folder. The service should exit
   * with a non-zero code so that it is restarted: a restart recovers every committed write from
   * the WAL, as a PostgreSQL server does after a PANIC (see fatal.ts).
   */
  onFailure?: (error: StoreFailedError) => void;
  /**
   * Called before an embedded store's folder is created (its first start), so the caller can
   * say what the pause is.
   */
  onCreate?: () => void;
}

/**
 * The store could not be opened for a reason its message says in one line, for a person: the
 * setting involved and what to do (an embedded folder another process holds, or one whose files
 * are not a database). A service prints it as it is, without a stack.
 */
export class StoreOpenError extends Error {
  override readonly name: string = 'StoreOpenError';
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
