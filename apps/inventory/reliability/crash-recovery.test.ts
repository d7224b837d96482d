// SIGKILL of the embedded store while writing: the real service (src/main.ts in its own
// process) on a fresh DATA_DIR (PGlite on disk), concurrent creates, PATCHes, batch PATCHes and
// deletes, each acknowledgement remembered; SIGKILL at a random moment; a restart on the same
// folder must start and hold every acknowledged write, and batches all or nothing. At the end the
// folder is opened directly: amcheck on every B-tree (each heap row in its indexes), index and
// sequential scans agree, and the audit log has a row per applied write. The embedded store is
// used whatever TEST_DATABASE_URL says, so CI runs it in its embedded pass only.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { amcheck } from '@electric-sql/pglite/contrib/amcheck';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type AuditCounts,
  checkAudit,
  checkDevices,
  runWriter,
  type StoredDevice,
  WriteModel,
} from './support/client-writes.js';
import {
  CRASH_SIGNS,
  loginAs,
  report,
  type ServerProcess,
  spawnServer,
} from './support/process-server.js';

const SOAK = process.env.SOAK === '1';
const ROUNDS = SOAK ? 12 : 3;
const WRITERS = SOAK ? 8 : 4;

async function storedDevicesThroughApi(baseUrl: string, token: string): Promise<StoredDevice[]> {
  const rows: StoredDevice[] = [];
  for (let page = 1; ; page++) {
    const response = await fetch(`${baseUrl}/devices?limit=100&page=${page}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: StoredDevice[] };
    rows.push(...body.data);
    if (body.data.length < 100) return rows;
  }
}

describe('SIGKILL of the embedded store while writing', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'inventory-crash-'));
  let server: ServerProcess | undefined;

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`keeps every acknowledged write over ${ROUNDS} kills at random moments`, async () => {
    const model = new WriteModel();
    const rounds: Array<Record<string, unknown>> = [];
    server = await spawnServer({ env: { DATA_DIR: dataDir } });
    let token = await loginAs(server.url);

    for (let round = 0; round < ROUNDS; round++) {
      const acknowledgedBefore = model.acknowledged;
      let stopping = false;
      const writers = Array.from({ length: WRITERS }, (_, worker) =>
        runWriter({
          baseUrl: server?.url ?? '',
          token,
          worker,
          model,
          mix: { create: 3, patch: 3, 'batch-patch': 2, delete: 1 },
          stop: () => stopping,
          stopOnNoAnswer: true,
          requestTimeoutMs: 30_000,
        }),
      );
      // A random moment, once some writes are acknowledged, so each round has something to lose.
      while (model.acknowledged - acknowledgedBefore < 5) await sleep(20);
      const delayMs = Math.floor(Math.random() * 1500);
      await sleep(delayMs);
      const victim = server;
      victim.child.kill('SIGKILL');
      const { signal } = await victim.exited;
      expect(signal).toBe('SIGKILL');
      stopping = true;
      await Promise.all(writers);
      expect(victim.output()).not.toMatch(CRASH_SIGNS);

      // The restart must open the folder as the kill left it.
      const restartStarted = performance.now();
      server = await spawnServer({ env: { DATA_DIR: dataDir } });
      const restartMs = Math.round(performance.now() - restartStarted);
      token = await loginAs(server.url);
      const stored = await storedDevicesThroughApi(server.url, token);
      const inFlight = model.log.filter((r) => r.status === 0).length;
      const problems = checkDevices(model, stored);
      rounds.push({
        round,
        killedAfterMs: delayMs,
        acknowledged: model.acknowledged - acknowledgedBefore,
        inFlightAtKill: inFlight,
        devices: stored.length,
        restartMs,
        problems: problems.length,
      });
      model.log.length = 0;
      expect(problems).toEqual([]);
    }

    await server.stop();
    server = undefined;

    // The folder itself, opened as the service opens it, with amcheck loaded.
    const pglite = await PGlite.create({ dataDir, extensions: { amcheck } });
    try {
      await pglite.exec('CREATE EXTENSION IF NOT EXISTS amcheck');
      const indexes = await pglite.query<{ index: string }>(
        `SELECT c.relname AS index FROM pg_index i
           JOIN pg_class c ON c.oid = i.indexrelid
           JOIN pg_am a ON a.oid = c.relam
           JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE a.amname = 'btree' AND n.nspname = 'public'`,
      );
      // heapallindexed: every row of the table is found in the index, not just a sane tree.
      for (const { index } of indexes.rows) {
        await pglite.query(`SELECT bt_index_check($1::regclass, true)`, [index]);
      }
      const countWith = async (settings: string) => {
        await pglite.exec(settings);
        const { rows } = await pglite.query<{ devices: number; audit: number }>(
          `SELECT (SELECT count(*) FROM devices)::int AS devices,
                  (SELECT count(*) FROM audit_logs)::int AS audit`,
        );
        await pglite.exec('RESET ALL');
        return rows[0];
      };
      const bySequentialScan = await countWith(
        'SET enable_indexscan = off; SET enable_indexonlyscan = off; SET enable_bitmapscan = off',
      );
      const byIndex = await countWith('SET enable_seqscan = off');
      expect(byIndex).toEqual(bySequentialScan);

      const stored = (await pglite.query<StoredDevice>('SELECT id, hostname, vendor FROM devices'))
        .rows;
      expect(checkDevices(model, stored)).toEqual([]);
      const auditRows = await pglite.query<{ id: string; action: string; n: number }>(
        `SELECT resource_id AS id, action, count(*)::int AS n FROM audit_logs
          WHERE resource_type = 'devices' GROUP BY resource_id, action`,
      );
      const audit: AuditCounts = new Map();
      for (const row of auditRows.rows) {
        audit.set(row.id, { ...audit.get(row.id), [row.action]: row.n });
      }
      const auditProblems = checkAudit(model, audit);
      report(`crash-recovery${SOAK ? '-soak' : ''}`, {
        rounds,
        acknowledgedWrites: model.acknowledgedByKind,
        devices: stored.length,
        indexesChecked: indexes.rows.length,
        counts: byIndex,
        auditProblems: auditProblems.length,
      });
      expect(auditProblems).toEqual([]);
    } finally {
      await pglite.close();
    }
  });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
