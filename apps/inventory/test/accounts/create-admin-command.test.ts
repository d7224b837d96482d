import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { migrate, openStore, type Store } from '@netops/store';
import { createThrowawayDatabase, testDatabaseUrl } from '@netops/store/testing';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { PasswordHasher } from '../../src/auth/passwords.js';
import { type Database, MIGRATIONS_FOLDER } from '../../src/db/schema.js';
import { runCreateAdmin } from '../../src/users/create-admin-command.js';
import { login, TEST_HASHING, testConfig } from '../helpers.js';

/**
 * `npm run inventory -- create-admin <name>`: the operator's way back to an admin account
 * without the API, on the store the environment configures (the embedded store in DATA_DIR, or
 * PostgreSQL when the run has TEST_DATABASE_URL). Run once as a real process (main.ts's
 * dispatch, the environment, the exit code and the output as an operator sees them); the other
 * cases call the same function in this process, on the same store, without starting Node again.
 */
const APP_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const JWT_SECRET = 'a-create-admin-test-secret-long-enough';
const run = promisify(execFile);

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/**
 * A store for the command, migrated already: the command then only opens it, as it does on a
 * store the service has been running on (what creating one costs is the store's own test).
 */
async function storeEnv(): Promise<{
  env: Record<string, string>;
  databaseUrl?: string;
  dataDir: string;
}> {
  const dataDir = mkdtempSync(join(tmpdir(), 'inventory-create-admin-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const server = testDatabaseUrl();
  let databaseUrl: string | undefined;
  if (server) {
    const database = await createThrowawayDatabase(server);
    cleanups.push(database.drop);
    databaseUrl = database.url;
  }
  const store = await openStore<Database>({ databaseUrl, dataDir, durable: false });
  await migrate(store as unknown as Store<unknown>, MIGRATIONS_FOLDER);
  await store.close();
  return {
    env: databaseUrl
      ? { DATABASE_URL: databaseUrl, JWT_SECRET, DATA_DIR: dataDir }
      : { DATA_DIR: dataDir },
    ...(databaseUrl ? { databaseUrl } : {}),
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

/** The command run in this process: the same function main.ts runs, without a process start. */
async function createAdminInProcess(env: Record<string, string>, ...args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCreateAdmin(args, env, {
    out: (text) => {
      stdout += text;
    },
    err: (text) => {
      stderr += text;
    },
  });
  return { code, stdout, stderr };
}

/** An app on the command's store, to sign in with what it printed. */
async function withApp<T>(
  store: { databaseUrl?: string; dataDir: string },
  work: (app: FastifyInstance, db: Store<Database>['db']) => Promise<T>,
): Promise<T> {
  const opened = await openStore<Database>(store);
  const app = await buildApp(
    testConfig({ databaseUrl: store.databaseUrl ?? 'memory://', dataDir: store.dataDir }),
    { store: opened },
  );
  try {
    await app.ready();
    return await work(app, opened.db);
  } finally {
    await app.close();
    await opened.close();
  }
}

const COMMAND_LINE_ACTOR = '(command line: create-admin)';

describe('create-admin', () => {
  // One store for the file; each test names its own account.
  let store: Awaited<ReturnType<typeof storeEnv>>;
  beforeAll(async () => {
    store = await storeEnv();
  });

  it('as the operator runs it (a process): creates an active admin on the configured store with the password it prints, audited', async () => {
    const created = await createAdmin(store.env, 'rescue');
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toContain('Admin account "rescue" created');
    const password = passwordOf(created.stdout);
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    // What it stored: the printed password's hash, an active admin, its audit row.
    const opened = await openStore<Database>(store);
    try {
      const account = await opened.db
        .selectFrom('users')
        .select(['id', 'role', 'inactive_status', 'password_hash'])
        .where('username', '=', 'rescue')
        .executeTakeFirstOrThrow();
      expect(account).toMatchObject({ role: 'admin', inactive_status: false });
      const hasher = new PasswordHasher(TEST_HASHING);
      expect(await hasher.verify(account.password_hash, password ?? '')).toBe(true);
      const audit = await sql<{ action: string }>`
        SELECT action FROM audit_logs WHERE username = ${COMMAND_LINE_ACTOR}
        AND resource_id = ${account.id}`.execute(opened.db);
      expect(audit.rows.map((row) => row.action)).toEqual(['create']);
    } finally {
      await opened.close();
    }
  }, 120_000);

  it('makes a demoted and deactivated account an active admin again, with a new password; the old one no longer signs in', async () => {
    const created = await createAdminInProcess(store.env, 'restored');
    expect(created.code, created.stderr).toBe(0);
    const first = passwordOf(created.stdout);
    const opened = await openStore<Database>(store);
    // Another active admin ('rescue', above, or this one) keeps the demotion allowed (migration 016).
    await sql`INSERT INTO users (id, username, email, role, password_hash)
      VALUES (gen_random_uuid(), 'other', 'other@example.test', 'admin', 'x')`.execute(opened.db);
    await sql`UPDATE users SET role = 'viewer', inactive_status = true WHERE username = 'restored'`.execute(
      opened.db,
    );
    await opened.close();

    const restored = await createAdminInProcess(store.env, 'RESTORED');
    expect(restored.code, restored.stderr).toBe(0);
    // The name as stored, which is the one to sign in with, not the one typed.
    expect(restored.stdout.split('\n')[0]).toMatch(
      /^Account "restored" \(matched by "RESTORED": names match in any letter case, but sign in as "restored"\) is an active admin again; its earlier tokens no longer work \(.+\)\.$/,
    );
    expect(restored.stdout).not.toContain('"RESTORED" is');
    const second = passwordOf(restored.stdout);
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    await withApp(store, async (app, db) => {
      const token = await login(app, 'restored', second ?? '');
      const users = await app.inject({
        method: 'GET',
        url: '/users',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(users.statusCode).toBe(200);
      await expect(login(app, 'restored', first ?? '')).rejects.toThrow(/401/);
      const account = await sql<{ id: string }>`
        SELECT id FROM users WHERE username = 'restored'`.execute(db);
      const audit = await sql<{ action: string }>`
        SELECT action FROM audit_logs
        WHERE username = ${COMMAND_LINE_ACTOR} AND resource_id = ${String(account.rows[0]?.id)}
        ORDER BY id`.execute(db);
      expect(audit.rows.map((row) => row.action)).toEqual(['create', 'update']);
    });
  }, 120_000);

  it('says on standard error when it upgrades the database first, as the service does; stdout keeps the account and password', async () => {
    // A store an older release left at migration 033.
    const older = mkdtempSync(join(tmpdir(), 'inventory-create-admin-migrations-'));
    cleanups.push(() => rmSync(older, { recursive: true, force: true }));
    const source = fileURLToPath(MIGRATIONS_FOLDER);
    const names = readdirSync(source).filter((name) => /^\d+_/.test(name));
    for (const name of names.filter((name) => Number(name.slice(0, 3)) <= 33)) {
      copyFileSync(join(source, name), join(older, name));
    }
    const newest = names.sort().at(-1)?.slice(0, 3);
    const dataDir = join(older, 'data');
    mkdirSync(dataDir);
    const server = testDatabaseUrl();
    const database = server ? await createThrowawayDatabase(server) : undefined;
    if (database) cleanups.push(database.drop);
    const opened = await openStore<Database>({
      databaseUrl: database?.url,
      dataDir,
      durable: false,
    });
    await migrate(opened as unknown as Store<unknown>, older);
    await opened.close();
    const env: Record<string, string> = database
      ? { DATABASE_URL: database.url, JWT_SECRET, DATA_DIR: dataDir }
      : { DATA_DIR: dataDir };

    const upgraded = await createAdminInProcess(env, 'upgrader');
    expect(upgraded.code, upgraded.stderr).toBe(0);
    const lines = upgraded.stderr.split('\n');
    expect(lines[0]).toBe(
      `Upgrading the database: ${Number(newest) - 33} migrations (034 … ${newest})…`,
    );
    expect(lines[1]).toMatch(/^Database upgraded: \d+ migrations applied in \d+\.\d s$/);
    expect(upgraded.stdout).toMatch(/^Admin account "upgrader" created/);
    // Up to date now: nothing more to say.
    const again = await createAdminInProcess(env, 'upgrader2');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toBe('');
  }, 120_000);

  it('refuses a bad name or usage (exit 2) without touching the store', async () => {
    // No store configured at all: a usage error must not need one.
    const env = { DATA_DIR: join(tmpdir(), 'inventory-create-admin-never-created') };
    const cases = [[], ['two', 'names'], ['bad name!']];
    for (const args of cases) {
      const answer = await createAdminInProcess(env, ...args);
      expect(answer.code, args.join(' ')).toBe(2);
      expect(answer.stdout).toBe('');
      expect(answer.stderr).not.toBe('');
    }
    expect((await createAdminInProcess(env, 'bad name!')).stderr).toContain(
      'is not a valid username',
    );
    expect(existsSync(env.DATA_DIR)).toBe(false);
  });
});
