/**
 * `npm run bench:chat -- [options]`: the chat service under the traffic its clients send, with the
 * load generator, the fake identity provider and the service each in a process of their own (the
 * service started as a user starts it: `src/main.ts` with its environment and services file).
 *
 * Per store, in one run: a bare `node:http` server (the ceiling), the fake provider's signed
 * `verify_credentials` alone, `GET /api/v1/me` with X-User-Id/X-Auth-Token over many sessions in
 * turn, and `POST /api/v1/login` for many Twitter users in turn. Every figure is printed with its
 * ratio to the ceiling of the same run; a login's median is compared with the provider's own.
 * Options are listed in USAGE (and in the README's "Benchmark" section).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import OAuth from 'oauth-1.0a';
import pg from 'pg';
import { APPS } from '../test/support/fake-provider.js';
import { benchTwitterId, type LoadJob, type LoadResult } from './processes/shared.js';

const USAGE = `npm run bench:chat -- [options]

  --stores LIST         postgres,embedded (default both), in that order
  --database-url URL    PostgreSQL for the postgres rows; its database is DROPPED and recreated
                        (default postgres://postgres@127.0.0.1:5432/chat_bench)
  --redis-url URL       run the service with REDIS_URL (rate limits and lock-out in Redis); use a
                        database number of your own (redis://127.0.0.1:6379/12): its chat keys are
                        deleted before and after. Default: no Redis (counters in memory)
  --duration SECONDS    per row (default 10)
  --connections N       concurrent connections of the load generator (default 10)
  --users N             users (and sessions) taken in turn (default 500)
  --rows LIST           any of ceiling,provider,me,login,latency,me-uncached,me-quiet,
                        login-async-commit (default all). latency: the provider and a login with
                        1 connection (their medians compared); me-uncached: me with
                        SESSION_CACHE=off; me-quiet: with LOG_LEVEL=warn; login-async-commit:
                        logins on the bench database set to synchronous_commit=off (what the
                        flush of each commit costs; PostgreSQL only)
  --cpu-prof            write a CPU profile of each service process to bench/results/profiles/
  --help
`;

const here = dirname(fileURLToPath(import.meta.url));
const appRoot = join(here, '..');
const resultsDir = join(here, 'results');

const { values: options } = parseArgs({
  options: {
    stores: { type: 'string', default: 'postgres,embedded' },
    'database-url': {
      type: 'string',
      default: process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/chat_bench',
    },
    'redis-url': { type: 'string', default: process.env.BENCH_REDIS_URL || '' },
    duration: { type: 'string', default: process.env.BENCH_DURATION || '10' },
    connections: { type: 'string', default: process.env.BENCH_CONNECTIONS || '10' },
    users: { type: 'string', default: '500' },
    rows: {
      type: 'string',
      default: 'ceiling,provider,me,login,latency,me-uncached,me-quiet,login-async-commit',
    },
    'cpu-prof': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (options.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const positive = (name: string, raw: string) => {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    process.stderr.write(`--${name}: a whole number >= 1, not "${raw}"\n${USAGE}`);
    process.exit(2);
  }
  return value;
};
const duration = positive('duration', options.duration);
const connections = positive('connections', options.connections);
const users = positive('users', options.users);
const stores = options.stores.split(',').map((store) => store.trim());
for (const store of stores) {
  if (store !== 'postgres' && store !== 'embedded') {
    process.stderr.write(`--stores: postgres or embedded, not "${store}"\n`);
    process.exit(2);
  }
}
const rowsWanted = new Set(options.rows.split(',').map((row) => row.trim()));

/** Every child process, so that an error or Ctrl-C still stops them all. */
const children = new Set<ChildProcess>();
const stopAll = () => {
  for (const child of children) child.kill('SIGKILL');
};
process.on('exit', stopAll);
process.on('SIGINT', () => process.exit(130));

const node = process.execPath;
/** TypeScript sources run through tsx's loader, in the process itself (so --cpu-prof sees it). */
const TS = ['--conditions=development', '--import', import.meta.resolve('tsx')];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Starts a helper process that prints `{"url": ...}` once it listens. */
function startHelper(
  script: string,
  env: Record<string, string> = {},
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(node, [...TS, join(here, 'processes', script)], {
    cwd: appRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.add(child);
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const line = buffered.split('\n')[0];
      if (buffered.includes('\n') && line)
        resolve({ url: (JSON.parse(line) as { url: string }).url, child });
    });
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
  children.delete(child);
}

/** One load run in the load generator's own process. */
function load(job: LoadJob): Promise<LoadResult> {
  const child = spawn(node, [...TS, join(here, 'processes', 'load.ts')], {
    cwd: appRoot,
    env: { ...process.env, BENCH_JOB: JSON.stringify(job) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.add(child);
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('exit', (code) => {
      children.delete(child);
      if (code !== 0) reject(new Error(`load generator exited with ${code}`));
      else resolve(JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as LoadResult);
    });
  });
}

const loginBody = (i: number) =>
  JSON.stringify({
    serviceName: 'twitter',
    accessToken: `${benchTwitterId(i)}-tw-token`,
    accessTokenSecret: `${benchTwitterId(i)}-tw-secret`,
    appId: APPS.twitter.appId,
    appSecret: APPS.twitter.appSecret,
    expiresIn: 3600,
  });

async function resetPostgres(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!/^[a-z_][a-z0-9_]*$/.test(name) || name === 'postgres') {
    throw new Error(
      `--database-url: a database of the benchmark's own (chat_bench...), not "${name}"`,
    );
  }
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
}

/** ALTER DATABASE on the benchmark's own database (name checked by resetPostgres first). */
async function setDatabase(url: string, setting: string): Promise<void> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`ALTER DATABASE ${name} ${setting}`);
  } finally {
    await client.end();
  }
}

/** Deletes the service's keys (`chat-*`) in the benchmark's Redis database, and only there. */
async function clearRedis(url: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [nextCursor, keys] = await redis.scan(cursor, 'MATCH', 'chat-*', 'COUNT', 1000);
      cursor = nextCursor;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

interface Row {
  store: string;
  what: string;
  result: LoadResult;
}

interface ServiceProcess {
  url: string;
  child: ChildProcess;
  logFile: string;
}

async function startService(
  store: string,
  providerUrl: string,
  runDir: string,
  extraEnv: Record<string, string> = {},
): Promise<ServiceProcess> {
  const port = await freePort();
  const servicesFile = join(runDir, 'chat.bench.yaml');
  writeFileSync(
    servicesFile,
    [
      'services:',
      '  twitter:',
      '    type: twitter',
      `    appId: ${APPS.twitter.appId}`,
      `    appSecret: ${APPS.twitter.appSecret}`,
      `    apiUrl: ${providerUrl}/twitter`,
      '',
    ].join('\n'),
  );
  const logFile = join(runDir, `service-${store}.log`);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    HOST: '127.0.0.1',
    PORT: String(port),
    CHAT_CONFIG: servicesFile,
    // Relaxed for the benchmark only: one client address sends every request. The limits stay
    // active (their counting is measured), they just never refuse.
    LOGIN_RATE_LIMIT: '1000000000',
    API_RATE_LIMIT: '1000000000',
    ...(store === 'postgres'
      ? { DATABASE_URL: options['database-url'] }
      : { DATA_DIR: join(runDir, 'embedded-data') }),
    ...(options['redis-url'] ? { REDIS_URL: options['redis-url'] } : {}),
    ...extraEnv,
  };
  // One folder per service process: tsx's loader thread writes a profile of its own beside the
  // main thread's (the larger file).
  const profiling = options['cpu-prof']
    ? [
        '--cpu-prof',
        `--cpu-prof-dir=${join(resultsDir, 'profiles', `service-${store}-${new Date().toISOString().replaceAll(':', '-')}`)}`,
      ]
    : [];
  // stdout (the JSON log lines, one per request at the default level) goes to a file, as it would
  // in production; the parent does not spend CPU reading them.
  const out = openSync(logFile, 'w');
  const child = spawn(node, [...profiling, ...TS, join(appRoot, 'src', 'main.ts')], {
    cwd: runDir,
    env,
    stdio: ['ignore', out, 'inherit'],
  });
  children.add(child);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`the service exited with ${child.exitCode}; see ${logFile}`);
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {}
    if (Date.now() > deadline)
      throw new Error(`the service did not answer in 180 s; see ${logFile}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url, child, logFile };
}

async function measureStore(
  store: string,
  providerUrl: string,
  ceilingUrl: string,
  runDir: string,
): Promise<Row[]> {
  const rows: Row[] = [];
  const run = async (
    what: string,
    job: Omit<LoadJob, 'connections' | 'durationSeconds'>,
    withConnections = connections,
  ) => {
    const result = await load({ ...job, connections: withConnections, durationSeconds: duration });
    rows.push({ store, what, result });
    console.log(
      `  ${store} | ${what}: ${result.requestsPerSecond} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, non-2xx ${result.non2xx}`,
    );
  };

  if (rowsWanted.has('ceiling')) {
    await run('bare node:http (ceiling)', {
      url: ceilingUrl,
      method: 'GET',
      variants: [{ headers: {} }],
    });
  }
  if (rowsWanted.has('provider')) {
    // The same signed request the service sends, precomputed (the provider's own cost only).
    const oauth = new OAuth({
      consumer: { key: APPS.twitter.appId, secret: APPS.twitter.appSecret },
      signature_method: 'HMAC-SHA1',
      hash_function: (base, key) => createHmac('sha1', key).update(base).digest('base64'),
    });
    const url = `${providerUrl}/twitter/1.1/account/verify_credentials.json?include_email=true`;
    const variants = Array.from({ length: Math.min(users, 100) }, (_, i) => ({
      headers: {
        authorization: oauth.toHeader(
          oauth.authorize(
            { url, method: 'GET' },
            { key: `${benchTwitterId(i)}-tw-token`, secret: `${benchTwitterId(i)}-tw-secret` },
          ),
        ).Authorization,
      },
    }));
    await run('fake provider alone (signed verify_credentials)', { url, method: 'GET', variants });
    if (rowsWanted.has('latency')) {
      await run('fake provider alone, 1 connection', { url, method: 'GET', variants }, 1);
    }
  }

  const serviceRows = ['me', 'login', 'me-uncached', 'me-quiet'].filter((row) =>
    rowsWanted.has(row),
  );
  if (serviceRows.length === 0) return rows;
  if (store === 'postgres') await resetPostgres(options['database-url']);
  if (options['redis-url']) await clearRedis(options['redis-url']);
  const bodies = Array.from({ length: users }, (_, i) => loginBody(i));
  const json = { 'content-type': 'application/json' };

  /** Starts the service with `env`, warms it up, hands its URL and sessions to `work`, stops it. */
  const withService = async (
    env: Record<string, string>,
    work: (url: string, meVariants: LoadJob['variants']) => Promise<void>,
  ) => {
    const service = await startService(store, providerUrl, runDir, env);
    try {
      const loginUrl = `${service.url}/api/v1/login`;
      // Warm-up: every user's login (the first run creates the users), then the JIT.
      await load({
        url: loginUrl,
        method: 'POST',
        variants: bodies.map((body) => ({ headers: json, body })),
        connections,
        durationSeconds: 0,
        amount: users * 2,
      });
      // One session per user, as a Rocket.Chat client holds it after its login.
      const sessions: LoadJob['variants'] = [];
      for (const body of bodies) {
        const answer = (await (
          await fetch(loginUrl, { method: 'POST', headers: json, body })
        ).json()) as { data: { userId: string; authToken: string } };
        sessions.push({
          headers: { 'x-user-id': answer.data.userId, 'x-auth-token': answer.data.authToken },
        });
      }
      await load({
        url: `${service.url}/api/v1/me`,
        method: 'GET',
        variants: sessions,
        connections,
        durationSeconds: 0,
        amount: users * 4,
      });
      await work(service.url, sessions);
    } finally {
      await stop(service.child);
    }
  };

  if (rowsWanted.has('me') || rowsWanted.has('login')) {
    await withService({}, async (url, meVariants) => {
      if (rowsWanted.has('me')) {
        await run(`GET /api/v1/me (${users} sessions in turn)`, {
          url: `${url}/api/v1/me`,
          method: 'GET',
          variants: meVariants,
        });
      }
      if (rowsWanted.has('login')) {
        await run(`POST /api/v1/login (twitter, ${users} users in turn)`, {
          url: `${url}/api/v1/login`,
          method: 'POST',
          variants: bodies.map((body) => ({ headers: json, body })),
        });
      }
      if (rowsWanted.has('latency')) {
        await run(
          'POST /api/v1/login, 1 connection',
          {
            url: `${url}/api/v1/login`,
            method: 'POST',
            variants: bodies.map((body) => ({ headers: json, body })),
          },
          1,
        );
      }
    });
  }
  // What PostgreSQL's flush of each commit costs a login: the same rows on the benchmark's own
  // database set to synchronous_commit = off (never the service's setting; a measurement only).
  if (store === 'postgres' && rowsWanted.has('login-async-commit')) {
    await setDatabase(options['database-url'], 'SET synchronous_commit = off');
    try {
      await withService({}, async (url) => {
        const job = {
          url: `${url}/api/v1/login`,
          method: 'POST' as const,
          variants: bodies.map((body) => ({ headers: json, body })),
        };
        await run('POST /api/v1/login, database synchronous_commit=off', job);
        if (rowsWanted.has('latency')) {
          await run('POST /api/v1/login, synchronous_commit=off, 1 connection', job, 1);
        }
      });
    } finally {
      await setDatabase(options['database-url'], 'RESET synchronous_commit');
    }
  }
  // The same `me` with one setting changed, in the same run: what that setting costs or buys.
  const variants: Array<[string, Record<string, string>, string]> = [
    ['me-uncached', { SESSION_CACHE: 'off' }, 'SESSION_CACHE=off'],
    ['me-quiet', { LOG_LEVEL: 'warn' }, 'LOG_LEVEL=warn, no line per request'],
  ];
  for (const [row, env, label] of variants) {
    if (!rowsWanted.has(row)) continue;
    await withService(env, (url, meVariants) =>
      run(`GET /api/v1/me, ${label}`, {
        url: `${url}/api/v1/me`,
        method: 'GET',
        variants: meVariants,
      }),
    );
  }
  return rows;
}

async function main() {
  mkdirSync(resultsDir, { recursive: true });
  const runDir = mkdtempSync(join(tmpdir(), 'chat-bench-'));
  const startedAt = new Date().toISOString();
  const loadAtStart = loadavg();
  const provider = await startHelper('provider.ts', { BENCH_USERS: String(users) });
  // The ceiling answers with a body the size of a `me` answer.
  const ceiling = await startHelper('ceiling.ts', {
    CEILING_BODY: JSON.stringify({ _id: 'x'.repeat(17), padding: 'x'.repeat(560), success: true }),
  });
  console.log(
    `chat benchmark: ${duration} s per row, ${connections} connections, ${users} users; load average at start ${loadAtStart.map((l) => l.toFixed(2)).join(' ')}`,
  );
  const rows: Row[] = [];
  try {
    for (const store of stores)
      rows.push(...(await measureStore(store, provider.url, ceiling.url, runDir)));
  } finally {
    await stop(provider.child);
    await stop(ceiling.child);
    if (options['redis-url']) await clearRedis(options['redis-url']).catch(() => {});
    rmSync(runDir, { recursive: true, force: true });
  }
  const loadAtEnd = loadavg();

  const ceilingOf = (store: string) =>
    rows.find((row) => row.store === store && row.what.startsWith('bare'))?.result;
  const providerOf = (store: string) =>
    rows.find((row) => row.store === store && row.what.startsWith('fake'))?.result;
  console.log(
    `\nchat benchmark (${startedAt}), ${duration} s per row, ${connections} connections; Node ${process.version}, ${availableParallelism()} x ${cpus()[0]?.model ?? 'unknown'}${options['redis-url'] ? ', Redis' : ', no Redis'}`,
  );
  console.log(
    `load average: ${loadAtStart.map((l) => l.toFixed(2)).join(' ')} at start, ${loadAtEnd.map((l) => l.toFixed(2)).join(' ')} at end\n`,
  );
  console.table(
    rows.map(({ store, what, result }) => {
      const ceilingRate = ceilingOf(store)?.requestsPerSecond;
      return {
        store,
        what,
        'req/s': result.requestsPerSecond,
        'x ceiling': ceilingRate ? (result.requestsPerSecond / ceilingRate).toFixed(2) : '',
        'p50 ms': result.p50Ms,
        'p99 ms': result.p99Ms,
        'non-2xx': result.non2xx + result.errors,
      };
    }),
  );
  for (const store of stores) {
    const single = (prefix: string) =>
      rows.find(
        (row) =>
          row.store === store && row.what.startsWith(prefix) && row.what.endsWith('1 connection'),
      )?.result;
    const login =
      single('POST /api/v1/login,') ??
      rows.find((row) => row.store === store && row.what.startsWith('POST'))?.result;
    const alone = single('fake provider alone,') ?? providerOf(store);
    if (login && alone) {
      console.log(
        `${store}: a login's median is ${(login.p50Ms - alone.p50Ms).toFixed(2)} ms above the provider's own (${alone.p50Ms} ms)`,
      );
    }
  }
  const file = join(resultsDir, `login-${startedAt.replaceAll(':', '-')}.json`);
  writeFileSync(
    file,
    `${JSON.stringify({ startedAt, loadAverage: { start: loadAtStart, end: loadAtEnd }, node: process.version, cpus: `${availableParallelism()} x ${cpus()[0]?.model ?? 'unknown'}`, duration, connections, users, redis: Boolean(options['redis-url']), rows }, null, 2)}\n`,
  );
  console.log(`results written to ${file}`);
}

main()
  .then(() => process.exit(0))
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
