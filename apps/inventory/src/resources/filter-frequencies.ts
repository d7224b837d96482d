import { sql } from 'kysely';
import type { AnyDatabase } from '../db/schema.js';
import { byteOrder, type Condition } from './lookups.js';

/** How old a table's frequencies may be before a list asks for fresh ones (in the background). */
const FREQUENCIES_KEPT_MS = 30_000;

interface Frequencies {
  readAt: number;
  /** The table's rows as its writes keep them (migration 007); undefined if unversioned. */
  tableRows: number | undefined;
  /**
   * Its btree indexes, from the catalog: along which orders a walk reads an index alone.
   * Undefined until a read of them succeeds.
   */
  indexes: readonly IndexShape[] | undefined;
  /**
   * Rows per `column\0value`, and per `column\0value\0column\0value` for a pair, from the value
   * counters (migrations 014 and 018).
   */
  rows: Map<string, number>;
  /** The columns counted. */
  columns: Set<string>;
  /** The pairs of columns counted together, as `column\0column` in the keys' order. */
  pairs: Set<string>;
}

/**
 * Most rows a filter may match for a list whose sort no index serves with it to be read whole and
 * sorted (filterFirst): at 100,000 devices, about 8 ms at most for 5,000 rows read from the table,
 * where a walk along the sort's index past most of the table costs 30–40 ms.
 */
export const FILTER_FIRST_ROWS = 5_000;

/**
 * What reading one matching row from the table costs, in index entries a walk passes for the
 * same time, when the walk reads its index alone (an index-only scan testing the filters on the
 * entries). Measured at 100,000 devices on PostgreSQL 15 (README, "A walk along an index that
 * carries the filters"): Adtran's 1,899 devices read from the table 10 ms, a walk 0.2–0.35 µs
 * an entry.
 */
const ROW_READ_IN_ENTRIES = 20;
/**
 * What reading one matching row first costs (a bitmap over the filters' indexes, the row's
 * table page, its place in the sort), in rows a walk along an index that does not hold the
 * filters reads from the table for the same time. Measured at 100,000 devices on PostgreSQL 15
 * (README, "Tag lists walked where the page comes soon"): 4–5.5 µs a row read first, 0.7–2.7 µs
 * a row walked (in the table's own order, or scattered over it).
 */
const ROW_READ_FIRST_IN_ROWS_WALKED = 3;
/**
 * How much slower than reading the filter's rows a walk may be at worst, when the matching rows
 * all sit at the far end of the sort (a vendor's own operating systems): it then passes the whole
 * index. A filter matching fewer rows than the table's 1/(ROW_READ_IN_ENTRIES × this) is read
 * first whatever the walk would cost on average, as its rows cost little however they are placed.
 */
const WORST_WALK_FACTOR = 3;

/** A btree index: its key columns in order, descending or not, and every column it holds. */
interface IndexShape {
  keys: ReadonlyArray<{ column: string; descending: boolean }>;
  columns: ReadonlySet<string>;
}

/** A list's order as list.ts writes it: each key's direction (nulls where PostgreSQL puts them). */
export interface WalkOrder {
  order: ReadonlyArray<{ column: string; direction: 'asc' | 'desc' }>;
  /** The rows the page needs from the walk: those it skips, its own, and one more. */
  rowsWanted: number;
}

const keyOf = (column: string, value: unknown) => `${column}\u0000${String(value)}`;

/** A pair counter's key as the writes build it: by column, then by value, in byte order. */
function pairKeyOf(one: readonly [string, string], other: readonly [string, string]) {
  const order = byteOrder(one[0], other[0]) || byteOrder(one[1], other[1]);
  const [first, second] = order <= 0 ? [one, other] : [other, one];
  return {
    key: [...first, ...second].join('\u0000'),
    columns: `${first[0]}\u0000${second[0]}`,
  };
}

/**
 * How many rows hold each value of a table's counted columns, as the writes' value counters
 * (migration 014) last said, so that a list with several exact filters can be led by the one
 * matching fewest rows.
 *
 * A common list's statement is planned once for all values (withGenericPlans), and such a plan
 * walks the index of whichever filter PostgreSQL guesses the more selective from the number of
 * distinct values alone: for `vendor=Cisco&role=firewall` by hostname, the vendor's index,
 * whose Cisco range is most of the table, where the firewalls' index holds a tenth as many
 * rows. Exact counts are kept anyway; they are read here at most every FREQUENCIES_KEPT_MS
 * per table, in one small statement outside any request: a count a little old picks the same
 * leader, and a wrong leader costs time, never a wrong row.
 *
 * The same counts decide how a list whose sort no index serves with its filters reads its rows
 * (filterFirst).
 */
export class FilterFrequencies {
  readonly #tables = new Map<string, Frequencies>();
  readonly #reading = new Map<string, Promise<void>>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /**
   * The column of the condition matching fewest rows, or undefined while the table's counts
   * have not been read yet or when a condition's column is not counted (nothing to compare).
   * A value of a counted column the counters do not know matches no row, so it leads.
   * Starts reading fresh counts when those held are older than FREQUENCIES_KEPT_MS.
   */
  leadOf(db: AnyDatabase, table: string, conditions: readonly Condition[]): string | undefined {
    const held = this.#held(db, table);
    if (held === undefined) return undefined;
    if (!conditions.every((condition) => held.columns.has(condition.column))) return undefined;
    let lead: string | undefined;
    let fewest = Number.POSITIVE_INFINITY;
    for (const condition of conditions) {
      const rows = held.rows.get(keyOf(condition.column, condition.value)) ?? 0;
      if (rows < fewest) {
        fewest = rows;
        lead = condition.column;
      }
    }
    return lead;
  }

  /**
   * Whether a list planned for its values, whose sort no index serves with its filters, had
   * better read every row its rarest filter matches and sort them than walk the sort's index
   * testing each row.
   *
   * PostgreSQL walks when it reckons the matching rows are spread evenly along the sort, so
   * that the page comes after a few rows per row it keeps. But a filter's values often follow
   * the sort (a vendor's models sit together in the model order), and the walk then passes most
   * of the table first. Reading the matching rows costs their number whatever the order: when
   * it is small (FILTER_FIRST_ROWS), that bound is worth more than the walk's best case.
   * Otherwise the plan is PostgreSQL's, which prices both ways better than a count can.
   *
   * Unless the walk reads an index alone (`walk`: an index serves the order and holds every
   * filtered column, as each sort's own index holds the common filters): an entry then costs a
   * twentieth of a row read from the table, and the rows are read first only when that costs
   * less than the walk's average (the rows it needs, spread over the table), or when even its
   * worst case (the whole index) would cost more than WORST_WALK_FACTOR times that.
   *
   * A walk that reads each row it passes from the table (a tag is in no btree index) is weighed
   * the same way, in rows: it passes the rows of the range it walks (the rows of a vendor, along
   * `(vendor, hostname, id)`, or the whole table), and a row read first costs
   * ROW_READ_FIRST_IN_ROWS_WALKED of them. `tags=prod&vendor=Cisco` by hostname, where half of
   * Cisco's devices are tagged, then walks about twenty rows for its first page instead of
   * reading all its matches first; a rare tag whose rows could all sit at the walk's far end is
   * still read first.
   */
  filterFirst(
    db: AnyDatabase,
    table: string,
    conditions: readonly Condition[],
    walk?: WalkOrder,
  ): boolean {
    const fewest = this.fewestRows(db, table, conditions);
    if (fewest === undefined || fewest > FILTER_FIRST_ROWS) return false;
    const held = this.#tables.get(table);
    if (walk === undefined || held?.tableRows === undefined || fewest === 0) return true;
    if (!walkReadsIndexAlone(held.indexes ?? [], walk.order, conditions)) {
      const range = walkedRange(held, walk.order, conditions);
      // No index serves the order: the walk would be a sort of every matching row anyway.
      if (range === undefined) return true;
      const rowsReadFirst = fewest * ROW_READ_FIRST_IN_ROWS_WALKED;
      const averageRows = Math.min(range, (walk.rowsWanted * range) / fewest);
      return rowsReadFirst <= averageRows || rowsReadFirst * WORST_WALK_FACTOR < range;
    }
    // The walk along an index holding the filters passes, on average, the rows it needs spread
    // over the table; reading the filter's rows costs ROW_READ_IN_ENTRIES entries each. A
    // vendor's 4,762 devices by last seen: 24 ms read first, 0.5 ms walked (README).
    const rowsRead = fewest * ROW_READ_IN_ENTRIES;
    const averageWalk = Math.min(held.tableRows, (walk.rowsWanted * held.tableRows) / fewest);
    const worstWalk = held.tableRows;
    return rowsRead <= averageWalk || rowsRead * WORST_WALK_FACTOR < worstWalk;
  }

  /**
   * How many rows the conditions' rarest fixed value holds (an exact match, or each tag of a tag
   * list's `all`), or the rarest pair of them a pair counter holds, if fewer; undefined while the
   * table's counts have not been read yet or when no condition fixes a value of a counted
   * column. A value, or a pair of counted columns, the counters do not know holds no row.
   * Starts reading fresh counts as leadOf does.
   */
  fewestRows(db: AnyDatabase, table: string, conditions: readonly Condition[]): number | undefined {
    const held = this.#held(db, table);
    if (held === undefined) return undefined;
    const fixed: Array<readonly [string, string]> = [];
    for (const condition of conditions) {
      if (!held.columns.has(condition.column)) continue;
      const values =
        condition.operator === 'exact'
          ? [condition.value]
          : condition.operator === 'all' && Array.isArray(condition.value)
            ? condition.value
            : [];
      for (const value of values) fixed.push([condition.column, String(value)]);
    }
    return fixed.length === 0 ? undefined : rowsHoldingAll(held, fixed);
  }

  /** The table's counts held, reading fresh ones in the background when they are old. */
  #held(db: AnyDatabase, table: string): Frequencies | undefined {
    const held = this.#tables.get(table);
    // Not on a transaction's connection: the read would join a transaction it has no part in.
    const stale = held === undefined || this.#now() - held.readAt > FREQUENCIES_KEPT_MS;
    if (stale && !db.isTransaction) void this.read(db, table);
    return held;
  }

  /**
   * Reads the table's counts and row count, and its indexes the first time (one read at a time
   * per table); a failure keeps what was held.
   */
  read(db: AnyDatabase, table: string): Promise<void> {
    const running = this.#reading.get(table);
    if (running) return running;
    // Single values and the declared combinations: at most the product of a combination's
    // distinct values.
    // The table's row count rides along with each counter (one statement); its indexes change
    // only with a migration, so they are read once.
    const reading = sql<{ key: string[]; rows: string | number; table_rows: string | null }>`
      SELECT key, sum(n) AS rows,
        (SELECT sum(row_count) FROM table_versions WHERE table_name = ${table}) AS table_rows
      FROM value_counts WHERE table_name = ${table} GROUP BY key`
      .execute(db)
      .then(async (result) => {
        const indexes = this.#tables.get(table)?.indexes ?? (await readIndexShapes(db, table));
        const tableRows = result.rows[0]?.table_rows;
        const rows = new Map<string, number>();
        const columns = new Set<string>();
        const pairs = new Set<string>();
        for (const row of result.rows) {
          rows.set(row.key.join('\u0000'), Number(row.rows));
          // Larger combinations (migration 029) are kept too; a pair's bound is tight enough to
          // weigh a list's reading.
          if (row.key.length === 2) columns.add(row.key[0] as string);
          else if (row.key.length === 4) pairs.add(`${row.key[0]}\u0000${row.key[2]}`);
        }
        this.#tables.set(table, {
          readAt: this.#now(),
          rows,
          columns,
          pairs,
          tableRows: tableRows === null || tableRows === undefined ? undefined : Number(tableRows),
          indexes,
        });
      })
      .catch(() => {
        // The store closing, or a connection lost: lists keep the counts they had, or none,
        // and the next read is tried FREQUENCIES_KEPT_MS later, not by every list meanwhile.
        const held = this.#tables.get(table);
        this.#tables.set(table, {
          readAt: this.#now(),
          rows: held?.rows ?? new Map(),
          columns: held?.columns ?? new Set(),
          pairs: held?.pairs ?? new Set(),
          tableRows: held?.tableRows,
          indexes: held?.indexes,
        });
      })
      .finally(() => this.#reading.delete(table));
    this.#reading.set(table, reading);
    return reading;
  }
}

/**
 * The rows holding all these values, at most: the rarest value's, or the rarest pair's a pair
 * counter holds, if fewer. A value, or a counted pair, the counters do not know holds no row.
 */
function rowsHoldingAll(held: Frequencies, fixed: ReadonlyArray<readonly [string, string]>) {
  let fewest = Number.POSITIVE_INFINITY;
  fixed.forEach((one, index) => {
    fewest = Math.min(fewest, held.rows.get(keyOf(...one)) ?? 0);
    for (const other of fixed.slice(index + 1)) {
      const key = pairKeyOf(one, other);
      if (held.pairs.has(key.columns)) fewest = Math.min(fewest, held.rows.get(key.key) ?? 0);
    }
  });
  return fewest;
}

/**
 * The fewest rows a walk in `order` passes at most: those of the exact values that lead an
 * index serving the order after them (a vendor's rows for `(vendor, hostname, id)` by hostname),
 * or the whole table along the order's own index; undefined when no index serves the order.
 */
function walkedRange(
  held: Frequencies,
  order: WalkOrder['order'],
  conditions: readonly Condition[],
): number | undefined {
  const fixed = new Map<string, string>();
  for (const condition of conditions) {
    if (condition.operator === 'exact') fixed.set(condition.column, String(condition.value));
  }
  let fewest: number | undefined;
  for (const index of held.indexes ?? []) {
    const leading: Array<readonly [string, string]> = [];
    for (const key of index.keys) {
      const value = fixed.get(key.column);
      if (value === undefined) break;
      leading.push([key.column, value]);
    }
    if (!servesOrder(index.keys.slice(leading.length), order)) continue;
    const rows =
      leading.length === 0
        ? held.tableRows
        : leading.every(([column]) => held.columns.has(column))
          ? rowsHoldingAll(held, leading)
          : undefined;
    if (rows !== undefined) fewest = Math.min(fewest ?? rows, rows);
  }
  return fewest;
}

/**
 * The table's btree indexes on plain columns (no expression, no predicate), from the catalog:
 * which indexes the migrations made is the catalog's to say, so no rule of theirs is repeated here.
 */
async function readIndexShapes(db: AnyDatabase, table: string): Promise<IndexShape[]> {
  const result = await sql<{ columns: string[]; key_count: number; options: number[] }>`
    SELECT array(
             SELECT a.attname::text FROM unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, n)
             JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum ORDER BY k.n
           ) AS columns,
           i.indnkeyatts AS key_count, i.indoption::int2[] AS options
    FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
    WHERE i.indrelid = ${table}::regclass AND am.amname = 'btree' AND i.indisvalid
      AND i.indexprs IS NULL AND i.indpred IS NULL`.execute(db);
  return result.rows.flatMap((row) => {
    const options = row.options.slice(0, Number(row.key_count)).map(Number);
    // INDOPTION_DESC is 1, INDOPTION_NULLS_FIRST 2: only PostgreSQL's default placement of
    // nulls (first when descending) serves the lists' orders, which never name it.
    if (options.some((option) => (option & 1) !== (option & 2) >> 1)) return [];
    const keys = options.map((option, index) => ({
      column: row.columns[index] as string,
      descending: (option & 1) === 1,
    }));
    return [{ keys, columns: new Set(row.columns) }];
  });
}

/**
 * Whether some index serves `order` as its leading keys, read forwards or backwards, and holds
 * every filtered column: a walk along it then tests the filters on its entries and reads nothing
 * from the table. A filter is an exact value or a tag list's `all` (`tags @> …`), which
 * PostgreSQL tests on an index entry as on a row.
 */
function walkReadsIndexAlone(
  indexes: readonly IndexShape[],
  order: WalkOrder['order'],
  conditions: readonly Condition[],
): boolean {
  if (
    !conditions.every((condition) => condition.operator === 'exact' || condition.operator === 'all')
  ) {
    return false;
  }
  return indexes.some(
    (index) =>
      servesOrder(index.keys, order) &&
      conditions.every((condition) => index.columns.has(condition.column)),
  );
}

/** Whether index keys, read forwards or backwards, start with `order`'s keys. */
function servesOrder(keys: IndexShape['keys'], order: WalkOrder['order']): boolean {
  const backwards = keys[0]?.descending !== (order[0]?.direction === 'desc');
  return order.every((key, position) => {
    const indexed = keys[position];
    return (
      indexed !== undefined &&
      indexed.column === key.column &&
      (indexed.descending !== backwards) === (key.direction === 'desc')
    );
  });
}
