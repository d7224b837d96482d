import { type Kysely, sql } from 'kysely';

/**
 * Copies `template` to a new database `name` on the server `admin` is connected to, with its
 * pages on disk before this returns.
 *
 * A copy leaves its writing to be done: PostgreSQL 15 copies a template page by page through
 * its shared buffers and logs each page (547 MB of WAL for the benchmark's 808 MB data set), and
 * the pages reach the disk later, from the operating system's cache and at the next checkpoint,
 * which that much WAL soon asks for. Left there, that writing fell on the first scenario
 * measured, whose writes wait for their WAL flushes: `PATCH /devices/{id}` right after a
 * restore answered 394–397 req/s in two runs of three, against 454–509 with the checkpoint. A
 * checkpoint right after the copy does the writing before anything is measured, so every run
 * starts from the same state.
 */
export async function copyDatabase(
  admin: Kysely<unknown>,
  name: string,
  template: string,
): Promise<void> {
  await sql`CREATE DATABASE ${sql.id(name)} TEMPLATE ${sql.id(template)}`.execute(admin);
  await sql`CHECKPOINT`.execute(admin);
}
