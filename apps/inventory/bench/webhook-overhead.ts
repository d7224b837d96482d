import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openStore } from '@netops/store';
import { sql } from 'kysely';
import { cpuMeter } from './cpu.js';
import { drive, type LoadResult } from './load.js';
import { startInventoryServer } from './processes.js';

/**
 * `npm run bench:webhooks -- [--database-url URL] [--connections C] [--duration S] [--rounds R]`
 * (README "Webhooks"): what one matching webhook adds to a write. The real server on
 * PostgreSQL (a database of its own, dropped and recreated) and a receiver answering 204 at once;
 * PATCH /devices/{id} driven without any webhook and with one enabled webhook matching every
 * change, alternately (R rounds each, so drift in a shared machine's load hits both variants), in
 * one run, in two modes: the write path alone (the server runs with WEBHOOK_WORKER=off: the
 * outbox row is written, another instance would deliver it), and with the same process
 * delivering meanwhile (its CPU then includes the deliveries, waited for after each round).
 * Writes its figures to bench/results/webhook-overhead-<time>.json.
 */
const USAGE = `Usage: npm run bench:webhooks -- [options]
  --database-url URL   PostgreSQL database to use, dropped and recreated
                       (default postgres://postgres@127.0.0.1:5432/inventory_bench_hooks)
  --connections C      concurrent connections (default 8)
  --duration S         measured seconds per round (default 8)
  --rounds R           rounds of each variant, alternating (default 3)
  --help`;

const RESULTS_DIR = fileURLToPath(new URL('results', import.meta.url));
const PASSWORD = 'bench-password-not-secret';
const DEVICES = 500;

const { values } = parseArgs({
  options: {
    'database-url': {
      type: 'string',
      default: 'postgres://postgres@127.0.0.1:5432/inventory_bench_hooks',
    },
    connections: { type: 'string', default: '8' },
    duration: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '3' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const databaseUrl = String(values['database-url']);
const connections = Number(values.connections);
const durationSeconds = Number(values.duration);
const rounds = Number(values.rounds);

async function recreateDatabase(url: string) {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!name || name === 'postgres')
    throw new Error('--database-url must name a database of its own');
  target.pathname = '/postgres';
  const admin = await openStore<unknown>({ databaseUrl: target.toString(), dataDir: '' });
  try {
    await sql`DROP DATABASE IF EXISTS ${sql.id(name)} WITH (FORCE)`.execute(admin.db);
    await sql`CREATE DATABASE ${sql.id(name)}`.execute(admin.db);
  } finally {
    await admin.close();
  }
}

let received = 0;

async function main() {
  const receiverUrl = await startReceiver();
  const modes = [];
  // The write path alone (the outbox row written by the change's transaction), deliveries left
  // to other instances (WEBHOOK_WORKER=off); then with this instance delivering meanwhile.
  for (const worker of [false, true]) {
    await recreateDatabase(databaseUrl);
    modes.push(await measureMode(receiverUrl, worker));
  }
  const report = {
    connections,
    durationSeconds,
    rounds,
    modes: modes.map((mode) => mode.summary),
    loadAverageAtEnd: loadavg()
      .map((n) => n.toFixed(2))
      .join(' '),
  };
  console.log(JSON.stringify(report, null, 2));
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(
    `${RESULTS_DIR}/webhook-overhead-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
    `${JSON.stringify({ report, rounds: modes.map((mode) => mode.results) }, null, 2)}\n`,
  );
  process.exit(0);
}

async function startReceiver(): Promise<string> {
  const receiver = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received += 1;
      response.writeHead(204).end();
    });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  return `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
}

async function measureMode(receiverUrl: string, worker: boolean) {
  const mode = worker
    ? 'outbox + delivering in the same process'
    : 'outbox only (WEBHOOK_WORKER=off)';
  const server = await startInventoryServer({
    env: {
      DATABASE_URL: databaseUrl,
      JWT_SECRET: 'bench-jwt-secret-that-is-long-enough-for-hs256',
      SEED_PASSWORD: PASSWORD,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: '0',
      ARGON2_MEMORY_COST: '1024',
      ARGON2_TIME_COST: '1',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_WORKER: worker ? 'on' : 'off',
    },
  });
  try {
    const call = async (method: string, path: string, body?: unknown, token?: string) => {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (response.status >= 300)
        throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
      return response.json() as Promise<Record<string, unknown>>;
    };
    const { token } = (await call('POST', '/users/login', {
      username: 'admin',
      password: PASSWORD,
    })) as { token: string };
    const created = (await call(
      'POST',
      '/devices',
      Array.from({ length: DEVICES }, (_, n) => ({ hostname: `bench-hook-${n}`, ip: '192.0.2.1' })),
      token,
    )) as unknown as Array<{ id: string }>;
    const ids = created.map((row) => row.id);
    const hook = await call(
      'POST',
      '/webhooks',
      {
        name: 'bench',
        url: receiverUrl,
        secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        enabled: false,
      },
      token,
    );

    let counter = 0;
    const next = () => {
      counter += 1;
      return {
        method: 'PATCH' as const,
        path: `/devices/${ids[counter % ids.length]}`,
        body: JSON.stringify({ rack_position: `R${counter}` }),
      };
    };
    const headers = { authorization: `Bearer ${token}` };
    const measure = async (variant: 'without' | 'with') => {
      await call('PATCH', `/webhooks/${hook.id}`, { enabled: variant === 'with' }, token);
      await drive({ url: server.url, connections, durationSeconds: 1, headers, next }); // warm-up
      const before = received;
      const meter = cpuMeter([server.pid]);
      const result = await drive({ url: server.url, connections, durationSeconds, headers, next });
      // Deliveries still queued are the write's cost too: wait for them before reading the CPU.
      const target = before + (variant === 'with' && worker ? result.requests - result.non2xx : 0);
      for (let waited = 0; received < target && waited < 30_000; waited += 100) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const cpuMs = meter.stop() ?? Number.NaN;
      return {
        variant,
        ...result,
        delivered: received - before,
        cpuMsPerWrite: cpuMs / Math.max(1, result.requests),
        load: loadavg()[0]?.toFixed(2),
      };
    };
    const results: Array<
      LoadResult & { variant: string; delivered: number; cpuMsPerWrite: number; load?: string }
    > = [];
    for (let round = 0; round < rounds; round++) {
      results.push(await measure('without'));
      results.push(await measure('with'));
    }
    const mean = (variant: string, pick: (r: (typeof results)[number]) => number) => {
      const chosen = results.filter((r) => r.variant === variant);
      return chosen.reduce((sum, r) => sum + pick(r), 0) / chosen.length;
    };
    const rpsWithout = mean('without', (r) => r.requestsPerSecond);
    const rpsWith = mean('with', (r) => r.requestsPerSecond);
    const p50Without = mean('without', (r) => r.p50Ms);
    const p50With = mean('with', (r) => r.p50Ms);
    const summary = {
      mode,
      rpsWithout: Math.round(rpsWithout),
      rpsWith: Math.round(rpsWith),
      // What a write costs with the webhook, relative to without (1.20 = 20 % more).
      costRatioByThroughput: Number((rpsWithout / rpsWith).toFixed(3)),
      costRatioByP50: Number((p50With / p50Without).toFixed(3)),
      // Server CPU per write, deliveries included when this instance makes them.
      cpuMsPerWriteWithout: Number(mean('without', (r) => r.cpuMsPerWrite).toFixed(3)),
      cpuMsPerWriteWith: Number(mean('with', (r) => r.cpuMsPerWrite).toFixed(3)),
      costRatioByCpu: Number(
        (mean('with', (r) => r.cpuMsPerWrite) / mean('without', (r) => r.cpuMsPerWrite)).toFixed(3),
      ),
      non2xx: results.reduce((sum, r) => sum + r.non2xx + r.errors, 0),
    };
    console.log(`\n${mode}`);
    for (const r of results) {
      console.log(
        `${r.variant.padEnd(8)} ${String(r.requestsPerSecond).padStart(6)} req/s  p50 ${r.p50Ms} ms  p99 ${r.p99Ms} ms  cpu/write ${r.cpuMsPerWrite.toFixed(2)} ms  delivered ${r.delivered}  load ${r.load}`,
      );
    }
    return { summary, results };
  } finally {
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
