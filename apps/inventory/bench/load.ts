import autocannon from 'autocannon';
import type { BenchRequest } from './scenarios.js';

/** One measured run of one scenario against one server. */
export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Connection errors and timeouts. */
  errors: number;
  non2xx: number;
  requests: number;
}

export interface LoadOptions {
  url: string;
  connections: number;
  durationSeconds: number;
  /** Send exactly this many requests instead of running for `durationSeconds`. */
  amount?: number;
  headers: Record<string, string>;
  /** Gives the n-th request; the counter lives with the caller so that it never repeats. */
  next: () => BenchRequest;
}

/** autocannon's `request` made into `next`: the run's headers, and a JSON body's content type. */
export function withRequest(
  request: autocannon.Request,
  { method, path, body }: BenchRequest,
  headers: Record<string, string>,
): autocannon.Request {
  return {
    ...request,
    method,
    path,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body }),
  };
}

/** Drives `url` with autocannon; every request is built afresh by `next`. */
export async function drive(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    ...(options.amount === undefined
      ? { duration: options.durationSeconds }
      : { amount: options.amount }),
    // One request in flight per connection, as a browser or a service client would.
    pipelining: 1,
    requests: [
      {
        setupRequest: (request) => withRequest(request, options.next(), options.headers),
      },
    ],
  });
  return {
    // A run of a fixed number of requests ends within a second: its per-second samples would
    // count that last partial second as a whole one.
    requestsPerSecond: Math.round(
      options.amount === undefined
        ? result.requests.average
        : result.requests.total / result.duration,
    ),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    requests: result.requests.total,
  };
}
