import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyDatabase } from '../src/db/schema.js';
import { create, startTestApp, type TestContext } from './helpers.js';

/**
 * What a write's triggers run (migration 022), counted with PostgreSQL's per-transaction function
 * statistics (track_functions = pl) on the statement the service sends for a PATCH: a data-changing
 * step and `inventory.actor` set for the transaction, with a principal the identity check accepts.
 */

let ctx: TestContext;
let db: AnyDatabase;
let actor: string;
beforeAll(async () => {
  ctx = await startTestApp();
  db = ctx.store.db as AnyDatabase;
  // Who the service says writes: an admin, admitted with its current role and token epoch.
  const admin = await sql<{ actor: string }>`
    SELECT jsonb_build_object(
             'user_id', id, 'username', username, 'request_id', 'write-triggers',
             'client_ip', '127.0.0.1', 'resource', 'devices', 'action', 'update',
             'principal', jsonb_build_object(
               'user', id, 'role', role,
               'epoch', floor(extract(epoch FROM password_changed_at) * 1000)))::text AS actor
    FROM users WHERE username = 'admin'`.execute(db);
  actor = admin.rows[0]?.actor ?? '';
});
afterAll(() => ctx?.close());

/**
 * Calls of each PL/pgSQL function (and with `tracked` 'all', each SQL function PostgreSQL did not
 * inline) made by `statements`, run in one transaction: the difference of the transaction's
 * function statistics around them (the embedded store, one backend that never goes idle, keeps
 * earlier transactions' calls pending in them).
 */
async function callsDuring(
  statements: readonly ReturnType<typeof sql>[],
  tracked: 'pl' | 'all' = 'pl',
): Promise<{ triggers: number; byName: Record<string, number> }> {
  return db.transaction().execute(async (trx) => {
    await sql`SET LOCAL track_functions = ${sql.lit(tracked)}`.execute(trx);
    const read = async () =>
      (
        await sql<{ name: string; calls: string; trigger: boolean }>`
          SELECT s.funcname AS name, s.calls, p.prorettype = 'trigger'::regtype AS trigger
          FROM pg_stat_xact_user_functions AS s JOIN pg_proc AS p ON p.oid = s.funcid`.execute(trx)
      ).rows;
    const before = new Map((await read()).map((row) => [row.name, Number(row.calls)]));
    for (const statement of statements) await statement.execute(trx);
    const made = (await read())
      .map((row) => ({ ...row, calls: Number(row.calls) - (before.get(row.name) ?? 0) }))
      .filter((row) => row.calls > 0);
    return {
      triggers: made.filter((row) => row.trigger).reduce((sum, row) => sum + row.calls, 0),
      byName: Object.fromEntries(made.map((row) => [row.name, row.calls])),
    };
  });
}

/** A PATCH of one device as the service writes it: one statement setting the actor. */
const patchDevice = (id: string, set: ReturnType<typeof sql>) => sql`
  WITH updated__ AS (UPDATE devices SET ${set}, updated_at = now() WHERE id = ${id} RETURNING id)
  SELECT * FROM updated__ WHERE set_config('inventory.actor', ${actor}, true) IS NOT NULL`;

describe('a single-row write', () => {
  it('fires one trigger function for the table it writes and one for its history row', async () => {
    const device = await create(ctx, 'devices', { hostname: 'wt-one', ip: '192.0.2.1' });
    const calls = await callsDuring([
      patchDevice(device.id, sql`rack_position = 'R1-U1', status = 'maintenance'`),
    ]);
    // devices' combined trigger (identity, version, history) and audit_logs' (version, outbox);
    // the value counters' row trigger, since a counted column changed.
    expect(calls.byName).toMatchObject({
      write_triggers__devices: 1,
      enqueue_webhook_deliveries: 1,
      count_values__devices: 1,
    });
    expect(calls.triggers).toBe(3);
    expect(calls.byName.inventory_require_principal).toBe(1);
  });

  it('runs no trigger work for columns that did not change', async () => {
    const device = await create(ctx, 'devices', {
      hostname: 'wt-rack',
      ip: '192.0.2.2',
      vendor: 'Cisco',
      status: 'active',
      tags: ['prod'],
    });
    // No counted column, webhook-relevant column or index of the counters changed: no counter
    // function runs, and the history row names the one field that changed.
    const calls = await callsDuring([patchDevice(device.id, sql`rack_position = 'R9-U9'`)]);
    expect(calls.byName.count_values__devices).toBeUndefined();
    expect(calls.triggers).toBe(2);
    const history = await sql<{ changes: Record<string, unknown> }>`
      SELECT changes FROM audit_logs WHERE resource_id = ${device.id} AND action = 'update'`.execute(
      db,
    );
    expect(history.rows.map((row) => Object.keys(row.changes))).toEqual([['rack_position']]);
  });
});

describe('the history of a create and of a delete', () => {
  it('names its changes without calling a SQL function, the same changes as before', async () => {
    const location = await create(ctx, 'locations', { name: 'wt-history-site' });
    const created = await sql<{ id: string }>`SELECT inventory_uuidv7() AS id`.execute(db);
    const id = created.rows[0]?.id ?? '';
    // As the service writes them: one statement each, setting the actor. No vendor: a field the
    // record holds as null is not a change.
    const calls = await callsDuring(
      [
        sql`
          WITH inserted__ AS (
            INSERT INTO devices (id, hostname, ip, status, location_id, tags)
            VALUES (${id}, 'wt-history', '192.0.2.9', 'active', ${location.id}, '{edge,prod}')
            RETURNING id)
          SELECT * FROM inserted__ WHERE set_config('inventory.actor', ${actor}, true) IS NOT NULL`,
        sql`
          WITH deleted__ AS (DELETE FROM devices WHERE id = ${id} RETURNING id)
          SELECT * FROM deleted__ WHERE set_config('inventory.actor', ${actor}, true) IS NOT NULL`,
      ],
      'all',
    );
    expect(calls.byName.write_triggers__devices).toBe(2);
    // Called from a statement, this function's query was parsed and planned on every call.
    expect(calls.byName.audit_changed_fields).toBeUndefined();

    const history = await sql<{ action: string; changes: Record<string, unknown> }>`
      SELECT action, changes FROM audit_logs WHERE resource_id = ${id} ORDER BY action`.execute(db);
    expect(history.rows).toEqual([
      {
        action: 'create',
        changes: {
          hostname: [null, 'wt-history'],
          ip: [null, '192.0.2.9'],
          status: [null, 'active'],
          location_id: [null, location.id],
          tags: [null, ['edge', 'prod']],
        },
      },
      {
        action: 'delete',
        changes: {
          hostname: ['wt-history', null],
          ip: ['192.0.2.9', null],
          status: ['active', null],
          location_id: [location.id, null],
          tags: [['edge', 'prod'], null],
        },
      },
    ]);
    // Every create and delete in the history, of every resource this file wrote (through the API
    // too), names what audit_changed_fields names for its snapshots.
    const differing = await sql<{ differing: string; compared: string }>`
      SELECT count(*) FILTER (WHERE changes IS DISTINCT FROM
                                    audit_changed_fields(prechange, postchange)) AS differing,
             count(*) AS compared
      FROM audit_logs WHERE action IN ('create', 'delete')`.execute(db);
    expect(Number(differing.rows[0]?.differing)).toBe(0);
    expect(Number(differing.rows[0]?.compared)).toBeGreaterThanOrEqual(4);
  });
});

describe('the identity check', () => {
  it('is made once per transaction, however many statements and tables it writes', async () => {
    const device = await create(ctx, 'devices', { hostname: 'wt-twice', ip: '192.0.2.3' });
    const location = await create(ctx, 'locations', { name: 'wt-site' });
    const calls = await callsDuring([
      patchDevice(device.id, sql`rack_position = 'R2-U2'`),
      patchDevice(device.id, sql`rack_position = 'R3-U3'`),
      sql`UPDATE locations SET name = 'wt-site-renamed' WHERE id = ${location.id}`,
    ]);
    expect(calls.byName.inventory_require_principal).toBe(1);
  });

  it('is made again after a statement that changed accounts in the same transaction', async () => {
    const device = await create(ctx, 'devices', { hostname: 'wt-again', ip: '192.0.2.4' });
    const principal = JSON.parse(actor).principal as { user: string };
    const written = db.transaction().execute(async (trx) => {
      await patchDevice(device.id, sql`rack_position = 'R4-U4'`).execute(trx);
      // The writer's own password changes (judged as the account was before: accepted) ...
      await sql`
        WITH changed__ AS (UPDATE users SET password_changed_at = now() + interval '1 second'
                           WHERE id = ${principal.user} RETURNING id)
        SELECT * FROM changed__
        WHERE set_config('inventory.actor', ${actor}, true) IS NOT NULL`.execute(trx);
      // ... so the identity admitted before it is no longer valid for the next write.
      await patchDevice(device.id, sql`rack_position = 'R5-U5'`).execute(trx);
    });
    await expect(written).rejects.toThrow(/Unauthorized/);
  });
});
