/**
 * Writers that drive the real service over HTTP and remember what it acknowledged, and the check
 * that the stored data agrees: every acknowledged write is there, an unacknowledged one may or may
 * not be (the answer was lost, not necessarily the write), and a batch is all or nothing.
 *
 * Each writer owns its devices, so the order of its own writes is known. Every write carries a
 * value never used before (`vendor` = `w<worker>-<n>`), so a stored value names the write that
 * put it there.
 */

export type Outcome = 'acked' | 'refused' | 'unknown';

/** One request as the client saw it. */
export interface RequestRecord {
  kind: string;
  startedAt: number;
  endedAt: number;
  /** HTTP status, or 0 when no answer came (connection lost, client timeout). */
  status: number;
  retryAfter: string | null;
  /** The body was `{status: "error", message}` (for non-2xx answers). */
  errorShape: boolean;
  message?: string;
  error?: string;
}

interface Attempt {
  value: string;
  outcome: Outcome;
  /** Set when the attempt was one item of a batch. */
  batch?: string;
}

export interface DeviceModel {
  id: string;
  hostname: string;
  worker: number;
  /** `vendor` on creation, then every PATCH attempted, in order. */
  initial: string;
  attempts: Attempt[];
  deleteOutcome?: Outcome;
}

export interface StoredDevice {
  id: string;
  hostname: string;
  vendor: string | null;
}

export class WriteModel {
  readonly devices = new Map<string, DeviceModel>();
  /** Creates whose answer never came: hostname -> worker and vendor. */
  readonly unknownCreates = new Map<string, { worker: number; vendor: string }>();
  /** Batches whose answer never came or was an error: id -> its items. */
  readonly uncertainBatches = new Map<string, Array<{ id: string; value: string }>>();
  readonly log: RequestRecord[] = [];
  acknowledged = 0;

  /** Writes the service acknowledged, by kind. */
  readonly acknowledgedByKind: Record<string, number> = {};

  /**
   * Per device id and audit action: writes acknowledged and writes attempted. Each applied write
   * has its audit row in the same transaction, so the rows must number between the two.
   */
  readonly audit = new Map<string, Record<AuditAction, { acked: number; attempted: number }>>();

  noteAudit(id: string, action: AuditAction, outcome: Outcome): void {
    let entry = this.audit.get(id);
    if (!entry) {
      entry = {
        create: { acked: 0, attempted: 0 },
        update: { acked: 0, attempted: 0 },
        delete: { acked: 0, attempted: 0 },
      };
      this.audit.set(id, entry);
    }
    if (outcome === 'refused') return;
    entry[action].attempted++;
    if (outcome === 'acked') entry[action].acked++;
  }
}

export type AuditAction = 'create' | 'update' | 'delete';

export type WriteKind = 'create' | 'patch' | 'batch-patch' | 'delete' | 'read' | 'read-one';

export interface WriterOptions {
  baseUrl: string;
  token: string;
  worker: number;
  model: WriteModel;
  /** Relative weights of the operations. */
  mix: Partial<Record<WriteKind, number>>;
  /** Stop when this returns true (checked between requests). */
  stop: () => boolean;
  /** Abort a request after this long: a hang is recorded as status 0. */
  requestTimeoutMs?: number;
  /** Pause between requests (0: as fast as the service answers). */
  pauseMs?: number;
  /** Stop after the first request that got no answer (the server is gone). */
  stopOnNoAnswer?: boolean;
}

let sequence = 0;

/** Runs one writer until `stop()`; resolves when its last request is settled. */
export async function runWriter(options: WriterOptions): Promise<void> {
  const { model, worker } = options;
  const kinds = Object.entries(options.mix).filter(([, weight]) => (weight ?? 0) > 0) as Array<
    [WriteKind, number]
  >;
  const total = kinds.reduce((sum, [, weight]) => sum + weight, 0);
  const pick = (): WriteKind => {
    let roll = Math.random() * total;
    for (const [kind, weight] of kinds) {
      roll -= weight;
      if (roll < 0) return kind;
    }
    return kinds[0]?.[0] ?? 'read';
  };
  const owned = () =>
    [...model.devices.values()].filter(
      (device) => device.worker === worker && device.deleteOutcome === undefined,
    );

  while (!options.stop()) {
    let kind = pick();
    const mine = owned();
    if (mine.length === 0 && kind !== 'read') kind = 'create';
    if (kind === 'batch-patch' && mine.length < 2) kind = 'create';
    const record = await perform(options, kind, mine);
    if (record.status === 0 && options.stopOnNoAnswer) return;
    if (options.pauseMs) await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
  }
}

function outcomeOf(status: number, success: number): Outcome {
  if (status === success) return 'acked';
  // No answer, or a 5xx: the write may have been committed before the answer was lost.
  if (status === 0 || status >= 500) return 'unknown';
  return 'refused';
}

async function perform(
  options: WriterOptions,
  kind: WriteKind,
  mine: DeviceModel[],
): Promise<RequestRecord> {
  const { model, worker } = options;
  const value = () => `w${worker}-${++sequence}`;
  const any = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)] as T;
  switch (kind) {
    case 'create': {
      const hostname = `h-${value()}`;
      const vendor = value();
      const { record, json } = await call(options, kind, 'POST', '/devices', {
        hostname,
        ip: '192.0.2.10',
        vendor,
      });
      const outcome = outcomeOf(record.status, 201);
      if (outcome === 'acked') {
        const id = (json as { id: string }).id;
        model.devices.set(id, { id, hostname, worker, initial: vendor, attempts: [] });
        model.noteAudit(id, 'create', outcome);
      } else if (outcome === 'unknown') {
        model.unknownCreates.set(hostname, { worker, vendor });
      }
      count(model, kind, outcome);
      return record;
    }
    case 'patch': {
      const device = any(mine);
      const attempt: Attempt = { value: value(), outcome: 'unknown' };
      device.attempts.push(attempt);
      const { record } = await call(options, kind, 'PATCH', `/devices/${device.id}`, {
        vendor: attempt.value,
      });
      attempt.outcome = outcomeOf(record.status, 200);
      model.noteAudit(device.id, 'update', attempt.outcome);
      count(model, kind, attempt.outcome);
      return record;
    }
    case 'batch-patch': {
      const size = Math.min(mine.length, 2 + Math.floor(Math.random() * 4));
      const chosen = [...mine].sort(() => Math.random() - 0.5).slice(0, size);
      const batch = `b${++sequence}`;
      const items = chosen.map((device) => ({ id: device.id, value: value() }));
      const attempts = chosen.map((device, index) => {
        const attempt: Attempt = { value: items[index]?.value ?? '', outcome: 'unknown', batch };
        device.attempts.push(attempt);
        return attempt;
      });
      const { record } = await call(
        options,
        kind,
        'PATCH',
        '/devices',
        items.map((item) => ({ id: item.id, vendor: item.value })),
      );
      const outcome = outcomeOf(record.status, 200);
      for (const attempt of attempts) attempt.outcome = outcome;
      for (const item of items) model.noteAudit(item.id, 'update', outcome);
      if (outcome === 'unknown') model.uncertainBatches.set(batch, items);
      count(model, kind, outcome, items.length);
      return record;
    }
    case 'delete': {
      const device = any(mine);
      device.deleteOutcome = 'unknown';
      const { record } = await call(options, kind, 'DELETE', `/devices/${device.id}`);
      device.deleteOutcome = outcomeOf(record.status, 204);
      model.noteAudit(device.id, 'delete', device.deleteOutcome);
      // A refused delete (404 would be a lost create) leaves the device in play.
      if (device.deleteOutcome === 'refused') device.deleteOutcome = undefined;
      count(model, kind, outcomeOf(record.status, 204));
      return record;
    }
    case 'read-one': {
      const device = mine.length > 0 ? any(mine) : undefined;
      if (device) return (await call(options, kind, 'GET', `/devices/${device.id}`)).record;
      return (await call(options, 'read', 'GET', '/devices?limit=10')).record;
    }
    default:
      return (await call(options, 'read', 'GET', '/devices?limit=10&sortby=hostname:desc')).record;
  }
}

function count(model: WriteModel, kind: string, outcome: Outcome, writes = 1) {
  if (outcome !== 'acked') return;
  model.acknowledged += writes;
  model.acknowledgedByKind[kind] = (model.acknowledgedByKind[kind] ?? 0) + writes;
}

async function call(
  options: WriterOptions,
  kind: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ record: RequestRecord; json: unknown }> {
  const startedAt = performance.now();
  const record: RequestRecord = {
    kind,
    startedAt,
    endedAt: startedAt,
    status: 0,
    retryAfter: null,
    errorShape: false,
  };
  let json: unknown;
  try {
    const response = await fetch(`${options.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${options.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(options.requestTimeoutMs ?? 10_000),
    });
    const text = await response.text();
    record.status = response.status;
    record.retryAfter = response.headers.get('retry-after');
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (response.status >= 300) {
      const error = json as { status?: unknown; message?: unknown } | undefined;
      record.errorShape =
        error !== undefined &&
        error.status === 'error' &&
        typeof error.message === 'string' &&
        Object.keys(error).length === 2;
      if (typeof error?.message === 'string') record.message = error.message;
    }
  } catch (error) {
    record.error = (error as Error).name === 'TimeoutError' ? 'client timeout' : String(error);
  }
  record.endedAt = performance.now();
  options.model.log.push(record);
  return { record, json };
}

/**
 * Compares the stored devices with what was acknowledged. Returns the problems found (empty when
 * everything holds), and adopts the outcome of uncertain writes so that later rounds start from
 * what is stored.
 */
export function checkDevices(model: WriteModel, stored: readonly StoredDevice[]): string[] {
  const problems: string[] = [];
  const byId = new Map(stored.map((row) => [row.id, row]));
  const byHostname = new Map(stored.map((row) => [row.hostname, row]));

  // A batch whose answer was lost: of its items that no later write touched, 0 or all show it.
  for (const [batch, items] of model.uncertainBatches) {
    const judged = items.filter((item) => {
      const attempts = model.devices.get(item.id)?.attempts ?? [];
      const index = attempts.findIndex((attempt) => attempt.value === item.value);
      return index !== -1 && index === attempts.length - 1 && byId.has(item.id);
    });
    const applied = judged.filter((item) => byId.get(item.id)?.vendor === item.value).length;
    if (applied !== 0 && applied !== judged.length) {
      problems.push(`batch ${batch}: ${applied} of ${judged.length} items applied (not atomic)`);
    }
  }

  for (const device of model.devices.values()) {
    const row = byId.get(device.id);
    if (device.deleteOutcome === 'acked') {
      if (row) problems.push(`${device.hostname}: deleted (acknowledged) but still stored`);
      model.devices.delete(device.id);
      continue;
    }
    if (!row) {
      if (device.deleteOutcome === 'unknown') {
        model.devices.delete(device.id);
        continue;
      }
      problems.push(`${device.hostname}: created (acknowledged) but missing`);
      model.devices.delete(device.id);
      continue;
    }
    if (device.deleteOutcome === 'unknown') device.deleteOutcome = undefined;
    // The last acknowledged value, or any attempted after it (their answers were lost).
    const lastAcked = device.attempts.findLastIndex((attempt) => attempt.outcome === 'acked');
    const possible = new Set<string>();
    if (lastAcked === -1) possible.add(device.initial);
    device.attempts.forEach((attempt, index) => {
      if (index === lastAcked || (index > lastAcked && attempt.outcome === 'unknown')) {
        possible.add(attempt.value);
      }
    });
    if (!possible.has(row.vendor ?? '')) {
      problems.push(
        `${device.hostname}: vendor ${row.vendor}, expected one of ${[...possible].join(', ')}`,
      );
    }
    // From now on the stored value is the truth to build on.
    device.initial = row.vendor ?? '';
    device.attempts = [];
  }

  model.uncertainBatches.clear();

  for (const [hostname, { worker, vendor }] of model.unknownCreates) {
    const row = byHostname.get(hostname);
    if (row && !model.devices.has(row.id)) {
      model.devices.set(row.id, {
        id: row.id,
        hostname,
        worker,
        initial: row.vendor ?? vendor,
        attempts: [],
      });
      // Its create was applied though never acknowledged.
      model.noteAudit(row.id, 'create', 'unknown');
    }
  }
  model.unknownCreates.clear();

  const known = new Set(model.devices.keys());
  for (const row of stored) {
    if (!known.has(row.id)) problems.push(`${row.hostname}: stored but never written`);
  }
  return problems;
}

/** Audit rows of devices, counted per device id and action. */
export type AuditCounts = Map<string, Partial<Record<AuditAction, number>>>;

/** Every device write acknowledged has its audit row; no audit row without an attempted write. */
export function checkAudit(model: WriteModel, rows: AuditCounts): string[] {
  const problems: string[] = [];
  for (const [id, expected] of model.audit) {
    for (const action of ['create', 'update', 'delete'] as const) {
      const found = rows.get(id)?.[action] ?? 0;
      const { acked, attempted } = expected[action];
      if (found < acked || found > attempted) {
        problems.push(
          `${id} ${action}: ${found} audit rows, ${acked} acknowledged, ${attempted} attempted`,
        );
      }
    }
  }
  for (const id of rows.keys()) {
    if (!model.audit.has(id)) problems.push(`${id}: audit rows for a device never written`);
  }
  return problems;
}

/** Nearest-rank percentiles of durations in milliseconds, rounded to 1 ms. */
export function percentiles(values: readonly number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
  const round = (value: number | undefined) => Math.round(value ?? Number.NaN);
  return {
    n: sorted.length,
    p50: round(rank(0.5)),
    p95: round(rank(0.95)),
    max: round(sorted.at(-1)),
  };
}
