import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { lockDataDir, lockKindOf } from '../src/data-dir-lock.js';
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
  return hold(['test/support/hold-store.ts', dataDir]);
}

/** The lock alone, of `kind`, a `file` lock made in `folder`. */
function holdLock(dataDir: string, kind: 'abstract' | 'file', folder: string): Holder {
  return hold(['test/support/hold-lock.ts', dataDir, kind, folder]);
}

function hold(script: string[]): Holder {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=development', ...script],
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

/**
 * macOS and the other Unix systems have no abstract namespace: the lock is a socket file, which a
 * killed process leaves behind. Run here on Linux with that kind chosen, in a folder of the test's
 * own standing for the temporary folder.
 */
describe('the socket file lock (macOS and other Unix systems)', () => {
  /** A data folder and the folder its lock file is made in. */
  function newPlace(): { dataDir: string; lockFolder: string } {
    const dataDir = newFolder();
    mkdirSync(dataDir, { recursive: true });
    const lockFolder = join(dataDir, '..', 'locks');
    mkdirSync(lockFolder);
    return { dataDir, lockFolder };
  }
  const lockFiles = (folder: string) =>
    readdirSync(folder).filter((name) => name.endsWith('.sock'));

  it('is the kind of every system but Linux and Windows', () => {
    expect(lockKindOf('linux')).toBe('abstract');
    expect(lockKindOf('win32')).toBe('pipe');
    expect(lockKindOf('darwin')).toBe('file');
    expect(lockKindOf('freebsd')).toBe('file');
  });

  it('refuses a second process naming the first, and is removed when released', async () => {
    const { dataDir, lockFolder } = newPlace();
    const first = holdLock(dataDir, 'file', lockFolder);
    expect(await first.outcome).toEqual({ open: true });
    expect(lockFiles(lockFolder)).toHaveLength(1);
    const second = await holdLock(dataDir, 'file', lockFolder).outcome;
    expect(second).toMatchObject({ open: false, code: 1 });
    expect(second.open ? '' : second.stderr).toBe(
      `DATA_DIR ${dataDir} is open in another process (pid ${first.child.pid}): one process at a time opens the embedded store. Stop that process first (or point DATA_DIR at another folder).\n`,
    );
    first.child.stdin?.end();
    await ended(first.child);
    expect(lockFiles(lockFolder)).toEqual([]);
    const third = holdLock(dataDir, 'file', lockFolder);
    expect(await third.outcome).toEqual({ open: true });
    third.child.stdin?.end();
    await ended(third.child);
  }, 60_000);

  it('takes over the file a killed holder left, and exactly one of three racing for it does', async () => {
    const { dataDir, lockFolder } = newPlace();
    for (let round = 0; round < 2; round += 1) {
      const holder = holdLock(dataDir, 'file', lockFolder);
      expect(await holder.outcome).toEqual({ open: true });
      holder.child.kill('SIGKILL');
      await ended(holder.child);
      // The file stays, nobody listening on it.
      expect(lockFiles(lockFolder)).toHaveLength(1);
      const racers = [0, 1, 2].map(() => holdLock(dataDir, 'file', lockFolder));
      const outcomes = await Promise.all(racers.map((racer) => racer.outcome));
      expect(outcomes.filter((outcome) => outcome.open)).toHaveLength(1);
      for (const outcome of outcomes.filter((outcome) => !outcome.open)) {
        expect(outcome).toMatchObject({ code: 1 });
        expect(outcome.open ? '' : outcome.stderr).toContain('is open in another process (pid ');
      }
      for (const racer of racers) racer.child.stdin?.end();
      await Promise.all(racers.map((racer) => ended(racer.child)));
      expect(lockFiles(lockFolder)).toEqual([]);
      // The takeover directory is gone too.
      expect(readdirSync(lockFolder)).toEqual([]);
    }
  }, 90_000);

  it('lets one of several takeovers at once win, none removing the winner', async () => {
    // In one process the takeovers interleave at each step that waits, the closest race there is:
    // all three find the file stale before any of them removes it.
    const { dataDir, lockFolder } = newPlace();
    const holder = holdLock(dataDir, 'file', lockFolder);
    expect(await holder.outcome).toEqual({ open: true });
    holder.child.kill('SIGKILL');
    await ended(holder.child);
    const outcomes = await Promise.allSettled(
      [0, 1, 2].map(() => lockDataDir(dataDir, 'file', lockFolder)),
    );
    const taken = outcomes.flatMap((outcome) =>
      outcome.status === 'fulfilled' ? [outcome.value] : [],
    );
    expect(taken).toHaveLength(1);
    for (const outcome of outcomes.filter((outcome) => outcome.status === 'rejected')) {
      expect(String(outcome.reason)).toContain(`another process (pid ${process.pid})`);
    }
    // The winner's file is still there, and still refuses another.
    expect(lockFiles(lockFolder)).toHaveLength(1);
    await expect(lockDataDir(dataDir, 'file', lockFolder)).rejects.toThrow('another process');
    for (const lock of taken) await lock.release();
  }, 60_000);

  it('clears a takeover directory left by a process that ended during its takeover', async () => {
    const { dataDir, lockFolder } = newPlace();
    const holder = holdLock(dataDir, 'file', lockFolder);
    expect(await holder.outcome).toEqual({ open: true });
    holder.child.kill('SIGKILL');
    await ended(holder.child);
    const [file = ''] = lockFiles(lockFolder);
    const takeover = join(lockFolder, `${file}.takeover`);
    mkdirSync(takeover);
    const minuteAgo = new Date(Date.now() - 60_000);
    utimesSync(takeover, minuteAgo, minuteAgo);
    const next = holdLock(dataDir, 'file', lockFolder);
    expect(await next.outcome).toEqual({ open: true });
    expect(existsSync(takeover)).toBe(false);
    next.child.stdin?.end();
    await ended(next.child);
  }, 60_000);

  it('refuses a second lock in the same process until the first is released', async () => {
    const { dataDir, lockFolder } = newPlace();
    const lock = await lockDataDir(dataDir, 'file', lockFolder);
    await expect(lockDataDir(dataDir, 'file', lockFolder)).rejects.toThrow(
      `another process (pid ${process.pid})`,
    );
    await lock.release();
    const again = await lockDataDir(dataDir, 'file', lockFolder);
    await again.release();
  });
});
