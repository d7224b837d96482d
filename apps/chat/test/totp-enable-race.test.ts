import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { type KyselyPlugin, type QueryId, SelectQueryNode } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { buildApp } from '../src/app.js';
import { encodeOAuthState } from '../src/auth/oauth-state.js';
import { totpFor } from '../src/auth/totp.js';
import { accounts } from './support/accounts.js';
import { Harness, login, loginBody, me, SITE_URL, testConfig } from './support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await Harness.open();
});
afterEach(() => h.reset());
afterAll(() => h.close());

const KEY = randomBytes(32);
const ROUNDS = 5;
const RACING_LOGINS = 40;

/**
 * Enabling TOTP ends every other session of the user. A login without a code that passed the
 * "TOTP off" check while the confirmation was committing must not leave a session behind: on
 * PostgreSQL (a pool of connections) the logins and the confirmation really run at once.
 */
describe('enabling TOTP while logins without a code are in flight', () => {
  it(`no session opened without a code outlives the confirmation (${ROUNDS} rounds of ${RACING_LOGINS} logins)`, async () => {
    const app = await h.app({ twoFactorKey: KEY });
    const survivors: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const credentials = accounts.github(h.fake, 900_000 + round, `racer${round}`);
      const body = { ...loginBody('github', ''), ...credentials };
      const first = await login(app, body);
      expect(first.statusCode).toBe(200);
      const { userId, authToken } = first.json().data;
      const auth = { 'x-user-id': userId, 'x-auth-token': authToken };
      const setup = await app.inject({
        method: 'POST',
        url: '/api/v1/users.2fa.enableTOTP',
        headers: auth,
      });
      expect(setup.statusCode).toBe(200);
      const code = totpFor(setup.json().secret, 'x').generate({ timestamp: h.clock });

      const logins = Array.from({ length: RACING_LOGINS }, () => login(app, body));
      const confirm = app.inject({
        method: 'POST',
        url: '/api/v1/users.2fa.confirmTOTP',
        headers: auth,
        payload: { code },
      });
      const [confirmed, ...answers] = await Promise.all([confirm, ...logins]);
      expect(confirmed.statusCode).toBe(200);
      for (const answer of answers) expect([200, 401]).toContain(answer.statusCode);

      let alive = 0;
      for (const answer of answers.filter((a) => a.statusCode === 200)) {
        const token = answer.json().data.authToken as string;
        if ((await me(app, userId, token)).statusCode === 200) alive++;
      }
      survivors.push(alive);
      // And a fresh login now needs the code.
      expect((await login(app, body)).json().error).toBe('totp-required');
      h.advance(60);
    }
    expect(survivors).toEqual(Array(ROUNDS).fill(0));
  });
});

/**
 * The service with a hook into its reads: once armed, the login's first look at the user's TOTP
 * row sees it as it was just before a confirmation committed (off), while the database already
 * holds the confirmation. The next read (the fence after the session) sees it on: exactly the
 * interleaving of a confirmation committing between the two, without timing.
 */
async function appSeeingTotpOffOnce(): Promise<{ app: FastifyInstance; arm: () => void }> {
  let armed = false;
  const firstChecks = new Set<QueryId>();
  const confirmationJustAfterFirstCheck: KyselyPlugin = {
    transformQuery: ({ node, queryId }) => {
      if (
        armed &&
        SelectQueryNode.is(node) &&
        JSON.stringify(node).includes('"secret_ciphertext"')
      ) {
        firstChecks.add(queryId);
      }
      return node;
    },
    transformResult: async ({ result, queryId }) => {
      if (!armed || !firstChecks.has(queryId)) return result;
      armed = false;
      return { ...result, rows: result.rows.map((row) => ({ ...row, enabled: false })) };
    },
  };
  const app = await buildApp(testConfig(h.fake.url, { twoFactorKey: KEY }), {
    store: { ...h.store, db: h.store.db.withPlugin(confirmationJustAfterFirstCheck) },
    now: () => new Date(h.clock),
  });
  onTestFinished(() => app.close());
  return {
    app,
    arm: () => {
      armed = true;
    },
  };
}

/** Enables and confirms TOTP for the session's user; returns a generator of codes. */
async function confirmTotp(app: FastifyInstance, session: { userId: string; authToken: string }) {
  const headers = { 'x-user-id': session.userId, 'x-auth-token': session.authToken };
  const setup = await app.inject({ method: 'POST', url: '/api/v1/users.2fa.enableTOTP', headers });
  const secret = setup.json().secret as string;
  const code = () => totpFor(secret, 'x').generate({ timestamp: h.clock });
  const confirmed = await app.inject({
    method: 'POST',
    url: '/api/v1/users.2fa.confirmTOTP',
    headers,
    payload: { code: code() },
  });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  h.advance(30);
  return code;
}

describe('a login that meets a TOTP confirmation between its check and its session', () => {
  it('answers totp-required and leaves the redirect flow’s pair usable for the retry with a code', async () => {
    const { app, arm } = await appSeeingTotpOffOnce();
    const github = { ...loginBody('github', ''), ...accounts.github(h.fake) };
    const code = await confirmTotp(app, (await login(app, github)).json().data);
    h.fake.signedIn.set('github', github.accessToken);
    h.fake.registeredRedirectUris.set('github', `${SITE_URL}/_oauth/github`);
    const credentialToken = randomBytes(32).toString('base64url');
    const start = await app.inject({
      url: `/_oauth/github/authorize?state=${encodeURIComponent(encodeOAuthState({ credentialToken }))}`,
    });
    const back = new URL(
      (await fetch(start.headers.location as string, { redirect: 'manual' })).headers.get(
        'location',
      ) ?? '',
    );
    const cookie = String(start.headers['set-cookie']).split(';')[0];
    const result = await app.inject({ url: `${back.pathname}${back.search}`, headers: { cookie } });
    const credentialSecret = /credentialSecret&quot;:&quot;([\w-]+)/.exec(result.body)?.[1];
    const oauth = { credentialToken, credentialSecret };

    arm();
    const raced = await login(app, { oauth });
    expect(raced.statusCode, raced.body).toBe(401);
    expect(raced.json().error).toBe('totp-required');
    const retried = await app.inject({
      method: 'POST',
      url: '/api/v1/login',
      payload: { oauth },
      headers: { 'x-2fa-code': code() },
    });
    expect(retried.statusCode, retried.body).toBe(200);
  });

  it('answers totp-required and leaves the ID token unclaimed for the retry with a code', async () => {
    const { app, arm } = await appSeeingTotpOffOnce();
    const { accessToken: _none, ...body } = loginBody('keycloak', 'x');
    const sub = 'totp-race-subject';
    const first = await login(app, { ...body, idToken: await h.fake.signIdToken('oidc', { sub }) });
    expect(first.statusCode, first.body).toBe(200);
    const code = await confirmTotp(app, first.json().data);

    const idToken = await h.fake.signIdToken('oidc', { sub, jti: 'raced-token' });
    arm();
    const raced = await login(app, { ...body, idToken });
    expect(raced.statusCode, raced.body).toBe(401);
    expect(raced.json().error).toBe('totp-required');
    const retried = await app.inject({
      method: 'POST',
      url: '/api/v1/login',
      payload: { ...body, idToken },
      headers: { 'x-2fa-code': code() },
    });
    expect(retried.statusCode, retried.body).toBe(200);
  });
});
