import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/index.js';

/**
 * The embedded store on a disk that fills up: a WAL write fails and PostgreSQL PANICs. PGlite
 * went on after it, and the next statement spun inside its WebAssembly for good (no answer, no
 * SIGTERM). The store now refuses every statement after the PANIC at once, tells onFailure, and
 * closes; the next open recovers what was committed. A real disk, a 48 MB tmpfs, which needs
 * root (mount): elsewhere the test is skipped.
 */
const STORE_DIR = fileURLToPath(new URL('..', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'store-disk-full-'));
const disk = join(root, 'disk');
let mounted = false;

beforeAll(() => {
  mkdirSync(disk);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=48m', 'tmpfs', disk], { stdio: 'ignore' });
    mounted = true;
  } catch {
    mounted = false;
  }
});
afterAll(() => {
  if (mounted) execFileSync('umount', ['-l', disk]);
  rmSync(root, { recursive: true, force: true });
});

function fillDisk(dataDir: string) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=development', 'test/support/fill-disk.ts', dataDir],
    { cwd: STORE_DIR, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH } },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise<{ code: number | null; events: Record<string, unknown>[]; stderr: string }>(
    (resolve) => {
      // The spin this guards against never ends: 60 s is far past the run's own few seconds.
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        const events = stdout
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as Record<string, unknown>);
        resolve({ code, events, stderr });
      });
    },
  );
}

describe('the embedded store when its disk fills up', () => {
  it('refuses every statement after a PANIC at once, tells onFailure once, closes, and reopens with what was committed', async (context) => {
    if (!mounted) context.skip();
    const dataDir = join(disk, 'data');
    const run = await fillDisk(dataDir);
    const events = run.events.map((event) => event.event);
    // onFailure is told after the failing statement has its answer, before or after the next.
    expect([...events].sort(), `${JSON.stringify(run.events)}\n${run.stderr}`).toEqual([
      'closed',
      'failure',
      'filled',
      'read failed',
      'write failed',
    ]);
    expect(events.at(-1)).toBe('closed');
    const find = (name: string) => run.events.find((event) => event.event === name);
    const { event: _w, batch: _b, ...writeFailed } = find('write failed') ?? {};
    const { event: _r, ...readFailed } = find('read failed') ?? {};
    const { event: _f, ...failure } = find('failure') ?? {};
    // The statement that met the PANIC, and every one after it: the store has failed.
    expect(writeFailed).toMatchObject({ name: 'StoreFailedError', code: '57P02' });
    expect(readFailed).toEqual(writeFailed);
    expect(failure).toEqual(writeFailed);
    expect(String(failure.message)).toMatch(
      new RegExp(
        `^embedded PostgreSQL in DATA_DIR ${dataDir} failed and cannot go on \\(could not write to file "pg_wal/xlogtemp\\.\\d+": No space left on device\\)`,
      ),
    );
    expect(run.code).toBe(0);
    // Started again on the full disk, PostgreSQL cannot recover (it needs a WAL segment): the
    // refusal says the disk is full, not that the folder is damaged (which invites a restore).
    await expect(openStore<unknown>({ dataDir, autovacuum: { intervalMs: 0 } })).rejects.toThrow(
      new RegExp(
        `^DATA_DIR ${dataDir}: the embedded PostgreSQL could not start, and its disk has \\d+ kB free: free space on it \\(at least 16 MB\\), then start again\\.$`,
      ),
    );
    // Space back: the folder opens (the lock went with the process), recovered from its WAL.
    rmSync(join(disk, 'filler'));
    const store = await openStore<unknown>({ dataDir, autovacuum: { intervalMs: 0 } });
    try {
      await expect(
        store.db
          .selectFrom('t' as never)
          .selectAll()
          .execute(),
      ).resolves.toBeDefined();
    } finally {
      await store.close();
    }
  }, 120_000);
});
