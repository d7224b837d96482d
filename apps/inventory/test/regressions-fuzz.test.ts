import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, startTestApp, TEST_PASSWORD, type TestContext, unique } from './helpers.js';

/** Defects the OpenAPI fuzzer (reliability/fuzz.test.ts) found, each kept from coming back. */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

describe('URLs the router itself refuses answer in the error shape', () => {
  it('a path parameter longer than the router takes: 414, not Fastify default body', async () => {
    const response = await ctx.as('admin', { method: 'GET', url: `/devices/${'x'.repeat(500)}` });
    expect(response.statusCode).toBe(414);
    expect(response.json()).toEqual({ status: 'error', message: 'URL path parameter too long' });
  });

  it('a path parameter that is not valid percent-encoding: 400', async () => {
    const response = await ctx.as('admin', { method: 'GET', url: '/devices/%E0%A4%A' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ status: 'error', message: 'Malformed URL' });
  });
});

/** The audit rows written for `id`, by its lower-case form as PostgreSQL prints uuids. */
async function auditRowsOf(id: string) {
  const result = await sql<{ action: string; resource_id: string }>`
    SELECT action, resource_id FROM audit_logs WHERE lower(resource_id) = ${id.toLowerCase()}
    ORDER BY created_at, id`.execute(ctx.store.db);
  return result.rows;
}

describe('ids are case-insensitive, and the audit trail names each record once, as stored', () => {
  it('a batch DELETE naming one id twice in different case is refused like a batch PATCH', async () => {
    const device = await create(ctx, 'devices', { hostname: unique('dup'), ip: '192.0.2.1' });
    const response = await ctx.as('admin', {
      method: 'DELETE',
      url: '/devices',
      payload: [device.id, device.id.toUpperCase()],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      status: 'error',
      message: `Duplicate id in batch: ${device.id.toUpperCase()}`,
    });
    expect(
      (await ctx.as('admin', { method: 'GET', url: `/devices/${device.id}` })).statusCode,
    ).toBe(200);
    expect(await auditRowsOf(device.id)).toEqual([{ action: 'create', resource_id: device.id }]);
  });

  it('changes made through an upper-case id are audited under the id as stored', async () => {
    const device = await create(ctx, 'devices', { hostname: unique('case'), ip: '192.0.2.1' });
    const upper = device.id.toUpperCase();
    const requests = [
      { method: 'PATCH', url: `/devices/${upper}`, payload: { vendor: 'a' } },
      {
        method: 'PUT',
        url: `/devices/${upper}`,
        payload: { hostname: unique('case'), ip: '192.0.2.2' },
      },
      { method: 'PATCH', url: '/devices', payload: [{ id: upper, vendor: 'b' }] },
      { method: 'DELETE', url: '/devices', payload: [upper] },
    ] as const;
    for (const request of requests) {
      const response = await ctx.as('admin', request);
      expect(response.statusCode, response.body).toBeLessThan(300);
    }
    expect(await auditRowsOf(device.id)).toEqual(
      ['create', 'update', 'replace', 'update', 'delete'].map((action) => ({
        action,
        resource_id: device.id,
      })),
    );
  });

  it('the same holds for accounts', async () => {
    const user = await create(ctx, 'users', {
      username: unique('case-user'),
      email: `${unique('case')}@example.com`,
      password: TEST_PASSWORD,
    });
    const upper = user.id.toUpperCase();
    for (const request of [
      { method: 'PUT', url: `/users/${upper}`, payload: { role: 'editor' } },
      {
        method: 'PUT',
        url: `/users/${upper}/password`,
        payload: { new_password: 'changed-pass-1' },
      },
      { method: 'DELETE', url: `/users/${upper}` },
    ] as const) {
      const response = await ctx.as('admin', request);
      expect(response.statusCode, response.body).toBeLessThan(300);
    }
    expect((await auditRowsOf(user.id)).map((row) => row.resource_id)).toEqual(
      Array(4).fill(user.id),
    );
  });
});

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

describe('a write PostgreSQL aborts to resolve a deadlock or a serialization conflict is run again', () => {
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
      expect((await auditRowsOf(id)).map((row) => row.action)).toEqual(['create', 'update']);
    }
  });

  it('an account change (serialization failure)', async () => {
    const user = await create(ctx, 'users', {
      username: unique('ser'),
      email: `${unique('ser')}@example.com`,
      password: TEST_PASSWORD,
    });
    const response = await withConflictOnce('users', 'UPDATE', '40001', () =>
      ctx.as('admin', { method: 'PUT', url: `/users/${user.id}`, payload: { role: 'editor' } }),
    );
    expect(response.statusCode, response.body).toBe(200);
    expect((await auditRowsOf(user.id)).map((row) => row.action)).toEqual(['create', 'update']);
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

/**
 * A lone surrogate is valid in a JavaScript string (JSON may escape one, `"\\udfff"`) but has
 * no UTF-8 form: PostgreSQL cannot store it. Found by reliability/fuzz.test.ts: POST /events
 * stored `x\udfff` as `x\ufffd` and answered 201 with the altered text, while POST /devices
 * refused it as `Invalid value format`. Now every route refuses it the same way, naming the field.
 */
describe('text that is not valid Unicode is refused, never silently altered', () => {
  const json = (value: unknown) => ({
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(value),
  });

  it.each([
    ['/events', { severity: 'info', type: 'x\udfff', message: 'm' }, 'type'],
    ['/devices', { hostname: 'x\ud800y', ip: '192.0.2.1' }, 'hostname'],
    ['/locations', { name: 'ok', city: '\ud800' }, 'city'],
  ])('POST %s', async (url, body, field) => {
    const response = await ctx.as('admin', { method: 'POST', url, ...json(body) });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({
      status: 'error',
      message: `Field "${field}" contains text that is not valid Unicode (an unpaired surrogate)`,
    });
  });

  it('in a field name, and nested in a batch', async () => {
    const named = await ctx.as('admin', {
      method: 'POST',
      url: '/locations',
      ...json({ '\ud800': 1 }),
    });
    expect(named.json()).toEqual({
      status: 'error',
      message: 'A field name contains text that is not valid Unicode (an unpaired surrogate)',
    });
    const batch = await ctx.as('admin', {
      method: 'PATCH',
      url: '/devices',
      ...json([{ id: crypto.randomUUID(), vendor: 'a\udc00' }]),
    });
    expect(batch.json()).toEqual({
      status: 'error',
      message: 'Field "[0].vendor" contains text that is not valid Unicode (an unpaired surrogate)',
    });
  });

  it('a well-formed pair (an emoji) is stored as sent', async () => {
    const response = await ctx.as('admin', {
      method: 'POST',
      url: '/locations',
      payload: { name: unique('📡') },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().name).toMatch(/^📡-/);
  });
});
