import { openStore } from '@netops/store';
import { createThrowawayDatabase } from '@netops/store/testing';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { walBytesSince, walPosition } from '../bench/wal.js';

const databaseServer = process.env.TEST_DATABASE_URL;

/**
 * The benchmark prints the WAL its write scenarios wrote per request (bench/wal.ts): the bytes
 * between two positions must count at least what a write logged. The server's position counts
 * other databases' WAL too, so only the lower bound is certain while other tests run.
 */
describe.skipIf(!databaseServer)('the WAL a stretch of the benchmark wrote (PostgreSQL)', () => {
  it('counts in bytes at least the rows a write logged', async () => {
    const database = await createThrowawayDatabase(databaseServer ?? '');
    const store = await openStore<unknown>({ databaseUrl: database.url, dataDir: '' });
    try {
      await sql`CREATE TABLE logged (n int, filler text)`.execute(store.db);
      const before = await walPosition(store.db);
      expect(before).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
      await sql`INSERT INTO logged SELECT n, repeat('x', 200) FROM generate_series(1, 2000) AS n`.execute(
        store.db,
      );
      // 2,000 rows of 200 bytes and more each.
      expect(await walBytesSince(store.db, before)).toBeGreaterThanOrEqual(400_000);
    } finally {
      await store.close();
      await database.drop();
    }
  });
});
