import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from '../test/support/accounts.js';
import {
  FAULT_OUTCOMES,
  SERVICES,
  type ServiceName,
  TIMEOUT_FAULTS,
} from '../test/support/faults.js';
import { Harness, type LoginBody, listen, loginBody, postLogin } from '../test/support/harness.js';
import {
  type Distribution,
  distribution,
  openSockets,
  report,
  retainedHeapMiB,
  rssMiB,
  SOAK,
  scale,
  settle,
  tcpConnections,
  timed,
  total,
} from './support/measure.js';

/**
 * A provider that is slow, stalls, resets connections, answers 5xx, invalid JSON, the
 * wrong shape, an enormous body or a redirect loop. Each fault is injected under load (bursts of
 * concurrent logins over a listening server, every service in turn), repeatedly; each login must
 * get the documented 502/504 in the error shape, fast, and the service must stay healthy: normal
 * logins work at once, memory stays bounded, and no socket is left open once keep-alive idles out.
 */
/** The budget of the app the timeout faults run against: short, so the suite stays quick. */
const TIMEOUT_MS = 1_000;
/**
 * Every other fault runs against the production budget: it must be answered without waiting for
 * it, and `max < PRODUCTION_TIMEOUT_MS / 2` shows that even on a loaded CI machine.
 */
const PRODUCTION_TIMEOUT_MS = 5_000;
const MAX_BYTES = 256 * 1024;
const CONCURRENCY = scale(20, 100);
const ROUNDS = scale(3, 10);
/** Refusals (401) count towards the lock-out; they are the token tests' business. */
/**
 * How long after the budget a timed-out login may be answered. The service, the fake provider and
 * the load generator share one process, so with 100 logins at once the answers queue behind each
 * other's work a little (the soak measured at most +70 ms). It was 8 s in the soak while the
 * lock-out's wait for a slot was not part of the budget (README.md, "Lock-out").
 */
const TIMEOUT_SLACK_MS = 1_500;
const PROVIDER_FAULTS = FAULT_OUTCOMES.filter(([fault]) => fault !== 'refuse');

let h: Harness;
/** One service per budget, on one store and one fake provider. */
const bases = { short: '', production: '' };
const servicePorts: number[] = [];
let providerPort: number;
const bodies = new Map<ServiceName, LoginBody>();
const baseline = { rss: 0, heap: 0, sockets: 0 };
const figures: Record<string, unknown>[] = [];

const connectionsTo = (port: number) => total(tcpConnections(port));
const serviceConnections = () => servicePorts.reduce((sum, port) => sum + connectionsTo(port), 0);

beforeAll(async () => {
  h = await Harness.open();
  for (const [budget, timeoutMs] of [
    ['short', TIMEOUT_MS],
    ['production', PRODUCTION_TIMEOUT_MS],
  ] as const) {
    const app = await h.app({ provider: { timeoutMs, maxBytes: MAX_BYTES } });
    bases[budget] = await listen(app);
    servicePorts.push(Number(new URL(bases[budget]).port));
  }
  providerPort = Number(new URL(h.fake.url).port);
  for (const service of SERVICES) {
    bodies.set(service, { ...loginBody(service, ''), ...accounts[service](h.fake) });
  }
  // Warm up (OIDC discovery cached, code paths compiled), then let every connection idle out.
  for (const base of Object.values(bases)) {
    for (const service of SERVICES) {
      expect((await postLogin(base, bodies.get(service))).status).toBe(200);
    }
  }
  await settle(
    () => connectionsTo(providerPort) + serviceConnections(),
    (n) => n === 0,
    10_000,
  );
  baseline.rss = rssMiB();
  baseline.heap = retainedHeapMiB();
  baseline.sockets = openSockets().fds ?? 0;
});

afterAll(async () => {
  report('provider-faults', {
    timeoutMs: { timeoutFaults: TIMEOUT_MS, otherFaults: PRODUCTION_TIMEOUT_MS },
    maxBytes: MAX_BYTES,
    concurrency: CONCURRENCY,
    rounds: ROUNDS,
    baseline,
    faults: figures,
  });
  await h?.close();
});

interface Outcome {
  status: number;
  body: unknown;
  ms: number;
}

async function burst(base: string, count: number): Promise<Outcome[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const service = SERVICES[i % SERVICES.length] as ServiceName;
      const { value, ms } = await timed(async () => {
        const response = await postLogin(base, bodies.get(service));
        return { status: response.status, body: (await response.json()) as unknown };
      });
      return { ...value, ms };
    }),
  );
}

describe('provider faults under load', () => {
  it.each(PROVIDER_FAULTS)(
    '%s -> %i %s, fast, and the service stays healthy',
    async (fault, status, code) => {
      const timesOut = TIMEOUT_FAULTS.includes(fault);
      const base = timesOut ? bases.short : bases.production;
      const rssBefore = rssMiB();
      h.fake.fault = fault;
      h.fake.slowMs = TIMEOUT_MS * 3;
      const outcomes: Outcome[] = [];
      let peakProviderConnections = 0;
      for (let round = 0; round < ROUNDS; round++) {
        outcomes.push(...(await burst(base, CONCURRENCY)));
        peakProviderConnections = Math.max(peakProviderConnections, connectionsTo(providerPort));
      }
      h.fake.fault = undefined;

      const statuses: Record<number, number> = {};
      for (const outcome of outcomes)
        statuses[outcome.status] = (statuses[outcome.status] ?? 0) + 1;
      const latency: Distribution = distribution(outcomes.map((outcome) => outcome.ms));

      // Healthy afterwards: every service signs in at once, /health answers.
      const recovery = await Promise.all(
        SERVICES.map((service) => timed(() => postLogin(base, bodies.get(service)))),
      );
      const health = await fetch(`${base}/health`);
      figures.push({
        fault,
        expected: `${status} ${code}`,
        requests: outcomes.length,
        statuses,
        latencyMs: latency,
        recoveryMs: Math.round(Math.max(...recovery.map((r) => r.ms))),
        rssMiB: { before: rssBefore, after: rssMiB() },
        peakProviderConnections,
      });

      expect(statuses).toEqual({ [status]: outcomes.length });
      for (const outcome of outcomes) {
        expect(outcome.body).toEqual({ status: 'error', error: code, message: expect.any(String) });
      }
      if (timesOut) {
        // Answered when the budget is spent: not before, and not much after.
        expect(latency.min).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
        expect(latency.max).toBeLessThan(TIMEOUT_MS + TIMEOUT_SLACK_MS);
      } else {
        // Answered without waiting for the timeout.
        // (In the soak, 100 at once beside three other busy test files: within the budget itself.)
        expect(latency.max).toBeLessThan(SOAK ? PRODUCTION_TIMEOUT_MS : PRODUCTION_TIMEOUT_MS / 2);
      }
      expect(recovery.map((r) => r.value.status)).toEqual(SERVICES.map(() => 200));
      expect(health.status).toBe(200);
    },
  );

  it('leaves no socket open and memory bounded once the faults are over', async () => {
    const provider = await settle(
      () => connectionsTo(providerPort),
      (n) => n === 0,
      12_000,
    );
    const service = await settle(serviceConnections, (n) => n === 0, 12_000);
    const sockets = openSockets();
    const rss = rssMiB();
    const heap = retainedHeapMiB();
    figures.push({
      after: 'all faults, keep-alive idled out',
      providerConnections: provider,
      serviceConnections: service,
      socketFds: { before: baseline.sockets, after: sockets.fds },
      tcpHandles: sockets.tcpHandles,
      rssMiB: { before: baseline.rss, after: rss },
      retainedHeapMiB: { before: baseline.heap, after: heap },
    });
    expect(provider).toBe(0);
    expect(service).toBe(0);
    // The store's pool (PostgreSQL) may hold a few more connections than after the warm-up.
    if (sockets.fds !== undefined) expect(sockets.fds).toBeLessThanOrEqual(baseline.sockets + 10);
    // Every 8 MiB answer was cut off at 256 KiB: nothing near the bytes offered stays in memory
    // (480 / 8000 faulty logins: 3.75 / 62.5 GiB offered). What is retained after a collection
    // must not grow with the number of faults; RSS may, as the heap grows, within a bound.
    expect(heap - baseline.heap).toBeLessThan(32);
    expect(rss - baseline.rss).toBeLessThan(SOAK ? 300 : 150);
    const response = await postLogin(bases.production, bodies.get('github'));
    expect(response.status).toBe(200);
  });
});
