import { sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import type { AnyDatabase } from '../db/schema.js';
import type { Row } from '../resources/rows.js';

/** The metrics a device reports; every one may be absent from a record. */
export const METRIC_FIELDS = ['cpu', 'memory', 'temperature', 'uptime_seconds'] as const;
/** What the overview sorts by: a metric or the time of the record. */
export const OVERVIEW_SORT_FIELDS = [...METRIC_FIELDS, 'ts'] as const;
export type OverviewSortField = (typeof OVERVIEW_SORT_FIELDS)[number];

export interface MetricInput {
  device_id: string;
  cpu?: number | null;
  memory?: number | null;
  temperature?: number | null;
  uptime_seconds?: number | null;
  ts?: string;
}

const RECORD_COLUMNS = ['device_id', ...METRIC_FIELDS, 'ts'] as const;

/**
 * Stores the records in the history and moves each device's row of device_metrics_latest
 * forward, in one transaction (the caller's). The latest table only takes a record newer than
 * what it holds, so records arriving out of order (or from two instances at once) leave the
 * newest in place. Rows are upserted in device order so that concurrent batches lock the same
 * rows in the same order and cannot deadlock.
 */
export async function insertMetrics(
  trx: AnyDatabase,
  records: readonly MetricInput[],
  now: Date,
): Promise<number> {
  const rows = records.map((record) => ({
    id: uuidv7(),
    device_id: record.device_id.toLowerCase(),
    cpu: record.cpu ?? null,
    memory: record.memory ?? null,
    temperature: record.temperature ?? null,
    uptime_seconds: record.uptime_seconds ?? null,
    ts: record.ts !== undefined ? new Date(record.ts) : now,
  }));
  await trx.insertInto('device_metrics').values(rows).execute();

  // One row per device in a statement: ON CONFLICT cannot update a row twice.
  const newest = new Map<string, (typeof rows)[number]>();
  for (const row of rows) {
    const held = newest.get(row.device_id);
    if (!held || held.ts <= row.ts) newest.set(row.device_id, row);
  }
  const latest = [...newest.values()]
    .sort((a, b) => (a.device_id < b.device_id ? -1 : 1))
    .map(({ id: _id, ...row }) => row);
  await trx
    .insertInto('device_metrics_latest')
    .values(latest)
    .onConflict((conflict) =>
      conflict
        .column('device_id')
        .doUpdateSet((eb) =>
          Object.fromEntries(
            [...METRIC_FIELDS, 'ts'].map((column) => [column, eb.ref(`excluded.${column}`)]),
          ),
        )
        .where(sql.ref('device_metrics_latest.ts'), '<=', sql.ref('excluded.ts')),
    )
    .execute();
  return rows.length;
}

export interface OverviewRequest {
  page: number;
  limit: number;
  sort: { field: OverviewSortField; direction: 'asc' | 'desc' };
}

/**
 * A page of the latest record of every device: two index scans of device_metrics_latest (the
 * count, and the page in the order of the sort key's index; device_id, in the same direction,
 * keeps the order total so that pages neither repeat nor skip a device).
 */
export async function overviewPage(db: AnyDatabase, request: OverviewRequest) {
  const { field, direction } = request.sort;
  const [count, rows] = await Promise.all([
    db
      .selectFrom('device_metrics_latest')
      .select((eb) => eb.fn.countAll().as('count'))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('device_metrics_latest')
      .select([...RECORD_COLUMNS])
      .orderBy(field, direction)
      .orderBy('device_id', direction)
      .limit(request.limit)
      .offset((request.page - 1) * request.limit)
      .execute(),
  ]);
  return { totalCount: Number(count.count), rows: rows as Row[] };
}

export async function latestOfDevice(db: AnyDatabase, deviceId: string): Promise<Row | undefined> {
  return db
    .selectFrom('device_metrics_latest')
    .select([...RECORD_COLUMNS])
    .where('device_id', '=', deviceId)
    .executeTakeFirst();
}

export interface HistoryRequest {
  deviceId: string;
  from?: string | undefined;
  to?: string | undefined;
  page: number;
  limit: number;
}

/** A device's records in [from, to], newest first: a range scan of (device_id, ts desc). */
export async function historyPage(db: AnyDatabase, request: HistoryRequest) {
  let filtered = db.selectFrom('device_metrics').where('device_id', '=', request.deviceId);
  if (request.from !== undefined) filtered = filtered.where('ts', '>=', new Date(request.from));
  if (request.to !== undefined) filtered = filtered.where('ts', '<=', new Date(request.to));
  const [count, rows] = await Promise.all([
    filtered.select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow(),
    filtered
      .select([...RECORD_COLUMNS])
      .orderBy('ts', 'desc')
      .orderBy('id', 'desc')
      .limit(request.limit)
      .offset((request.page - 1) * request.limit)
      .execute(),
  ]);
  return { totalCount: Number(count.count), rows: rows as Row[] };
}
