import { randomBytes, randomInt } from 'node:crypto';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { base64url, SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { totpFor } from '../src/auth/totp.js';
import type { ServiceConfig } from '../src/config.js';
import { accounts } from '../test/support/accounts.js';
import { APPS } from '../test/support/fake-provider.js';
import {
  type ConfigOverrides,
  fakeServices,
  Harness,
  login,
  loginBody,
  me,
} from '../test/support/harness.js';
import { report, scale } from './support/measure.js';

/**
 * The sign-in features' inputs under attack: resume tokens, ID tokens, the X-2FA-Code / X-2FA-Method
 * headers and the session-management routes are fuzzed (never a 5xx, every error in the service's
 * shape with a documented code), and guessing resume tokens, TOTP codes and ID tokens is bounded
 * by the rate limit and the lock-out, on one instance and across two sharing Redis.
 */
const RUNS = scale(300, 5_000);
const GUESSES = scale(50, 500);
const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
const KEY = randomBytes(32);
const ADMIN = 'github:583231';

let h: Harness;
const figures: Record<string, unknown> = { seed };

beforeAll(async () => {
  h = await Harness.open();
});
afterEach(() => h.reset());
afterAll(async () => {
  report('auth-features', figures);
  await h?.close();
});

const services = (): ServiceConfig[] => [
  ...fakeServices(h.fake.url),
  {
    name: 'apple',
    type: 'apple',
    ...APPS.apple,
    issuer: h.fake.issuer('apple'),
    jwksUrl: `${h.fake.url}/apple/auth/keys`,
  },
];
const app = (overrides: ConfigOverrides = {}, redis?: Redis) =>
  h.app({ services: services(), twoFactorKey: KEY, admins: [ADMIN], ...overrides }, redis);

const ERROR_CODES = new Set([
  'invalid-request',
  'payload-too-large',
  'unsupported-media-type',
  'unknown-service',
  'invalid-credentials',
  'unauthorized',
  'forbidden',
  'not-found',
  'too-many-requests',
  'account-locked',
  'totp-required',
  'totp-invalid',
  'totp-already-enabled',
]);

/** The invariant of every answer; counts it in `tally`. */
function check(status: number, text: string, tally: Record<string, number>): void {
  const body = JSON.parse(text) as { error?: string; success?: boolean; status?: string };
  const key = `${status} ${status === 200 ? 'success' : body.error}`;
  tally[key] = (tally[key] ?? 0) + 1;
  expect(status, text).toBeLessThan(500);
  if (status === 200) return;
  expect(Object.keys(body).sort(), text).toEqual(
    'details' in body ? ['details', 'error', 'message', 'status'] : ['error', 'message', 'status'],
  );
  expect(body.status).toBe('error');
  expect(ERROR_CODES.has(body.error ?? ''), text).toBe(true);
}

const hostile = fc.constantFrom(
  "' OR '1'='1",
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '\u0000',
  '\r\nX-Injected: 1',
  '\u202e\ufeff\ud83d\ude00',
  '__proto__',
  'a'.repeat(9_000),
  'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
  '00000000-0000-0000-0000-000000000000',
);
const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), hostile);
const anyValue = fc.oneof(
  text,
  fc.integer(),
  fc.constantFrom(null, true, [], {}, -1, 1e308),
  fc.jsonValue({ maxDepth: 2 }),
);
const encode = (value: unknown) => base64url.encode(JSON.stringify(value));
/** JWT-shaped strings with hostile headers and claims, and a random or empty signature. */
const jwtLike = fc
  .record({
    alg: fc.constantFrom('none', 'None', 'HS256', 'RS256', 'ES256', 'PS512', '', 'x'),
    kid: fc.oneof(fc.constant(undefined), text),
    claims: fc.dictionary(
      fc.constantFrom('iss', 'aud', 'sub', 'exp', 'iat', 'nonce', 'azp', 'email', '__proto__'),
      anyValue,
    ),
    signature: fc.oneof(fc.constant(''), fc.uint8Array({ maxLength: 300 })),
  })
  .map(
    ({ alg, kid, claims, signature }) =>
      `${encode({ alg, ...(kid === undefined ? {} : { kid }) })}.${encode(claims)}.${
        typeof signature === 'string' ? '' : base64url.encode(signature)
      }`,
  );

describe('fuzzing', () => {
  it('login bodies with resume, idToken, identityToken and nonce', async () => {
    const service = await app({ loginRateLimit: 1e6, lockout: { attempts: 1e6, seconds: 1 } });
    const tally: Record<string, number> = {};
    const body = fc.oneof(
      fc.record({ resume: fc.oneof(text, anyValue) }),
      fc.record(
        {
          serviceName: fc.constantFrom('apple', 'keycloak', 'google', 'github', 'twitter'),
          idToken: fc.oneof(jwtLike, anyValue),
          identityToken: fc.oneof(jwtLike, anyValue),
          nonce: anyValue,
          accessToken: anyValue,
          accessTokenSecret: fc.constant(''),
          appId: fc.constantFrom(APPS.apple.appId, APPS.oidc.appId, APPS.github.appId),
          appSecret: fc.constantFrom(APPS.apple.appSecret, APPS.oidc.appSecret),
          expiresIn: fc.constant(60),
        },
        { requiredKeys: ['serviceName', 'appId', 'appSecret', 'accessTokenSecret', 'expiresIn'] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(body, async (payload) => {
        const response = await login(service, payload);
        check(response.statusCode, response.body, tally);
        expect(response.statusCode).not.toBe(200);
      }),
      { numRuns: RUNS, seed },
    );
    figures.loginBodies = tally;
  });

  it('X-2FA-Code and X-2FA-Method on a login that needs a second factor', async () => {
    const service = await app({ loginRateLimit: 1e6, lockout: { attempts: 1e6, seconds: 1 } });
    const credentials = accounts.github(h.fake);
    const first = (await login(service, { ...loginBody('github', ''), ...credentials })).json()
      .data;
    const auth = { 'x-user-id': first.userId, 'x-auth-token': first.authToken };
    const { secret } = (
      await service.inject({ method: 'POST', url: '/api/v1/users.2fa.enableTOTP', headers: auth })
    ).json();
    const code = totpFor(secret, 'x').generate({ timestamp: h.clock });
    await service.inject({
      method: 'POST',
      url: '/api/v1/users.2fa.confirmTOTP',
      headers: auth,
      payload: { code },
    });
    const headerValue = fc.oneof(
      fc.stringMatching(/^\d{6}$/),
      fc.string({ maxLength: 80 }).filter((s) => !/[\r\n\0]/.test(s) && /^[\x20-\x7e]*$/.test(s)),
      fc.constantFrom('totp', 'email', 'password', '', ' ', '0', 'TOTP', 'abcde-fghjk'),
    );
    const tally: Record<string, number> = {};
    await fc.assert(
      fc.asyncProperty(
        fc.option(headerValue),
        fc.option(headerValue),
        async (codeHeader, methodHeader) => {
          const headers: Record<string, string> = {};
          if (codeHeader !== null) headers['x-2fa-code'] = codeHeader;
          if (methodHeader !== null) headers['x-2fa-method'] = methodHeader;
          const response = await service.inject({
            method: 'POST',
            url: '/api/v1/login',
            payload: { ...loginBody('github', ''), ...credentials },
            headers,
          });
          check(response.statusCode, response.body, tally);
        },
      ),
      { numRuns: RUNS, seed },
    );
    figures.twoFactorHeaders = tally;
    // A six-digit guess can be right by chance (1 in 10^6 per case); anything else is refused.
    expect((tally['200 success'] ?? 0) <= 2).toBe(true);
  });

  it('session-management queries and bodies', async () => {
    const service = await app({ lockout: { attempts: 1e6, seconds: 1 } });
    const credentials = accounts.github(h.fake);
    const { data } = (await login(service, { ...loginBody('github', ''), ...credentials })).json();
    const headers = { 'x-user-id': data.userId, 'x-auth-token': data.authToken };
    const tally: Record<string, number> = {};
    const query = fc.dictionary(
      fc.constantFrom('offset', 'count', 'sessionId', 'userId', 'sort', '__proto__'),
      fc.oneof(text, fc.integer().map(String)),
    );
    const route = fc.constantFrom(
      ['GET', '/api/v1/sessions/list'],
      ['GET', '/api/v1/sessions/info'],
      ['GET', '/api/v1/sessions/list.all'],
      ['POST', '/api/v1/sessions/logout.me'],
      ['POST', '/api/v1/sessions/logout'],
      ['POST', '/api/v1/users.logout'],
      ['POST', '/api/v1/users.2fa.confirmTOTP'],
      ['POST', '/api/v1/users.2fa.disableTOTP'],
    );
    await fc.assert(
      fc.asyncProperty(route, query, anyValue, async ([method, url], params, payload) => {
        const search = new URLSearchParams(params as Record<string, string>).toString();
        const isPost = method === 'POST';
        // users.logout with the caller's own id (or none) would end the fuzzer's session.
        if (
          url === '/api/v1/users.logout' &&
          (payload === null ||
            typeof payload !== 'object' ||
            Array.isArray(payload) ||
            !('userId' in payload))
        )
          return;
        const response = await service.inject({
          method: method as 'GET' | 'POST',
          url: isPost ? url : `${url}?${search}`,
          headers: { ...headers, ...(isPost ? { 'content-type': 'application/json' } : {}) },
          ...(isPost ? { payload: JSON.stringify(payload) } : {}),
        });
        check(response.statusCode, response.body, tally);
      }),
      { numRuns: RUNS, seed },
    );
    figures.sessionRoutes = tally;
    expect((await me(service, data.userId, data.authToken)).statusCode).toBe(200);
  });
});

/** Answers by status and code, e.g. {"401 totp-invalid": 5, "429 account-locked": 45}. */
function countAnswers(responses: { statusCode: number; json(): { error?: string } }[]) {
  const counts: Record<string, number> = {};
  for (const response of responses) {
    const key = `${response.statusCode} ${response.statusCode === 200 ? 'success' : response.json().error}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/** `githubId`: an account of its own, for Redis (whose lock-out keys outlive a run). */
async function twoFactorUser(service: FastifyInstance, githubId?: number) {
  const credentials = accounts.github(h.fake, githubId);
  const first = (await login(service, { ...loginBody('github', ''), ...credentials })).json().data;
  const auth = { 'x-user-id': first.userId, 'x-auth-token': first.authToken };
  const { secret } = (
    await service.inject({ method: 'POST', url: '/api/v1/users.2fa.enableTOTP', headers: auth })
  ).json();
  const confirm = await service.inject({
    method: 'POST',
    url: '/api/v1/users.2fa.confirmTOTP',
    headers: auth,
    payload: { code: totpFor(secret, 'x').generate({ timestamp: h.clock }) },
  });
  expect(confirm.statusCode).toBe(200);
  h.advance(30);
  return { credentials, secret: secret as string };
}

/** Wrong six-digit codes, none of them valid in the current window. */
function wrongCodes(secret: string, count: number): string[] {
  const valid = new Set(
    [-1, 0, 1].map((step) => totpFor(secret, 'x').generate({ timestamp: h.clock + step * 30_000 })),
  );
  const codes: string[] = [];
  for (let i = 0; codes.length < count; i++) {
    const code = String((i * 7919 + 123_457) % 1_000_000).padStart(6, '0');
    if (!valid.has(code)) codes.push(code);
  }
  return codes;
}

describe('guessing', () => {
  it(`${GUESSES} TOTP guesses at once: 5 evaluated, the rest locked, the right code too`, async () => {
    const service = await app({ loginRateLimit: 1e6 });
    const { credentials, secret } = await twoFactorUser(service);
    const guesses = await Promise.all(
      wrongCodes(secret, GUESSES).map((code, i) =>
        service.inject({
          method: 'POST',
          url: '/api/v1/login',
          payload: { ...loginBody('github', ''), ...credentials },
          headers: { 'x-2fa-code': code, 'x-2fa-method': 'totp' },
          remoteAddress: `10.9.${i >> 8}.${i & 255}`,
        }),
      ),
    );
    const counts = countAnswers(guesses);
    figures.totpGuessesAtOnce = counts;
    expect(counts['200 success'] ?? 0).toBe(0);
    expect(counts['401 totp-invalid']).toBe(5);
    const right = totpFor(secret, 'x').generate({ timestamp: h.clock });
    const locked = await service.inject({
      method: 'POST',
      url: '/api/v1/login',
      payload: { ...loginBody('github', ''), ...credentials },
      headers: { 'x-2fa-code': right },
    });
    expect(locked.statusCode).toBe(429);
  });

  it(`${GUESSES} resume guesses: none succeeds, the per-IP rate limit stops them`, async () => {
    const service = await app({ loginRateLimit: 10 });
    const guesses = await Promise.all(
      Array.from({ length: GUESSES }, () =>
        service.inject({
          method: 'POST',
          url: '/api/v1/login',
          payload: { resume: randomBytes(32).toString('base64url') },
          remoteAddress: '10.77.0.1',
        }),
      ),
    );
    const counts = countAnswers(guesses);
    figures.resumeGuesses = counts;
    expect(counts['200 success'] ?? 0).toBe(0);
    expect(counts['401 invalid-credentials']).toBe(10);
    expect(counts['429 too-many-requests']).toBe(GUESSES - 10);
  });

  it(`${GUESSES} forged ID tokens for one victim: none succeeds, the JWKS is fetched at most twice`, async () => {
    const service = await app({ loginRateLimit: 1e6 });
    const key = h.fake.signingKeys[0];
    if (!key) throw new Error('no key');
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      iss: h.fake.issuer('apple'),
      aud: APPS.apple.appId,
      sub: 'victim',
      iat: now,
      exp: now + 600,
    };
    const forgeries = await Promise.all(
      Array.from({ length: GUESSES }, async (_, i) => {
        switch (i % 3) {
          case 0:
            return `${encode({ alg: 'none', kid: key.kid })}.${encode(claims)}.`;
          case 1:
            return new SignJWT(claims)
              .setProtectedHeader({ alg: 'HS256', kid: key.kid })
              .sign(new TextEncoder().encode(key.publicPem));
          default:
            return new SignJWT(claims)
              .setProtectedHeader({ alg: 'RS256', kid: `invented-${i}` })
              .sign(key.privateKey);
        }
      }),
    );
    const answers = await Promise.all(
      forgeries.map((identityToken, i) =>
        login(
          service,
          {
            serviceName: 'apple',
            accessTokenSecret: '',
            ...APPS.apple,
            expiresIn: 60,
            identityToken,
          },
          `10.5.${i >> 8}.${i & 255}`,
        ),
      ),
    );
    const counts = countAnswers(answers);
    figures.forgedIdTokens = counts;
    expect(counts['200 success'] ?? 0).toBe(0);
    // Identical forgeries (alg none, HS256) share a lock-out key and are locked after 5.
    expect(Object.keys(counts).sort(), JSON.stringify(counts)).toEqual([
      '401 invalid-credentials',
      '429 account-locked',
    ]);
    expect(h.fake.calls.filter((path) => path === '/apple/auth/keys').length).toBeLessThanOrEqual(
      2,
    );
  });

  it('wrong tokens on the session-management routes count towards the lock-out', async () => {
    const service = await app();
    const credentials = accounts.github(h.fake);
    const { data } = (await login(service, { ...loginBody('github', ''), ...credentials })).json();
    const answers = [];
    for (let i = 0; i < 8; i++) {
      answers.push(
        await service.inject({
          method: 'GET',
          url: '/api/v1/sessions/list',
          headers: {
            'x-user-id': data.userId,
            'x-auth-token': randomBytes(32).toString('base64url'),
          },
        }),
      );
    }
    const counts = countAnswers(answers);
    figures.sessionRouteGuesses = counts;
    expect(counts['401 unauthorized']).toBe(5);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;
describe.skipIf(!redisUrl)('with Redis (TEST_REDIS_URL): two instances', () => {
  it(`${GUESSES} TOTP guesses spread over two instances: 5 evaluated`, async () => {
    const redis = new Redis(redisUrl ?? '', { maxRetriesPerRequest: 1 });
    try {
      const one = await app({ loginRateLimit: 1e6 }, redis);
      const two = await app({ loginRateLimit: 1e6 }, redis);
      const { credentials, secret } = await twoFactorUser(one, randomInt(1_000_000, 2 ** 31));
      const guesses = await Promise.all(
        wrongCodes(secret, GUESSES).map((code, i) =>
          (i % 2 === 0 ? one : two).inject({
            method: 'POST',
            url: '/api/v1/login',
            payload: { ...loginBody('github', ''), ...credentials },
            headers: { 'x-2fa-code': code },
            remoteAddress: `10.10.${i >> 8}.${i & 255}`,
          }),
        ),
      );
      const counts = countAnswers(guesses);
      figures.totpGuessesTwoInstances = counts;
      expect(counts['200 success'] ?? 0).toBe(0);
      expect(counts['401 totp-invalid']).toBe(5);
    } finally {
      redis.disconnect();
    }
  });
});
