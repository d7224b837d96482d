import { sql } from 'kysely';
import type { AnyDatabase } from '../db/schema.js';
import type { Condition } from './lookups.js';

/** How old a table's frequencies may be before a list asks for fresh ones (in the background). */
const FREQUENCIES_KEPT_MS = 30_000;

interface Frequencies {
  readAt: number;
  /** Rows per `column\0value`, from the value counters (migration 014). */
  rows: Map<string, number>;
  /** The columns counted. */
  columns: Set<string>;
}

const keyOf = (column: string, value: unknown) => `${column}\u0000${String(value)}`;

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
 * per table, in one small statement outside any request, and only compared with each other:
 * a count a little old picks the same leader, and a wrong leader costs time, never a wrong row.
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
    const held = this.#tables.get(table);
    // Not on a transaction's connection: the read would join a transaction it has no part in.
    const stale = held === undefined || this.#now() - held.readAt > FREQUENCIES_KEPT_MS;
    if (stale && !db.isTransaction) void this.read(db, table);
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

  /** Reads the table's counts (one read at a time per table); a failure keeps the old ones. */
  read(db: AnyDatabase, table: string): Promise<void> {
    const running = this.#reading.get(table);
    if (running) return running;
    const reading = sql<{ column: string; value: string; rows: string | number }>`
      SELECT key[1] AS column, key[2] AS value, sum(n) AS rows FROM value_counts
      WHERE table_name = ${table} AND cardinality(key) = 2
      GROUP BY key`
      .execute(db)
      .then((result) => {
        const rows = new Map<string, number>();
        const columns = new Set<string>();
        for (const row of result.rows) {
          rows.set(keyOf(row.column, row.value), Number(row.rows));
          columns.add(row.column);
        }
        this.#tables.set(table, { readAt: this.#now(), rows, columns });
      })
      .catch(() => {
        // The store closing, or a connection lost: lists keep the counts they had, or none,
        // and the next read is tried FREQUENCIES_KEPT_MS later, not by every list meanwhile.
        const held = this.#tables.get(table);
        this.#tables.set(table, {
          readAt: this.#now(),
          rows: held?.rows ?? new Map(),
          columns: held?.columns ?? new Set(),
        });
      })
      .finally(() => this.#reading.delete(table));
    this.#reading.set(table, reading);
    return reading;
  }
}
