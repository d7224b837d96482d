import { RestClient } from '@rocket.chat/api-client';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from './support/accounts.js';
import { Harness, listen, login, loginBody, me } from './support/harness.js';
import { checkMeResponse } from './support/rocketchat-schemas.js';

/**
 * Rocket.Chat client compatibility: the service driven by Rocket.Chat's own client
 * package (`@rocket.chat/api-client`, over real sockets) and by the REST calls of
 * `@rocket.chat/sdk` (which cannot be installed here), and every answer checked against the shapes
 * `@rocket.chat/rest-typings` declares.
 */
let h: Harness;
beforeAll(async () => {
  h = await Harness.open();
});
afterEach(() => h.reset());
afterAll(() => h.close());

async function signedIn(app: FastifyInstance) {
  const response = await login(app, { ...loginBody('twitter', ''), ...accounts.twitter(h.fake) });
  expect(response.statusCode).toBe(200);
  const { data } = response.json();
  return { userId: data.userId as string, authToken: data.authToken as string };
}

async function client(app: FastifyInstance, session?: { userId: string; authToken: string }) {
  const base = await listen(app);
  const rest = new RestClient({ baseUrl: base });
  if (session) {
    rest.setCredentials({ 'X-User-Id': session.userId, 'X-Auth-Token': session.authToken });
  }
  return rest;
}

describe('@rocket.chat/api-client', () => {
  it("logs out with post('/v1/logout') (JSON content type, empty body) and the token dies", async () => {
    const app = await h.app();
    const session = await signedIn(app);
    const rest = await client(app, session);
    const answer = await rest.post('/v1/logout');
    expect(answer).toEqual({ status: 'success', data: { message: "You've been logged out!" } });
    expect((await me(app, session.userId, session.authToken)).statusCode).toBe(401);
  });

  it("reads get('/v1/me') in Rocket.Chat's shape: the user's fields at the top level", async () => {
    const app = await h.app();
    const session = await signedIn(app);
    const rest = await client(app, session);
    const answer = await rest.get('/v1/me');
    expect(answer.success).toBe(true);
    expect(answer._id).toBe(session.userId);
    expect(answer.username).toBe('ada_lovelace');
    expect(answer.name).toBe('Ada Lovelace');
    expect(answer.avatarUrl).toBe('https://chat.example.test/avatar/ada_lovelace');
    expect(answer.email).toBe('ada@example.com');
    expect(answer.isOAuthUser).toBe(true);
    expect(checkMeResponse(answer)).toEqual([]);
  });

  it('reads the public calls a client makes before login: /info and /v1/settings.oauth', async () => {
    const app = await h.app();
    const rest = await client(app);
    const info = (await rest.get('/info' as never)) as Record<string, unknown>;
    expect(info).toEqual({ version: expect.stringMatching(/^\d+\.\d+$/), success: true });
    const oauth = await rest.get('/v1/settings.oauth');
    expect((oauth as typeof oauth & { success?: boolean }).success).toBe(true);
    expect(oauth.services.map((service) => service.service)).toEqual([
      'twitter',
      'facebook',
      'github',
      'keycloak',
      'google',
    ]);
  });
});

describe("@rocket.chat/sdk's REST calls", () => {
  it('GET /api/v1/logout ends the session (the SDK logs out with GET)', async () => {
    const app = await h.app();
    const session = await signedIn(app);
    const response = await app.inject({
      method: 'GET',
      url: '/api/v1/logout',
      headers: { 'x-user-id': session.userId, 'x-auth-token': session.authToken },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'success',
      data: { message: "You've been logged out!" },
    });
    expect((await me(app, session.userId, session.authToken)).statusCode).toBe(401);
  });
});

describe('bodies', () => {
  it('accepts an empty body with a JSON content type on every route that takes no body', async () => {
    const app = await h.app();
    const session = await signedIn(app);
    const headers = {
      'x-user-id': session.userId,
      'x-auth-token': session.authToken,
      'content-type': 'application/json',
    };
    for (const [method, url] of [
      ['GET', '/api/v1/me'],
      ['GET', '/api/info'],
      ['GET', '/api/v1/settings.oauth'],
      ['POST', '/api/v1/logout'],
    ] as const) {
      const response = await app.inject({ method, url, headers });
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(200);
    }
  });

  it('still refuses an empty login body, in the error shape', async () => {
    const app = await h.app();
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/login',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      status: 'error',
      error: 'invalid-request',
      message: 'The body is empty',
    });
  });
});

describe('GET /api/v1/me', () => {
  it("answers the fields of Rocket.Chat's MeApiSuccessResponse, and nothing else", async () => {
    const app = await h.app();
    const session = await signedIn(app);
    const response = await me(app, session.userId, session.authToken);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(checkMeResponse(body)).toEqual([]);
    expect(body).toEqual({
      _id: session.userId,
      name: 'Ada Lovelace',
      username: 'ada_lovelace',
      emails: [{ address: 'ada@example.com', verified: true }],
      email: 'ada@example.com',
      status: 'online',
      statusConnection: 'online',
      utcOffset: -5,
      active: true,
      roles: ['user'],
      settings: { profile: {}, preferences: {}, calendar: {} },
      avatarUrl: 'https://chat.example.test/avatar/ada_lovelace',
      isOAuthUser: true,
      createdAt: expect.any(String),
      _updatedAt: expect.any(String),
      success: true,
    });
  });

  it('the runtime check catches the old shape (the check can fail)', () => {
    expect(checkMeResponse({ status: 'success', data: { _id: 'x' } })).not.toEqual([]);
  });
});

describe('GET /api/info and GET /api/v1/settings.oauth', () => {
  it('are public and name no secret', async () => {
    const app = await h.app();
    const info = await app.inject({ method: 'GET', url: '/api/info' });
    expect(info.statusCode).toBe(200);
    const oauth = await app.inject({ method: 'GET', url: '/api/v1/settings.oauth' });
    expect(oauth.statusCode).toBe(200);
    const body = oauth.json();
    expect(body.success).toBe(true);
    expect(body.services).toContainEqual({
      _id: 'twitter',
      name: 'twitter',
      service: 'twitter',
      type: 'twitter',
      clientId: 'tw-consumer-key',
      custom: false,
      buttonLabelText: '',
      buttonLabelColor: '',
      buttonColor: '',
    });
    expect(body.services).toContainEqual(
      expect.objectContaining({
        service: 'keycloak',
        type: 'oidc',
        custom: true,
        serverURL: 'https://chat.example.test',
        authorizePath: '/_oauth/keycloak/authorize',
        redirectUri: 'https://chat.example.test/_oauth/keycloak',
        scope: 'openid profile email',
        loginStyle: 'popup',
      }),
    );
    for (const secret of [
      'tw-consumer-secret',
      'fb-app-secret',
      'gh-client-secret',
      'oidc-client-secret',
      'google-client-secret',
    ]) {
      expect(oauth.body).not.toContain(secret);
      expect(info.body).not.toContain(secret);
    }
  });

  it("a custom service's flow starts where Rocket.Chat's mobile app builds it: serverURL + authorizePath + its parameters", async () => {
    const app = await h.app();
    const entry = (await app.inject({ url: '/api/v1/settings.oauth' }))
      .json()
      .services.find((service: { service: string }) => service.service === 'keycloak');
    // The app's onPressCustomOAuth, as written (server: the URL the person typed).
    const server = 'https://chat.example.test';
    const { serverURL, authorizePath, clientId, scope, service } = entry;
    const state = Buffer.from(
      JSON.stringify({ loginStyle: 'popup', credentialToken: 'a'.repeat(43), isCordova: true }),
    ).toString('base64url');
    const separator = authorizePath.indexOf('?') !== -1 ? '&' : '?';
    const params = `${separator}client_id=${clientId}&redirect_uri=${encodeURIComponent(`${server}/_oauth/${service}`)}&response_type=code&state=${state}&scope=${encodeURIComponent(scope)}`;
    const absolutePath = `${authorizePath}${params}`;
    const url = new URL(absolutePath.includes(serverURL) ? absolutePath : serverURL + absolutePath);
    expect(url.origin).toBe(server);
    const start = await app.inject({ url: `${url.pathname}${url.search}` });
    expect(start.statusCode, start.body).toBe(302);
    expect(start.headers.location).toMatch(new RegExp(`^${h.fake.url}/oidc/authorize\\?`));
  });

  it('settings.oauth answers an empty list without services', async () => {
    const app = await h.app({ services: [] });
    const oauth = await app.inject({ method: 'GET', url: '/api/v1/settings.oauth' });
    expect(oauth.json()).toEqual({ services: [], success: true });
  });
});

describe('CORS (CORS_ORIGINS)', () => {
  const origin = 'https://web.example.test';

  it('answers the preflight of an allowed origin, with the credentials headers allowed', async () => {
    const app = await h.app({ corsOrigins: [origin] });
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/api/v1/login',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, x-user-id, x-auth-token, x-2fa-code',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(origin);
    const allowed = String(preflight.headers['access-control-allow-headers']).toLowerCase();
    for (const name of [
      'content-type',
      'x-user-id',
      'x-auth-token',
      'x-2fa-code',
      'x-2fa-method',
    ]) {
      expect(allowed.split(/,\s*/)).toContain(name);
    }
    expect(String(preflight.headers['access-control-allow-methods'])).toContain('POST');
    // The real request carries the header too, errors included.
    const refused = await app.inject({
      method: 'POST',
      url: '/api/v1/login',
      headers: { origin },
      payload: { serviceName: 'twitter' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.headers['access-control-allow-origin']).toBe(origin);
  });

  it('gives another origin no CORS header, and none by default', async () => {
    for (const corsOrigins of [[origin], []]) {
      const app = await h.app({ corsOrigins });
      const preflight = await app.inject({
        method: 'OPTIONS',
        url: '/api/v1/login',
        headers: { origin: 'https://evil.example.test', 'access-control-request-method': 'POST' },
      });
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
      const simple = await app.inject({
        method: 'GET',
        url: '/api/info',
        headers: { origin: 'https://evil.example.test' },
      });
      expect(simple.statusCode).toBe(200);
      expect(simple.headers['access-control-allow-origin']).toBeUndefined();
    }
  });
});

describe('login failure statuses (Rocket.Chat answers 401 to a refused login)', () => {
  it('an unknown service is a refused login: 401 unknown-service', async () => {
    const app = await h.app();
    const response = await login(app, loginBody('nope', 'token'));
    expect(response.statusCode).toBe(401);
    expect(response.json().error).toBe('unknown-service');
  });

  it('a form body is 415 with a message saying what to send', async () => {
    const app = await h.app();
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'serviceName=twitter',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({
      status: 'error',
      error: 'unsupported-media-type',
      message: 'Send the body as application/json',
    });
  });

  it('a text/plain body is 415 too, even when it holds JSON', async () => {
    const app = await h.app();
    for (const payload of ['serviceName=twitter', JSON.stringify(loginBody('twitter', 'x'))]) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/login',
        headers: { 'content-type': 'text/plain; charset=utf-8' },
        payload,
      });
      expect(response.statusCode, payload).toBe(415);
      expect(response.json()).toEqual({
        status: 'error',
        error: 'unsupported-media-type',
        message: 'Send the body as application/json',
      });
    }
  });
});
