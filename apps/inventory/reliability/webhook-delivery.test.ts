// The webhooks' delivery guarantees under faults: SIGKILL of the real service (its own process)
// with deliveries pending, on the run's store (embedded, or PostgreSQL); two instances sharing
// PostgreSQL; and this repository's capture tool (apps/webhook, --json) as the receiver, as a
// user would. Each check counts deliveries made, duplicated and lost (RELIABILITY.md, "Webhooks").
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate, openStore, type Store } from '@netops/store';
import { createThrowawayDatabase } from '@netops/store/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { PasswordHasher } from '../src/auth/passwords.js';
import { seedInitialAccounts } from '../src/auth/users.js';
import { type Database, MIGRATIONS_FOLDER } from '../src/db/schema.js';
import { DEFAULT_WEBHOOK_SETTINGS } from '../src/webhooks/worker.js';
import { login, startTestApp, TEST_HASHING, TEST_PASSWORD, testConfig } from '../test/helpers.js';
import { CRASH_SIGNS, loginAs, report, spawnServer } from './support/process-server.js';

const databaseServer = process.env.TEST_DATABASE_URL;
const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const JWT_SECRET = 'a-reliability-jwt-secret-long-enough-for-hs256';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Delivery {
  id: string;
  event: string;
  resourceId: string;
  value: string | null;
}

/** A real receiver that answers after `delayMs`, keeping every delivery it accepted. */
async function slowReceiver(delayMs: number) {
  const received: Delivery[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      setTimeout(() => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        received.push({
          id: String(request.headers['webhook-id']),
          event: body.event,
          resourceId: body.id,
          value: body.data?.rack_position ?? body.data?.name ?? null,
        });
        response.writeHead(204).end();
      }, delayMs);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

const api =
  (baseUrl: string, token: string) => async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
    return {
      status: response.status,
      json: (await response.json().catch(() => null)) as Record<string, unknown>,
    };
  };

// The store the run's other tests use: the embedded one, or PostgreSQL in a run with a database
// server (whose embedded case the run without one already covers).
const stores = databaseServer
  ? [{ name: 'postgres', postgres: true }]
  : [{ name: 'embedded', postgres: false }];

describe.each(stores)('SIGKILL with webhook deliveries pending ($name)', ({ name, postgres }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'inventory-hooks-kill-'));
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers every committed change at least once after a restart, and invents none', async () => {
    let env: Record<string, string> = { DATA_DIR: dataDir };
    let databaseUrl: string | undefined;
    if (postgres) {
      const database = await createThrowawayDatabase(databaseServer ?? '');
      cleanups.push(database.drop);
      databaseUrl = database.url;
      env = { DATABASE_URL: database.url, JWT_SECRET };
    }
    env = {
      ...env,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_TIMEOUT: '2',
      WEBHOOK_LEASE: '3',
      WEBHOOK_FIRST_RETRY: '1',
    };
    // Slow enough that deliveries queue up behind the writes.
    const receiver = await slowReceiver(120);
    cleanups.push(receiver.close);
    let server = await spawnServer({ env });
    cleanups.push(() => server.stop());
    let call = api(server.url, await loginAs(server.url));
    const hook = await call('POST', '/webhooks', {
      name: 'kill',
      url: receiver.url,
      secret: SECRET,
    });
    expect(hook.status).toBe(201);

    const devices: string[] = [];
    for (let n = 0; n < 4; n++) {
      const created = await call('POST', '/devices', {
        hostname: `kill-${name}-${n}`,
        ip: '192.0.2.1',
      });
      expect(created.status).toBe(201);
      devices.push(String(created.json.id));
    }
    const sent = new Set<string>();
    const acknowledged = new Set<string>();
    let stopping = false;
    const writers = devices.map(async (id, worker) => {
      for (let n = 0; !stopping; n++) {
        const value = `w${worker}-${n}`;
        sent.add(value);
        try {
          const response = await call('PATCH', `/devices/${id}`, { rack_position: value });
          if (response.status === 200) acknowledged.add(value);
        } catch {
          return;
        }
      }
    });
    await until(() => acknowledged.size >= 60, 60_000, '60 acknowledged writes');
    server.child.kill('SIGKILL');
    stopping = true;
    await server.exited;
    await Promise.all(writers);
    const receivedAtKill = receiver.received.length;

    server = await spawnServer({ env });
    call = api(server.url, await loginAs(server.url));
    await until(
      () => [...acknowledged].every((value) => receiver.received.some((d) => d.value === value)),
      90_000,
      'every acknowledged change delivered',
    );
    // What the outbox holds once the worker is done: every row delivered.
    await sleep(1500);
    // Graceful shutdown stops the worker cleanly: exit code 0, nothing unhandled.
    await server.stop();
    expect((await server.exited).code).toBe(0);
    expect(server.output()).not.toMatch(CRASH_SIGNS);

    const store = await openStore<Database>({ databaseUrl, dataDir });
    cleanups.push(() => store.close());
    const outbox = await store.scriptTransaction((tx) =>
      tx.query<{ id: string; state: string; audit_id: string }>(
        'SELECT id, state, audit_id FROM webhook_deliveries',
      ),
    );
    const audited = await store.scriptTransaction((tx) =>
      tx.query<{ id: string }>(
        "SELECT id FROM audit_logs WHERE resource_type = 'devices' AND action IN ('create', 'update', 'replace', 'delete')",
      ),
    );
    const outboxIds = new Set(outbox.map((row) => row.id));
    const receivedIds = new Set(receiver.received.map((d) => d.id));
    const auditWithDelivery = new Set(outbox.map((row) => row.audit_id));
    const lost = outbox.filter((row) => !receivedIds.has(row.id)).length;
    const invented = receiver.received.filter(
      (d) => !outboxIds.has(d.id) || (d.value?.startsWith('w') && !sent.has(d.value)),
    ).length;
    const figures = {
      store: name,
      sent: sent.size,
      acknowledged: acknowledged.size,
      committedChanges: audited.length,
      deliveriesQueued: outbox.length,
      receivedBeforeKill: receivedAtKill,
      pendingAtKill: outbox.length - receivedAtKill,
      deliveriesMade: receiver.received.length,
      duplicated: receiver.received.length - receivedIds.size,
      lost,
      invented,
    };
    report(`webhook-sigkill-${name}`, figures);
    // Every committed change (its audit row) has its delivery, and every delivery arrived.
    expect(audited.every((row) => auditWithDelivery.has(row.id))).toBe(true);
    expect(outbox.every((row) => row.state === 'delivered')).toBe(true);
    expect(lost).toBe(0);
    expect(invented).toBe(0);
    expect(figures.pendingAtKill).toBeGreaterThan(0);
  });
});

describe.skipIf(!databaseServer)('two instances sharing PostgreSQL', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  });

  it('makes each delivery once in normal operation', async () => {
    const database = await createThrowawayDatabase(databaseServer ?? '');
    cleanups.push(database.drop);
    const receiver = await slowReceiver(5);
    cleanups.push(receiver.close);
    const apps: FastifyInstance[] = [];
    for (let n = 0; n < 2; n++) {
      const store = await openStore<Database>({ databaseUrl: database.url, dataDir: '' });
      cleanups.push(() => store.close());
      if (n === 0) {
        await migrate(store as unknown as Store<unknown>, MIGRATIONS_FOLDER);
        await seedInitialAccounts(store.db, new PasswordHasher(TEST_HASHING), TEST_PASSWORD);
      }
      const app = await buildApp(
        testConfig({
          databaseUrl: database.url,
          webhooks: {
            ...DEFAULT_WEBHOOK_SETTINGS,
            allowPrivateTargets: true,
            secretKey: undefined,
            pollMs: 300,
          },
        }),
        { store },
      );
      await app.ready();
      cleanups.push(() => app.close());
      apps.push(app);
    }
    const [first, second] = apps as [FastifyInstance, FastifyInstance];
    const tokens = [
      await login(first, 'admin', TEST_PASSWORD),
      await login(second, 'admin', TEST_PASSWORD),
    ];
    const inject = (index: number, method: 'POST' | 'PATCH', url: string, payload: unknown) =>
      (apps[index] as FastifyInstance).inject({
        method,
        url,
        payload: payload as object,
        headers: { authorization: `Bearer ${tokens[index]}` },
      });
    expect(
      (await inject(0, 'POST', '/webhooks', { name: 'twice', url: receiver.url, secret: SECRET }))
        .statusCode,
    ).toBe(201);
    const ids: string[] = [];
    for (let batch = 0; batch < 4; batch++) {
      const created = await inject(
        batch % 2,
        'POST',
        '/vlans',
        Array.from({ length: 50 }, (_, i) => ({
          vlan_id: batch * 50 + i + 1,
          name: `v${batch}-${i}`,
        })),
      );
      expect(created.statusCode).toBe(201);
      ids.push(...(created.json() as Array<{ id: string }>).map((row) => row.id));
    }
    await Promise.all(
      ids.map((id, index) => inject(index % 2, 'PATCH', `/vlans/${id}`, { status: `s${index}` })),
    );
    const expected = ids.length * 2;
    await until(() => receiver.received.length >= expected, 60_000, `${expected} deliveries`);
    await sleep(1500);
    const distinct = new Set(receiver.received.map((d) => d.id));
    const store = await openStore<Database>({ databaseUrl: database.url, dataDir: '' });
    cleanups.push(() => store.close());
    const workers = await store.scriptTransaction((tx) =>
      tx.query<{ worker: string; count: number }>(
        'SELECT worker, count(*)::int AS count FROM webhook_attempts GROUP BY worker',
      ),
    );
    const figures = {
      changes: expected,
      deliveriesMade: receiver.received.length,
      duplicated: receiver.received.length - distinct.size,
      lost: expected - distinct.size,
      perWorker: workers.map((row) => row.count),
    };
    report('webhook-two-instances', figures);
    expect(distinct.size).toBe(expected);
    expect(receiver.received.length).toBe(expected);
    expect(second).toBeDefined();
  });
});

describe('the capture tool (apps/webhook --json) as the receiver', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  });

  it('receives the deliveries and verifies both signatures', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'inventory-hooks-capture-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const config = join(dir, 'webhook.yaml');
    writeFileSync(
      config,
      // biome-ignore format: the YAML reads better as lines
      [
        'routes:',
        '  - path: /standard',
        `    verify: { scheme: standard-webhooks, secret: "$\{HOOK_SECRET}" }`,
        '  - path: /netbox',
        `    verify: { scheme: hmac-sha512, secret: "$\{HOOK_SECRET}", header: X-Hook-Signature, encoding: hex }`,
        '',
      ].join('\n'),
    );
    const bin = fileURLToPath(new URL('../../webhook/bin/webhook.js', import.meta.url));
    const tool: ChildProcess = spawn(
      process.execPath,
      [bin, '--json', '--port', '0', '-c', config],
      {
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '/tmp',
          HOOK_SECRET: SECRET,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    cleanups.push(async () => {
      tool.kill('SIGTERM');
      await once(tool, 'exit').catch(() => {});
    });
    let stdout = '';
    let stderr = '';
    tool.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    tool.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    await until(() => /listening on http:\/\/\S+/.test(stderr), 30_000, 'the capture tool');
    const base = /listening on (http:\/\/\S+)/.exec(stderr)?.[1] ?? '';

    const ctx = await startTestApp({
      webhooks: {
        ...DEFAULT_WEBHOOK_SETTINGS,
        allowPrivateTargets: true,
        secretKey: undefined,
        pollMs: 200,
      },
    });
    cleanups.push(() => ctx.close());
    for (const path of ['standard', 'netbox']) {
      const response = await ctx.as('admin', {
        method: 'POST',
        url: '/webhooks',
        payload: { name: path, url: `${base}/${path}`, secret: SECRET },
      });
      expect(response.statusCode).toBe(201);
    }
    const device = await ctx.as('admin', {
      method: 'POST',
      url: '/devices',
      payload: { hostname: 'captured', ip: '192.0.2.7', status: 'maintenance' },
    });
    expect(device.statusCode).toBe(201);
    const lines = () =>
      stdout
        .split('\n')
        .filter(Boolean)
        .map(
          (line) =>
            JSON.parse(line) as {
              path: string;
              body: string;
              verification?: { ok: boolean; scheme: string };
            },
        );
    await until(() => lines().length >= 2, 30_000, 'two captured requests');
    const captured = lines();
    expect(captured.map((line) => line.verification?.ok)).toEqual([true, true]);
    expect(new Set(captured.map((line) => line.verification?.scheme))).toEqual(
      new Set(['standard-webhooks', 'hmac-sha512']),
    );
    for (const line of captured) {
      const body = JSON.parse(line.body);
      expect(body).toMatchObject({
        event: 'created',
        resource: 'devices',
        data: { hostname: 'captured' },
      });
    }
  });
});
