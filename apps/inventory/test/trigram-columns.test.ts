import type { Store } from '@netops/store';
import { openTestStore } from '@netops/store/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnyDatabase, type Database, MIGRATIONS_FOLDER } from '../src/db/schema.js';
import { DEFINITIONS, declaredColumns } from './declared-columns.js';

/**
 * A list filtered by a substring reads its matching rows first when its exact total is small
 * (list.ts, matchedByTrigrams): worth it only through a trigram index, which reads a few
 * matches for a few. So a column declaring `trigramIndexed` must have one of its own, each
 * such index be declared, and every resource's `?q=` search expression have one.
 */

let store: Store<Database>;
let db: AnyDatabase;
beforeAll(async () => {
  store = await openTestStore<Database>({ migrations: MIGRATIONS_FOLDER });
  db = store.db as AnyDatabase;
}, 60_000);
afterAll(() => store?.close());

/** Trigram indexes: the table, and the column indexed or null for an expression. */
async function trigramIndexes() {
  const result = await sql<{ table_name: string; column_name: string | null }>`
    SELECT t.relname AS table_name, a.attname AS column_name
    FROM pg_index i
    JOIN pg_class t ON t.oid = i.indrelid
    JOIN pg_namespace n ON n.oid = t.relnamespace AND n.nspname = current_schema()
    JOIN pg_opclass o ON o.oid = i.indclass[0] AND o.opcname = 'gin_trgm_ops'
    LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = i.indkey[0] AND i.indkey[0] <> 0
    WHERE i.indnkeyatts = 1 AND i.indpred IS NULL
    ORDER BY 1, 2`.execute(db);
  return result.rows;
}

describe('columns declared trigramIndexed', () => {
  it('are exactly the columns with a trigram index of their own', async () => {
    const indexed = (await trigramIndexes())
      .filter((row) => row.column_name !== null)
      .map((row) => `${row.table_name}.${row.column_name}`);
    const declared = declaredColumns((column) => column.trigramIndexed === true);
    expect(declared).toContain('devices.hostname');
    expect(declared).toEqual([...indexed].sort());
  });

  it('and every searched resource’s search expression has one', async () => {
    const expressions = new Set(
      (await trigramIndexes())
        .filter((row) => row.column_name === null)
        .map((row) => row.table_name),
    );
    const searched = DEFINITIONS.filter((definition) => definition.search !== undefined);
    expect(searched.map((definition) => definition.table)).toContain('devices');
    for (const definition of searched) expect(expressions).toContain(definition.table);
  });
});
