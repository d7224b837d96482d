import { holdInTransaction, testDatabaseUrl } from '@netops/store/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_WEBHOOK_SETTINGS } from '../src/webhooks/worker.js';
import { create, makeUser, startTestApp, type TestContext, unique } from './helpers.js';

/**
 * A record's history is in the order its changes were applied. A batch PATCH whose transaction
 * started before a single PATCH of the same record, but which reached that record after the single
 * one committed (it waited for a lock on another record of the batch), was recorded with its
 * transaction's start time: earlier than the single PATCH's, so "newest first" showed the single
 * PATCH as the latest change while the record held the batch's value, the record's updated_at went
 * backwards, and so did the webhook payloads' timestamps in delivery order. Needs concurrent
 * connections: PostgreSQL only (the embedded store has one).
 */
describe.skipIf(!testDatabaseUrl())('history in the order changes were applied', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(
      {
        webhooks: {
          ...DEFAULT_WEBHOOK_SETTINGS,
          allowPrivateTargets: true,
          secretKey: undefined,
          pollMs: 60_000,
        },
      },
      // Reads beside a write are a fifth of the pool: the held lock and the wait's check both read.
      { poolSize: 10 },
    );
  });
  afterAll(() => ctx?.close());

  it('a batch applied after a single PATCH it started before is the newest change', async () => {
    // A receiver that is never reached: only the outbox rows are read.
    await create(ctx, 'webhooks', {
      name: unique('hook'),
      url: 'http://127.0.0.1:9/never',
      secret: 'a-secret-of-sixteen-or-more',
    });
    const [first, second] = [
      await create(ctx, 'devices', { hostname: unique('order'), ip: '192.0.2.1' }),
      await create(ctx, 'devices', { hostname: unique('order'), ip: '192.0.2.2' }),
    ].sort((a, b) => a.id.localeCompare(b.id));
    if (!first || !second) throw new Error('two devices');
    // The batch locks its rows in id order: it waits on `first` before it reaches `second`.
    const lock = await holdInTransaction(ctx.store.db, (trx) =>
      sql`SELECT id FROM devices WHERE id = ${first.id} FOR UPDATE`.execute(trx),
    );
    const batch = ctx.as('admin', {
      method: 'PATCH',
      url: '/devices',
      payload: [first.id, second.id].map((id) => ({ id, model: 'batch' })),
    });
    // Until the batch's statement is waiting for the lock (its transaction has started).
    for (let waited = 0; ; waited += 20) {
      const waiting = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(ctx.store.db);
      if ((waiting.rows[0]?.n ?? 0) > 0) break;
      if (waited > 4000) throw new Error('the batch never waited for the lock');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    const single = await ctx.as('admin', {
      method: 'PATCH',
      url: `/devices/${second.id}`,
      payload: { model: 'single' },
    });
    expect(single.statusCode, single.body).toBe(200);
    await lock.release();
    const batched = await batch;
    expect(batched.statusCode, batched.body).toBe(200);

    const current = (await ctx.as('admin', { method: 'GET', url: `/devices/${second.id}` })).json();
    expect(current.model).toBe('batch');
    // The record's updated_at moves forwards with the change applied last.
    expect(Date.parse(current.updated_at)).toBeGreaterThanOrEqual(
      Date.parse(single.json().updated_at),
    );
    const history = (
      await ctx.as('admin', { method: 'GET', url: `/devices/${second.id}/history?limit=3` })
    ).json().data;
    expect(history.map((row: { postchange: { model: string } }) => row.postchange.model)).toEqual([
      'batch',
      'single',
      null,
    ]);
    expect(history[0].prechange.model).toBe('single');
    expect(history[0].created_at >= history[1].created_at).toBe(true);

    // The audit log's newest-first list agrees.
    const audit = (
      await ctx.as('admin', {
        method: 'GET',
        url: `/audit-logs?resource_id=${second.id}&action=update`,
      })
    ).json().data;
    expect(audit.map((row: { postchange: { model: string } }) => row.postchange.model)).toEqual([
      'batch',
      'single',
    ]);

    // Webhook payloads of the record, in the outbox's order, never go back in time.
    const outbox = await sql<{ payload: { timestamp: string; data: { model: string } } }>`
      SELECT payload FROM webhook_deliveries WHERE resource_id = ${second.id} ORDER BY seq`.execute(
      ctx.store.db,
    );
    const payloads = outbox.rows.map((row) => row.payload);
    expect(payloads.map((payload) => payload.data.model)).toEqual([null, 'single', 'batch']);
    const times = payloads.map((payload) => payload.timestamp);
    expect([...times].sort()).toEqual(times);
  });

  it('a password change that waited for its writer is dated when it was applied', async () => {
    const account = await makeUser(ctx);
    const writer = await makeUser(ctx, 'admin', 'writer');
    // The flow starts, then waits to confirm its writer's account (FOR SHARE) before it writes.
    const lock = await holdInTransaction(ctx.store.db, (trx) =>
      sql`SELECT id FROM users WHERE id = ${writer.id} FOR UPDATE`.execute(trx),
    );
    const change = ctx.app.inject({
      method: 'PUT',
      url: `/users/${account.id}/password`,
      headers: { authorization: `Bearer ${writer.token}` },
      payload: { new_password: 'another-password-1' },
    });
    for (let waited = 0; ; waited += 20) {
      const waiting = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(ctx.store.db);
      if ((waiting.rows[0]?.n ?? 0) > 0) break;
      if (waited > 4000) throw new Error('the password change never waited for the lock');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    const released = await sql<{ at: Date }>`SELECT clock_timestamp() AS at`.execute(ctx.store.db);
    await lock.release();
    const changed = await change;
    expect(changed.statusCode, changed.body).toBe(200);
    const stored = await sql<{ updated_at: Date; password_changed_at: Date }>`
      SELECT updated_at, password_changed_at FROM users WHERE id = ${account.id}`.execute(
      ctx.store.db,
    );
    const row = stored.rows[0];
    const releasedAt = released.rows[0]?.at.getTime() ?? Number.POSITIVE_INFINITY;
    // Dated at its transaction's start, the change would read as older than changes applied
    // while it waited, and a reader polling by updated_at could pass it by.
    expect(row?.updated_at.getTime()).toBeGreaterThanOrEqual(releasedAt);
    // Tokens carry milliseconds: the epoch is cut to them.
    expect(row?.password_changed_at.getTime()).toBeGreaterThanOrEqual(releasedAt - 1);
  });
});
