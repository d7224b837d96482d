import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const APP_DIR = fileURLToPath(new URL('..', import.meta.url));

/** The seeded admin's password in every process started here. */
export const MAIN_PASSWORD = 'main-test-password';

/**
 * src/main.ts in a process of its own, as an operator starts it: configuration from the
 * environment (cheap password hashing, an ephemeral port), a fresh embedded data folder unless
 * `env` says otherwise, and its output kept.
 */
export function startMain(env: Record<string, string> = {}, args: string[] = []) {
  const dir = mkdtempSync(join(tmpdir(), 'inventory-main-run-'));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=development', 'src/main.ts', ...args],
    {
      cwd: APP_DIR,
      env: {
        PATH: process.env.PATH,
        HOST: '127.0.0.1',
        PORT: '0',
        // A new folder: the embedded store is created from the template made at install.
        DATA_DIR: join(dir, 'data'),
        SEED_PASSWORD: MAIN_PASSWORD,
        ARGON2_MEMORY_COST: '1024',
        ARGON2_TIME_COST: '1',
        LOG_LEVEL: 'info',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    exited,
    /** A folder of this run's own, removed by cleanup(). */
    dir,
    stdout: () => stdout,
    stderr: () => stderr,
    /** Resolves with the URL once the banner is out; rejects if the process ends first. */
    async listening(): Promise<string> {
      for (;;) {
        const match = /listening on (https?:\/\/\S+)/.exec(stdout);
        if (match?.[1]) return match[1];
        if (child.exitCode !== null) throw new Error(`main.ts exited early:\n${stdout}${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    /** SIGTERM, then the exit; SIGKILL if it has not ended within `ms`. */
    async stop(ms = 10_000): Promise<void> {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), ms);
      await exited;
      clearTimeout(timer);
    },
    cleanup() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type MainRun = ReturnType<typeof startMain>;
