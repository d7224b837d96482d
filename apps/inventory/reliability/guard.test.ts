// The guards a hostile review asked for under attack: bodies read only where a route takes one,
// DNS rebinding refused, and the per-account login lock-out.
// 1. Four clients, each from its own loopback address (127.0.0.2-5), send the most expensive
//    bodies found (reliability/support/hostile-bodies.ts: 1 MB to routes that take no body and to
//    unknown URLs, the same content cut to the 16 KiB a public route reads) at their full rate
//    limit, while a fifth client's `GET /health` must keep p99 under 50 ms. The real service in
//    a process of its own; its CPU per hostile body comes from /proc.
// 8. Hostile Host headers: never a 5xx, only 421 or the route's answer.
// 10. Password guessing from many addresses at once against one account: bounded by the account
//    lock-out, the owner still signs in from a known address.
import { readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpuMsOf } from '../bench/cpu.js';
import { startSeededApp, TEST_PASSWORD } from '../test/helpers.js';
import { buildTestApp } from '../test/protections/helpers.js';
import { HOSTILE_BODIES } from './support/hostile-bodies.js';
import { CRASH_SIGNS, report, type ServerProcess, spawnServer } from './support/process-server.js';

const SOAK = process.env.SOAK === '1';
const figures: Record<string, unknown> = {};
afterAll(() => report(`guard${SOAK ? '-soak' : ''}`, figures));

interface Answer {
  status: number;
  ms: number;
}

/** One request through `agent`, body as given; the status and the time to the whole answer. */
function send(
  agent: Agent,
  url: URL,
  method: string,
  path: string,
  body?: Buffer,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const request = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        agent,
        headers: body ? { 'content-type': 'application/json', ...headers } : headers,
      },
      (response) => {
        response.resume();
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }),
        );
      },
    );
    // A server that answers before reading a body may close while it is being sent.
    request.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    request.end(body);
  });
}

/**
 * One hostile client (plain JavaScript, run in a worker thread): two connections from its own
 * loopback address, each sending the next body as soon as the last answer came back, so the
 * whole budget goes at once and then whatever the limit lets through; after a 429 it waits
 * 200 ms rather than spin. Posts its tally of statuses when the time is up.
 */
const ATTACKER = `
const { Agent, request } = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const { address, host, port, attackMs, targets } = workerData;
const agent = new Agent({ keepAlive: true, maxSockets: 2, localAddress: address });
const tally = {};
const started = Date.now();
const send = (target) => new Promise((resolve) => {
  const req = request({ host, port, method: 'POST', path: target.path, agent,
    headers: { 'content-type': 'application/json' } }, (res) => {
    res.resume();
    res.on('end', () => resolve(res.statusCode));
  });
  req.on('error', () => resolve(0));
  req.end(Buffer.from(target.body));
});
const lane = async (first) => {
  for (let i = first; Date.now() - started < attackMs; i += 2) {
    const status = await send(targets[i % targets.length]);
    tally[status] = (tally[status] || 0) + 1;
    if (status === 429) await new Promise((resolve) => setTimeout(resolve, 200));
  }
};
Promise.all([lane(0), lane(1)]).then(() => { agent.destroy(); parentPort.postMessage(tally); });
`;

/**
 * Runnable processes and threads on the machine (the fourth field of /proc/loadavg, this one
 * included), read every 100 ms for `durationMs`: the load as it is, where the load average trails
 * it by most of a minute. Nothing where /proc is not.
 */
async function runnableDuring(durationMs: number): Promise<number[]> {
  const samples: number[] = [];
  const from = performance.now();
  while (performance.now() - from < durationMs) {
    try {
      const running = Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[3]?.split('/')[0]);
      if (Number.isFinite(running)) samples.push(running);
    } catch {
      return samples;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return samples;
}

const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

// The service under attack runs on the embedded store in memory whatever TEST_DATABASE_URL says,
// so only a run without a database server floods it: CI's PostgreSQL pass would repeat it.
const describeWithoutDatabaseServer = describe.skipIf(Boolean(process.env.TEST_DATABASE_URL));

describeWithoutDatabaseServer('hostile bodies at the full rate limit of four clients', () => {
  const RATE_LIMIT = 100;
  const WINDOW_MS = SOAK ? 60_000 : 10_000;
  let server: ServerProcess;
  beforeAll(async () => {
    server = await spawnServer({
      env: {
        DATABASE_URL: 'memory://',
        RATE_LIMIT_MAX: String(RATE_LIMIT),
        RATE_LIMIT_WINDOW_MS: String(WINDOW_MS),
      },
    });
  });
  afterAll(() => server?.stop());

  it('keeps another client’s /health p99 within 50 ms of the machine’s own', async () => {
    const url = new URL(server.url);
    const megabyte = Object.entries(HOSTILE_BODIES).map(([name, build]) => ({
      name,
      body: Buffer.from(build()),
    }));
    // What a public route reads at most (16 KiB): the same content, cut to size.
    const small = [
      JSON.stringify({ username: `${'<'.repeat(16_000)}a`, password: 'x' }),
      JSON.stringify({ username: 'R&D '.repeat(4000), password: 'x' }),
      JSON.stringify({ username: '&CounterClockwiseContourIntegra '.repeat(500), password: 'x' }),
      `${'['.repeat(8000)}"R&D"${']'.repeat(8000)}`,
    ].map((text) => Buffer.from(text));
    const targets = [
      (i: number) => ({ path: '/users/logout', body: megabyte[i % megabyte.length]?.body }),
      (i: number) => ({ path: '/nowhere', body: megabyte[i % megabyte.length]?.body }),
      (i: number) => ({ path: '/users/login', body: small[i % small.length] }),
      (i: number) => ({ path: '/users/forgot-password', body: small[i % small.length] }),
      (i: number) => ({ path: '/users/login', body: megabyte[i % megabyte.length]?.body }),
    ];

    const attackMs = SOAK ? 120_000 : 12_000;
    const prober = async (durationMs: number) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1, localAddress: '127.0.0.1' });
      const latencies: number[] = [];
      const from = performance.now();
      while (performance.now() - from < durationMs) {
        const answer = await send(agent, url, 'GET', '/health');
        expect(answer.status).toBe(200);
        latencies.push(answer.ms);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      agent.destroy();
      return latencies;
    };
    // The machine's own noise first (it is shared: CI, or other suites running beside this one).
    const quiet = await prober(3000);
    const cpuBefore = cpuMsOf(server.pid) ?? 0;
    // Each client in a thread of its own, so that writing its megabytes never delays the probe.
    const attacks = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'].map(
      (address) =>
        new Promise<Record<string, number>>((resolve, reject) => {
          const worker = new Worker(ATTACKER, {
            eval: true,
            workerData: {
              address,
              host: url.hostname,
              port: Number(url.port),
              attackMs,
              targets: Array.from({ length: 20 }, (_, i) => targets[i % targets.length]?.(i)),
            },
          });
          worker.once('message', resolve);
          worker.once('error', reject);
        }),
    );
    const [latencies, runnable, ...tallies] = await Promise.all([
      prober(attackMs),
      runnableDuring(attackMs),
      ...attacks,
    ]);
    const statuses: Record<string, number> = {};
    for (const tally of tallies as Array<Record<string, number>>) {
      for (const [status, count] of Object.entries(tally)) {
        statuses[status] = (statuses[status] ?? 0) + count;
      }
    }
    const worked = Object.entries(statuses)
      .filter(([status]) => status !== '429')
      .reduce((sum, [, count]) => sum + count, 0);
    const cpuMs = (cpuMsOf(server.pid) ?? 0) - cpuBefore;
    const running = runnable as number[];
    const meanRunnable = running.reduce((sum, n) => sum + n, 0) / Math.max(1, running.length);
    const loadPerCore = Math.max(
      1,
      (loadavg()[0] ?? 0) / cpus().length,
      meanRunnable / cpus().length,
    );
    const health = latencies as number[];
    figures.hostileBodies = {
      attackMs,
      windowMs: WINDOW_MS,
      rateLimit: RATE_LIMIT,
      statuses,
      bodiesAnsweredWithoutLimit: worked,
      serverCpuMs: cpuMs,
      serverCpuMsPerBody: Number((cpuMs / Math.max(1, worked)).toFixed(2)),
      loadPerCore: Number(loadPerCore.toFixed(1)),
      healthWithoutAttack: {
        probes: quiet.length,
        p50: Number(percentile(quiet, 50).toFixed(1)),
        p99: Number(percentile(quiet, 99).toFixed(1)),
      },
      runnableDuringAttack: Number(meanRunnable.toFixed(1)),
      health: {
        probes: health.length,
        p50: Number(percentile(health, 50).toFixed(1)),
        p99: Number(percentile(health, 99).toFixed(1)),
        max: Number(percentile(health, 100).toFixed(1)),
      },
    };
    // Every client spent its budget on bodies the service had to answer.
    expect(worked).toBeGreaterThanOrEqual(4 * RATE_LIMIT);
    expect(statuses['500'] ?? 0).toBe(0);
    // What one hostile body costs the service: the bound for a 1 MB value is 20 ms.
    expect(cpuMs / worked).toBeLessThan(20);
    // 50 ms on an idle machine. A shared one (CI beside other jobs, or the other suites running)
    // gives the service only its share of the cores: the bound grows with the load per core, and
    // beyond 4 runnable processes per core the scheduler, not the service, sets the latency (the
    // figures are still reported; the CPU bound above holds whatever the load). The machine's
    // own noise, measured before the attack, is added: the load average lags a 12 s attack by
    // most of a minute, and a p99 of 14 ms without any attack was seen beside 52 ms under it.
    // For that lag the load per core is also read during the attack (runnableDuring): suites
    // starting beside this one had loaded the machine after the quiet measure and before the
    // load average showed it (62 and 75 ms against bounds of 56 and 69 on CI).
    const bound = 50 * loadPerCore + percentile(quiet, 99);
    if (loadPerCore <= 4) expect(percentile(health, 99)).toBeLessThan(bound);
    else
      console.info(`[inventory-reliability] /health p99 not judged: load ${loadPerCore} per core`);
    expect(server.running()).toBe(true);
    expect(server.output()).not.toMatch(CRASH_SIGNS);
  });
});

describe('hostile Host headers', () => {
  it('answers every one 421 or as the route does, never 5xx', async () => {
    const app = await buildTestApp({ env: { RATE_LIMIT_MAX: '0', ALLOWED_HOSTS: 'inv.example' } });
    const tally: Record<string, number> = {};
    const hostChars = fc.constantFrom(
      ...'aZ09.-_:[]@%/ \t\u00e9\u0000*'.split(''),
      '::1',
      'localhost',
    );
    const host = fc.oneof(
      fc.array(hostChars, { maxLength: 40 }).map((parts) => parts.join('')),
      fc.string({ unit: 'binary', maxLength: 60 }),
      fc.constantFrom('inv.example.', 'INV.EXAMPLE:80', '[::1]:1', '127.1', '0x7f.1', 'localhost.'),
    );
    await fc.assert(
      fc.asyncProperty(host, async (value) => {
        let status: number;
        try {
          status = (await app.inject({ url: '/hello', headers: { host: value } })).statusCode;
        } catch {
          // light-my-request refuses some header values itself, as Node's parser would.
          return;
        }
        tally[status] = (tally[status] ?? 0) + 1;
        expect([200, 421]).toContain(status);
      }),
      { numRuns: SOAK ? 20_000 : 500 },
    );
    figures.hostHeaders = tally;
    await app.close();
  });
});

describe('password guessing from many addresses at once', () => {
  it('evaluates the account’s free failures only; its owner still signs in from home', async () => {
    const { app, store } = await startSeededApp({ rateLimitMax: 100 });
    const login = (password: string, address: string) =>
      app.inject({
        method: 'POST',
        url: '/users/login',
        payload: { username: 'admin', password },
        remoteAddress: address,
      });
    expect((await login(TEST_PASSWORD, '203.0.113.1')).statusCode).toBe(200);
    const guesses = SOAK ? 5000 : 500;
    const answers = await Promise.all(
      Array.from({ length: guesses }, (_, i) =>
        login(`guess-${i}`, `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`),
      ),
    );
    const tally: Record<string, number> = {};
    for (const answer of answers) tally[answer.statusCode] = (tally[answer.statusCode] ?? 0) + 1;
    const audited = await store.db
      .selectFrom('audit_logs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('action', '=', 'login_failed')
      .executeTakeFirstOrThrow();
    const home = await login(TEST_PASSWORD, '203.0.113.1');
    figures.distributedGuessing = {
      guesses,
      answers: tally,
      evaluated: Number(audited.n),
      ownerFromHome: home.statusCode,
    };
    expect(tally).toEqual({ 401: 20, 429: guesses - 20 });
    expect(Number(audited.n)).toBe(20);
    expect(home.statusCode).toBe(200);
    await app.close();
    await store.close();
  });
});
