import { connect } from 'node:net';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from '../test/support/accounts.js';
import { APPS } from '../test/support/fake-provider.js';
import { SERVICES } from '../test/support/faults.js';
import { Harness, listen, login, loginBody } from '../test/support/harness.js';
import { report, scale } from './support/measure.js';

/**
 * fast-check fuzzing of the login body and of the session headers. Whatever is sent, the
 * answer is never a 5xx, and every error is exactly `{status: "error", error, message}`. The
 * provider is the healthy fake one: a 502 here would blame the provider for the client's input.
 */
const RUNS = scale(1_000, 20_000);
const ALLOWED_ORIGIN = 'https://web.example.test';
const RAW_RUNS = scale(300, 3_000);
const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);

let h: Harness;
let app: FastifyInstance;
let base: string;
let session: { userId: string; token: string };
const figures: Record<string, unknown> = { seed };

beforeAll(async () => {
  h = await Harness.open();
  // No rate limit or lock-out in the way: every case reaches the code under test.
  // CORS and a trusted proxy on, so that hostile Origin and X-Forwarded-For reach their code.
  app = await h.app({
    loginRateLimit: 1_000_000,
    apiRateLimit: 1_000_000,
    lockout: { attempts: 1_000_000, seconds: 1 },
    corsOrigins: [ALLOWED_ORIGIN],
    trustProxy: ['127.0.0.1'],
  });
  base = await listen(app);
  const credentials = accounts.github(h.fake);
  for (const service of SERVICES) accounts[service](h.fake);
  const { data } = (await login(app, { ...loginBody('github', ''), ...credentials })).json();
  session = { userId: data.userId, token: data.authToken };
});
afterAll(async () => {
  report('fuzz', figures);
  await h?.close();
});

const ERROR_CODES = new Set([
  'invalid-request',
  'request-timeout',
  'headers-too-large',
  'payload-too-large',
  'unsupported-media-type',
  'unknown-service',
  'invalid-credentials',
  'unauthorized',
  'account-deactivated',
  'not-found',
  'too-many-requests',
  'account-locked',
]);

/** The invariant of every answer; returns the status for the tally. */
function checkAnswer(status: number, text: string, tally: Record<string, number>): void {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  const key = `${status} ${status === 200 ? 'success' : (body as { error?: string }).error}`;
  tally[key] = (tally[key] ?? 0) + 1;
  expect(status, text).toBeLessThan(500);
  if (status === 200) return;
  expect(body, `HTTP ${status}`).toEqual({
    status: 'error',
    error: expect.any(String),
    message: expect.any(String),
  });
  expect(ERROR_CODES.has((body as { error: string }).error), text).toBe(true);
}

const hostile = fc.constantFrom(
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '%00%0d%0a',
  '\u0000',
  '\r\nX-Injected: 1',
  '\u202e\ufeff\ud83d\ude00',
  '__proto__',
  'constructor',
  '$' + '{ENV}', // a services-file placeholder, as data
  'a'.repeat(5_000),
);
const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  hostile,
);
const anyValue = fc.oneof(
  text,
  fc.integer(),
  fc.double(),
  fc.constantFrom(null, true, false, [], {}, 1e308, -1, 0, 2 ** 53 + 1),
  fc.jsonValue({ maxDepth: 3 }),
);

/** Bodies near the real one: each field right, wrong or missing, with a real or unknown service. */
const nearLoginBody = fc
  .record(
    {
      serviceName: fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...SERVICES, 'unknown') },
        { weight: 1, arbitrary: anyValue },
      ),
      accessToken: fc.oneof({ weight: 4, arbitrary: text }, { weight: 1, arbitrary: anyValue }),
      accessTokenSecret: fc.oneof(
        { weight: 2, arbitrary: fc.constant('') },
        { weight: 2, arbitrary: text },
        { weight: 1, arbitrary: anyValue },
      ),
      appId: fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...Object.values(APPS).map((a) => a.appId)) },
        { weight: 1, arbitrary: anyValue },
      ),
      appSecret: fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...Object.values(APPS).map((a) => a.appSecret)) },
        { weight: 1, arbitrary: anyValue },
      ),
      expiresIn: fc.oneof(
        { weight: 4, arbitrary: fc.integer({ min: 1, max: 10 ** 6 }) },
        { weight: 1, arbitrary: anyValue },
      ),
      extra: anyValue,
    },
    { requiredKeys: ['serviceName', 'accessToken', 'accessTokenSecret', 'appId', 'appSecret'] },
  )
  .chain((body) =>
    // Now and then a field goes missing.
    fc
      .subarray(Object.keys(body), { minLength: Object.keys(body).length - 1 })
      .map((keys) =>
        JSON.stringify(
          Object.fromEntries(keys.map((key) => [key, body[key as keyof typeof body]])),
        ),
      ),
  );

const loginPayload = fc.oneof(
  { weight: 6, arbitrary: nearLoginBody },
  { weight: 2, arbitrary: fc.jsonValue().map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary' }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      '{',
      '{"a":',
      'null',
      '[]',
      '"x"',
      '{"__proto__":{"x":1}}',
      `{"serviceName":"${'x'.repeat(70_000)}"}`,
    ),
  },
);
const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'application/json; charset=latin1',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonx',
      '',
    ),
  },
);

describe('fuzzing the login body', () => {
  it(`${RUNS} bodies: never a 5xx, always the error shape`, async () => {
    const tally: Record<string, number> = {};
    await fc.assert(
      fc.asyncProperty(loginPayload, contentType, async (payload, type) => {
        const response = await app.inject({
          method: 'POST',
          url: '/api/v1/login',
          payload,
          headers: type === '' ? {} : { 'content-type': type },
        });
        checkAnswer(response.statusCode, response.body, tally);
      }),
      { numRuns: RUNS, seed },
    );
    figures.loginBody = { cases: RUNS, answers: tally };
  });
});

describe('fuzzing the credentials every provider module receives', () => {
  it(`${RUNS} well-formed bodies with any strings as credentials, every service: never a 5xx`, async () => {
    const tally: Record<string, number> = {};
    const serviceBody = fc
      .record({
        service: fc.constantFrom(...SERVICES),
        accessToken: text.filter((value) => value.length > 0),
        accessTokenSecret: text,
        expiresIn: fc.integer({ min: 1, max: 2 ** 31 }),
      })
      .map(({ service, ...fields }) => loginBody(service, '', fields));
    await fc.assert(
      fc.asyncProperty(serviceBody, async (body) => {
        const response = await login(app, body);
        checkAnswer(response.statusCode, response.body, tally);
      }),
      { numRuns: RUNS, seed },
    );
    figures.credentials = { cases: RUNS, answers: tally };
  });
});

/** Header values `inject` can carry (no CR, LF or NUL; the raw-socket test sends those). */
const headerValue = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme-ascii' }),
  fc.stringMatching(/^[A-Za-z0-9_-]{17,43}$/),
  hostile.filter((value) => !/[\r\n\0]/.test(value)),
  fc
    .string({ unit: 'binary', maxLength: 300 })
    .map((value) => value.replace(/[^\t\x20-\x7e\x80-\xff]/g, '')),
);
const sessionHeaders = fc.record(
  {
    userId: fc.oneof(headerValue, fc.constant('SESSION'), fc.array(headerValue, { maxLength: 3 })),
    token: fc.oneof(headerValue, fc.constant('SESSION'), fc.array(headerValue, { maxLength: 3 })),
  },
  { requiredKeys: [] },
);

describe('fuzzing the session headers', () => {
  it(`${RUNS} X-User-Id / X-Auth-Token pairs on me and logout: never a 5xx, always the error shape`, async () => {
    const tally: Record<string, number> = {};
    const real = (value: string | string[] | undefined, actual: string) =>
      value === 'SESSION' ? actual : value;
    await fc.assert(
      fc.asyncProperty(
        sessionHeaders,
        fc.constantFrom('GET /api/v1/me', 'POST /api/v1/logout'),
        async (pair, route) => {
          const [method, url] = route.split(' ') as ['GET' | 'POST', string];
          const headers: Record<string, string | string[]> = {};
          const userId = real(pair.userId, session.userId);
          const token = real(pair.token, session.token);
          if (userId !== undefined) headers['x-user-id'] = userId;
          if (token !== undefined) headers['x-auth-token'] = token;
          // The real pair would be logged out by the first logout: only `me` may use it whole.
          if (method === 'POST' && userId === session.userId && token === session.token) return;
          const response = await app.inject({ method, url, headers });
          checkAnswer(response.statusCode, response.body, tally);
        },
      ),
      { numRuns: RUNS, seed },
    );
    figures.sessionHeaders = { cases: RUNS, answers: tally };
  });

  it(`${RAW_RUNS} raw requests over a socket with any bytes in the headers: the same`, async () => {
    const tally: Record<string, number> = {};
    const { port } = new URL(base);
    const exchange = (request: Buffer) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1');
        const chunks: Buffer[] = [];
        socket.on('data', (chunk) => chunks.push(chunk));
        socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
        socket.on('error', reject);
        socket.setTimeout(5_000, () => socket.destroy(new Error('no answer in 5 s')));
        // Not end(): a client that half-closes before the answer has its request aborted by Node
        // (httpAllowHalfOpen is false); `Connection: close` makes the server close after answering.
        socket.write(request);
      });
    const headerBytes = fc
      .uint8Array({ maxLength: 200 })
      .map((bytes) => Buffer.from(bytes.filter((b) => b !== 10 && b !== 13)));
    await fc.assert(
      fc.asyncProperty(
        headerBytes,
        headerBytes,
        fc.constantFrom('GET /api/v1/me', 'POST /api/v1/logout', 'POST /api/v1/login'),
        async (userId, token, route) => {
          const request = Buffer.concat([
            Buffer.from(`${route} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nX-User-Id: `),
            userId,
            Buffer.from('\r\nX-Auth-Token: '),
            token,
            Buffer.from('\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}'),
          ]);
          const answer = await exchange(request);
          const match = /^HTTP\/1\.1 (\d{3}) [^\r]*\r\n([\s\S]*?)\r\n\r\n([\s\S]*)$/.exec(answer);
          expect(match, answer).not.toBeNull();
          checkAnswer(Number(match?.[1]), match?.[3] ?? '', tally);
        },
      ),
      { numRuns: RAW_RUNS, seed },
    );
    figures.rawHeaders = { cases: RAW_RUNS, answers: tally };
  });
});

describe('fuzzing the session, public and avatar routes and the headers every route reads', () => {
  it(`${RUNS} requests to info, settings.oauth, me, logout (GET and POST), avatars and preflights with hostile Origin, X-Forwarded-For and usernames: never a 5xx`, async () => {
    const tally: Record<string, number> = {};
    const route = fc.oneof(
      fc.constantFrom(
        'GET /api/info',
        'GET /api/v1/settings.oauth',
        'GET /api/v1/me',
        'GET /api/v1/logout',
        'POST /api/v1/logout',
        'OPTIONS /api/v1/login',
        'OPTIONS /api/v1/me',
      ),
      text.map((name) => `GET /avatar/${encodeURIComponent(name).slice(0, 300)}`),
      hostile.map((name) => `GET /avatar/${name.replace(/[\s?#]/g, '')}`),
    );
    const origin = fc.oneof(
      fc.constant(ALLOWED_ORIGIN),
      fc.constantFrom(
        'null',
        'https://web.example.test.evil.example',
        'HTTPS://WEB.EXAMPLE.TEST',
        '',
      ),
      headerValue,
    );
    const forwardedFor = fc.oneof(
      fc.ipV4().map((ip) => `${ip}, 127.0.0.1`),
      fc.ipV6(),
      fc.array(fc.oneof(fc.ipV4(), headerValue), { maxLength: 5 }).map((ips) => ips.join(', ')),
      headerValue,
    );
    await fc.assert(
      fc.asyncProperty(
        route,
        fc.option(origin),
        fc.option(forwardedFor),
        fc.option(headerValue),
        fc.boolean(),
        async (line, originHeader, forwarded, requestHeaders, jsonEmpty) => {
          const [method, url] = line.split(' ') as ['GET' | 'POST' | 'OPTIONS', string];
          const headers: Record<string, string> = {
            'x-user-id': session.userId,
            'x-auth-token': 'not-the-token',
          };
          if (originHeader !== null) headers.origin = originHeader;
          if (forwarded !== null) headers['x-forwarded-for'] = forwarded;
          if (method === 'OPTIONS') headers['access-control-request-method'] = 'POST';
          if (requestHeaders !== null) headers['access-control-request-headers'] = requestHeaders;
          if (jsonEmpty) headers['content-type'] = 'application/json';
          const response = await app.inject({ method, url, headers });
          const key = `${method} ${url.startsWith('/avatar/') ? '/avatar/*' : url} ${response.statusCode}`;
          tally[key] = (tally[key] ?? 0) + 1;
          expect(response.statusCode, response.body).toBeLessThan(500);
          if (response.statusCode >= 400) {
            checkAnswer(response.statusCode, response.body, {});
          }
          // The allowed origin alone is ever echoed.
          const allowOrigin = response.headers['access-control-allow-origin'];
          if (allowOrigin !== undefined) expect(allowOrigin).toBe(ALLOWED_ORIGIN);
          // An avatar is an SVG or a redirect to an allowed host, never elsewhere.
          if (url.startsWith('/avatar/') && response.statusCode === 302) {
            expect(String(response.headers.location)).toMatch(
              /^https:\/\/[a-z0-9.-]+\.example\.com\//,
            );
          }
        },
      ),
      { numRuns: RUNS, seed },
    );
    figures.sessionRoutes = { cases: RUNS, answers: tally };
  });
});
