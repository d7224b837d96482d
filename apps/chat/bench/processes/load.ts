/**
 * The load generator, in a process of its own: autocannon with the job in BENCH_JOB (see
 * LoadJob). Latencies are taken from each response's own time (autocannon's histogram keeps
 * whole milliseconds, too coarse to compare a login with the provider it calls).
 */
import autocannon from 'autocannon';
import type { LoadJob, LoadResult } from './shared.js';

const job = JSON.parse(process.env.BENCH_JOB ?? '{}') as LoadJob;
let next = 0;
const latencies: number[] = [];
const statuses: Record<string, number> = {};

const instance = autocannon(
  {
    url: job.url,
    connections: job.connections,
    ...(job.amount ? { amount: job.amount } : { duration: job.durationSeconds }),
    requests: [
      {
        method: job.method,
        setupRequest: (request) => {
          const variant = job.variants[next++ % job.variants.length];
          return {
            ...request,
            headers: { ...request.headers, ...variant?.headers },
            ...(variant?.body !== undefined ? { body: variant.body } : {}),
          };
        },
      },
    ],
  },
  (error, result) => {
    if (error) throw error;
    report(result);
  },
);
instance.on(
  'response',
  (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    else statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
  },
);
function report(result: autocannon.Result): void {
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  const round = (ms: number) => Math.round(ms * 100) / 100;
  const seconds = result.duration;
  const answer: LoadResult = {
    requests: result.requests.total,
    requestsPerSecond: Math.round(result.requests.total / seconds),
    p50Ms: round(at(0.5)),
    p90Ms: round(at(0.9)),
    p99Ms: round(at(0.99)),
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statuses,
  };
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}
