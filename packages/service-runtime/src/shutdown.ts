/** What graceful shutdown needs of a server (a Fastify instance has it). */
export interface ClosableServer {
  close(): Promise<unknown>;
  log: ShutdownLogger;
}

export interface ShutdownLogger {
  info(object: object, message?: string): void;
  info(message: string): void;
  error(object: object, message?: string): void;
}

export interface GracefulShutdownOptions {
  /** Runs after the server has stopped and every in-flight request is answered (close the database). */
  onClose?: () => Promise<void> | void;
  /** Past this, exit 1 without waiting further (default 10 s). */
  timeoutMs?: number;
  logger?: ShutdownLogger;
  signals?: readonly NodeJS.Signals[];
  /** process.exit by default; main.ts passes one that flushes its log output first (bounded). */
  exit?: (code: number) => void;
}

export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;

/**
 * On SIGTERM or SIGINT: stop accepting connections, let in-flight requests finish (Fastify's
 * close(); with `forceCloseConnections: 'idle'` idle keep-alive sockets go at once and requests
 * arriving on busy ones get 503), then `onClose`, then exit 0. A second signal or the timeout
 * exits 1 at once: an operator pressing Ctrl-C twice, or an orchestrator that will SIGKILL soon
 * anyway, should not wait on a stuck request. Returns a function that uninstalls the handlers.
 */
export function installGracefulShutdown(
  app: ClosableServer,
  options: GracefulShutdownOptions = {},
): () => void {
  const {
    onClose,
    timeoutMs = DEFAULT_SHUTDOWN_TIMEOUT_MS,
    logger = app.log,
    signals = ['SIGTERM', 'SIGINT'],
    exit = (code: number) => process.exit(code),
  } = options;
  let shuttingDown = false;

  const onSignal = (signal: NodeJS.Signals) => {
    if (shuttingDown) {
      logger.error({ signal }, 'second signal during shutdown: exiting now');
      exit(1);
      return;
    }
    shuttingDown = true;
    logger.info({ signal, timeoutMs }, 'shutting down: finishing in-flight requests');
    const deadline = setTimeout(() => {
      logger.error({ timeoutMs }, 'shutdown timed out: exiting now');
      exit(1);
    }, timeoutMs);
    void shutDown().then(
      () => {
        clearTimeout(deadline);
        logger.info('shutdown complete');
        exit(0);
      },
      (error: unknown) => {
        clearTimeout(deadline);
        logger.error({ err: error }, 'shutdown failed');
        exit(1);
      },
    );
  };

  const shutDown = async () => {
    await app.close();
    await onClose?.();
  };

  for (const signal of signals) process.on(signal, onSignal);
  return () => {
    for (const signal of signals) process.off(signal, onSignal);
  };
}
