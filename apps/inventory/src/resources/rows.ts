import { sql } from 'kysely';
import type { AnyDatabase } from '../db/schema.js';
import { statementTemplate } from '../db/statement-template.js';
import {
  derivedOnce,
  type ResourceDefinition,
  secretColumns,
  systemColumnsOf,
} from './definition.js';
import { ETAG_COLUMN } from './etags.js';

/**
 * Reading one row of a resource, driven by its definition: identifiers come only from the
 * definition (an allow-list); every value is a bound parameter.
 */

export type Row = Record<string, unknown>;

/**
 * The columns a client sees: the system columns and the declared ones. Named explicitly rather
 * than `*`, so a column nobody declared (a password hash) can never leak into a response.
 */
export const visibleColumns: (definition: ResourceDefinition) => readonly string[] = derivedOnce(
  (definition) => {
    const secrets = secretColumns(definition);
    return [...systemColumnsOf(definition), ...Object.keys(definition.columns)].filter(
      (column) => !secrets.includes(column),
    );
  },
);

/**
 * A record's fields in the order the API writes them (the response schema's, schemas.ts
 * recordSchema): id, the declared columns, then the other system columns (created_at,
 * updated_at).
 */
export const recordFieldOrder: (definition: ResourceDefinition) => readonly string[] = derivedOnce(
  (definition) => [
    'id',
    ...Object.entries(definition.columns)
      .filter(([, column]) => !column.secret)
      .map(([name]) => name),
    ...systemColumnsOf(definition).filter((column) => column !== 'id'),
  ],
);

/**
 * The generated column holding the record's JSON text, for a resource that declares
 * `storedRecordJson` (migration 027).
 */
export const RECORD_JSON = '_record_json';

/**
 * Whether a resource's single records are answered with their kept JSON: a read of the whole
 * record, a create and a change return the row's `_record_json` and tag instead of every column,
 * which the server would otherwise turn into an object and write out again as the same text. A
 * resource whose afterWrite hook makes its answers is answered from its columns.
 */
export const answersWithKeptJson = (definition: ResourceDefinition): boolean =>
  definition.storedRecordJson === true && definition.hooks?.afterWrite === undefined;

/** What a single-record statement returns for its answer (answersWithKeptJson), tag aside. */
export const answerColumns: (definition: ResourceDefinition) => readonly string[] = derivedOnce(
  (definition) => (answersWithKeptJson(definition) ? [RECORD_JSON] : visibleColumns(definition)),
);

/**
 * The record's tag (etags.ts): the transaction id of its row version. Compared as text, so a
 * hostile tag is only a tag that does not match.
 */
export const ROW_TAG = sql<string>`xmin::text`.as(ETAG_COLUMN);

export function findRow(
  db: AnyDatabase,
  definition: ResourceDefinition,
  id: string,
  columns: readonly string[] = visibleColumns(definition),
): Promise<Row | undefined> {
  return selectById(db, definition, id, columns, false);
}

/** One row by id: `columns`, and the row's tag (column ETAG_COLUMN) when `tagged`. */
async function selectById(
  db: AnyDatabase,
  definition: ResourceDefinition,
  id: string,
  columns: readonly string[],
  tagged: boolean,
): Promise<Row | undefined> {
  // The schemas already admit only visible fields; this keeps the SQL safe on its own.
  const visible = visibleColumns(definition);
  for (const column of columns) {
    const kept = column === RECORD_JSON && definition.storedRecordJson === true;
    if (!kept && !visible.includes(column))
      throw new Error(`${column} is not a column of ${definition.name}`);
  }
  const template = statementTemplate(
    db,
    JSON.stringify([tagged ? 'find-tagged' : 'find', definition.table, columns]),
    (param) =>
      db
        .selectFrom(definition.table)
        .select(tagged ? [...columns, ROW_TAG] : columns)
        .where('id', '=', param('id')),
  );
  const result = await db.executeQuery<Row>(template.bind({ id }));
  return result.rows[0];
}

export async function rowExists(
  db: AnyDatabase,
  definition: ResourceDefinition,
  id: string,
): Promise<boolean> {
  const template = statementTemplate(db, `exists:${definition.table}`, (param) =>
    db.selectFrom(definition.table).select('id').where('id', '=', param('id')),
  );
  const result = await db.executeQuery(template.bind({ id }));
  return result.rows.length > 0;
}

/**
 * The current tag (the ETag's value) of each of `ids` that exists, by lower-case id: what a page
 * listing records reads before offering a batch that carries their tags.
 */
export async function rowTags(
  db: AnyDatabase,
  definition: ResourceDefinition,
  ids: readonly string[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = (await db
    .selectFrom(definition.table)
    .select(['id', ROW_TAG])
    .where('id', 'in', ids)
    .execute()) as Row[];
  return new Map(rows.map((row) => [String(row.id).toLowerCase(), String(row[ETAG_COLUMN])]));
}

/** A single record with its tag (column ETAG_COLUMN), or undefined. */
export function findRecord(
  db: AnyDatabase,
  definition: ResourceDefinition,
  id: string,
  columns: readonly string[] = visibleColumns(definition),
): Promise<Row | undefined> {
  return selectById(db, definition, id, columns, true);
}

/** Takes the tag out of a row a statement answered: the field the client sees is the header. */
export function takeTag(row: Row): string {
  const tag = row[ETAG_COLUMN];
  delete row[ETAG_COLUMN];
  if (typeof tag !== 'string') throw new Error('the statement did not answer the row tag');
  return tag;
}
