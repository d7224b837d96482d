/** What the benchmark's processes agree on. */

/** The Twitter account id of bench user `i` (its token is `${id}-tw-token`). */
export const benchTwitterId = (i: number) => String(100_000 + i);

/** One load run, as the orchestrator hands it to the load generator (JSON in BENCH_JOB). */
export interface LoadJob {
  url: string;
  method: 'GET' | 'POST';
  /** Requests are sent with these, in turn (one per request, cycling). */
  variants: Array<{ headers: Record<string, string>; body?: string }>;
  connections: number;
  durationSeconds: number;
  /** A fixed number of requests instead of a duration (warm-up). */
  amount?: number;
}

/** The load generator's answer: one JSON line on stdout. */
export interface LoadResult {
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Status codes other than 2xx, with counts. */
  statuses: Record<string, number>;
}
