import { type Kysely, sql } from 'kysely';

/**
 * The WAL a stretch of the benchmark wrote, for its writes' scenarios on PostgreSQL: a write's
 * WAL grows several times over right after a checkpoint, when the first change of each page
 * logs the whole page (a PATCH of the benchmark's devices wrote 8.6–9.4 kB without such images
 * and 36.5 kB in a window just after a checkpoint), and its commit waits for all of it to be
 * flushed. Printed beside a write's figures, it tells a run that paid for a checkpoint from one
 * that did not. The position is the server's: WAL of other databases written meanwhile counts.
 */
export async function walPosition<DB>(db: Kysely<DB>): Promise<string> {
  const result = await sql<{ lsn: string }>`
    SELECT pg_current_wal_insert_lsn()::text AS lsn`.execute(db);
  const lsn = result.rows[0]?.lsn;
  if (lsn === undefined) throw new Error('PostgreSQL gave no WAL position');
  return lsn;
}

/** Bytes of WAL written since `position` (from walPosition). */
export async function walBytesSince<DB>(db: Kysely<DB>, position: string): Promise<number> {
  const result = await sql<{ bytes: number }>`
    SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), ${position}::pg_lsn)::float8 AS bytes`.execute(
    db,
  );
  return result.rows[0]?.bytes ?? 0;
}
