import { type Kysely, type RawBuilder, sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { badRequest, notFound } from '../errors.js';
import { type ResourceDefinition, sortableColumns, systemColumnsOf } from './definition.js';

/**
 * The SQL of every resource, driven by its definition. Identifiers come only from the definition
 * (an allow-list); every value is a bound parameter.
 */

export type Row = Record<string, unknown>;
/** The generic side sees tables by name only; typed access to them lives with their owners. */
// biome-ignore lint/suspicious/noExplicitAny: tables are chosen at run time from definitions
export type AnyDatabase = Kysely<any>;

export interface SortKey {
  column: string;
  direction: 'asc' | 'desc';
}

export interface ListRequest {
  page: number;
  limit: number;
  sort: readonly SortKey[];
  /** column -> value, exact match, combined with AND. */
  filters: Readonly<Record<string, unknown>>;
  /** Inclusive bounds on columns (a time range), combined with the filters. */
  ranges?: readonly RangeFilter[];
}

export interface RangeFilter {
  column: string;
  from?: unknown;
  to?: unknown;
}

export interface ListResult {
  totalCount: number;
  rows: Row[];
}

/**
 * The columns a client sees: the system columns and the declared ones. Named explicitly rather
 * than `*`, so a column nobody declared (a password hash) can never leak into a response.
 */
export function visibleColumns(definition: ResourceDefinition): string[] {
  return [...systemColumnsOf(definition), ...Object.keys(definition.columns)];
}

const SORT_KEY = /^([a-z_]+):(asc|desc)$/;

/** `["hostname:asc", "created_at:desc"]` -> sort keys, or a 400 naming the bad one. */
export function parseSortKeys(definition: ResourceDefinition, values: readonly string[]) {
  const allowed = sortableColumns(definition);
  return values.map((value): SortKey => {
    const match = SORT_KEY.exec(value);
    if (!match) {
      throw badRequest(`Invalid sortby "${value}": expected <field>:<asc|desc>`);
    }
    const [, column = '', direction] = match;
    if (!allowed.includes(column)) {
      throw badRequest(
        `Invalid sortby field "${column}": sortable fields are ${allowed.join(', ')}`,
      );
    }
    return { column, direction: direction === 'desc' ? 'desc' : 'asc' };
  });
}

const TOTAL = '__total_count';

/**
 * One statement per page whatever its size: the count of all matching rows joined with the page
 * itself. The count side always yields one row, so an empty page (past the end, or nothing
 * matching) still reports the total; the page side is then a single all-null row.
 */
export async function listRows(
  db: AnyDatabase,
  definition: ResourceDefinition,
  request: ListRequest,
): Promise<ListResult> {
  const table = sql.table(definition.table);
  const columns = visibleColumns(definition);
  // The schemas already admit only declared fields; this keeps the SQL safe on its own.
  for (const column of [
    ...Object.keys(request.filters),
    ...request.sort.map((key) => key.column),
    ...(request.ranges ?? []).map((range) => range.column),
  ]) {
    if (!columns.includes(column))
      throw new Error(`${column} is not a column of ${definition.name}`);
  }
  const conditions = Object.entries(request.filters).map(
    ([column, value]) => sql`${sql.ref(column)} = ${value}`,
  );
  for (const { column, from, to } of request.ranges ?? []) {
    if (from !== undefined) conditions.push(sql`${sql.ref(column)} >= ${from}`);
    if (to !== undefined) conditions.push(sql`${sql.ref(column)} <= ${to}`);
  }
  const where = conditions.length > 0 ? sql`WHERE ${sql.join(conditions, sql` AND `)}` : sql``;
  // Then by id, so rows equal on every requested key still come in one fixed order.
  const orderBy = (alias: string): RawBuilder<unknown> =>
    sql.join([
      ...request.sort.map(
        (key) => sql`${sql.ref(`${alias}.${key.column}`)} ${sql.raw(key.direction)}`,
      ),
      sql`${sql.ref(`${alias}.id`)} asc`,
    ]);
  const offset = (request.page - 1) * request.limit;
  const result = await sql<Row>`
    SELECT c.${sql.ref(TOTAL)}, ${sql.join(columns.map((column) => sql.ref(`p.${column}`)))}
    FROM (SELECT count(*) AS ${sql.ref(TOTAL)} FROM ${table} ${where}) AS c
    LEFT JOIN LATERAL (
      SELECT ${sql.join(columns.map((column) => sql.ref(`t.${column}`)))} FROM ${table} AS t ${where}
      ORDER BY ${orderBy('t')}
      LIMIT ${request.limit} OFFSET ${offset}
    ) AS p ON true
    ORDER BY ${orderBy('p')}`.execute(db);
  const first = result.rows[0];
  const totalCount = Number(first?.[TOTAL] ?? 0);
  const rows = result.rows
    .filter((row) => row.id !== null && row.id !== undefined)
    .map(({ [TOTAL]: _total, ...row }) => row);
  return { totalCount, rows };
}

export async function findRow(
  db: AnyDatabase,
  definition: ResourceDefinition,
  id: string,
): Promise<Row | undefined> {
  return db
    .selectFrom(definition.table)
    .select(visibleColumns(definition))
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function rowExists(
  db: AnyDatabase,
  definition: ResourceDefinition,
  id: string,
): Promise<boolean> {
  const row = await db
    .selectFrom(definition.table)
    .select('id')
    .where('id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}

export async function countRows(
  db: AnyDatabase,
  definition: ResourceDefinition,
  filters: Readonly<Record<string, unknown>>,
): Promise<number> {
  let query = db.selectFrom(definition.table).select((eb) => eb.fn.countAll().as('count'));
  for (const [column, value] of Object.entries(filters)) query = query.where(column, '=', value);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertRow(
  db: AnyDatabase,
  definition: ResourceDefinition,
  values: Row,
): Promise<Row> {
  return db
    .insertInto(definition.table)
    .values({ id: uuidv7(), ...values })
    .returning(visibleColumns(definition))
    .executeTakeFirstOrThrow();
}

/**
 * Updates the given columns; the row comes back as the database now holds it, or undefined
 * when there is no such id.
 */
export async function updateRow(
  db: AnyDatabase,
  definition: ResourceDefinition,
  id: string,
  values: Row,
): Promise<Row | undefined> {
  return db
    .updateTable(definition.table)
    .set({ ...values, updated_at: sql`now()` })
    .where('id', '=', id)
    .returning(visibleColumns(definition))
    .executeTakeFirst();
}

export async function deleteRow(
  db: AnyDatabase,
  definition: ResourceDefinition,
  id: string,
): Promise<void> {
  const row = await db
    .deleteFrom(definition.table)
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
  if (!row) throw notFound(definition.notFoundMessage);
}

/** Deletes every id or (by throwing inside the caller's transaction) none. */
export async function deleteRows(
  db: AnyDatabase,
  definition: ResourceDefinition,
  ids: readonly string[],
): Promise<number> {
  // PostgreSQL answers uuids in lower case; compare in that form.
  const wanted = [...new Set(ids.map((id) => id.toLowerCase()))];
  const deleted = await db
    .deleteFrom(definition.table)
    .where('id', 'in', wanted)
    .returning('id')
    .execute();
  if (deleted.length !== wanted.length) {
    const found = new Set(deleted.map((row) => String(row.id)));
    const missing = wanted.find((id) => !found.has(id));
    throw notFound(`${definition.notFoundMessage}: ${missing}`);
  }
  return deleted.length;
}
