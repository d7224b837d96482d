import { type JWTPayload, SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { APPS } from './support/fake-provider.js';
import { Harness, login, loginBody } from './support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await Harness.open();
});
afterEach(() => h.reset());
afterAll(() => h.close());

const oidcLogin = (idToken: string) => {
  const { accessToken: _unused, ...body } = loginBody('keycloak', 'x');
  return { ...body, idToken };
};
const now = () => Math.floor(Date.now() / 1000);
let counter = 0;

/** A token signed by the fake's published key, with any header `typ` and any claims. */
async function sign(claims: JWTPayload, typ = 'JWT'): Promise<string> {
  const key = h.fake.signingKeys[0];
  if (!key) throw new Error('no key');
  return new SignJWT({
    iss: h.fake.issuer('oidc'),
    sub: `user-${++counter}`,
    aud: APPS.oidc.appId,
    iat: now(),
    exp: now() + 600,
    ...claims,
  })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ })
    .sign(key.privateKey);
}

async function expectRefused(token: string, message: RegExp) {
  const response = await login(await h.app(), oidcLogin(token));
  expect(response.statusCode, response.body).toBe(401);
  expect(response.json().error).toBe('invalid-credentials');
  expect(response.json().message).toMatch(message);
}

describe('an ID token names this application as its audience (OpenID Connect Core 3.1.3.7)', () => {
  it('refuses a Keycloak-style access token: typ Bearer, aud of other services, azp ours', async () => {
    await expectRefused(
      await sign({ typ: 'Bearer', aud: ['api-x', 'account'], azp: APPS.oidc.appId }),
      /aud|access token/,
    );
  });

  it('refuses aud without our client id even when azp names it, and aud missing or []', async () => {
    await expectRefused(await sign({ aud: ['api-x'], azp: APPS.oidc.appId }), /"aud"/);
    await expectRefused(await sign({ aud: [], azp: APPS.oidc.appId }), /"aud"/);
    await expectRefused(await sign({ aud: undefined, azp: APPS.oidc.appId }), /"aud"/);
  });

  it('refuses an azp naming another client, and several audiences without azp', async () => {
    await expectRefused(await sign({ azp: 'another-client' }), /"azp"/);
    await expectRefused(await sign({ aud: [APPS.oidc.appId, 'api-x'] }), /"azp"/);
  });

  it('refuses tokens typed as access tokens (header at+jwt, application/at+jwt)', async () => {
    await expectRefused(await sign({}, 'at+jwt'), /access token/);
    await expectRefused(await sign({}, 'application/at+jwt'), /access token/);
  });

  it('accepts aud with our client id and azp ours, or aud alone', async () => {
    const app = await h.app();
    const both = await login(
      app,
      oidcLogin(await sign({ aud: [APPS.oidc.appId, 'api-x'], azp: APPS.oidc.appId })),
    );
    expect(both.statusCode, both.body).toBe(200);
    expect((await login(app, oidcLogin(await sign({})))).statusCode).toBe(200);
  });
});

describe('an ID token is fresh and used once', () => {
  it('refuses a token issued long ago (iat a year old, exp ten years ahead)', async () => {
    await expectRefused(
      await sign({ iat: now() - 365 * 86400, exp: now() + 10 * 365 * 86400 }),
      /too old|"iat"/,
    );
  });

  it('honours ID_TOKEN_MAX_AGE: a token of 3 minutes is refused under a 60-second bound (plus the clock tolerance)', async () => {
    const strict = await h.app({ idTokenMaxAgeSeconds: 60 });
    const response = await login(strict, oidcLogin(await sign({ iat: now() - 180 })));
    expect(response.statusCode).toBe(401);
    const lenient = await h.app();
    expect((await login(lenient, oidcLogin(await sign({ iat: now() - 180 })))).statusCode).toBe(
      200,
    );
  });

  it('a token signs in once, on any instance; a second token with the same jti is refused', async () => {
    const [first, second] = [await h.app(), await h.app()];
    const token = await sign({});
    expect((await login(first, oidcLogin(token))).statusCode).toBe(200);
    const replayed = await login(second, oidcLogin(token));
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json().message).toMatch(/already been used/);

    const withJti = await sign({ jti: 'one-time-id', sub: 'jti-user' });
    const sameJti = await sign({ jti: 'one-time-id', sub: 'jti-user', iat: now() - 1 });
    expect(withJti).not.toBe(sameJti);
    expect((await login(first, oidcLogin(withJti))).statusCode).toBe(200);
    expect((await login(second, oidcLogin(sameJti))).statusCode).toBe(401);
  });

  it('a token whose signature differs only in its unused last bits is the same token: refused as used', async () => {
    const app = await h.app();
    const token = await sign({});
    // 256 signature bytes are 342 base64url characters; the last carries 2 bits and 4 unused ones,
    // which decoders ignore: each of these variants verifies as the same signature.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(token.at(-1) ?? '');
    const variants = [1, 2, 3].map(
      (step) => token.slice(0, -1) + alphabet[(last & 0b110000) | ((last + step) & 0b001111)],
    );
    expect((await login(app, oidcLogin(token))).statusCode).toBe(200);
    for (const variant of variants) {
      expect(variant).not.toBe(token);
      const replayed = await login(app, oidcLogin(variant));
      expect(replayed.statusCode, replayed.body).toBe(401);
      expect(replayed.json().message).toMatch(/already been used/);
    }
  });

  it('of concurrent logins with one token, exactly one succeeds', async () => {
    const [first, second] = [await h.app(), await h.app()];
    const token = await sign({});
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => login(i % 2 ? first : second, oidcLogin(token))),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
  });
});
