import { testDatabaseUrl } from '@netops/store/testing';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../src/http/error-handler.js';
import { startTestApp, type TestContext } from './helpers.js';

/**
 * A database that refuses new connections (`ALTER DATABASE … ALLOW_CONNECTIONS false`, as during
 * a restore or maintenance, its sessions terminated) is unavailable like one that is down: 503
 * `Database unavailable, try again` with Retry-After, and /health/ready 503. The FATAL 55000 the
 * server answers at connect ("database … is not currently accepting connections") was a 500 with
 * a stack logged for every request.
 */
describe.skipIf(!testDatabaseUrl())('a database refusing connections', () => {
  let ctx: TestContext;
  let admin: pg.Client;
  let name: string;
  beforeAll(async () => {
    ctx = await startTestApp({}, { connectTimeoutMs: 2000 });
    admin = new pg.Client({ connectionString: testDatabaseUrl() });
    await admin.connect();
    const current = await sql<{ name: string }>`SELECT current_database() AS name`.execute(
      ctx.store.db,
    );
    name = current.rows[0]?.name ?? '';
  });
  afterAll(async () => {
    await admin?.end();
    await ctx?.close();
  });

  it('answers 503 with Retry-After on every route and on /health/ready, and again 200 after', async () => {
    const quoted = `"${name.replaceAll('"', '""')}"`;
    try {
      await admin.query(`ALTER DATABASE ${quoted} ALLOW_CONNECTIONS false`);
      await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [name],
      );
      // The pool learns of its terminated connections as it uses them: a first request may meet
      // one (57P01, already 503); from then on every connection is refused at connect.
      for (let attempt = 0; attempt < 3; attempt++) {
        const ready = await ctx.as(undefined, { method: 'GET', url: '/health/ready' });
        expect(ready.statusCode, ready.body).toBe(503);
        expect(ready.headers['retry-after']).toBe('5');
        const list = await ctx.as('admin', { method: 'GET', url: '/devices?limit=1' });
        expect(list.statusCode, list.body).toBe(503);
        expect(list.json()).toEqual({
          status: 'error',
          message: 'Database unavailable, try again',
        });
        expect(list.headers['retry-after']).toBe('5');
        const write = await ctx.as('admin', {
          method: 'POST',
          url: '/devices',
          payload: { hostname: `refused-${attempt}`, ip: '192.0.2.1' },
        });
        expect(write.statusCode, write.body).toBe(503);
      }
    } finally {
      await admin.query(`ALTER DATABASE ${quoted} ALLOW_CONNECTIONS true`);
    }
    const ready = await ctx.as(undefined, { method: 'GET', url: '/health/ready' });
    expect(ready.statusCode, ready.body).toBe(200);
  });
});

it('tells a refusal at connect from a statement error with the same code', async () => {
  // What the server sends at connect; 55000 from a statement (currval before nextval) is a bug.
  const refused = Object.assign(new Error('database "x" is not currently accepting connections'), {
    code: '55000',
    severity: 'FATAL',
  });
  expect(isDatabaseUnavailable(refused)).toBe(true);
  const statement = Object.assign(new Error('currval of sequence "s" is not yet defined'), {
    code: '55000',
    severity: 'ERROR',
  });
  expect(isDatabaseUnavailable(statement)).toBe(false);
  for (const code of ['3D000', '57P04']) {
    expect(isDatabaseUnavailable({ code, severity: 'FATAL', message: 'm' }), code).toBe(true);
  }
  expect(isDatabaseUnavailable({ code: '3D000', severity: 'ERROR', message: 'm' })).toBe(false);
});

it('a full disk (53100) and a store that failed past recovery (57P02) answer 503', async () => {
  // The statement rolled back: the same write succeeds once the disk has space again.
  const diskFull = Object.assign(
    new Error('could not extend file "base/5/16392": No space left on device'),
    { code: '53100', severity: 'ERROR' },
  );
  expect(isDatabaseUnavailable(diskFull)).toBe(true);
  // The embedded store after a PANIC, until the service has exited to be restarted.
  const { StoreFailedError } = await import('@netops/store');
  expect(isDatabaseUnavailable(new StoreFailedError('embedded PostgreSQL … failed'))).toBe(true);
});
