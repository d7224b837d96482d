// PostgreSQL stopped and restarted under load: the real service (src/main.ts in its own
// process) on a private PostgreSQL 15 cluster, steady reads and writes, then `pg_ctl stop -m fast`
// (and, in the second case, `-m immediate`: a crash), load kept up during the outage, PostgreSQL
// started again. Runs in the PostgreSQL pass of CI (TEST_DATABASE_URL set); the shared server is
// never touched.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkDevices,
  percentiles,
  type RequestRecord,
  runWriter,
  type StoredDevice,
  WriteModel,
} from './support/client-writes.js';
import {
  type PrivateCluster,
  privateClusterUnavailable,
  startPrivateCluster,
} from './support/postgres-cluster.js';
import {
  CRASH_SIGNS,
  loginAs,
  report,
  type ServerProcess,
  spawnServer,
} from './support/process-server.js';

const SOAK = process.env.SOAK === '1';
const WRITERS = SOAK ? 16 : 6;
const BEFORE_MS = SOAK ? 5000 : 2000;
const OUTAGE_MS = SOAK ? 15_000 : 3000;
const AFTER_MS = SOAK ? 5000 : 2000;
/** "Quickly": an answer during the outage may take this long, never more (a hang would). */
const OUTAGE_ANSWER_MS = 2000;
/** The service must serve again this soon after PostgreSQL accepts connections. */
const RECOVERY_MS = 5000;
/**
 * The service's database deadlines in this test (DATABASE_CONNECT_TIMEOUT_MS and
 * DATABASE_QUERY_TIMEOUT_MS; 5 s and 30 s by default): a frozen server is answered 503 after them.
 */
const CONNECT_TIMEOUT_MS = 1500;
const QUERY_TIMEOUT_MS = 3000;
/** In the URL the service gets, to show it never appears in its output. */
const DB_PASSWORD = 'outage-secret-pw-7f3a';

const skipReason = !process.env.TEST_DATABASE_URL
  ? 'TEST_DATABASE_URL is not set: the outage needs a PostgreSQL server (the PostgreSQL pass of CI)'
  : privateClusterUnavailable();

// The reason shows in the report as the skipped test's name.
if (skipReason) it.skip(`PostgreSQL outage: skipped, ${skipReason}`, () => {});

describe.skipIf(skipReason !== undefined)('PostgreSQL outage under load', () => {
  let cluster: PrivateCluster;
  let server: ServerProcess;
  let token: string;
  const model = new WriteModel();

  beforeAll(async () => {
    cluster = await startPrivateCluster();
    await cluster.psql('CREATE DATABASE inventory');
    server = await spawnServer({
      env: {
        DATABASE_URL: cluster.url('inventory', DB_PASSWORD),
        JWT_SECRET: 'outage-test-secret-that-is-long-enough-1234',
        DATABASE_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
        DATABASE_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS),
      },
    });
    token = await loginAs(server.url);
  });

  afterAll(async () => {
    await server?.stop();
    await cluster?.destroy();
  });

  async function storedDevices(): Promise<StoredDevice[]> {
    const client = new pg.Client({ connectionString: cluster.url('inventory') });
    await client.connect();
    try {
      return (await client.query<StoredDevice>('SELECT id, hostname, vendor FROM devices')).rows;
    } finally {
      await client.end();
    }
  }

  const OUTAGES = {
    fast: {
      title: '`pg_ctl stop -m fast`',
      begin: () => cluster.stop('fast'),
      end: () => cluster.start(),
      answerWithinMs: OUTAGE_ANSWER_MS,
    },
    immediate: {
      title: '`pg_ctl stop -m immediate` (a crash)',
      begin: () => cluster.stop('immediate'),
      end: () => cluster.start(),
      answerWithinMs: OUTAGE_ANSWER_MS,
    },
    // Nothing refused, nothing closed: only the deadlines can end a wait.
    frozen: {
      title: 'a frozen server (SIGSTOP)',
      begin: () => cluster.freeze(),
      end: () => cluster.thaw(),
      answerWithinMs: QUERY_TIMEOUT_MS + OUTAGE_ANSWER_MS,
    },
  };

  for (const mode of ['fast', 'immediate', 'frozen'] as const) {
    const outage = OUTAGES[mode];
    it(`answers 503 in time during ${outage.title} and recovers by itself`, async () => {
      const log: RequestRecord[] = [];
      model.log.length = 0;
      const acknowledgedBefore = { ...model.acknowledgedByKind };
      let stopping = false;
      const writers = Array.from({ length: WRITERS }, (_, worker) =>
        runWriter({
          baseUrl: server.url,
          token,
          worker: worker + 100 * Object.keys(OUTAGES).indexOf(mode),
          model,
          mix: { create: 3, patch: 3, 'batch-patch': 1, read: 2, 'read-one': 2 },
          stop: () => stopping,
          requestTimeoutMs: 10_000,
          // During the outage answers come in microseconds; a short pause keeps the refused
          // requests countable and the log readable.
          pauseMs: 20,
        }),
      );
      const probes: Array<{ at: number; path: string; status: number; ms: number }> = [];
      const probe = async (path: string) => {
        const started = performance.now();
        const response = await fetch(`${server.url}${path}`, { signal: AbortSignal.timeout(5000) });
        await response.arrayBuffer();
        probes.push({
          at: started,
          path,
          status: response.status,
          ms: performance.now() - started,
        });
        return response.status;
      };

      await sleep(BEFORE_MS);
      const stopAt = performance.now();
      await outage.begin();
      const downAt = performance.now();
      // A frozen server gives its first answers only at the deadlines.
      await sleep(
        mode === 'frozen' ? Math.max(OUTAGE_MS, QUERY_TIMEOUT_MS * 3) / 2 : OUTAGE_MS / 2,
      );
      const liveDuring = await probe('/health');
      const readyDuring = await probe('/health/ready');
      await sleep(
        mode === 'frozen' ? Math.max(OUTAGE_MS, QUERY_TIMEOUT_MS * 3) / 2 : OUTAGE_MS / 2,
      );
      const startAt = performance.now();
      await outage.end();
      const upAt = performance.now();
      // Recovery: the first moment after which every request succeeds.
      let recoveredAt: number | undefined;
      while (performance.now() - upAt < RECOVERY_MS + 5000) {
        if ((await probe('/health/ready')) === 200) {
          recoveredAt = performance.now();
          break;
        }
        await sleep(100);
      }
      const recoveredCheckAt = performance.now();
      await sleep(AFTER_MS);
      stopping = true;
      await Promise.all(writers);
      log.push(...model.log);

      const during = log.filter((r) => r.startedAt >= downAt && r.endedAt <= startAt);
      const after = log.filter((r) => r.startedAt >= recoveredCheckAt + 500);
      const transition = log.filter(
        (r) =>
          (r.endedAt > stopAt && r.startedAt < downAt) ||
          (r.endedAt > startAt && r.startedAt < recoveredCheckAt + 500),
      );
      const statuses = (records: RequestRecord[]) => {
        const counts: Record<string, number> = {};
        for (const r of records) {
          const key = r.status === 0 ? (r.error ?? 'no answer') : String(r.status);
          counts[key] = (counts[key] ?? 0) + 1;
        }
        return counts;
      };
      const problems = checkDevices(model, await storedDevices());
      const figures = {
        mode,
        writers: WRITERS,
        stopMs: Math.round(downAt - stopAt),
        outageMs: Math.round(startAt - downAt),
        startMs: Math.round(upAt - startAt),
        recoveryMs: recoveredAt === undefined ? null : Math.round(recoveredAt - upAt),
        requests: log.length,
        duringOutage: {
          statuses: statuses(during),
          latency: percentiles(during.map((r) => r.endedAt - r.startedAt)),
        },
        transition: statuses(transition),
        afterRecovery: {
          statuses: statuses(after),
          latency: percentiles(after.map((r) => r.endedAt - r.startedAt)),
        },
        acknowledgedWrites: Object.fromEntries(
          Object.entries(model.acknowledgedByKind).map(([kind, n]) => [
            kind,
            n - (acknowledgedBefore[kind] ?? 0),
          ]),
        ),
        storedDevices: model.devices.size,
        problems: problems.length,
        probesDuring: { health: liveDuring, ready: readyDuring },
        rssMb: Math.round(server.rssMb() ?? 0),
      };
      report(`database-outage-${mode}${SOAK ? '-soak' : ''}`, figures);

      // The service lived through it: no crash, no unhandled rejection, no leaked secret.
      if (!server.running()) console.error(server.output().slice(-4000));
      expect(server.running()).toBe(true);
      expect(server.output()).not.toMatch(CRASH_SIGNS);
      expect(server.output()).not.toContain(DB_PASSWORD);
      // During the outage: every request answered, quickly, 503 in the error shape with Retry-After.
      expect(during.length).toBeGreaterThanOrEqual(WRITERS);
      for (const r of during) {
        expect({ kind: r.kind, status: r.status, error: r.error }).toEqual({
          kind: r.kind,
          status: 503,
          error: undefined,
        });
        expect(r.errorShape).toBe(true);
        expect(r.message).toBe('Database unavailable, try again');
        expect(r.retryAfter).toMatch(/^[1-9][0-9]*$/);
        expect(r.endedAt - r.startedAt).toBeLessThan(outage.answerWithinMs);
      }
      // While it went down and came back: only successes and 503s, never a 500 or a hang.
      for (const r of transition) expect([200, 201, 204, 503]).toContain(r.status);
      expect(liveDuring).toBe(200);
      expect(readyDuring).toBe(503);
      // Back by itself, without a restart of the service.
      expect(recoveredAt).toBeDefined();
      expect((recoveredAt ?? Number.POSITIVE_INFINITY) - upAt).toBeLessThan(RECOVERY_MS);
      expect(after.length).toBeGreaterThan(WRITERS);
      for (const r of after) expect([200, 201, 204]).toContain(r.status);
      // Every acknowledged write is in the database.
      expect(problems).toEqual([]);
    });
  }
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
