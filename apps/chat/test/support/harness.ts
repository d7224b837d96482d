import { createServer } from 'node:net';
import type { Store } from '@netops/store';
import { openTestStore } from '@netops/store/testing';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { sql } from 'kysely';
import { buildApp } from '../../src/app.js';
import {
  type AppConfig,
  DEFAULT_RESERVED_USERNAMES,
  type ServiceConfig,
} from '../../src/config.js';
import { type Database, MIGRATIONS } from '../../src/db/schema.js';
import { APPS, FakeProvider } from './fake-provider.js';

export const SITE_URL = 'https://chat.example.test';

/**
 * Every service type, pointed at the fake provider. `avatarHosts` name the hosts of the fake
 * accounts' pictures (support/accounts.ts); keycloak keeps the default (its issuer's host).
 */
export function fakeServices(fakeUrl: string): ServiceConfig[] {
  return [
    {
      name: 'twitter',
      type: 'twitter',
      ...APPS.twitter,
      apiUrl: `${fakeUrl}/twitter`,
      avatarHosts: ['pbs.example.com'],
    },
    {
      name: 'facebook',
      type: 'facebook',
      ...APPS.facebook,
      graphUrl: `${fakeUrl}/facebook`,
      webUrl: `${fakeUrl}/facebook`,
      avatarHosts: ['*.example.com'],
    },
    {
      name: 'github',
      type: 'github',
      ...APPS.github,
      apiUrl: `${fakeUrl}/github`,
      webUrl: `${fakeUrl}/github`,
      avatarHosts: ['avatars.example.com'],
    },
    { name: 'keycloak', type: 'oidc', ...APPS.oidc, issuer: `${fakeUrl}/oidc` },
    {
      name: 'google',
      type: 'oidc',
      ...APPS.google,
      issuer: `${fakeUrl}/google`,
      tokenInfoUrl: `${fakeUrl}/google/tokeninfo`,
      avatarHosts: ['*.example.com'],
    },
  ];
}

/** Overrides of the test configuration; `lockout` is merged key by key. */
export type ConfigOverrides = Omit<Partial<AppConfig>, 'lockout'> & {
  lockout?: Partial<AppConfig['lockout']>;
};

export function testConfig(fakeUrl: string, overrides: ConfigOverrides = {}): AppConfig {
  const { lockout, ...rest } = overrides;
  return {
    host: '127.0.0.1',
    port: 0,
    siteUrl: SITE_URL,
    databaseUrl: undefined,
    dataDir: '',
    redisUrl: undefined,
    loginExpirationSeconds: 90 * 24 * 3600,
    // High enough not to interfere; the rate-limit test sets its own.
    loginRateLimit: 10_000,
    apiRateLimit: 10_000,
    // The production default: on a busy CI machine a short budget would turn slowness into 504s.
    // Fault tests that need the timeout to fire set their own.
    provider: { timeoutMs: 5_000, maxBytes: 1024 * 1024 },
    trustProxy: false,
    corsOrigins: [],
    reservedUsernames: DEFAULT_RESERVED_USERNAMES,
    logLevel: 'silent',
    services: fakeServices(fakeUrl),
    servicesSource: 'tests',
    ...rest,
    lockout: { attempts: 5, seconds: 300, maxKeys: 100_000, ...lockout },
  };
}

/**
 * One store and one fake provider per test file; `app()` builds a fresh service (fresh memory
 * counters) on them with a clock the test moves.
 */
export class Harness {
  clock = Date.parse('2026-01-01T00:00:00Z');
  #apps: FastifyInstance[] = [];

  private constructor(
    readonly store: Store<Database>,
    readonly fake: FakeProvider,
  ) {}

  static async open(): Promise<Harness> {
    const [store, fake] = await Promise.all([
      openTestStore<Database>({ migrations: MIGRATIONS }),
      FakeProvider.start(),
    ]);
    return new Harness(store, fake);
  }

  async app(overrides: ConfigOverrides = {}, redis?: Redis): Promise<FastifyInstance> {
    const app = await buildApp(testConfig(this.fake.url, overrides), {
      store: this.store,
      now: () => new Date(this.clock),
      ...(redis ? { redis } : {}),
    });
    this.#apps.push(app);
    return app;
  }

  advance(seconds: number): void {
    this.clock += seconds * 1000;
  }

  /** Between tests: no rows, no fake accounts, no faults. */
  async reset(): Promise<void> {
    await Promise.all(this.#apps.splice(0).map((app) => app.close()));
    this.fake.reset();
    await sql`TRUNCATE users, sessions, used_id_tokens, oauth_pending_credentials CASCADE`.execute(
      this.store.db,
    );
  }

  async close(): Promise<void> {
    await Promise.all(this.#apps.splice(0).map((app) => app.close()));
    await this.fake.close();
    await this.store.close();
  }
}

export interface LoginBody {
  serviceName: string;
  accessToken: string;
  accessTokenSecret: string;
  appId: string;
  appSecret: string;
  expiresIn: number;
}

export const loginBody = (
  serviceName: keyof typeof APPS | string,
  accessToken: string,
  extra: Partial<LoginBody> = {},
): LoginBody => {
  const kind = (serviceName === 'keycloak' ? 'oidc' : serviceName) as keyof typeof APPS;
  return {
    serviceName,
    accessToken,
    accessTokenSecret: '',
    ...(APPS[kind] ?? { appId: 'x', appSecret: 'y' }),
    expiresIn: 3600,
    ...extra,
  };
};

/** Listens on a free loopback port: for tests that must go through real sockets, not `inject`. */
export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}

/** POST /api/v1/login over HTTP to a listening service. */
export const postLogin = (base: string, body: unknown) =>
  fetch(`${base}/api/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

export const login = (app: FastifyInstance, body: unknown, ip = '127.0.0.1') =>
  app.inject({ method: 'POST', url: '/api/v1/login', payload: body as object, remoteAddress: ip });

export const me = (app: FastifyInstance, userId: string, token: string) =>
  app.inject({
    method: 'GET',
    url: '/api/v1/me',
    headers: { 'x-user-id': userId, 'x-auth-token': token },
  });

export const logout = (app: FastifyInstance, userId: string, token: string) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/logout',
    headers: { 'x-user-id': userId, 'x-auth-token': token },
  });

/** A port free now, for a service whose ROOT_URL must name its own address before it listens. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}
