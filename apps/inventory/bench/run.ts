import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  copyOutOf,
  DEFAULT_EMBEDDED_SHARED_BUFFERS_MB,
  migrate,
  openStore,
  type Store,
} from '@netops/store';
import { type Kysely, sql } from 'kysely';
import type { AnyDatabase } from '../src/db/schema.js';
import { type Database, MIGRATIONS_FOLDER } from '../src/db/schema.js';
import { exportCopyText } from '../src/resources/csv-export.js';
import { devices } from '../src/resources/definitions/devices.js';
import { listSelection } from '../src/resources/pages.js';
import { cpuMeter, cpuMeterOfListed, ownCpuMeter } from './cpu.js';
import { copyDatabase } from './database-copy.js';
import { datasetShape, type LoadedDataset, loadDataset } from './dataset.js';
import { drive, type LoadOptions, type LoadResult } from './load.js';
import { driveMixed, MIXED_SHARES, type MixedRequest } from './mixed.js';
import { measureOneUser } from './one-user.js';
import { startCeilingServer, startInventoryServer } from './processes.js';
import {
  checkTargets,
  formatTable,
  formatTargets,
  hitRates,
  type ListCacheDelta,
  machineText,
  oneUserBaselineText,
  type ScenarioResult,
  TARGETS,
} from './report.js';
import { buildScenarios, type DatasetFacts, type Scenario } from './scenarios.js';
import { walBytesSince, walPosition } from './wal.js';

/**
 * `npm run bench:inventory -- --devices N --store pg|embedded --connections C --duration S`
 * (see the README's "Performance" section): loads the data set, starts the real server and the
 * node:http ceiling, drives every scenario against both, prints the table and writes it as JSON
 * to bench/results/.
 */

const USAGE = `Usage: npm run bench:inventory -- [options]
  --devices N          devices in the data set (default 100000)
  --store pg|embedded  PostgreSQL (default) or the embedded store
  --database-url URL   PostgreSQL server and database to use (default
                       postgres://postgres@127.0.0.1:5432/inventory_bench; dropped and recreated,
                       with its copy as loaded, <name>_loaded)
  --connections C      concurrent connections per scenario (default 32)
  --duration S         measured seconds per scenario and server (default 10)
  --warmup S           unmeasured seconds before each scenario (default 2); the varied lists
                       warm up with one measured pass through their URLs instead
  --only TEXT          run only the scenarios whose name contains TEXT (repeatable)
  --reuse              start from the copy of the data set kept when an earlier run loaded it
                       (same size), instead of loading it again
  --dist               run the compiled server (dist/main.js, with the root start script's Node
                       options) instead of src/main.ts through tsx; npm run build first
  --cpu-prof           write a CPU profile of the server to bench/results/profiles/
  --no-list-cache      run the server with LIST_CACHE=off: every list read, counted and
                       serialised afresh (the path after a write)
  --unanalyzed         start without planner statistics, as a store filled through the API that
                       was never analyzed: the data set's statistics (pg_statistic, and each
                       table's row and page counts) are removed before the server starts; the
                       visibility map stays as the load's VACUUM left it
  --durability on|off  embedded store: flush each commit before answering (on, the default)
                       or not (EMBEDDED_DURABILITY=off), to measure what durability costs
  --help`;

const BENCH_ROOT = fileURLToPath(new URL('.', import.meta.url));
const RESULTS_DIR = `${BENCH_ROOT}results`;
const EMBEDDED_DIR = `${BENCH_ROOT}data/embedded`;
/** The embedded data set as loaded, and the number of devices it holds (keepLoadedCopy). */
const EMBEDDED_LOADED_DIR = `${BENCH_ROOT}data/embedded-loaded`;
const EMBEDDED_LOADED_SIZE = `${BENCH_ROOT}data/embedded-loaded.json`;
const SEED_PASSWORD = 'bench-password-not-secret';

interface BenchOptions {
  devices: number;
  store: 'pg' | 'embedded';
  databaseUrl: string;
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  only: string[];
  reuse: boolean;
  cpuProfile: boolean;
  compiled: boolean;
  listCache: boolean;
  durability: 'on' | 'off';
  unanalyzed: boolean;
}

function readOptions(): BenchOptions {
  const { values } = parseArgs({
    options: {
      devices: { type: 'string', default: '100000' },
      store: { type: 'string', default: 'pg' },
      'database-url': {
        type: 'string',
        default: 'postgres://postgres@127.0.0.1:5432/inventory_bench',
      },
      connections: { type: 'string', default: '32' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '2' },
      only: { type: 'string', multiple: true, default: [] },
      reuse: { type: 'boolean', default: false },
      'cpu-prof': { type: 'boolean', default: false },
      dist: { type: 'boolean', default: false },
      'no-list-cache': { type: 'boolean', default: false },
      durability: { type: 'string', default: 'on' },
      unanalyzed: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const positive = (name: string, text: string, minimum = 1) => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < minimum) {
      throw new Error(`--${name} must be an integer >= ${minimum}, not "${text}"\n${USAGE}`);
    }
    return value;
  };
  if (values.store !== 'pg' && values.store !== 'embedded') {
    throw new Error(`--store must be pg or embedded, not "${values.store}"\n${USAGE}`);
  }
  if (values.durability !== 'on' && values.durability !== 'off') {
    throw new Error(`--durability must be on or off, not "${values.durability}"\n${USAGE}`);
  }
  return {
    devices: positive('devices', values.devices, 200),
    store: values.store,
    databaseUrl: values['database-url'],
    connections: positive('connections', values.connections),
    durationSeconds: positive('duration', values.duration),
    warmupSeconds: positive('warmup', values.warmup, 0),
    only: values.only,
    reuse: values.reuse,
    cpuProfile: values['cpu-prof'],
    compiled: values.dist,
    listCache: !values['no-list-cache'],
    durability: values.durability,
    unanalyzed: values.unanalyzed,
  };
}

const log = (line: string) => process.stdout.write(`${line}\n`);

/** The database a URL names (the benchmark's own: never the server's `postgres`). */
function databaseName(databaseUrl: string): string {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  if (!name || name === 'postgres') {
    throw new Error('--database-url must name a database of its own: it is dropped and recreated');
  }
  return name;
}

/** The same server's database `name`. */
function withDatabase(databaseUrl: string, name: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${encodeURIComponent(name)}`;
  return url.toString();
}

/** The benchmark database's name, and a store on its server's `postgres` database. */
async function openAdmin(databaseUrl: string) {
  const name = databaseName(databaseUrl);
  const admin = await openStore<unknown>({
    databaseUrl: withDatabase(databaseUrl, 'postgres'),
    dataDir: '',
  });
  return { name, admin };
}

/** Recreates the benchmark database, empty or as a copy of `template`. */
async function recreateDatabase(databaseUrl: string, template?: string): Promise<void> {
  const { name, admin } = await openAdmin(databaseUrl);
  try {
    await sql`DROP DATABASE IF EXISTS ${sql.id(name)} WITH (FORCE)`.execute(admin.db);
    if (template === undefined) await sql`CREATE DATABASE ${sql.id(name)}`.execute(admin.db);
    else await copyDatabase(admin.db, name, template);
  } finally {
    await admin.close();
  }
}

/** The database keeping the data set as loaded, beside the benchmark's own (keepLoadedCopy). */
const loadedCopyOf = (name: string) => `${name}_loaded`;

/**
 * Keeps a copy of the data set just loaded, so that `--reuse` starts every run from it: the
 * scenarios' writes (POST adds devices; each PATCH leaves a dead row and an entry in every index)
 * would otherwise make each reused run measure a bigger, more bloated data set than the run
 * before, and runs meant to be compared would drift apart. PostgreSQL copies a template
 * database in seconds (see copyDatabase), against a minute to load it; the embedded store's
 * directory is copied.
 */
async function keepLoadedCopy(options: BenchOptions): Promise<void> {
  if (options.store === 'embedded') {
    rmSync(EMBEDDED_LOADED_DIR, { recursive: true, force: true });
    rmSync(EMBEDDED_LOADED_SIZE, { force: true });
    cpSync(EMBEDDED_DIR, EMBEDDED_LOADED_DIR, { recursive: true });
    writeFileSync(EMBEDDED_LOADED_SIZE, JSON.stringify({ devices: options.devices }));
    return;
  }
  const { name, admin } = await openAdmin(options.databaseUrl);
  try {
    const copy = loadedCopyOf(name);
    await sql`DROP DATABASE IF EXISTS ${sql.id(copy)} WITH (FORCE)`.execute(admin.db);
    await copyDatabase(admin.db, copy, name);
  } finally {
    await admin.close();
  }
}

/**
 * Puts back the data set as loaded, from the copy an earlier run kept of that size; the seconds
 * it took, or undefined when there is no such copy.
 */
async function restoreLoadedCopy(options: BenchOptions): Promise<number | undefined> {
  const started = performance.now();
  if (options.store === 'embedded') {
    if (keptEmbeddedDevices() !== options.devices) return undefined;
    rmSync(EMBEDDED_DIR, { recursive: true, force: true });
    cpSync(EMBEDDED_LOADED_DIR, EMBEDDED_DIR, { recursive: true });
  } else {
    const copy = loadedCopyOf(databaseName(options.databaseUrl));
    const copyUrl = withDatabase(options.databaseUrl, copy);
    if ((await existingDevices({ ...options, databaseUrl: copyUrl })) !== options.devices) {
      return undefined;
    }
    await recreateDatabase(options.databaseUrl, copy);
  }
  return (performance.now() - started) / 1000;
}

/** The devices in the embedded copy as loaded, or undefined without a whole copy. */
function keptEmbeddedDevices(): number | undefined {
  if (!existsSync(EMBEDDED_LOADED_DIR)) return undefined;
  try {
    const kept = JSON.parse(readFileSync(EMBEDDED_LOADED_SIZE, 'utf8')) as { devices?: unknown };
    return typeof kept.devices === 'number' ? kept.devices : undefined;
  } catch {
    // No size beside it: the copy was interrupted (the size is written last).
    return undefined;
  }
}

async function openBenchStore(options: BenchOptions) {
  return openStore<Database>(
    options.store === 'pg'
      ? { databaseUrl: options.databaseUrl, dataDir: '' }
      : // Loading the data set is not measured: no flush per commit. The benchmark vacuums and
        // analyzes the data set itself, once, where the scenarios expect it.
        { dataDir: EMBEDDED_DIR, durable: false, autovacuum: { intervalMs: 0 } },
  );
}

/** The size of the data set a store already holds, when it was made by this benchmark. */
async function existingDevices(options: BenchOptions): Promise<number | undefined> {
  try {
    const store = await openBenchStore(options);
    try {
      const result = await sql<{
        devices: number;
      }>`SELECT devices FROM bench_dataset`.execute(store.db);
      return result.rows[0]?.devices;
    } finally {
      await store.close();
    }
  } catch {
    return undefined;
  }
}

/**
 * A store holding the data set as loaded: loaded afresh, or with --reuse restored from the copy
 * an earlier run kept ('restored', in seconds), or failing that the earlier run's store as that
 * run left it ('as left', from before such copies were kept).
 */
type PreparedStore = LoadedDataset | { restored: number } | 'as left';

async function prepareStore(options: BenchOptions): Promise<PreparedStore> {
  if (options.reuse) {
    const restored = await restoreLoadedCopy(options);
    if (restored !== undefined) return { restored };
    if ((await existingDevices(options)) === options.devices) return 'as left';
  }
  if (options.store === 'pg') await recreateDatabase(options.databaseUrl);
  else rmSync(EMBEDDED_DIR, { recursive: true, force: true });
  const store = await openBenchStore(options);
  let loaded: LoadedDataset;
  try {
    await migrate(store as unknown as Store<unknown>, MIGRATIONS_FOLDER);
    const db = store.db as AnyDatabase;
    const dataset = await loadDataset(db, datasetShape(options.devices));
    // What autovacuum would do soon after a bulk load: statistics and the visibility map.
    const vacuumStarted = performance.now();
    await sql`VACUUM ANALYZE`.execute(db);
    const vacuumSeconds = (performance.now() - vacuumStarted) / 1000;
    await sql`CREATE TABLE bench_dataset (devices integer NOT NULL)`.execute(db);
    await sql`INSERT INTO bench_dataset VALUES (${options.devices})`.execute(db);
    loaded = { ...dataset, seconds: dataset.seconds + vacuumSeconds };
  } finally {
    await store.close();
  }
  await keepLoadedCopy(options);
  return loaded;
}

/**
 * What the scenarios need to know of the data set, and the database's version and autovacuum
 * setting; with `vacuumFirst`, VACUUM ANALYZE before (a reused data set: the previous run's
 * writes left dead rows and a stale visibility map, and autovacuum may be off on a test server).
 */
async function readFacts(
  options: BenchOptions,
  vacuumFirst: boolean,
): Promise<DatasetFacts & { postgres: string; autovacuum: string; deviceGroups: DeviceGroup[] }> {
  const store = await openBenchStore(options);
  try {
    const db = store.db as AnyDatabase;
    if (vacuumFirst) {
      const started = performance.now();
      await sql`VACUUM ANALYZE`.execute(db);
      log(`VACUUM ANALYZE: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    const ids = await sql<{ id: string }>`SELECT id FROM devices ORDER BY id`.execute(db);
    const combos = await sql<{ vendor: string; status: string; n: number }>`
      SELECT vendor, status, count(*) AS n FROM devices
      WHERE vendor IS NOT NULL GROUP BY vendor, status ORDER BY n DESC, vendor, status`.execute(db);
    const groups = await sql<DeviceGroup>`SELECT vendor, status, role, count(*)::int AS n
      FROM devices GROUP BY vendor, status, role`.execute(db);
    const version = await sql<{ v: string }>`SELECT version() AS v`.execute(db);
    const autovacuum = await sql<{ autovacuum: string }>`SHOW autovacuum`.execute(db);
    // The distributions the mixed scenario draws its filters from (mixed.ts).
    const weighted = async (query: ReturnType<typeof sql<{ value: string; count: number }>>) =>
      (await query.execute(db)).rows.map((row) => ({
        value: String(row.value),
        count: Number(row.count),
      }));
    const vendors = await weighted(sql`SELECT vendor AS value, count(*) AS count FROM devices
      WHERE vendor IS NOT NULL GROUP BY vendor ORDER BY count DESC, vendor`);
    const statuses = await weighted(sql`SELECT status AS value, count(*) AS count FROM devices
      GROUP BY status ORDER BY count DESC, status`);
    const roles = await weighted(sql`SELECT role AS value, count(*) AS count FROM devices
      WHERE role IS NOT NULL GROUP BY role ORDER BY count DESC, role`);
    const locations = await weighted(sql`SELECT location_id::text AS value, count(*) AS count
      FROM devices WHERE location_id IS NOT NULL GROUP BY location_id ORDER BY count DESC, 1`);
    const tags = await weighted(sql`SELECT tag AS value, count(*) AS count
      FROM devices, unnest(tags) AS tag GROUP BY tag ORDER BY count DESC, tag`);
    const common = combos.rows[0];
    // The rarest combination that still has a page's worth of rows to sort.
    const rare = combos.rows.filter((row) => row.n >= 20).at(-1) ?? common;
    if (!common || !rare) throw new Error('the data set has no devices');
    const facts = {
      deviceIds: ids.rows.map((row) => row.id),
      commonVendor: common.vendor,
      commonStatus: common.status,
      rareVendor: rare.vendor,
      rareStatus: rare.status,
      vendors,
      statuses,
      roles,
      locations,
      tags,
      postgres: version.rows[0]?.v.split(' on ')[0] ?? 'unknown',
      autovacuum: autovacuum.rows[0]?.autovacuum ?? 'unknown',
      deviceGroups: groups.rows,
    };
    if (options.unanalyzed) await forgetStatistics(db);
    return facts;
  } finally {
    await store.close();
  }
}

/**
 * Puts the data set's tables back as a store filled through the API and never analyzed finds
 * them (--unanalyzed): no column statistics, and no row or page count recorded by a VACUUM or an
 * ANALYZE. The superuser may write these catalogs; a copy restored by --reuse has them again.
 */
async function forgetStatistics(db: AnyDatabase) {
  await sql`DELETE FROM pg_statistic WHERE starelid IN (
    SELECT oid FROM pg_class WHERE relnamespace = 'public'::regnamespace)`.execute(db);
  await sql`UPDATE pg_class SET reltuples = -1, relpages = 0
    WHERE relnamespace = 'public'::regnamespace AND relkind = 'r'`.execute(db);
  log('data set: planner statistics removed (--unanalyzed)');
}

async function main() {
  const options = readOptions();
  // Figures are only comparable within one run, on a machine nobody else loads: say how loaded.
  const loadAtStart = loadavg().map((value) => value.toFixed(2));
  log(`machine: ${machineText()}; load average ${loadAtStart.join(' ')}`);
  log(
    `inventory benchmark: ${options.devices} devices, ${options.store} store, ` +
      `${options.connections} connections, ${options.durationSeconds} s per scenario`,
  );
  const loaded = await prepareStore(options);
  if (loaded === 'as left') {
    log('data set: reused as the previous run left it (same size; no copy as loaded was kept)');
  } else if ('restored' in loaded) {
    log(`data set: restored as loaded from the copy kept (${loaded.restored.toFixed(1)} s)`);
  } else {
    log(
      `data set loaded in ${loaded.seconds.toFixed(1)} s (incl. VACUUM ANALYZE): ` +
        Object.entries(loaded.rows)
          .map(([table, count]) => `${count} ${table}`)
          .join(', '),
    );
  }
  const facts = await readFacts(options, loaded === 'as left');
  log(`database: ${facts.postgres}, autovacuum ${facts.autovacuum}`);

  const profileDir = `${RESULTS_DIR}/profiles`;
  if (options.cpuProfile) mkdirSync(profileDir, { recursive: true });
  const server = await startInventoryServer({
    env: {
      ...(options.store === 'pg'
        ? { DATABASE_URL: options.databaseUrl }
        : { DATA_DIR: EMBEDDED_DIR, DATABASE_URL: '' }),
      JWT_SECRET: randomBytes(32).toString('base64url'),
      SEED_PASSWORD,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: '0',
      LIST_CACHE: options.listCache ? 'on' : 'off',
      EMBEDDED_DURABILITY: options.durability,
    },
    cpuProfileDir: options.cpuProfile ? profileDir : undefined,
    compiled: options.compiled,
  });
  // The server inherits this environment, EMBEDDED_SHARED_BUFFERS included: named here, so the
  // output says which size a run measured.
  const sharedBuffers =
    options.store === 'embedded'
      ? `, EMBEDDED_SHARED_BUFFERS=${
          process.env.EMBEDDED_SHARED_BUFFERS?.trim() ||
          `unset (${DEFAULT_EMBEDDED_SHARED_BUFFERS_MB}MB)`
        }`
      : '';
  log(
    `server: ${server.url} (pid ${server.pid}, LIST_CACHE=${options.listCache ? 'on' : 'off'}, ` +
      `EMBEDDED_DURABILITY=${options.durability}${sharedBuffers}), ` +
      `listening ${Math.round(server.startupMs)} ms after spawn`,
  );
  const ceiling = await startCeilingServer();
  // PostgreSQL's backends serving the server, for their CPU time (the embedded store runs inside
  // the server's own process, so its CPU is already the server's).
  const backendsOf = await databaseBackends(options);

  const results: ScenarioResult[] = [];
  let memory: ReturnType<typeof server.memory> = { peakRssMb: null, hwmMb: null };
  try {
    const token = await login(server.url);
    const headers = { authorization: `Bearer ${token}` };
    const runTag = Date.now().toString(36);
    const scenarios = buildScenarios(facts, runTag, SEED_PASSWORD).filter(
      (scenario) =>
        options.only.length === 0 || options.only.some((text) => scenario.name.includes(text)),
    );
    for (const scenario of scenarios) {
      if (scenario.kind === 'export') {
        const result = await measureExport(server, headers, scenario, options, backendsOf);
        results.push(result);
        log(formatTable([result]).split('\n').at(-1) ?? '');
        continue;
      }
      if (scenario.kind === 'mixed') {
        const measured = await measureMixed(
          server,
          ceiling,
          headers,
          scenario,
          options,
          backendsOf,
        );
        results.push(...measured);
        for (const result of measured) log(formatTable([result]).split('\n').at(-1) ?? '');
        if (measured[0]?.listCache) log(`  list cache: ${hitRates(measured[0].listCache).text}`);
        continue;
      }
      let n = 0;
      await scenario.prepare?.(
        async (path) => (await fetch(`${server.url}${path}`, { headers })).json(),
        server.url,
      );
      if (scenario.kind === 'one-user') {
        const result = await measureOneUserScenario(server, headers, scenario, options);
        results.push(result);
        log(formatTable([result]).split('\n').at(-1) ?? '');
        if (result.baseline) log(`  ${oneUserBaselineText(result)}`);
        continue;
      }
      const scenarioHeaders = { ...headers, ...scenario.headers?.() };
      const next = () => scenario.request(n++);
      // One request first: it must succeed, and its answer is what the ceiling will send.
      const probe = next();
      const response = await fetch(`${server.url}${probe.path}`, {
        method: probe.method,
        headers: {
          ...scenarioHeaders,
          ...(probe.body ? { 'content-type': 'application/json' } : {}),
        },
        ...(probe.body ? { body: probe.body } : {}),
      });
      const body = await response.text();
      if (response.status === 404 && /route/i.test(body)) {
        results.push({ name: scenario.name, kind: scenario.kind, skipped: 'route missing (404)' });
        log(`${scenario.name}: route missing, not measured`);
        continue;
      }
      if (!response.ok) {
        throw new Error(
          `${scenario.name}: probe answered ${response.status} ${body.slice(0, 300)}`,
        );
      }
      const load = { connections: options.connections, headers: scenarioHeaders, next };
      let firstPass: ScenarioResult['firstPass'];
      if (scenario.rotation !== undefined) {
        // A scenario of many distinct lists warms up with one pass through them, measured: each
        // of the pool's connections prepares and plans each list's statement once, at several
        // times the cost of a later call, and a 2 s warm-up leaves most of that to the measured
        // seconds (see the README's "Varied lists after their first pass").
        firstPass = await driveMetered(
          { ...load, url: server.url, durationSeconds: 0, amount: scenario.rotation },
          server.pid,
          backendsOf,
        );
      } else if (options.warmupSeconds > 0) {
        await drive({ ...load, url: server.url, durationSeconds: options.warmupSeconds });
      }
      const cacheBefore =
        scenario.kind === 'varied' ? await listCacheStats(server.url, headers) : undefined;
      const isWrite = scenario.kind === 'write' || scenario.kind === 'batch';
      const walStore = isWrite ? backendsOf.store?.db : undefined;
      const walBefore = walStore ? await walPosition(walStore) : undefined;
      const { serverCpuMs, databaseCpuMs, loadGeneratorCpuMs, ...api } = await driveMetered(
        { ...load, url: server.url, durationSeconds: options.durationSeconds },
        server.pid,
        backendsOf,
      );
      const walBytes =
        walStore && walBefore !== undefined ? await walBytesSince(walStore, walBefore) : undefined;
      const listCache = cacheBefore
        ? listCacheDelta(cacheBefore, await listCacheStats(server.url, headers))
        : undefined;
      await ceiling.answerWith(response.status, body);
      const ceilingCpu = cpuMeter([ceiling.pid]);
      const ceilingResult = await drive({
        ...load,
        url: ceiling.url,
        durationSeconds: options.durationSeconds,
      });
      const ceilingCpuMs = ceilingCpu.stop();
      const result: ScenarioResult = {
        name: scenario.name,
        kind: scenario.kind,
        responseBytes: Buffer.byteLength(body),
        api,
        ceiling: ceilingResult,
        ...(serverCpuMs !== undefined ? { serverCpuMs } : {}),
        ...(databaseCpuMs !== undefined ? { databaseCpuMs } : {}),
        ...(loadGeneratorCpuMs !== undefined ? { loadGeneratorCpuMs } : {}),
        ...(ceilingCpuMs !== null && ceilingResult.requests > 0
          ? { ceilingCpuMs: ceilingCpuMs / ceilingResult.requests }
          : {}),
      };
      if (walBytes !== undefined && api.requests > 0) {
        result.walBytesPerRequest = walBytes / api.requests;
      }
      if (isWrite && options.store === 'pg') {
        // The write's baseline in the same run: the same requests, hence the same statements,
        // with the table's own triggers (history, counters, versions, outbox) switched off.
        result.withoutTriggers = await measureWithoutTriggers(options, () =>
          drive({ ...load, url: server.url, durationSeconds: options.durationSeconds }),
        );
      }
      if (firstPass) result.firstPass = firstPass;
      if (scenario.kind === 'varied') {
        result.totalsChecked = await checkTotals(
          server.url,
          headers,
          scenario,
          options,
          facts.deviceGroups,
        );
        if (listCache) result.listCache = listCache;
      }
      results.push(result);
      log(formatTable([result]).split('\n').at(-1) ?? '');
      if (result.totalsChecked) {
        const { exact, checked } = result.totalsChecked;
        log(`  totals: ${exact} of ${checked} sampled pages equal COUNT(*) of their filter`);
        if (result.listCache) log(`  list cache: ${hitRates(result.listCache).text}`);
      }
      if (result.firstPass) {
        const pass = result.firstPass;
        const cpu = (ms: number | undefined) => (ms === undefined ? '?' : ms.toFixed(2));
        log(
          `  first pass (${pass.requests} requests, the warm-up): ${pass.requestsPerSecond} req/s, ` +
            `p99 ${pass.p99Ms} ms, CPU per request: server ${cpu(pass.serverCpuMs)} ms, ` +
            `database ${cpu(pass.databaseCpuMs)} ms`,
        );
      }
      if (result.walBytesPerRequest !== undefined) {
        log(
          `  WAL: ${(result.walBytesPerRequest / 1024).toFixed(1)} kB per request ` +
            '(several times more while pages are first changed after a checkpoint)',
        );
      }
      if (result.withoutTriggers) {
        const bare = result.withoutTriggers;
        log(
          `  without triggers: ${bare.requestsPerSecond} req/s, p50 ${bare.p50Ms} ms, ` +
            `p99 ${bare.p99Ms} ms (with them: ${(
              (result.api?.requestsPerSecond ?? 0) / Math.max(1, bare.requestsPerSecond)
            ).toFixed(2)}x the throughput)`,
        );
      }
    }
  } finally {
    memory = server.memory();
    await server.stop();
    await ceiling.stop();
    await backendsOf.close();
  }

  const peakRssMb = Math.max(memory.peakRssMb ?? 0, memory.hwmMb ?? 0) || null;
  const checks = checkTargets(
    results,
    options.store,
    peakRssMb,
    server.startupMs,
    options.listCache,
  );
  log('');
  log(formatTable(results));
  log('');
  log(
    `server RSS: peak ${memory.peakRssMb ?? '?'} MB sampled, VmHWM ${memory.hwmMb ?? '?'} MB; ` +
      `start-up ${Math.round(server.startupMs)} ms`,
  );
  log('');
  log(formatTargets(checks));

  const loadAtEnd = loadavg().map((value) => value.toFixed(2));
  log(`load average at the start ${loadAtStart.join(' ')}, at the end ${loadAtEnd.join(' ')}`);
  const machine = {
    loadAverageAtStart: loadAtStart,
    loadAverageAtEnd: loadAtEnd,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(totalmem() / 1024 ** 3),
    node: process.version,
    postgres: facts.postgres,
    autovacuum: facts.autovacuum,
    loadGenerator: 'autocannon, same machine',
  };
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = `${RESULTS_DIR}/${new Date().toISOString().replaceAll(':', '-')}.json`;
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        options,
        machine,
        dataset: loaded,
        startupMs: Math.round(server.startupMs),
        memory,
        targets: TARGETS,
        results,
        checks,
      },
      null,
      2,
    )}\n`,
  );
  log(`\nresults written to ${file}`);
}

/** How many devices hold one combination of vendor, status and role (null: none). */
interface DeviceGroup {
  vendor: string | null;
  status: string;
  role: string | null;
  n: number;
}

/**
 * The varied lists' totals must be exact: a sample of its URLs, each answer's `total_count`
 * against COUNT(*) of the same filter (vendor, status, role: exact matches) on the database.
 * The embedded store is counted before the server opened it (`groups`, read with the facts): one
 * process at a time opens its folder, and no scenario before the varied lists writes a device.
 */
async function checkTotals(
  url: string,
  headers: Record<string, string>,
  scenario: Scenario,
  options: BenchOptions,
  groups: readonly DeviceGroup[],
): Promise<{ checked: number; exact: number }> {
  const store = options.store === 'pg' ? await openBenchStore(options) : undefined;
  let exact = 0;
  const checked = 25;
  try {
    for (let n = 0; n < checked; n++) {
      const { path } = scenario.request(n * 397);
      const response = await fetch(`${url}${path}`, { headers });
      const body = (await response.json()) as { meta?: { total_count?: number } };
      const filters = [...new URLSearchParams(path.split('?')[1]).entries()].filter(
        (entry): entry is [keyof DeviceGroup, string] =>
          ['vendor', 'status', 'role'].includes(entry[0]),
      );
      let counted: number;
      if (store) {
        const where = filters.map(([key, value]) => sql`${sql.ref(key)} = ${value}`);
        const rows = await sql<{ n: string }>`SELECT count(*) AS n FROM devices
          ${where.length > 0 ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``}`.execute(
          store.db,
        );
        counted = Number(rows.rows[0]?.n);
      } else {
        counted = groups
          .filter((group) => filters.every(([key, value]) => group[key] === value))
          .reduce((sum, group) => sum + group.n, 0);
      }
      if (counted === body.meta?.total_count) exact += 1;
      else log(`  total differs for ${path}: ${body.meta?.total_count} vs ${counted}`);
    }
  } finally {
    await store?.close();
  }
  return { checked, exact };
}

/**
 * Runs `measure` with the user triggers of `devices` disabled (the history, value counters,
 * table versions and the outbox under the history), then enables them again and repairs what
 * those writes did not maintain (row and value counts, the version: recount_table_rows).
 */
async function measureWithoutTriggers<T>(
  options: BenchOptions,
  measure: () => Promise<T>,
): Promise<T> {
  const store = await openBenchStore(options);
  try {
    await sql`ALTER TABLE devices DISABLE TRIGGER USER`.execute(store.db);
    try {
      return await measure();
    } finally {
      await sql`ALTER TABLE devices ENABLE TRIGGER USER`.execute(store.db);
      await sql`SELECT recount_table_rows('devices')`.execute(store.db);
    }
  } finally {
    await store.close();
  }
}

type Server = Awaited<ReturnType<typeof startInventoryServer>>;
type Ceiling = Awaited<ReturnType<typeof startCeilingServer>>;
type Backends = Awaited<ReturnType<typeof databaseBackends>>;

/**
 * `drive`, with the CPU the server and PostgreSQL's backends spent on it per answered request.
 * The backends are listed again at the end: the pool opens its connections lazily, during the
 * first requests, and one opened during the run counts in full.
 */
async function driveMetered(
  load: LoadOptions,
  serverPid: number,
  backendsOf: Backends,
): Promise<
  LoadResult & { serverCpuMs?: number; databaseCpuMs?: number; loadGeneratorCpuMs?: number }
> {
  const serverCpu = cpuMeter([serverPid]);
  const databaseCpu = await cpuMeterOfListed(backendsOf);
  const ownCpu = ownCpuMeter();
  const result = await drive(load);
  const ownCpuMs = ownCpu.stop();
  const perRequest = (ms: number | null) =>
    ms === null || result.requests === 0 ? undefined : ms / result.requests;
  const loadGeneratorCpuMs = perRequest(ownCpuMs);
  const serverCpuMs = perRequest(serverCpu.stop());
  const databaseCpuMs = perRequest(await databaseCpu.stop());
  return {
    ...result,
    ...(serverCpuMs !== undefined ? { serverCpuMs } : {}),
    ...(databaseCpuMs !== undefined ? { databaseCpuMs } : {}),
    ...(loadGeneratorCpuMs !== undefined ? { loadGeneratorCpuMs } : {}),
  };
}

function rssMbOf(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    return Number.isFinite(kb) ? Math.round(kb / 1024) : null;
  } catch {
    return null;
  }
}

/**
 * The export row: every device as CSV, one download at a time for the scenario's
 * duration (at least one), with the server's RSS sampled every 50 ms against its RSS idle
 * just before (the first scenario, so nothing earlier has grown the heap).
 */
async function measureExport(
  server: Server,
  headers: Record<string, string>,
  scenario: Scenario,
  options: BenchOptions,
  backendsOf: Backends,
): Promise<ScenarioResult> {
  const { path } = scenario.request(0);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const idleRssMb = rssMbOf(server.pid);
  let peakRssMb = idleRssMb;
  const sampler = setInterval(() => {
    const rss = rssMbOf(server.pid);
    if (rss !== null) peakRssMb = Math.max(peakRssMb ?? 0, rss);
  }, 50);
  const serverCpu = cpuMeter([server.pid]);
  const databaseCpu = await cpuMeterOfListed(backendsOf);
  const latencies: number[] = [];
  let bytes = 0;
  let lines = 0;
  let non2xx = 0;
  const started = performance.now();
  try {
    do {
      const sent = performance.now();
      const response = await fetch(`${server.url}${path}`, { headers });
      if (!response.ok || !response.body) non2xx += 1;
      for await (const chunk of response.body ?? []) {
        const data = chunk as Uint8Array;
        bytes += data.length;
        lines += lineFeeds(data);
      }
      latencies.push(performance.now() - sent);
    } while (performance.now() - started < options.durationSeconds * 1000);
  } finally {
    clearInterval(sampler);
  }
  const exports = latencies.length;
  const seconds = (performance.now() - started) / 1000;
  const rows = Math.round((lines - exports) / exports);
  latencies.sort((a, b) => a - b);
  const serverCpuMs = serverCpu.stop();
  const databaseCpuMs = await databaseCpu.stop();
  const copyAlone = backendsOf.store
    ? await measureCopyAlone(backendsOf.store, exports)
    : undefined;
  return {
    name: scenario.name,
    kind: 'export',
    responseBytes: Math.round(bytes / exports),
    api: {
      requestsPerSecond: Math.round((exports / seconds) * 100) / 100,
      p50Ms: Math.round(latencies[Math.floor(exports / 2)] ?? 0),
      p99Ms: Math.round(latencies.at(-1) ?? 0),
      errors: 0,
      non2xx,
      requests: exports,
    },
    ...(serverCpuMs !== null ? { serverCpuMs: serverCpuMs / exports } : {}),
    ...(databaseCpuMs !== null ? { databaseCpuMs: databaseCpuMs / exports } : {}),
    export: {
      exports,
      rows,
      megabytes: Math.round(bytes / exports / 1024 / 102.4) / 10,
      secondsEach: Math.round((seconds / exports) * 100) / 100,
      rowsPerSecond: Math.round((rows * exports) / seconds),
      idleRssMb,
      peakRssMb,
      ...(copyAlone ? { copyAlone } : {}),
    },
  };
}

/** Line feeds in `data`, found with indexOf (memchr): a loop over every byte cost the client more. */
function lineFeeds(data: Uint8Array): number {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  let count = 0;
  for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) count += 1;
  return count;
}

/**
 * The export's baseline: the `COPY` statement the server runs for it (every device, the same
 * columns, conversions and order), run alone from this process, whose client only counts the
 * lines. PostgreSQL's own pace for these rows on this machine, which the export cannot pass: it
 * runs this statement and sends what it writes. As many copies as exports (3 to 10), after them.
 */
async function measureCopyAlone(store: Store<Database>, exports: number) {
  const copyOut = copyOutOf(store.db as unknown as Kysely<never>);
  if (!copyOut) return undefined;
  const { selected, ...selection } = listSelection(devices, { limit: 1, format: 'csv' }, {});
  const text = exportCopyText(store.db as unknown as AnyDatabase, devices, {
    ...selection,
    ...(selected ? { fields: selected } : {}),
  });
  const copies = Math.min(10, Math.max(3, exports));
  let lines = 0;
  const started = performance.now();
  for (let copy = 0; copy < copies; copy += 1) {
    for await (const chunk of copyOut(text, 0)) lines += lineFeeds(chunk as Buffer);
  }
  const seconds = (performance.now() - started) / 1000;
  const rows = Math.round((lines - copies) / copies);
  return {
    copies,
    rows,
    secondsEach: Math.round((seconds / copies) * 100) / 100,
    rowsPerSecond: Math.round((rows * copies) / seconds),
  };
}

/**
 * A page as one person sees it: a single connection, each request waiting for the previous
 * answer, taking turns with the API request it is compared with (the same run's baseline).
 */
async function measureOneUserScenario(
  server: Server,
  headers: Record<string, string>,
  scenario: Scenario,
  options: BenchOptions,
): Promise<ScenarioResult> {
  const path = scenario.request(0).path;
  const own = scenario.headers?.() ?? headers;
  const probe = await fetch(`${server.url}${path}`, { headers: own, redirect: 'manual' });
  const body = await probe.text();
  if (probe.status !== 200) {
    throw new Error(`${scenario.name}: probe answered ${probe.status} ${body.slice(0, 300)}`);
  }
  const baseline = scenario.baseline;
  const [page, compared] = await measureOneUser({
    url: server.url,
    requests: [{ path, headers: own }, ...(baseline ? [{ path: baseline.path, headers }] : [])],
    durationSeconds: options.durationSeconds,
    warmupSeconds: options.warmupSeconds,
  });
  return {
    name: scenario.name,
    kind: 'one-user',
    responseBytes: Buffer.byteLength(body),
    ...(page ? { api: page } : { skipped: 'no request measured' }),
    ...(baseline && compared ? { baseline: { name: baseline.name, result: compared } } : {}),
  };
}

async function listCacheStats(url: string, headers: Record<string, string>) {
  const response = await fetch(`${url}/debug/list-cache`, { headers });
  if (!response.ok) return undefined;
  const body = (await response.json()) as Record<string, number>;
  return {
    pagesReused: body.pages_reused ?? 0,
    pagesRead: body.pages_read ?? 0,
    pagesKnownStale: body.pages_known_stale ?? 0,
    totalsMaintained: body.totals_maintained ?? 0,
    totalsReused: body.totals_reused ?? 0,
    totalsCounted: body.totals_counted ?? 0,
    countsAwaited: body.counts_awaited ?? 0,
    walksFromPosition: body.walks_from_position ?? 0,
    walksFromStart: body.walks_from_start ?? 0,
    positionsStale: body.positions_stale ?? 0,
    deepPagesUnrecorded: body.deep_pages_unrecorded ?? 0,
  };
}

/** What the list cache did between two readings of its statistics. */
function listCacheDelta(
  before: ListCacheDelta,
  after: ListCacheDelta | undefined,
): ListCacheDelta | undefined {
  if (after === undefined) return undefined;
  return Object.fromEntries(
    Object.entries(after).map(([key, value]) => [
      key,
      value - (before[key as keyof ListCacheDelta] ?? 0),
    ]),
  ) as unknown as ListCacheDelta;
}

/**
 * The mixed workload (mixed.ts): reads and writes measured apart in one run, the list
 * cache's hit rate over the measured seconds, and the same request stream against the ceiling
 * answering a 10-device page (the most common answer) for the ratio.
 */
async function measureMixed(
  server: Server,
  ceiling: Ceiling,
  headers: Record<string, string>,
  scenario: Scenario,
  options: BenchOptions,
  backendsOf: Backends,
): Promise<ScenarioResult[]> {
  let n = 0;
  const next = () => scenario.request(n++) as MixedRequest;
  const load = { connections: options.connections, headers, next };
  if (options.warmupSeconds > 0) {
    await driveMixed({ ...load, url: server.url, durationSeconds: options.warmupSeconds });
  }
  const before = await listCacheStats(server.url, headers);
  const serverCpu = cpuMeter([server.pid]);
  const databaseCpu = await cpuMeterOfListed(backendsOf);
  const ownCpu = ownCpuMeter();
  const api = await driveMixed({
    ...load,
    url: server.url,
    durationSeconds: options.durationSeconds,
  });
  const ownCpuMs = ownCpu.stop();
  const serverCpuMs = serverCpu.stop();
  const databaseCpuMs = await databaseCpu.stop();
  const listCache = before
    ? listCacheDelta(before, await listCacheStats(server.url, headers))
    : undefined;
  const page = await fetch(`${server.url}/devices?limit=10`, { headers });
  await ceiling.answerWith(200, await page.text());
  const ceilingCpu = cpuMeter([ceiling.pid]);
  const ceilingRun = await driveMixed({
    ...load,
    url: ceiling.url,
    durationSeconds: options.durationSeconds,
  });
  const ceilingCpuMs = ceilingCpu.stop();
  const total = api.all.requests;
  const perRequest = (ms: number | null) => (ms === null || total === 0 ? undefined : ms / total);
  const cpu = {
    ...(perRequest(serverCpuMs) !== undefined ? { serverCpuMs: perRequest(serverCpuMs) } : {}),
    ...(perRequest(databaseCpuMs) !== undefined
      ? { databaseCpuMs: perRequest(databaseCpuMs) }
      : {}),
    ...(perRequest(ownCpuMs) !== undefined ? { loadGeneratorCpuMs: perRequest(ownCpuMs) } : {}),
    ...(ceilingCpuMs !== null && ceilingRun.all.requests > 0
      ? { ceilingCpuMs: ceilingCpuMs / ceilingRun.all.requests }
      : {}),
  } as Pick<
    ScenarioResult,
    'serverCpuMs' | 'databaseCpuMs' | 'loadGeneratorCpuMs' | 'ceilingCpuMs'
  >;
  return [
    {
      name: `${scenario.name}: reads (${100 - WRITE_SHARE} %)`,
      kind: 'mixed',
      api: api.reads,
      ceiling: ceilingRun.reads,
      ...cpu,
      ...(listCache ? { listCache } : {}),
    },
    {
      name: `${scenario.name}: writes (${WRITE_SHARE} %)`,
      kind: 'mixed-writes',
      api: api.writes,
      ceiling: ceilingRun.writes,
      writesByKind: api.writesByKind,
    },
  ];
}

const WRITE_SHARE = MIXED_SHARES.patch + MIXED_SHARES.post + MIXED_SHARES.batch;

/**
 * The process ids of the PostgreSQL backends connected to the benchmark's database (the server's
 * pool, opened lazily, so asked again before each scenario), not counting the asking one.
 */
async function databaseBackends(options: BenchOptions) {
  if (options.store !== 'pg') {
    return Object.assign(async () => [], { close: async () => {}, store: undefined });
  }
  const store = await openBenchStore(options);
  const list = async () => {
    const result = await sql<{ pid: number }>`
      SELECT pid FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid()`.execute(store.db);
    return result.rows.map((row) => row.pid);
  };
  return Object.assign(list, {
    close: () => store.close(),
    store: store as Store<Database> | undefined,
  });
}

async function login(url: string): Promise<string> {
  const response = await fetch(`${url}/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: SEED_PASSWORD }),
  });
  const body = (await response.json()) as { token?: string };
  if (!response.ok || !body.token) {
    throw new Error(`login failed: ${response.status} ${JSON.stringify(body)}`);
  }
  return body.token;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
