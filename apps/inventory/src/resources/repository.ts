import { type Kysely, type RawBuilder, sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import type { StatementWrite } from '../audit/audit-log.js';
import { type ParameterOf, statementTemplate } from '../db/statement-template.js';
import { badRequest, notFound } from '../errors.js';
import {
  type ResourceDefinition,
  secretColumns,
  sortableColumns,
  systemColumnsOf,
  tagColumns,
} from './definition.js';
import { ETAG_COLUMN, preconditionFailed } from './etags.js';
import { listCacheOf } from './list-cache.js';
import {
  type Condition,
  conditionShape,
  conditionSql,
  conditionValues,
  kindOf,
  servedByValueCounter,
  valueCounterKey,
  valueCounterShape,
} from './lookups.js';

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
  /** Filters, lookups, tags and search, combined with AND (lookups.ts). */
  conditions: readonly Condition[];
  /** Inclusive bounds on columns (a time range), combined with the filters. */
  ranges?: readonly RangeFilter[];
  /** Keyset paging: the sort values and then the id of the row the page starts after. */
  after?: readonly unknown[];
  /** Columns to read (the others are not selected); every visible column when absent. */
  columns?: readonly string[];
}

export interface RangeFilter {
  column: string;
  from?: unknown;
  to?: unknown;
}

export interface ListResult {
  totalCount: number;
  rows: Row[];
  /** The sort values and id of the page's last row, when more rows follow it. */
  nextKey?: unknown[];
  /** The table's version the page was read at (list-cache.ts); absent for unversioned tables. */
  version?: number;
}

/**
 * The columns a client sees: the system columns and the declared ones. Named explicitly rather
 * than `*`, so a column nobody declared (a password hash) can never leak into a response.
 */
export function visibleColumns(definition: ResourceDefinition): string[] {
  const secrets = secretColumns(definition);
  return [...systemColumnsOf(definition), ...Object.keys(definition.columns)].filter(
    (column) => !secrets.includes(column),
  );
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
/** A timestamp sort key's value as PostgreSQL writes it (microseconds; a Date keeps millis). */
const keyText = (column: string) => `__key:${column}`;
/** From this offset on, the page is found through its ids first (see below). */
const DEFERRED_JOIN_OFFSET = 1000;
/** Below every UUID the service generates: "no known position, start from the first row". */
const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/** What decides the text of a list statement; the values only fill its parameters. */
interface ListShape {
  conditions: readonly string[];
  ranges: ReadonlyArray<{ column: string; from: boolean; to: boolean }>;
  sort: readonly SortKey[];
  /** Offset past DEFERRED_JOIN_OFFSET: ids first. */
  deep: boolean;
  /** Deep, in id order, with a recorded position to start from. */
  anchored: boolean;
  /** Keyset page: which of the cursor's sort values are null (the SQL differs). */
  after: readonly boolean[] | null;
  columns: readonly string[];
  /** Values per condition when a value counter holds the total (its SQL differs with them). */
  counter: number[] | null;
}

const rangeParam = (column: string, bound: 'from' | 'to') => `${bound}:${column}`;
const afterParam = (index: number) => `after:${index}`;

/**
 * The conditions of a list or a count: its filters and lookups (lookups.ts) and time bounds
 * (inclusive). A count without any reads the table's maintained row count instead (migration 007).
 */
function conditionsOf(
  definition: ResourceDefinition,
  conditions: readonly Condition[],
  ranges: ListShape['ranges'],
  param: ParameterOf,
  alias?: string,
) {
  const all = conditions.map((condition) => conditionSql(definition, condition, param, alias));
  for (const { column, from, to } of ranges) {
    const ref = sql.ref(alias ? `${alias}.${column}` : column);
    if (from) all.push(sql`${ref} >= ${param(rangeParam(column, 'from'))}`);
    if (to) all.push(sql`${ref} <= ${param(rangeParam(column, 'to'))}`);
  }
  return all;
}

const whereOf = (all: readonly RawBuilder<unknown>[]) =>
  all.length > 0 ? sql`WHERE ${sql.join(all, sql` AND `)}` : sql``;

/** Columns that never hold null: a keyset over them alone is one row comparison. */
function neverNull(definition: ResourceDefinition, column: string): boolean {
  if ((systemColumnsOf(definition) as readonly string[]).includes(column)) return true;
  const spec = definition.columns[column];
  return spec?.required === true || spec?.notNull === true;
}

/**
 * The rows after a cursor's position in the order `keys` (the sort, then id), where PostgreSQL
 * puts nulls last in ascending order and first in descending order. One row comparison, which
 * a (column, id) index serves as a range, when every key runs the same way and none can be null;
 * otherwise the expanded form: equal on the first i-1 keys and after on the i-th.
 */
function keysetCondition(
  definition: ResourceDefinition,
  keys: readonly SortKey[],
  nulls: readonly boolean[],
  param: ParameterOf,
  alias: string,
) {
  const ref = (column: string) => sql.ref(`${alias}.${column}`);
  const direction = keys[0]?.direction ?? 'asc';
  if (
    keys.every((key) => key.direction === direction && neverNull(definition, key.column)) &&
    nulls.every((isNull) => !isNull)
  ) {
    const left = sql.join(keys.map((key) => ref(key.column)));
    const right = sql.join(keys.map((_, index) => param(afterParam(index))));
    return direction === 'asc' ? sql`(${left}) > (${right})` : sql`(${left}) < (${right})`;
  }
  const equal = (key: SortKey, index: number) =>
    nulls[index]
      ? sql`${ref(key.column)} IS NULL`
      : sql`${ref(key.column)} = ${param(afterParam(index))}`;
  const after = (key: SortKey, index: number) => {
    const value = param(afterParam(index));
    if (key.direction === 'asc') {
      return nulls[index]
        ? sql`false`
        : sql`(${ref(key.column)} > ${value} OR ${ref(key.column)} IS NULL)`;
    }
    return nulls[index] ? sql`${ref(key.column)} IS NOT NULL` : sql`${ref(key.column)} < ${value}`;
  };
  const branches = keys.map((key, index) =>
    sql.join([...keys.slice(0, index).map(equal), after(key, index)], sql` AND `),
  );
  return sql`(${sql.join(
    branches.map((branch) => sql`(${branch})`),
    sql` OR `,
  )})`;
}

/**
 * The table's version and row count (migrations 004 and 007), for the statements that read them
 * in the same snapshot as what they answer. Both are null for a table without a version.
 */
const versionStep = (param: ParameterOf) => sql`v AS (
      SELECT sum(version) AS version, sum(row_count) AS row_count
      FROM table_versions WHERE table_name = ${param('table')}
    )`;

/**
 * The exact number of matching rows: without conditions the table's maintained row count
 * (migration 007); with exact matches on one or two `counted` columns, the sum of their value
 * counter (migration 014); otherwise a count recorded at the version just read (list-cache.ts),
 * else counted. PostgreSQL runs the counting sub-select only when the expression needs it (an
 * InitPlan). The maintained counts are read in the statement's own snapshot, so they are exact
 * whoever wrote, and no write makes them be counted again.
 */
function totalOf(
  definition: ResourceDefinition,
  parsed: readonly Condition[],
  ranges: ListShape['ranges'],
  param: ParameterOf,
) {
  const table = sql.table(definition.table);
  const conditions = conditionsOf(definition, parsed, ranges, param);
  const counted = sql`(SELECT count(*) FROM ${table} ${whereOf(conditions)})`;
  if (conditions.length === 0) return sql`COALESCE(v.row_count, ${counted})`;
  const counter = ranges.length === 0 ? valueCounterKey(definition, parsed, param) : undefined;
  if (counter) {
    return sql`(SELECT COALESCE(sum(n), 0) FROM value_counts
           WHERE table_name = ${param('table')} AND key = ${counter})`;
  }
  return sql`CASE WHEN v.version = ${param('cached_version')} THEN ${param('cached_count')}::bigint
           ELSE ${counted} END`;
}

/** Whether a list of these conditions reads a maintained count (never counts its rows). */
export function totalIsMaintained(
  definition: ResourceDefinition,
  conditions: readonly Condition[],
  ranges: readonly RangeFilter[],
): boolean {
  if (conditions.length === 0 && ranges.length === 0) return true;
  return ranges.length === 0 && servedByValueCounter(definition, conditions);
}

/** The sort keys of a list, then id: what orders its rows and positions a cursor. */
const keysOf = (sort: readonly SortKey[]): SortKey[] => [
  ...sort,
  { column: 'id', direction: 'asc' },
];

/**
 * One statement per page whatever its size, filters, sort or depth: the table's version, the
 * count of all matching rows and the page itself (one row more than asked, to know whether
 * another page follows). What list-cache.ts recorded is used only through expressions comparing
 * its version with the one read in this statement, so a stale entry changes nothing but the
 * cost. The version side always yields one row, so an empty page (past the end, or nothing
 * matching) still reports the total; the page side is then a single all-null row.
 */
function listStatement(
  definition: ResourceDefinition,
  shape: ListShape & { parsed: readonly Condition[] },
  param: ParameterOf,
) {
  const table = sql.table(definition.table);
  const { columns } = shape;
  const conditionsFor = (alias: string) =>
    conditionsOf(definition, shape.parsed, shape.ranges, param, alias);
  const keys = keysOf(shape.sort);
  const orderBy = (alias: string): RawBuilder<unknown> =>
    sql.join(
      keys.map((key) => sql`${sql.ref(`${alias}.${key.column}`)} ${sql.raw(key.direction)}`),
    );
  const timestampKeys = shape.sort
    .map((key) => key.column)
    .filter((column) => {
      const spec = definition.columns[column];
      return (
        column === 'created_at' || column === 'updated_at' || (spec && kindOf(spec) === 'timestamp')
      );
    });
  const pageColumns = sql.join([
    ...columns.map((column) => sql.ref(`t.${column}`)),
    ...timestampKeys.map(
      (column) => sql`${sql.ref(`t.${column}`)}::text AS ${sql.ref(keyText(column))}`,
    ),
  ]);
  const outerColumns = [...columns, ...timestampKeys.map(keyText)];
  let page: RawBuilder<unknown>;
  if (shape.after !== null) {
    const keyset = keysetCondition(definition, keys, shape.after, param, 't');
    page = sql`SELECT ${pageColumns} FROM ${table} AS t ${whereOf([...conditionsFor('t'), keyset])}
      ORDER BY ${orderBy('t')} LIMIT ${param('limit')}`;
  } else if (shape.deep) {
    // In id order, a page can start from a row whose position an earlier page recorded (paging
    // on from page 900 to 901 walks 100 index entries, not 90,100), but only while the table is
    // still at the version it was recorded at; otherwise from the start, skipping `offset`.
    const whileUnchanged = (then: RawBuilder<unknown>, otherwise: RawBuilder<unknown>) =>
      sql`(SELECT CASE WHEN v.version = ${param('anchor_version')} THEN ${then} ELSE ${otherwise} END FROM v)`;
    const keyConditions = shape.anchored
      ? [
          ...conditionsFor('k'),
          sql`k.id >= ${whileUnchanged(sql`${param('anchor_id')}::uuid`, sql`${param('nil_id')}::uuid`)}`,
        ]
      : conditionsFor('k');
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
    page = sql`SELECT ${pageColumns} FROM ${table} AS t ${whereOf(conditionsFor('t'))} ORDER BY ${orderBy('t')}
      LIMIT ${param('limit')} OFFSET ${param('offset')}`;
  }
  return sql`
    WITH ${versionStep(param)}
    SELECT v.version AS ${sql.ref(VERSION)}, ${totalOf(definition, shape.parsed, shape.ranges, param)} AS ${sql.ref(TOTAL)},
      ${sql.join(outerColumns.map((column) => sql.ref(`p.${column}`)))}
    FROM v LEFT JOIN LATERAL (${page}) AS p ON true
    ORDER BY ${orderBy('p')}`;
}

/** Parameter values of a list's or a count's conditions. */
function boundValues(conditions: readonly Condition[], ranges: readonly RangeFilter[]) {
  const values: Record<string, unknown> = conditionValues(conditions);
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

/** What identifies a set of matching rows (for reused counts and anchors, and for cursors). */
export const conditionsKey = (
  table: string,
  conditions: readonly Condition[],
  ranges: readonly RangeFilter[],
) =>
  JSON.stringify([
    table,
    conditions.map((condition) => [conditionShape(condition), condition.value]),
    ranges,
  ]);

/** One page of a resource with its exact total, in one statement (see listStatement). */
export async function listRows(
  db: AnyDatabase,
  definition: ResourceDefinition,
  request: ListRequest,
): Promise<ListResult> {
  const visible = visibleColumns(definition);
  const ranges = request.ranges ?? [];
  const keys = keysOf(request.sort);
  // Whatever was asked for, the sort keys and id are read too: they order the page and make
  // its cursor. The response writes only the fields asked for.
  const columns = request.columns
    ? visible.filter(
        (column) => request.columns?.includes(column) || keys.some((key) => key.column === column),
      )
    : visible;
  // The schemas already admit only declared fields; this keeps the SQL safe on its own.
  for (const column of [
    ...request.conditions.filter((c) => c.operator !== 'search').map((c) => c.column),
    ...request.sort.map((key) => key.column),
    ...ranges.map((range) => range.column),
    ...columns,
  ]) {
    if (!visible.includes(column))
      throw new Error(`${column} is not a column of ${definition.name}`);
  }
  const cache = listCacheOf(db);
  const listKey = conditionsKey(definition.table, request.conditions, ranges);
  const maintained = totalIsMaintained(definition, request.conditions, ranges);
  const finishCounting = maintained
    ? undefined
    : await cache.coalesceCount(definition.table, listKey);
  try {
    return await readList(db, definition, request, { listKey, maintained, columns, keys });
  } finally {
    finishCounting?.();
  }
}

async function readList(
  db: AnyDatabase,
  definition: ResourceDefinition,
  request: ListRequest,
  known: { listKey: string; maintained: boolean; columns: string[]; keys: SortKey[] },
): Promise<ListResult> {
  const { listKey, maintained, columns, keys } = known;
  const ranges = request.ranges ?? [];
  const keyset = request.after !== undefined;
  const offset = keyset ? 0 : (request.page - 1) * request.limit;
  const cache = listCacheOf(db);
  const cachedCount = maintained ? undefined : cache.counts.get(listKey);
  const inIdOrder = request.sort.length === 0;
  const deep = !keyset && offset >= DEFERRED_JOIN_OFFSET;
  const anchor = deep && inIdOrder ? cache.nearestAnchor(listKey, offset) : undefined;
  const shape = {
    conditions: request.conditions.map(conditionShape),
    ranges: rangeShape(ranges),
    sort: request.sort,
    deep,
    anchored: anchor !== undefined,
    after: request.after ? request.after.map((value) => value === null) : null,
    columns,
    counter: ranges.length === 0 ? valueCounterShape(definition, request.conditions) : null,
  } satisfies ListShape;
  const template = statementTemplate(
    db,
    JSON.stringify(['list', definition.table, shape]),
    (param) => listStatement(definition, { ...shape, parsed: request.conditions }, param),
  );
  const result = await db.executeQuery<Row>(
    template.bind({
      table: definition.table,
      // One more than the page: whether it exists says whether another page follows.
      limit: request.limit + 1,
      offset,
      cached_version: cachedCount?.version ?? null,
      cached_count: cachedCount?.count ?? null,
      anchor_version: anchor?.version ?? null,
      anchor_id: anchor?.id ?? null,
      anchor_skip: anchor ? offset - anchor.offset : null,
      nil_id: NIL_UUID,
      ...Object.fromEntries(
        (request.after ?? []).map((value, index) => [afterParam(index), value]),
      ),
      ...boundValues(request.conditions, ranges),
    }),
  );
  const first = result.rows[0];
  const totalCount = Number(first?.[TOTAL] ?? 0);
  // The rows keep the extra columns: responses are written from the route's schema, which
  // names the fields to write, and copying 100 rows without them would cost more than the page.
  const all = first?.id === null || first?.id === undefined ? [] : result.rows;
  const rows = all.length > request.limit ? all.slice(0, request.limit) : all;
  const last = rows[rows.length - 1];
  const nextKey =
    all.length > request.limit && last
      ? keys.map((key) => last[keyText(key.column)] ?? last[key.column])
      : undefined;
  const version = first?.[VERSION];
  // A table without a version (not listed in migration 004) is counted every time.
  if (maintained) cache.stats.totalsMaintained += 1;
  else if (typeof version === 'number' && version === cachedCount?.version) {
    cache.stats.totalsReused += 1;
  } else cache.stats.totalsCounted += 1;
  if (typeof version === 'number') {
    cache.sawVersion(definition.table, version);
    if (!maintained && version !== cachedCount?.version) {
      cache.counts.set(listKey, { version, count: totalCount });
    }
    if (inIdOrder && deep && rows[0]) {
      cache.recordAnchor(listKey, version, offset, String(rows[0].id));
    }
  }
  return {
    totalCount,
    rows,
    ...(nextKey ? { nextKey } : {}),
    ...(typeof version === 'number' ? { version } : {}),
  };
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
  assertColumns(definition, columns);
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
  const conditions: Condition[] = Object.entries(filters).map(([column, value]) => ({
    column,
    operator: 'exact',
    value,
  }));
  const listKey = conditionsKey(definition.table, conditions, []);
  const cached = cache.counts.get(listKey);
  const template = statementTemplate(
    db,
    JSON.stringify([
      'count',
      definition.table,
      conditions.map(conditionShape),
      valueCounterShape(definition, conditions),
    ]),
    (param) => sql`
      WITH ${versionStep(param)}
      SELECT v.version, ${totalOf(definition, conditions, [], param)} AS count
      FROM v`,
  );
  const result = await db.executeQuery<{ version: number | null; count: number | string }>(
    template.bind({
      table: definition.table,
      cached_version: cached?.version ?? null,
      cached_count: cached?.count ?? null,
      ...boundValues(conditions, []),
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

/** Write-only fields of a batch PATCH item (schemas.ts's TAG_CHANGES). */
export const TAG_CHANGE_FIELDS = ['add_tags', 'remove_tags'] as const;

export interface RowUpdate {
  id: string;
  values: Row;
  /** The tag the item's record must still have (a batch item's `etag`, unquoted). */
  etag?: string;
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
 * Writes as parts of one statement (audit-log.ts's writeWithAudit sets who writes; the tables'
 * triggers write the audit rows, migration 012): one
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
  // Write-only (secret) columns may be written, though never read back.
  const columns = [...visibleColumns(definition), ...secretColumns(definition)];
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
              .returning([...visibleColumns(definition), ROW_TAG]),
          ),
        ],
        result: sql`SELECT * FROM created__`,
      }),
      values: { id, ...fieldValues(fields, values) },
    },
  };
}

/**
 * Bulk create: every item in one INSERT (typed by the table's own row type through
 * jsonb_populate_recordset), so all are stored or none. Items are given their ids here; the
 * caller puts the returned rows back in the items' order.
 */
export function insertRowsStatement(
  definition: ResourceDefinition,
  items: readonly Row[],
): { ids: string[]; write: StatementWrite } {
  const fields = [...new Set(items.flatMap((values) => fieldsOf(values)))].sort();
  assertColumns(definition, fields);
  const ids = items.map(() => uuidv7());
  const table = sql.table(definition.table);
  const columns = ['id', ...fields];
  return {
    ids,
    write: {
      shape: JSON.stringify(['bulk-insert', definition.table, fields]),
      parts: (param) => ({
        steps: [
          step(
            'created__',
            sql`INSERT INTO ${table} (${sql.join(columns.map((column) => sql.ref(column)))})
              SELECT ${sql.join(columns.map((column) => sql.ref(`r.${column}`)))}
              FROM jsonb_populate_recordset(NULL::${table}, ${param('items')}::jsonb) AS r
              RETURNING ${sql.join(visibleColumns(definition).map((column) => sql.ref(column)))}`,
          ),
        ],
        result: sql`SELECT * FROM created__`,
      }),
      values: {
        items: JSON.stringify(items.map((values, index) => ({ ...values, id: ids[index] }))),
      },
    },
  };
}

/**
 * The record's tag (etags.ts): the transaction id of its row version. Compared as text, so a
 * hostile tag is only a tag that does not match.
 */
const ROW_TAG = sql<string>`xmin::text`.as(ETAG_COLUMN);

/**
 * The write's condition on the row's tag (If-Match): it is part of the write's own WHERE, which
 * PostgreSQL evaluates again on the newest row version after waiting for a concurrent writer.
 */
const tagMatches = (param: ParameterOf, alias?: string) =>
  sql<boolean>`${sql.ref(alias ? `${alias}.xmin` : 'xmin')}::text IN (SELECT jsonb_array_elements_text(${param('if_match')}::jsonb))`;

/**
 * Answers the row as now stored with its new tag, or nothing when there is no such id or, with
 * `ifMatch` (the tags an If-Match accepts), when the row's tag is none of them.
 */
export function updateStatement(
  db: AnyDatabase,
  definition: ResourceDefinition,
  id: string,
  values: Row,
  ifMatch?: readonly string[],
): StatementWrite {
  const fields = fieldsOf(values);
  assertColumns(definition, fields);
  const checked = ifMatch !== undefined;
  return {
    shape: JSON.stringify(['update', definition.table, fields, checked]),
    parts: (param) => {
      let update = db
        .updateTable(definition.table)
        .set({
          ...Object.fromEntries(fields.map((field) => [field, param(fieldParam(field))])),
          updated_at: sql`now()`,
        })
        .where('id', '=', param('id'));
      if (checked) update = update.where(tagMatches(param));
      return {
        steps: [step('updated__', update.returning([...visibleColumns(definition), ROW_TAG]))],
        result: sql`SELECT * FROM updated__`,
      };
    },
    values: {
      id,
      ...fieldValues(fields, values),
      ...(checked ? { if_match: JSON.stringify(ifMatch) } : {}),
    },
  };
}

/** Answers the id deleted, or nothing when there is no such id (or its tag is not `ifMatch`). */
export function deleteStatement(
  db: AnyDatabase,
  definition: ResourceDefinition,
  id: string,
  ifMatch?: readonly string[],
): StatementWrite {
  const checked = ifMatch !== undefined;
  return {
    shape: JSON.stringify(['delete', definition.table, checked]),
    parts: (param) => {
      let remove = db.deleteFrom(definition.table).where('id', '=', param('id'));
      if (checked) remove = remove.where(tagMatches(param));
      return {
        steps: [step('deleted__', remove.returning('id'))],
        result: sql`SELECT id FROM deleted__`,
      };
    },
    values: { id, ...(checked ? { if_match: JSON.stringify(ifMatch) } : {}) },
  };
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

/**
 * The first steps of a batch over the ids of the parameter `ids` (a JSON array, `batch_size`
 * distinct ids): their rows locked in id order (concurrent batches over the same rows then wait
 * for each other instead of deadlocking), and whether every id was found. Each write of the
 * batch is conditioned on `complete__.ok`, so a batch naming an unknown id writes nothing; the
 * statement answers `{ok, found}` for the caller to name it.
 */
function lockedBatch(definition: ResourceDefinition, param: ParameterOf, tagged = false) {
  // With tags (the parameter `etags`: {id: tag}), an item whose row, as locked, has another tag
  // is stale, and a stale item fails the batch like an unknown one. The lock waits for a
  // concurrent writer and then reads the row's newest version, so the tag compared is current.
  const stale = tagged
    ? sql`(SELECT array_agg(l.id::text ORDER BY l.id) FROM locked__ AS l
           JOIN jsonb_each_text(${param('etags')}::jsonb) AS e ON e.key = l.id::text
           WHERE e.value <> l.tag)`
    : sql`NULL::text[]`;
  return [
    sql`locked__ AS (
      SELECT id, xmin::text AS tag FROM ${sql.table(definition.table)}
      WHERE id IN (SELECT value::uuid FROM jsonb_array_elements_text(${param('ids')}::jsonb))
      ORDER BY id FOR UPDATE)`,
    sql`checked__ AS (
      SELECT count(*) = ${param('batch_size')}::bigint AS complete, array_agg(id::text) AS found,
             ${stale} AS stale
      FROM locked__)`,
    sql`complete__ AS (
      SELECT complete AND stale IS NULL AS ok, found, stale FROM checked__)`,
  ];
}

/** The batch's distinct ids in lower case (as PostgreSQL writes uuids), sorted. */
function batchIds(ids: readonly string[]) {
  const distinct = [...new Set(ids.map((id) => id.toLowerCase()))].sort();
  return { ids: JSON.stringify(distinct), batch_size: distinct.length };
}

const BATCH_COMPLETE = sql`(SELECT ok FROM complete__)`;

export interface BatchOutcome {
  ok: boolean;
  found: string[] | null;
  /** Items whose `etag` is not the record's (batch PATCH with tags). */
  stale: string[] | null;
}

/**
 * Throws 404 naming the first id of `ids` the batch did not find, if any, else 412 naming the
 * first whose `etag` is stale.
 */
export function checkBatch(
  definition: ResourceDefinition,
  ids: readonly string[],
  rows: readonly BatchOutcome[],
): void {
  const outcome = rows[0];
  if (outcome?.ok) return;
  const found = new Set(outcome?.found ?? []);
  const missing = ids.find((id) => !found.has(id.toLowerCase()));
  if (missing !== undefined || !outcome?.stale) {
    throw notFound(`${definition.notFoundMessage}: ${missing}`);
  }
  const stale = new Set(outcome.stale);
  const first = ids.find((id) => stale.has(id.toLowerCase()));
  throw preconditionFailed(
    `Precondition failed: ${definition.name} ${first} has changed since its etag was read (nothing was changed)`,
  );
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
    assertColumns(
      definition,
      fields.filter((field) => !(TAG_CHANGE_FIELDS as readonly string[]).includes(field)),
    );
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
  const etags = updates.filter((update) => update.etag !== undefined);
  const tagged = etags.length > 0;
  return {
    shape: JSON.stringify(['batch-update', definition.table, fieldSets, tagged]),
    parts: (param) => {
      const updateSteps = fieldSets.map((key, index) => {
        const fields = key.split(',').filter(Boolean);
        const assignments = fields
          .filter((field) => !(TAG_CHANGE_FIELDS as readonly string[]).includes(field))
          .map((field) => sql`${sql.ref(field)} = r.${sql.ref(field)}`);
        const items = param(`items:${index}`);
        const changesTags = fields.some((field) =>
          (TAG_CHANGE_FIELDS as readonly string[]).includes(field),
        );
        // Tags added and removed against the row as it is when this UPDATE locks it: a
        // concurrent change to the same record is waited for and built upon, never lost.
        const tagChanges = changesTags
          ? tagColumns(definition).map(
              (column) => sql`${sql.ref(column)} = ARRAY(
                SELECT DISTINCT tag FROM unnest(t.${sql.ref(column)} || coalesce(d.add_tags, '{}')) AS tag
                WHERE tag <> ALL (coalesce(d.remove_tags, '{}')) ORDER BY tag)`,
            )
          : [];
        const deltas = changesTags
          ? sql`JOIN jsonb_to_recordset(${items}::jsonb) AS d(id uuid, add_tags text[], remove_tags text[])
              ON d.id = r.id`
          : sql``;
        return step(
          updated(index),
          sql`UPDATE ${table} AS t SET ${sql.join([...assignments, ...tagChanges, sql`updated_at = now()`])}
            FROM jsonb_populate_recordset(NULL::${table}, ${items}::jsonb) AS r ${deltas}
            WHERE t.id = r.id AND ${BATCH_COMPLETE}
            RETURNING t.id`,
        );
      });
      return {
        steps: [...lockedBatch(definition, param, tagged), ...updateSteps],
        result: sql`SELECT ok, found, stale FROM complete__`,
      };
    },
    values: {
      ...batchIds(updates.map((update) => update.id)),
      ...(tagged
        ? {
            etags: JSON.stringify(
              Object.fromEntries(etags.map(({ id, etag }) => [id.toLowerCase(), etag])),
            ),
          }
        : {}),
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
      result: sql`SELECT ok, found, stale FROM complete__`,
    }),
    values: batchIds(ids),
  };
}
