import { CliError } from './errors.js';
import { printable } from './format/printable.js';

/** Exit codes for the signals that stop the tool: 128 + the signal number, as shells report. */
const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
/** An unexpected error (EX_SOFTWARE in sysexits.h). */
export const INTERNAL_ERROR_EXIT = 70;

/** What must run on every way out: restoring the terminal, flushing printed lines. */
const cleanups: (() => void)[] = [];

export function onExit(cleanup: () => void): void {
  cleanups.push(cleanup);
}

/** What a signal waits for before the cleanups and the exit (a relay leaving Redis tidy). */
const shutdowns: (() => Promise<void>)[] = [];
/** How long a signal waits for them: a stuck one must not keep the process from stopping. */
const SHUTDOWN_GRACE_MS = 3_000;
let stopping = false;

/**
 * `task` runs when a signal stops the process, awaited (at most 3 s) before the cleanups; a
 * second signal meanwhile exits at once.
 */
export function onSignalShutdown(task: () => Promise<void>): () => void {
  shutdowns.push(task);
  return () => {
    const index = shutdowns.indexOf(task);
    if (index !== -1) shutdowns.splice(index, 1);
  };
}

async function stopOnSignal(code: number): Promise<void> {
  if (stopping || shutdowns.length === 0) exitProcess(code);
  stopping = true;
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, SHUTDOWN_GRACE_MS);
  });
  const tasks = shutdowns.splice(0).map((task) => task().catch(() => {}));
  await Promise.race([Promise.all(tasks), grace]);
  clearTimeout(timer);
  exitProcess(code);
}

/** Runs each cleanup once, in order. */
function restore(): void {
  for (const cleanup of cleanups.splice(0)) {
    try {
      cleanup();
    } catch {
      // Best effort on the way out; the other cleanups and the exit must still happen.
    }
  }
}

export function exitProcess(code: number): never {
  restore();
  process.exit(code);
}

/** The one place errors become messages and exit codes. */
export function fail(error: unknown): never {
  restore();
  if (error instanceof CliError) {
    // Messages quote config files, flags and saved sessions, any of which may be hostile: one
    // filter here, so no escape sequence in them reaches the terminal.
    // One line each: a message of several lines (Node's own for an ambiguous option) keeps its
    // line breaks, and nothing else in it reaches the terminal unescaped.
    const lines = error.message.split(/\r?\n/).map((line) => `webhook: ${printable(line)}\n`);
    process.stderr.write(lines.join(''));
    process.exit(error.exitCode);
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`webhook: internal error: ${detail}\n`);
  process.exit(INTERNAL_ERROR_EXIT);
}

/**
 * Every way the process can end goes through `restore`: signals, crashes, and (last resort) the
 * 'exit' event. Installed once, first thing.
 */
export function installExitHandlers(): void {
  for (const [signal, code] of Object.entries(SIGNAL_EXIT_CODES)) {
    process.on(signal, () => void stopOnSignal(code));
  }
  process.on('uncaughtException', fail);
  process.on('unhandledRejection', fail);
  process.on('exit', restore);
}
