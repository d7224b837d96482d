import { openStore } from '@netops/store';
import { createThrowawayDatabase } from '@netops/store/testing';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { copyDatabase } from '../bench/database-copy.js';
import { walPosition } from '../bench/wal.js';

const databaseServer = process.env.TEST_DATABASE_URL;

/**
 * The benchmark restores its data set by copying a database it kept, and the copy's pages must
 * be on disk before the first scenario runs (bench/database-copy.ts): the last checkpoint's redo
 * point lies after everything the copy wrote. Without the checkpoint it lay before the copy.
 */
describe.skipIf(!databaseServer)('the benchmark copying its data set (PostgreSQL)', () => {
  it('copies every row and checkpoints after the copy', async () => {
    const template = await createThrowawayDatabase(databaseServer ?? '');
    const templateName = new URL(template.url).pathname.slice(1);
    const copyName = `${templateName}_copy`;
    const filled = await openStore<unknown>({ databaseUrl: template.url, dataDir: '' });
    await sql`CREATE TABLE rows_kept AS SELECT n FROM generate_series(1, 5000) AS n`.execute(
      filled.db,
    );
    await filled.close();
    const admin = await openStore<unknown>({ databaseUrl: databaseServer ?? '', dataDir: '' });
    try {
      const before = await walPosition(admin.db);
      await copyDatabase(admin.db, copyName, templateName);
      const checkpoint = await sql<{ after: boolean }>`
        SELECT redo_lsn >= ${before}::pg_lsn AS after
        FROM pg_control_checkpoint()`.execute(admin.db);
      expect(checkpoint.rows[0]?.after).toBe(true);
      const copyUrl = new URL(template.url);
      copyUrl.pathname = `/${copyName}`;
      const copy = await openStore<unknown>({ databaseUrl: copyUrl.toString(), dataDir: '' });
      try {
        const counted = await sql<{ n: number }>`
          SELECT count(*)::int AS n FROM rows_kept`.execute(copy.db);
        expect(counted.rows[0]?.n).toBe(5000);
      } finally {
        await copy.close();
      }
    } finally {
      await sql`DROP DATABASE IF EXISTS ${sql.id(copyName)} WITH (FORCE)`.execute(admin.db);
      await admin.close();
      await template.drop();
    }
  });
});
