import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAXIMA } from '../src/config.js';
import { MAX_LIVE_TOKENS } from '../src/db/sessions.js';
import { accounts } from './support/accounts.js';
import { Harness, login, loginBody, logout, me } from './support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await Harness.open();
});
afterEach(() => h.reset());
afterAll(() => h.close());

const LOGGED_OUT = {
  status: 'error',
  error: 'unauthorized',
  message: 'You must be logged in to do this.',
};

async function signIn(expiresIn = 3600) {
  const app = await h.app();
  const credentials = accounts.github(h.fake);
  const response = await login(app, { ...loginBody('github', '', { expiresIn }), ...credentials });
  expect(response.statusCode).toBe(200);
  const { data } = response.json();
  return { app, userId: data.userId as string, token: data.authToken as string, me: data.me };
}

describe('sessions', () => {
  it('GET /api/v1/me answers the same profile as the login', async () => {
    const session = await signIn();
    const response = await me(session.app, session.userId, session.token);
    expect(response.statusCode).toBe(200);
    // Rocket.Chat's shape: the login's `me` at the top level, with success: true.
    expect(response.json()).toEqual({ ...session.me, success: true });
  });

  it('refuses missing, wrong, swapped and foreign credentials with 401', async () => {
    const session = await signIn();
    const other = accounts.twitter(h.fake);
    const otherLogin = (await login(session.app, { ...loginBody('twitter', ''), ...other })).json()
      .data;
    const attempts = [
      session.app.inject({ method: 'GET', url: '/api/v1/me' }),
      session.app.inject({
        method: 'GET',
        url: '/api/v1/me',
        headers: { 'x-user-id': session.userId },
      }),
      // One character changed (a token ending in "A" got "B": 1 run in 64 tested the right token).
      me(
        session.app,
        session.userId,
        `${session.token.slice(0, -1)}${session.token.endsWith('A') ? 'B' : 'A'}`,
      ),
      me(session.app, otherLogin.userId, session.token),
      me(session.app, session.userId, otherLogin.authToken),
      me(session.app, session.token, session.userId),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(LOGGED_OUT);
    }
  });

  it('POST /api/v1/logout ends that token only, and it never works again', async () => {
    const session = await signIn();
    const second = (
      await login(session.app, { ...loginBody('github', ''), ...accounts.github(h.fake) })
    ).json().data;
    const response = await logout(session.app, session.userId, session.token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'success',
      data: { message: "You've been logged out!" },
    });
    expect((await me(session.app, session.userId, session.token)).json()).toEqual(LOGGED_OUT);
    expect((await logout(session.app, session.userId, session.token)).statusCode).toBe(401);
    expect((await me(session.app, second.userId, second.authToken)).statusCode).toBe(200);
  });

  it('an expired token is refused at once', async () => {
    const session = await signIn(60);
    h.advance(59);
    expect((await me(session.app, session.userId, session.token)).statusCode).toBe(200);
    h.advance(1);
    expect((await me(session.app, session.userId, session.token)).json()).toEqual(LOGGED_OUT);
  });

  it('a token lives min(expiresIn, LOGIN_EXPIRATION)', async () => {
    const app = await h.app({ loginExpirationSeconds: 120 });
    const credentials = accounts.github(h.fake);
    const { data } = (
      await login(app, { ...loginBody('github', '', { expiresIn: 10 ** 12 }), ...credentials })
    ).json();
    const row = await h.store.db
      .selectFrom('sessions')
      .select(['created_at', 'expires_at'])
      .executeTakeFirstOrThrow();
    expect(row.expires_at.getTime() - row.created_at.getTime()).toBe(120_000);
    h.advance(121);
    expect((await me(app, data.userId, data.authToken)).statusCode).toBe(401);
  });

  it('at the largest LOGIN_EXPIRATION a huge expiresIn still signs in, for 10 years', async () => {
    const app = await h.app({ loginExpirationSeconds: MAXIMA.LOGIN_EXPIRATION });
    const credentials = accounts.github(h.fake);
    const response = await login(app, {
      ...loginBody('github', '', { expiresIn: 99_999_999_999_999 }),
      ...credentials,
    });
    expect(response.statusCode, response.body).toBe(200);
    const row = await h.store.db
      .selectFrom('sessions')
      .select(['created_at', 'expires_at'])
      .executeTakeFirstOrThrow();
    expect(row.expires_at.getTime() - row.created_at.getTime()).toBe(
      MAXIMA.LOGIN_EXPIRATION * 1000,
    );
  });

  it('the database holds only SHA-256 hashes of tokens, never a token', async () => {
    const session = await signIn();
    const rows = await h.store.db.selectFrom('sessions').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).toBe(
      createHash('sha256').update(session.token).digest('base64url'),
    );
    const dump =
      JSON.stringify(await h.store.db.selectFrom('users').selectAll().execute()) +
      JSON.stringify(rows);
    expect(dump).not.toContain(session.token);
  });

  it(`keeps at most ${MAX_LIVE_TOKENS} live tokens per user, dropping the oldest`, async () => {
    const session = await signIn();
    const credentials = accounts.github(h.fake);
    const tokens = [session.token];
    for (let i = 0; i < MAX_LIVE_TOKENS + 2; i++) {
      const { data } = (
        await login(session.app, { ...loginBody('github', ''), ...credentials })
      ).json();
      tokens.push(data.authToken);
    }
    const count = await h.store.db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(MAX_LIVE_TOKENS);
    for (const dropped of tokens.slice(0, 3)) {
      expect((await me(session.app, session.userId, dropped)).statusCode).toBe(401);
    }
    for (const kept of [tokens[3], tokens.at(-1)]) {
      expect((await me(session.app, session.userId, kept ?? '')).statusCode).toBe(200);
    }
  });
});
