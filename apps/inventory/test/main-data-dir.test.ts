import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '@netops/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/schema.js';
import { type MainRun, startMain } from './spawn-main.js';

/**
 * The embedded store's DATA_DIR as the start-up and `create-admin` meet it: held by a running
 * service (one process at a time opens it: two lost each other's acknowledged writes), or holding
 * files that are not a database. Each refusal is one line naming DATA_DIR, exit code 1.
 */
/** main.ts with `args` in a process of its own, to its end: exit code and output. */
async function runToEnd(args: string[], env: Record<string, string>) {
  const run = startMain(env, args);
  const timer = setTimeout(() => run.child.kill('SIGKILL'), 60_000);
  try {
    const code = await run.exited;
    return { code, stdout: run.stdout(), stderr: run.stderr() };
  } finally {
    clearTimeout(timer);
    run.cleanup();
  }
}

describe('a DATA_DIR another process has open', () => {
  let running: MainRun;
  let dataDir: string;
  beforeAll(async () => {
    running = startMain();
    dataDir = join(running.dir, 'data');
    await running.listening();
  }, 120_000);
  afterAll(() => running?.cleanup());

  it('a second service refuses to start: one line naming DATA_DIR and the other process, exit 1', async () => {
    const second = await runToEnd([], { DATA_DIR: dataDir, SEED_PASSWORD: 'x-second-password' });
    expect(second.code).toBe(1);
    expect(second.stderr).toBe(
      `DATA_DIR ${dataDir} is open in another process (pid ${running.child.pid}): one process at a time opens the embedded store. Stop that process first (or point DATA_DIR at another folder).\n`,
    );
  }, 90_000);

  it('create-admin refuses, and no account appears once the service has stopped', async () => {
    const rescue = await runToEnd(['create-admin', 'rescue'], { DATA_DIR: dataDir });
    expect(rescue.code).toBe(1);
    expect(rescue.stdout).toBe('');
    expect(rescue.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(rescue.stderr).toContain(`DATA_DIR ${dataDir} is open in another process`);
    await running.stop();
    const store = await openStore<Database>({ dataDir });
    try {
      const names = await store.db.selectFrom('users').select('username').execute();
      expect(names.map((row) => row.username)).not.toContain('rescue');
    } finally {
      await store.close();
    }
  }, 90_000);
});

describe('a DATA_DIR whose files are not a database', () => {
  it('refuses to start in one line naming DATA_DIR and what to do, exit 1, no stack', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'inventory-garbage-'));
    const dataDir = join(folder, 'data');
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, 'PG_VERSION'), Buffer.from([0x9f, 0x13, 0xee, 0x00, 0x42, 0x0a]));
    const refused = await runToEnd([], { DATA_DIR: dataDir, SEED_PASSWORD: 'x-garbage-pass' });
    expect(refused.code).toBe(1);
    const lines = refused.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`DATA_DIR ${dataDir}`);
    expect(lines[0]).toContain('restore it from a backup, or point DATA_DIR at another folder');
    expect(refused.stderr).not.toContain('    at ');
    rmSync(folder, { recursive: true, force: true });
  }, 90_000);
});
