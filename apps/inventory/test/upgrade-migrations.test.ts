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
});
