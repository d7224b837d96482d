import type { PGlite } from '@electric-sql/pglite';

/**
 * The embedded store after PostgreSQL inside it failed past recovery: a PANIC (a WAL write or
 * flush that failed, as when the disk is full: `could not write to file "pg_wal/xlogtemp.42": No
 * space left on device`), a FATAL (the single backend ending), or the WebAssembly module itself
 * aborting or exiting. A PostgreSQL server restarts there and recovers from its WAL; PGlite went
 * on, and the next statement (the transaction's ROLLBACK) spun inside the WebAssembly module for
 * good: the process stopped answering, /health included, ignored SIGTERM, and never recovered
 * when space came back. Such a failure is now final for the store: every later statement, its
 * close included, is refused with this error at once, without entering PGlite again, and
 * StoreConfig's `onFailure` is told, once, so the service can exit and be restarted (a restart
 * recovers every committed transaction from the WAL).
 *
 * Its code is PostgreSQL's crash_shutdown (57P02), what a server's other sessions get when one
 * backend PANICs: a service that answers 503 for an unavailable database answers that.
 */
export class StoreFailedError extends Error {
  override readonly name = 'StoreFailedError';
  readonly code = '57P02';
  readonly severity = 'FATAL';
}

interface Failing {
  readonly failure: StoreFailedError | undefined;
}

/** Whether a PGlite error leaves PostgreSQL inside it unusable. */
function isFatal(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return true;
  const { severity, name } = error as { severity?: unknown; name?: unknown };
  // A DatabaseError from PostgreSQL: ERROR is the statement's (its transaction rolled back);
  // FATAL ends the one backend, PANIC the whole server.
  if (typeof severity === 'string') return severity === 'FATAL' || severity === 'PANIC';
  // Thrown by the module itself: Emscripten's ExitStatus (exit, abort) or WebAssembly's
  // RuntimeError (`unreachable` after an abort, memory out of bounds).
  return name === 'ExitStatus' || name === 'RuntimeError';
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message.split('\n')[0] ?? error.name;
  return String(error);
}

/**
 * Watches every call into `pglite`'s PostgreSQL (each goes through execProtocolRawSync, the
 * parsed results through execProtocol or execProtocolStream): the first fatal failure is kept,
 * `onFailure` is called with it, and every later call is refused with it.
 */
export function guardFatalFailures(
  pglite: PGlite,
  where: string,
  onFailure: (error: StoreFailedError) => void,
): Failing {
  let failure: StoreFailedError | undefined;
  const fail = (error: unknown): StoreFailedError => {
    if (failure !== undefined) return failure;
    failure = new StoreFailedError(
      `embedded PostgreSQL in ${where} failed and cannot go on (${describe(error)}); a restart recovers every committed write (if its disk is full, free space first)`,
      { cause: error },
    );
    const told = failure;
    // After the caller has its answer: the failing statement's request still gets its error.
    setImmediate(() => onFailure(told));
    return failure;
  };
  const rawSync = pglite.execProtocolRawSync.bind(pglite);
  pglite.execProtocolRawSync = (message) => {
    if (failure !== undefined) throw failure;
    try {
      return rawSync(message);
    } catch (error) {
      throw isFatal(error) ? fail(error) : error;
    }
  };
  for (const method of ['execProtocol', 'execProtocolStream'] as const) {
    const original = pglite[method].bind(pglite) as (...args: unknown[]) => Promise<unknown>;
    (pglite as unknown as Record<string, unknown>)[method] = async (...args: unknown[]) => {
      if (failure !== undefined) throw failure;
      try {
        return await original(...args);
      } catch (error) {
        throw error !== failure && isFatal(error) ? fail(error) : error;
      }
    };
  }
  return {
    get failure() {
      return failure;
    },
  };
}
