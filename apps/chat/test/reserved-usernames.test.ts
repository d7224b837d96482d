import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from './support/accounts.js';
import { Harness, login, loginBody } from './support/harness.js';

/** Usernames taken from provider handles never look official and never look like paths. */
let h: Harness;
beforeAll(async () => {
  h = await Harness.open();
});
afterEach(() => h.reset());
afterAll(() => h.close());

describe('reserved and path-like usernames (username squatting)', () => {
  async function usernameFor(preferred: string, reservedUsernames?: string[]) {
    const app = await h.app(reservedUsernames ? { reservedUsernames } : {});
    const sub = randomBytes(6).toString('hex');
    const credentials = accounts.keycloak(h.fake, sub);
    const account = h.fake.oidc.get(credentials.accessToken);
    if (!account) throw new Error('fixture');
    account.userinfo = {
      sub,
      preferred_username: preferred,
      name: 'Mallory Example',
    };
    const response = await login(app, { ...loginBody('keycloak', ''), ...credentials });
    expect(response.statusCode).toBe(200);
    return response.json().data.me.username as string;
  }

  it('path-like handles are refused before normalising: ../../admin is not admin', async () => {
    for (const handle of ['../../admin', '..\\admin', '/admin', 'admin/..', '%2e%2e%2fadmin']) {
      const username = await usernameFor(handle);
      expect(username, handle).not.toMatch(/admin/);
      expect(username, handle).toMatch(/^mallory\.example\d*$/);
    }
  });

  it('reserved names are never given, whatever their case or accents', async () => {
    for (const handle of [
      'admin',
      'Administrator',
      'ROOT',
      'rocket.cat',
      'System',
      'support',
      'ádmin',
    ]) {
      const username = await usernameFor(handle);
      expect(username, handle).toMatch(/^mallory\.example\d*$/);
    }
  });

  it('the list is configurable (RESERVED_USERNAMES)', async () => {
    expect(await usernameFor('linus_t', ['linus_t'])).toMatch(/^mallory\.example\d*$/);
    expect(await usernameFor('admin', ['nobody'])).toBe('admin');
  });
});
