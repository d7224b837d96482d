import { base64url, type CryptoKey, SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceConfig } from '../src/config.js';
import { APPS, newSigningKey } from './support/fake-provider.js';
import { fakeServices, Harness, login, loginBody } from './support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await Harness.open();
});
afterEach(() => h.reset());
afterAll(() => h.close());

/** Every fake service, plus Sign in with Apple pointed at the fake. */
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
const app = () => h.app({ services: services() });

const appleLogin = (identityToken: string, extra: Record<string, unknown> = {}) => ({
  serviceName: 'apple',
  accessTokenSecret: '',
  ...APPS.apple,
  expiresIn: 3600,
  identityToken,
  ...extra,
});
const oidcLogin = (idToken: string, extra: Record<string, unknown> = {}) => {
  const { accessToken: _unused, ...body } = loginBody('keycloak', 'x');
  return { ...body, idToken, ...extra };
};

const jwksCalls = (prefix: string) => h.fake.calls.filter((path) => path === prefix).length;

function expectRefused(response: { statusCode: number; json(): unknown }, message: RegExp) {
  expect(response.statusCode).toBe(401);
  const body = response.json() as { error: string; message: string };
  expect(body.error).toBe('invalid-credentials');
  expect(body.message).toMatch(message);
}

const now = () => Math.floor(Date.now() / 1000);

describe('ID tokens', () => {
  it('signs in with Apple: identityToken verified against the JWKS; the string "true" counts', async () => {
    const service = await app();
    const token = await h.fake.signIdToken('apple', {
      sub: '001234.abcdef.0987',
      email: 'x7p2@privaterelay.appleid.com',
      email_verified: 'true',
    });
    const response = await login(service, appleLogin(token));
    expect(response.statusCode).toBe(200);
    const { me } = response.json().data;
    expect(me.emails).toEqual([{ address: 'x7p2@privaterelay.appleid.com', verified: true }]);
    expect(me.username).toBe('x7p2');
    // The same Apple account again: the same user.
    const again = await login(
      service,
      appleLogin(await h.fake.signIdToken('apple', { sub: '001234.abcdef.0987' })),
    );
    expect(again.json().data.userId).toBe(response.json().data.userId);
  });

  it('signs in to an OIDC service with an idToken only; the keys come from jwks_uri', async () => {
    const service = await app();
    const token = await h.fake.signIdToken('oidc', {
      sub: 'kc-sub-1',
      preferred_username: 'ada',
      name: 'Ada Lovelace',
      email: 'ada@example.org',
      email_verified: true,
    });
    const response = await login(service, oidcLogin(token));
    expect(response.statusCode).toBe(200);
    expect(response.json().data.me).toMatchObject({ username: 'ada', name: 'Ada Lovelace' });
    expect(jwksCalls('/oidc/jwks')).toBe(1);
    expect(h.fake.calls).not.toContain('/oidc/userinfo');
  });

  it('with an access token too, both are verified and must name the same user', async () => {
    const service = await app();
    const sub = 'f3b1c2d4-0000-4000-8000-000000000009';
    h.fake.oidc.set('kc-both', {
      token: 'kc-both',
      userinfo: { sub, preferred_username: 'linus' },
    });
    const same = await h.fake.signIdToken('oidc', { sub });
    const ok = await login(service, { ...oidcLogin(same), accessToken: 'kc-both' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.me.username).toBe('linus');
    const other = await h.fake.signIdToken('oidc', { sub: 'somebody-else' });
    expectRefused(
      await login(service, { ...oidcLogin(other), accessToken: 'kc-both' }),
      /different users/,
    );
  });

  it('refuses a token issued to another application, even when azp names this one', async () => {
    const service = await app();
    const foreign = await h.fake.signIdToken('apple', { sub: 's1', aud: 'com.attacker.app' });
    expectRefused(await login(service, appleLogin(foreign)), /not issued to this application/);
    const several = await h.fake.signIdToken('oidc', { sub: 's2', aud: ['other-client', 'third'] });
    expectRefused(await login(service, oidcLogin(several)), /not issued to this application/);
    const viaAzp = await h.fake.signIdToken('oidc', {
      sub: 's3',
      aud: 'web-client',
      azp: APPS.oidc.appId,
    });
    expectRefused(await login(service, oidcLogin(viaAzp)), /not issued to this application/);
  });

  it('refuses expired tokens and tokens from the future, with 60 s of leeway', async () => {
    const service = await app();
    const expired = await h.fake.signIdToken('apple', {
      sub: 's',
      iat: now() - 900,
      exp: now() - 120,
    });
    expectRefused(await login(service, appleLogin(expired)), /expired/);
    const future = await h.fake.signIdToken('apple', {
      sub: 's',
      iat: now() + 300,
      exp: now() + 900,
    });
    expectRefused(await login(service, appleLogin(future)), /iat|future/);
    const withinLeeway = await h.fake.signIdToken('apple', {
      sub: 's',
      iat: now() - 600,
      exp: now() - 20,
    });
    expect((await login(service, appleLogin(withinLeeway))).statusCode).toBe(200);
    const noExpiry = await new SignJWT({
      iss: h.fake.issuer('apple'),
      aud: APPS.apple.appId,
      sub: 's',
      iat: now(),
    })
      .setProtectedHeader({ alg: 'RS256', kid: h.fake.signingKeys[0]?.kid ?? '' })
      .sign(h.fake.signingKeys[0]?.privateKey as CryptoKey);
    expectRefused(await login(service, appleLogin(noExpiry)), /exp/);
  });

  it('refuses another issuer, a tampered payload and a wrong nonce', async () => {
    const service = await app();
    const otherIssuer = await h.fake.signIdToken('apple', {
      sub: 's',
      iss: 'https://evil.example',
    });
    expectRefused(await login(service, appleLogin(otherIssuer)), /"iss"/);

    const genuine = await h.fake.signIdToken('apple', { sub: 'victim' });
    const [header, payload, signature] = genuine.split('.');
    const claims = JSON.parse(new TextDecoder().decode(base64url.decode(payload ?? '')));
    const forged = base64url.encode(JSON.stringify({ ...claims, sub: 'attacker' }));
    expectRefused(
      await login(service, appleLogin(`${header}.${forged}.${signature}`)),
      /signature/,
    );

    const withNonce = await h.fake.signIdToken('apple', { sub: 's', nonce: 'n-123' });
    expect((await login(service, appleLogin(withNonce, { nonce: 'n-123' }))).statusCode).toBe(200);
    expectRefused(await login(service, appleLogin(withNonce, { nonce: 'n-999' })), /nonce/);
    const withoutNonce = await h.fake.signIdToken('apple', { sub: 's' });
    expectRefused(await login(service, appleLogin(withoutNonce, { nonce: 'n-123' })), /nonce/);
  });

  it('refuses alg "none" and HS256 signed with the public key as the secret', async () => {
    const service = await app();
    const key = h.fake.signingKeys[0];
    if (!key) throw new Error('no key');
    const claims = {
      iss: h.fake.issuer('apple'),
      aud: APPS.apple.appId,
      sub: 'attacker',
      iat: now(),
      exp: now() + 600,
    };
    const encode = (value: unknown) => base64url.encode(JSON.stringify(value));
    const unsigned = `${encode({ alg: 'none', kid: key.kid })}.${encode(claims)}.`;
    expectRefused(await login(service, appleLogin(unsigned)), /algorithm|malformed/);

    for (const secret of [key.publicPem, JSON.stringify(key.publicJwk), key.publicJwk.n ?? '']) {
      const confused = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', kid: key.kid })
        .sign(new TextEncoder().encode(secret));
      expectRefused(await login(service, appleLogin(confused)), /algorithm/);
    }
    expect(
      (await login(service, appleLogin(await h.fake.signIdToken('apple', { sub: 'ok' }))))
        .statusCode,
    ).toBe(200);
  });

  it('refuses a key the provider does not publish, re-fetching the JWKS at most once per 30 s', async () => {
    const service = await app();
    const stranger = await newSigningKey();
    const unknown = await h.fake.signIdToken('apple', { sub: 's' }, stranger);
    expectRefused(await login(service, appleLogin(unknown)), /does not publish/);
    expect(jwksCalls('/apple/auth/keys')).toBe(2); // the first fetch, then one for the unknown kid
    for (let i = 0; i < 5; i++) {
      const another = await h.fake.signIdToken('apple', { sub: `s${i}` }, await newSigningKey());
      expectRefused(await login(service, appleLogin(another)), /does not publish/);
    }
    expect(jwksCalls('/apple/auth/keys')).toBe(2);
  });

  it('picks up rotated keys: a new kid makes it fetch the JWKS again', async () => {
    const service = await app();
    const before = await h.fake.signIdToken('apple', { sub: 'r' });
    expect((await login(service, appleLogin(before))).statusCode).toBe(200);
    expect(jwksCalls('/apple/auth/keys')).toBe(1);
    await h.fake.rotateKeys();
    const after = await h.fake.signIdToken('apple', { sub: 'r' });
    expect((await login(service, appleLogin(after))).statusCode).toBe(200);
    expect(jwksCalls('/apple/auth/keys')).toBe(2);
    // The retired key is gone from the JWKS: its tokens are refused now.
    expectRefused(await login(service, appleLogin(before)), /does not publish/);
  });

  it('a JWKS that cannot be fetched or read is a 502, and is fetched again next time', async () => {
    const service = await app();
    h.fake.fault = 'server-error';
    const token = await h.fake.signIdToken('apple', { sub: 's' });
    const failed = await login(service, appleLogin(token));
    expect(failed.statusCode).toBe(502);
    expect(failed.json().error).toBe('provider-unavailable');
    h.fake.fault = undefined;
    expect((await login(service, appleLogin(token))).statusCode).toBe(200);
  });

  it('a JWKS holding a key that cannot be read is a 502, not kept (it was a 401 "malformed" for an hour)', async () => {
    const service = await app();
    const key = h.fake.signingKeys[0];
    if (!key) throw new Error('no signing key');
    const published = key.publicJwk;
    key.publicJwk = { ...published, n: 'AA' };
    const token = await h.fake.signIdToken('apple', { sub: 'unreadable' });
    const failed = await login(service, appleLogin(token));
    expect(failed.statusCode, failed.body).toBe(502);
    expect(failed.json().error).toBe('provider-unavailable');
    key.publicJwk = published;
    expect((await login(service, appleLogin(token))).statusCode).toBe(200);
  });

  it('says which credential is missing or not taken (400)', async () => {
    const service = await app();
    const token = await h.fake.signIdToken('apple', { sub: 's' });
    const cases: [Record<string, unknown>, RegExp][] = [
      [appleLogin(token, { accessToken: 'at' }), /^accessToken: .*identityToken/],
      [{ ...appleLogin(token), identityToken: undefined }, /^identityToken: required/],
      [{ ...loginBody('github', 'gho_1'), idToken: token }, /^idToken: .*does not take ID tokens/],
      [oidcLogin(token, { identityToken: token }), /either idToken or identityToken/],
      [{ ...oidcLogin(token), idToken: undefined }, /^accessToken: required/],
      [oidcLogin('not-a-jwt'), /^idToken: /],
    ];
    for (const [body, message] of cases) {
      const response = await login(service, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toMatchObject({
        error: 'invalid-request',
        message: expect.stringMatching(message),
      });
    }
  });

  it('wrong ID tokens count towards the lock-out of that token', async () => {
    const service = await app();
    const foreign = await h.fake.signIdToken('apple', { sub: 's', aud: 'com.attacker.app' });
    for (let i = 0; i < 5; i++)
      expect((await login(service, appleLogin(foreign))).statusCode).toBe(401);
    const locked = await login(service, appleLogin(foreign));
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error).toBe('account-locked');
  });
});
