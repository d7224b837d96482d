import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { migrate, openStore, type Store } from '@netops/store';
import { createThrowawayDatabase } from '@netops/store/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { PasswordHasher } from '../src/auth/passwords.js';
import { seedInitialAccounts } from '../src/auth/users.js';
import { type Database, MIGRATIONS_FOLDER } from '../src/db/schema.js';
import { readProtectionsConfig } from '../src/protections/config.js';
import { TEST_HASHING, TEST_PASSWORD, testConfig } from './helpers.js';

const databaseServer = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const RATE_LIMIT = 100;

/**
 * Two real listening instances, each with its own connection pool, sharing one PostgreSQL
 * database and one Redis, as a deployment behind a load balancer would. Needs both
 * TEST_DATABASE_URL and TEST_REDIS_URL (CI sets them).
 */
describe.skipIf(!databaseServer || !redisUrl)('two instances on one database and one Redis', () => {
  const stores: Store<Database>[] = [];
  const apps: FastifyInstance[] = [];
  let drop: () => Promise<void> = async () => {};
  const bases: string[] = [];

  beforeAll(async () => {
    const database = await createThrowawayDatabase(databaseServer ?? '');
    drop = database.drop;
    // A key prefix of its own: other runs using the same Redis keep their own budgets.
    const rateLimitKeyPrefix = `inventory-test:${randomUUID()}:`;
    for (let i = 0; i < 2; i++) {
      const store = await openStore<Database>({ databaseUrl: database.url, dataDir: '' });
      stores.push(store);
      // Both run the migrations and the seed at start, as main.ts does: the lock and ON
      // CONFLICT make the second a no-op.
      await migrate(store as unknown as Store<unknown>, MIGRATIONS_FOLDER);
      await seedInitialAccounts(store.db, new PasswordHasher(TEST_HASHING), TEST_PASSWORD);
      const app = await buildApp(
        testConfig({
          databaseUrl: database.url,
          protections: {
            ...readProtectionsConfig({ REDIS_URL: redisUrl }),
            rateLimitMax: RATE_LIMIT,
          },
          rateLimitKeyPrefix,
        }),
        { store },
      );
      apps.push(app);
      await app.listen({ host: '127.0.0.1', port: 0 });
      bases.push(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`);
    }
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const store of stores) await store.close();
    await drop();
  });

  it('a record written through one is read through the other; the budget is shared', async () => {
    const [first = '', second = ''] = bases;
    let sent = 0;
    const call = async (base: string, path: string, init: RequestInit = {}) => {
      const response = await fetch(`${base}${path}`, init);
      sent++;
      expect(response.headers.get('x-ratelimit-remaining')).toBe(
        String(Math.max(0, RATE_LIMIT - sent)),
      );
      return response;
    };

    const login = await call(first, '/users/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: TEST_PASSWORD }),
    });
    const { token } = (await login.json()) as { token: string };
    const auth = { authorization: `Bearer ${token}` };

    const created = await call(first, '/locations', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Shared site', city: 'Oslo' }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const read = await call(second, `/locations/${id}`, { headers: auth });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ id, name: 'Shared site', city: 'Oslo' });

    // The rest of the budget, alternating between the instances: one count for both.
    while (sent < RATE_LIMIT) {
      const response = await call(sent % 2 === 0 ? first : second, '/');
      expect(response.status).toBe(200);
    }
    for (const base of [second, first]) {
      const refused = await call(base, '/');
      expect(refused.status).toBe(429);
      expect(await refused.json()).toEqual({ status: 'error', message: 'Too many requests' });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });
});
