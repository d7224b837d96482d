import type { Store } from '@netops/store';
import { openTestStore, type TestStoreOptions } from '@netops/store/testing';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { KyselyPlugin } from 'kysely';
import { sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll } from 'vitest';
import { type AppConfig, buildApp } from '../src/app.js';
import { PasswordHasher } from '../src/auth/passwords.js';
import type { Role } from '../src/auth/roles.js';
import { seedInitialAccounts } from '../src/auth/users.js';
import { BODY_LIMIT_BYTES, DEFAULT_MAIL_FROM } from '../src/config.js';
import { type Database, MIGRATIONS_FOLDER } from '../src/db/schema.js';
import { type ProtectionsConfig, readProtectionsConfig } from '../src/protections/config.js';

export const TEST_PASSWORD = 'test-password-1';

/** Cheap argon2 for tests; production uses OWASP's parameters (see config.ts). */
export const TEST_HASHING = { memoryCost: 1024, timeCost: 1 };

export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    logLevel: 'silent',
    databaseUrl: 'memory://',
    dataDir: '',
    jwtSecret: 'a-test-secret-that-is-long-enough-for-hs256',
    tokenTtlSeconds: 3600,
    passwordHashing: TEST_HASHING,
    bodyLimit: BODY_LIMIT_BYTES,
    // No rate limit by default: a test file sends far more than 100 requests from one address.
    // test/protections/wired.test.ts checks the limit on the real app.
    protections: { ...readProtectionsConfig({}), rateLimitMax: 0 },
    mail: { smtpUrl: undefined, from: DEFAULT_MAIL_FROM },
    resetTtlSeconds: 900,
    listCache: true,
    ...overrides,
  };
}

export interface TestContext {
  app: FastifyInstance;
  store: Store<Database>;
  /** A token per role, from one login each per test file. */
  tokens: Record<Role, string>;
  /** Inject with the token of `role` (or none when role is undefined). */
  as(role: Role | undefined, options: InjectOptions): Promise<LightMyRequestResponse>;
  /** Empties the inventory tables and the audit log; the accounts stay. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** One store and one app per test file: open in beforeAll, close in afterAll. */
export async function startTestApp(
  overrides: Partial<AppConfig> = {},
  storeOptions: Omit<TestStoreOptions, 'migrations'> = {},
): Promise<TestContext> {
  const store = await openTestStore<Database>({ migrations: MIGRATIONS_FOLDER, ...storeOptions });
  await seedInitialAccounts(store.db, new PasswordHasher(TEST_HASHING), TEST_PASSWORD);
  const app = await buildApp(testConfig(overrides), { store });
  await app.ready();
  const tokens = {} as Record<Role, string>;
  for (const role of ['admin', 'editor', 'viewer'] as const) {
    tokens[role] = await login(app, role, TEST_PASSWORD);
  }
  return {
    app,
    store,
    tokens,
    as(role, options) {
      const headers = { ...(options.headers ?? {}) };
      if (role) headers.authorization = `Bearer ${tokens[role]}`;
      return app.inject({ ...options, headers });
    },
    async reset() {
      await store.scriptTransaction((tx) =>
        tx.exec('TRUNCATE locations, devices, interfaces, vlans, links, audit_logs CASCADE'),
      );
    },
    async close() {
      await app.close();
      await store.close();
    },
  };
}

/**
 * The file's one app and store, started before its tests and closed after them: call at the
 * top of a test file, use the answer in the tests (not while the file is being collected).
 */
export function useTestApp(
  overrides: Partial<AppConfig> = {},
  storeOptions: Omit<TestStoreOptions, 'migrations'> = {},
): TestContext {
  let started: TestContext | undefined;
  beforeAll(async () => {
    started = await startTestApp(overrides, storeOptions);
  });
  afterAll(() => started?.close());
  return new Proxy({} as TestContext, {
    get(_target, property) {
      if (!started) throw new Error('the test app is used before beforeAll started it');
      return Reflect.get(started, property);
    },
  });
}

export async function login(app: FastifyInstance, username: string, password: string) {
  const response = await app.inject({
    method: 'POST',
    url: '/users/login',
    payload: { username, password },
  });
  if (response.statusCode !== 200) {
    throw new Error(`login of ${username} failed: ${response.statusCode} ${response.body}`);
  }
  return response.json<{ token: string }>().token;
}

export const THROWAWAY_PASSWORD = 'pw-12345678';

/**
 * A throwaway account made through the data layer (so the shared role tokens stay valid),
 * logged in once: its id, username and token.
 */
export async function makeUser(
  ctx: Pick<TestContext, 'app' | 'store'>,
  role: Role = 'viewer',
  prefix = 'user',
) {
  const username = `${prefix}-${uuidv7().slice(-8)}`;
  const id = uuidv7();
  await ctx.store.db
    .insertInto('users')
    .values({
      id,
      username,
      email: `${username}@example.test`,
      role,
      password_hash: await new PasswordHasher(TEST_HASHING).hash(THROWAWAY_PASSWORD),
    })
    .execute();
  return { id, username, token: await login(ctx.app, username, THROWAWAY_PASSWORD) };
}

/** An account created through the API as admin (audited like any record), with a unique name. */
export function createAccount(
  ctx: TestContext,
  prefix: string,
  fields: Record<string, unknown> = {},
): Promise<Record<string, unknown> & { id: string }> {
  return create(ctx, 'users', {
    username: unique(prefix),
    email: `${unique(prefix)}@example.com`,
    password: TEST_PASSWORD,
    ...fields,
  });
}

/** Creates a record through the API as admin and returns it. */
export async function create(
  ctx: TestContext,
  resource: string,
  payload: Record<string, unknown>,
): Promise<Record<string, unknown> & { id: string }> {
  const response = await ctx.as('admin', { method: 'POST', url: `/${resource}`, payload });
  if (response.statusCode !== 201) {
    throw new Error(`create ${resource} failed: ${response.statusCode} ${response.body}`);
  }
  return response.json();
}

let counter = 0;
/** A unique suffix for names that must not clash within a file. */
export const unique = (prefix: string) => `${prefix}-${++counter}`;

/** A device with a fresh hostname; its interfaces named eth0, eth1, ... */
export async function deviceWithInterfaces(ctx: TestContext, count: number) {
  const device = await create(ctx, 'devices', { hostname: unique('dev'), ip: '192.0.2.1' });
  const interfaces = [];
  for (let i = 0; i < count; i++) {
    interfaces.push(await create(ctx, 'interfaces', { device_id: device.id, name: `eth${i}` }));
  }
  return { device, interfaces };
}

/**
 * A second app on the context's store whose SQL statements, and the rows they hand back, are
 * counted: the cost tests check that a request runs a fixed number of statements whatever its
 * size, and that rows PostgreSQL already wrote as text never reach the server one by one.
 */
export async function statementCountingApp(
  ctx: TestContext,
  config: Parameters<typeof testConfig>[0] = {},
) {
  let statements = 0;
  let rows = 0;
  // Counted as their results come back: a statement that embeds a query builder (a write inside
  // a WITH, see resources/writes.ts) transforms that builder's node too, but runs once. The
  // webhooks' NOTIFY to other instances is not a request's: it is sent after a write's answer,
  // debounced (webhooks/index.ts), and on a slow machine lands inside the next request. Nor is
  // the read of the value counts a list is weighed by: it runs in the background, at most every
  // 30 s (filter-frequencies.ts), and may end inside a later request.
  const background = new Set<unknown>();
  const counter: KyselyPlugin = {
    transformQuery: (args) => {
      const node = args.node as { kind: string; sqlFragments?: readonly string[] };
      if (
        node.kind === 'RawNode' &&
        node.sqlFragments?.some(
          (text) =>
            text.includes('pg_notify') || text.includes('FROM value_counts WHERE table_name'),
        )
      ) {
        background.add(args.queryId);
      }
      return args.node;
    },
    transformResult: async (args) => {
      if (background.delete(args.queryId)) return args.result;
      statements++;
      rows += args.result.rows.length;
      return args.result;
    },
  };
  const app = await buildApp(testConfig(config), {
    store: { ...ctx.store, db: ctx.store.db.withPlugin(counter) },
  });
  // The account rows are served from memory only once the instance hears of their changes
  // (user-cache.ts); until its listening connection is up, every request reads its user, which
  // the counts below would take for the route's own statements (on a loaded machine, for more
  // than the first request).
  for (let waited = 0; !app.userCache.enabled && waited < 10_000; waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    app,
    /** Statements run since the last call. */
    takeCount() {
      const count = statements;
      statements = 0;
      return count;
    },
    /** Rows the statements handed back since the last call. */
    takeRows() {
      const count = rows;
      rows = 0;
      return count;
    },
  };
}

/**
 * An app on a seeded store of its own, for tests of the login lock-out: the protections as
 * configured by default, with `protections` over them. The account's first wait is a minute
 * rather than the default 1 s: on a loaded machine a burst of guesses takes longer than 1 s to
 * reach the check, and later attempts would rightly pass, so counts would not be exact (the
 * policy's unit tests check the default waits).
 */
export async function startSeededApp(
  protections: Partial<ProtectionsConfig> = {},
  overrides: Partial<AppConfig> = {},
): Promise<{ app: FastifyInstance; store: Store<Database> }> {
  const store = await openTestStore<Database>({ migrations: MIGRATIONS_FOLDER });
  await seedInitialAccounts(store.db, new PasswordHasher(TEST_HASHING), TEST_PASSWORD);
  const defaults = readProtectionsConfig({});
  const app = await buildApp(
    testConfig({
      protections: {
        ...defaults,
        loginLockout: { ...defaults.loginLockout, accountFirstDelayMs: 60_000 },
        ...protections,
      },
      ...overrides,
    }),
    { store },
  );
  await app.ready();
  return { app, store };
}

/** The audit rows written for `id`, by its lower-case form as PostgreSQL prints uuids. */
export async function auditRowsOf(ctx: Pick<TestContext, 'store'>, id: string) {
  const result = await sql<{ action: string; resource_id: string }>`
    SELECT action, resource_id FROM audit_logs WHERE lower(resource_id) = ${id.toLowerCase()}
    ORDER BY created_at, id`.execute(ctx.store.db);
  return result.rows;
}
