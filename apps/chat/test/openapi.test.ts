import { createHash } from 'node:crypto';
import Ajv2020Module from 'ajv/dist/2020.js';
import { chromium } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_PREFIX, OPENAPI_PATH } from '../src/openapi.js';
import { accounts } from './support/accounts.js';
import { browserTestsRun, CHROMIUM } from './support/browser.js';
import { APPS } from './support/fake-provider.js';
import { freePort, Harness, login, SITE_URL } from './support/harness.js';

interface Operation {
  tags?: string[];
  summary?: string;
  operationId?: string;
  security?: unknown[];
  requestBody?: {
    content: Record<string, { schema: unknown; examples?: Record<string, { value: unknown }> }>;
  };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}
interface Document {
  openapi: string;
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
}

let h: Harness;
beforeAll(async () => {
  h = await Harness.open();
});
afterEach(() => h.reset());
afterAll(() => h.close());

async function fetchDocument(): Promise<Document> {
  const app = await h.app();
  const response = await app.inject({ method: 'GET', url: OPENAPI_PATH });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  return response.json();
}

/** A validator of one of the document's schemas, its `$ref`s resolved inside the document. */
function validatorOf(document: Document, schema: unknown) {
  const ajv = new Ajv2020Module.default({ strict: false, allowUnionTypes: true });
  ajv.addSchema({ ...document, $id: 'doc' }, 'doc');
  const rewritten = JSON.parse(
    JSON.stringify(schema).replaceAll('"#/components', '"doc#/components'),
  );
  return ajv.compile(rewritten);
}

function operations(document: Document): Array<[string, string, Operation]> {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(
      ([method, operation]) => [method, path, operation] as [string, string, Operation],
    ),
  );
}

describe('the API description', () => {
  it('is an OpenAPI 3.1 document of the service, its server the ROOT_URL', async () => {
    const document = await fetchDocument();
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: SITE_URL }]);
    // The API's calls are there; the browser pages of the OAuth redirect and the 405s are not.
    for (const path of ['/api/v1/login', '/api/v1/me', '/api/v1/logout', '/api/info']) {
      expect(document.paths).toHaveProperty([path]);
    }
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/_oauth'))).toEqual([]);
    expect(Object.keys(document.paths['/api/v1/login'] ?? {})).toEqual(['post']);
    expect(document.paths['/avatar/{username}']).toBeDefined();
  });

  it("documents the avatar's two successful answers: the redirect and the initials", async () => {
    const document = (await fetchDocument()) as unknown as {
      paths: Record<string, Record<string, { responses: Record<string, Record<string, unknown>> }>>;
    };
    const responses = document.paths['/avatar/{username}']?.get?.responses ?? {};
    expect(responses['302']?.headers).toHaveProperty('Location');
    expect(responses['200']?.content).toHaveProperty(['image/svg+xml']);
  });

  it('lists POST /api/v1/login with the schema that validates its body', async () => {
    const document = await fetchDocument();
    const body = document.paths['/api/v1/login']?.post?.requestBody?.content['application/json'];
    expect(body).toBeDefined();
    const validate = validatorOf(document, body?.schema);
    expect(
      validate({
        serviceName: 'github',
        accessToken: 'gho_1',
        accessTokenSecret: '',
        appId: 'a',
        appSecret: 'b',
        expiresIn: 3600,
      }),
    ).toBe(true);
    expect(validate({ resume: 'token' })).toBe(true);
    // The same rules as the service's validation: expiresIn is an integer, not a string.
    expect(
      validate({
        serviceName: 'github',
        accessTokenSecret: '',
        appId: 'a',
        appSecret: 'b',
        expiresIn: '1',
      }),
    ).toBe(false);
  });

  it('gives every operation a tag, a summary and a unique operationId, and public ones no security', async () => {
    const document = await fetchDocument();
    const all = operations(document);
    expect(all.length).toBeGreaterThan(15);
    for (const [method, path, operation] of all) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(operation.tags?.length, where).toBe(1);
      expect(operation.summary, where).toMatch(/\S/);
      expect(operation.operationId, where).toMatch(/^[A-Za-z][A-Za-z0-9]*$/);
      expect(operation.responses['4XX'], where).toBeDefined();
    }
    const ids = all.map(([, , operation]) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(document.paths['/api/v1/login']?.post?.security).toEqual([]);
    expect(document.paths['/api/v1/me']?.get?.security).toBeUndefined();
  });

  it('carries no secret: no configured app secret anywhere, no secret-like default', async () => {
    const document = await fetchDocument();
    const text = JSON.stringify(document);
    for (const app of Object.values(APPS)) {
      expect(text).not.toContain(app.appSecret);
    }
    const defaults: unknown[] = [];
    const walk = (node: unknown): void => {
      if (node === null || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        if (key === 'default') defaults.push(value);
        walk(value);
      }
    };
    walk(document);
    for (const value of defaults) {
      expect(String(value)).not.toMatch(/secret|password|token|key|^[A-Za-z0-9+/_-]{20,}$/i);
    }
  });

  it("its login examples, sent as they are, are answered in the document's shapes (not a 500)", async () => {
    const document = await fetchDocument();
    const operation = document.paths['/api/v1/login']?.post;
    const examples = operation?.requestBody?.content['application/json']?.examples ?? {};
    expect(Object.keys(examples).sort()).toEqual(['oauth', 'providerLogin', 'resume']);
    const errorShape = validatorOf(
      document,
      operation?.responses['4XX']?.content?.['application/json']?.schema,
    );
    const app = await h.app();
    for (const [name, example] of Object.entries(examples)) {
      const response = await login(app, example.value);
      expect(response.statusCode, name).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, name).toBeLessThan(500);
      expect(errorShape(response.json()), `${name}: ${response.body}`).toBe(true);
    }
  });

  it('its provider login example, with an account the provider knows, signs in in the documented 200 shape', async () => {
    const document = await fetchDocument();
    const operation = document.paths['/api/v1/login']?.post;
    const example =
      operation?.requestBody?.content['application/json']?.examples?.providerLogin?.value;
    const credentials = accounts.github(h.fake);
    const app = await h.app();
    const response = await login(app, { ...(example as object), ...credentials, ...APPS.github });
    expect(response.statusCode, response.body).toBe(200);
    const ok = validatorOf(
      document,
      operation?.responses['200']?.content?.['application/json']?.schema,
    );
    expect(ok(response.json()), JSON.stringify(ok.errors)).toBe(true);
  });
});

describe('the reference page', () => {
  it('is served with a policy that lets Swagger UI run, and other routes keep theirs', async () => {
    const app = await h.app();
    const withoutSlash = await app.inject({ method: 'GET', url: DOCS_PREFIX });
    expect(withoutSlash.statusCode).toBeLessThan(400);
    const page = await app.inject({ method: 'GET', url: `${DOCS_PREFIX}/` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const policy = String(page.headers['content-security-policy']);
    expect(policy).toMatch(/script-src 'self'/);
    expect(policy).not.toContain('unsafe-eval');
    expect(policy).not.toContain('upgrade-insecure-requests');
    expect(policy).toContain("style-src 'self' 'unsafe-inline';");
    expect(policy).toContain("object-src 'none'");
    // Every script the page loads is served, and every inline one is allowed by its hash.
    const sources = [...page.body.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]);
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) {
      const url = new URL(source ?? '', `http://docs${DOCS_PREFIX}/`).pathname;
      const script = await app.inject({ method: 'GET', url });
      expect(script.statusCode, url).toBe(200);
    }
    for (const [, inline] of page.body.matchAll(
      /<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g,
    )) {
      if (!inline?.trim()) continue;
      const hash = createHash('sha256').update(inline).digest('base64');
      expect(policy).toContain(`'sha256-${hash}'`);
    }
    const json = await app.inject({ method: 'GET', url: `${DOCS_PREFIX}/json` });
    expect(json.json().openapi).toBe('3.1.0');
    // The API's own answers are untouched by the page's policy.
    const info = await app.inject({ method: 'GET', url: '/api/info' });
    expect(info.headers['content-security-policy']).toBeUndefined();
  });

  it('answers hostile paths under it with an error, never a file outside it or a 500', async () => {
    const app = await h.app();
    for (const url of [
      `${DOCS_PREFIX}/static/..%2f..%2f..%2fpackage.json`,
      `${DOCS_PREFIX}/static/../../../../package.json`,
      `${DOCS_PREFIX}/%00`,
      `${DOCS_PREFIX}/static/%E0%A4%A`,
      `${DOCS_PREFIX}/${'a'.repeat(4000)}`,
      `${OPENAPI_PATH}/..%2f`,
    ]) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, url).toBeLessThan(500);
      expect(response.body, url).not.toContain('"workspaces"');
      expect(response.body, url).not.toContain('@netops/chat');
      expect(response.json(), url).toMatchObject({ status: 'error' });
    }
  });
});

const runBrowser = browserTestsRun('the reference page’s browser test');

describe.skipIf(!runBrowser)('the reference page in a browser (Debian chromium)', () => {
  it('renders every tag under its policy, and "Try it out" sends the login example to ROOT_URL', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const app = await h.app({ siteUrl: base });
    await app.listen({ host: '127.0.0.1', port });
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox'],
    });
    try {
      const page = await browser.newPage();
      const violations: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy|Refused to/i.test(message.text()))
          violations.push(message.text());
      });
      await page.goto(`${base}${DOCS_PREFIX}/`);
      await page.getByRole('heading', { name: /Chat login service/ }).waitFor();
      for (const tag of ['Login', 'Session', 'Sessions', 'Two-factor', 'Public']) {
        await expect(page.locator(`h3#operations-tag-${tag}`).count()).resolves.toBe(1);
      }
      await page.locator('#operations-Login-login button.opblock-summary-control').click();
      await page.getByRole('button', { name: 'Try it out' }).click();
      const answer = page.waitForResponse(
        (response) =>
          response.url() === `${base}/api/v1/login` && response.request().method() === 'POST',
      );
      await page.getByRole('button', { name: 'Execute' }).click();
      const response = await answer;
      expect(response.status()).toBe(401);
      expect(await response.json()).toMatchObject({ status: 'error' });
      if (process.env.OPENAPI_SCREENSHOT) {
        await page.screenshot({ path: process.env.OPENAPI_SCREENSHOT, fullPage: true });
      }
      expect(violations).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 120_000);
});
