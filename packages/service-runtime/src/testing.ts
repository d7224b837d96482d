import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Environment } from './environment.js';
import { runService, type ServiceDefinition } from './run-service.js';
import type { ListenSettings } from './settings.js';

export interface InProcessRun {
  /** The exit code the process would have ended with. */
  code: number | undefined;
  stdout: string;
  stderr: string;
  /** What went to the log output (the starting line, logs), as JSON lines. */
  log: string;
}

/**
 * Runs a service's start-up in the calling process, for what it does before it listens: the
 * command line, --help, the configuration's problems, a busy port. No signal handler is
 * installed; a run that gets as far as listening is an error here (start a process for that).
 */
export async function runServiceInProcess<Config extends ListenSettings>(
  definition: ServiceDefinition<Config>,
  argv: readonly string[],
  env: Environment,
): Promise<InProcessRun> {
  const logFile = join(tmpdir(), `service-log-${process.pid}-${Date.now()}-${Math.random()}`);
  const fd = openSync(logFile, 'w');
  let stdout = '';
  let stderr = '';
  let exitCode: number | undefined;
  try {
    const code = await runService(definition, {
      argv,
      env,
      stdout: (text) => {
        stdout += text;
      },
      stderr: (text) => {
        stderr += text;
      },
      exit: (ended) => {
        exitCode = ended;
      },
      logOutput: { fd, pretty: false },
      signals: [],
    });
    if (code === undefined) throw new Error('the service started listening in the test process');
    return { code: exitCode, stdout, stderr, log: readFileSync(logFile, 'utf8') };
  } finally {
    closeSync(fd);
    rmSync(logFile, { force: true });
  }
}

/** Runs `body` with a port of 127.0.0.1 that another listener holds, released afterwards. */
export async function withBusyPort<T>(body: (port: number) => Promise<T>): Promise<T> {
  const occupier = createServer();
  await new Promise<void>((resolve) => occupier.listen(0, '127.0.0.1', resolve));
  const { port } = occupier.address() as { port: number };
  try {
    return await body(port);
  } finally {
    await new Promise((resolve) => occupier.close(resolve));
  }
}
