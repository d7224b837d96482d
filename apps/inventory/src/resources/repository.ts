import { type Kysely, type RawBuilder, sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import type { StatementWrite } from '../audit/audit-log.js';
import { type ParameterOf, statementTemplate } from '../db/statement-template.js';
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

/** What decides the text of a list statement; the values only fill its parameters. */
interface ListShape {
  filters: readonly string[];
  ranges: ReadonlyArray<{ column: string; from: boolean; to: boolean }>;
  sort: readonly SortKey[];
  /** Offset past DEFERRED_JOIN_OFFSET: ids first. */
  deep: boolean;
  /** Deep, in id order, with a recorded position to start from. */
  anchored: boolean;
}

const filterParam = (column: string) => `filter:${column}`;
const rangeParam = (column: string, bound: 'from' | 'to') => `${bound}:${column}`;

/**
 * The conditions of a list or a count: its filters (exact) and time bounds (inclusive). A count
 * without any reads the table's maintained row count instead (migration 007).
 */
function conditionsOf(shape: Pick<ListShape, 'filters' | 'ranges'>, param: ParameterOf) {
  const conditions = shape.filters.map(
    (column) => sql`${sql.ref(column)} = ${param(filterParam(column))}`,
  );
  for (const { column, from, to } of shape.ranges) {
    if (from) conditions.push(sql`${sql.ref(column)} >= ${param(rangeParam(column, 'from'))}`);
    if (to) conditions.push(sql`${sql.ref(column)} <= ${param(rangeParam(column, 'to'))}`);
  }
  return conditions;
}

const whereOf = (all: readonly RawBuilder<unknown>[]) =>
  all.length > 0 ? sql`WHERE ${sql.join(all, sql` AND `)}` : sql``;

/**
 * The table's version and row count (migrations 004 and 007), for the statements that read them
 * in the same snapshot as what they answer. Both are null for a table without a version.
 */
const versionStep = (param: ParameterOf) => sql`v AS (
      SELECT sum(version) AS version, sum(row_count) AS row_count
      FROM table_versions WHERE table_name = ${param('table')}
    )`;

/**
 * The exact number of matching rows: without conditions the table's maintained row count; with
 * them, a count recorded at the version just read (list-cache.ts), else counted. PostgreSQL
 * runs the counting sub-select only when the expression needs it (an InitPlan).
 */
function totalOf(
  table: RawBuilder<unknown>,
  conditions: readonly RawBuilder<unknown>[],
  param: ParameterOf,
) {
  const counted = sql`(SELECT count(*) FROM ${table} ${whereOf(conditions)})`;
  if (conditions.length === 0) return sql`COALESCE(v.row_count, ${counted})`;
  return sql`CASE WHEN v.version = ${param('cached_version')} THEN ${param('cached_count')}::bigint
           ELSE ${counted} END`;
}

/**
 * One statement per page whatever its size, filters, sort or depth: the table's version, the
 * count of all matching rows and the page itself. What list-cache.ts recorded is used only
 * through expressions comparing its version with the one read in this statement, so a stale
 * entry changes nothing but the cost. The version side always yields one row, so an empty page
 * (past the end, or nothing matching) still reports the total; the page side is then a single
 * all-null row.
 */
function listStatement(definition: ResourceDefinition, shape: ListShape, param: ParameterOf) {
  const table = sql.table(definition.table);
  const columns = visibleColumns(definition);
  const conditions = conditionsOf(shape, param);
  // Then by id, so rows equal on every requested key still come in one fixed order.
  const orderBy = (alias: string): RawBuilder<unknown> =>
    sql.join([
      ...shape.sort.map(
        (key) => sql`${sql.ref(`${alias}.${key.column}`)} ${sql.raw(key.direction)}`,
      ),
      sql`${sql.ref(`${alias}.id`)} asc`,
    ]);
  const pageColumns = sql.join(columns.map((column) => sql.ref(`t.${column}`)));
  let page: RawBuilder<unknown>;
  if (shape.deep) {
    // In id order, a page can start from a row whose position an earlier page recorded (paging
    // on from page 900 to 901 walks 100 index entries, not 90,100), but only while the table is
    // still at the version it was recorded at; otherwise from the start, skipping `offset`.
    const whileUnchanged = (then: RawBuilder<unknown>, otherwise: RawBuilder<unknown>) =>
      sql`(SELECT CASE WHEN v.version = ${param('anchor_version')} THEN ${then} ELSE ${otherwise} END FROM v)`;
    const keyConditions = shape.anchored
      ? [
          ...conditions,
          sql`k.id >= ${whileUnchanged(sql`${param('anchor_id')}::uuid`, sql`${param('nil_id')}::uuid`)}`,
        ]
      : conditions;
    const skip = shape.anchored
      ? whileUnchanged(sql`${param('anchor_skip')}::bigint`, sql`${param('offset')}::bigint`)
      : sql`${param('offset')}`;
    // A deep page walks `offset` index entries. Walking them for ids only lets PostgreSQL use
    // an index-only scan (the (filter, sort, id) indexes hold all it needs) and read from the
    // table just the page's rows, instead of every row it skips.
    page = sql`SELECT ${pageColumns} FROM (
        SELECT k.id FROM ${table} AS k ${whereOf(keyConditions)} ORDER BY ${orderBy('k')}
        LIMIT ${param('limit')} OFFSET ${skip}
      ) AS keys JOIN ${table} AS t ON t.id = keys.id`;
  } else {
    page = sql`SELECT ${pageColumns} FROM ${table} AS t ${whereOf(conditions)} ORDER BY ${orderBy('t')}
      LIMIT ${param('limit')} OFFSET ${param('offset')}`;
  }
  return sql`
    WITH ${versionStep(param)}
    SELECT v.version AS ${sql.ref(VERSION)}, ${totalOf(table, conditions, param)} AS ${sql.ref(TOTAL)},
      ${sql.join(columns.map((column) => sql.ref(`p.${column}`)))}
    FROM v LEFT JOIN LATERAL (${page}) AS p ON true
    ORDER BY ${orderBy('p')}`;
}

/** Parameter values of a list's or a count's conditions. */
function conditionValues(
  filters: Readonly<Record<string, unknown>>,
  ranges: readonly RangeFilter[],
) {
  const values: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(filters)) values[filterParam(column)] = value;
  for (const { column, from, to } of ranges) {
    if (from !== undefined) values[rangeParam(column, 'from')] = from;
    if (to !== undefined) values[rangeParam(column, 'to')] = to;
  }
  return values;
}

const rangeShape = (ranges: readonly RangeFilter[]) =>
  ranges
    .map(({ column, from, to }) => ({ column, from: from !== undefined, to: to !== undefined }))
    .filter((range) => range.from || range.to);

/** One page of a resource with its exact total, in one statement (see listStatement). */
export async function listRows(
  db: AnyDatabase,
  definition: ResourceDefinition,
  request: ListRequest,
): Promise<ListResult> {
  const columns = visibleColumns(definition);
  const ranges = request.ranges ?? [];
  // The schemas already admit only declared fields; this keeps the SQL safe on its own.
  for (const column of [
    ...Object.keys(request.filters),
    ...request.sort.map((key) => key.column),
    ...ranges.map((range) => range.column),
  ]) {
    if (!columns.includes(column))
      throw new Error(`${column} is not a column of ${definition.name}`);
  }
  const offset = (request.page - 1) * request.limit;
  const cache = listCacheOf(db);
  const listKey = JSON.stringify([definition.table, request.filters, ranges]);
  const cachedCount = cache.counts.get(listKey);
  const inIdOrder = request.sort.length === 0;
  const deep = offset >= DEFERRED_JOIN_OFFSET;
  const anchor = deep && inIdOrder ? cache.nearestAnchor(listKey, offset) : undefined;
  const shape: ListShape = {
    filters: Object.keys(request.filters),
    ranges: rangeShape(ranges),
    sort: request.sort,
    deep,
    anchored: anchor !== undefined,
  };
  const template = statementTemplate(
    db,
    JSON.stringify(['list', definition.table, shape]),
    (param) => listStatement(definition, shape, param),
  );
  const result = await db.executeQuery<Row>(
    template.bind({
      table: definition.table,
      limit: request.limit,
      offset,
      cached_version: cachedCount?.version ?? null,
      cached_count: cachedCount?.count ?? null,
      anchor_version: anchor?.version ?? null,
      anchor_id: anchor?.id ?? null,
      anchor_skip: anchor ? offset - anchor.offset : null,
      nil_id: NIL_UUID,
      ...conditionValues(request.filters, ranges),
    }),
  );
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
    if (inIdOrder && deep && rows[0]) {
      cache.recordAnchor(listKey, version, offset, String(rows[0].id));
    }
  }
  return { totalCount, rows, ...(typeof version === 'number' ? { version } : {}) };
}

/** The version of a table (list-cache.ts), or undefined for a table without one. */
export async function tableVersion(db: AnyDatabase, table: string): Promise<number | undefined> {
  // All a request answered from the list cache asks of the database.
  const template = statementTemplate(
    db,
    'table-version',
    (param) =>
      sql`SELECT sum(version) AS version FROM table_versions WHERE table_name = ${param('table')}`,
  );
  const result = await db.executeQuery<{ version: number | null }>(template.bind({ table }));
  const version = result.rows[0]?.version;
  return typeof version === 'number' ? version : undefined;
}

export async function findRow(
  db: AnyDatabase,
  definition: ResourceDefinition,
  id: string,
): Promise<Row | undefined> {
  const template = statementTemplate(db, `find:${definition.table}`, (param) =>
    db
      .selectFrom(definition.table)
      .select(visibleColumns(definition))
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
 * The exact number of rows matching `filters`: the maintained row count without filters, else
 * reused while the table's version is unchanged (list-cache.ts), with the same key as a list of
 * the same filters. `GET /debug/count` is public, and counting 100,000 devices on each call
 * would let anyone keep a core busy.
 */
export async function countRows(
  db: AnyDatabase,
  definition: ResourceDefinition,
  filters: Readonly<Record<string, unknown>>,
): Promise<number> {
  const cache = listCacheOf(db);
  const listKey = JSON.stringify([definition.table, filters, []]);
  const cached = cache.counts.get(listKey);
  const shape = { filters: Object.keys(filters), ranges: [] };
  const template = statementTemplate(
    db,
    JSON.stringify(['count', definition.table, shape.filters]),
    (param) => sql`
      WITH ${versionStep(param)}
      SELECT v.version, ${totalOf(sql.table(definition.table), conditionsOf(shape, param), param)} AS count
      FROM v`,
  );
  const result = await db.executeQuery<{ version: number | null; count: number | string }>(
    template.bind({
      table: definition.table,
      cached_version: cached?.version ?? null,
      cached_count: cached?.count ?? null,
      ...conditionValues(filters, []),
    }),
  );
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

/*
 * Writes as parts of one statement (audit-log.ts's writeWithAudit adds the audit rows): one
 * round trip per write, the statement being its own transaction. The steps are named after what
 * they do; the names end in `__` where they could meet a table's name. Like lists, their texts
 * are compiled once per shape (the table and the fields written) and then only bound.
 */

const step = (name: string, query: unknown) => sql`${sql.id(name)} AS (${query})`;

/** The fields a write sets, in a fixed order: the same fields, whatever their order, one text. */
const fieldsOf = (values: Row) =>
  Object.keys(values)
    .filter((field) => values[field] !== undefined)
    .sort();

const fieldParam = (field: string) => `value:${field}`;

function fieldValues(fields: readonly string[], values: Row): Row {
  return Object.fromEntries(fields.map((field) => [fieldParam(field), values[field]]));
}

function assertColumns(definition: ResourceDefinition, fields: readonly string[]): void {
  const columns = visibleColumns(definition);
  for (const field of fields) {
    if (!columns.includes(field)) throw new Error(`${field} is not a column of ${definition.name}`);
  }
}

export function insertStatement(
  db: AnyDatabase,
  definition: ResourceDefinition,
  values: Row,
): { id: string; write: StatementWrite } {
  const id = uuidv7();
  const fields = fieldsOf(values);
  assertColumns(definition, fields);
  return {
    id,
    write: {
      shape: JSON.stringify(['insert', definition.table, fields]),
      parts: (param) => ({
        steps: [
          step(
            'created__',
            db
              .insertInto(definition.table)
              .values({
                id: param('id'),
                ...Object.fromEntries(fields.map((field) => [field, param(fieldParam(field))])),
              })
              .returning(visibleColumns(definition)),
          ),
        ],
        written: sql`SELECT id FROM created__`,
        result: sql`SELECT * FROM created__`,
      }),
      values: { id, ...fieldValues(fields, values) },
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
  const fields = fieldsOf(values);
  assertColumns(definition, fields);
  return {
    shape: JSON.stringify(['update', definition.table, fields]),
    parts: (param) => ({
      steps: [
        step(
          'updated__',
          db
            .updateTable(definition.table)
            .set({
              ...Object.fromEntries(fields.map((field) => [field, param(fieldParam(field))])),
              updated_at: sql`now()`,
            })
            .where('id', '=', param('id'))
            .returning(visibleColumns(definition)),
        ),
      ],
      written: sql`SELECT id FROM updated__`,
      result: sql`SELECT * FROM updated__`,
    }),
    values: { id, ...fieldValues(fields, values) },
  };
}

/** Answers the id deleted, or nothing when there is no such id. */
export function deleteStatement(
  db: AnyDatabase,
  definition: ResourceDefinition,
  id: string,
): StatementWrite {
  return {
    shape: JSON.stringify(['delete', definition.table]),
    parts: (param) => ({
      steps: [
        step(
          'deleted__',
          db.deleteFrom(definition.table).where('id', '=', param('id')).returning('id'),
        ),
      ],
      written: sql`SELECT id FROM deleted__`,
      result: sql`SELECT id FROM deleted__`,
    }),
    values: { id },
  };
}

/**
 * The first steps of a batch over the ids of the parameter `ids` (a JSON array, `batch_size`
 * distinct ids): their rows locked in id order (concurrent batches over the same rows then wait
 * for each other instead of deadlocking), and whether every id was found. Each write of the
 * batch is conditioned on `complete__.ok`, so a batch naming an unknown id writes nothing; the
 * statement answers `{ok, found}` for the caller to name it.
 */
function lockedBatch(definition: ResourceDefinition, param: ParameterOf) {
  return [
    sql`locked__ AS (
      SELECT id FROM ${sql.table(definition.table)}
      WHERE id IN (SELECT value::uuid FROM jsonb_array_elements_text(${param('ids')}::jsonb))
      ORDER BY id FOR UPDATE)`,
    sql`complete__ AS (
      SELECT count(*) = ${param('batch_size')}::bigint AS ok, array_agg(id::text) AS found
      FROM locked__)`,
  ];
}

/** The batch's distinct ids in lower case (as PostgreSQL writes uuids), sorted. */
function batchIds(ids: readonly string[]) {
  const distinct = [...new Set(ids.map((id) => id.toLowerCase()))].sort();
  return { ids: JSON.stringify(distinct), batch_size: distinct.length };
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
  const byFields = new Map<string, Row[]>();
  for (const { id, values } of updates) {
    const fields = fieldsOf(values);
    assertColumns(definition, fields);
    const key = fields.join(',');
    let items = byFields.get(key);
    if (items === undefined) {
      items = [];
      byFields.set(key, items);
    }
    items.push({ ...values, id });
  }
  const fieldSets = [...byFields.keys()];
  const table = sql.table(definition.table);
  const updated = (index: number) => `updated${index}__`;
  return {
    shape: JSON.stringify(['batch-update', definition.table, fieldSets]),
    parts: (param) => {
      const updateSteps = fieldSets.map((key, index) => {
        const assignments = key
          .split(',')
          .filter(Boolean)
          .map((field) => sql`${sql.ref(field)} = r.${sql.ref(field)}`);
        return step(
          updated(index),
          sql`UPDATE ${table} AS t SET ${sql.join([...assignments, sql`updated_at = now()`])}
            FROM jsonb_populate_recordset(NULL::${table}, ${param(`items:${index}`)}::jsonb) AS r
            WHERE t.id = r.id AND ${BATCH_COMPLETE}
            RETURNING t.id`,
        );
      });
      return {
        steps: [...lockedBatch(definition, param), ...updateSteps],
        written: sql.join(
          fieldSets.map((_, index) => sql`SELECT id FROM ${sql.table(updated(index))}`),
          sql` UNION ALL `,
        ),
        result: sql`SELECT ok, found FROM complete__`,
      };
    },
    values: {
      ...batchIds(updates.map((update) => update.id)),
      ...Object.fromEntries(
        [...byFields.values()].map((items, index) => [`items:${index}`, JSON.stringify(items)]),
      ),
    },
  };
}

/** Deletes every id or, when one is unknown, none (see checkBatch). */
export function deleteRowsStatement(
  definition: ResourceDefinition,
  ids: readonly string[],
): StatementWrite {
  return {
    shape: JSON.stringify(['batch-delete', definition.table]),
    parts: (param) => ({
      steps: [
        ...lockedBatch(definition, param),
        sql`deleted__ AS (
          DELETE FROM ${sql.table(definition.table)}
          WHERE id IN (SELECT id FROM locked__) AND ${BATCH_COMPLETE}
          RETURNING id)`,
      ],
      written: sql`SELECT id FROM deleted__`,
      result: sql`SELECT ok, found FROM complete__`,
    }),
    values: batchIds(ids),
  };
}
