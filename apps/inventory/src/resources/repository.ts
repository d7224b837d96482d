import { CompiledQuery, type Kysely, type RawBuilder, sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import type { StatementWrite } from '../audit/audit-log.js';
import { badRequest, notFound } from '../errors.js';
import { type ResourceDefinition, sortableColumns, systemColumnsOf } from './definition.js';
import { listCacheOf } from './list-cache.js';

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
  /** The table's version the page was read at (list-cache.ts); absent for unversioned tables. */
  version?: number;
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
const VERSION = '__table_version';
/** From this offset on, the page is found through its ids first (see below). */
const DEFERRED_JOIN_OFFSET = 1000;
/** Below every UUID the service generates: "no known position, start from the first row". */
const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/**
 * One statement per page whatever its size, filters, sort or depth: the table's version, the
 * count of all matching rows and the page itself. What list-cache.ts recorded is used only
 * through CASE expressions comparing its version with the one read in this statement, so a
 * stale entry changes nothing but the cost: the count is an InitPlan that PostgreSQL runs only
 * when the CASE needs it, and a page anchor falls back to the plain offset. The version side
 * always yields one row, so an empty page (past the end, or nothing matching) still reports the
 * total; the page side is then a single all-null row.
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
  const whereOf = (all: readonly RawBuilder<unknown>[]) =>
    all.length > 0 ? sql`WHERE ${sql.join(all, sql` AND `)}` : sql``;
  const where = whereOf(conditions);
  // Then by id, so rows equal on every requested key still come in one fixed order.
  const orderBy = (alias: string): RawBuilder<unknown> =>
    sql.join([
      ...request.sort.map(
        (key) => sql`${sql.ref(`${alias}.${key.column}`)} ${sql.raw(key.direction)}`,
      ),
      sql`${sql.ref(`${alias}.id`)} asc`,
    ]);
  const offset = (request.page - 1) * request.limit;
  const cache = listCacheOf(db);
  const listKey = JSON.stringify([definition.table, request.filters, request.ranges ?? []]);
  const cachedCount = cache.counts.get(listKey);
  const pageColumns = sql.join(columns.map((column) => sql.ref(`t.${column}`)));
  let page: RawBuilder<unknown>;
  // In id order (no sortby), a page can start from a row whose position an earlier page
  // recorded: paging on from page 900 to 901 walks 100 index entries, not 90,100.
  const inIdOrder = request.sort.length === 0;
  if (offset >= DEFERRED_JOIN_OFFSET) {
    const anchor = inIdOrder ? cache.nearestAnchor(listKey, offset) : undefined;
    const valid = (then: RawBuilder<unknown>, otherwise: RawBuilder<unknown>) =>
      sql`(SELECT CASE WHEN v.version = ${anchor?.version ?? null} THEN ${then} ELSE ${otherwise} END FROM v)`;
    const keyConditions = anchor
      ? [...conditions, sql`k.id >= ${valid(sql`${anchor.id}::uuid`, sql`${NIL_UUID}::uuid`)}`]
      : conditions;
    const skip = anchor
      ? valid(sql`${offset - anchor.offset}::bigint`, sql`${offset}::bigint`)
      : sql`${offset}`;
    // A deep page walks `offset` index entries. Walking them for ids only lets PostgreSQL use
    // an index-only scan (the (filter, sort, id) indexes hold all it needs) and read from the
    // table just the page's rows, instead of every row it skips.
    page = sql`SELECT ${pageColumns} FROM (
        SELECT k.id FROM ${table} AS k ${whereOf(keyConditions)} ORDER BY ${orderBy('k')}
        LIMIT ${request.limit} OFFSET ${skip}
      ) AS keys JOIN ${table} AS t ON t.id = keys.id`;
  } else {
    page = sql`SELECT ${pageColumns} FROM ${table} AS t ${where} ORDER BY ${orderBy('t')}
      LIMIT ${request.limit} OFFSET ${offset}`;
  }
  const result = await sql<Row>`
    WITH v AS (
      SELECT sum(version) AS version FROM table_versions WHERE table_name = ${definition.table}
    )
    SELECT v.version AS ${sql.ref(VERSION)},
      CASE WHEN v.version = ${cachedCount?.version ?? null} THEN ${cachedCount?.count ?? null}::bigint
           ELSE (SELECT count(*) FROM ${table} ${where}) END AS ${sql.ref(TOTAL)},
      ${sql.join(columns.map((column) => sql.ref(`p.${column}`)))}
    FROM v LEFT JOIN LATERAL (${page}) AS p ON true
    ORDER BY ${orderBy('p')}`.execute(db);
  const first = result.rows[0];
  const totalCount = Number(first?.[TOTAL] ?? 0);
  // The rows keep the two extra columns: responses are written from the route's schema, which
  // names the fields to write, and copying 100 rows without them would cost more than the page.
  const rows = first?.id === null || first?.id === undefined ? [] : result.rows;
  const version = first?.[VERSION];
  // A table without a version (not listed in migration 004) is counted every time.
  if (typeof version === 'number') {
    if (version !== cachedCount?.version) {
      cache.counts.set(listKey, { version, count: totalCount });
    }
    if (inIdOrder && offset >= DEFERRED_JOIN_OFFSET && rows[0]) {
      cache.recordAnchor(listKey, version, offset, String(rows[0].id));
    }
  }
  return { totalCount, rows, ...(typeof version === 'number' ? { version } : {}) };
}

const TABLE_VERSION_SQL =
  'SELECT sum(version) AS version FROM table_versions WHERE table_name = $1';

/** The version of a table (list-cache.ts), or undefined for a table without one. */
export async function tableVersion(db: AnyDatabase, table: string): Promise<number | undefined> {
  // Compiled once: this is all a request answered from the list cache asks of the database.
  const result = await db.executeQuery<{ version: number | null }>(
    CompiledQuery.raw(TABLE_VERSION_SQL, [table]),
  );
  const version = result.rows[0]?.version;
  return typeof version === 'number' ? version : undefined;
}

/** The text of each definition's single-record read, built by Kysely once. */
const findRowSql = new WeakMap<ResourceDefinition, string>();

export async function findRow(
  db: AnyDatabase,
  definition: ResourceDefinition,
  id: string,
): Promise<Row | undefined> {
  // The most frequent statement: building and compiling it per request cost more CPU than
  // PostgreSQL's answer, so only the id changes between calls.
  let text = findRowSql.get(definition);
  if (text === undefined) {
    text = db
      .selectFrom(definition.table)
      .select(visibleColumns(definition))
      .where('id', '=', id)
      .compile().sql;
    findRowSql.set(definition, text);
  }
  const result = await db.executeQuery<Row>(CompiledQuery.raw(text, [id]));
  return result.rows[0];
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

/**
 * The exact number of rows matching `filters`, reused while the table's version is unchanged
 * (list-cache.ts), with the same key as a list of the same filters: `GET /debug/count` is public,
 * and counting 100,000 devices on each call would let anyone keep a core busy.
 */
export async function countRows(
  db: AnyDatabase,
  definition: ResourceDefinition,
  filters: Readonly<Record<string, unknown>>,
): Promise<number> {
  const cache = listCacheOf(db);
  const listKey = JSON.stringify([definition.table, filters, []]);
  const cached = cache.counts.get(listKey);
  const conditions = Object.entries(filters).map(
    ([column, value]) => sql`${sql.ref(column)} = ${value}`,
  );
  const where = conditions.length > 0 ? sql`WHERE ${sql.join(conditions, sql` AND `)}` : sql``;
  const result = await sql<{ version: number | null; count: number | string }>`
    WITH v AS (
      SELECT sum(version) AS version FROM table_versions WHERE table_name = ${definition.table}
    )
    SELECT v.version,
      CASE WHEN v.version = ${cached?.version ?? null} THEN ${cached?.count ?? null}::bigint
           ELSE (SELECT count(*) FROM ${sql.table(definition.table)} ${where}) END AS count
    FROM v`.execute(db);
  const row = result.rows[0];
  const count = Number(row?.count ?? 0);
  if (typeof row?.version === 'number' && row.version !== cached?.version) {
    cache.counts.set(listKey, { version: row.version, count });
  }
  return count;
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

export interface RowUpdate {
  id: string;
  values: Row;
}

/**
 * A batch of partial updates in a few statements whatever its size: the rows are locked in id
 * order (concurrent batches over the same rows then wait for each other instead of
 * deadlocking), then one UPDATE per distinct set of fields (usually one) joins the table with
 * the items, typed by the table's own row type through jsonb_populate_recordset. Throws, inside
 * the caller's transaction, naming the first unknown id.
 */
export async function updateRows(
  trx: AnyDatabase,
  definition: ResourceDefinition,
  updates: readonly RowUpdate[],
): Promise<void> {
  const ids = [...new Set(updates.map((update) => update.id.toLowerCase()))].sort();
  const locked = await trx
    .selectFrom(definition.table)
    .select('id')
    .where('id', 'in', ids)
    .orderBy('id')
    .forUpdate()
    .execute();
  if (locked.length !== ids.length) {
    const found = new Set(locked.map((row) => String(row.id)));
    const missing = updates.find((update) => !found.has(update.id.toLowerCase()));
    throw notFound(`${definition.notFoundMessage}: ${missing?.id}`);
  }
  const columns = visibleColumns(definition);
  const byFields = new Map<string, Row[]>();
  for (const { id, values } of updates) {
    const fields = Object.keys(values).sort();
    for (const field of fields) {
      if (!columns.includes(field))
        throw new Error(`${field} is not a column of ${definition.name}`);
    }
    const key = fields.join(',');
    byFields.set(key, [...(byFields.get(key) ?? []), { ...values, id }]);
  }
  const table = sql.table(definition.table);
  for (const [key, items] of byFields) {
    const assignments = key.split(',').map((field) => sql`${sql.ref(field)} = r.${sql.ref(field)}`);
    await sql`
      UPDATE ${table} AS t SET ${sql.join(assignments)}, updated_at = now()
      FROM jsonb_populate_recordset(NULL::${table}, ${JSON.stringify(items)}::jsonb) AS r
      WHERE t.id = r.id`.execute(trx);
  }
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

/*
 * Writes as parts of one statement (audit-log.ts's writeWithAudit adds the audit rows): one
 * round trip per write, the statement being its own transaction. The steps are named after what
 * they do; the names end in `__` where they could meet a table's name.
 */

const step = (name: string, query: unknown) => sql`${sql.id(name)} AS (${query})`;

export function insertStatement(
  db: AnyDatabase,
  definition: ResourceDefinition,
  values: Row,
): { id: string; write: StatementWrite } {
  const id = uuidv7();
  const query = db
    .insertInto(definition.table)
    .values({ id, ...values })
    .returning(visibleColumns(definition));
  return {
    id,
    write: {
      steps: [step('created__', query)],
      written: sql`SELECT id FROM created__`,
      result: sql`SELECT * FROM created__`,
    },
  };
}

/** Answers the row as now stored, or nothing when there is no such id. */
export function updateStatement(
  db: AnyDatabase,
  definition: ResourceDefinition,
  id: string,
  values: Row,
): StatementWrite {
  const query = db
    .updateTable(definition.table)
    .set({ ...values, updated_at: sql`now()` })
    .where('id', '=', id)
    .returning(visibleColumns(definition));
  return {
    steps: [step('updated__', query)],
    written: sql`SELECT id FROM updated__`,
    result: sql`SELECT * FROM updated__`,
  };
}

/** Answers the id deleted, or nothing when there is no such id. */
export function deleteStatement(
  db: AnyDatabase,
  definition: ResourceDefinition,
  id: string,
): StatementWrite {
  const query = db.deleteFrom(definition.table).where('id', '=', id).returning('id');
  return {
    steps: [step('deleted__', query)],
    written: sql`SELECT id FROM deleted__`,
    result: sql`SELECT id FROM deleted__`,
  };
}

/**
 * The first steps of a batch over `ids`: their rows locked in id order (concurrent batches over
 * the same rows then wait for each other instead of deadlocking), and whether every id was
 * found. Each write of the batch is conditioned on `complete__.ok`, so a batch naming an unknown
 * id writes nothing; the statement answers `{ok, found}` for the caller to name it.
 */
function lockedBatch(definition: ResourceDefinition, ids: readonly string[]) {
  return [
    sql`locked__ AS (
      SELECT id FROM ${sql.table(definition.table)}
      WHERE id IN (SELECT value::uuid FROM jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))
      ORDER BY id FOR UPDATE)`,
    sql`complete__ AS (
      SELECT count(*) = ${ids.length} AS ok, array_agg(id::text) AS found FROM locked__)`,
  ];
}

const BATCH_COMPLETE = sql`(SELECT ok FROM complete__)`;

interface BatchOutcome {
  ok: boolean;
  found: string[] | null;
}

/** Throws 404 naming the first id of `ids` the batch did not find, if any. */
export function checkBatch(
  definition: ResourceDefinition,
  ids: readonly string[],
  rows: readonly BatchOutcome[],
): void {
  const outcome = rows[0];
  if (outcome?.ok) return;
  const found = new Set(outcome?.found ?? []);
  const missing = ids.find((id) => !found.has(id.toLowerCase()));
  throw notFound(`${definition.notFoundMessage}: ${missing}`);
}

/**
 * A batch of partial updates in one statement whatever its size: the rows locked (above), then
 * one UPDATE per distinct set of fields (usually one) joining the table with the items, typed by
 * the table's own row type through jsonb_populate_recordset.
 */
export function updateRowsStatement(
  definition: ResourceDefinition,
  updates: readonly RowUpdate[],
): StatementWrite {
  const ids = [...new Set(updates.map((update) => update.id.toLowerCase()))].sort();
  const columns = visibleColumns(definition);
  const byFields = new Map<string, Row[]>();
  for (const { id, values } of updates) {
    const fields = Object.keys(values).sort();
    for (const field of fields) {
      if (!columns.includes(field))
        throw new Error(`${field} is not a column of ${definition.name}`);
    }
    const key = fields.join(',');
    byFields.set(key, [...(byFields.get(key) ?? []), { ...values, id }]);
  }
  const table = sql.table(definition.table);
  const updateSteps = [...byFields].map(([key, items], index) => {
    const assignments = key.split(',').map((field) => sql`${sql.ref(field)} = r.${sql.ref(field)}`);
    return step(
      `updated${index}__`,
      sql`UPDATE ${table} AS t SET ${sql.join(assignments)}, updated_at = now()
        FROM jsonb_populate_recordset(NULL::${table}, ${JSON.stringify(items)}::jsonb) AS r
        WHERE t.id = r.id AND ${BATCH_COMPLETE}
        RETURNING t.id`,
    );
  });
  return {
    steps: [...lockedBatch(definition, ids), ...updateSteps],
    written: sql.join(
      updateSteps.map((_, index) => sql`SELECT id FROM ${sql.table(`updated${index}__`)}`),
      sql` UNION ALL `,
    ),
    result: sql`SELECT ok, found FROM complete__`,
  };
}

/** Deletes every id or, when one is unknown, none (see checkBatch). */
export function deleteRowsStatement(
  definition: ResourceDefinition,
  ids: readonly string[],
): StatementWrite {
  const wanted = [...new Set(ids.map((id) => id.toLowerCase()))].sort();
  return {
    steps: [
      ...lockedBatch(definition, wanted),
      sql`deleted__ AS (
        DELETE FROM ${sql.table(definition.table)}
        WHERE id IN (SELECT id FROM locked__) AND ${BATCH_COMPLETE}
        RETURNING id)`,
    ],
    written: sql`SELECT id FROM deleted__`,
    result: sql`SELECT ok, found FROM complete__`,
  };
}
