import type { Store } from '@netops/store';
import { openTestStore } from '@netops/store/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnyDatabase, type Database, MIGRATIONS_FOLDER } from '../src/db/schema.js';
import { DEFINITIONS, declaredColumns } from './declared-columns.js';

/**
 * A column declared `unique` orders a list by itself, without an id to break ties (list.ts,
 * orderOf): a declaration the table does not back would page a list wrongly, skipping or
 * repeating the rows that tie. So each declaration must match a unique constraint on that
 * column alone, and each such constraint be declared (else its sorts keep a tie-breaker and
 * need an index of their own for nothing).
 */

let store: Store<Database>;
let db: AnyDatabase;
beforeAll(async () => {
  store = await openTestStore<Database>({ migrations: MIGRATIONS_FOLDER });
  db = store.db as AnyDatabase;
}, 60_000);
afterAll(() => store?.close());

describe('columns declared unique', () => {
  it('are exactly the columns with a unique index of their own', async () => {
    // Unique indexes of one key column (INCLUDE columns aside), neither partial nor on an
    // expression: those alone make every value of the column distinct.
    const indexed = await sql<{ table_name: string; column_name: string }>`
      SELECT t.relname AS table_name, a.attname AS column_name
      FROM pg_index i
      JOIN pg_class t ON t.oid = i.indrelid
      JOIN pg_namespace n ON n.oid = t.relnamespace AND n.nspname = current_schema()
      JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = i.indkey[0]
      WHERE i.indisunique AND i.indnkeyatts = 1 AND i.indpred IS NULL AND i.indexprs IS NULL
      ORDER BY 1, 2`.execute(db);
    // Of the columns a definition declares (the id is unique in every table and ends every order).
    const backed = indexed.rows
      .filter((row) =>
        DEFINITIONS.some(
          (definition) =>
            definition.table === row.table_name && row.column_name in definition.columns,
        ),
      )
      .map((row) => `${row.table_name}.${row.column_name}`);
    const declared = declaredColumns((column) => column.unique === true);
    expect(declared).toContain('devices.hostname');
    expect(declared).toEqual([...backed].sort());
  });
});
