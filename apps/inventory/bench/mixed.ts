import autocannon from 'autocannon';
import { type LoadResult, withRequest } from './load.js';
import type { BenchRequest } from './scenarios.js';

/**
 * The `mixed` scenario: what users really send. Each request is drawn from a seeded
 * distribution (the n-th request of a run is always the same): lists of devices with varied
 * filters (vendor, status, role, location, tags; one or several; common values as often as the
 * data holds them, rare ones too), varied sorts, pages 1–50 and limits 10/50/100; single reads of
 * random devices; interface lists of random devices; and a steady 5 % of writes (PATCH of a
 * random device's vendor, status or location, POSTs, and now and then a batch PATCH of 100).
 *
 * Driven by autocannon like every other scenario, with reads and writes timed apart (driveMixed).
 */

export type MixedClass = 'read' | 'write';

/** The kinds of write, each with its own latencies: the batches are the writes' slowest tail. */
export const WRITE_KINDS = ['PATCH', 'POST', 'batch PATCH'] as const;
export type WriteKind = (typeof WRITE_KINDS)[number];

export interface MixedRequest extends BenchRequest {
  class: MixedClass;
  /** Which kind of write (writes only). */
  write?: WriteKind;
}

/** A value and how many devices hold it (read from the data set before the run). */
export interface Weighted {
  value: string;
  count: number;
}

export interface MixedFacts {
  deviceIds: readonly string[];
  vendors: readonly Weighted[];
  statuses: readonly Weighted[];
  roles: readonly Weighted[];
  locations: readonly Weighted[];
  tags: readonly Weighted[];
}

/** Share of each kind of request, in percent (sums to 100). */
export const MIXED_SHARES = {
  list: 70,
  read: 15,
  interfaces: 10,
  patch: 3,
  post: 1.8,
  batch: 0.2,
} as const;

const BATCH_SIZE = 100;
const SEED = 18;

/** Mulberry32 from one integer: the n-th request's own generator. */
function randomFor(n: number) {
  let state = (Math.imul(n + 1, 0x9e3779b1) ^ SEED) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

type Random = () => number;

const pickOne = <T>(items: readonly T[], random: Random): T =>
  items[Math.floor(random() * items.length)] as T;

/**
 * A value of a column: 70 % of the time as often as the data holds it (common values dominate),
 * 30 % uniformly over the distinct values (rare ones get asked too).
 */
function pickValue(values: readonly Weighted[], random: Random): string {
  if (random() < 0.3) return pickOne(values, random).value;
  const total = values.reduce((sum, item) => sum + item.count, 0);
  let target = random() * total;
  for (const item of values) {
    target -= item.count;
    if (target < 0) return item.value;
  }
  return values.at(-1)?.value ?? '';
}

/** Filter combinations and their weights: single and combined, as a UI's filter panel sends. */
const FILTER_SETS: ReadonlyArray<readonly [number, readonly string[]]> = [
  [10, []],
  [18, ['vendor']],
  [10, ['status']],
  [8, ['role']],
  [8, ['location_id']],
  [6, ['tags']],
  [12, ['vendor', 'status']],
  [6, ['vendor', 'role']],
  [5, ['status', 'location_id']],
  [5, ['vendor', 'status', 'role']],
  [4, ['tags', 'tags']],
  [4, ['tags', 'vendor']],
  [4, ['hostname__ic']],
];

const SORTS: ReadonlyArray<readonly [number, string]> = [
  [30, ''],
  [20, 'sortby=hostname:asc'],
  [8, 'sortby=hostname:desc'],
  [10, 'sortby=model:asc&sortby=hostname:desc'],
  [8, 'sortby=last_seen:desc'],
  [8, 'sortby=vendor:asc&sortby=hostname:asc'],
  [8, 'sortby=created_at:desc'],
  [8, 'sortby=status:asc'],
];

const LIMITS: ReadonlyArray<readonly [number, number]> = [
  [50, 10],
  [25, 50],
  [25, 100],
];

function weighted<T>(items: ReadonlyArray<readonly [number, T]>, random: Random): T {
  const total = items.reduce((sum, [weight]) => sum + weight, 0);
  let target = random() * total;
  for (const [weight, item] of items) {
    target -= weight;
    if (target < 0) return item;
  }
  return (items.at(-1) as readonly [number, T])[1];
}

function listPath(facts: MixedFacts, random: Random): string {
  const parts: string[] = [];
  const tags = new Set<string>();
  for (const column of weighted(FILTER_SETS, random)) {
    const value =
      column === 'vendor'
        ? pickValue(facts.vendors, random)
        : column === 'status'
          ? pickValue(facts.statuses, random)
          : column === 'role'
            ? pickValue(facts.roles, random)
            : column === 'location_id'
              ? pickValue(facts.locations, random)
              : column === 'tags'
                ? pickValue(facts.tags, random)
                : String(Math.floor(random() * 10_000)).padStart(4, '0');
    if (column === 'tags') {
      if (tags.has(value)) continue;
      tags.add(value);
    }
    parts.push(`${column}=${encodeURIComponent(value)}`);
  }
  const sort = weighted(SORTS, random);
  if (sort) parts.push(sort);
  // Most users look at the first page; some page on, up to page 50.
  const page = random() < 0.6 ? 1 : 2 + Math.floor(random() * 49);
  if (page > 1) parts.push(`page=${page}`);
  parts.push(`limit=${weighted(LIMITS, random)}`);
  return `/devices?${parts.join('&')}`;
}

/** The n-th request of the mixed workload. */
export function mixedRequest(facts: MixedFacts, runTag: string, n: number): MixedRequest {
  const random = randomFor(n);
  const device = () => pickOne(facts.deviceIds, random);
  let roll = random() * 100;
  const take = (share: number) => {
    roll -= share;
    return roll < 0;
  };
  if (take(MIXED_SHARES.list))
    return { class: 'read', method: 'GET', path: listPath(facts, random) };
  if (take(MIXED_SHARES.read))
    return { class: 'read', method: 'GET', path: `/devices/${device()}` };
  if (take(MIXED_SHARES.interfaces)) {
    return { class: 'read', method: 'GET', path: `/interfaces?device_id=${device()}` };
  }
  if (take(MIXED_SHARES.patch)) {
    const change = pickOne(['vendor', 'status', 'location_id'] as const, random);
    const value =
      change === 'vendor'
        ? pickValue(facts.vendors, random)
        : change === 'status'
          ? pickValue(facts.statuses, random)
          : pickValue(facts.locations, random);
    return {
      class: 'write',
      write: 'PATCH',
      method: 'PATCH',
      path: `/devices/${device()}`,
      body: JSON.stringify({ [change]: value }),
    };
  }
  if (take(MIXED_SHARES.post)) {
    return {
      class: 'write',
      write: 'POST',
      method: 'POST',
      path: '/devices',
      body: JSON.stringify({
        hostname: `mixed-${runTag}-${n}.net.example`,
        ip: `10.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`,
        vendor: pickValue(facts.vendors, random),
        model: 'mixed',
        status: pickValue(facts.statuses, random),
        role: pickValue(facts.roles, random),
        location_id: pickValue(facts.locations, random),
      }),
    };
  }
  // A batch of 100 random devices (distinct, so one item per row).
  const ids = new Set<string>();
  while (ids.size < Math.min(BATCH_SIZE, facts.deviceIds.length)) ids.add(device());
  const status = pickValue(facts.statuses, random);
  return {
    class: 'write',
    write: 'batch PATCH',
    method: 'PATCH',
    path: '/devices',
    body: JSON.stringify([...ids].map((id) => ({ id, status }))),
  };
}

export interface MixedResult {
  reads: LoadResult;
  writes: LoadResult;
  /** The writes of each kind (errors and non-2xx counted with `writes`). */
  writesByKind: Record<WriteKind, LoadResult>;
  all: LoadResult;
}

export interface MixedLoadOptions {
  url: string;
  connections: number;
  durationSeconds: number;
  headers: Record<string, string>;
  next: () => MixedRequest;
}

function summary(latencies: number[], non2xx: number, errors: number, seconds: number): LoadResult {
  latencies.sort((a, b) => a - b);
  const at = (fraction: number) =>
    latencies.length === 0
      ? 0
      : Math.round(
          (latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * fraction))] ??
            0) * 10,
        ) / 10;
  return {
    requestsPerSecond: Math.round(latencies.length / seconds),
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    errors,
    non2xx,
    requests: latencies.length,
  };
}

/** What autocannon keeps per connection: the request in flight on it (one at a time). */
interface ConnectionContext {
  inFlight?: MixedRequest;
}

/**
 * Drives the mixed workload for `durationSeconds` with autocannon, as every other scenario is
 * driven; reads and writes measured apart. With one request in flight per connection, the
 * connection's context holds the request its next response answers, so each response's latency
 * goes to its own class. A connection error or a timeout names no connection: those are counted
 * with the reads (95 % of the requests), and in `all`.
 */
export async function driveMixed(options: MixedLoadOptions): Promise<MixedResult> {
  const latencies: Record<MixedClass, number[]> = { read: [], write: [] };
  const non2xx: Record<MixedClass, number> = { read: 0, write: 0 };
  const writeLatencies = Object.fromEntries(
    WRITE_KINDS.map((kind) => [kind, [] as number[]]),
  ) as Record<WriteKind, number[]>;
  let finished: (result: autocannon.Result) => void = () => {};
  let failed: (error: unknown) => void = () => {};
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    finished = resolve;
    failed = reject;
  });
  const instance = autocannon(
    {
      url: options.url,
      connections: options.connections,
      duration: options.durationSeconds,
      pipelining: 1,
      requests: [
        {
          setupRequest: (request, context: ConnectionContext) => {
            const next = options.next();
            context.inFlight = next;
            return withRequest(request, next, options.headers);
          },
        },
      ],
    },
    (error: unknown, result) => (error ? failed(error) : finished(result)),
  );
  instance.on('response', (client, status, _bytes, latency) => {
    const answered = (client as unknown as { requestIterator: { context: ConnectionContext } })
      .requestIterator.context.inFlight;
    if (answered === undefined) return;
    latencies[answered.class].push(latency);
    if (answered.write) writeLatencies[answered.write].push(latency);
    if (status < 200 || status >= 300) non2xx[answered.class] += 1;
  });
  const result = await done;
  const seconds = result.duration;
  return {
    reads: summary(latencies.read, non2xx.read, result.errors, seconds),
    writes: summary(latencies.write, non2xx.write, 0, seconds),
    writesByKind: Object.fromEntries(
      WRITE_KINDS.map((kind) => [kind, summary(writeLatencies[kind], 0, 0, seconds)]),
    ) as Record<WriteKind, LoadResult>,
    all: summary(
      [...latencies.read, ...latencies.write],
      non2xx.read + non2xx.write,
      result.errors,
      seconds,
    ),
  };
}
