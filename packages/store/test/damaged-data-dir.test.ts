import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, StoreOpenError } from '../src/index.js';

/**
 * An embedded folder whose files are not a database PostgreSQL can start from: PGlite says only
 * "PGlite failed to initialize properly", with a stack into its bundle. The store says which
 * folder and what to do, and the folder opens again once its files are fixed (the lock is
 * released).
 */
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function newFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'store-damaged-'));
  folders.push(folder);
  return join(folder, 'data');
}

const damaged =
  /^DATA_DIR .+ holds files the embedded PostgreSQL cannot start from \(damaged, or not a database\): restore it from a backup, or point DATA_DIR at another folder/;

describe('an embedded folder that is not a database', () => {
  it('a PG_VERSION of random bytes: a StoreOpenError naming DATA_DIR and what to do', async () => {
    const dataDir = newFolder();
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, 'PG_VERSION'), Buffer.from([0x9f, 0x13, 0xee, 0x00, 0x42, 0x0a]));
    const failure = await openStore<unknown>({ dataDir, durable: false }).catch((e) => e);
    expect(failure).toBeInstanceOf(StoreOpenError);
    expect((failure as Error).message).toMatch(damaged);
    expect((failure as Error).message).toContain(`DATA_DIR ${dataDir} `);
  }, 60_000);

  it('pg_control overwritten: the same, and the lock is released for the next try', async () => {
    const dataDir = newFolder();
    const store = await openStore<unknown>({ dataDir, durable: false });
    await store.close();
    writeFileSync(join(dataDir, 'global', 'pg_control'), Buffer.alloc(8192, 7));
    const failure = await openStore<unknown>({ dataDir, durable: false }).catch((e) => e);
    expect(failure).toBeInstanceOf(StoreOpenError);
    expect((failure as Error).message).toMatch(damaged);
    // The folder is not held by this process after the failure: a new one there opens.
    rmSync(dataDir, { recursive: true });
    const fresh = await openStore<unknown>({ dataDir, durable: false });
    await fresh.close();
  }, 60_000);

  it('a DATA_DIR that cannot be made (under a file): a StoreOpenError naming it and the cause', async () => {
    const folder = newFolder();
    writeFileSync(folder, 'a file, not a folder');
    const dataDir = join(folder, 'data');
    const failure = await openStore<unknown>({ dataDir, durable: false }).catch((e) => e);
    expect(failure).toBeInstanceOf(StoreOpenError);
    expect((failure as Error).message).toMatch(
      new RegExp(`^DATA_DIR ${dataDir} could not be opened: ENOTDIR: not a directory`),
    );
  });
});
