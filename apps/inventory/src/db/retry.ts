/**
 * SQLSTATEs with which PostgreSQL aborts a transaction to resolve a conflict with concurrent
 * ones: a deadlock (its victim), a serialization failure. Nothing of the aborted transaction
 * remains, and running it again is PostgreSQL's documented remedy; the client's request was
 * fine, so it should not see a 500 for it.
 */
const CONFLICT_SQLSTATES = new Set(['40P01', '40001']);

/** Attempts of a write in all, the first included. */
export const CONFLICT_ATTEMPTS = 3;

export function isConflictAbort(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CONFLICT_SQLSTATES.has(code);
}

/**
 * Runs `transaction` (a whole transaction or a single statement, which is one) again when
 * PostgreSQL aborted it to resolve a conflict, up to CONFLICT_ATTEMPTS times; any other error,
 * or the last conflict, goes to the caller.
 */
export async function retryOnConflict<T>(transaction: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= CONFLICT_ATTEMPTS || !isConflictAbort(error)) throw error;
      // A short random pause, so that the transactions that met do not meet again in step.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}
