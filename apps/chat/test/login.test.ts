import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from './support/accounts.js';
import { APPS } from './support/fake-provider.js';
import { Harness, login, loginBody, me, SITE_URL } from './support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await Harness.open();
});
afterEach(() => h.reset());
afterAll(() => h.close());

describe('POST /api/v1/login: first and later logins', () => {
  it('creates a Twitter user on the first login, verified by a signed request', async () => {
    const app = await h.app();
    const credentials = accounts.twitter(h.fake);
    const response = await login(app, { ...loginBody('twitter', ''), ...credentials });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.status).toBe('success');
    expect(body.data.authToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.data.userId).toMatch(/^[A-Za-z0-9]{17}$/);
    expect(body.data.me).toEqual({
      _id: body.data.userId,
      name: 'Ada Lovelace',
      emails: [{ address: 'ada@example.com', verified: true }],
      email: 'ada@example.com',
      status: 'online',
      statusConnection: 'online',
      username: 'ada_lovelace',
      utcOffset: -5,
      active: true,
      roles: ['user'],
      settings: { profile: {}, preferences: {}, calendar: {} },
      avatarUrl: `${SITE_URL}/avatar/ada_lovelace`,
      isOAuthUser: true,
      createdAt: expect.any(String),
      _updatedAt: expect.any(String),
    });
    expect(h.fake.calls).toEqual(['/twitter/1.1/account/verify_credentials.json']);
  });

  it('returns the same user on the second login, with name, e-mail and avatar refreshed', async () => {
    const app = await h.app();
    const credentials = accounts.twitter(h.fake);
    const first = (await login(app, { ...loginBody('twitter', ''), ...credentials })).json();
    const account = h.fake.twitter.get(credentials.accessToken);
    if (!account) throw new Error('fixture');
    account.user = {
      ...account.user,
      name: 'Augusta Ada King',
      screen_name: 'countess',
      email: 'countess@example.com',
      profile_image_url_https: 'https://pbs.example.com/new.jpg',
    };
    const second = await login(app, { ...loginBody('twitter', ''), ...credentials });
    expect(second.statusCode).toBe(200);
    const { data } = second.json();
    expect(data.userId).toBe(first.data.userId);
    expect(data.authToken).not.toBe(first.data.authToken);
    expect(data.me.username).toBe('ada_lovelace');
    expect(data.me.name).toBe('Augusta Ada King');
    expect(data.me.emails).toEqual([{ address: 'countess@example.com', verified: true }]);
    const user = await h.store.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', data.userId)
      .executeTakeFirstOrThrow();
    expect(user.avatar_url).toBe('https://pbs.example.com/new.jpg');
    // Both tokens work.
    expect((await me(app, data.userId, first.data.authToken)).statusCode).toBe(200);
    expect((await me(app, data.userId, data.authToken)).statusCode).toBe(200);
  });

  it('writes nothing to the user on a returning login whose profile the provider reports unchanged', async () => {
    const app = await h.app();
    const credentials = accounts.twitter(h.fake);
    const first = (await login(app, { ...loginBody('twitter', ''), ...credentials })).json();
    const stored = () =>
      h.store.db
        .selectFrom('users')
        .select(['updated_at', sql<string>`xmin::text`.as('row_version')])
        .where('id', '=', first.data.userId)
        .executeTakeFirstOrThrow();
    const before = await stored();
    const second = await login(app, { ...loginBody('twitter', ''), ...credentials });
    expect(second.statusCode).toBe(200);
    expect(second.json().data.me).toEqual(first.data.me);
    // The same row version: not rewritten, so no commit to flush and no change announced.
    expect(await stored()).toEqual(before);
  });

  it('signs in with Facebook (appsecret_proof), GitHub, an OIDC provider with introspection and Google-style tokeninfo', async () => {
    const app = await h.app();
    const cases = [
      {
        service: 'facebook',
        credentials: accounts.facebook(h.fake),
        expected: {
          name: 'Grace Hopper',
          username: 'grace',
          emails: [{ address: 'grace@example.com', verified: true }],
        },
      },
      {
        service: 'github',
        credentials: accounts.github(h.fake),
        expected: {
          name: 'The Octocat',
          username: 'octocat',
          emails: [{ address: 'octo@example.com', verified: true }],
        },
      },
      {
        service: 'keycloak',
        credentials: accounts.keycloak(h.fake),
        expected: {
          name: 'Linus Torvalds',
          username: 'linus',
          emails: [{ address: 'linus@example.org', verified: true }],
        },
      },
      {
        service: 'google',
        credentials: accounts.google(h.fake),
        expected: {
          name: 'Margaret Hamilton',
          username: 'margaret.hamilton',
          emails: [{ address: 'margaret.hamilton@gmail.example', verified: true }],
        },
      },
    ];
    for (const { service, credentials, expected } of cases) {
      const response = await login(app, { ...loginBody(service, ''), ...credentials });
      expect(response.statusCode, service).toBe(200);
      expect(response.json().data.me, service).toMatchObject({ ...expected, utcOffset: 0 });
    }
    const rows = await h.store.db
      .selectFrom('users')
      .select(['service', 'provider_user_id'])
      .orderBy('service')
      .execute();
    expect(rows).toEqual([
      { service: 'facebook', provider_user_id: '10158000111' },
      { service: 'github', provider_user_id: '583231' },
      { service: 'google', provider_user_id: '110248495921238986420' },
      { service: 'keycloak', provider_user_id: 'f3b1c2d4-0000-4000-8000-000000000001' },
    ]);
  });

  it('never merges accounts by e-mail: the same address on two providers makes two users', async () => {
    const app = await h.app();
    const tw = accounts.twitter(h.fake);
    const gh = accounts.github(h.fake);
    const ghAccount = h.fake.github.get(gh.accessToken);
    if (!ghAccount?.emails?.[1]) throw new Error('fixture');
    ghAccount.emails[1].email = 'ada@example.com';
    const a = (await login(app, { ...loginBody('twitter', ''), ...tw })).json();
    const b = (await login(app, { ...loginBody('github', ''), ...gh })).json();
    expect(a.data.userId).not.toBe(b.data.userId);
    expect(b.data.me.emails).toEqual([{ address: 'ada@example.com', verified: true }]);
  });

  it('gives a clashing handle a suffix and keeps usernames unique', async () => {
    const app = await h.app();
    const first = accounts.twitter(h.fake, '1', 'Octocat');
    const second = accounts.github(h.fake, 2, 'octocat');
    const third = accounts.twitter(h.fake, '3', 'OCTOCAT');
    const names = [];
    for (const [service, credentials] of [
      ['twitter', first],
      ['github', second],
      ['twitter', third],
    ] as const) {
      const response = await login(app, { ...loginBody(service, ''), ...credentials });
      expect(response.statusCode).toBe(200);
      names.push(response.json().data.me.username);
    }
    expect(names).toEqual(['octocat', 'octocat2', 'octocat3']);
  });

  it('answers 403 account-deactivated for a deactivated user, and refuses its tokens', async () => {
    const app = await h.app();
    const credentials = accounts.github(h.fake);
    const { data } = (await login(app, { ...loginBody('github', ''), ...credentials })).json();
    await h.store.db
      .updateTable('users')
      .set({ active: false })
      .where('id', '=', data.userId)
      .execute();
    const again = await login(app, { ...loginBody('github', ''), ...credentials });
    expect(again.statusCode).toBe(403);
    expect(again.json()).toEqual({
      status: 'error',
      error: 'account-deactivated',
      message: 'This account has been deactivated',
    });
    expect((await me(app, data.userId, data.authToken)).statusCode).toBe(403);
  });
});

describe('POST /api/v1/login: refused credentials', () => {
  it('refuses a wrong OAuth 1.0a signature (wrong token secret) with 401', async () => {
    const app = await h.app();
    const credentials = accounts.twitter(h.fake);
    const response = await login(app, {
      ...loginBody('twitter', credentials.accessToken),
      accessTokenSecret: 'not-the-secret',
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      status: 'error',
      error: 'invalid-credentials',
      message: 'The identity provider "twitter" refused the credentials',
    });
    expect(h.fake.calls).toHaveLength(1);
    expect(await h.store.db.selectFrom('users').selectAll().execute()).toEqual([]);
  });

  it('refuses a wrong appId or appSecret before calling the provider', async () => {
    const app = await h.app();
    const credentials = accounts.twitter(h.fake);
    for (const wrong of [
      { appSecret: `${APPS.twitter.appSecret}x` },
      { appSecret: 'short' },
      { appId: APPS.facebook.appId },
    ]) {
      const response = await login(app, { ...loginBody('twitter', ''), ...credentials, ...wrong });
      expect(response.statusCode).toBe(401);
      expect(response.json().error).toBe('invalid-credentials');
      expect(response.json().message).toMatch(/application credentials do not match/);
    }
    expect(h.fake.calls).toEqual([]);
  });

  it('refuses tokens issued to another application, for every provider', async () => {
    const app = await h.app();
    const tw = accounts.twitter(h.fake);
    const twAccount = h.fake.twitter.get(tw.accessToken);
    if (twAccount) twAccount.consumerKey = 'another-app';
    const fb = accounts.facebook(h.fake);
    const fbAccount = h.fake.facebook.get(fb.accessToken);
    if (fbAccount) fbAccount.appSecret = 'another-app-secret';
    const gh = accounts.github(h.fake);
    const ghAccount = h.fake.github.get(gh.accessToken);
    if (ghAccount) ghAccount.clientId = 'another-client';
    const kc = accounts.keycloak(h.fake);
    const kcAccount = h.fake.oidc.get(kc.accessToken);
    if (kcAccount) kcAccount.clientId = 'another-client';
    const gg = accounts.google(h.fake);
    const ggAccount = h.fake.google.get(gg.accessToken);
    if (ggAccount) ggAccount.clientId = 'another-client.apps.example';

    for (const [service, credentials] of [
      ['twitter', tw],
      ['facebook', fb],
      ['github', gh],
      ['keycloak', kc],
      ['google', gg],
    ] as const) {
      const response = await login(app, { ...loginBody(service, ''), ...credentials });
      expect(response.statusCode, service).toBe(401);
      expect(response.json().error, service).toBe('invalid-credentials');
    }
    expect(await h.store.db.selectFrom('users').selectAll().execute()).toEqual([]);
  });

  it('refuses unknown and revoked tokens on every provider with 401', async () => {
    const app = await h.app();
    const kc = accounts.keycloak(h.fake);
    const kcAccount = h.fake.oidc.get(kc.accessToken);
    if (kcAccount) kcAccount.active = false;
    for (const service of ['twitter', 'facebook', 'github', 'keycloak', 'google']) {
      const token = service === 'keycloak' ? kc.accessToken : 'nobody-has-this-token';
      const response = await login(app, loginBody(service, token, { accessTokenSecret: 's' }));
      expect(response.statusCode, service).toBe(401);
      expect(response.json().error, service).toBe('invalid-credentials');
    }
  });
});

describe('POST /api/v1/login: request validation', () => {
  const valid = () => loginBody('twitter', 'token', { accessTokenSecret: 'secret' });

  it.each(['serviceName', 'accessToken', 'accessTokenSecret', 'appSecret', 'appId', 'expiresIn'])(
    'answers 400 naming %s when it is missing',
    async (field) => {
      const app = await h.app();
      const body: Record<string, unknown> = { ...valid() };
      delete body[field];
      const response = await login(app, body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        status: 'error',
        error: 'invalid-request',
        message: `${field}: required`,
      });
    },
  );

  it.each([
    ['expiresIn', '200'],
    ['expiresIn', 1.5],
    ['expiresIn', 0],
    ['expiresIn', -5],
    ['expiresIn', null],
    ['serviceName', 42],
    ['accessToken', ['a']],
    ['appId', { id: 1 }],
    ['appSecret', true],
  ])('answers 400 naming %s when it is %j', async (field, value) => {
    const app = await h.app();
    const response = await login(app, { ...valid(), [field]: value });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('invalid-request');
    expect(response.json().message).toMatch(new RegExp(`^${field}: `));
  });

  it('answers 400 for malformed JSON, a non-object body and an empty body', async () => {
    const app = await h.app();
    for (const payload of ['{"serviceName": "twitter",', '[1,2]', '"text"', '']) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/login',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(response.statusCode, payload).toBe(400);
      expect(response.json().status).toBe('error');
      expect(response.json().error).toBe('invalid-request');
    }
  });

  it('answers 415 for a body that is not JSON and 413 for an oversized one', async () => {
    const app = await h.app();
    const form = await app.inject({
      method: 'POST',
      url: '/api/v1/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'serviceName=twitter',
    });
    expect(form.statusCode).toBe(415);
    expect(form.json().error).toBe('unsupported-media-type');
    const huge = await login(app, { ...valid(), accessToken: 'x'.repeat(100_000) });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error).toBe('payload-too-large');
  });

  it('answers 401 unknown-service for a service that is not configured', async () => {
    const app = await h.app();
    for (const serviceName of ['myspace', '__proto__', 'constructor']) {
      const response = await login(app, { ...valid(), serviceName });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        status: 'error',
        error: 'unknown-service',
        message: `Service "${serviceName}" is not configured`,
      });
    }
    expect(h.fake.calls).toEqual([]);
  });

  it('answers 404 not-found in the same shape for unknown routes', async () => {
    const app = await h.app();
    const response = await app.inject({ method: 'GET', url: '/api/v1/nothing?x=1' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      status: 'error',
      error: 'not-found',
      message: 'No route GET /api/v1/nothing',
    });
  });
});

describe('credentials that cannot be credentials (found by fuzzing)', () => {
  it('non-ASCII, blank or control characters in a token or secret give 400, never 500 or 502', async () => {
    const app = await h.app();
    for (const service of ['twitter', 'facebook', 'github', 'keycloak', 'google']) {
      for (const [field, value] of [
        ['accessToken', 'tok\u00e9n'],
        ['accessToken', 'tok\u2603'],
        ['accessToken', 'a b'],
        ['accessToken', '\ud800x'],
        ['accessTokenSecret', '\u2603\ud800'],
        ['appSecret', 'secret\t'],
      ] as const) {
        const response = await login(app, loginBody(service, 'token', { [field]: value }));
        expect(response.statusCode, `${service} ${field}`).toBe(400);
        expect(response.json()).toMatchObject({ status: 'error', error: 'invalid-request' });
        expect(response.json().message).toMatch(new RegExp(`^${field}: `));
      }
    }
  });
});
