import { type Kysely, sql } from 'kysely';
import { type PeriodicChecks, startPeriodicChecks } from './periodic-checks.js';
import type { StoreKind } from './store.js';

/**
 * VACUUM and ANALYZE for the embedded store, which PostgreSQL itself never starts there.
 *
 * PGlite runs PostgreSQL as one backend without a postmaster, hence without the autovacuum
 * launcher or its workers, although `SHOW autovacuum` says on. So a store filled through the
 * service was never analyzed: the planner had no statistics and took every value for 0.5 % of
 * the rows, common or rare (the inventory's mix of lists, reads and writes on 100,000 devices
 * answered half as fast without statistics). Nor did an update's dead row ever
 * leave the table or its indexes, and the visibility map, which lets a list read an index alone,
 * only ever lost pages.
 *
 * This runs `VACUUM` and `ANALYZE` on the rules of PostgreSQL's autovacuum, with the thresholds
 * and scale factors of the store's own settings: a table is vacuumed once its dead rows exceed
 * `autovacuum_vacuum_threshold + autovacuum_vacuum_scale_factor × rows`, or its rows inserted
 * since the last vacuum exceed the insert threshold and scale factor likewise, and analyzed once
 * its rows changed since the last analyze exceed the analyze threshold and scale factor. A table
 * whose storage option `autovacuum_enabled` is false is left alone, and so is every table while
 * the `autovacuum` setting is off.
 *
 * The counts come from PostgreSQL's cumulative statistics, which a backend without a postmaster
 * hands over only when told to (`pg_stat_force_next_flush()`), and which PGlite does not keep
 * from one opening to the next. So a table is also analyzed when its size has moved, since its
 * last analyze, by more than the rows that would call for one (its rows reckoned from its pages
 * at the density the last analyze found), and when it has pages but was never analyzed: a
 * store reopened after a bulk import is analyzed at the first check, not after as many changes
 * again.
 *
 * The store's single connection is lent one holder at a time (pglite-dialect.ts), so the check and
 * each table's VACUUM or ANALYZE run between other statements and transactions, never inside
 * one, one table at a time. Each holds that connection while it runs, the work PostgreSQL's
 * autovacuum does beside the queries: at 100,000 devices (1 GB) `ANALYZE` of the devices took
 * 0.5 s and their `VACUUM` 0.5–1.1 s here. The rules run it once per so many changes, as on a
 * server.
 */

/** When the embedded store checks whether a table needs a VACUUM or an ANALYZE. */
export interface AutovacuumSchedule {
  /**
   * Milliseconds between two checks (default 60,000, PostgreSQL's `autovacuum_naptime`; 0:
   * never check, never vacuum or analyze).
   */
  intervalMs?: number;
  /**
   * Milliseconds from opening to the first check (default 1000): statistics are lost when the
   * store closes, so the first check looks at the tables' sizes soon after a start.
   */
  firstCheckAfterMs?: number;
  /** Told of each VACUUM or ANALYZE run, and how long it held the store. */
  onRun?: (run: AutovacuumRun) => void;
  /** Told of a check, VACUUM or ANALYZE that failed; the next check tries again. */
  onError?: (error: Error) => void;
}

export interface AutovacuumRun {
  table: string;
  vacuumed: boolean;
  analyzed: boolean;
  ms: number;
}

const DEFAULT_AUTOVACUUM_INTERVAL_MS = 60_000;
const DEFAULT_FIRST_CHECK_AFTER_MS = 1000;

/** One table as the check reads it: its cumulative counts, sizes and the thresholds in force. */
export interface TableActivity {
  /** The table's name, quoted where it needs to be (`regclass` output). */
  table: string;
  dead_rows: number;
  inserted_since_vacuum: number;
  changed_since_analyze: number;
  /** Rows and pages as of the last VACUUM or ANALYZE; -1 rows when there was none. */
  reltuples: number;
  relpages: number;
  /** Pages the table has now. */
  pages: number;
  vacuum_threshold: number;
  vacuum_scale_factor: number;
  insert_threshold: number;
  insert_scale_factor: number;
  analyze_threshold: number;
  analyze_scale_factor: number;
}

/** What a table needs, on autovacuum's rules (relation_needs_vacanalyze in PostgreSQL). */
export function autovacuumNeeds(table: TableActivity): { vacuum: boolean; analyze: boolean } {
  // A table never vacuumed or analyzed counts as empty, as PostgreSQL reckons it.
  const rows = Math.max(table.reltuples, 0);
  const vacuum =
    table.dead_rows > table.vacuum_threshold + table.vacuum_scale_factor * rows ||
    table.inserted_since_vacuum > table.insert_threshold + table.insert_scale_factor * rows;
  const analyzeAfter = table.analyze_threshold + table.analyze_scale_factor * rows;
  // The rows the table has grown or shrunk by since its last analyze, reckoned from its pages:
  // what the counts would have said had they been kept across a restart.
  const neverAnalyzed = table.reltuples < 0 && table.pages > 0;
  const grownUnseen =
    table.reltuples >= 0 &&
    (table.relpages > 0
      ? Math.abs((table.reltuples / table.relpages) * table.pages - table.reltuples) > analyzeAfter
      : table.pages > 0 && table.reltuples === 0);
  const analyze = table.changed_since_analyze > analyzeAfter || neverAnalyzed || grownUnseen;
  return { vacuum, analyze };
}

export function startAutovacuum(db: Kysely<unknown>, schedule: AutovacuumSchedule): PeriodicChecks {
  const check = async () => {
    // The backend's counts since the last flush reach the shared statistics at the end of the
    // next statement.
    await sql`SELECT pg_stat_force_next_flush()`.execute(db);
    const tables = (
      await sql<TableActivity>`
        SELECT c.oid::regclass::text AS table,
          s.n_dead_tup::float8 AS dead_rows,
          s.n_ins_since_vacuum::float8 AS inserted_since_vacuum,
          s.n_mod_since_analyze::float8 AS changed_since_analyze,
          c.reltuples::float8 AS reltuples, c.relpages::float8 AS relpages,
          (pg_relation_size(c.oid) / current_setting('block_size')::int)::float8 AS pages,
          current_setting('autovacuum_vacuum_threshold')::float8 AS vacuum_threshold,
          current_setting('autovacuum_vacuum_scale_factor')::float8 AS vacuum_scale_factor,
          current_setting('autovacuum_vacuum_insert_threshold')::float8 AS insert_threshold,
          current_setting('autovacuum_vacuum_insert_scale_factor')::float8 AS insert_scale_factor,
          current_setting('autovacuum_analyze_threshold')::float8 AS analyze_threshold,
          current_setting('autovacuum_analyze_scale_factor')::float8 AS analyze_scale_factor
        FROM pg_class AS c JOIN pg_stat_user_tables AS s ON s.relid = c.oid
        WHERE current_setting('autovacuum')::bool
          AND c.relpersistence <> 't'
          AND NOT EXISTS (
            SELECT FROM pg_options_to_table(c.reloptions) AS o
            WHERE o.option_name = 'autovacuum_enabled' AND NOT o.option_value::bool)
        ORDER BY c.oid`.execute(db)
    ).rows;
    for (const table of tables) {
      if (checks.stopped) return;
      const needs = autovacuumNeeds(table);
      if (!needs.vacuum && !needs.analyze) continue;
      const started = performance.now();
      const name = sql.raw(table.table);
      if (needs.vacuum && needs.analyze) await sql`VACUUM (ANALYZE) ${name}`.execute(db);
      else if (needs.vacuum) await sql`VACUUM ${name}`.execute(db);
      else await sql`ANALYZE ${name}`.execute(db);
      schedule.onRun?.({
        table: table.table,
        vacuumed: needs.vacuum,
        analyzed: needs.analyze,
        ms: performance.now() - started,
      });
    }
  };

  const checks = startPeriodicChecks(
    check,
    {
      firstAfterMs: schedule.firstCheckAfterMs ?? DEFAULT_FIRST_CHECK_AFTER_MS,
      intervalMs: schedule.intervalMs ?? DEFAULT_AUTOVACUUM_INTERVAL_MS,
    },
    schedule.onError,
  );
  return checks;
}

/** A VACUUM or ANALYZE that held the store at least this long is reported (embeddedUpkeepNotes). */
export const REPORTED_AUTOVACUUM_MS = 100;

/** What a service says of its embedded store's upkeep: long pauses and failures. */
export function embeddedUpkeepNotes(note: (text: string, level?: number) => void): {
  checkpoints: { onError: (error: Error) => void };
  autovacuum: Required<Pick<AutovacuumSchedule, 'onRun' | 'onError'>>;
} {
  return {
    checkpoints: {
      onError: (error) => note(`embedded database checkpoint failed: ${error.message}`, 50),
    },
    autovacuum: {
      // A pause a user may have noticed gets its reason in the log; the many short ones do not.
      onRun: (run) => {
        if (run.ms < REPORTED_AUTOVACUUM_MS) return;
        const what =
          run.vacuumed && run.analyzed
            ? 'vacuumed and analyzed'
            : run.vacuumed
              ? 'vacuumed'
              : 'analyzed';
        note(`embedded database ${what} ${run.table} in ${Math.round(run.ms)} ms`);
      },
      onError: (error) => note(`embedded database vacuum or analyze failed: ${error.message}`, 50),
    },
  };
}

/** The settings of a PostgreSQL server that decide whether anything vacuums and analyzes. */
export interface ServerUpkeepSettings {
  autovacuum: string;
  track_counts: string;
}

/**
 * What to tell the operator of a PostgreSQL server on which nothing vacuums or analyzes the
 * service's tables, or undefined when autovacuum runs. Without autovacuum (or without
 * `track_counts`, the counts it works from) the planner keeps whatever statistics it last had:
 * on the inventory's benchmark, removing them halved the mixed traffic's reads (README, "The
 * embedded store vacuums and analyzes its tables"). A test server may run so on purpose; a
 * production one rarely should.
 */
export function serverUpkeepWarning(settings: ServerUpkeepSettings): string | undefined {
  const off = [
    settings.autovacuum !== 'on' ? 'autovacuum' : undefined,
    settings.track_counts !== 'on' ? 'track_counts' : undefined,
  ].filter((name) => name !== undefined);
  if (off.length === 0) return undefined;
  return (
    `PostgreSQL server has ${off.map((name) => `${name} = off`).join(' and ')}: nothing vacuums ` +
    "or analyzes this service's tables, so its queries slow down as the data changes. " +
    'Turn it on, or run VACUUM ANALYZE after large changes.'
  );
}

/** serverUpkeepWarning for the server a store is connected to (none for the embedded store). */
export async function readServerUpkeepWarning<DB>(
  db: Kysely<DB>,
  kind: StoreKind,
): Promise<string | undefined> {
  if (kind !== 'postgres') return undefined;
  const result = await sql<ServerUpkeepSettings>`
    SELECT current_setting('autovacuum') AS autovacuum,
           current_setting('track_counts') AS track_counts`.execute(db);
  const settings = result.rows[0];
  return settings ? serverUpkeepWarning(settings) : undefined;
}
