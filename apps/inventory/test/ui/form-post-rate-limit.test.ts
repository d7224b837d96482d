import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readProtectionsConfig } from '../../src/protections/config.js';
import { create, startTestApp, TEST_PASSWORD, type TestContext } from '../helpers.js';
import { csrfOf, formAsShown } from './inject.js';

/**
 * A form post is one request against the client's rate limit, whatever it does: a post refused
 * for a stale token, an edit that changes nothing and an import preview (no write at all) count
 * once, like a page view; a post that writes counts once too (its write is not counted again).
 * Each test is a client of its own address.
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

async function client() {
  const remoteAddress = `203.0.113.${++address}`;
  let cookie = '';
  const request = (options: InjectOptions) =>
    ctx.app.inject({
      ...options,
      remoteAddress,
      headers: { ...(options.headers ?? {}), ...(cookie ? { cookie } : {}) },
    });
  const login = await request({
    method: 'POST',
    url: '/ui/login',
    payload: new URLSearchParams({ username: 'admin', password: TEST_PASSWORD }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(login.statusCode, login.body).toBe(303);
  cookie = `inventory_ui=${login.cookies.find((c) => c.name === 'inventory_ui')?.value}`;
  const post = (url: string, form: URLSearchParams) =>
    request({
      method: 'POST',
      url,
      payload: form.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  /** What is left of this address's allowance (an API call, itself counted). */
  const remaining = async () =>
    Number(
      (
        await request({
          method: 'GET',
          url: '/vlans?limit=1',
          headers: { authorization: `Bearer ${ctx.tokens.admin}` },
        })
      ).headers['x-ratelimit-remaining'],
    );
  const visit = (url: string) => request({ method: 'GET', url });
  return { post, remaining, visit };
}

describe('a form post', () => {
  it('refused for a stale token is counted once, and refused past the limit', async () => {
    const location = await create(ctx, 'locations', { name: 'rl-stale' });
    const browser = await client();
    const before = await browser.remaining();
    const form = new URLSearchParams({ _csrf: 'stale', id: String(location.id) });
    for (let sent = 0; sent < 5; sent++) {
      const answer = await browser.post('/ui/locations/bulk-delete', form);
      expect(answer.statusCode).toBe(403);
      expect(answer.headers['x-ratelimit-remaining']).toBe(String(before - 1 - sent));
    }
    expect(await browser.remaining()).toBe(before - 6);
  });

  it('that changes nothing, or previews an import, is counted once', async () => {
    const device = await create(ctx, 'devices', { hostname: 'rl-unchanged', ip: '192.0.2.91' });
    const browser = await client();
    const edit = await browser.visit(`/ui/devices/${device.id}/edit`);
    const unchanged = formAsShown(edit.body, `/ui/devices/${device.id}/edit`);
    const before = await browser.remaining();
    expect((await browser.post(`/ui/devices/${device.id}/edit`, unchanged)).statusCode).toBe(303);
    const preview = await browser.post(
      '/ui/devices/import',
      new URLSearchParams({
        _csrf: csrfOf(edit.body),
        step: 'preview',
        csv: 'hostname,ip\nrl-a,192.0.2.92\nrl-b,192.0.2.93\n',
      }),
    );
    expect(preview.statusCode).toBe(200);
    expect(await browser.remaining()).toBe(before - 3);
  });

  it('that writes is counted once, not once more for its write', async () => {
    const device = await create(ctx, 'devices', { hostname: 'rl-write', ip: '192.0.2.94' });
    const browser = await client();
    const edit = await browser.visit(`/ui/devices/${device.id}/edit`);
    const form = formAsShown(edit.body, `/ui/devices/${device.id}/edit`);
    form.set('model', 'counted-once');
    const before = await browser.remaining();
    expect((await browser.post(`/ui/devices/${device.id}/edit`, form)).statusCode).toBe(303);
    expect(await browser.remaining()).toBe(before - 2);
  });

  it('past the limit reads nothing: answered 429 with what was typed, to send again', async () => {
    const location = await create(ctx, 'locations', { name: 'rl-spent' });
    const browser = await client();
    while ((await browser.remaining()) > 0);
    const refused = await browser.post(
      '/ui/locations/bulk-delete',
      new URLSearchParams({ _csrf: 'stale', id: String(location.id) }),
    );
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // No record was read for the page: the selection is carried as sent, not listed by name.
    expect(refused.body).not.toContain('rl-spent');
    expect(refused.body).toContain(`value="${location.id}"`);
  });

  it('of an import past the limit comes back with the pasted CSV, to send again', async () => {
    const browser = await client();
    while ((await browser.remaining()) > 0);
    const csv = 'hostname,ip\nrl-import,192.0.2.95\n';
    const refused = await browser.post(
      '/ui/devices/import',
      new URLSearchParams({ _csrf: 'stale', step: 'import', csv }),
    );
    expect(refused.statusCode).toBe(429);
    expect(refused.body).toContain('Show what I typed');
    expect(formAsShown(refused.body, '/ui/devices/import').get('csv')).toBe(csv);
  });
});
