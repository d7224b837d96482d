import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeOAuthState } from '../src/auth/oauth-state.js';
import { RESULT_PAGE_HEADERS } from '../src/ui/oauth-result.js';
import { accounts } from '../test/support/accounts.js';
import { Harness, login, SITE_URL } from '../test/support/harness.js';
import { distribution, report, scale } from './support/measure.js';

/**
 * Hostile values at every input of the OAuth redirect flow: the `state`, `code`, `error` and
 * `error_description` of `/_oauth/<service>` and its `/authorize` start, the service name in the
 * path, repeated parameters, and the `{"oauth": …}` login body. Every answer is below 500, in
 * one of the service's shapes (the result page with its strict CSP, or `{status, error,
 * message}`), echoes no raw control character or live markup, sends the browser nowhere but the
 * deployment's own origins and the provider's authorize endpoint, and a real flow still
 * completes afterwards.
 */
const RUNS = scale(150, 3_000);
const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
/** Far above any answer seen (a few ms); only catches a request that hangs or backtracks. */
const SLOW_MS = 2_000;
const CSP = RESULT_PAGE_HEADERS['content-security-policy'];

let h: Harness;
let app: FastifyInstance;
const durations: number[] = [];
const tally: Record<string, number> = {};
const figures: Record<string, unknown> = { seed };

beforeAll(async () => {
  h = await Harness.open();
  // No rate limit or lock-out in the way: every case reaches the code under test.
  app = await h.app({
    loginRateLimit: 1_000_000,
    apiRateLimit: 1_000_000,
    lockout: { attempts: 1_000_000, seconds: 1 },
  });
  h.fake.signedIn.set('github', accounts.github(h.fake).accessToken);
  h.fake.registeredRedirectUris.set('github', `${SITE_URL}/_oauth/github`);
});
afterAll(async () => {
  figures.requests = durations.length;
  figures.ms = distribution(durations);
  figures.answers = tally;
  report('oauth-inputs', figures);
  await h?.close();
});

const newToken = () => randomBytes(32).toString('base64url');
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const stateOf = (fields: Record<string, unknown>) => b64(JSON.stringify(fields));

/** Characters that must never come back raw: C0 controls but tab and line feed, DEL, C1. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the check is for control characters
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
/** The page's own script, the only one it may hold. */
const OWN_SCRIPT =
  /<script src="\/packages\/oauth\/end_of_(?:popup|redirect)_response\.js"><\/script>/g;
/** Markup a hostile value could smuggle in (the page's template holds none of these). */
const LIVE_MARKUP = /<\/?(?:script|img|svg|iframe|b)\b/i;

/** The invariant of every answer of `/_oauth/*` and the login. */
function checkAnswer(response: LightMyRequestResponse, what: string): void {
  const label = `${what}: HTTP ${response.statusCode} ${response.body.slice(0, 300)}`;
  const type = String(response.headers['content-type'] ?? '');
  const kind = type.startsWith('text/html')
    ? 'page'
    : type.startsWith('application/json')
      ? 'json'
      : type;
  const key = `${response.statusCode} ${kind}`;
  tally[key] = (tally[key] ?? 0) + 1;
  expect(response.statusCode, label).toBeLessThan(500);
  expect(response.body, label).not.toMatch(RAW_CONTROL);
  const location = response.headers.location;
  if (response.statusCode >= 300 && response.statusCode < 400) {
    // Only the start redirects, and only to the provider's authorize endpoint.
    expect(typeof location, label).toBe('string');
    const target = new URL(String(location));
    expect(target.origin, label).toBe(new URL(h.fake.url).origin);
    expect(target.pathname, label).toBe('/github/login/oauth/authorize');
    expect(target.searchParams.get('redirect_uri'), label).toBe(`${SITE_URL}/_oauth/github`);
    return;
  }
  expect(location, label).toBeUndefined();
  if (kind === 'page') {
    expect(response.headers['content-security-policy'], label).toBe(CSP);
    expect(response.headers['x-frame-options'], label).toBe('DENY');
    expect(response.body.replace(OWN_SCRIPT, ''), label).not.toMatch(LIVE_MARKUP);
    // The page sends the browser on only to one of the deployment's own origins.
    const redirectUrl = /redirectUrl&quot;:&quot;(.*?)&quot;/.exec(response.body)?.[1];
    if (redirectUrl !== undefined) {
      expect(new URL(redirectUrl.replaceAll('&#x2F;', '/')).origin, label).toBe(SITE_URL);
    }
    return;
  }
  expect(kind, label).toBe('json');
  if (response.statusCode === 200) return;
  expect(response.json(), label).toEqual({
    status: 'error',
    error: expect.any(String),
    message: expect.any(String),
  });
  expect(response.body, label).not.toMatch(/<script/i);
}

async function send(what: string, request: InjectOptions): Promise<LightMyRequestResponse> {
  const started = performance.now();
  const response = await app.inject(request);
  const ms = performance.now() - started;
  durations.push(ms);
  expect(ms, `${what} took ${ms} ms`).toBeLessThan(SLOW_MS);
  checkAnswer(response, what);
  return response;
}

/** The query string, each value percent-encoded as a browser or a provider would send it. */
const query = (pairs: readonly (readonly [string, string])[]) =>
  pairs.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&');

/** Both the start and the return with this state; no credential may come out of either. */
async function throwState(state: string, what: string) {
  const start = await send(`authorize ${what}`, {
    url: `/_oauth/github/authorize?${query([['state', state]])}`,
  });
  const back = await send(`return ${what}`, {
    url: `/_oauth/github?${query([
      ['code', 'hostile-code'],
      ['state', state],
    ])}`,
  });
  expect(back.body, what).not.toMatch(/credentialSecret&quot;:&quot;/);
  return { start, back };
}

/** A complete, valid flow: start, provider, return; the credential pair of the result page. */
async function validFlow(credentialToken = newToken()) {
  const start = await send('valid start', {
    url: `/_oauth/github/authorize?${query([['state', encodeOAuthState({ credentialToken })]])}`,
  });
  expect(start.statusCode, start.body).toBe(302);
  const atProvider = await fetch(String(start.headers.location), { redirect: 'manual' });
  expect(atProvider.status).toBe(302);
  const back = new URL(atProvider.headers.get('location') ?? '');
  expect(back.origin).toBe(SITE_URL);
  // The browser that started the flow finishes it: the start's cookie goes back.
  const cookie = String(start.headers['set-cookie'] ?? '').split(';')[0] ?? '';
  const result = await send('valid return', {
    url: `${back.pathname}${back.search}`,
    headers: { cookie },
  });
  expect(result.statusCode, result.body).toBe(200);
  const secret = /credentialSecret&quot;:&quot;([A-Za-z0-9_-]+)&quot;/.exec(result.body)?.[1];
  expect(secret).toBeDefined();
  return { credentialToken, credentialSecret: secret as string };
}

const CONTROL = '\u0000\u0007\u001b[31m\r\n\u007f\u0085';
const SCRIPT = '<script>alert(1)</script><img src=x onerror=alert(2)>"\'';
const token = newToken();

const hostileStates: Record<string, string> = {
  empty: '',
  'not base64': '!!not*base64!!',
  'percent garbage': '%%%%',
  'base64 of text': b64('not json at all'),
  'base64 of a truncated object': b64('{"credentialToken":"'),
  'base64 of null': b64('null'),
  'base64 of an array': b64('[1,2,3]'),
  'base64 of a string': b64('"just a string"'),
  'base64 of a number': b64('42'),
  'token a number': stateOf({ credentialToken: 1234567890123456 }),
  'token an object': stateOf({ credentialToken: { $ne: null } }),
  'token empty': stateOf({ credentialToken: '' }),
  'token short': stateOf({ credentialToken: 'abc' }),
  'token huge': stateOf({ credentialToken: 'A'.repeat(3_000) }),
  'token with controls': stateOf({ credentialToken: `${token}${CONTROL}` }),
  'token with markup': stateOf({ credentialToken: `${token}${SCRIPT}` }),
  'loginStyle unknown': stateOf({ credentialToken: token, loginStyle: 'iframe' }),
  'loginStyle a number': stateOf({ credentialToken: token, loginStyle: 1 }),
  'isCordova a string': stateOf({ credentialToken: token, isCordova: 'yes' }),
  'redirectUrl a number': stateOf({ credentialToken: token, redirectUrl: 7 }),
  'duplicate keys': b64(
    `{"credentialToken":"${token}","loginStyle":"popup","loginStyle":"redirect","redirectUrl":"https://evil.example/"}`,
  ),
  'state over 4 KiB': stateOf({
    credentialToken: token,
    redirectUrl: `${SITE_URL}/${'a'.repeat(5_000)}`,
  }),
  'state of 200 KiB': 'A'.repeat(200_000),
  'state with controls': `${b64('{"credentialToken"')}${CONTROL}`,
  'state with markup': SCRIPT,
};
for (const redirectUrl of [
  'https://evil.example/',
  'javascript:alert(document.domain)',
  '//evil.example/path',
  '/\\evil.example',
  `${SITE_URL}@evil.example/`,
  `https://user:pass@${new URL(SITE_URL).host}/`,
  `${SITE_URL}.evil.example/`,
  'data:text/html,<script>alert(1)</script>',
  `${SITE_URL.replace('https', 'http')}/`,
  'evil.example',
  '',
]) {
  hostileStates[`redirect to ${JSON.stringify(redirectUrl)}`] = stateOf({
    credentialToken: newToken(),
    loginStyle: 'redirect',
    redirectUrl,
  });
}

describe('hostile input at the OAuth redirect flow', () => {
  it('a valid flow completes first (its credential is used after the hostile rounds)', async () => {
    figures.pendingBefore = await validFlow();
  });

  it('hostile states: refused at the start and at the return, never an open redirect', async () => {
    for (const [what, state] of Object.entries(hostileStates)) {
      const { start, back } = await throwState(state, what);
      expect(start.statusCode, what).toBe(400);
      expect(back.statusCode, what).toBe(400);
    }
    // On the deployment's own origin, so accepted; what comes back stays on that origin
    // (checkAnswer) and is escaped. URL parsing drops CR and LF (WHATWG, as browsers do): the
    // first is the own `/Location:%20https://evil.example/`, and the CR-LF never comes back raw.
    for (const redirectUrl of [
      `${SITE_URL}/\r\nLocation: https://evil.example/`,
      `${SITE_URL}/"><script>alert(1)</script>`,
    ]) {
      const state = stateOf({ credentialToken: newToken(), loginStyle: 'redirect', redirectUrl });
      const { start, back } = await throwState(state, `redirect to ${JSON.stringify(redirectUrl)}`);
      expect(start.statusCode).toBe(302);
      expect(back.statusCode).toBeGreaterThanOrEqual(400);
    }
    // Keys named like Object.prototype's are ignored, never merged: the flow stays a popup one
    // (checkAnswer saw the start go to the provider only), and the return hands out nothing.
    for (const key of ['__proto__', 'constructor']) {
      const state = b64(
        `{"${key}":{"loginStyle":"redirect","redirectUrl":"https://evil.example/","prototype":{"redirectUrl":"https://evil.example/"}},"credentialToken":"${newToken()}"}`,
      );
      const { start, back } = await throwState(state, `${key} key`);
      expect(start.statusCode, key).toBe(302);
      expect(back.statusCode, key).toBeGreaterThanOrEqual(400);
    }
    expect(({} as Record<string, unknown>).redirectUrl).toBeUndefined();
    // A state the start refused never reaches the provider: none was stored.
    figures.hostileStates = Object.keys(hostileStates).length;
  });

  it('code, error and error_description: huge, control characters, markup; escaped or refused', async () => {
    const state = () => encodeOAuthState({ credentialToken: newToken() });
    const values = [
      '',
      'x'.repeat(3_000),
      'x'.repeat(100_000),
      CONTROL,
      SCRIPT,
      '</div><script src="https://evil.example/x.js"></script>',
      '&lt;script&gt;',
      '\u202e\ufeff\ud83d\ude00',
      '$' + '{ENV}', // a services-file placeholder, as data
    ];
    for (const value of values) {
      const what = JSON.stringify(value.slice(0, 40));
      const asCode = await send(`code ${what}`, {
        url: `/_oauth/github?${query([
          ['code', value],
          ['state', state()],
        ])}`,
      });
      // The provider never issued this code: no credential is handed out.
      expect(asCode.statusCode).toBeGreaterThanOrEqual(400);
      expect(asCode.body).not.toContain('credentialSecret&quot;:&quot;');
      for (const name of ['error', 'error_description']) {
        const answer = await send(`${name} ${what}`, {
          url: `/_oauth/github?${query([
            ['state', state()],
            [name, value],
            ...(name === 'error_description' ? [['error', 'server_error'] as const] : []),
          ])}`,
        });
        expect(answer.statusCode).toBe(400);
        expect(answer.body).not.toContain('credentialSecret&quot;:&quot;');
      }
    }
    // Markup a link puts in `error` (printable, so accepted) is not shown at all: no flow was
    // started here in this browser, so the page says a fixed sentence.
    const shown = await send('error markup', {
      url: `/_oauth/github?${query([
        ['state', state()],
        ['error', '<b>x</b>"\'&'],
      ])}`,
    });
    expect(shown.headers['content-type']).toMatch(/^text\/html/);
    expect(shown.body).not.toContain('<b>');
    expect(shown.body).not.toContain('&lt;b&gt;');
    expect(shown.body).toContain(
      'Sign-in failed: the identity provider refused the sign-in; start again</p>',
    );
  });

  it('repeated and malformed query parameters', async () => {
    const state = encodeOAuthState({ credentialToken: newToken() });
    for (const search of [
      `state=${encodeURIComponent(state)}&state=${encodeURIComponent(state)}`,
      `code=a&code=b&state=${encodeURIComponent(state)}`,
      `error=access_denied&error=x&state=${encodeURIComponent(state)}`,
      `state[]=${encodeURIComponent(state)}&code=x`,
      `state[credentialToken]=${newToken()}&code=x`,
      'state=%E0%A4%A&code=%ZZ',
      `__proto__=x&constructor=y&code=x&state=${encodeURIComponent(state)}`,
      `${'&'.repeat(2_000)}code=x`,
      Array.from({ length: 500 }, (_, index) => `p${index}=${index}`).join('&'),
    ]) {
      for (const path of ['/_oauth/github', '/_oauth/github/authorize']) {
        await send(`${path}?${search.slice(0, 60)}`, { url: `${path}?${search}` });
      }
    }
  });

  it('hostile browser cookies: never an error, never a flow finished by the wrong browser', async () => {
    const credentialToken = newToken();
    const start = await send('bound start', {
      url: `/_oauth/github/authorize?${query([['state', encodeOAuthState({ credentialToken })]])}`,
    });
    const atProvider = await fetch(String(start.headers.location), { redirect: 'manual' });
    const back = new URL(atProvider.headers.get('location') ?? '');
    const own = String(start.headers['set-cookie'] ?? '').split(';')[0] ?? '';
    const name = own.slice(0, own.indexOf('='));
    const value = own.slice(own.indexOf('=') + 1);
    expect(name).toMatch(/^chat_oauth_[A-Za-z0-9_-]{16}$/);
    for (const cookie of [
      '',
      `${name}=`,
      `${name}=${value.slice(0, -1)}`,
      `${name}=${value}x`,
      `${name}=${'A'.repeat(43)}`,
      `${name}=${encodeURIComponent(CONTROL)}`,
      `${name}="${value.toLowerCase()}"`,
      `${name}=${'%'.repeat(4_000)}`,
      `${name}=${newToken()}; ${name}=${newToken()}`,
      `${'a=b; '.repeat(500)}${name}=${newToken()}`,
      `=; ;;=;${name}`,
    ]) {
      const refused = await send(`return with cookie ${cookie.slice(0, 40)}`, {
        url: `${back.pathname}${back.search}`,
        headers: { cookie },
      });
      expect(refused.statusCode, cookie.slice(0, 60)).toBe(400);
      expect(refused.body).not.toContain('credentialSecret&quot;:&quot;');
      // A hostile cookie at the start is replaced by a fresh one, never echoed.
      const started = await send(`start with cookie ${cookie.slice(0, 40)}`, {
        url: `/_oauth/github/authorize?${query([['state', encodeOAuthState({ credentialToken: newToken() })]])}`,
        headers: { cookie },
      });
      expect(started.statusCode).toBe(302);
      expect(String(started.headers['set-cookie'])).toMatch(
        /^chat_oauth_[A-Za-z0-9_-]{16}=[A-Za-z0-9_-]{43};/,
      );
    }
    // The browser that started it still finishes it.
    const finished = await send('bound return', {
      url: `${back.pathname}${back.search}`,
      headers: { cookie: own },
    });
    expect(finished.statusCode, finished.body).toBe(200);
  });

  it('unknown, prototype and oversized service names have no flow', async () => {
    const state = encodeOAuthState({ credentialToken: newToken() });
    for (const service of [
      '__proto__',
      'constructor',
      'hasOwnProperty',
      'toString',
      'prototype',
      '..%2Fgithub',
      '%2e%2e',
      '..%2F..%2Fetc%2Fpasswd',
      '%00',
      '%0d%0aX-Injected:%201',
      encodeURIComponent(SCRIPT),
      'GITHUB',
      'github%20',
      'x'.repeat(65),
      'x'.repeat(5_000),
      '%F0%9F%98%80',
    ]) {
      for (const path of [`/_oauth/${service}`, `/_oauth/${service}/authorize`]) {
        const answer = await send(`service ${service.slice(0, 40)}`, {
          url: `${path}?${query([
            ['code', 'x'],
            ['state', state],
          ])}`,
        });
        expect(answer.statusCode, path.slice(0, 80)).toBeGreaterThanOrEqual(400);
      }
    }
  });

  it('the {"oauth": …} login body: missing, wrong types, huge, extra keys, mixed flows', async () => {
    const other = await validFlow();
    const mine = await validFlow();
    const bodies: unknown[] = [
      { oauth: null },
      { oauth: 'token:secret' },
      { oauth: [] },
      { oauth: [newToken(), newToken()] },
      { oauth: {} },
      { oauth: { credentialToken: newToken() } },
      { oauth: { credentialSecret: newToken() } },
      { oauth: { credentialToken: 1, credentialSecret: 2 } },
      { oauth: { credentialToken: { $ne: null }, credentialSecret: { $ne: null } } },
      {
        oauth: {
          credentialToken: [mine.credentialToken],
          credentialSecret: [mine.credentialSecret],
        },
      },
      { oauth: { credentialToken: '', credentialSecret: '' } },
      { oauth: { credentialToken: 'A'.repeat(129), credentialSecret: 'A'.repeat(129) } },
      { oauth: { credentialToken: 'A'.repeat(50_000), credentialSecret: newToken() } },
      {
        oauth: {
          credentialToken: `${mine.credentialToken}${CONTROL}`,
          credentialSecret: mine.credentialSecret,
        },
      },
      { oauth: { credentialToken: SCRIPT, credentialSecret: SCRIPT } },
      { oauth: { credentialToken: "' OR '1'='1", credentialSecret: "' OR '1'='1" } },
      // Extra keys and other flows' keys beside the pair: never a way around the secret.
      {
        oauth: { credentialToken: mine.credentialToken, credentialSecret: newToken(), admin: true },
      },
      JSON.parse(
        `{"oauth":{"credentialToken":"${mine.credentialToken}","credentialSecret":"${newToken()}","__proto__":{"credentialSecret":"${mine.credentialSecret}"}}}`,
      ),
      { oauth: { credentialToken: mine.credentialToken }, resume: newToken() },
      { oauth: { credentialToken: mine.credentialToken }, serviceName: 'github', accessToken: 'x' },
      { oauth: { credentialToken: mine.credentialToken }, user: 'admin', password: 'x' },
      // Each half of two real pairs, crossed.
      {
        oauth: { credentialToken: mine.credentialToken, credentialSecret: other.credentialSecret },
      },
      {
        oauth: { credentialToken: other.credentialToken, credentialSecret: mine.credentialSecret },
      },
    ];
    for (const body of bodies) {
      const what = `login ${JSON.stringify(body).slice(0, 80)}`;
      const started = performance.now();
      const answer = await login(app, body);
      durations.push(performance.now() - started);
      checkAnswer(answer, what);
      expect(answer.statusCode, what).toBeGreaterThanOrEqual(400);
    }
    // Neither pair was spent or broken by the crossed attempts.
    for (const pair of [mine, other]) {
      const answer = await login(app, { oauth: pair });
      expect(answer.statusCode, answer.body).toBe(200);
    }
  });

  it(`fast-check: arbitrary state, code and error (${RUNS} runs each)`, async () => {
    const text = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc.base64String({ maxLength: 400 }),
      fc.constantFrom(CONTROL, SCRIPT, '__proto__', 'constructor', 'x'.repeat(5_000)),
    );
    const jsonState = fc
      .record(
        {
          loginStyle: fc.oneof(fc.constantFrom('popup', 'redirect'), fc.jsonValue({ maxDepth: 1 })),
          credentialToken: fc.oneof(fc.constant(token), text, fc.jsonValue({ maxDepth: 1 })),
          isCordova: fc.jsonValue({ maxDepth: 1 }),
          redirectUrl: fc.oneof(
            fc.webUrl(),
            text,
            fc.constantFrom(`${SITE_URL}/`, '//evil.example'),
          ),
        },
        { requiredKeys: [] },
      )
      .map((fields) => stateOf(fields));
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(text, jsonState),
        fc.option(text, { nil: undefined }),
        fc.option(text, { nil: undefined }),
        fc.boolean(),
        async (state, code, error, atStart) => {
          const pairs: [string, string][] = [['state', state]];
          if (code !== undefined) pairs.push(['code', code]);
          if (error !== undefined) pairs.push(['error', error]);
          const path = atStart ? '/_oauth/github/authorize' : '/_oauth/github';
          const answer = await send(`fc ${path}`, { url: `${path}?${query(pairs)}` });
          // No flow was started for any of these states: never a credential.
          expect(answer.body).not.toContain('credentialSecret&quot;:&quot;');
        },
      ),
      { numRuns: RUNS, seed },
    );
  });

  it('after all of it, the credential from before still logs in, and a new flow completes', async () => {
    const before = figures.pendingBefore as { credentialToken: string; credentialSecret: string };
    delete figures.pendingBefore;
    const first = await login(app, { oauth: before });
    expect(first.statusCode, first.body).toBe(200);
    const after = await login(app, { oauth: await validFlow() });
    expect(after.statusCode, after.body).toBe(200);
    expect(after.json().data.userId).toBe(first.json().data.userId);
  });
});
