// Fills the disk under an embedded store until a WAL write fails (PostgreSQL PANICs), then
// tries the store again and closes it, saying each step as a JSON line on stdout. Run in a
// process of its own: a store that spins inside PGlite after the PANIC never gets to the end.
import { execFileSync } from 'node:child_process';
import { statfsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type Generated, sql } from 'kysely';
import { openStore } from '../../src/index.js';

const dataDir = process.argv[2];
if (dataDir === undefined) throw new Error('usage: fill-disk.ts <dataDir>');
const say = (event: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(event)}\n`);
const errorOf = (error: unknown) => {
  const { name, code, severity, message } = error as Record<string, unknown>;
  return { name, code, severity, message };
};

const store = await openStore<{ t: { id: Generated<number>; a: string } }>({
  dataDir,
  autovacuum: { intervalMs: 0 },
  onFailure: (error) => say({ event: 'failure', ...errorOf(error) }),
});
// Room for the rows in the table's own file (kept by VACUUM), so that what runs out is the
// WAL's: a new 16 MB segment, which PostgreSQL cannot do without.
await sql`CREATE TABLE t (id serial PRIMARY KEY, a text) WITH (vacuum_truncate = false)`.execute(
  store.db,
);
await sql`INSERT INTO t (a) SELECT repeat('x', 500) FROM generate_series(1, 12000)`.execute(
  store.db,
);
await sql`DELETE FROM t`.execute(store.db);
await sql`VACUUM t`.execute(store.db);
const disk = dirname(dataDir);
const { bavail, bsize } = statfsSync(disk);
execFileSync('fallocate', ['-l', String(bavail * bsize - 2 * 1024 * 1024), join(disk, 'filler')]);
say({ event: 'filled' });
for (let i = 1; i <= 2000; i++) {
  try {
    const rows = Array.from({ length: 50 }, () => ({ a: 'y'.repeat(500) }));
    await store.db.transaction().execute(async (tx) => {
      await tx.insertInto('t').values(rows).execute();
    });
    if (i % 50 === 0) await sql`DELETE FROM t`.execute(store.db);
  } catch (error) {
    say({ event: 'write failed', batch: i, ...errorOf(error) });
    break;
  }
}
try {
  const count = await sql<{ n: number }>`SELECT count(*)::int AS n FROM t`.execute(store.db);
  say({ event: 'read', rows: count.rows });
} catch (error) {
  say({ event: 'read failed', ...errorOf(error) });
}
await store.close();
say({ event: 'closed' });
