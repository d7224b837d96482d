import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_WEBHOOK_SETTINGS,
  dueDeliveries,
  retryDelayMs,
} from '../../src/webhooks/worker.js';
import { startTestApp, type TestContext } from '../helpers.js';

/**
 * The webhooks' structural gains, pinned without timing (README, "Webhooks' cost"): the claim
 * walks the pending index instead of sorting the backlog, and the trigger that fills the outbox
 * does not NOTIFY inside the writing transaction.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => {
  await ctx?.close();
});

describe('webhook outbox structure', () => {
  it('claims through the pending index, without sorting the backlog', async () => {
    const db = ctx.store.db;
    await sql`INSERT INTO webhooks (id, name, url) VALUES (gen_random_uuid(), 'structure', 'http://93.184.215.14/')`.execute(
      db,
    );
    await sql`INSERT INTO webhook_deliveries (id, webhook_id, audit_id, event, resource_type, resource_id, payload)
      SELECT gen_random_uuid(), (SELECT id FROM webhooks WHERE name = 'structure'), gen_random_uuid(),
             'updated', 'devices', (g % 300)::text, '{}'::jsonb
      FROM generate_series(1, 3000) AS g`.execute(db);
    await sql`ANALYZE webhook_deliveries`.execute(db);
    const plan = await sql<{
      'QUERY PLAN': unknown;
    }>`EXPLAIN (FORMAT JSON) ${dueDeliveries(8)}`.execute(db);
    const text = JSON.stringify(plan.rows[0]?.['QUERY PLAN']);
    expect(text).toContain('webhook_deliveries_pending_idx');
    expect(text).not.toContain('"Node Type":"Sort"');
    await sql`DELETE FROM webhooks WHERE name = 'structure'`.execute(db);
  });

  it('fills the outbox without notifying inside the write', async () => {
    const definition = await sql<{ body: string }>`
      SELECT prosrc AS body FROM pg_proc WHERE proname = 'enqueue_webhook_deliveries'`.execute(
      ctx.store.db,
    );
    expect(definition.rows[0]?.body).toContain('INSERT INTO webhook_deliveries');
    expect(definition.rows[0]?.body).not.toMatch(/pg_notify|NOTIFY\s+webhook/i);
  });

  it('backs off exponentially with jitter, capped', () => {
    const settings = {
      ...DEFAULT_WEBHOOK_SETTINGS,
      firstRetryDelayMs: 1000,
      maxRetryDelayMs: 8000,
    };
    expect(retryDelayMs(1, settings, () => 0)).toBe(500);
    expect(retryDelayMs(1, settings, () => 1)).toBe(1000);
    expect(retryDelayMs(3, settings, () => 1)).toBe(4000);
    expect(retryDelayMs(10, settings, () => 1)).toBe(8000);
    expect(retryDelayMs(10, settings, () => 0)).toBe(4000);
  });
});
