import { Agent, request } from 'node:http';
import type { LoadResult } from './load.js';

/** One kind of request a single user makes, with the headers it carries. */
export interface OneUserRequest {
  path: string;
  headers: Record<string, string>;
}

/**
 * One user on one keep-alive connection, waiting for each answer before the next request:
 * latency as a person clicking through pages sees it, with no queueing behind other clients.
 * The requests take turns (page, baseline, page, baseline…), so a burst of load from elsewhere on
 * the machine falls on both alike and their ratio stays meaningful on a shared machine.
 */
export async function measureOneUser(options: {
  url: string;
  requests: readonly OneUserRequest[];
  durationSeconds: number;
  warmupSeconds: number;
}): Promise<LoadResult[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const base = new URL(options.url);
  const once = (wanted: OneUserRequest) =>
    new Promise<{ status: number; ms: number }>((resolve, reject) => {
      const sent = performance.now();
      const outgoing = request(
        {
          agent,
          host: base.hostname,
          port: base.port,
          path: wanted.path,
          method: 'GET',
          headers: { ...wanted.headers, 'accept-encoding': 'identity' },
        },
        (response) => {
          response.on('data', () => {});
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, ms: performance.now() - sent }),
          );
          response.on('error', reject);
        },
      );
      outgoing.on('error', reject);
      outgoing.end();
    });
  const run = async (seconds: number) => {
    const latencies = options.requests.map(() => [] as number[]);
    const failures = options.requests.map(() => ({ errors: 0, non2xx: 0 }));
    const started = performance.now();
    while (performance.now() - started < seconds * 1000) {
      for (const [index, wanted] of options.requests.entries()) {
        try {
          const { status, ms } = await once(wanted);
          latencies[index]?.push(ms);
          if (status < 200 || status >= 300) (failures[index] as { non2xx: number }).non2xx += 1;
        } catch {
          (failures[index] as { errors: number }).errors += 1;
        }
      }
    }
    const elapsed = (performance.now() - started) / 1000;
    return latencies.map((measured, index): LoadResult => {
      const sorted = [...measured].sort((a, b) => a - b);
      const at = (quantile: number) =>
        sorted.length === 0
          ? 0
          : Math.round(
              (sorted[Math.min(sorted.length - 1, Math.floor(quantile * sorted.length))] ?? 0) *
                100,
            ) / 100;
      return {
        requestsPerSecond: Math.round((measured.length / elapsed) * 100) / 100,
        p50Ms: at(0.5),
        p99Ms: at(0.99),
        errors: failures[index]?.errors ?? 0,
        non2xx: failures[index]?.non2xx ?? 0,
        requests: measured.length,
      };
    });
  };
  try {
    if (options.warmupSeconds > 0) await run(options.warmupSeconds);
    return await run(options.durationSeconds);
  } finally {
    agent.destroy();
  }
}
