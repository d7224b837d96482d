// One receiver that never answers must not stall the others: the worker limits the deliveries
// in flight per webhook, claims round-robin between webhooks, and backs off a failing target
// (RELIABILITY.md, "An outside review"). Run on the store the run is configured for (PGlite, or
// a throwaway PostgreSQL database when TEST_DATABASE_URL is set).
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_WEBHOOK_SETTINGS } from '../src/webhooks/worker.js';
import { startTestApp, type TestContext } from '../test/helpers.js';

const DELIVERIES = 40;
/** The healthy receiver's answer time: slow enough that slots matter, as a real receiver's do. */
const HEALTHY_ANSWER_MS = 40;

/** A receiver that answers after `answerMs`, or never (a tarpit) when `answerMs` is undefined. */
async function receiver(answerMs: number | undefined) {
  let received = 0;
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (answerMs === undefined) {
        open.add(response);
        return;
      }
      setTimeout(() => {
        received++;
        response.writeHead(204).end();
      }, answerMs);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received: () => received,
    reset: () => {
      received = 0;
    },
    close: () => {
      for (const response of open) response.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('webhook delivery fairness', () => {
  let ctx: TestContext;
  let healthy: Awaited<ReturnType<typeof receiver>>;
  let tarpit: Awaited<ReturnType<typeof receiver>>;
  let batch = 0;

  beforeAll(async () => {
    ctx = await startTestApp({
      webhooks: {
        ...DEFAULT_WEBHOOK_SETTINGS,
        allowPrivateTargets: true,
        secretKey: undefined,
        pollMs: 200,
        timeoutMs: 3000,
        leaseMs: 10_000,
        firstRetryDelayMs: 1000,
      },
    });
    healthy = await receiver(HEALTHY_ANSWER_MS);
    tarpit = await receiver(undefined);
  });
  afterAll(async () => {
    await ctx?.close();
    await healthy?.close();
    await tarpit?.close();
  });

  const hook = async (name: string, url: string) => {
    const response = await ctx.as('admin', {
      method: 'POST',
      url: '/webhooks',
      payload: { name, url, resources: ['devices'] },
    });
    expect(response.statusCode, response.body).toBe(201);
  };

  /** One bulk create of DELIVERIES devices; the time until the healthy receiver had them all. */
  const timeHealthy = async () => {
    healthy.reset();
    batch++;
    const started = performance.now();
    const response = await ctx.as('admin', {
      method: 'POST',
      url: '/devices',
      payload: Array.from({ length: DELIVERIES }, (_, n) => ({
        hostname: `fair-${batch}-${n}`,
        ip: '192.0.2.1',
      })),
    });
    expect(response.statusCode, response.body).toBe(201);
    while (healthy.received() < DELIVERIES) {
      if (performance.now() - started > 60_000) throw new Error('healthy deliveries stalled');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return performance.now() - started;
  };

  it('delivers to a healthy receiver beside a tarpit within 1.5x of its time alone', async () => {
    await hook('healthy', healthy.url);
    await timeHealthy(); // warm-up: connections, plans, caches
    const alone = Math.min(await timeHealthy(), await timeHealthy());
    await hook('tarpit', tarpit.url);
    // The tarpit's backlog first, so its deliveries are ahead in commit order and its retries
    // come due during the measured batch.
    await timeHealthy();
    const beside = await timeHealthy();
    console.info(
      JSON.stringify({
        check: 'webhook fairness',
        deliveries: DELIVERIES,
        aloneMs: Math.round(alone),
        besideTarpitMs: Math.round(beside),
        ratio: Number((beside / alone).toFixed(2)),
      }),
    );
    expect(beside).toBeLessThanOrEqual(alone * 1.5);
  });
});
