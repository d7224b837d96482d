import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import {
  AVATAR_URL_MAX,
  boundedName,
  NAME_MAX,
  plausibleEmail,
} from '../src/providers/registry.js';
import { accounts } from './support/accounts.js';
import { Harness, login, loginBody, me, testConfig } from './support/harness.js';

/**
 * What a provider says about a user is bounded before it is kept, whatever the provider: an
 * e-mail address must plausibly be one (OpenID Connect Core 5.1: an addr-spec; RFC 5321: 254
 * characters), a name is cut to NAME_MAX at a grapheme boundary, a picture URL past
 * AVATAR_URL_MAX is dropped. Each is logged as a warning that never holds the value.
 */
let h: Harness;
beforeAll(async () => {
  h = await Harness.open();
});
afterEach(() => h.reset());
afterAll(() => h.close());

/** A service whose warnings are collected. */
async function loggingApp() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const app = await buildApp(testConfig(h.fake.url), {
    store: h.store,
    now: () => new Date(h.clock),
    logger: { level: 'warn', stream },
  });
  return { app, lines };
}

async function signIn(
  app: Awaited<ReturnType<typeof loggingApp>>['app'],
  service: string,
  token: string,
) {
  const response = await login(app, loginBody(service, token));
  expect(response.statusCode, response.body).toBe(200);
  const { data } = response.json();
  return data as { userId: string; authToken: string; me: Record<string, unknown> };
}

const HOSTILE_EMAIL = 'not an email\r\nBcc: all@corp.example <script>';

describe('e-mail addresses from providers', () => {
  it('keeps no verified e-mail that is not an address (OIDC userinfo), and logs it without the value', async () => {
    const { app, lines } = await loggingApp();
    const { accessToken } = accounts.keycloak(h.fake);
    const account = h.fake.oidc.get(accessToken);
    if (!account) throw new Error('fixture');
    account.userinfo.email = HOSTILE_EMAIL;
    account.userinfo.email_verified = true;
    const data = await signIn(app, 'keycloak', accessToken);
    expect(data.me.emails).toEqual([]);
    expect(data.me.email).toBeUndefined();
    const again = (await me(app, data.userId, data.authToken)).json();
    expect(again.emails).toEqual([]);
    const log = lines.join('');
    expect(log).toContain(
      'identity provider \\"keycloak\\" answered an e-mail address of 44 characters that is not an address; not kept',
    );
    expect(log).not.toMatch(/Bcc|script|corp\.example/);
  });

  it('keeps no 50,012-character address, and drops a bad one from every provider type', async () => {
    const app = await h.app();
    const { accessToken } = accounts.keycloak(h.fake);
    const account = h.fake.oidc.get(accessToken);
    if (!account) throw new Error('fixture');
    account.userinfo.email = `${'a'.repeat(50_000)}@example.com`;
    expect((await signIn(app, 'keycloak', accessToken)).me.emails).toEqual([]);

    const twitter = accounts.twitter(h.fake);
    const user = h.fake.twitter.get(twitter.accessToken)?.user;
    if (!user) throw new Error('fixture');
    user.email = 'ada lovelace@example.com';
    const response = await login(app, { ...loginBody('twitter', ''), ...twitter });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.me.emails).toEqual([]);
  });

  it('keeps an ordinary address, an internationalised one, and a local part with + and dots', async () => {
    for (const address of [
      'linus@example.org',
      'a.b+tag@mail.example.co.uk',
      'δοκιμή@παράδειγμα.δοκιμή',
      `${'l'.repeat(64)}@${'d'.repeat(184)}.test`,
    ]) {
      expect(plausibleEmail(address), address).toBe(true);
    }
    for (const address of [
      HOSTILE_EMAIL,
      'two@at@example.com',
      '@example.com',
      'user@',
      'user@example..com',
      '.user@example.com',
      'tab\there@example.com',
      'nbsp\u00a0here@example.com',
      '<user@example.com>',
      'user@[127.0.0.1]',
      `${'l'.repeat(65)}@example.com`,
      `${'l'.repeat(64)}@${'d'.repeat(185)}.test`,
    ]) {
      expect(plausibleEmail(address), JSON.stringify(address)).toBe(false);
    }
  });
});

describe('names and pictures from providers', () => {
  it(`cuts a 200,000-character GitHub name to ${NAME_MAX} characters, in login and me`, async () => {
    const { app, lines } = await loggingApp();
    const { accessToken } = accounts.github(h.fake);
    const user = h.fake.github.get(accessToken)?.user;
    if (!user) throw new Error('fixture');
    user.name = 'N'.repeat(200_000);
    const data = await signIn(app, 'github', accessToken);
    expect(data.me.name).toBe('N'.repeat(NAME_MAX));
    expect((await me(app, data.userId, data.authToken)).json().name).toBe('N'.repeat(NAME_MAX));
    expect(lines.join('')).toContain('answered a name of 200000 characters; cut to 256');
  });

  it('never splits a character: an emoji sequence or an accent at the limit goes whole', () => {
    const family = '\u{1f468}\u200d\u{1f469}\u200d\u{1f467}'; // 8 code units, one grapheme
    expect(boundedName(`${'a'.repeat(NAME_MAX - 4)}${family}tail`)).toBe('a'.repeat(NAME_MAX - 4));
    expect(boundedName(`${'a'.repeat(NAME_MAX - 1)}e\u0301`)).toBe('a'.repeat(NAME_MAX - 1));
    expect(boundedName('Ada Lovelace')).toBe('Ada Lovelace');
    // One grapheme longer than the limit (a letter under 300 accents) is no name at all.
    expect(boundedName(`e${'\u0301'.repeat(300)}`)).toBeUndefined();
  });

  it(`drops a picture URL longer than ${AVATAR_URL_MAX} characters (OIDC picture)`, async () => {
    const app = await h.app();
    const { accessToken } = accounts.google(h.fake);
    const account = h.fake.google.get(accessToken);
    if (!account) throw new Error('fixture');
    account.userinfo.picture = `https://lh3.example.com/${'p'.repeat(100_000)}`;
    const data = await signIn(app, 'google', accessToken);
    const row = await h.store.db
      .selectFrom('users')
      .select('avatar_url')
      .where('id', '=', data.userId)
      .executeTakeFirstOrThrow();
    expect(row.avatar_url).toBeNull();

    // At the limit it is kept.
    const kept = `https://lh3.example.com/${'p'.repeat(AVATAR_URL_MAX - 24)}`;
    expect(kept.length).toBe(AVATAR_URL_MAX);
    account.userinfo.picture = kept;
    await signIn(app, 'google', accessToken);
    const updated = await h.store.db
      .selectFrom('users')
      .select('avatar_url')
      .where('id', '=', data.userId)
      .executeTakeFirstOrThrow();
    expect(updated.avatar_url).toBe(kept);
  });
});
