import { type Kysely, sql } from 'kysely';
import { type PeriodicChecks, startPeriodicChecks } from './periodic-checks.js';

/**
 * Checkpoints for the embedded store, which PostgreSQL itself never starts there.
 *
 * PGlite runs PostgreSQL as one backend without a postmaster, hence without the checkpointer
 * process. A backend alone checkpoints only when told to: the request it makes when the WAL
 * reaches `max_wal_size` is made only under a postmaster, and `checkpoint_timeout` is the
 * checkpointer's own clock. So, from opening to closing, an embedded store kept every WAL segment
 * it wrote (a new store given 405 MB of inserts held 27 segments, 432 MB, until it closed), and a
 * process killed after a day of writes would have replayed that whole day's WAL before answering
 * again.
 *
 * This runs `CHECKPOINT` on the rules PostgreSQL's checkpointer follows, read from the store's
 * own settings: once the WAL written since the last checkpoint's redo point reaches
 * `max_wal_size / (1 + checkpoint_completion_target)`, or once `checkpoint_timeout` has passed
 * with anything written since. A checkpoint then lets PostgreSQL recycle the older segments, and
 * bounds what a restart after a crash replays.
 *
 * The store's single connection is lent one holder at a time (pglite-dialect.ts), so the check and
 * the checkpoint run between other statements and transactions, never inside one. A checkpoint
 * holds that connection while it writes the dirty shared buffers and flushes the data files: 0.2 s
 * after 3,000 device updates here, the price PostgreSQL's checkpointer pays in the background.
 */

/** When the embedded store checks whether a checkpoint is due. */
export interface CheckpointSchedule {
  /**
   * Milliseconds between two checks (default 1000; 0: never check, never checkpoint). The
   * checkpointer checks at each new 16 MB segment; a second of embedded writes is about 25 MB.
   */
  intervalMs?: number;
  /** WAL bytes since the last redo point that call for a checkpoint (default: as PostgreSQL). */
  walBytes?: number;
  /** Age in milliseconds of the last checkpoint that calls for another (default: as PostgreSQL). */
  maxAgeMs?: number;
  /** Told of a check or checkpoint that failed; the next check tries again. */
  onError?: (error: Error) => void;
}

const DEFAULT_CHECKPOINT_INTERVAL_MS = 1000;

interface CheckpointState {
  since_redo: number;
  /** Whether a transaction id was given out since the last checkpoint: anything written. */
  written: boolean;
  age_ms: number;
  wal_limit: number;
  timeout_ms: number;
}

/** Whether a checkpoint is due: enough WAL, or a checkpoint old enough with a write since. */
function checkpointDue(
  state: CheckpointState,
  schedule: Pick<CheckpointSchedule, 'walBytes' | 'maxAgeMs'>,
): boolean {
  // As PostgreSQL skips a timed checkpoint when nothing was written since the last one.
  return (
    state.since_redo >= (schedule.walBytes ?? state.wal_limit) ||
    (state.written && state.age_ms >= (schedule.maxAgeMs ?? state.timeout_ms))
  );
}

export function startCheckpoints(
  db: Kysely<unknown>,
  schedule: CheckpointSchedule,
): PeriodicChecks {
  const check = async () => {
    // The checkpoint's next transaction id ("epoch:xid") against the next one now: every write
    // is given an id, so a store opened long after its last checkpoint and not written since
    // needs none, and one written before the first check is not missed.
    const state = (
      await sql<CheckpointState>`
        SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), c.redo_lsn)::float8 AS since_redo,
          pg_snapshot_xmax(pg_current_snapshot())::text::numeric
            > split_part(c.next_xid, ':', 1)::numeric * 4294967296
              + split_part(c.next_xid, ':', 2)::numeric AS written,
          (extract(epoch FROM clock_timestamp() - c.checkpoint_time) * 1000)::float8 AS age_ms,
          (pg_size_bytes(current_setting('max_wal_size'))
            / (1 + current_setting('checkpoint_completion_target')::float8))::float8 AS wal_limit,
          (extract(epoch FROM current_setting('checkpoint_timeout')::interval) * 1000)::float8
            AS timeout_ms
        FROM pg_control_checkpoint() AS c`.execute(db)
    ).rows[0];
    if (state !== undefined && checkpointDue(state, schedule)) {
      await sql`CHECKPOINT`.execute(db);
    }
  };

  return startPeriodicChecks(
    check,
    {
      firstAfterMs: schedule.intervalMs ?? DEFAULT_CHECKPOINT_INTERVAL_MS,
      intervalMs: schedule.intervalMs ?? DEFAULT_CHECKPOINT_INTERVAL_MS,
    },
    schedule.onError,
  );
}
