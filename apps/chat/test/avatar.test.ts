import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initials } from '../src/users/avatar-svg.js';
import { accounts } from './support/accounts.js';
import { Harness, login, loginBody } from './support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await Harness.open();
});
afterEach(() => h.reset());
afterAll(() => h.close());

describe('GET /avatar/{username}', () => {
  it('redirects to the provider picture when there is one', async () => {
    const app = await h.app();
    const { data } = (
      await login(app, { ...loginBody('github', ''), ...accounts.github(h.fake) })
    ).json();
    expect(data.me.avatarUrl).toBe('https://chat.example.test/avatar/octocat');
    const response = await app.inject({ method: 'GET', url: '/avatar/octocat' });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('https://avatars.example.com/u/583231');
  });

  it('serves escaped initials as SVG with a restrictive CSP otherwise, and never an http picture', async () => {
    const app = await h.app();
    const credentials = accounts.keycloak(h.fake);
    const account = h.fake.oidc.get(credentials.accessToken);
    if (!account) throw new Error('fixture');
    account.userinfo = {
      ...account.userinfo,
      name: '<script>alert(1)</script> &Co',
      picture: 'http://insecure.example.com/a.png',
    };
    const { data } = (await login(app, { ...loginBody('keycloak', ''), ...credentials })).json();
    const response = await app.inject({ method: 'GET', url: `/avatar/${data.me.username}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(response.headers['content-security-policy']).toContain("default-src 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.body).toMatch(/^<svg /);
    expect(response.body).not.toContain('<script');
    expect(response.body).toContain('&#60;&#38;</text>');
  });

  it('answers 404 not-found for an unknown user', async () => {
    const app = await h.app();
    const response = await app.inject({ method: 'GET', url: '/avatar/nobody' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ status: 'error', error: 'not-found' });
  });

  it('answers 404 for what cannot be a username, a NUL byte included (was a 500)', async () => {
    const app = await h.app();
    for (const url of ['/avatar/%00%0d%0a', '/avatar/a%00b', '/avatar/..%2f..', '/avatar/x']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json().error).toBe('not-found');
    }
    // Longer than the router takes: its refusal, in the service's shape (was Fastify's own).
    const long = await app.inject({ method: 'GET', url: `/avatar/${'a'.repeat(300)}` });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual({
      status: 'error',
      error: 'invalid-request',
      message: 'A part of the URL is too long',
    });
  });

  it('takes initials from up to two words', () => {
    expect(initials('Ada Lovelace', 'ada')).toBe('AL');
    expect(initials('grace', 'grace')).toBe('G');
    expect(initials('  ', 'linus.torvalds')).toBe('LT');
    expect(initials('élodie ßeta gamma', 'x')).toBe('ÉSS');
  });
});
