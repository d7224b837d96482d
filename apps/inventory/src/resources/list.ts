import { withGenericPlans } from '@netops/store';
import { type RawBuilder, sql } from 'kysely';
import type { AnyDatabase } from '../db/schema.js';
import { type ParameterOf, statementTemplate } from '../db/statement-template.js';
import { badRequest } from '../errors.js';
import {
  isCommonSort,
  type ResourceDefinition,
  sortableColumns,
  systemColumnsOf,
} from './definition.js';
import { FILTER_FIRST_ROWS } from './filter-frequencies.js';
import { type ListCache, POSITION_STEP } from './list-cache.js';
import {
  type Condition,
  conditionShape,
  conditionSql,
  conditionValues,
  countedValues,
  kindOf,
  servedByValueCounter,
  valueCounterKey,
  valueCounterShape,
} from './lookups.js';
import { RECORD_JSON, type Row, recordFieldOrder, visibleColumns } from './rows.js';

/**
 * The list statement of every resource, driven by its definition: one page, its exact total and
 * the table's version in one statement, with what the list cache (list-cache.ts) recorded used
 * only where the statement finds it still exact. Identifiers come only from the definition (an
 * allow-list); every value is a bound parameter.
 */

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
  /**
   * The page as JSON text written by PostgreSQL (ListResult.json): these fields of each row, in
   * this order, as the API's answers write them. Rows are then not returned.
   */
  json?: readonly string[];
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
  /** The page's rows as a JSON array (ListRequest.json), instead of `rows`. */
  json?: string;
}

const SORT_KEY = /^([a-z_]+):(asc|desc)$/;

/** `["hostname:asc", "created_at:desc"]` -> sort keys, or a 400 naming the bad one. */
export function parseSortKeys(definition: ResourceDefinition, values: readonly string[]) {
  const allowed = sortableColumns(definition);
  const seen = new Set<string>();
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
    // A second key on the same field could never order anything the first had not.
    if (seen.has(column)) {
      throw badRequest(`Invalid sortby: "${column}" is given twice; sort by each field once`);
    }
    seen.add(column);
    return { column, direction: direction === 'desc' ? 'desc' : 'asc' };
  });
}

const TOTAL = '__total_count';
const VERSION = '__table_version';
/** A timestamp sort key's value as PostgreSQL writes it (microseconds; a Date keeps millis). */
const keyText = (column: string) => `__key:${column}`;
/** From this offset on, a page of rows (not JSON text) is found through its ids first. */
const DEFERRED_JOIN_OFFSET = 1000;
/**
 * The columns whose order is the table's own: rows are stored as they are added, with ids that
 * are time-ordered (UUIDv7) and the time they were created. PostgreSQL reckons a walk along
 * them reads the table in order and cheaply, so a plan made once prefers it to a filter's
 * index (ListShape.idsFirst).
 */
const INSERTION_ORDERED = new Set(['id', 'created_at']);

/** What decides the text of a list statement; the values only fill its parameters. */
interface ListShape {
  conditions: readonly string[];
  ranges: ReadonlyArray<{ column: string; from: boolean; to: boolean }>;
  sort: readonly SortKey[];
  /**
   * Ids first: a page of rows past DEFERRED_JOIN_OFFSET, a page planned once with two filters
   * or more, or with one and a sort in the table's own order (INSERTION_ORDERED), a page
   * read filter first, or a deep page that does not walk (listStatement).
   */
  idsFirst: boolean;
  /**
   * Filter first: the matching rows are read by the filters' own indexes and then sorted, when
   * the statement is planned for its values, no index serves its sort and a filter matches few
   * rows (FilterFrequencies.filterFirst; listStatement). `byTotal`: the statement decides by the
   * exact total it reads anyway, for substring filters no counter can weigh (matchedByTrigrams).
   */
  filterFirst: boolean | 'byTotal';
  /**
   * A page of JSON text at least a block deep: its statement walks to it for ids only and
   * reports the position map's block ends it passes (list-cache.ts).
   */
  walk: boolean;
  /**
   * A page of JSON text at least a block deep that does not walk (ListCache.recordsPositions):
   * read with OFFSET, after its total says it starts before the list's end.
   */
  deep: boolean;
  /**
   * Which of the sort values the page starts after are null (the SQL differs): a cursor's, or
   * for a walk the last row of the block its position map starts it from; null from the start.
   */
  after: readonly boolean[] | null;
  columns: readonly string[];
  /**
   * The column of the filter the page's walk is led by, when a statement planned once has
   * several (filter-frequencies.ts): the others are tested on the entries of its index only.
   */
  lead: string | null;
  /** Values per condition when a value counter holds the total (its SQL differs with them). */
  counter: number[] | null;
  /** The fields of the page's JSON text (ListRequest.json), or null for rows. */
  json: readonly string[] | null;
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
 * The rows after a cursor's position in the order `keys` (orderOf: the sort, then id), where
 * PostgreSQL puts nulls last in ascending order and first in descending order. One row
 * comparison, which a (column, id) index serves as a range, when every key runs the same way and
 * none can be null; otherwise the expanded form: equal on the first i-1 keys and after on the
 * i-th. `nulls` may be longer than `keys` (a position holds every key of keysOf); the rest go
 * unused.
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
    keys.every((_, index) => !nulls[index])
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

/**
 * Whether a condition is a substring search a trigram index serves: `?q=` (every searched
 * resource's search expression has one) or a substring lookup of a column declaring one
 * (`trigramIndexed`). Read through that index, its matching rows cost their number.
 */
export function matchedByTrigrams(definition: ResourceDefinition, condition: Condition): boolean {
  if (condition.operator === 'search') return true;
  return (
    SUBSTRING_LOOKUPS.has(condition.operator) &&
    definition.columns[condition.column]?.trigramIndexed === true
  );
}

const SUBSTRING_LOOKUPS: ReadonlySet<string> = new Set(['ic', 'isw', 'iew', 'ie']);

/**
 * Three letters or digits in a row: a text pg_trgm surely draws a trigram from, so its index
 * looks up the matches. From a text like `12` it draws none and reads the whole index. ASCII
 * only: whether pg_trgm counts other letters as such depends on the database's locale.
 */
const TRIGRAM_RUN = /[A-Za-z0-9]{3}/;

/**
 * Whether a list searched by substrings alone (`?q=`, `hostname__ic=`) is planned once, for
 * any text: every substring gives the trigram index something to look up, and the list has no
 * other filter and at most one sort key. Its statement reads the exact total first and the
 * page either through the trigram index (few matches) or along the sort (many), each way under
 * a gate on that total (listStatement), so its best plan does not depend on the text; planned
 * for each text, planning took two thirds of a call (0.9 of 1.3 ms for `hostname__ic`, 1.1 of
 * 1.25 ms for `q`, at 100,000 devices). Any other text stays planned for its value, where
 * PostgreSQL reads the table rather than the whole trigram index. With an exact filter
 * beside the substring, a plan made once combined both indexes where the plan for the values
 * reads one (1.4 ms against 0.3 ms): those stay planned for their values too.
 */
export function substringsPlannedOnce(
  definition: ResourceDefinition,
  conditions: readonly Condition[],
  ranges: readonly RangeFilter[],
  sort: readonly SortKey[],
): boolean {
  return (
    ranges.length === 0 &&
    sort.length <= 1 &&
    conditions.length > 0 &&
    conditions.every(
      (condition) =>
        matchedByTrigrams(definition, condition) &&
        typeof condition.value === 'string' &&
        TRIGRAM_RUN.test(condition.value),
    )
  );
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

/** Whether a column holds timestamps (the system columns' and the declared ones). */
export function isTimestamp(definition: ResourceDefinition, column: string): boolean {
  const spec = definition.columns[column];
  return (
    column === 'created_at' ||
    column === 'updated_at' ||
    (spec !== undefined && kindOf(spec) === 'timestamp')
  );
}

/**
 * The sort keys of a list, then id: what orders its rows and positions a cursor. Ties are broken
 * by id in the direction of the first key, so a sort and its exact reverse are one index read
 * either way: `(created_at, id)` serves `created_at` ascending forwards and descending backwards.
 * Ties are common (a bulk create or an import gives every row one `created_at`); an id running
 * against the index would make PostgreSQL sort each group of equal values, all 100,000 rows of
 * one import to answer its first page.
 */
export const keysOf = (sort: readonly SortKey[]): SortKey[] => [
  ...sort,
  { column: 'id', direction: sort[0]?.direction ?? 'asc' },
];

/** Whether no two rows of the table hold the same value in `column`, null included. */
function distinctInEveryRow(definition: ResourceDefinition, column: string): boolean {
  return (
    column === 'id' ||
    (definition.columns[column]?.unique === true && neverNull(definition, column))
  );
}

/**
 * The keys that order a list: its sort keys then id (keysOf), up to the first that no two rows
 * share. After a unique column that is never null (a device's hostname) nothing is left to tie,
 * so `ORDER BY hostname` is read from the column's own unique index, where `ORDER BY hostname,
 * id` needed an index of both, one more for every write to keep. The cursors and position maps
 * still hold every key of keysOf (their format does not depend on the declarations); the keys
 * past these only go unused.
 */
export function orderOf(definition: ResourceDefinition, sort: readonly SortKey[]): SortKey[] {
  const keys = keysOf(sort);
  const last = keys.findIndex((key) => distinctInEveryRow(definition, key.column));
  return keys.slice(0, last + 1);
}

/** `keys` as an ORDER BY list of `alias`'s columns. */
const orderByOf = (keys: readonly SortKey[], alias: string): RawBuilder<unknown> =>
  sql.join(keys.map((key) => sql`${sql.ref(`${alias}.${key.column}`)} ${sql.raw(key.direction)}`));

/**
 * Whether a list's best plan is the same whatever its values: exact matches on the declared
 * common filters, in id order or by one of the common sorts (each such pair has its index,
 * migrations 021 and 026), with no range and no text match (substringsPlannedOnce weighs
 * those). Its statement is then planned once per connection (withGenericPlans): PostgreSQL
 * would otherwise plan it again on every call. A resource that declares no common lists
 * qualifies only unfiltered in id order.
 */
export function plannedOnce(
  definition: ResourceDefinition,
  conditions: readonly Condition[],
  ranges: readonly RangeFilter[],
  sort: readonly SortKey[],
): boolean {
  if (ranges.length > 0) return false;
  const common = definition.commonLists ?? { filters: [], sorts: [] };
  return (
    conditions.every(
      (condition) => condition.operator === 'exact' && common.filters.includes(condition.column),
    ) &&
    (sort.length === 0 || common.sorts.some((declared) => isCommonSort(declared, sort)))
  );
}

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
  // Written `(…) IS TRUE`, a filter cannot be the condition of an index scan, so the plan made
  // once walks the leading filter's index and tests the others on its entries (the covering
  // indexes include them).
  //
  // So is a substring on the way along the sort of a statement that decides by its total: that
  // way runs only for many matches, which a walk along the sort's index finds soonest, and a
  // plan made once for any text would otherwise read them all through the trigram index.
  const conditionsFor = (alias: string, alongTheSort: boolean) =>
    conditionsOf(definition, shape.parsed, shape.ranges, param, alias).map((condition, index) => {
      const parsed = shape.parsed[index];
      const tested =
        parsed !== undefined &&
        ((shape.lead !== null && parsed.column !== shape.lead) ||
          (alongTheSort && matchedByTrigrams(definition, parsed)));
      return tested ? sql`(${condition}) IS TRUE` : condition;
    });
  const keys = keysOf(shape.sort);
  const order = orderOf(definition, shape.sort);
  // The rows a page is chosen from, as `alias`, and the conditions they must meet besides the
  // filters. Read filter first (ListShape.filterFirst), the matching rows are read by the
  // filters' own indexes, with only their sort values and id unless the page's columns are
  // wanted (whole rows cost half as much again to read and sort), and OFFSET 0 keeps
  // PostgreSQL from merging them back into a walk along the sort. For `vendor=Adtran` by model
  // and hostname at 100,000 devices: 40 ms walking the model index past every other vendor's
  // models, 1.7 ms reading Adtran's 1,898 rows.
  //
  // Filter first `byTotal`, the statement holds both ways, each under a gate on the exact
  // total (read before the page, in `total_rows`): PostgreSQL runs only the branch whose gate
  // holds (a one-time filter) and plans each as it would alone. A substring's matches are what
  // its plan cannot guess: for `hostname__ic=6346` (20 devices of 100,000) it walked the
  // hostname index (4,859 buffers, 27 ms) or, in id order, the primary key (5,039 buffers,
  // 52 ms); read first through the trigram index, the whole statement reads 82 and 162.
  const filterFirstGate = sql`(SELECT total FROM total_rows) <= ${param('filter_first_rows')}`;
  const rowsOf = (
    alias: string,
    more: readonly RawBuilder<unknown>[],
    whole: boolean,
    filterFirst: boolean,
  ) => {
    if (!filterFirst) {
      const along = shape.filterFirst === 'byTotal';
      return sql`${table} AS ${sql.ref(alias)} ${whereOf([...conditionsFor(alias, along), ...more])}`;
    }
    const selected = whole
      ? sql`*`
      : sql.join(keys.map((key) => sql.ref(`${alias}.${key.column}`)));
    return sql`(SELECT ${selected} FROM ${table} AS ${sql.ref(alias)} ${whereOf(conditionsFor(alias, false))} OFFSET 0)
      AS ${sql.ref(alias)} ${whereOf(more)}`;
  };
  const orderBy = (alias: string) => orderByOf(order, alias);
  const timestampKeys = shape.sort
    .map((key) => key.column)
    .filter((column) => isTimestamp(definition, column));
  // A page of whole records kept as JSON in their rows reads that text, and of the columns only
  // what orders the page and makes its cursor.
  const stored = storedJsonServes(definition, shape.json);
  const pageColumns = sql.join([
    ...(stored ? [...new Set(['id', ...keys.map((key) => key.column)]), RECORD_JSON] : columns).map(
      (column) => sql.ref(`t.${column}`),
    ),
    ...timestampKeys.map(
      (column) => sql`${sql.ref(`t.${column}`)}::text AS ${sql.ref(keyText(column))}`,
    ),
  ]);
  const outerColumns = [...columns, ...timestampKeys.map(keyText)];
  /** The page, and for a page that walks its position map the walk, read one way. */
  const pageOf = (filterFirst: boolean, gate: readonly RawBuilder<unknown>[]) => {
    let page: RawBuilder<unknown>;
    let walk: RawBuilder<unknown> | undefined;
    if (shape.walk) {
      const startAfter =
        shape.after === null ? [] : [keysetCondition(definition, order, shape.after, param, 'k')];
      // Walks to the page reading only what orders the rows (an index-only scan where a
      // (filter, sort, id) index exists) and numbering them, then reads the page's own rows by id.
      // The walk starts after the row the position map names, if any, so it skips fewer than a
      // block; the last row of every block it passes goes back to the map (__positions below).
      walk = sql`SELECT ${sql.join(keys.map((key) => sql.ref(`k.${key.column}`)))},
          row_number() OVER (ORDER BY ${orderBy('k')}) AS __n
        FROM ${rowsOf('k', [...startAfter, ...gate], false, filterFirst)}
        ORDER BY ${orderBy('k')} LIMIT ${param('walk_limit')}`;
      // Each of the page's rows by its id (a nested loop over the primary key): OFFSET 0 keeps
      // PostgreSQL from merging the lookup into a join, which for a walk of the size of the table
      // it would answer by hashing the whole table.
      page = sql`SELECT ${pageColumns} FROM w CROSS JOIN LATERAL (
          SELECT * FROM ${table} AS r WHERE r.id = w.id OFFSET 0
        ) AS t WHERE w.__n > ${param('offset')}`;
    } else if (shape.after !== null) {
      const keyset = keysetCondition(definition, order, shape.after, param, 't');
      page = sql`SELECT ${pageColumns} FROM ${rowsOf('t', [keyset, ...gate], true, filterFirst)}
        ORDER BY ${orderBy('t')} LIMIT ${param('limit')}`;
    } else if (shape.idsFirst) {
      // A deep page walks `offset` index entries. Walking them for ids only lets PostgreSQL use
      // an index-only scan (the (filter, sort, id) indexes hold all it needs) and read from the
      // table just the page's rows, instead of every row it skips.
      //
      // A first page with two filters or more, planned once, goes the same way: its one plan
      // must serve every pair of values. Asked for whole rows, PostgreSQL's plan for
      // `status = $1 AND vendor = $2 ORDER BY created_at` walked the created_at index testing
      // each row: cheap for a common pair, the whole table for a rare one (at 100,000 devices,
      // 3,515 buffers and 16 ms for a pair of 50 rows, against 233 buffers and 0.5 ms from the
      // covering index). Asked for ids, only the covering indexes answer without the table, so
      // the plan takes one of them whatever the values.
      //
      // So does a page with one filter sorted in the table's own order (INSERTION_ORDERED):
      // `vendor = $1 ORDER BY created_at DESC` walked the created_at index, and for a vendor
      // whose newest device was 60,000 devices old that took 14 ms, against 0.5 ms from the
      // vendor's index. With one filter and another sort the plan reads the filter's own index
      // range, and whole rows from it cost less than rows by id; asked for ids there, PostgreSQL
      // sometimes read all of a vendor's entries from a wider index and sorted them (the `mixed`
      // reads fell by a third).
      //
      // A page read filter first goes the same way: the sort needs only the sort values and ids,
      // which an index may hold (`(vendor, model, hostname DESC, id)` for a vendor's rows by model
      // alone).
      //
      // Each row is then read by its id, as the walk's are: joined plainly, a plan made once for
      // any LIMIT expects a tenth of the matching rows and hashes the whole table to join them
      // (2,932 buffers and 32 ms for a page of 51 rows, against 209 buffers and 0.24 ms).
      page = sql`SELECT ${pageColumns} FROM (
          SELECT k.id FROM ${rowsOf('k', gate, false, filterFirst)} ORDER BY ${orderBy('k')}
          LIMIT ${param('limit')} OFFSET ${param('offset')}
        ) AS keys CROSS JOIN LATERAL (
          SELECT * FROM ${table} AS r WHERE r.id = keys.id OFFSET 0
        ) AS t`;
    } else {
      page = sql`SELECT ${pageColumns} FROM ${rowsOf('t', gate, true, filterFirst)} ORDER BY ${orderBy('t')}
        LIMIT ${param('limit')} OFFSET ${param('offset')}`;
    }
    return { page, walk };
  };
  // A condition on the total alone: PostgreSQL tests it once, before reading any row. A walk,
  // or a deep page read with OFFSET, starting at or past the list's end would pass every matching
  // row for nothing. So would any page of a list that matches nothing, such as two tags no record
  // shares, or a pair of common values never seen together: where a value counter holds the
  // total, reading it first costs one counter's rows, and the page is not looked for at all.
  const startsBeforeTheEnd = sql`(SELECT total FROM total_rows) > ${param('page_start')}`;
  const totalIsCounterRead = shape.counter !== null;
  const beforeTheEnd = shape.deep || totalIsCounterRead ? [startsBeforeTheEnd] : [];
  let page: RawBuilder<unknown>;
  let walk: RawBuilder<unknown> | undefined;
  if (shape.filterFirst === 'byTotal') {
    const first = pageOf(true, [filterFirstGate, ...beforeTheEnd]);
    const along = pageOf(false, [sql`NOT (${filterFirstGate})`, ...beforeTheEnd]);
    const either = (one: RawBuilder<unknown>, other: RawBuilder<unknown>) =>
      sql`(${one}) UNION ALL (${other})`;
    // A walk's page reads the walk's rows by id: one page over the two walks.
    walk = first.walk && along.walk ? either(first.walk, along.walk) : undefined;
    page = shape.walk ? first.page : either(first.page, along.page);
  } else {
    ({ page, walk } = pageOf(shape.filterFirst, beforeTheEnd));
  }
  const counted = totalOf(definition, shape.parsed, shape.ranges, param);
  // Gated on the total, the statement reads it first, once: the page's way for a substring,
  // and every walk. A walk to a page that starts at or past the last matching row has nothing
  // to find, and would pass every matching row on the way: for a list whose sort no index
  // serves with its filters, along the sort's index past most of the table (a quarter of the
  // walks the `mixed` benchmark sends ask for a page past the end of their list).
  const totalFirst =
    shape.filterFirst === 'byTotal' || walk !== undefined || shape.deep || totalIsCounterRead;
  const totalStep = totalFirst
    ? sql`, total_rows AS MATERIALIZED (SELECT ${counted} AS total FROM v)`
    : sql``;
  const total = totalFirst ? sql`(SELECT total FROM total_rows)` : counted;
  const walkUpToTheEnd = (steps: RawBuilder<unknown>) =>
    sql`SELECT * FROM (${steps}) AS steps WHERE ${startsBeforeTheEnd}`;
  if (shape.json !== null) {
    // One row: the page's records joined into one JSON text (no row reaches the server), how
    // many rows were read (one more than the page says another page follows), the first row's
    // id (a deep page's position) and the page's last row's sort values (its cursor).
    const lastKeys = keys.map((key, index) =>
      timestampKeys.includes(key.column)
        ? sql`q.${sql.ref(keyText(key.column))} AS ${sql.ref(lastKeyName(index))}`
        : sql`q.${sql.ref(key.column)} AS ${sql.ref(lastKeyName(index))}`,
    );
    // The block ends the walk passed, as JSON arrays of sort values and id, for the position
    // map. As text: a timestamp keeps its microseconds and a number its every digit (a JSON
    // number would become a double), and PostgreSQL reads the text back as the column's type.
    const positions = walk
      ? sql`(SELECT json_agg(json_build_array(${sql.join(keys.map((key) => sql`${sql.ref(`w.${key.column}`)}::text`))}) ORDER BY w.__n)
          FROM w WHERE w.__n % ${param('step')} = 0 )`
      : sql`NULL`;
    return sql`
      WITH ${versionStep(param)}${totalStep},
      ${walk ? sql`w AS MATERIALIZED (${walkUpToTheEnd(walk)}),` : sql``}
      p AS MATERIALIZED (${page}),
      q AS (SELECT p.*, row_number() OVER (ORDER BY ${orderBy('p')}) AS __n FROM p)
      SELECT v.version AS ${sql.ref(VERSION)}, ${total} AS ${sql.ref(TOTAL)},
        (SELECT '[' || coalesce(string_agg(${
          stored ? sql.ref(`q.${RECORD_JSON}`) : sql`row_to_json(r)::text`
        }, ',' ORDER BY q.__n), '') || ']'
          FROM q ${stored ? sql`` : sql`CROSS JOIN LATERAL (SELECT ${recordFields(definition, shape.json, 'q')}) AS r`}
          WHERE q.__n <= ${param('page_limit')}) AS ${sql.ref(PAGE_JSON)},
        (SELECT count(*) FROM q) AS ${sql.ref(ROWS_READ)},
        ${positions} AS ${sql.ref(POSITIONS)},
        last.*
      FROM v LEFT JOIN LATERAL (
        SELECT ${sql.join(lastKeys)} FROM q WHERE q.__n = ${param('page_limit')}
      ) AS last ON true`;
  }
  return sql`
    WITH ${versionStep(param)}${totalStep}
    SELECT v.version AS ${sql.ref(VERSION)}, ${total} AS ${sql.ref(TOTAL)},
      ${sql.join(outerColumns.map((column) => sql.ref(`p.${column}`)))}
    FROM v LEFT JOIN LATERAL (${page}) AS p ON true
    ORDER BY ${orderBy('p')}`;
}

const PAGE_JSON = '__page_json';
const ROWS_READ = '__rows_read';
const POSITIONS = '__positions';
const lastKeyName = (index: number) => `__last_key${index}`;

/** Timestamps as the API writes them: UTC, milliseconds (a JavaScript Date's toISOString). */
export const isoTimestamp = (value: RawBuilder<unknown>) =>
  sql`to_char(${value} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The fields of a record as the API writes them, for `row_to_json`, which writes a row's JSON
 * byte for byte as the API's serialiser does (its columns in order, no spaces, strings escaped as
 * JSON.stringify escapes them); timestamps formatted as a Date's toISOString. JSON columns are
 * excluded (jsonTextServes): PostgreSQL writes their text with spaces.
 */
function recordFields(definition: ResourceDefinition, fields: readonly string[], alias: string) {
  return sql.join(
    fields.map((field) => {
      const ref = sql.ref(`${alias}.${field}`);
      return isTimestamp(definition, field)
        ? sql`${isoTimestamp(ref)} AS ${sql.ref(field)}`
        : sql`${ref} AS ${sql.ref(field)}`;
    }),
  );
}

/**
 * Whether a page's JSON is its rows' kept record JSON (storedRecordJson): every field, in the
 * order the API writes them, which is the order migration 027 gave the generated column.
 */
function storedJsonServes(definition: ResourceDefinition, fields: readonly string[] | null) {
  if (!definition.storedRecordJson || fields === null) return false;
  const order = recordFieldOrder(definition);
  return fields.length === order.length && fields.every((field, index) => field === order[index]);
}

/** Whether PostgreSQL can write these fields' JSON exactly as the API's serialiser does. */
export function jsonTextServes(definition: ResourceDefinition, fields: readonly string[]) {
  return fields.every((field) => {
    const spec = definition.columns[field];
    return !spec || kindOf(spec) !== 'json';
  });
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

/** What identifies a set of matching rows (for reused counts and positions, and for cursors). */
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
  cache: ListCache,
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
  for (const field of request.json ?? []) {
    if (!columns.includes(field)) throw new Error(`${field} is not read by this list`);
  }
  const listKey = conditionsKey(definition.table, request.conditions, ranges);
  const maintained = totalIsMaintained(definition, request.conditions, ranges);
  const finishCounting = maintained
    ? undefined
    : await cache.coalesceCount(definition.table, listKey);
  try {
    return await readList(db, cache, definition, request, { listKey, maintained, columns, keys });
  } finally {
    finishCounting?.();
  }
}

async function readList(
  db: AnyDatabase,
  cache: ListCache,
  definition: ResourceDefinition,
  request: ListRequest,
  known: { listKey: string; maintained: boolean; columns: readonly string[]; keys: SortKey[] },
): Promise<ListResult> {
  const offset = request.after !== undefined ? 0 : (request.page - 1) * request.limit;
  // A page of JSON text at least a block deep walks to its rows, guided by the list's position
  // map and extending it, or, while the table is being written, reads them with OFFSET; a
  // cursor's page starts where the cursor says.
  const deep = request.after === undefined && request.json !== undefined && offset >= POSITION_STEP;
  const positionsKey = deep ? JSON.stringify([known.listKey, request.sort]) : undefined;
  const start = positionsKey ? cache.startOf(definition.table, positionsKey, offset) : undefined;
  const read = (walking: string | undefined, from: WalkStart | undefined) =>
    readPage(db, cache, definition, request, {
      ...known,
      offset,
      positionsKey: walking,
      deep,
      start: from,
    });
  if (positionsKey && start) {
    const page = await read(positionsKey, start);
    // Read at the version the map was recorded at: the rows are where the map says. Otherwise
    // a write committed since, and the page is read again from the list's start.
    if (page.version === start.version) {
      cache.stats.walksFromPosition += 1;
      return page;
    }
    cache.stats.positionsStale += 1;
    cache.positions.delete(positionsKey);
  }
  if (!positionsKey) return read(undefined, undefined);
  // Asked after the stale map above, this sees the write that made it stale.
  if (!cache.recordsPositions(definition.table)) {
    cache.stats.deepPagesUnrecorded += 1;
    return read(undefined, undefined);
  }
  cache.stats.walksFromStart += 1;
  return read(positionsKey, undefined);
}

/** Where a walk starts: after the row `after`, which sits at `position - 1`. */
interface WalkStart {
  version: number;
  position: number;
  after: readonly unknown[];
}

/**
 * What names a list statement's shape among the compiled ones. The columns and fields of a whole
 * record are the definition's own lists (derived once, so the same arrays every time), named by
 * a mark: written out, they were most of the key, made again for every page.
 */
function shapeKey(definition: ResourceDefinition, shape: ListShape) {
  const whole = (names: readonly string[] | null, all: readonly string[]) =>
    names === all ? WHOLE_RECORD : names;
  return {
    ...shape,
    columns: whole(shape.columns, visibleColumns(definition)),
    json: whole(shape.json, recordFieldOrder(definition)),
  };
}
const WHOLE_RECORD = '*';

async function readPage(
  db: AnyDatabase,
  cache: ListCache,
  definition: ResourceDefinition,
  request: ListRequest,
  known: {
    listKey: string;
    maintained: boolean;
    columns: readonly string[];
    keys: SortKey[];
    offset: number;
    /** The list's position map's key when the page walks (readList), else undefined. */
    positionsKey: string | undefined;
    /** A page of JSON text at least a block deep, walking or not (readList). */
    deep: boolean;
    start: WalkStart | undefined;
  },
): Promise<ListResult> {
  const { listKey, maintained, columns, keys, offset, positionsKey, deep, start } = known;
  const ranges = request.ranges ?? [];
  const walk = positionsKey !== undefined;
  const deepByOffset = deep && !walk;
  const cachedCount = maintained ? undefined : cache.counts.get(listKey);
  const after = request.after ?? start?.after;
  const skip = offset - (start?.position ?? 0);
  const planned = plannedOnce(definition, request.conditions, ranges, request.sort);
  // One plan for every combination of several filters' values (listStatement).
  const plannedForPairs = planned && request.conditions.length > 1;
  const lead = plannedForPairs
    ? (cache.frequencies.leadOf(db, definition.table, request.conditions) ?? null)
    : null;
  // Only for a list planned for its values: planned once, its filters and sort are a pair the
  // declared list indexes serve (plannedOnce). A sort by the id alone, or starting with a column
  // a filter fixes, is served by that column's own index.
  const sortFixedByFilter = request.conditions.some(
    (condition) => condition.operator === 'exact' && condition.column === keys[0]?.column,
  );
  const filterFirst =
    !planned &&
    keys[0]?.column !== 'id' &&
    !sortFixedByFilter &&
    // Without a counted value to weigh there is nothing to read the counts for.
    request.conditions.some((condition) => countedValues(definition, condition) > 0) &&
    cache.frequencies.filterFirst(
      db,
      definition.table,
      request.conditions,
      // Ranges are not weighed against the indexes: with one, a few thousand rows are read first.
      ranges.length === 0
        ? { order: orderOf(definition, request.sort), rowsWanted: skip + request.limit + 1 }
        : undefined,
    );
  // A substring's matches no counter holds and no plan can guess: the statement decides by the
  // exact total it reads anyway (listStatement). Unless an exact filter fixes the sort's column,
  // whose index then serves the page whatever the substring.
  const byTotal =
    !filterFirst &&
    !planned &&
    request.conditions.some((condition) => matchedByTrigrams(definition, condition)) &&
    !sortFixedByFilter;
  const substringsOnce =
    byTotal && substringsPlannedOnce(definition, request.conditions, ranges, request.sort);
  const shape = {
    conditions: request.conditions.map(conditionShape),
    ranges: rangeShape(ranges),
    sort: request.sort,
    idsFirst:
      !walk &&
      request.after === undefined &&
      (offset >= DEFERRED_JOIN_OFFSET ||
        deepByOffset ||
        plannedForPairs ||
        (planned &&
          request.conditions.length > 0 &&
          INSERTION_ORDERED.has(keys[0]?.column ?? 'id')) ||
        filterFirst),
    filterFirst: byTotal ? 'byTotal' : filterFirst,
    walk,
    deep: deepByOffset,
    after: after ? after.map((value) => value === null) : null,
    columns,
    lead,
    counter: ranges.length === 0 ? valueCounterShape(definition, request.conditions) : null,
    json: request.json ?? null,
  } satisfies ListShape;
  const template = statementTemplate(
    db,
    JSON.stringify(['list', definition.table, shapeKey(definition, shape)]),
    (param) => listStatement(definition, { ...shape, parsed: request.conditions }, param),
  );
  const result = await (planned || substringsOnce ? withGenericPlans(db) : db).executeQuery<Row>(
    template.bind({
      table: definition.table,
      // One more than the page: whether it exists says whether another page follows.
      limit: request.limit + 1,
      page_limit: request.limit,
      offset: skip,
      page_start: offset,
      walk_limit: skip + request.limit + 1,
      step: POSITION_STEP,
      filter_first_rows: FILTER_FIRST_ROWS,
      cached_version: cachedCount?.version ?? null,
      cached_count: cachedCount?.count ?? null,
      ...Object.fromEntries((after ?? []).map((value, index) => [afterParam(index), value])),
      ...boundValues(request.conditions, ranges),
    }),
  );
  const first = result.rows[0];
  const totalCount = Number(first?.[TOTAL] ?? 0);
  let rows: Row[] = [];
  let json: string | undefined;
  let nextKey: unknown[] | undefined;
  if (shape.json !== null) {
    json = String(first?.[PAGE_JSON] ?? '[]');
    if (Number(first?.[ROWS_READ] ?? 0) > request.limit) {
      nextKey = keys.map((_, index) => first?.[lastKeyName(index)]);
    }
  } else {
    // The rows keep the extra columns: responses are written from the route's schema, which
    // names the fields to write, and copying 100 rows without them would cost more than the page.
    const all = first?.id === null || first?.id === undefined ? [] : result.rows;
    rows = all.length > request.limit ? all.slice(0, request.limit) : all;
    const last = rows[rows.length - 1];
    if (all.length > request.limit && last) {
      nextKey = keys.map((key) => last[keyText(key.column)] ?? last[key.column]);
    }
  }
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
    const ends = first?.[POSITIONS];
    if (positionsKey && Array.isArray(ends) && (!start || start.version === version)) {
      cache.recordPositions(positionsKey, version, start?.position ?? 0, ends as unknown[][]);
    }
  }
  return {
    totalCount,
    rows,
    ...(json !== undefined ? { json } : {}),
    ...(nextKey ? { nextKey } : {}),
    ...(typeof version === 'number' ? { version } : {}),
  };
}

/** The rows an export selects, and their order: the list's, without paging. */
export interface ExportSelection {
  sort: readonly SortKey[];
  conditions: readonly Condition[];
  ranges: readonly RangeFilter[];
}

/** What decides the text of an export statement (its values only fill the parameters). */
const exportShape = (
  definition: ResourceDefinition,
  selection: ExportSelection,
  fields: readonly string[],
  after: readonly boolean[] | null,
) =>
  JSON.stringify([
    'export',
    definition.table,
    selection.conditions.map(conditionShape),
    rangeShape(selection.ranges),
    selection.sort,
    fields,
    after,
  ]);

/** Parameter values of an export statement. */
const exportValues = (selection: ExportSelection, extra: Record<string, unknown> = {}) => ({
  ...boundValues(selection.conditions, selection.ranges),
  ...extra,
});

/** The columns an export may name: the schemas admit only these; this keeps the SQL safe alone. */
function checkExportColumns(
  definition: ResourceDefinition,
  selection: ExportSelection,
  fields: readonly string[],
) {
  const visible = visibleColumns(definition);
  for (const column of [
    ...selection.conditions.filter((c) => c.operator !== 'search').map((c) => c.column),
    ...selection.sort.map((key) => key.column),
    ...selection.ranges.map((range) => range.column),
    ...fields,
  ]) {
    if (!visible.includes(column))
      throw new Error(`${column} is not a column of ${definition.name}`);
  }
}

/**
 * Every row of a list as `cells(alias)` selects it (CSV cells built by PostgreSQL, csv-export.ts),
 * in the list's order: the statement of a `COPY (…) TO STDOUT`, which streams all of it in one
 * snapshot. Compiled once per shape; returned with its values bound.
 */
export function exportRowsStatement(
  db: AnyDatabase,
  definition: ResourceDefinition,
  selection: ExportSelection,
  fields: readonly string[],
  cells: (alias: string) => RawBuilder<unknown>,
) {
  checkExportColumns(definition, selection, fields);
  const template = statementTemplate(
    db,
    exportShape(definition, selection, fields, null),
    (param) => {
      const order = orderOf(definition, selection.sort);
      const conditions = conditionsOf(
        definition,
        selection.conditions,
        rangeShape(selection.ranges),
        param,
        't',
      );
      return sql`SELECT ${cells('t')} FROM ${sql.table(definition.table)} AS t ${whereOf(conditions)}
      ORDER BY ${orderByOf(order, 't')}`;
    },
  );
  return template.bind(exportValues(selection));
}

const BATCH_TEXT = '__text';
const BATCH_ROWS = '__rows';
const batchKey = (index: number) => `__key${index}`;

/**
 * One batch of an export where the store has no COPY (the embedded store): the next `limit`
 * rows after the previous batch's last (keyset, as a cursor pages), as one text that
 * PostgreSQL joins from `line(alias)` (one CSV record per row), with how many rows it holds and
 * the last row's sort values and id, from which the next batch starts. One row comes back per
 * batch, whatever its size: the rows never become objects.
 */
export async function exportBatch(
  db: AnyDatabase,
  definition: ResourceDefinition,
  selection: ExportSelection,
  fields: readonly string[],
  line: (alias: string) => RawBuilder<unknown>,
  limit: number,
  after: readonly unknown[] | undefined,
): Promise<{ text: string; rows: number; lastKey: unknown[] }> {
  checkExportColumns(definition, selection, fields);
  const keys = keysOf(selection.sort);
  const ordering = orderOf(definition, selection.sort);
  const nulls = after ? after.map((value) => value === null) : null;
  const template = statementTemplate(
    db,
    exportShape(definition, selection, fields, nulls ?? []),
    (param) => {
      const conditions = conditionsOf(
        definition,
        selection.conditions,
        rangeShape(selection.ranges),
        param,
        't',
      );
      if (nulls) conditions.push(keysetCondition(definition, ordering, nulls, param, 't'));
      const order = (reverse: boolean) =>
        sql.join(
          ordering.map((key, index) => {
            const descending = (key.direction === 'desc') !== reverse;
            return sql`${sql.ref(batchKey(index))} ${sql.raw(descending ? 'DESC' : 'ASC')}`;
          }),
        );
      const keyColumns = sql.join(
        keys.map((key, index) => sql`${sql.ref(`t.${key.column}`)} AS ${sql.ref(batchKey(index))}`),
      );
      // A timestamp key goes back as PostgreSQL writes it (microseconds; a Date keeps millis).
      const lastKeys = sql.join(
        keys.map((key, index) =>
          isTimestamp(definition, key.column)
            ? sql`${sql.ref(batchKey(index))}::text AS ${sql.ref(batchKey(index))}`
            : sql.ref(batchKey(index)),
        ),
      );
      return sql`WITH b AS MATERIALIZED (
          SELECT ${line('t')} AS line, ${keyColumns} FROM ${sql.table(definition.table)} AS t
          ${whereOf(conditions)}
          ORDER BY ${orderByOf(ordering, 't')}
          LIMIT ${param('limit')}
        )
        SELECT (SELECT string_agg(b.line, ${sql.lit(CRLF)} ORDER BY ${order(false)}) FROM b) AS ${sql.ref(BATCH_TEXT)},
          (SELECT count(*) FROM b) AS ${sql.ref(BATCH_ROWS)}, last.*
        FROM (SELECT 1) AS one LEFT JOIN LATERAL (
          SELECT ${lastKeys} FROM b ORDER BY ${order(true)} LIMIT 1
        ) AS last ON true`;
    },
  );
  const result = await db.executeQuery<Row>(
    template.bind(
      exportValues(selection, {
        limit,
        ...Object.fromEntries((after ?? []).map((value, index) => [afterParam(index), value])),
      }),
    ),
  );
  const row = result.rows[0] ?? {};
  return {
    text: typeof row[BATCH_TEXT] === 'string' ? row[BATCH_TEXT] : '',
    rows: Number(row[BATCH_ROWS] ?? 0),
    lastKey: keys.map((_, index) => row[batchKey(index)]),
  };
}

const CRLF = '\r\n';

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

/**
 * The exact number of rows matching `filters`: the maintained row count without filters, else
 * reused while the table's version is unchanged (list-cache.ts), with the same key as a list of
 * the same filters. `GET /debug/count` is public, and counting 100,000 devices on each call
 * would let anyone keep a core busy.
 */
export async function countRows(
  db: AnyDatabase,
  cache: ListCache,
  definition: ResourceDefinition,
  filters: Readonly<Record<string, unknown>>,
): Promise<number> {
  const conditions: Condition[] = Object.entries(filters).map(([column, value]) => ({
    column,
    operator: 'exact',
    value,
  }));
  return countMatching(db, cache, definition, conditions);
}

/**
 * The number of rows matching `conditions`: the `total_count` of the list with the same
 * conditions, from the same sources (a maintained counter, a count reused while the table is
 * unchanged, or counted).
 */
export async function countMatching(
  db: AnyDatabase,
  cache: ListCache,
  definition: ResourceDefinition,
  conditions: readonly Condition[],
): Promise<number> {
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
