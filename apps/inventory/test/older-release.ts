import { type Kysely, sql } from 'kysely';

/**
 * Runs `body` with the CHECK constraint `name` of `table` (migration 035) taken off, then puts it
 * back as it was, validated: for tests writing what a release from before 031, 032 or 034 stored
 * (an upper-case MAC address, microseconds, disagreeing speeds), which the database now refuses.
 * Putting it back fails if `body` left a row breaking it.
 */
export async function withoutCheck<T>(
  store: { db: unknown },
  table: string,
  name: string,
  body: () => Promise<T>,
): Promise<T> {
  const db = store.db as Kysely<unknown>;
  const found = await sql<{ definition: string }>`
    SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conname = ${name}`.execute(
    db,
  );
  const definition = found.rows[0]?.definition;
  if (definition === undefined) throw new Error(`no constraint ${name}`);
  await sql`ALTER TABLE ${sql.table(table)} DROP CONSTRAINT ${sql.id(name)}`.execute(db);
  try {
    return await body();
  } finally {
    await sql`ALTER TABLE ${sql.table(table)} ADD CONSTRAINT ${sql.id(name)} ${sql.raw(definition)}`.execute(
      db,
    );
  }
}
