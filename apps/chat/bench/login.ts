/**
 * `npm run bench:chat`: logins per second and latency of POST /api/v1/login against the local fake
 * provider, next to the fake provider's own endpoint called alone in the same run, so the service's
 * own cost (validation, signing, database, token) is the difference between the two rows.
 *
 * Options (environment): BENCH_DURATION seconds per row (10), BENCH_CONNECTIONS (10),
 * BENCH_DATABASE_URL (a postgres:// URL; the embedded store in memory otherwise).
 */
import { createHmac } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { migrate, openStore, type Store } from '@netops/store';
import autocannon from 'autocannon';
import OAuth from 'oauth-1.0a';
import { buildApp } from '../src/app.js';
import { type Database, MIGRATIONS } from '../src/db/schema.js';
import { accounts } from '../test/support/accounts.js';
import { APPS, FakeProvider } from '../test/support/fake-provider.js';
import { loginBody, testConfig } from '../test/support/harness.js';

const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);

interface Row {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
}

async function measure(name: string, options: autocannon.Options): Promise<Row> {
  const result = await autocannon({ duration, connections, ...options });
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

async function main() {
  const fake = await FakeProvider.start();
  const databaseUrl = process.env.BENCH_DATABASE_URL || 'memory://';
  const store: Store<Database> = await openStore<Database>({ databaseUrl, dataDir: '' });
  await migrate(store as Store<unknown>, MIGRATIONS);
  const app = await buildApp(
    testConfig(fake.url, {
      loginRateLimit: 1_000_000,
      provider: { timeoutMs: 5000, maxBytes: 1 << 20 },
    }),
    { store },
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const serviceUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  // Twitter users (the reference shape), taken in turn: every login is a signed provider call,
  // an upsert (a creation on the first round) and a token issued.
  const bodies = Array.from({ length: 500 }, (_, i) =>
    JSON.stringify({
      ...loginBody('twitter', ''),
      ...accounts.twitter(fake, String(100_000 + i), `bench_user_${i}`),
    }),
  );
  const credentials = accounts.twitter(fake);
  const body = JSON.stringify({ ...loginBody('twitter', ''), ...credentials });
  let next = 0;
  const nextBody = () => bodies[next++ % bodies.length] ?? body;

  // The provider alone: the same signed verify_credentials request the service sends.
  const oauth = new OAuth({
    consumer: { key: APPS.twitter.appId, secret: APPS.twitter.appSecret },
    signature_method: 'HMAC-SHA1',
    hash_function: (base, key) => createHmac('sha1', key).update(base).digest('base64'),
  });
  const providerUrl = `${fake.url}/twitter/1.1/account/verify_credentials.json?include_email=true`;
  const signed = oauth.toHeader(
    oauth.authorize(
      { url: providerUrl, method: 'GET' },
      { key: credentials.accessToken, secret: credentials.accessTokenSecret },
    ),
  );

  // Warm up both paths (JIT, first insert) before measuring.
  await autocannon({
    url: `${serviceUrl}/api/v1/login`,
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json' },
    amount: 200,
    connections,
  });

  const rows = [
    await measure('fake provider alone (verify_credentials)', {
      url: providerUrl,
      headers: { authorization: signed.Authorization },
    }),
    await measure('POST /api/v1/login (twitter, 500 users in turn)', {
      url: `${serviceUrl}/api/v1/login`,
      requests: [
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          setupRequest: (request) => ({ ...request, body: nextBody() }),
        },
      ],
    }),
  ];
  const login = (
    await app.inject({
      method: 'POST',
      url: '/api/v1/login',
      headers: { 'content-type': 'application/json' },
      payload: body,
    })
  ).json();
  rows.push(
    await measure('GET /api/v1/me', {
      url: `${serviceUrl}/api/v1/me`,
      headers: { 'x-user-id': login.data.userId, 'x-auth-token': login.data.authToken },
    }),
  );

  const environment = {
    node: process.version,
    cpus: `${availableParallelism()} x ${cpus()[0]?.model ?? 'unknown'}`,
    store: store.description,
    durationSeconds: duration,
    connections,
  };
  console.log(
    `\nchat login benchmark: ${duration} s per row, ${connections} connections, ${store.description}\n`,
  );
  console.table(
    rows.map((row) => ({
      what: row.name,
      'req/s': row.requestsPerSecond,
      'p50 ms': row.p50Ms,
      'p99 ms': row.p99Ms,
      requests: row.requests,
      'non-2xx': row.non2xx,
      errors: row.errors,
    })),
  );
  const [provider, service] = rows;
  if (provider && service) {
    console.log(
      `service overhead at p50: ${(service.p50Ms - provider.p50Ms).toFixed(1)} ms per login (the provider alone answers in ${provider.p50Ms} ms)`,
    );
  }
  const folder = new URL('./results/', import.meta.url);
  mkdirSync(folder, { recursive: true });
  const file = new URL(`login-${new Date().toISOString().replaceAll(':', '-')}.json`, folder);
  writeFileSync(
    file,
    `${JSON.stringify({ date: new Date().toISOString(), environment, rows }, null, 2)}\n`,
  );
  console.log(`results written to ${file.pathname}`);

  await app.close();
  await fake.close();
  await store.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
