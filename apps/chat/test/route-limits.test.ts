import { randomBytes } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type InjectOptions } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { installGuard } from '../src/auth/guard.js';
import type { ChatContext } from '../src/context.js';
import { accounts } from './support/accounts.js';
import { Harness, login, loginBody } from './support/harness.js';

/**
 * Every route that needs a session is rate-limited per client address (an unlimited one let a
 * single address fill the lock-out table with random user ids and block every sign-in), and the
 * rate limits count an IPv6 client by its /64, as the lock-out does.
 */
let h: Harness;
beforeAll(async () => {
  h = await Harness.open();
});
afterEach(() => h.reset());
afterAll(() => h.close());

const API_LIMIT = 3;
const LOGIN_LIMIT = 2;

/** A user id of Rocket.Chat's shape (17 characters) that names nobody, and a token. */
const randomUserId = () => randomBytes(16).toString('base64url').replace(/[-_]/g, 'x').slice(0, 17);
const randomCredentials = () => ({
  'x-user-id': randomUserId(),
  'x-auth-token': randomBytes(32).toString('base64url'),
});

/**
 * Every route of the app as `METHOD /path`, from Fastify's route tree (`printRoutes`: each line
 * is a node, its depth told by its indentation, its methods in parentheses).
 */
function routesOf(app: FastifyInstance): string[] {
  const routes: string[] = [];
  const path: string[] = [];
  for (const line of app.printRoutes().split('\n')) {
    const node = /^((?:│ {3}| {4})*)[├└]── (.*)$/.exec(line);
    if (!node) continue;
    const depth = (node[1] ?? '').length / 4;
    const [, segment = '', methods] = /^(.*?)(?: \(([A-Z, ]+)\))?$/.exec(node[2] ?? '') ?? [];
    path.length = depth;
    path.push(segment === '(empty root node)' ? '' : segment);
    for (const method of methods?.split(', ') ?? []) routes.push(`${method} ${path.join('')}`);
  }
  return routes;
}

/**
 * Routes that may go without a rate limit, and why. None of them checks a session (asserted
 * below: each answers a request without credentials without a 401), so none reaches the lock-out.
 */
const UNLIMITED: ReadonlyArray<[RegExp, string]> = [
  [/^(GET|HEAD) \/health$/, "load balancers' probe: a constant answer"],
  [/^(GET|HEAD|PUT|PATCH|DELETE) \/api\/v1\/login$/, 'a constant 405 (only POST signs in)'],
  [/^HEAD \/_oauth\//, "a constant 405 (a link scanner's HEAD must not take a sign-in)"],
  [/^(GET|HEAD) \/packages\/oauth\/:script$/, "the redirect flow's static scripts"],
  [/^(GET|HEAD) \/api\/v1\/(openapi\.json|docs)/, 'the API description and its static page'],
  [/^OPTIONS \*$/, 'CORS preflights (never credentials)'],
];
const unlimited = (route: string) => UNLIMITED.some(([pattern]) => pattern.test(route));

/** The limit a route is documented to have (README, "Rate limit"). */
const limitOf = (route: string) =>
  /^POST \/api\/v1\/login$| \/_oauth\/|users\.2fa\./.test(route) ? LOGIN_LIMIT : API_LIMIT;

/** A request to `route` from `address`: parameters filled in, a body that passes validation. */
function request(route: string, address: string) {
  const [method = 'GET', pattern = '/'] = route.split(' ');
  const url = pattern
    .replace(':service', 'github')
    .replace(':username', 'nobody')
    .replace(':script', 'none.js')
    .replace('*', 'x');
  const payload =
    method !== 'POST'
      ? undefined
      : url === '/api/v1/login'
        ? loginBody('no-such-service', 'token')
        : { sessionId: '0f8e0b5e-3b9d-4c55-9a55-2cbd2e1fd7b1', code: '123456' };
  return {
    method: method as 'GET',
    url,
    headers: randomCredentials(),
    remoteAddress: address,
    ...(payload ? { payload } : {}),
  };
}

describe('every route that is not on the short list of constant answers is rate-limited', () => {
  it('answers 429 too-many-requests past its limit from one address, on every route (sessions/*, users.logout*, users.2fa.* included)', async () => {
    const app = await h.app({ apiRateLimit: API_LIMIT, loginRateLimit: LOGIN_LIMIT });
    const routes = routesOf(app);
    // The tree was read (a parse that found nothing would check nothing).
    for (const known of [
      'POST /api/v1/login',
      'GET /api/v1/me',
      'GET /api/v1/sessions/list',
      'POST /api/v1/users.2fa.enableTOTP',
      'GET /avatar/:username',
      'GET /_oauth/:service/authorize',
      'GET /health',
    ]) {
      expect(routes).toContain(known);
    }

    const unlimitedButAuthenticated: string[] = [];
    const notLimited: Record<string, number[]> = {};
    for (const [i, route] of routes.entries()) {
      const address = `10.20.${i >> 8}.${i & 255}`;
      if (unlimited(route)) {
        const { headers: _none, ...anonymous } = request(route, address);
        const answer = await app.inject(anonymous);
        if (answer.statusCode === 401) unlimitedButAuthenticated.push(route);
        continue;
      }
      const statuses: number[] = [];
      for (let n = 0; n <= limitOf(route); n++) {
        statuses.push((await app.inject(request(route, address))).statusCode);
      }
      if (statuses.at(-1) !== 429 || statuses.slice(0, -1).includes(429)) {
        notLimited[route] = statuses;
      }
    }
    expect(unlimitedButAuthenticated).toEqual([]);
    expect(notLimited).toEqual({});
  });

  it('a route that needs a session answers 429 from the rate limit (not the lock-out) past API_RATE_LIMIT', async () => {
    const app = await h.app({ apiRateLimit: API_LIMIT, loginRateLimit: 1000 });
    const routes = [
      ['GET', '/api/v1/sessions/list'],
      ['GET', '/api/v1/sessions/info?sessionId=0f8e0b5e-3b9d-4c55-9a55-2cbd2e1fd7b1'],
      ['POST', '/api/v1/sessions/logout.me'],
      ['POST', '/api/v1/users.logoutOtherClients'],
      ['POST', '/api/v1/users.removeOtherTokens'],
      ['POST', '/api/v1/users.logout'],
      ['GET', '/api/v1/sessions/list.all'],
      ['POST', '/api/v1/sessions/logout'],
    ] as const;
    for (const [method, url] of routes) {
      const statuses: number[] = [];
      let last: Awaited<ReturnType<typeof app.inject>> | undefined;
      for (let n = 0; n <= API_LIMIT; n++) {
        last = await app.inject({
          method,
          url,
          headers: randomCredentials(),
          remoteAddress: '198.51.100.20',
          ...(method === 'POST'
            ? { payload: { sessionId: '0f8e0b5e-3b9d-4c55-9a55-2cbd2e1fd7b1' } }
            : {}),
        });
        statuses.push(last.statusCode);
      }
      expect(statuses, url).toEqual([...Array(API_LIMIT).fill(401), 429]);
      expect(last?.json().error, url).toBe('too-many-requests');
      expect(last?.headers['x-ratelimit-limit'], url).toBe(String(API_LIMIT));
      expect(Number(last?.headers['retry-after']), url).toBeGreaterThan(0);
    }
  });

  it('users.2fa.enableTOTP counts against LOGIN_RATE_LIMIT, as the other TOTP routes do', async () => {
    const app = await h.app({ apiRateLimit: 1000, loginRateLimit: LOGIN_LIMIT });
    const { data } = (
      await login(app, { ...loginBody('github', ''), ...accounts.github(h.fake) })
    ).json();
    const enable = (headers: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/users.2fa.enableTOTP',
        headers,
        remoteAddress: '198.51.100.21',
      });
    const statuses: number[] = [];
    for (let n = 0; n < LOGIN_LIMIT; n++)
      statuses.push((await enable(randomCredentials())).statusCode);
    // The owner's right token from the same address is limited too: the limit counts requests.
    const limited = await enable({ 'x-user-id': data.userId, 'x-auth-token': data.authToken });
    expect([...statuses, limited.statusCode]).toEqual([401, 401, 429]);
    expect(limited.headers['x-ratelimit-limit']).toBe(String(LOGIN_LIMIT));
  });
});

describe('rate limits count an IPv6 client by its /64, as the lock-out does', () => {
  const statusesFrom = async (
    app: FastifyInstance,
    make: (address: string) => InjectOptions,
    addresses: string[],
  ) => {
    const statuses: number[] = [];
    for (const address of addresses) statuses.push((await app.inject(make(address))).statusCode);
    return statuses;
  };

  it('two addresses of one /64 share one budget; an address of another /64 has its own (public, session and login routes)', async () => {
    const app = await h.app({ apiRateLimit: 2, loginRateLimit: 2 });
    const oneNetwork = ['2001:db8:1:2::1', '2001:db8:1:2:ffff:ffff:ffff:fffe', '2001:db8:1:2::3'];
    const otherNetwork = '2001:db8:1:3::1';
    const routes: Array<(address: string) => InjectOptions> = [
      (address) => ({ method: 'GET', url: '/api/info', remoteAddress: address }),
      (address) => ({
        method: 'GET',
        url: '/api/v1/me',
        headers: randomCredentials(),
        remoteAddress: address,
      }),
      (address) => ({
        method: 'POST',
        url: '/api/v1/login',
        payload: loginBody('no-such-service', 'token'),
        remoteAddress: address,
      }),
    ];
    for (const route of routes) {
      const shared = await statusesFrom(app, route, oneNetwork);
      expect(shared[2]).toBe(429);
      expect(shared.slice(0, 2)).not.toContain(429);
      expect((await statusesFrom(app, route, [otherNetwork]))[0]).not.toBe(429);
    }
  });

  it('behind a trusted proxy the /64 of the forwarded address counts', async () => {
    const app = await h.app({ apiRateLimit: 2, trustProxy: ['10.0.0.1'] });
    const viaProxy = (client: string) => ({
      method: 'GET' as const,
      url: '/api/info',
      headers: { 'x-forwarded-for': client },
      remoteAddress: '10.0.0.1',
    });
    const statuses = await statusesFrom(app, viaProxy, [
      '2001:db8:7:8::a',
      '2001:db8:7:8::b',
      '2001:db8:7:8::c',
      '2001:db8:7:9::a',
    ]);
    expect(statuses).toEqual([200, 200, 429, 200]);
  });
});

describe('a route that needs a session cannot be declared without a rate limit', () => {
  it('rateLimit: false on such a route stops the app from being built; a public route may say it', async () => {
    const build = async (auth: 'public' | 'session' | 'admin' | undefined) => {
      const app = Fastify();
      installGuard(app, { config: { apiRateLimit: 5 } } as ChatContext);
      await app.register(rateLimit, { global: false });
      app.get('/x', { config: { rateLimit: false, ...(auth ? { auth } : {}) } }, async () => ({}));
      await app.ready();
      await app.close();
    };
    await expect(build(undefined)).rejects.toThrow(
      'GET /x: a route that needs a session cannot go without a rate limit',
    );
    await expect(build('admin')).rejects.toThrow(/cannot go without a rate limit/);
    await expect(build('public')).resolves.toBeUndefined();
  });
});
