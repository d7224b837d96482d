import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from './support/accounts.js';
import { Harness, login, loginBody } from './support/harness.js';

/** /avatar/{username} redirects only to the hosts a service's pictures come from. */
let h: Harness;
beforeAll(async () => {
  h = await Harness.open();
});
afterEach(() => h.reset());
afterAll(() => h.close());

describe('avatar redirects only to avatar hosts (/avatar/{username} redirected to any https URL a provider returned)', () => {
  it('never redirects to a host that is not an avatar host of the service', async () => {
    const app = await h.app();
    const credentials = accounts.keycloak(h.fake);
    const account = h.fake.oidc.get(credentials.accessToken);
    if (!account) throw new Error('fixture');
    account.userinfo = { ...account.userinfo, picture: 'https://attacker.example/phish.png' };
    const { data } = (await login(app, { ...loginBody('keycloak', ''), ...credentials })).json();
    const response = await app.inject({ method: 'GET', url: `/avatar/${data.me.username}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers.location).toBeUndefined();
    expect(response.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
  });

  it('redirects to an allowed host, exact or by a *.domain pattern', async () => {
    const app = await h.app();
    const { data } = (
      await login(app, { ...loginBody('google', ''), ...accounts.google(h.fake) })
    ).json();
    const response = await app.inject({ method: 'GET', url: `/avatar/${data.me.username}` });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('https://lh3.example.com/a/margaret');
  });

  it('a look-alike host does not match a pattern', async () => {
    const app = await h.app();
    const credentials = accounts.google(h.fake);
    const account = h.fake.google.get(credentials.accessToken);
    if (!account) throw new Error('fixture');
    for (const picture of [
      'https://lh3.example.com.attacker.example/a.png',
      'https://attacker.example/lh3.example.com/a.png',
      'https://lh3.example.com@attacker.example/a.png',
      'https://example.com/a.png',
    ]) {
      account.userinfo = { ...account.userinfo, picture };
      const { data } = (await login(app, { ...loginBody('google', ''), ...credentials })).json();
      const response = await app.inject({ method: 'GET', url: `/avatar/${data.me.username}` });
      expect(response.statusCode, picture).toBe(200);
      expect(response.headers.location, picture).toBeUndefined();
    }
  });
});
