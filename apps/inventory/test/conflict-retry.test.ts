import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { auditRowsOf, create, createAccount, unique, useTestApp } from './helpers.js';

/** Writes PostgreSQL aborts to resolve a conflict between transactions are run again (db/retry.ts). */
const ctx = useTestApp();

/**
 * PostgreSQL aborts one of two transactions that deadlock (40P01) or, in serializable mode,
 * conflict (40001); the remedy is to run it again. Found by reliability/batches.test.ts: a batch
 * PATCH moving interfaces between devices (its foreign-key checks lock the devices) deadlocked
 * with a batch DELETE of those devices (which locks them, then their interfaces), and the victim
 * answered 500. A trigger raising the conflict on the first attempt only (a sequence, which a
 * rollback does not undo) makes that deterministic on both stores.
 */
async function withConflictOnce<T>(
  table: string,
  events: string,
  code: string,
  work: () => Promise<T>,
) {
  await ctx.store.scriptTransaction((tx) =>
    tx.exec(`
      CREATE SEQUENCE IF NOT EXISTS regression_conflict;
      SELECT setval('regression_conflict', 1, false);
      CREATE OR REPLACE FUNCTION regression_conflict() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF nextval('regression_conflict') = 1 THEN
          RAISE EXCEPTION 'injected conflict' USING ERRCODE = '${code}';
        END IF;
        RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
      END $$;
      CREATE TRIGGER regression_conflict BEFORE ${events} ON ${table}
        FOR EACH ROW EXECUTE FUNCTION regression_conflict();`),
  );
  try {
    return await work();
  } finally {
    await ctx.store.scriptTransaction((tx) =>
      tx.exec(`DROP TRIGGER regression_conflict ON ${table}`),
    );
  }
}

describe('a write PostgreSQL aborts to resolve a deadlock or a serialization conflict is run again, not answered 500 (found by the batch reliability suite)', () => {
  it('a batch PATCH (deadlock): applied once, audited once', async () => {
    const a = await create(ctx, 'devices', { hostname: unique('dl'), ip: '192.0.2.1' });
    const b = await create(ctx, 'devices', { hostname: unique('dl'), ip: '192.0.2.2' });
    const response = await withConflictOnce('devices', 'UPDATE', '40P01', () =>
      ctx.as('admin', {
        method: 'PATCH',
        url: '/devices',
        payload: [a.id, b.id].map((id) => ({ id, vendor: 'retried' })),
      }),
    );
    expect(response.statusCode, response.body).toBe(200);
    for (const id of [a.id, b.id]) {
      expect((await auditRowsOf(ctx, id)).map((row) => row.action)).toEqual(['create', 'update']);
    }
  });

  it('an account change (serialization failure)', async () => {
    const user = await createAccount(ctx, 'ser');
    const response = await withConflictOnce('users', 'UPDATE', '40001', () =>
      ctx.as('admin', { method: 'PUT', url: `/users/${user.id}`, payload: { role: 'editor' } }),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect((await auditRowsOf(ctx, user.id)).map((row) => row.action)).toEqual([
      'create',
      'update',
    ]);
  });

  it('a metrics array (deadlock): stored once', async () => {
    const device = await create(ctx, 'devices', { hostname: unique('dl'), ip: '192.0.2.3' });
    const response = await withConflictOnce('device_metrics', 'INSERT', '40P01', () =>
      ctx.as('admin', {
        method: 'POST',
        url: '/metrics',
        payload: [
          { device_id: device.id, cpu: 1 },
          { device_id: device.id, cpu: 2 },
        ],
      }),
    );
    expect(response.statusCode, response.body).toBe(201);
    const stored = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM device_metrics WHERE device_id = ${device.id}`.execute(
      ctx.store.db,
    );
    expect(stored.rows[0]?.n).toBe(2);
  });
});
