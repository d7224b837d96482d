import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runServiceInProcess, withBusyPort } from '@netops/service-runtime/testing';
import { openStore } from '@netops/store';
import { createThrowawayDatabase } from '@netops/store/testing';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVENTORY_VARIABLES } from '../src/config.js';
import { inventoryService } from '../src/service.js';
import { MAIN_PASSWORD, type MainRun, startMain } from './spawn-main.js';
import { writeSelfSignedCertificate } from './tls-certificate.js';

/** One HTTPS request trusting the throwaway certificate. */
function call(port: number, path: string, options: { method?: string; body?: unknown } = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
      const req = httpsRequest(
        {
          host: '127.0.0.1',
          port,
          path,
          method: options.method ?? 'GET',
          rejectUnauthorized: false,
          headers: payload ? { 'content-type': 'application/json' } : {},
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            body += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        },
      );
      req.on('error', reject);
      req.end(payload);
    },
  );
}

/**
 * main.ts as an operator runs it: configuration from the environment, HTTPS from the
 * certificate variables, the protections on, and SIGTERM ending it cleanly. Three processes, each
 * answering several checks: what only a process shows (its output as it starts, its signals, a
 * reader of its output that goes away). What the start-up decides before it listens is checked
 * in-process below.
 */
// The three processes start together: their start-ups (loading the modules, creating the
// embedded store) overlap instead of adding up.
let certDir: string;
let https: MainRun;
let closedReader: MainRun;
let stuckReader: MainRun;
beforeAll(() => {
  certDir = mkdtempSync(join(tmpdir(), 'inventory-main-'));
  const { certFile, keyFile } = writeSelfSignedCertificate(certDir);
  https = startMain({
    TLS_CERT_FILE: certFile,
    TLS_KEY_FILE: keyFile,
    EMBEDDED_SHARED_BUFFERS: '48MB',
  });
  closedReader = startMain();
  stuckReader = startMain();
});
afterAll(() => {
  for (const run of [https, closedReader, stuckReader]) run?.cleanup();
  rmSync(certDir, { recursive: true, force: true });
});

describe('main.ts', () => {
  let run: MainRun;
  let port = 0;

  beforeAll(async () => {
    run = https;
    port = Number(new URL(await run.listening()).port);
  }, 120_000);

  it('says at once that it is starting, then what the pause is, then the banner with the store and the web interface', () => {
    const lines = run.stdout().split('\n');
    expect(lines[0]).toBe('Starting the network inventory API…');
    expect(lines[1]).toMatch(/^Creating the embedded database in .+ \(first start only\)…$/);
    const banner = lines.findIndex((line) => line.includes('listening on'));
    expect(banner).toBeGreaterThan(1);
    // The store's setting that is not the default (EMBEDDED_SHARED_BUFFERS) is named.
    expect(lines[banner]).toMatch(
      /^Network inventory API listening on https:\/\/127\.0\.0\.1:\d+ \(embedded PostgreSQL in .+ \(shared buffers 48 MB\)\)$/,
    );
    expect(lines.slice(banner)).toContain(`Web interface: https://127.0.0.1:${port}/ui/`);
  });

  it('serves HTTPS with the protections, then shuts down cleanly on SIGTERM', async () => {
    const root = await call(port, '/');
    expect(root.status).toBe(200);
    expect(root.headers).toMatchObject({
      'x-ratelimit-limit': '100',
      'x-frame-options': 'DENY',
      'x-request-id': expect.any(String),
    });
    const login = await call(port, '/users/login', {
      method: 'POST',
      body: { username: 'admin', password: MAIN_PASSWORD },
    });
    expect(login.status).toBe(200);
    // The password is never logged, nor is the hash.
    const output = () => run.stdout() + run.stderr();
    expect(output()).not.toContain(MAIN_PASSWORD);
    expect(output()).not.toContain('$argon2');

    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(output()).toContain('shutdown complete');
  });
});

/** The exit code, or 'still running' when the process outlives `ms`. */
function exitWithin(run: MainRun, ms: number) {
  return Promise.race([
    run.exited,
    new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), ms)),
  ]);
}

describe('main.ts when the reader of its output goes away', () => {
  it('keeps answering with its stdout gone, and exits 0 on one SIGTERM', async () => {
    const run = closedReader;
    const url = await run.listening();
    expect(url).toMatch(/^http:/);
    // The reading end of the pipe closes (a terminal closed, `| head` done, a log shipper
    // gone): every later write to stdout fails with EPIPE.
    run.child.stdout.destroy();
    for (let i = 0; i < 20; i++) expect((await fetch(`${url}/health`)).status).toBe(200);
    run.child.kill('SIGTERM');
    expect(await exitWithin(run, 5000)).toBe(0);
  }, 90_000);

  it('keeps answering while the reader has stopped reading, and exits on time after SIGTERM twice in a row, as a process group gets it', async () => {
    const run = stuckReader;
    const url = await run.listening();
    // A log shipper that hangs: the pipe fills up and every write to it would block.
    run.child.stdout.pause();
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next++ < 2000) expect((await fetch(`${url}/health`)).status).toBe(200);
      }),
    );
    // `npm run inventory` killed as a process group: the signal comes from the group and again
    // from tsx relaying it, so the second one lands during the shutdown.
    run.child.kill('SIGTERM');
    run.child.kill('SIGTERM');
    expect(await exitWithin(run, 5000)).not.toBe('still running');
  }, 120_000);
});

/** The start-up as `npm run inventory -- ARGS` runs it with `env`, up to where it would listen. */
const startUp = (argv: string[], env: Record<string, string>) =>
  runServiceInProcess(inventoryService, argv, {
    PATH: process.env.PATH,
    HOST: '127.0.0.1',
    // A fresh secret of this process's own, written nowhere.
    DATABASE_URL: 'memory://',
    LOG_LEVEL: 'info',
    ...env,
  });

describe('main.ts command line, configuration and listening errors', () => {
  it('--help prints the usage (every variable, documentation) and exits 0 without starting', async () => {
    const run = await startUp(['--help'], {});
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: npm start');
    expect(run.stdout).toContain('create-admin <username>');
    for (const name of [
      ...INVENTORY_VARIABLES.map((variable) => variable.name),
      'apps/inventory/README.md',
    ]) {
      expect(run.stdout).toContain(name);
    }
    expect(run.stdout + run.log).not.toContain('listening');
  });

  it('refuses an unknown argument with exit code 2 instead of ignoring it', async () => {
    const run = await startUp(['--port', '4000'], {});
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'unknown argument "--port": settings are environment variables (see --help)\n',
    );
  });

  it('exits 1 with a clear message on a bad environment', async () => {
    const run = await startUp([], { DATABASE_URL: 'postgres://127.0.0.1:1/none' });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'configuration error: JWT_SECRET: required when DATABASE_URL points to PostgreSQL (every instance must sign with the same secret)\n',
    );
  });

  it('names every bad variable at once, one a line, exit code 1', async () => {
    const run = await startUp([], {
      PORT: 'eighty',
      LOG_LEVEL: 'loud',
      TOKEN_TTL: 'forever',
      BODY_LIMIT: '0',
      CORS_ORIGINS: '*',
    });
    expect(run.code).toBe(1);
    const [heading, ...problems] = run.stderr.trimEnd().split('\n');
    expect(heading).toBe('configuration errors (5):');
    const named = problems.map((line) => /^ {2}- ([A-Z_]+): /.exec(line)?.[1]).sort();
    expect(named).toEqual(['BODY_LIMIT', 'CORS_ORIGINS', 'LOG_LEVEL', 'PORT', 'TOKEN_TTL']);
  });

  it('an unreachable REDIS_URL: one line naming it, its password masked, exit code 1', async () => {
    const run = await startUp([], { REDIS_URL: 'redis://:hunter2@127.0.0.1:1/0' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^REDIS_URL: cannot connect to redis:\/\/:\*\*\*@127\.0\.0\.1:1\/0: [^\n]+\n$/,
    );
    expect(run.stderr + run.stdout + run.log).not.toContain('hunter2');
  }, 90_000);

  it('a busy port: one line naming the address and PORT, exit code 1', async () => {
    await withBusyPort(async (port) => {
      const run = await startUp([], { PORT: String(port) });
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(`127.0.0.1:${port} is already in use (set PORT)\n`);
      expect(run.log).toBe('Starting the network inventory API…\n');
    });
  });
});

const databaseServer = process.env.TEST_DATABASE_URL;

describe.skipIf(!databaseServer)('main.ts on a PostgreSQL server', () => {
  it('says at start, as a warning, when the server vacuums and analyzes nothing', async () => {
    const database = await createThrowawayDatabase(databaseServer ?? '');
    const run = startMain({
      DATABASE_URL: database.url,
      JWT_SECRET: randomBytes(32).toString('base64url'),
    });
    try {
      await run.listening();
      const store = await openStore<unknown>({ databaseUrl: database.url, dataDir: '' });
      const shown = await sql<{ autovacuum: string }>`SHOW autovacuum`
        .execute(store.db as Kysely<unknown>)
        .finally(() => store.close());
      const warnings = run
        .stdout()
        .split('\n')
        .filter((line) => line.includes('nothing vacuums or analyzes'));
      if (shown.rows[0]?.autovacuum === 'on') {
        expect(warnings).toEqual([]);
      } else {
        expect(warnings).toHaveLength(1);
        expect(JSON.parse(warnings[0] as string)).toMatchObject({
          level: 40,
          msg: expect.stringMatching(/^PostgreSQL server has autovacuum = off: /),
        });
      }
    } finally {
      await run.stop();
      run.cleanup();
      await database.drop();
    }
  }, 60_000);
});
