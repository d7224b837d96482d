import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate, type Store } from '@netops/store';
import { openTestStore, testDatabaseUrl } from '@netops/store/testing';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { PasswordHasher } from '../src/auth/passwords.js';
import { seedInitialAccounts } from '../src/auth/users.js';
import { type Database, MIGRATIONS_FOLDER } from '../src/db/schema.js';
import { login, TEST_HASHING, TEST_PASSWORD, testConfig } from './helpers.js';

/** The service on `store`, its accounts seeded. */
async function appOn(store: Store<unknown>) {
  const typed = store as unknown as Store<Database>;
  await seedInitialAccounts(typed.db, new PasswordHasher(TEST_HASHING), TEST_PASSWORD);
  const app = await buildApp(testConfig(), { store: typed });
  await app.ready();
  return app;
}

/** A database migrated up to (and with) `last`, as a release of then left it. */
async function storeMigratedTo(last: number): Promise<{ store: Store<unknown>; folder: string }> {
  const folder = mkdtempSync(join(tmpdir(), 'inventory-migrations-'));
  const source = fileURLToPath(MIGRATIONS_FOLDER);
  for (const name of readdirSync(source)) {
    if (/^\d+_/.test(name) && Number(name.slice(0, name.indexOf('_'))) <= last) {
      copyFileSync(join(source, name), join(folder, name));
    }
  }
  return { store: await openTestStore<unknown>({ migrations: folder }), folder };
}

let opened: { store: Store<unknown>; folder: string } | undefined;
afterEach(async () => {
  await opened?.store.close();
  if (opened) rmSync(opened.folder, { recursive: true, force: true });
  opened = undefined;
});

async function deviceAndInterface(
  store: Store<unknown>,
  speed: string | null,
  mbps: number | null,
) {
  const device = await sql<{ id: string }>`
    INSERT INTO devices (id, hostname, ip) VALUES (gen_random_uuid(), 'r1', '10.1.1.1') RETURNING id`.execute(
    store.db,
  );
  const deviceId = device.rows[0]?.id;
  const row = await sql<{ id: string }>`
    INSERT INTO interfaces (id, device_id, name, speed, speed_mbps)
    VALUES (gen_random_uuid(), ${deviceId}, 'eth0', ${speed}, ${mbps}) RETURNING id`.execute(
    store.db,
  );
  return { deviceId: deviceId as string, interfaceId: row.rows[0]?.id as string };
}

describe(`upgrade migrations (${testDatabaseUrl() ? 'PostgreSQL' : 'embedded'})`, () => {
  it('034 keeps the speed_mbps written last (the older release wrote it alone), derives speed from it, and records the change in the history', async () => {
    opened = await storeMigratedTo(33);
    const { store } = opened;
    // The older release: speed 10Gbps written (speed_mbps derived), then speed_mbps 40000 alone.
    const { interfaceId } = await deviceAndInterface(store, '10Gbps', 10_000);
    await sql`UPDATE interfaces SET speed_mbps = 40000 WHERE id = ${interfaceId}`.execute(store.db);
    await sql`INSERT INTO interfaces (id, device_id, name, speed, speed_mbps)
      SELECT gen_random_uuid(), device_id, n.name, n.speed, n.mbps FROM interfaces,
      (VALUES ('eth1', '2.5Gbps', NULL), ('eth2', NULL, 2500), ('eth3', '1Gbps', 1000), ('eth4', '0.0015Gbps', 1))
        AS n(name, speed, mbps)`.execute(store.db);

    await migrate(store, MIGRATIONS_FOLDER);

    const rows = await sql<{ name: string; speed: string | null; speed_mbps: number | null }>`
      SELECT name, speed, speed_mbps FROM interfaces ORDER BY name`.execute(store.db);
    expect(rows.rows).toEqual([
      { name: 'eth0', speed: '40Gbps', speed_mbps: 40_000 },
      { name: 'eth1', speed: '2.5Gbps', speed_mbps: 2500 },
      { name: 'eth2', speed: '2.5Gbps', speed_mbps: 2500 },
      { name: 'eth3', speed: '1Gbps', speed_mbps: 1000 },
      { name: 'eth4', speed: '0.0015Gbps', speed_mbps: 2 },
    ]);
    const history = await sql<{ username: string; action: string; changes: unknown }>`
      SELECT username, action, changes FROM audit_logs
      WHERE resource_type = 'interfaces' AND resource_id = ${interfaceId}`.execute(store.db);
    expect(history.rows).toEqual([
      {
        username: 'migration 034',
        action: 'update',
        changes: { speed: ['10Gbps', '40Gbps'] },
      },
    ]);
    // Through the API: the record and its history, newest first, agree.
    const app = await appOn(store);
    try {
      const token = await login(app, 'admin', TEST_PASSWORD);
      const headers = { authorization: `Bearer ${token}` };
      const record = await app.inject({ url: `/interfaces/${interfaceId}`, headers });
      expect(record.json()).toMatchObject({ speed: '40Gbps', speed_mbps: 40_000 });
      const shown = await app.inject({ url: `/interfaces/${interfaceId}/history`, headers });
      expect(shown.statusCode).toBe(200);
      expect(shown.json().data[0]).toMatchObject({
        action: 'update',
        username: 'migration 034',
        changes: { speed: ['10Gbps', '40Gbps'] },
      });
    } finally {
      await app.close();
    }
  });

  it('an older release writing after the upgrade is refused by the database instead of storing what the filters cannot find; rows it stored before are put right', async () => {
    opened = await storeMigratedTo(34);
    const { store } = opened;
    // What an older release wrote on a database already at 034.
    const { deviceId, interfaceId } = await deviceAndInterface(store, '10Gbps', 10_000);
    await sql`UPDATE interfaces SET mac_address = 'DE:AD:BE:EF:00:01', speed_mbps = 1000 WHERE id = ${interfaceId}`.execute(
      store.db,
    );
    await sql`UPDATE devices SET last_seen = '2026-12-01T00:00:00.654321Z' WHERE id = ${deviceId}`.execute(
      store.db,
    );

    await migrate(store, MIGRATIONS_FOLDER);

    const stored = await sql<{ mac_address: string; speed: string; speed_mbps: number }>`
      SELECT mac_address, speed, speed_mbps FROM interfaces WHERE id = ${interfaceId}`.execute(
      store.db,
    );
    expect(stored.rows).toEqual([
      { mac_address: 'de:ad:be:ef:00:01', speed: '1Gbps', speed_mbps: 1000 },
    ]);
    const app = await appOn(store);
    try {
      const token = await login(app, 'admin', TEST_PASSWORD);
      const headers = { authorization: `Bearer ${token}` };
      const found = await app.inject({
        url: '/interfaces?mac_address=DE:AD:BE:EF:00:01',
        headers,
      });
      expect(found.json().meta.total_count).toBe(1);
      const seen = await app.inject({
        url: '/devices?last_seen=2026-12-01T00:00:00.654Z',
        headers,
      });
      expect(seen.json().meta.total_count).toBe(1);

      // The older release's writes, as it sent them: each is refused.
      await sql`INSERT INTO api_tokens (id, name, scopes, token_hash, token_prefix, expires_at)
        VALUES (gen_random_uuid(), 'older', '{events:read}', 'hash', 'x', '2027-01-01T00:00:00Z')`.execute(
        store.db,
      );
      for (const write of [
        sql`UPDATE interfaces SET mac_address = 'DE:AD:BE:EF:00:02' WHERE id = ${interfaceId}`,
        sql`UPDATE interfaces SET speed_mbps = 40000 WHERE id = ${interfaceId}`,
        sql`UPDATE interfaces SET speed = NULL WHERE id = ${interfaceId}`,
        sql`UPDATE devices SET last_seen = '2026-12-01T00:00:00.000001Z' WHERE id = ${deviceId}`,
        sql`UPDATE api_tokens SET expires_at = '2027-01-01T00:00:00.5555Z'`,
      ]) {
        const refused = await write.execute(store.db).then(
          () => undefined,
          (error: { code?: string }) => error.code,
        );
        expect(refused).toBe('23514');
      }

      // The current release's writes of the same values pass: it stores them in normal form.
      const created = await app.inject({
        method: 'POST',
        url: '/interfaces',
        headers,
        payload: {
          device_id: deviceId,
          name: 'eth9',
          mac_address: 'AA:BB:CC:DD:EE:FF',
          speed: '2.0005Gbps',
        },
      });
      expect(created.statusCode).toBe(201);
      expect(created.json()).toMatchObject({ mac_address: 'aa:bb:cc:dd:ee:ff', speed_mbps: 2001 });
      const patched = await app.inject({
        method: 'PATCH',
        url: `/interfaces/${created.json().id}`,
        headers,
        payload: { speed_mbps: 40_000 },
      });
      expect(patched.json()).toMatchObject({ speed: '40Gbps', speed_mbps: 40_000 });
      const cleared = await app.inject({
        method: 'PATCH',
        url: `/interfaces/${created.json().id}`,
        headers,
        payload: { speed: null },
      });
      expect(cleared.json()).toMatchObject({ speed: null, speed_mbps: null });
      const device = await app.inject({
        method: 'PATCH',
        url: `/devices/${deviceId}`,
        headers,
        payload: { last_seen: '2026-12-02T00:00:00.987654Z' },
      });
      expect(device.statusCode).toBe(200);
      expect(device.json().last_seen).toBe('2026-12-02T00:00:00.987Z');
    } finally {
      await app.close();
    }
  });
});
