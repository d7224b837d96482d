import { openStore } from '@netops/store';
import { createThrowawayDatabase, testDatabaseUrl } from '@netops/store/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import type { Database } from '../src/db/schema.js';
import { accounts } from './support/accounts.js';
import { FakeProvider } from './support/fake-provider.js';
import { login, loginBody, me, testConfig } from './support/harness.js';

let fake: FakeProvider;
beforeAll(async () => {
  fake = await FakeProvider.start();
});
afterAll(() => fake.close());

describe('a database that cannot be reached', () => {
  it('answers 503 service-unavailable quickly instead of a 500 or a hang', async () => {
    // Nothing listens on port 1: every connection is refused at once.
    const store = await openStore<Database>({
      databaseUrl: 'postgres://nobody@127.0.0.1:1/chat',
      dataDir: '',
    });
    const app = await buildApp(testConfig(fake.url), { store });
    try {
      const response = await login(app, { ...loginBody('github', ''), ...accounts.github(fake) });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        status: 'error',
        error: 'service-unavailable',
        message: 'The database is not available; try again',
      });
      const session = await me(app, 'AAAAAAAAAAAAAAAAA', 'token');
      expect(session.statusCode).toBe(503);
    } finally {
      await app.close();
      await store.close();
    }
  });

  it.runIf(testDatabaseUrl())(
    'answers 503 while PostgreSQL refuses new connections to the database (allow_connections off)',
    async () => {
      const serverUrl = testDatabaseUrl() as string;
      const database = await createThrowawayDatabase(serverUrl);
      const name = new URL(database.url).pathname.slice(1);
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      // PostgreSQL answers such a connection with FATAL 55000, "not currently accepting connections".
      await admin.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS false`);
      const store = await openStore<Database>({ databaseUrl: database.url, dataDir: '' });
      const app = await buildApp(testConfig(fake.url), { store });
      try {
        const response = await login(app, { ...loginBody('github', ''), ...accounts.github(fake) });
        expect(response.statusCode, response.body).toBe(503);
        expect(response.json().error).toBe('service-unavailable');
      } finally {
        await app.close();
        await store.close();
        await admin.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS true`);
        await admin.end();
        await database.drop();
      }
    },
  );
});
