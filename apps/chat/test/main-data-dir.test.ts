import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runServiceInProcess } from '@netops/service-runtime/testing';
import { migrate, openStore, StoreFailedError } from '@netops/store';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../src/db/schema.js';
import { toChatError } from '../src/error-handler.js';
import { chatService } from '../src/service.js';

/**
 * The embedded store's DATA_DIR as the start-up meets it: held by another process (one at a time
 * opens it: two lost each other's acknowledged writes), or holding files that are not a
 * database. Each is one line on stderr naming DATA_DIR, exit code 1, no stack.
 */
const scratch = mkdtempSync(join(tmpdir(), 'chat-data-dir-'));
// No services: the start-up goes as far as the store.
writeFileSync(join(scratch, 'chat.config.yaml'), 'services: {}\n');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const startUp = (env: Record<string, string>) =>
  runServiceInProcess(chatService, [], {
    PATH: process.env.PATH,
    LOG_LEVEL: 'warn',
    PORT: '0',
    CHAT_CONFIG: join(scratch, 'chat.config.yaml'),
    ...env,
  });

describe('src/main.ts and its DATA_DIR', () => {
  it('a DATA_DIR held open elsewhere: one line naming it and the holder, exit code 1', async () => {
    const dataDir = join(scratch, 'held');
    // The holder here is this process; another process is refused the same way (packages/store).
    const holder = await openStore<unknown>({ dataDir, durable: false });
    try {
      const run = await startUp({ DATA_DIR: dataDir });
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(
        `DATA_DIR ${dataDir} is open in another process (pid ${process.pid}): one process at a time opens the embedded store. Stop that process first (or point DATA_DIR at another folder).\n`,
      );
    } finally {
      await holder.close();
    }
  }, 60_000);

  it('a DATA_DIR that is not a database: one line naming it and what to do, exit code 1', async () => {
    const dataDir = join(scratch, 'garbage');
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, 'PG_VERSION'), Buffer.from([0x9f, 0x13, 0xee, 0x00, 0x42, 0x0a]));
    const run = await startUp({ DATA_DIR: dataDir });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `DATA_DIR ${dataDir} holds files the embedded PostgreSQL cannot start from (damaged, or not a database): restore it from a backup, or point DATA_DIR at another folder (an empty or new one starts a new store).\n`,
    );
  }, 60_000);
});

describe('src/main.ts and a database of another release', () => {
  it('refuses, in one line and exit code 1, a database a newer release migrated', async () => {
    const dataDir = join(scratch, 'newer');
    const store = await openStore<unknown>({ dataDir, durable: false });
    await migrate(store, MIGRATIONS);
    await store.db
      .insertInto('schema_migrations' as never)
      .values({ version: 999, name: '999_from_the_future.sql' } as never)
      .execute();
    await store.close();
    const run = await startUp({ DATA_DIR: dataDir });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^The database was migrated by a newer release \(its newest migration: 999_from_the_future; [^\n]*\n$/,
    );
    // The refused start closed its store: the folder opens again at once (its lock is free).
    const reopened = await openStore<unknown>({ dataDir, durable: false });
    await reopened.close();
  }, 120_000);
});

describe('a store that cannot write', () => {
  it('a full disk (53100) and a failed embedded store (57P02) answer 503, not 500', () => {
    const diskFull = Object.assign(
      new Error('could not extend file "base/5/16392": No space left on device'),
      { code: '53100', severity: 'ERROR' },
    );
    expect(toChatError(diskFull).statusCode).toBe(503);
    expect(toChatError(new StoreFailedError('embedded PostgreSQL … failed')).statusCode).toBe(503);
  });
});
