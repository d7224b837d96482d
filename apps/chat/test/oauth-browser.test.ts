/// <reference lib="dom" />
import { randomBytes } from 'node:crypto';
import { createServer, request as forward, type Server } from 'node:http';
import { RestClient } from '@rocket.chat/api-client';
import type { FastifyInstance } from 'fastify';
import { type Browser, chromium, type Page, type Request, type Response } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from './support/accounts.js';
import { browserTestsRun, CHROMIUM } from './support/browser.js';
import { freePort, Harness } from './support/harness.js';

/**
 * Rocket.Chat's sign-in button, in a real browser (Debian's chromium, headless): the client page
 * makes a credentialToken, opens the service's start of the flow (settings.oauth's
 * authorizePath) in a popup or the same tab, the fake provider's authorize endpoint sends the
 * browser back to `/_oauth/<service>`, the result page hands over the secret, and the client logs
 * in with `{"oauth": …}` through Rocket.Chat's api-client.
 */
const PREFIX = 'Meteor.oauth.credentialSecret-';

const runBrowser = browserTestsRun('the browser tests of the OAuth redirect');

let h: Harness;
let browser: Browser;

interface Deployment {
  rootUrl: string;
  /** Instances behind the one public URL: `[0]` listens on it, the others on ports of their own. */
  instances: { app: FastifyInstance; url: string }[];
}

async function deployment(
  count = 1,
  extraRedirectOrigin?: (port: number) => string,
): Promise<Deployment> {
  const ports = await Promise.all(Array.from({ length: count }, freePort));
  const rootUrl = `http://127.0.0.1:${ports[0]}`;
  const oauth = extraRedirectOrigin && {
    flowSeconds: 600,
    credentialSeconds: 120,
    redirectOrigins: [rootUrl, extraRedirectOrigin(ports[0] as number)],
    mobileAppReturn: true,
  };
  const instances = [];
  for (const port of ports) {
    const app = await h.app({ siteUrl: rootUrl, ...(oauth ? { oauth } : {}) });
    await app.listen({ host: '127.0.0.1', port });
    instances.push({ app, url: `http://127.0.0.1:${port}` });
  }
  h.fake.registeredRedirectUris.set('github', `${rootUrl}/_oauth/github`);
  h.fake.signedIn.set('github', accounts.github(h.fake).accessToken);
  h.fake.requirePkce = true;
  return { rootUrl, instances };
}

/**
 * A deployment under a path: the public address is `http://127.0.0.1:<port>/chat`, and a proxy
 * strips `/chat` before the service; nothing else on the host is routed to it.
 */
async function prefixedDeployment(): Promise<{ rootUrl: string; proxy: Server }> {
  const [servicePort, proxyPort] = await Promise.all([freePort(), freePort()]);
  const rootUrl = `http://127.0.0.1:${proxyPort}/chat`;
  const app = await h.app({ siteUrl: rootUrl });
  await app.listen({ host: '127.0.0.1', port: servicePort });
  const proxy = createServer((incoming, answer) => {
    if (!incoming.url?.startsWith('/chat/')) {
      answer.writeHead(404, { 'content-type': 'text/plain' }).end('not routed here');
      return;
    }
    const upstream = forward(
      {
        host: '127.0.0.1',
        port: servicePort,
        path: incoming.url.slice('/chat'.length),
        method: incoming.method,
        headers: incoming.headers,
      },
      (served) => {
        answer.writeHead(served.statusCode ?? 502, served.headers);
        served.pipe(answer);
      },
    );
    upstream.on('error', () => answer.writeHead(502).end());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(proxyPort, '127.0.0.1', resolve));
  h.fake.registeredRedirectUris.set('oidc', `${rootUrl}/_oauth/keycloak`);
  h.fake.signedIn.set('oidc', accounts.keycloak(h.fake).accessToken);
  h.fake.requirePkce = true;
  return { rootUrl, proxy };
}

/** The authorization URL as Rocket.Chat's client builds it from settings.oauth. */
async function authorizeUrl(base: string, state: object) {
  const settings = (await (await fetch(`${base}/api/v1/settings.oauth`)).json()) as {
    services: {
      service: string;
      clientId: string;
      authorizePath: string;
      redirectUri: string;
      scope: string;
    }[];
  };
  const github = settings.services.find((entry) => entry.service === 'github');
  if (!github) throw new Error('no github in settings.oauth');
  const url = new URL(github.authorizePath, base);
  url.searchParams.set('client_id', github.clientId);
  url.searchParams.set('redirect_uri', github.redirectUri);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', github.scope);
  url.searchParams.set('state', Buffer.from(JSON.stringify(state)).toString('base64'));
  return url.toString();
}

/** Opens the flow in a popup from a page of the deployment, as the web client does. */
async function popupFlow(page: Page, rootUrl: string, startBase = rootUrl) {
  const credentialToken = randomBytes(32).toString('base64url');
  await page.goto(`${rootUrl}/health`);
  const url = await authorizeUrl(startBase, {
    loginStyle: 'popup',
    credentialToken,
    isCordova: false,
  });
  // Every navigation the popup makes, redirects included: listened for on the context before the
  // popup opens, because the popup's first hops can finish before its 'popup' event is handled.
  const landed: string[] = [];
  const onRequest = (request: Request) => {
    if (request.isNavigationRequest()) landed.push(request.url());
  };
  page.context().on('request', onRequest);
  const popupOpened = page.waitForEvent('popup');
  await page.evaluate((target) => {
    window.open(target, 'Login', 'width=600,height=600');
  }, url);
  const popup = await popupOpened;
  if (!popup.isClosed()) await popup.waitForEvent('close', { timeout: 10_000 });
  page.context().off('request', onRequest);
  const secret = await page.evaluate(
    (key) => window.localStorage.getItem(key),
    PREFIX + credentialToken,
  );
  return { credentialToken, secret, landed };
}

async function logInWith(base: string, credentialToken: string, credentialSecret: string) {
  const rest = new RestClient({ baseUrl: base });
  return (await rest.post(
    '/v1/login' as never,
    { oauth: { credentialToken, credentialSecret } } as never,
  )) as {
    status: string;
    data: { userId: string; authToken: string; me: { username: string } };
  };
}

describe.skipIf(!runBrowser)('Rocket.Chat sign-in in a real browser', () => {
  beforeAll(async () => {
    h = await Harness.open();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    // A browser's start is slow on a loaded machine; the tests themselves take seconds.
  }, 120_000);
  afterEach(() => h.reset());
  afterAll(async () => {
    await browser?.close();
    await h.close();
  });

  it('popup style: the popup closes, the secret is in localStorage, api-client logs in', async () => {
    const { rootUrl } = await deployment();
    const page = await browser.newPage();
    const { credentialToken, secret, landed } = await popupFlow(page, rootUrl);
    expect(landed.some((url) => url.startsWith(`${rootUrl}/_oauth/github?`))).toBe(true);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const answer = await logInWith(rootUrl, credentialToken, secret as string);
    expect(answer.status).toBe('success');
    expect(answer.data.me.username).toBe('octocat');
    await expect(logInWith(rootUrl, credentialToken, secret as string)).rejects.toBeDefined();
    await page.close();
  });

  it('redirect style: back to the client page, the secret in sessionStorage', async () => {
    const { rootUrl } = await deployment();
    const page = await browser.newPage();
    const credentialToken = randomBytes(32).toString('base64url');
    const redirectUrl = `${rootUrl}/health`;
    await page.goto(
      await authorizeUrl(rootUrl, {
        loginStyle: 'redirect',
        credentialToken,
        isCordova: false,
        redirectUrl,
      }),
    );
    await page.waitForURL(redirectUrl, { timeout: 10_000 });
    const secret = await page.evaluate(
      (key) => window.sessionStorage.getItem(key),
      PREFIX + credentialToken,
    );
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await logInWith(rootUrl, credentialToken, secret as string)).status).toBe('success');
    await page.close();
  });

  it('redirect style to an OAUTH_REDIRECT_ORIGINS origin: the tab goes there without the secret, which waits in ROOT_URL’s origin for the tab’s return', async () => {
    // The same service under another name: another origin, as far as the browser is concerned.
    const { rootUrl } = await deployment(1, (port) => `http://localhost:${port}`);
    const otherOrigin = rootUrl.replace('127.0.0.1', 'localhost');
    const page = await browser.newPage();
    const credentialToken = randomBytes(32).toString('base64url');
    const redirectUrl = `${otherOrigin}/health?back=1`;
    await page.goto(
      await authorizeUrl(rootUrl, {
        loginStyle: 'redirect',
        credentialToken,
        isCordova: false,
        redirectUrl,
      }),
    );
    await page.waitForURL(redirectUrl, { timeout: 10_000 });
    const readSecret = () =>
      page.evaluate((key) => window.sessionStorage.getItem(key), PREFIX + credentialToken);
    expect(page.url()).not.toContain(credentialToken);
    expect(await readSecret()).toBeNull();
    // The tab comes back to the client at ROOT_URL's origin: the secret is there.
    await page.goto(`${rootUrl}/health`);
    const secret = await readSecret();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await logInWith(rootUrl, credentialToken, secret as string)).status).toBe('success');
    await page.close();
  });

  it('denied consent: the popup closes and no secret is handed over', async () => {
    const { rootUrl } = await deployment();
    h.fake.consent = 'deny';
    const page = await browser.newPage();
    const { secret, landed } = await popupFlow(page, rootUrl);
    expect(landed.some((url) => url.includes('error=access_denied'))).toBe(true);
    expect(secret).toBeNull();
    await page.close();
  });

  it('a failure in a popup stays open with its reason and a close button; the opener learns of it when it closes', async () => {
    const { rootUrl } = await deployment();
    const page = await browser.newPage();
    await page.goto(`${rootUrl}/health`);
    // A flow started in another browser: the return comes without the start's cookie.
    const credentialToken = randomBytes(32).toString('base64url');
    const start = await fetch(
      await authorizeUrl(rootUrl, { loginStyle: 'popup', credentialToken, isCordova: false }),
      { redirect: 'manual' },
    );
    const atProvider = await fetch(start.headers.get('location') ?? '', { redirect: 'manual' });
    const callback = atProvider.headers.get('location') ?? '';
    const popupOpened = page.waitForEvent('popup');
    // As Meteor's client waits: polling until the popup is closed, then looking for the secret.
    await page.evaluate(
      ([target, token]) => {
        const popup = window.open(target, 'Login', 'width=600,height=600');
        (window as unknown as { outcome: Promise<string | null> }).outcome = new Promise(
          (resolve) => {
            const poll = setInterval(() => {
              if (popup?.closed) {
                clearInterval(poll);
                resolve(window.localStorage.getItem(`Meteor.oauth.credentialSecret-${token}`));
              }
            }, 100);
          },
        );
      },
      [callback, credentialToken] as const,
    );
    const popup = await popupOpened;
    await popup.waitForLoadState();
    await popup.waitForTimeout(1_000);
    expect(popup.isClosed()).toBe(false);
    expect(await popup.locator('#message').textContent()).toBe(
      'Sign-in failed: this sign-in was started in another browser; finish it there, or start again here',
    );
    expect(await popup.getByText('Login completed').isVisible()).toBe(false);
    const close = popup.getByRole('button', { name: 'Close this window' });
    expect(await close.isVisible()).toBe(true);
    // SCREENSHOT_DIR=/tmp npx vitest run test/oauth-browser.test.ts: the page as a person sees it.
    if (process.env.SCREENSHOT_DIR) {
      await popup.screenshot({ path: `${process.env.SCREENSHOT_DIR}/chat-failure-popup.png` });
    }
    await Promise.all([
      popup.waitForEvent('close', { timeout: 5_000 }),
      // The click closes the page it is on: Playwright may find the page gone before the click
      // returns, which is the outcome wanted, not a failure.
      close.click().catch((error: unknown) => {
        if (!popup.isClosed()) throw error;
      }),
    ]);
    expect(
      await page.evaluate(() => (window as unknown as { outcome: Promise<string | null> }).outcome),
    ).toBeNull();

    // The same page in a tab of its own: the reason, and nothing claiming success.
    const tab = await browser.newPage();
    await tab.goto(callback);
    expect(await tab.locator('#message').textContent()).toContain('Sign-in failed');
    expect(await tab.getByText('Login completed').isVisible()).toBe(false);
    await tab.close();
    await page.close();
  });

  it('a forged state and a replayed return show a failure page and hand over nothing', async () => {
    const { rootUrl } = await deployment();
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(
      `${rootUrl}/_oauth/github?code=abc&state=${encodeURIComponent('{"credentialToken":"x"}')}`,
    );
    expect(await page.locator('#message').textContent()).toContain('Sign-in failed');

    const { landed } = await popupFlow(page, rootUrl);
    const callback = landed.find((url) => url.startsWith(`${rootUrl}/_oauth/github?`));
    expect(callback).toBeDefined();
    await page.evaluate(() => window.localStorage.clear());
    await page.goto(callback as string);
    expect(await page.locator('#message').textContent()).toContain('already completed');
    expect(await page.evaluate(() => window.localStorage.length)).toBe(0);
    // The page's CSP let nothing inline run, and nothing was refused on the way.
    expect(errors.filter((text) => /Content Security Policy/i.test(text))).toEqual([]);
    await page.close();
  });

  it('under a ROOT_URL with a path behind a proxy that strips it: the popup hands the secret over, in both the web and the mobile web view (isCordova) styles', async () => {
    const { rootUrl, proxy } = await prefixedDeployment();
    try {
      const page = await browser.newPage();
      // A page of the client, at the deployment's address.
      await page.route(`${rootUrl}/client.html`, (route) =>
        route.fulfill({ status: 200, contentType: 'text/html', body: '<p>client</p>' }),
      );
      await page.goto(`${rootUrl}/client.html`);
      const settings = (await (await fetch(`${rootUrl}/api/v1/settings.oauth`)).json()) as {
        services: { service: string; serverURL?: string; authorizePath?: string }[];
      };
      const keycloak = settings.services.find((entry) => entry.service === 'keycloak');
      expect(keycloak?.serverURL).toBe(rootUrl);
      for (const isCordova of [false, true]) {
        const credentialToken = randomBytes(32).toString('base64url');
        const state = Buffer.from(
          JSON.stringify({ loginStyle: 'popup', credentialToken, isCordova }),
        ).toString('base64');
        // Rocket.Chat's CustomOAuth: serverURL + authorizePath.
        const url = `${keycloak?.serverURL}${keycloak?.authorizePath}?state=${encodeURIComponent(state)}`;
        const failed: string[] = [];
        const onResponse = (response: Response) => {
          if (response.status() >= 400) failed.push(`${response.url()} ${response.status()}`);
        };
        // Listened for on the context before the popup opens: its first hops can finish before
        // its 'popup' event is handled.
        page.context().on('response', onResponse);
        const popupOpened = page.waitForEvent('popup');
        await page.evaluate((target) => {
          window.open(target, 'Login', 'width=600,height=600');
        }, url);
        const popup = await popupOpened;
        if (isCordova) {
          // The app's web view reads the pair from the fragment and closes the view itself.
          await popup.waitForURL(/#.*credentialSecret/, { timeout: 10_000 });
          const pair = JSON.parse(decodeURIComponent(new URL(popup.url()).hash.slice(1))) as {
            credentialToken: string;
            credentialSecret: string;
          };
          expect(pair.credentialToken).toBe(credentialToken);
          expect(pair.credentialSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
          await popup.close();
        } else if (!popup.isClosed()) {
          await popup.waitForEvent('close', { timeout: 10_000 });
        }
        page.context().off('response', onResponse);
        expect(failed).toEqual([]);
        const secret = await page.evaluate(
          (key) => window.localStorage.getItem(key),
          PREFIX + credentialToken,
        );
        expect(secret, `isCordova ${isCordova}`).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect((await logInWith(rootUrl, credentialToken, secret as string)).status).toBe(
          'success',
        );
      }
      await page.close();
    } finally {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it('a second instance finishes a flow started on the first; a third logs in', async () => {
    const { rootUrl, instances } = await deployment(3);
    const [returnsTo, starts, logsIn] = instances as [
      Deployment['instances'][number],
      Deployment['instances'][number],
      Deployment['instances'][number],
    ];
    expect(returnsTo.url).toBe(rootUrl);
    const page = await browser.newPage();
    const { credentialToken, secret } = await popupFlow(page, rootUrl, starts.url);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await logInWith(logsIn.url, credentialToken, secret as string)).status).toBe('success');
    await page.close();
  });
});
