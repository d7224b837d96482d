import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate, type Store } from '@netops/store';
import { openTestStore } from '@netops/store/testing';
import { sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyDatabase } from '../src/db/schema.js';
import { type Database, MIGRATIONS_FOLDER } from '../src/db/schema.js';
import { startTestApp, type TestContext } from './helpers.js';

/**
 * The row counts the writes keep (migration 007): an unfiltered list's total_count and
 * `/debug/count` come from them instead of COUNT(*), so they must equal COUNT(*) after every kind
 * of write, from the API or behind its back: single and multi-row inserts, deletes, cascades,
 * TRUNCATE, rolled-back transactions, concurrent writers.
 */

let ctx: TestContext;
let db: AnyDatabase;
beforeAll(async () => {
  ctx = await startTestApp();
  db = ctx.store.db as AnyDatabase;
});
afterAll(() => ctx?.close());

const TABLES = ['locations', 'devices', 'interfaces', 'vlans', 'links', 'users', 'events'];

async function counted(table: string): Promise<number> {
  const result = await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(
    db,
  );
  return Number(result.rows[0]?.n);
}

/** What the API answers as the total of an unfiltered list of `resource`. */
async function listed(resource: string): Promise<number> {
  const response = await ctx.as('admin', { method: 'GET', url: `/${resource}?limit=1` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ meta: { total_count: number } }>().meta.total_count;
}

async function expectExact() {
  for (const table of TABLES) expect(await listed(table), table).toBe(await counted(table));
  const debug = await ctx.app.inject({ method: 'GET', url: '/debug/count' });
  expect(debug.json<{ count: number }>().count).toBe(await counted('devices'));
}

function device(hostname: string) {
  return { id: uuidv7(), hostname, ip: '192.0.2.1' };
}

describe('unfiltered totals from the maintained row counts', () => {
  it('equal COUNT(*) through every kind of write', async () => {
    await expectExact();

    // Through the API: creates, a batch delete.
    const created: string[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await ctx.as('admin', {
        method: 'POST',
        url: '/devices',
        payload: { hostname: `api-${i}`, ip: '192.0.2.2' },
      });
      expect(response.statusCode).toBe(201);
      created.push(response.json<{ id: string }>().id);
    }
    await expectExact();
    const removed = await ctx.as('admin', {
      method: 'DELETE',
      url: '/devices',
      payload: created.slice(0, 2),
    });
    expect(removed.statusCode).toBe(200);
    await expectExact();

    // Behind the API's back: a multi-row insert, interfaces, then a delete that cascades to them.
    const rows = Array.from({ length: 40 }, (_, i) => device(`sql-${i}`));
    await db.insertInto('devices').values(rows).execute();
    await db
      .insertInto('interfaces')
      .values(
        rows.flatMap((row) =>
          ['eth0', 'eth1'].map((name) => ({ id: uuidv7(), device_id: row.id, name })),
        ),
      )
      .execute();
    await expectExact();
    await db
      .deleteFrom('devices')
      .where(
        'id',
        'in',
        rows.slice(0, 15).map((row) => row.id),
      )
      .execute();
    expect(await counted('interfaces')).toBe(50);
    await expectExact();

    // A transaction rolled back leaves the counts as they were.
    await expect(
      db.transaction().execute(async (trx) => {
        await trx
          .insertInto('devices')
          .values([device('rolled-1'), device('rolled-2')])
          .execute();
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await expectExact();

    // TRUNCATE, with the tables it cascades to.
    await db.insertInto('vlans').values({ id: uuidv7(), vlan_id: 42, name: 'v42' }).execute();
    await sql`TRUNCATE devices, vlans CASCADE`.execute(db);
    expect(await counted('interfaces')).toBe(0);
    await expectExact();
    await db
      .insertInto('devices')
      .values([device('after-1'), device('after-2')])
      .execute();
    await expectExact();
  });

  it('equal COUNT(*) after concurrent writers commit and roll back', async () => {
    // On PostgreSQL these run on different connections, so on different counter rows.
    const writers = Array.from({ length: 8 }, (_, writer) =>
      db.transaction().execute(async (trx) => {
        for (let i = 0; i < 5; i++) {
          await trx
            .insertInto('devices')
            .values([device(`w${writer}-${i}-a`), device(`w${writer}-${i}-b`)])
            .execute();
        }
        await trx.deleteFrom('devices').where('hostname', '=', `w${writer}-0-a`).execute();
        if (writer % 3 === 0) throw new Error('this writer rolls back');
      }),
    );
    const outcomes = await Promise.allSettled(writers);
    expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toHaveLength(3);
    await expectExact();
  });
});

describe('recount_table_rows (migration 008)', () => {
  it('repairs the counts after writes that fired no triggers, and invalidates what was reused', async () => {
    await expectExact();
    const before = await counted('devices');
    const sameIp = async () => {
      const response = await ctx.as('admin', {
        method: 'GET',
        url: '/devices?ip=192.0.2.1&limit=1',
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ meta: { total_count: number } }>().meta.total_count;
    };
    const sameIpBefore = await sameIp(); // counted, and kept under the table's version
    // A bulk load with triggers off, as `pg_restore --disable-triggers` does (one connection, so
    // the session setting applies to the INSERT).
    await ctx.store.scriptTransaction(async (tx) => {
      await tx.exec("SET LOCAL session_replication_role = 'replica'");
      await tx.query(
        "INSERT INTO devices (id, hostname, ip) VALUES ($1, 'untracked-1', '192.0.2.1'), ($2, 'untracked-2', '192.0.2.1')",
        [uuidv7(), uuidv7()],
      );
    });
    expect(await counted('devices')).toBe(before + 2);
    // What nothing told the counts or the version: still the old totals.
    expect(await listed('devices')).toBe(before);
    expect(await sameIp()).toBe(sameIpBefore);

    const answered = await sql<{ n: number }>`SELECT recount_table_rows('devices') AS n`.execute(
      db,
    );
    expect(Number(answered.rows[0]?.n)).toBe(before + 2);
    await expectExact();
    // Filtered counts reused under the old version are counted again too.
    expect(await sameIp()).toBe(sameIpBefore + 2);

    await expect(sql`SELECT recount_table_rows('schema_migrations')`.execute(db)).rejects.toThrow(
      /not a table with a maintained row count/,
    );
  });
});

describe('migration 007', () => {
  it('counts the rows a database already holds when it is applied', async () => {
    // The migrations before 007 in a folder of their own, then rows, then the rest.
    const before = mkdtempSync(join(tmpdir(), 'inventory-migrations-'));
    const folder = fileURLToPath(MIGRATIONS_FOLDER);
    for (const file of readdirSync(folder).filter((name) => name < '007')) {
      copyFileSync(join(folder, file), join(before, file));
    }
    // openTestStore applies its folder: the early migrations only.
    const store = await openTestStore<Database>({ migrations: `${before}/` });
    try {
      const early = store.db as AnyDatabase;
      await early
        .insertInto('devices')
        .values([device('old-1'), device('old-2'), device('old-3')])
        .execute();
      await early.deleteFrom('devices').where('hostname', '=', 'old-2').execute();
      await migrate(store as Store<unknown>, MIGRATIONS_FOLDER);
      const counts = await sql<{ table_name: string; rows: number }>`
        SELECT table_name, sum(row_count) AS rows FROM table_versions GROUP BY table_name`.execute(
        early,
      );
      const rows = Object.fromEntries(counts.rows.map((row) => [row.table_name, Number(row.rows)]));
      expect(rows.devices).toBe(2);
      expect(rows.interfaces).toBe(0);
    } finally {
      await store.close();
      rmSync(before, { recursive: true, force: true });
    }
  });
});
