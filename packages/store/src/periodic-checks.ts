/**
 * A check the embedded store runs on a timer of its own (checkpoints.ts, autovacuum.ts): the next
 * one is scheduled when the last has ended, so two never overlap, and a failure is reported and
 * the check tried again at the next turn.
 */

export interface PeriodicChecks {
  /** Whether stop() was called: a check in several steps stops between them. */
  readonly stopped: boolean;
  /** Stops checking; resolves once a check under way has ended. */
  stop(): Promise<void>;
}

export function startPeriodicChecks(
  check: () => Promise<void>,
  timing: { firstAfterMs: number; intervalMs: number },
  onError: ((error: Error) => void) | undefined,
): PeriodicChecks {
  let stopped = timing.intervalMs <= 0;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const scheduleNext = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = check()
        .catch((error: unknown) => {
          if (!stopped) onError?.(error instanceof Error ? error : new Error(String(error)));
        })
        .finally(() => scheduleNext(timing.intervalMs));
    }, delayMs);
    // A store left open must not keep the process alive for its checks.
    timer.unref();
  };
  scheduleNext(Math.min(timing.firstAfterMs, timing.intervalMs));

  return {
    get stopped() {
      return stopped;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
