import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { type KyselyPlugin, UpdateQueryNode } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { buildApp } from '../src/app.js';
import { encodeOAuthState, type OAuthState } from '../src/auth/oauth-state.js';
import { totpFor } from '../src/auth/totp.js';
import { MAXIMA } from '../src/config.js';
import { purgeExpired } from '../src/db/single-use.js';
import { chatLogger } from '../src/service.js';
import { accounts } from './support/accounts.js';
import type { WebFlowProvider } from './support/fake-provider.js';
import { Harness, login, SITE_URL, testConfig } from './support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await Harness.open();
});
afterEach(() => h.reset());
afterAll(() => h.close());

const newToken = () => randomBytes(32).toString('base64url');
const SERVICES: Record<WebFlowProvider, string> = {
  github: 'github',
  facebook: 'facebook',
  oidc: 'keycloak',
};

function signInAt(provider: WebFlowProvider) {
  const token =
    provider === 'github'
      ? accounts.github(h.fake).accessToken
      : provider === 'facebook'
        ? accounts.facebook(h.fake).accessToken
        : accounts.keycloak(h.fake).accessToken;
  h.fake.signedIn.set(provider, token);
  h.fake.registeredRedirectUris.set(provider, `${SITE_URL}/_oauth/${SERVICES[provider]}`);
}

/** The result page's `<div id="config">` JSON. */
function pageConfig(html: string) {
  const text = /<div id="config" hidden>([^<]*)<\/div>/.exec(html)?.[1] ?? '';
  const decoded = text
    .replaceAll('&quot;', '"')
    .replaceAll('&#x2F;', '/')
    .replaceAll('&#x27;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
  return JSON.parse(decoded) as {
    setCredentialToken: boolean;
    credentialToken?: string;
    credentialSecret?: string;
    storagePrefix: string;
    isCordova: boolean;
    redirectUrl?: string;
  };
}

/** What the result page tells the person (`#message`), unescaped. */
function pageMessage(html: string): string {
  const text = /<p id="message"[^>]*>([^<]*)<\/p>/.exec(html)?.[1] ?? '';
  return text
    .replaceAll('&quot;', '"')
    .replaceAll('&#x2F;', '/')
    .replaceAll('&#x27;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

/** Follows the provider's authorize redirect as a browser would; returns our callback's path. */
async function atProvider(location: string): Promise<string> {
  const answer = await fetch(location, { redirect: 'manual' });
  expect(answer.status, await answer.clone().text()).toBe(302);
  const back = new URL(answer.headers.get('location') ?? '');
  expect(back.origin).toBe(SITE_URL);
  return `${back.pathname}${back.search}`;
}

/** The `name=value` pairs a response set, as a browser sends them back. */
/**
 * The authorization address of a flow a client starts itself at the provider (as Rocket.Chat's
 * mobile app does for GitHub and Facebook), not through `/_oauth/<service>/authorize`.
 */
function startedAtProvider(
  provider: 'github' | 'facebook',
  state: Parameters<typeof encodeOAuthState>[0],
  redirectUri = `${SITE_URL}/_oauth/${provider}`,
): string {
  const authorize = new URL(
    provider === 'github'
      ? `${h.fake.url}/github/login/oauth/authorize`
      : `${h.fake.url}/facebook/dialog/oauth`,
  );
  authorize.searchParams.set('client_id', provider === 'github' ? 'gh-client-id' : 'fb-app-id');
  authorize.searchParams.set('redirect_uri', redirectUri);
  authorize.searchParams.set('response_type', 'code');
  authorize.searchParams.set('state', encodeOAuthState(state));
  return authorize.toString();
}

function cookiesOf(response: { headers: Record<string, unknown> }): string {
  const set = response.headers['set-cookie'];
  const all = Array.isArray(set) ? set : set === undefined ? [] : [String(set)];
  return all.map((cookie: string) => cookie.split(';')[0]).join('; ');
}

/**
 * Start (by the service, with PKCE) and the provider's return, in one browser (the start's
 * cookie goes back with the return); returns the result page.
 */
async function runFlow(
  app: FastifyInstance,
  service: string,
  state: Partial<OAuthState> & { credentialToken: string },
  finishOn: FastifyInstance = app,
) {
  const start = await app.inject({
    url: `/_oauth/${service}/authorize?state=${encodeURIComponent(encodeOAuthState(state))}`,
  });
  expect(start.statusCode, start.body).toBe(302);
  const cookie = cookiesOf(start);
  const callback = await atProvider(start.headers.location as string);
  return {
    callback,
    cookie,
    result: await finishOn.inject({ url: callback, headers: { cookie } }),
  };
}

describe('the OAuth redirect flow (Meteor protocol)', () => {
  for (const provider of ['github', 'facebook', 'oidc'] as const) {
    it(`${provider}: start with PKCE, return, pending credential, login with {oauth}`, async () => {
      const app = await h.app();
      signInAt(provider);
      h.fake.requirePkce = true;
      const credentialToken = newToken();
      const { result } = await runFlow(app, SERVICES[provider], { credentialToken });
      expect(result.statusCode, result.body).toBe(200);
      expect(result.headers['content-security-policy']).toContain("script-src 'self'");
      expect(result.body).not.toMatch(/<script>/);
      const config = pageConfig(result.body);
      expect(config).toMatchObject({
        setCredentialToken: true,
        credentialToken,
        storagePrefix: 'Meteor.oauth.credentialSecret-',
        isCordova: false,
      });
      const response = await login(app, {
        oauth: { credentialToken, credentialSecret: config.credentialSecret },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data.authToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      // Single use.
      const again = await login(app, {
        oauth: { credentialToken, credentialSecret: config.credentialSecret },
      });
      expect(again.statusCode).toBe(401);
      expect(again.json()).toMatchObject({ status: 'error', error: 'invalid-credentials' });
    });
  }

  it('logs no query value: the provider’s code and the flow’s state stay out of the log', async () => {
    const lines: string[] = [];
    const app = await buildApp(testConfig(h.fake.url), {
      store: h.store,
      logger: chatLogger('info', { write: (line: string) => lines.push(line) > 0 }),
    });
    onTestFinished(() => app.close());
    signInAt('github');
    const credentialToken = newToken();
    const { callback, result } = await runFlow(app, 'github', { credentialToken });
    expect(result.statusCode, result.body).toBe(200);
    const code = new URL(callback, SITE_URL).searchParams.get('code') ?? '';
    expect(code.length).toBeGreaterThan(8);
    const log = lines.join('');
    expect(log).toContain('"url":"/_oauth/github?');
    expect(log).not.toContain(code);
    expect(log).not.toContain(credentialToken);
    expect(log).not.toContain(
      encodeURIComponent(encodeOAuthState({ credentialToken })).slice(0, 40),
    );
  });

  it('completes at the largest OAUTH_FLOW_TTL and OAUTH_CREDENTIAL_TTL', async () => {
    const app = await h.app({
      oauth: {
        flowSeconds: MAXIMA.OAUTH_FLOW_TTL,
        credentialSeconds: MAXIMA.OAUTH_CREDENTIAL_TTL,
        redirectOrigins: [SITE_URL],
        mobileAppReturn: true,
      },
    });
    signInAt('github');
    const { result } = await runFlow(app, 'github', { credentialToken: newToken() });
    expect(result.statusCode, result.body).toBe(200);
    expect(pageConfig(result.body).credentialSecret).toBeDefined();
  });

  it('a flow the client started itself (no PKCE) completes; the exchange sends the client secret', async () => {
    const app = await h.app();
    signInAt('github');
    const credentialToken = newToken();
    const result = await app.inject({
      url: await atProvider(startedAtProvider('github', { credentialToken })),
    });
    expect(result.statusCode).toBe(200);
    const secret = pageConfig(result.body).credentialSecret;
    expect(
      (await login(app, { oauth: { credentialToken, credentialSecret: secret } })).statusCode,
    ).toBe(200);
  });

  for (const provider of ['facebook', 'github'] as const) {
    it(`${provider}: Rocket.Chat's mobile app starts at the provider with redirect_uri …/_oauth/${provider}?close, and the exchange repeats it exactly`, async () => {
      const app = await h.app();
      signInAt(provider);
      // What the app hard-codes; the fake, like Facebook, takes a code only with the same URI.
      const redirectUri = `${SITE_URL}/_oauth/${provider}?close`;
      h.fake.registeredRedirectUris.set(provider, redirectUri);
      const credentialToken = newToken();
      const callback = await atProvider(
        startedAtProvider(provider, { credentialToken, isCordova: true }, redirectUri),
      );
      expect(callback).toMatch(new RegExp(`^/_oauth/${provider}\\?close=?&state=`));
      const result = await app.inject({ url: callback });
      expect(h.fake.tokenRefusals).toEqual([]);
      expect(result.statusCode, result.body).toBe(200);
      const secret = pageConfig(result.body).credentialSecret;
      expect(
        (await login(app, { oauth: { credentialToken, credentialSecret: secret } })).statusCode,
      ).toBe(200);
    });
  }

  it('a pair sent several times at once signs in once and leaves one session', async () => {
    const app = await h.app();
    signInAt('github');
    const credentialToken = newToken();
    const { result } = await runFlow(app, 'github', { credentialToken });
    const oauth = { credentialToken, credentialSecret: pageConfig(result.body).credentialSecret };
    const answers = await Promise.all(Array.from({ length: 5 }, () => login(app, { oauth })));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 401, 401, 401, 401]);
    const sessions = await h.store.db.selectFrom('sessions').select('user_id').execute();
    expect(sessions).toHaveLength(1);
  });

  it('wrong secrets sent with someone’s public credentialToken do not lock its owner out', async () => {
    const app = await h.app();
    signInAt('github');
    const credentialToken = newToken();
    const { result } = await runFlow(app, 'github', { credentialToken });
    for (let guess = 0; guess < 8; guess++) {
      const refused = await login(app, {
        oauth: { credentialToken, credentialSecret: `wrong${guess}` },
      });
      expect(refused.statusCode, refused.body).toBe(401);
    }
    const owner = await login(app, {
      oauth: { credentialToken, credentialSecret: pageConfig(result.body).credentialSecret },
    });
    expect(owner.statusCode, owner.body).toBe(200);
  });

  it('a wrong, unknown or expired pair is 401 in the error shape', async () => {
    const app = await h.app();
    signInAt('github');
    const credentialToken = newToken();
    const { result } = await runFlow(app, 'github', { credentialToken });
    const secret = pageConfig(result.body).credentialSecret as string;
    for (const oauth of [
      { credentialToken, credentialSecret: newToken() },
      { credentialToken: newToken(), credentialSecret: secret },
    ]) {
      const refused = await login(app, { oauth });
      expect(refused.statusCode).toBe(401);
      expect(refused.json().error).toBe('invalid-credentials');
    }
    h.advance(121);
    expect(
      (await login(app, { oauth: { credentialToken, credentialSecret: secret } })).statusCode,
    ).toBe(401);
  });

  it('denied consent: no credential, the page closes the popup', async () => {
    const app = await h.app();
    signInAt('github');
    h.fake.consent = 'deny';
    const credentialToken = newToken();
    const { callback, result } = await runFlow(app, 'github', { credentialToken });
    expect(callback).toContain('error=access_denied');
    expect(pageConfig(result.body).setCredentialToken).toBe(false);
    expect(result.body).toContain('cancelled');
  });

  it('a forged state is refused; a replayed state (same credentialToken) is refused', async () => {
    const app = await h.app();
    signInAt('github');
    for (const state of [
      '',
      'not-base64!',
      Buffer.from('{"a":1}').toString('base64'),
      encodeOAuthState({ credentialToken: 'short' }),
    ]) {
      const page = await app.inject({
        url: `/_oauth/github?code=x&state=${encodeURIComponent(state)}`,
      });
      expect(page.statusCode).toBe(400);
      expect(page.headers['content-type']).toContain('text/html');
      expect(pageConfig(page.body).setCredentialToken).toBe(false);
    }
    const credentialToken = newToken();
    const { callback, result } = await runFlow(app, 'github', { credentialToken });
    expect(result.statusCode).toBe(200);
    // The same state again, with a fresh code for it.
    const again = await runFlow(app, 'github', { credentialToken }).catch(() => undefined);
    expect(again).toBeUndefined(); // the start refuses a credentialToken already taken
    const replay = await app.inject({ url: callback });
    expect(replay.statusCode).toBe(400);
    expect(pageConfig(replay.body).setCredentialToken).toBe(false);
  });

  it('a code is exchanged once: a second return with it gets no credential', async () => {
    const app = await h.app();
    signInAt('github');
    const { callback } = await runFlow(app, 'github', { credentialToken: newToken() });
    const code = new URL(callback, SITE_URL).searchParams.get('code');
    const other = encodeOAuthState({ credentialToken: newToken() });
    const reused = await app.inject({
      url: `/_oauth/github?code=${code}&state=${encodeURIComponent(other)}`,
    });
    expect(reused.statusCode).toBe(401);
    expect(pageConfig(reused.body).setCredentialToken).toBe(false);
    expect(h.fake.tokenRefusals).toContain('code already used');
  });

  it('redirect style returns to an own origin only; never an open redirect', async () => {
    const app = await h.app();
    signInAt('github');
    const credentialToken = newToken();
    const { result } = await runFlow(app, 'github', {
      credentialToken,
      loginStyle: 'redirect',
      redirectUrl: `${SITE_URL}/home`,
    });
    expect(pageConfig(result.body)).toMatchObject({
      setCredentialToken: true,
      redirectUrl: `${SITE_URL}/home`,
    });
    expect(result.body).toContain('/packages/oauth/end_of_redirect_response.js');
    for (const redirectUrl of [
      'https://evil.example/',
      'javascript:alert(1)',
      '//evil.example',
      `${SITE_URL}@evil.example/`,
    ]) {
      const start = await app.inject({
        url: `/_oauth/github/authorize?state=${encodeURIComponent(encodeOAuthState({ credentialToken: newToken(), loginStyle: 'redirect', redirectUrl }))}`,
      });
      expect(start.statusCode, redirectUrl).toBe(400);
    }
  });

  it('a HEAD of the return (a link scanner, a prefetch) takes nothing: the browser then completes', async () => {
    const app = await h.app();
    signInAt('github');
    const credentialToken = newToken();
    const startUrl = `/_oauth/github/authorize?state=${encodeURIComponent(encodeOAuthState({ credentialToken }))}`;
    expect((await app.inject({ method: 'HEAD', url: startUrl })).statusCode).toBe(405);
    const start = await app.inject({ url: startUrl });
    const callback = await atProvider(start.headers.location as string);
    const cookie = cookiesOf(start);
    const scanned = await app.inject({ method: 'HEAD', url: callback, headers: { cookie } });
    expect(scanned.statusCode).toBe(405);
    expect(scanned.headers.allow).toBe('GET');
    const result = await app.inject({ url: callback, headers: { cookie } });
    expect(result.statusCode, result.body).toBe(200);
    expect(pageConfig(result.body).setCredentialToken).toBe(true);
  });

  it('a start asks the provider for the service’s own scopes: another scope is refused, the same ones in any order pass', async () => {
    const app = await h.app();
    const start = (scope: string) =>
      app.inject({
        url: `/_oauth/keycloak/authorize?state=${encodeURIComponent(encodeOAuthState({ credentialToken: newToken() }))}&scope=${encodeURIComponent(scope)}`,
      });
    for (const scope of [
      'openid profile email offline_access',
      'repo delete_repo',
      'profile email',
      '',
    ]) {
      const refused = await start(scope);
      expect(refused.statusCode, scope).toBe(400);
      expect(refused.headers['content-type']).toContain('text/html');
      expect(pageMessage(refused.body)).toMatch(/^Sign-in failed: scope: must be /);
    }
    const reordered = await start('email openid  profile');
    expect(reordered.statusCode, reordered.body).toBe(302);
    expect(new URL(reordered.headers.location as string).searchParams.get('scope')).toBe(
      'openid profile email',
    );
  });

  it('by default no sign-in returns to the mobile app: a link made at the provider cannot sign a phone into the maker’s account', async () => {
    const app = await h.app();
    // The maker signs in at GitHub, with a state asking for the app's return, and sends the
    // provider's return address to someone whose phone opens it: no cookie binds such a flow.
    signInAt('github');
    const state = {
      credentialToken: newToken(),
      loginStyle: 'redirect',
      isCordova: true,
      redirectUrl: 'rocketchat://auth',
    } as const;
    const returned = await app.inject({
      url: await atProvider(startedAtProvider('github', state)),
    });
    expect(returned.statusCode).toBe(400);
    const config = pageConfig(returned.body);
    expect(config.setCredentialToken).toBe(false);
    expect(config.redirectUrl).toBeUndefined();
    expect(returned.body).not.toContain('type=oauth');
    expect(pageMessage(returned.body)).toBe(
      "Sign-in failed: this deployment does not send sign-ins back to Rocket.Chat's mobile app (rocketchat://auth); OAUTH_MOBILE_APP_RETURN is off",
    );
    // Nothing was kept for the token: no pair to log in with.
    const started = await app.inject({
      url: `/_oauth/github/authorize?state=${encodeURIComponent(encodeOAuthState(state))}`,
    });
    expect(started.statusCode).toBe(400);
  });

  it("with OAUTH_MOBILE_APP_RETURN on, Rocket.Chat's mobile app (redirectUrl rocketchat://auth) is sent back to the app with the pair, or the error", async () => {
    const app = await h.app({
      oauth: {
        flowSeconds: 600,
        credentialSeconds: 120,
        redirectOrigins: [SITE_URL],
        mobileAppReturn: true,
      },
    });
    signInAt('github');
    const credentialToken = newToken();
    const mobile = {
      loginStyle: 'redirect',
      isCordova: true,
      redirectUrl: 'rocketchat://auth',
    } as const;
    const { result } = await runFlow(app, 'github', { credentialToken, ...mobile });
    expect(result.statusCode, result.body).toBe(200);
    const config = pageConfig(result.body);
    expect(result.body).toContain('/packages/oauth/end_of_redirect_response.js');
    const back = new URL(config.redirectUrl ?? '');
    expect(`${back.protocol}//${back.host}`).toBe('rocketchat://auth');
    expect(Object.fromEntries(back.searchParams)).toEqual({
      host: SITE_URL,
      type: 'oauth',
      credentialToken,
      credentialSecret: config.credentialSecret,
    });
    const signedIn = await login(app, {
      oauth: { credentialToken, credentialSecret: back.searchParams.get('credentialSecret') },
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);

    // Consent denied: back to the app with the error, no pair.
    const state = encodeURIComponent(encodeOAuthState({ credentialToken: newToken(), ...mobile }));
    const denied = await app.inject({ url: `/_oauth/github?state=${state}&error=access_denied` });
    const deniedBack = new URL(pageConfig(denied.body).redirectUrl ?? '');
    expect(deniedBack.searchParams.get('type')).toBe('oauth');
    expect(deniedBack.searchParams.get('error')).toBe('the sign-in was cancelled');
    expect(deniedBack.searchParams.has('credentialSecret')).toBe(false);

    // Off (the default), that return is refused at the start too.
    const webOnly = await h.app();
    const refused = await webOnly.inject({
      url: `/_oauth/github/authorize?state=${encodeURIComponent(encodeOAuthState({ credentialToken: newToken(), ...mobile }))}`,
    });
    expect(refused.statusCode).toBe(400);
    expect(pageMessage(refused.body)).toBe(
      "Sign-in failed: this deployment does not send sign-ins back to Rocket.Chat's mobile app (rocketchat://auth); OAUTH_MOBILE_APP_RETURN is off",
    );

    // Only that address: another scheme or host is no app of Rocket.Chat's.
    for (const redirectUrl of [
      'rocketchat://authority',
      'rocketchat://auth.evil.example/',
      'otherapp://auth',
    ]) {
      const start = await app.inject({
        url: `/_oauth/github/authorize?state=${encodeURIComponent(encodeOAuthState({ credentialToken: newToken(), ...mobile, redirectUrl }))}`,
      });
      expect(start.statusCode, redirectUrl).toBe(400);
    }
  });

  it('a flow the service started finishes only in the browser that started it: a leaked return address takes nothing', async () => {
    const app = await h.app();
    signInAt('oidc');
    h.fake.requirePkce = true;
    const credentialToken = newToken();
    const start = await app.inject({
      url: `/_oauth/keycloak/authorize?state=${encodeURIComponent(encodeOAuthState({ credentialToken }))}`,
    });
    const cookie = cookiesOf(start);
    expect(start.headers['set-cookie']).toMatch(/HttpOnly/i);
    expect(start.headers['set-cookie']).toMatch(/SameSite=Lax/i);
    expect(start.headers['set-cookie']).toMatch(/Path=\/_oauth\//);
    expect(start.headers['set-cookie']).toMatch(/Secure/);
    // A value of the service's own for each flow, whatever the browser brought (a value planted
    // by a neighbouring site would otherwise bind the flow to a browser the planter holds too).
    const planted = cookie.replace(/=[^;]*/, `=${'A'.repeat(43)}`);
    const again = await app.inject({
      url: `/_oauth/keycloak/authorize?state=${encodeURIComponent(encodeOAuthState({ credentialToken: newToken() }))}`,
      headers: { cookie: planted },
    });
    expect(cookiesOf(again)).not.toContain('A'.repeat(43));
    const callback = await atProvider(start.headers.location as string);

    // Someone else loads the address (from a log, a shared screen, a referrer): no pair.
    const otherStart = await app.inject({
      url: `/_oauth/keycloak/authorize?state=${encodeURIComponent(encodeOAuthState({ credentialToken: newToken() }))}`,
    });
    for (const headers of [{}, { cookie: cookiesOf(otherStart) }]) {
      const stolen = await app.inject({ url: callback, headers });
      expect(stolen.statusCode).toBe(400);
      expect(pageConfig(stolen.body).setCredentialToken).toBe(false);
      expect(stolen.body).toContain('started in another browser');
    }
    // The browser that started it still finishes it.
    const result = await app.inject({ url: callback, headers: { cookie } });
    expect(result.statusCode, result.body).toBe(200);
    const pair = pageConfig(result.body);
    const signedIn = await login(app, {
      oauth: { credentialToken, credentialSecret: pair.credentialSecret },
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
  });

  it('a custom (OIDC) service takes only flows it started: a leaked code under another state takes nothing, even from a provider that ignores PKCE', async () => {
    const app = await h.app();
    signInAt('oidc');
    h.fake.requirePkce = false;
    const credentialToken = newToken();
    const start = await app.inject({
      url: `/_oauth/keycloak/authorize?state=${encodeURIComponent(encodeOAuthState({ credentialToken }))}`,
    });
    const callback = new URL(await atProvider(start.headers.location as string), SITE_URL);
    // The code under a state of the attacker's own, for which no flow was started.
    const swapped = new URL(callback);
    swapped.searchParams.set('state', encodeOAuthState({ credentialToken: newToken() }));
    const stolen = await app.inject({ url: `${swapped.pathname}${swapped.search}` });
    expect(stolen.statusCode).toBe(400);
    expect(pageConfig(stolen.body).setCredentialToken).toBe(false);
    expect(stolen.body).toContain('was not started here');
    const result = await app.inject({
      url: `${callback.pathname}${callback.search}`,
      headers: { cookie: cookiesOf(start) },
    });
    expect(result.statusCode, result.body).toBe(200);
    expect(pageConfig(result.body).setCredentialToken).toBe(true);
  });

  it('flows in several tabs each keep their browser binding; under a ROOT_URL with a path, the cookie is for that path', async () => {
    const app = await h.app();
    signInAt('github');
    const starts = [];
    for (let tab = 0; tab < 3; tab++) {
      const credentialToken = newToken();
      const start = await app.inject({
        url: `/_oauth/github/authorize?state=${encodeURIComponent(encodeOAuthState({ credentialToken }))}`,
      });
      starts.push({ start, callback: await atProvider(start.headers.location as string) });
    }
    // The browser sends every cookie it holds for the path.
    const jar = starts.map(({ start }) => cookiesOf(start)).join('; ');
    for (const { callback } of starts.reverse()) {
      const result = await app.inject({ url: callback, headers: { cookie: jar } });
      expect(result.statusCode, result.body).toBe(200);
    }

    const prefixed = await h.app({ siteUrl: 'https://example.test/chat' });
    const start = await prefixed.inject({
      url: `/_oauth/github/authorize?state=${encodeURIComponent(encodeOAuthState({ credentialToken: newToken() }))}`,
    });
    expect(start.headers['set-cookie']).toMatch(/Path=\/chat\/_oauth\/;/);
  });

  it('under a ROOT_URL with a path, every result page loads its script under that path', async () => {
    const prefixed = await h.app({ siteUrl: 'https://example.test/chat' });
    const scriptOf = (html: string) => /<script src="([^"]*)"><\/script>/.exec(html)?.[1];
    signInAt('github');
    h.fake.registeredRedirectUris.set('github', 'https://example.test/chat/_oauth/github');
    const credentialToken = newToken();
    const start = await prefixed.inject({
      url: `/_oauth/github/authorize?state=${encodeURIComponent(encodeOAuthState({ credentialToken }))}`,
    });
    expect(start.statusCode, start.body).toBe(302);
    const back = new URL(
      (await fetch(start.headers.location as string, { redirect: 'manual' })).headers.get(
        'location',
      ) ?? '',
    );
    expect(back.pathname).toBe('/chat/_oauth/github');
    // The proxy strips /chat before the service.
    const signedIn = await prefixed.inject({
      url: `/_oauth/github${back.search}`,
      headers: { cookie: cookiesOf(start) },
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(scriptOf(signedIn.body)).toBe('/chat/packages/oauth/end_of_popup_response.js');
    const redirect = await prefixed.inject({
      url: `/_oauth/github?state=${encodeURIComponent(encodeOAuthState({ credentialToken: newToken(), loginStyle: 'redirect', redirectUrl: 'https://example.test/chat/home' }))}&error=access_denied`,
    });
    expect(scriptOf(redirect.body)).toBe('/chat/packages/oauth/end_of_redirect_response.js');
    // A failure of the route, and one of the router.
    const forged = await prefixed.inject({ url: '/_oauth/github?state=x&code=y' });
    expect(scriptOf(forged.body)).toBe('/chat/packages/oauth/end_of_popup_response.js');
    const broken = await prefixed.inject({ url: '/_oauth/git%E0%A4%A?state=x&code=y' });
    expect(broken.statusCode).toBe(400);
    expect(scriptOf(broken.body)).toBe('/chat/packages/oauth/end_of_popup_response.js');
    // What the browser asks for arrives as /packages/oauth/… once the proxy stripped /chat.
    const script = await prefixed.inject({ url: '/packages/oauth/end_of_popup_response.js' });
    expect(script.statusCode).toBe(200);
    // At the host's root, nothing is put before it.
    const atRoot = await (await h.app()).inject({ url: '/_oauth/github?state=x&code=y' });
    expect(scriptOf(atRoot.body)).toBe('/packages/oauth/end_of_popup_response.js');
  });

  it('a second instance finishes a flow the first started, and a third logs in', async () => {
    const [first, second, third] = [await h.app(), await h.app(), await h.app()];
    signInAt('oidc');
    h.fake.requirePkce = true;
    const credentialToken = newToken();
    const { result } = await runFlow(first, 'keycloak', { credentialToken }, second);
    expect(result.statusCode, result.body).toBe(200);
    const secret = pageConfig(result.body).credentialSecret;
    expect(
      (await login(third, { oauth: { credentialToken, credentialSecret: secret } })).statusCode,
    ).toBe(200);
  });

  it('TOTP: totp-required keeps the pending credential for the retry with a code', async () => {
    const key = randomBytes(32);
    const app = await h.app({ twoFactorKey: key });
    signInAt('github');
    const first = await runFlow(app, 'github', { credentialToken: newToken() });
    const firstPair = pageConfig(first.result.body);
    const signedIn = await login(app, {
      oauth: {
        credentialToken: firstPair.credentialToken,
        credentialSecret: firstPair.credentialSecret,
      },
    });
    const { userId, authToken } = signedIn.json().data;
    const auth = { 'x-user-id': userId, 'x-auth-token': authToken };
    const secret = (
      await app.inject({ method: 'POST', url: '/api/v1/users.2fa.enableTOTP', headers: auth })
    ).json().secret;
    const code = () => totpFor(secret, 'x').generate({ timestamp: h.clock });
    expect(
      (
        await app.inject({
          method: 'POST',
          url: '/api/v1/users.2fa.confirmTOTP',
          headers: auth,
          payload: { code: code() },
        })
      ).statusCode,
    ).toBe(200);
    h.advance(30);

    const credentialToken = newToken();
    const { result } = await runFlow(app, 'github', { credentialToken });
    const oauth = { credentialToken, credentialSecret: pageConfig(result.body).credentialSecret };
    const asked = await login(app, { oauth });
    expect(asked.json().error).toBe('totp-required');
    const withCode = await app.inject({
      method: 'POST',
      url: '/api/v1/login',
      payload: { oauth },
      headers: { 'x-2fa-code': code() },
    });
    expect(withCode.statusCode, withCode.body).toBe(200);

    // Rocket.Chat's mobile app retries with the code in the body, around the body it sent last:
    // after a wrong code, around its own first retry (connect.ts, loginTOTP).
    const pairOfNewFlow = async () => {
      h.advance(30);
      const next = await runFlow(app, 'github', { credentialToken: newToken() });
      const config = pageConfig(next.result.body);
      return { credentialToken: config.credentialToken, credentialSecret: config.credentialSecret };
    };
    const pair = await pairOfNewFlow();
    expect((await login(app, { oauth: pair })).json().error).toBe('totp-required');
    const wrapped = await login(app, { totp: { login: { oauth: pair }, code: code() } });
    expect(wrapped.statusCode, wrapped.body).toBe(200);
    expect(wrapped.json().data.userId).toBe(userId);

    const retried = await pairOfNewFlow();
    const firstRetry = { totp: { login: { oauth: retried }, code: '000000' } };
    const wrong = await login(app, firstRetry);
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toBe('totp-invalid');
    const again = await login(app, { totp: { login: firstRetry, code: '111111' } });
    expect(again.json().error).toBe('totp-invalid');
    const nested = await login(app, {
      totp: { login: { totp: { login: firstRetry, code: '111111' } }, code: code() },
    });
    expect(nested.statusCode, nested.body).toBe(200);
    expect(nested.json().data.userId).toBe(userId);

    // What such a body may wrap: a sign-in this service offers, once.
    let deep: object = { oauth: pair };
    for (let level = 0; level < 17; level++) deep = { totp: { login: deep, code: '1' } };
    for (const [body, error] of [
      [
        { totp: { login: { user: 'alice', password: 'secret' }, code: '1' } },
        'password-login-unavailable',
      ],
      [{ totp: { login: { resume: 'a-saved-token' }, code: '1' } }, 'invalid-request'],
      [{ totp: { login: { oauth: pair } } }, 'invalid-request'],
      [{ totp: { login: { totp: { login: { oauth: pair } } }, code: '1' } }, 'invalid-request'],
      [{ totp: { code: '123456' } }, 'invalid-request'],
      [{ totp: { login: { oauth: pair }, code: '1' }, resume: { $ne: 1 } }, 'invalid-request'],
      [deep, 'invalid-request'],
    ] as const) {
      const refused = await login(app, body);
      expect(refused.statusCode, JSON.stringify(body).slice(0, 200)).toBe(400);
      expect(refused.json().error).toBe(error);
    }
  });

  it('a flow past its time, or returned to already, stays refused after the expired rows are purged (it started afresh)', async () => {
    const app = await h.app();
    signInAt('github');
    h.fake.requirePkce = false; // a provider that does not insist: the service alone refuses
    const late = newToken();
    const start = await app.inject({
      url: `/_oauth/github/authorize?state=${encodeURIComponent(encodeOAuthState({ credentialToken: late }))}`,
    });
    const lateCallback = await atProvider(start.headers.location as string);
    const used = newToken();
    const { callback: usedCallback, result } = await runFlow(app, 'github', {
      credentialToken: used,
    });
    expect(result.statusCode).toBe(200);
    h.advance(1800); // past OAUTH_FLOW_TTL and the credential's time, within the hour kept
    await purgeExpired(h.store.db, new Date(h.clock));
    for (const callback of [lateCallback, usedCallback]) {
      const again = await app.inject({ url: callback });
      expect(again.statusCode, callback).toBe(400);
      expect(again.body).toContain('already completed, or has expired');
    }
  });

  it('the result scripts are served as files; an unknown service has no flow', async () => {
    const app = await h.app();
    const script = await app.inject({ url: '/packages/oauth/end_of_popup_response.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toContain('javascript');
    expect(script.body).toContain('localStorage');
    expect((await app.inject({ url: '/packages/oauth/constructor' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/_oauth/nope?code=x&state=y' })).statusCode).toBe(404);
    // Twitter (OAuth 1.0a) has no redirect flow here.
    expect((await app.inject({ url: '/_oauth/twitter?code=x&state=y' })).statusCode).toBe(404);
  });
});

describe('OpenID Connect: the ID token is bound to the flow that started it (nonce)', () => {
  /** Starts a keycloak flow in a browser of its own; returns its cookie and the provider's return. */
  async function startAt(app: FastifyInstance, credentialToken = newToken()) {
    const start = await app.inject({
      url: `/_oauth/keycloak/authorize?state=${encodeURIComponent(encodeOAuthState({ credentialToken }))}`,
    });
    expect(start.statusCode, start.body).toBe(302);
    return { credentialToken, start, cookie: cookiesOf(start) };
  }

  it('each authorization request carries a fresh nonce of 256 random bits', async () => {
    const app = await h.app();
    signInAt('oidc');
    const nonces = [];
    for (let flow = 0; flow < 3; flow++) {
      const { start } = await startAt(app);
      nonces.push(new URL(start.headers.location as string).searchParams.get('nonce'));
    }
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set(nonces).size).toBe(3);
  });

  for (const [what, claims] of [
    ['another nonce than the flow’s', { nonce: randomBytes(32).toString('base64url') }],
    ['no nonce', { nonce: undefined }],
  ] as const) {
    it(`an ID token with ${what} is refused: a failure page, no credential secret`, async () => {
      const app = await h.app();
      signInAt('oidc');
      h.fake.codeIdTokenClaims = claims;
      const { start, cookie, credentialToken } = await startAt(app);
      const callback = await atProvider(start.headers.location as string);
      const result = await app.inject({ url: callback, headers: { cookie } });
      expect(result.statusCode, result.body).toBe(401);
      expect(pageConfig(result.body).setCredentialToken).toBe(false);
      expect(pageConfig(result.body).credentialSecret).toBeUndefined();
      expect(pageMessage(result.body)).toContain('"nonce"');
      const row = await h.store.db
        .selectFrom('oauth_pending_credentials')
        .select(['secret_hash', 'identity'])
        .where('credential_token', '=', credentialToken)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ secret_hash: null, identity: null });
    });
  }

  for (const pkce of ['ignores', 'checks'] as const) {
    it(`a victim’s leaked return address: the attacker’s own flow (his state, his cookie) cannot redeem the code, from a provider that ${pkce} PKCE`, async () => {
      const app = await h.app();
      const victim = accounts.keycloak(h.fake, 'victim-0000-4000-8000-000000000001');
      h.fake.signedIn.set('oidc', victim.accessToken);
      h.fake.registeredRedirectUris.set('oidc', `${SITE_URL}/_oauth/keycloak`);
      h.fake.ignorePkce = pkce === 'ignores';
      // The victim starts; the provider's return to their browser leaks (a log, a referrer).
      const started = await startAt(app);
      const leaked = new URL(await atProvider(started.start.headers.location as string), SITE_URL);
      const code = leaked.searchParams.get('code') ?? '';
      // The same credentialToken cannot be started again while the victim's flow waits.
      const sameToken = await app.inject({
        url: `/_oauth/keycloak/authorize?state=${encodeURIComponent(encodeOAuthState({ credentialToken: started.credentialToken }))}`,
      });
      expect(sameToken.statusCode).toBe(400);
      // The attacker starts a flow of his own in his browser (never sent on to the provider)...
      const attacker = await startAt(app);
      // ...and brings the victim's code back under his state, with his cookie.
      const result = await app.inject({
        url: `/_oauth/keycloak?code=${encodeURIComponent(code)}&state=${encodeURIComponent(encodeOAuthState({ credentialToken: attacker.credentialToken }))}`,
        headers: { cookie: attacker.cookie },
      });
      expect(result.statusCode, result.body).toBe(401);
      const config = pageConfig(result.body);
      expect(config.setCredentialToken).toBe(false);
      expect(config.credentialSecret).toBeUndefined();
      expect(pageMessage(result.body)).toMatch(
        pkce === 'ignores' ? /"nonce"/ : /refused the authorization code/,
      );
      const users = await h.store.db.selectFrom('users').select('provider_user_id').execute();
      expect(users.map((user) => user.provider_user_id)).not.toContain(
        'victim-0000-4000-8000-000000000001',
      );
    });
  }

  it('a provider without introspection (Microsoft Entra ID, Auth0) completes the flow: the ID token says who, userinfo adds the profile', async () => {
    const app = await h.app();
    signInAt('oidc');
    h.fake.discoveryOverrides = { introspection_endpoint: undefined };
    const { credentialToken, start, cookie } = await startAt(app);
    const callback = await atProvider(start.headers.location as string);
    const result = await app.inject({ url: callback, headers: { cookie } });
    expect(result.statusCode, result.body).toBe(200);
    expect(h.fake.calls).not.toContain('/oidc/introspect');
    expect(h.fake.calls).toContain('/oidc/userinfo');
    const signedIn = await login(app, {
      oauth: { credentialToken, credentialSecret: pageConfig(result.body).credentialSecret },
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json().data.me).toMatchObject({ username: 'linus', name: 'Linus Torvalds' });
  });

  it('a provider that does not announce PKCE S256 is warned of once, and its sign-ins still work', async () => {
    const lines: string[] = [];
    const app = await buildApp(testConfig(h.fake.url), {
      store: h.store,
      logger: chatLogger('info', { write: (line: string) => lines.push(line) > 0 }),
    });
    onTestFinished(() => app.close());
    signInAt('oidc');
    const warnings = () =>
      lines
        .filter((line) => line.includes('does not announce PKCE S256'))
        .map((line) => JSON.parse(line));
    await startAt(app);
    expect(warnings()).toEqual([]);

    // Another instance reads a document without code_challenge_methods_supported.
    const other = await buildApp(testConfig(h.fake.url), {
      store: h.store,
      logger: chatLogger('info', { write: (line: string) => lines.push(line) > 0 }),
    });
    onTestFinished(() => other.close());
    h.fake.discoveryOverrides = { code_challenge_methods_supported: undefined };
    const { start, cookie } = await startAt(other);
    await startAt(other);
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toMatchObject({
      level: 40,
      service: 'keycloak',
      msg: expect.stringContaining(
        'The identity provider "keycloak" does not announce PKCE S256 (code_challenge_methods_supported absent)',
      ),
    });
    const result = await other.inject({
      url: await atProvider(start.headers.location as string),
      headers: { cookie },
    });
    expect(result.statusCode, result.body).toBe(200);
  });

  it('userinfo naming another user than the ID token is refused', async () => {
    const app = await h.app();
    signInAt('oidc');
    h.fake.codeIdTokenClaims = { sub: 'someone-else' };
    const { start, cookie } = await startAt(app);
    const callback = await atProvider(start.headers.location as string);
    const result = await app.inject({ url: callback, headers: { cookie } });
    expect(result.statusCode, result.body).toBe(401);
    expect(pageConfig(result.body).setCredentialToken).toBe(false);
  });
});

describe('the redirect flow answers with its result page, never raw JSON', () => {
  it('a display name with a lone surrogate signs in, the surrogate replaced (U+FFFD) as a token login stores it', async () => {
    const app = await h.app();
    signInAt('github');
    const token = accounts.github(h.fake, 610_001, 'eve').accessToken;
    const account = h.fake.github.get(token);
    if (account) account.user.name = 'Eve \ud800 X';
    h.fake.signedIn.set('github', token);
    const credentialToken = newToken();
    const { result } = await runFlow(app, 'github', { credentialToken });
    expect(result.statusCode, result.body).toBe(200);
    const signedIn = await login(app, {
      oauth: { credentialToken, credentialSecret: pageConfig(result.body).credentialSecret },
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json().data.me.name).toBe('Eve \ufffd X');
  });

  it('an unexpected failure (the store refusing a statement) is a failure page with status 500', async () => {
    // The pending credential's write fails, as an error no route expects.
    const failingWrites: KyselyPlugin = {
      transformQuery: ({ node }) => {
        if (UpdateQueryNode.is(node)) throw new Error('the store refused the statement');
        return node;
      },
      transformResult: async ({ result }) => result,
    };
    const app = await buildApp(testConfig(h.fake.url), {
      store: { ...h.store, db: h.store.db.withPlugin(failingWrites) },
    });
    onTestFinished(() => app.close());
    signInAt('github');
    const credentialToken = newToken();
    // A flow the client started at the provider: its return inserts a row, then the write fails.
    const result = await app.inject({
      url: await atProvider(startedAtProvider('github', { credentialToken })),
    });
    expect(result.statusCode).toBe(500);
    expect(result.headers['content-type']).toContain('text/html');
    expect(result.headers['content-security-policy']).toContain("script-src 'self'");
    expect(pageConfig(result.body).setCredentialToken).toBe(false);
    expect(result.body).toContain('Sign-in failed');
  });

  it('a provider failing at the start is a failure page (502), and the same state can be tried again', async () => {
    const app = await h.app();
    signInAt('oidc');
    const credentialToken = newToken();
    const startUrl = `/_oauth/keycloak/authorize?state=${encodeURIComponent(encodeOAuthState({ credentialToken }))}`;
    h.fake.discoveryFault = 'server-error';
    const down = await app.inject({ url: startUrl });
    expect(down.statusCode).toBe(502);
    expect(down.headers['content-type']).toContain('text/html');
    expect(pageMessage(down.body)).toMatch(/^Sign-in failed: .*keycloak/);
    h.fake.discoveryFault = undefined;
    const retried = await app.inject({ url: startUrl });
    expect(retried.statusCode, retried.body).toBe(302);
    const callback = await atProvider(retried.headers.location as string);
    const result = await app.inject({ url: callback, headers: { cookie: cookiesOf(retried) } });
    expect(result.statusCode, result.body).toBe(200);
  });

  it('an authorization endpoint that is no URL is a failure page (502) naming it; the state stays usable', async () => {
    const app = await h.app();
    signInAt('oidc');
    h.fake.discoveryOverrides = { authorization_endpoint: 'http://bad host/authorize' };
    const credentialToken = newToken();
    const startUrl = `/_oauth/keycloak/authorize?state=${encodeURIComponent(encodeOAuthState({ credentialToken }))}`;
    const broken = await app.inject({ url: startUrl });
    expect(broken.statusCode).toBe(502);
    expect(broken.headers['content-type']).toContain('text/html');
    expect(pageMessage(broken.body)).toBe(
      'Sign-in failed: The identity provider "keycloak" announces an authorization_endpoint that is not a URL: the redirect flow cannot be used',
    );
    // The discovery document is kept an hour: another instance, as after the provider's fix.
    h.fake.discoveryOverrides = {};
    const fixed = await (await h.app()).inject({ url: startUrl });
    expect(fixed.statusCode, fixed.body).toBe(302);
  });

  it("a provider error shows the fixed sentence for its code even for a flow started here in this browser (anyone can start one: the start is a GET); the provider's words go to the log, without control or format characters", async () => {
    const lines: string[] = [];
    const app = await buildApp(testConfig(h.fake.url), {
      store: h.store,
      logger: chatLogger('info', { write: (line: string) => lines.push(line) > 0 }),
    });
    onTestFinished(() => app.close());
    signInAt('oidc');
    const credentialToken = newToken();
    const state = encodeURIComponent(encodeOAuthState({ credentialToken }));
    // What a crafted page can do in a person's browser: navigate it to the start with a state it
    // chose (the cookie is set), then to a return carrying its own words.
    const start = await app.inject({ url: `/_oauth/keycloak/authorize?state=${state}` });
    expect(start.statusCode, start.body).toBe(302);
    const description =
      'Zugriff verweigert: <Größe>\u202e überschritten\u200f\u2066\u00ad call +1 555 0100';
    const described = await app.inject({
      url: `/_oauth/keycloak?state=${state}&error=server_error&error_description=${encodeURIComponent(description)}`,
      headers: { cookie: cookiesOf(start) },
    });
    expect(described.statusCode).toBe(400);
    expect(described.headers['content-type']).toContain('text/html');
    expect(pageMessage(described.body)).toBe(
      'Sign-in failed: the identity provider failed; start again later',
    );
    expect(described.body).not.toContain('Zugriff');
    expect(described.body).not.toContain('555');
    // The operator reads what the provider said.
    const logged = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((entry) => entry.providerError === 'server_error');
    expect(logged).toMatchObject({
      service: 'keycloak',
      providerError: 'server_error',
      providerErrorDescription: 'Zugriff verweigert: <Größe> überschritten call +1 555 0100',
    });
    const overlong = await app.inject({
      url: `/_oauth/github?state=${state}&code=${'c'.repeat(2049)}`,
    });
    expect(overlong.statusCode).toBe(400);
    expect(overlong.headers['content-type']).toContain('text/html');
    expect(pageMessage(overlong.body)).toMatch(/^Sign-in failed: /);
    expect(pageConfig(overlong.body).setCredentialToken).toBe(false);
  });

  it('a crafted return link shows none of its own words: a provider error is a fixed sentence for its code', async () => {
    const app = await h.app();
    const spoof = `your account is suspended. To restore access call +1 555 0100 \u202eremoc eht\u202c ${'x'.repeat(900)}`;
    const cases = [
      [
        'account_suspended',
        'Sign-in failed: the identity provider refused the sign-in; start again',
      ],
      ['server_error', 'Sign-in failed: the identity provider failed; start again later'],
      [
        'temporarily_unavailable',
        'Sign-in failed: the identity provider is unavailable for now; start again later',
      ],
      [
        'invalid_scope',
        'Sign-in failed: the identity provider refused the access this service asks for',
      ],
      [
        'call +1 555 0100 now',
        'Sign-in failed: the identity provider refused the sign-in; start again',
      ],
      ['constructor', 'Sign-in failed: the identity provider refused the sign-in; start again'],
      ['__proto__', 'Sign-in failed: the identity provider refused the sign-in; start again'],
    ] as const;
    for (const [error, shown] of cases) {
      // Any well-formed state, never started here.
      const state = encodeURIComponent(encodeOAuthState({ credentialToken: newToken() }));
      const page = await app.inject({
        url: `/_oauth/github?state=${state}&error=${encodeURIComponent(error)}&error_description=${encodeURIComponent(spoof)}`,
      });
      expect(page.statusCode, error).toBe(400);
      expect(page.headers['content-type']).toContain('text/html');
      expect(pageMessage(page.body), error).toBe(shown);
      expect(page.body).not.toContain('suspended');
      expect(page.body).not.toContain('555');
      expect(page.body).not.toContain('\u202e');
    }
    // A flow started here, but the link opened in another browser (no cookie): the same.
    signInAt('oidc');
    const state = encodeURIComponent(encodeOAuthState({ credentialToken: newToken() }));
    const start = await app.inject({ url: `/_oauth/keycloak/authorize?state=${state}` });
    expect(start.statusCode, start.body).toBe(302);
    const elsewhere = await app.inject({
      url: `/_oauth/keycloak?state=${state}&error=server_error&error_description=${encodeURIComponent(spoof)}`,
    });
    expect(pageMessage(elsewhere.body)).toBe(
      'Sign-in failed: the identity provider failed; start again later',
    );
  });

  it('failure pages say in plain words what is wrong with the address, or which step refused', async () => {
    const app = await h.app();
    const state = encodeURIComponent(encodeOAuthState({ credentialToken: newToken() }));
    const cases = [
      [
        `/_oauth/github?close=1&state=${state}&code=c`,
        'Sign-in failed: the return address has a value for "close", where this service gives out "?close" with none; start again from the application',
      ],
      [
        `/_oauth/github?state=${state}&state=${state}&code=c`,
        'Sign-in failed: the address holds the sign-in state (state) more than once; start again from the application',
      ],
      [
        `/_oauth/github?state=${state}&code=${'c'.repeat(2049)}`,
        "Sign-in failed: the identity provider's code (code) in the address is longer than 2048 characters; start again from the application",
      ],
      [
        `/_oauth/github?state=${state}&code=a%0Ab`,
        "Sign-in failed: the identity provider's code (code) in the address holds characters it never has; start again from the application",
      ],
      [
        `/_oauth/github?state=${'s'.repeat(4097)}&code=c`,
        'Sign-in failed: the sign-in state (state) in the address is longer than 4096 characters; start again from the application',
      ],
      [
        '/_oauth/github/authorize',
        'Sign-in failed: the address has no sign-in state (state); start again from the application',
      ],
      [
        `/_oauth/keycloak/authorize?state=${state}&response_type=token`,
        'Sign-in failed: the address asks for a response_type other than "code", the only one this service signs in with; start again from the application',
      ],
    ] as const;
    for (const [url, shown] of cases) {
      const page = await app.inject({ url });
      expect(page.statusCode, url).toBe(400);
      expect(page.headers['content-type'], url).toContain('text/html');
      expect(pageMessage(page.body), url).toBe(shown);
    }

    // A code of a keycloak flow delivered to GitHub's return: it was never completed.
    signInAt('oidc');
    signInAt('github');
    h.fake.requirePkce = true;
    const credentialToken = newToken();
    const { callback, cookie } = await (async () => {
      const start = await app.inject({
        url: `/_oauth/keycloak/authorize?state=${encodeURIComponent(encodeOAuthState({ credentialToken }))}`,
      });
      return {
        callback: await atProvider(start.headers.location as string),
        cookie: cookiesOf(start),
      };
    })();
    const elsewhere = await app.inject({
      url: callback.replace('/_oauth/keycloak', '/_oauth/github'),
      headers: { cookie },
    });
    expect(elsewhere.statusCode).toBe(400);
    expect(pageMessage(elsewhere.body)).toBe(
      'Sign-in failed: this sign-in was started with another service than github; start again from the application',
    );
    // Its own service still finishes it.
    const finished = await app.inject({ url: callback, headers: { cookie } });
    expect(finished.statusCode, finished.body).toBe(200);

    // A code the provider refuses reads the same for every provider.
    const oidcState = encodeURIComponent(encodeOAuthState({ credentialToken: newToken() }));
    const oidcStart = await app.inject({ url: `/_oauth/keycloak/authorize?state=${oidcState}` });
    const refusedByOidc = await app.inject({
      url: `/_oauth/keycloak?state=${oidcState}&code=not-issued`,
      headers: { cookie: cookiesOf(oidcStart) },
    });
    const refusedByGithub = await app.inject({
      url: `/_oauth/github?state=${encodeURIComponent(encodeOAuthState({ credentialToken: newToken() }))}&code=not-issued`,
    });
    for (const [service, refused] of [
      ['keycloak', refusedByOidc],
      ['github', refusedByGithub],
    ] as const) {
      expect(refused.statusCode, refused.body).toBe(401);
      expect(pageMessage(refused.body)).toBe(
        `Sign-in failed: The identity provider "${service}" refused the authorization code`,
      );
    }
  });

  it("the router's own refusals under /_oauth/ (an overlong service name, a broken escape) are failure pages too", async () => {
    const app = await h.app();
    const state = encodeURIComponent(encodeOAuthState({ credentialToken: newToken() }));
    for (const [url, status] of [
      [`/_oauth/${'s'.repeat(300)}?state=${state}&code=x`, 414],
      [`/_oauth/${'s'.repeat(300)}/authorize?state=${state}`, 414],
      [`/_oauth/git%E0%A4%A?state=${state}&code=x`, 400],
    ] as const) {
      const refused = await app.inject({ url });
      expect(refused.statusCode, url).toBe(status);
      expect(refused.headers['content-type'], url).toContain('text/html');
      expect(refused.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(refused.headers['cache-control']).toBe('no-store');
      expect(pageMessage(refused.body)).toMatch(/^Sign-in failed: /);
      expect(pageConfig(refused.body).setCredentialToken).toBe(false);
    }
    // Elsewhere the same refusals keep the API's JSON shape.
    const api = await app.inject({ url: `/avatar/${'a'.repeat(300)}` });
    expect(api.statusCode).toBe(414);
    expect(api.headers['content-type']).toContain('application/json');
  });
});
