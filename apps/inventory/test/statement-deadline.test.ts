import { holdInTransaction, testDatabaseUrl } from '@netops/store/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, startTestApp, type TestContext } from './helpers.js';

/**
 * A statement past DATABASE_QUERY_TIMEOUT_MS (here waiting on a row lock) is cancelled by
 * PostgreSQL itself and rolled back: the client gets 503 with Retry-After, and the write it was
 * told failed does not land once the lock goes (it did, when only the socket was destroyed).
 * PostgreSQL only: the embedded store has one connection, so nothing else can hold a lock.
 */
describe.skipIf(!testDatabaseUrl())('a statement past the deadline', () => {
  const DEADLINE_MS = 1000;
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp({}, { queryTimeoutMs: DEADLINE_MS, poolSize: 3 });
  });
  afterAll(() => ctx?.close());

  it('answers 503 with Retry-After and writes nothing, not even later', async () => {
    const device = await create(ctx, 'devices', { hostname: 'deadline-1', ip: '192.0.2.10' });
    const lock = await holdInTransaction(ctx.store.db, (trx) =>
      sql`SELECT id FROM devices WHERE id = ${device.id} FOR UPDATE`.execute(trx),
    );
    try {
      const response = await ctx.as('admin', {
        method: 'PATCH',
        url: `/devices/${device.id}`,
        payload: { hostname: 'deadline-written-late' },
      });
      expect(response.statusCode, response.body).toBe(503);
      expect(response.json()).toEqual({
        status: 'error',
        message: 'Database unavailable, try again',
      });
      expect(response.headers['retry-after']).toBe('5');
    } finally {
      await lock.release();
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    const stored = await ctx.as('admin', { method: 'GET', url: `/devices/${device.id}` });
    expect(stored.json()).toMatchObject({ hostname: 'deadline-1' });
    const audit = await ctx.store.db
      .selectFrom('audit_logs')
      .select('action')
      .where('resource_id', '=', device.id)
      .execute();
    expect(audit.map((row) => row.action)).toEqual(['create']);
  });
});
