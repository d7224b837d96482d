import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  abstractLockName,
  DataDirBusyError,
  LOCK_FILE,
  lockDataDir,
  lockKindOf,
} from '../src/data-dir-lock.js';
import { openStore } from '../src/index.js';

/**
 * One process at a time opens an embedded folder: two PGlite instances writing the same files
 * lost acknowledged writes, silently. These run real processes, as two services would be.
 */

const STORE_DIR = fileURLToPath(new URL('..', import.meta.url));
const children: ChildProcess[] = [];
const folders: string[] = [];

afterEach(() => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function newFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'store-lock-'));
  folders.push(folder);
  return join(folder, 'data');
}

interface Holder {
  child: ChildProcess;
  /** "open" once the store is open, or the process's exit code and stderr if it ended first. */
  outcome: Promise<{ open: true } | { open: false; code: number | null; stderr: string }>;
}

function holdStore(dataDir: string): Holder {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=development', 'test/support/hold-store.ts', dataDir],
    { cwd: STORE_DIR, stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: process.env.PATH } },
  );
  children.push(child);
  let stdout = '';
  let stderr = '';
  const outcome = new Promise<
    { open: true } | { open: false; code: number | null; stderr: string }
  >((resolve) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('open\n')) resolve({ open: true });
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('exit', (code) => resolve({ open: false, code, stderr }));
  });
  return { child, outcome };
}

async function ended(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise((resolve) => child.on('exit', resolve));
}

describe('an embedded folder is opened by one process at a time', () => {
  it('refuses a second process in one line naming the folder, while the first holds it', async () => {
    const dataDir = newFolder();
    const first = holdStore(dataDir);
    expect(await first.outcome).toEqual({ open: true });
    const second = holdStore(dataDir);
    const refused = await second.outcome;
    expect(refused).toMatchObject({ open: false, code: 1 });
    const message = refused.open ? '' : refused.stderr;
    expect(message.trim().split('\n')).toHaveLength(1);
    expect(message).toContain(`DATA_DIR ${dataDir}`);
    expect(message).toContain(`another process (pid ${first.child.pid})`);
    // Once the first closes it, the folder opens again.
    first.child.stdin?.end();
    await ended(first.child);
    const third = holdStore(dataDir);
    expect(await third.outcome).toEqual({ open: true });
    third.child.stdin?.end();
    await ended(third.child);
  }, 60_000);

  it('opens at once after the holder was killed (kill -9 leaves no lock behind)', async () => {
    const dataDir = newFolder();
    const first = holdStore(dataDir);
    expect(await first.outcome).toEqual({ open: true });
    first.child.kill('SIGKILL');
    await ended(first.child);
    const next = holdStore(dataDir);
    expect(await next.outcome).toEqual({ open: true });
    next.child.stdin?.end();
    await ended(next.child);
  }, 60_000);

  it('lets exactly one of two processes starting together on a new folder open it', async () => {
    const dataDir = newFolder();
    const racers = [holdStore(dataDir), holdStore(dataDir)];
    const outcomes = await Promise.all(racers.map((racer) => racer.outcome));
    expect(outcomes.filter((outcome) => outcome.open)).toHaveLength(1);
    expect(outcomes.filter((outcome) => !outcome.open)).toMatchObject([{ code: 1 }]);
    for (const racer of racers) racer.child.stdin?.end();
    await Promise.all(racers.map((racer) => ended(racer.child)));
  }, 60_000);

  it('refuses a second open in the same process until the first is closed', async () => {
    const dataDir = newFolder();
    const store = await openStore<unknown>({ dataDir, durable: false });
    try {
      await expect(openStore<unknown>({ dataDir, durable: false })).rejects.toThrow(
        /another process/,
      );
    } finally {
      await store.close();
    }
    const again = await openStore<unknown>({ dataDir, durable: false });
    await again.close();
  }, 60_000);
});

describe('the lock of each system', () => {
  it('is a name on Linux, a named pipe on Windows, a locked file on macOS and the BSDs', () => {
    expect(lockKindOf('linux')).toBe('abstract');
    expect(lockKindOf('win32')).toBe('pipe');
    expect(lockKindOf('darwin')).toBe('flock');
    expect(lockKindOf('freebsd')).toBe('flock');
    expect(lockKindOf('openbsd')).toBe('flock');
    expect(lockKindOf('aix')).toBe('none');
  });

  it('on Linux, is refused while a process of the earlier release holds the folder', async () => {
    // That release named its lock so: an instance started beside it must not open the folder.
    const dataDir = newFolder();
    mkdirSync(dataDir, { recursive: true });
    const { dev, ino } = statSync(dataDir, { bigint: true });
    const earlier = createServer((socket) => socket.end(`${process.pid}\n`));
    await new Promise<void>((resolve) =>
      earlier.listen(`\0netops-store-data-dir/${dev}/${ino}`, resolve),
    );
    try {
      expect(abstractLockName(dev, ino)).toBe(`\0netops-store-data-dir/${dev}/${ino}`);
      const refused = lockDataDir(dataDir, 'abstract');
      await expect(refused).rejects.toBeInstanceOf(DataDirBusyError);
      await expect(refused).rejects.toThrow(`another process (pid ${process.pid})`);
    } finally {
      await new Promise((resolve) => earlier.close(resolve));
    }
    const lock = await lockDataDir(dataDir, 'abstract');
    await lock.release();
  });

  it('on macOS and the BSDs, writes the holder’s pid into the folder’s lock file', async () => {
    // Run here on Linux, which has no O_EXLOCK and ignores the flag: this checks the file and its
    // pid, not the lock itself, which only those systems' kernels take.
    const dataDir = newFolder();
    mkdirSync(dataDir, { recursive: true });
    const lock = await lockDataDir(dataDir, 'flock');
    expect(readFileSync(join(dataDir, LOCK_FILE), 'utf8')).toBe(`${process.pid}\n`);
    await lock.release();
    await lock.release();
  });
});
