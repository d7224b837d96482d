import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { openStore } from '@netops/store';
import { createThrowawayDatabase, testDatabaseUrl } from '@netops/store/testing';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { Database } from '../../src/db/schema.js';
import { login, testConfig } from '../helpers.js';

/**
 * `npm run inventory -- create-admin <name>`: the operator's way back to an admin account
 * without the API, run as a real process on the store the environment configures (the embedded
 * store in DATA_DIR, or PostgreSQL when the run has TEST_DATABASE_URL).
 */
const APP_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const JWT_SECRET = 'a-create-admin-test-secret-long-enough';
const run = promisify(execFile);

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function storeEnv(): Promise<{
  env: Record<string, string>;
  databaseUrl?: string;
  dataDir: string;
}> {
  const dataDir = mkdtempSync(join(tmpdir(), 'inventory-create-admin-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const server = testDatabaseUrl();
  if (!server) return { env: { DATA_DIR: dataDir }, dataDir };
  const database = await createThrowawayDatabase(server);
  cleanups.push(database.drop);
  return {
    env: { DATABASE_URL: database.url, JWT_SECRET, DATA_DIR: dataDir },
    databaseUrl: database.url,
    dataDir,
  };
}

async function createAdmin(env: Record<string, string>, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', '--conditions=development', 'src/main.ts', 'create-admin', ...args],
      {
        cwd: APP_ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
        timeout: 60_000,
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const passwordOf = (stdout: string) => /change it after signing in\): (\S+)/.exec(stdout)?.[1];

describe('create-admin', () => {
  it('creates an admin, then makes a demoted and deactivated one an admin again; each password works once printed', async () => {
    const { env, databaseUrl, dataDir } = await storeEnv();
    const created = await createAdmin(env, 'rescue');
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain('Admin account "rescue" created');
    const first = passwordOf(created.stdout);
    expect(first).toMatch(/^[A-Za-z0-9_-]{24}$/);

    const store = await openStore<Database>({ databaseUrl, dataDir });
    // Another admin first: the last active admin cannot be demoted (migration 016).
    await sql`INSERT INTO users (id, username, email, role, password_hash)
      VALUES (gen_random_uuid(), 'other', 'other@example.test', 'admin', 'x')`.execute(store.db);
    await sql`UPDATE users SET role = 'viewer', inactive_status = true WHERE username = 'rescue'`.execute(
      store.db,
    );
    await store.close();

    const restored = await createAdmin(env, 'RESCUE');
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toContain('is an active admin again');
    const second = passwordOf(restored.stdout);
    expect(second).toBeDefined();
    expect(second).not.toBe(first);

    const reopened = await openStore<Database>({ databaseUrl, dataDir });
    const app = await buildApp(testConfig({ databaseUrl: databaseUrl ?? 'memory://', dataDir }), {
      store: reopened,
    });
    try {
      await app.ready();
      const token = await login(app, 'rescue', second ?? '');
      const me = await app.inject({
        method: 'GET',
        url: '/users',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(me.statusCode).toBe(200);
      await expect(login(app, 'rescue', first ?? '')).rejects.toThrow(/401/);
      const audit = await sql<{ action: string; username: string }>`
        SELECT action, username FROM audit_logs WHERE resource_type = 'users' ORDER BY id`.execute(
        reopened.db,
      );
      expect(
        audit.rows.filter((row) => row.username === '(command line: create-admin)'),
      ).toHaveLength(2);
    } finally {
      await app.close();
      await reopened.close();
    }
  }, 240_000);

  it('refuses a bad name or usage without touching the store', async () => {
    const { env } = await storeEnv();
    const cases = [[], ['two', 'names'], ['bad name!']];
    const answers = await Promise.all(cases.map((args) => createAdmin(env, ...args)));
    answers.forEach((answer, index) => {
      expect(answer.code, cases[index]?.join(' ')).toBe(2);
      expect(answer.stdout).toBe('');
    });
    expect(answers[2]?.stderr).toContain('is not a valid username');
  }, 180_000);
});
