import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The real service in a process of its own (src/main.ts through tsx, as `npm start` runs it), for
 * the checks that must see what a user sees: a database outage, SIGKILL, hostile sockets. Every
 * line it writes is kept, so a test can look for crashes, unhandled rejections or a leaked secret.
 */

const APP_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SERVER_PASSWORD = 'reliability-password-1';

/** Cheap argon2 and a fixed password: the checks are about faults, not hashing. */
const BASE_ENV = {
  SEED_PASSWORD: SERVER_PASSWORD,
  ARGON2_MEMORY_COST: '1024',
  ARGON2_TIME_COST: '1',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_MAX: '0',
};

export interface ServerProcess {
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  readonly child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Resolves when the process ends, with its exit code or signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  running(): boolean;
  /** Resident set from /proc, in MiB (undefined off Linux or once gone). */
  rssMb(): number | undefined;
  /** SIGTERM, then SIGKILL after 15 s. */
  stop(): Promise<void>;
}

export async function spawnServer(options: {
  env: Record<string, string>;
  timeoutMs?: number;
}): Promise<ServerProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=development', 'src/main.ts'],
    {
      cwd: APP_ROOT,
      // Only what the service needs: nothing of the test runner's environment (TEST_DATABASE_URL…).
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        ...BASE_ENV,
        ...options.env,
        HOST: '127.0.0.1',
        PORT: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const chunks: string[] = [];
  let size = 0;
  const keep = (chunk: Buffer) => {
    // Bounded (8 MiB): a flood of warnings must not grow the test process without limit.
    if (size > 8 * 1024 * 1024) return;
    size += chunk.length;
    chunks.push(chunk.toString());
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not start in time:\n${chunks.join('')}`));
    }, options.timeoutMs ?? 60_000);
    const onData = () => {
      const match = /listening on (https?:\/\/\S+)/.exec(chunks.join(''));
      if (match?.[1]) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(
        new Error(`the server ended (${code ?? signal}) before listening:\n${chunks.join('')}`),
      );
    });
  });
  const pid = child.pid ?? -1;
  return {
    url,
    port: Number(new URL(url).port),
    pid,
    child,
    output: () => chunks.join(''),
    exited,
    running: () => child.exitCode === null && child.signalCode === null,
    rssMb() {
      try {
        const status = readFileSync(`/proc/${pid}/status`, 'utf8');
        const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
        return Number.isFinite(kb) ? kb / 1024 : undefined;
      } catch {
        return undefined;
      }
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Signs in through the API and returns the token. */
export async function loginAs(baseUrl: string, username = 'admin'): Promise<string> {
  const response = await fetch(`${baseUrl}/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: SERVER_PASSWORD }),
  });
  if (response.status !== 200) {
    throw new Error(`login of ${username} failed: ${response.status} ${await response.text()}`);
  }
  return ((await response.json()) as { token: string }).token;
}

/** A TCP port nobody listens on right now (the kernel's pick, released at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Lines showing the process lost control of an error: what no fault may ever cause. */
export const CRASH_SIGNS =
  /Unhandled|unhandledRejection|uncaughtException|UnhandledPromiseRejection|Start-up failed|"level":60/;

/**
 * Prints the figures of a check and keeps them in $TMPDIR/inventory-reliability/<name>.json,
 * where RELIABILITY.md's tables are copied from.
 */
export function report(name: string, figures: unknown): void {
  const text = JSON.stringify(figures);
  console.info(`[inventory-reliability] ${name} ${text}`);
  const dir = join(tmpdir(), 'inventory-reliability');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.json`), `${text}\n`);
}
