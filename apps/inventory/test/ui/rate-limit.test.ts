import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readProtectionsConfig } from '../../src/protections/config.js';
import { startTestApp, TEST_PASSWORD, type TestContext } from '../helpers.js';
import { csrfOf } from './inject.js';

/**
 * The pages under the API's default rate limit (100 calls a minute per client address): every
 * API call a page makes counts, so a page must make few, and one refused call must make the page
 * an error page with the API's status and Retry-After, never a page showing less as if it were all.
 * Each test is a client of its own address, with its own allowance.
 */

const RATE_LIMIT_MAX = 100;
let ctx: TestContext;
let address = 0;

beforeAll(async () => {
  ctx = await startTestApp({
    protections: { ...readProtectionsConfig({}), rateLimitMax: RATE_LIMIT_MAX },
  });
});
afterAll(() => ctx?.close());

/** A browser of its own address, signed in as admin. */
async function client() {
  const remoteAddress = `198.51.100.${++address}`;
  const request = (options: InjectOptions & { cookie?: string }) =>
    ctx.app.inject({
      ...options,
      remoteAddress,
      headers: {
        ...(options.headers ?? {}),
        ...(cookie ? { cookie } : {}),
      },
    });
  let cookie = '';
  const login = await request({
    method: 'POST',
    url: '/ui/login',
    payload: new URLSearchParams({
      username: 'admin',
      password: TEST_PASSWORD,
      next: '/ui/',
    }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(login.statusCode, login.body).toBe(303);
  cookie = `inventory_ui=${login.cookies.find((c) => c.name === 'inventory_ui')?.value}`;
  const visit = (url: string) => request({ method: 'GET', url });
  const post = (url: string, form: URLSearchParams) =>
    request({
      method: 'POST',
      url,
      payload: form.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  /** API calls from this address until it has `left` calls in the current window. */
  const spend = async (left: number) => {
    for (;;) {
      const answer = await request({
        method: 'GET',
        url: '/vlans?limit=1',
        headers: { authorization: `Bearer ${ctx.tokens.admin}` },
      });
      const remaining = Number(answer.headers['x-ratelimit-remaining'] ?? 0);
      if (remaining <= left) return;
    }
  };
  return { visit, post, spend };
}

async function createDevices(prefix: string, count: number): Promise<string[]> {
  // One batch call from the test's own address: the clients' allowances are untouched.
  const created = await ctx.as('admin', {
    method: 'POST',
    url: '/devices',
    payload: Array.from({ length: count }, (_, index) => ({
      hostname: `${prefix}-${String(index).padStart(3, '0')}`,
      ip: `10.${Math.floor(index / 250) + 1}.${index % 250}.${address + 1}`,
    })),
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json<Array<{ id: string }>>().map((record) => record.id);
}

describe('bulk pages of a full page of rows', () => {
  it('list all 100 selected records (one list call, not one call per record)', async () => {
    const ids = await createDevices('bulk-rl', 100);
    const browser = await client();
    const list = await browser.visit('/ui/devices?limit=100');
    for (const action of ['delete', 'edit']) {
      expect(list.statusCode).toBe(200);
      const selection = new URLSearchParams({ action });
      for (const id of ids) selection.append('id', id);
      const bulk = await browser.visit(`/ui/devices/bulk?${selection}`);
      expect(bulk.statusCode, bulk.body).toBe(200);
      const listed = [...bulk.body.matchAll(/<input type="hidden" name="id" value="([^"]+)">/g)];
      expect(listed.map((match) => match[1]).sort(), action).toEqual([...ids].sort());
    }
  });

  it('say that a selected record could not be read, never list fewer silently', async () => {
    const ids = await createDevices('bulk-gone', 3);
    const browser = await client();
    const list = await browser.visit('/ui/devices');
    const gone = ids[2] as string;
    expect((await ctx.as('admin', { method: 'DELETE', url: `/devices/${gone}` })).statusCode).toBe(
      204,
    );
    expect(list.statusCode).toBe(200);
    const selection = new URLSearchParams({ action: 'delete' });
    for (const id of ids) selection.append('id', id);
    const bulk = await browser.visit(`/ui/devices/bulk?${selection}`);
    expect(bulk.body).toMatch(/class="alert" role="alert">[^<]*1 of the 3 selected devices/);
    expect(bulk.body).not.toContain(`value="${gone}"`);
  });
});

describe('a bulk edit', () => {
  it('carries each record’s ETag as read for its page: a record changed since refuses the batch', async () => {
    const ids = await createDevices('bulk-tag', 2);
    const browser = await client();
    const list = await browser.visit('/ui/devices');
    expect(list.statusCode).toBe(200);
    const selection = new URLSearchParams({ action: 'edit' });
    for (const id of ids) selection.append('id', id);
    const bulk = await browser.visit(`/ui/devices/bulk?${selection}`);
    const etags = [...bulk.body.matchAll(/name="etag" value="([^"]+)"/g)].map((m) => m[1]);
    expect(etags).toHaveLength(2);
    const changed = await ctx.as('admin', {
      method: 'PATCH',
      url: `/devices/${ids[1]}`,
      payload: { model: 'changed meanwhile' },
    });
    expect(changed.statusCode).toBe(200);
    const apply = new URLSearchParams({ _csrf: csrfOf(list.body), field: 'model', value: 'bulk' });
    ids.forEach((id, index) => {
      apply.append('id', id);
      apply.append('etag', (etags[index] ?? '').replaceAll('&quot;', '"'));
    });
    const refused = await browser.post('/ui/devices/bulk-edit', apply);
    expect(refused.statusCode, refused.body).toBe(412);
    const first = await ctx.as('admin', { method: 'GET', url: `/devices/${ids[0]}` });
    expect(first.json().model ?? null).toBeNull();
  });
});

describe('a person browsing', () => {
  it('is counted one request a page view, however many API calls the page makes', async () => {
    const [id] = await createDevices('browsing', 1);
    const browser = await client();
    // Pages of several API calls each: the start page, a search, a list, an object page.
    const pages = ['/ui/', '/ui/search?q=browsing', '/ui/devices', `/ui/devices/${id}`];
    for (let view = 0; view < 60; view++) {
      const url = pages[view % pages.length] as string;
      const answer = await browser.visit(url);
      expect(answer.statusCode, `${url} (view ${view + 1})`).toBe(200);
    }
    // The limit still holds: the rest of the allowance spent, the next page is refused.
    await browser.spend(0);
    const refused = await browser.visit('/ui/devices');
    expect(refused.statusCode).toBe(429);
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(refused.body).toMatch(
      new RegExp(`Too many requests\\. Wait ${wait} seconds? before trying again\\.`),
    );
  });
});

describe('a client claiming to be a page’s read', () => {
  it('is counted like any other: only the process knows the header’s value', async () => {
    const remoteAddress = `198.51.100.${++address}`;
    const read = (value: string) =>
      ctx.app.inject({
        method: 'GET',
        url: '/vlans?limit=1',
        remoteAddress,
        headers: { authorization: `Bearer ${ctx.tokens.admin}`, 'x-inventory-page-read': value },
      });
    const first = Number((await read('forged')).headers['x-ratelimit-remaining']);
    const second = Number((await read('')).headers['x-ratelimit-remaining']);
    expect(first).toBe(RATE_LIMIT_MAX - 1);
    expect(second).toBe(RATE_LIMIT_MAX - 2);
  });
});

describe('a page whose API calls are refused', () => {
  const expectRateLimited = (
    answer: { statusCode: number; headers: Record<string, unknown>; body: string },
    what: string,
  ) => {
    expect(answer.statusCode, what).toBe(429);
    expect(Number(answer.headers['retry-after']), what).toBeGreaterThan(0);
    expect(answer.body, what).toMatch(/class="alert" role="alert">[^<]+/);
  };

  it('is an error page with the API’s 429 and Retry-After, never a page showing less', async () => {
    const [id] = await createDevices('limited', 1);
    for (const url of ['/ui/', '/ui/devices', '/ui/search?q=limited', `/ui/devices/${id}`]) {
      const browser = await client();
      await browser.spend(0);
      expectRateLimited(await browser.visit(url), url);
    }
  });

  it('is shown whole with one request left: the page is counted, not its reads of the API', async () => {
    const [id] = await createDevices('limited-section', 1);
    const browser = await client();
    await browser.spend(1);
    const object = await browser.visit(`/ui/devices/${id}`);
    expect(object.statusCode).toBe(200);
    expect(object.headers['x-ratelimit-remaining']).toBe('0');
    expect(object.body).toContain('section class="history"');
    expectRateLimited(await browser.visit(`/ui/devices/${id}`), 'object page');
  });
});

describe('a form sent when the rate limit is spent', () => {
  it('comes back with what was typed and the wait in words, nothing saved', async () => {
    const [id] = await createDevices('limited-form', 1);
    const browser = await client();
    const edit = await browser.visit(`/ui/devices/${id}/edit`);
    expect(edit.statusCode).toBe(200);
    const form = new URLSearchParams();
    for (const [, name, value] of edit.body.matchAll(
      /<input type="(?:hidden|text)"[^>]*?name="([^"]+)"[^>]*?value="([^"]*)"/g,
    ))
      form.append(String(name), String(value).replaceAll('&quot;', '"'));
    form.set('_csrf', csrfOf(edit.body));
    form.set('model', 'typed-before-429');
    await browser.spend(0);
    const refused = await browser.post(`/ui/devices/${id}/edit`, form);
    expect(refused.statusCode, refused.body).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body).toMatch(
      /Too many requests: nothing was saved\. Try again in \d+ seconds?\./,
    );
    expect(refused.body).toContain('value="typed-before-429"');
    expect(refused.body).toContain('action="/ui/devices/');
    const stored = await ctx.as('admin', { method: 'GET', url: `/devices/${id}` });
    expect(stored.json().model ?? null).toBeNull();
  });
});
