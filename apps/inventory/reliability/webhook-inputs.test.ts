// Hostile values for every new input of the webhooks (their fields, the deliveries
// routes' parameters, the WEBHOOK_* configuration) and the SSRF policy at creation and at
// delivery time. Every refusal is a 400 in the error shape; nothing is stored, nothing is sent.
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createAgents, postDelivery } from '../src/webhooks/sender.js';
import { checkTargetUrl } from '../src/webhooks/targets.js';
import { startTestApp, type TestContext } from '../test/helpers.js';
import { HOSTILE_OUTBOUND_URLS, INVALID_OUTBOUND_URLS } from './support/openapi-arbitraries.js';

const SECRET = 'a-long-enough-webhook-secret';
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;

let ctx: TestContext;
beforeAll(async () => {
  // The default policy: private targets refused.
  ctx = await startTestApp();
});
afterAll(async () => {
  await ctx?.close();
});

async function refused(
  payload: unknown,
  method: 'POST' | 'PATCH' | 'PUT' = 'POST',
  url = '/webhooks',
) {
  const response = await ctx.as('admin', { method, url, payload: payload as object });
  expect(response.statusCode, `${JSON.stringify(payload).slice(0, 200)} -> ${response.body}`).toBe(
    400,
  );
  const body = response.json();
  expect(body.status).toBe('error');
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeLessThan(2000);
  return body.message as string;
}

const count = async () =>
  (
    await ctx.store.scriptTransaction((tx) =>
      tx.query<{ n: number }>('SELECT count(*)::int AS n FROM webhooks'),
    )
  )[0]?.n;

describe('webhook inputs', () => {
  it('refuses every private, loopback, link-local and metadata target, however spelled', async () => {
    for (const url of HOSTILE_OUTBOUND_URLS) {
      const message = await refused({ name: 'ssrf', url, secret: SECRET });
      expect(message).toMatch(/^url: /);
    }
    // Batch create and batch update too, naming the item.
    expect(
      await refused([
        { name: 'ok', url: 'http://93.184.215.14/' },
        { name: 'bad', url: 'http://169.254.169.254/' },
      ]),
    ).toMatch(/^Item 1 \(url\): /);
    expect(await count()).toBe(0);
  });

  it('refuses URLs that are not plain http(s)', async () => {
    for (const url of INVALID_OUTBOUND_URLS) await refused({ name: 'bad-url', url });
    expect(await count()).toBe(0);
  });

  it('refuses reserved, malformed and oversized headers', async () => {
    const base = { name: 'h', url: 'http://93.184.215.14/' };
    const bad: Array<Record<string, unknown>> = [
      { Connection: 'close' },
      { 'TRANSFER-ENCODING': 'chunked' },
      { 'X-Hook-Signature': 'forged' },
      { 'Webhook-Signature': 'v1,forged' },
      { 'webhook-id': 'x' },
      { Host: 'internal' },
      { 'Content-Length': '0' },
      { 'bad name': 'x' },
      { 'x:y': 'x' },
      { '': 'x' },
      { 'X-Injected': 'a\r\nX-Other: b' },
      { 'X-Nul': 'a\u0000b' },
      { 'X-Big': 'x'.repeat(10_000) },
      { 'X-Empty': '' },
      { 'X-Number': 1 },
      Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`x-h${i}`, 'v'])),
      { [`x-${'n'.repeat(100)}`]: 'v' },
    ];
    for (const headers of bad) await refused({ ...base, headers });
    expect(await count()).toBe(0);
  });

  it('refuses bad filters, events, resources and secrets', async () => {
    const base = { name: 'f', url: 'http://93.184.215.14/' };
    for (const filter of [
      'status=active',
      ['status'],
      42,
      { status: { $ne: 'x' } },
      { tags: [{ a: 1 }] },
      { 'bad key': 1 },
      { "x'; DROP TABLE webhooks; --": 1 },
      Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`f${i}`, 1])),
      { status: 'x'.repeat(5000) },
    ]) {
      await refused({ ...base, filter });
    }
    for (const events of [[], ['created', 'created'], ['bogus'], 'created', [null]]) {
      await refused({ ...base, events });
    }
    for (const resources of [
      ['users'],
      ['webhooks'],
      ['api_tokens'],
      ['devices', 'devices'],
      'all',
    ]) {
      await refused({ ...base, resources });
    }
    for (const secret of [
      'short',
      'x'.repeat(300),
      'has space in it!!',
      'tab\there-long-enough',
      1234,
    ]) {
      await refused({ ...base, secret });
    }
    expect(await count()).toBe(0);
  });

  it('refuses a private URL on replace and update too', async () => {
    const created = await ctx.as('admin', {
      method: 'POST',
      url: '/webhooks',
      payload: { name: 'public', url: 'http://93.184.215.14/hook' },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id;
    await refused({ url: 'http://[::ffff:127.0.0.1]/' }, 'PATCH', `/webhooks/${id}`);
    await refused({ name: 'public', url: 'http://2130706433/' }, 'PUT', `/webhooks/${id}`);
    await refused([{ id, url: 'http://169.254.169.254/' }], 'PATCH', '/webhooks');
    const read = await ctx.as('admin', { method: 'GET', url: `/webhooks/${id}` });
    expect(read.json().url).toBe('http://93.184.215.14/hook');
  });

  it('answers the deliveries routes with 400 or 404 for hostile parameters', async () => {
    const created = await ctx.as('admin', {
      method: 'POST',
      url: '/webhooks',
      payload: { name: 'params', url: 'http://93.184.215.14/hook' },
    });
    const id = created.json().id;
    for (const query of [
      'limit=0',
      'limit=101',
      'limit=abc',
      'before=0',
      'before=-1',
      `before=${'9'.repeat(30)}`,
      'before=1%3BDROP',
      'x=1',
    ]) {
      const response = await ctx.as('admin', {
        method: 'GET',
        url: `/webhooks/${id}/deliveries?${query}`,
      });
      expect(response.statusCode, query).toBe(400);
      expect(response.json().status).toBe('error');
    }
    for (const path of [
      '/webhooks/not-a-uuid/deliveries',
      `/webhooks/${id}/deliveries/not-a-uuid/redeliver`,
      "/webhooks/' OR 1=1 --/deliveries",
    ]) {
      const method = path.endsWith('redeliver') ? 'POST' : 'GET';
      const response = await ctx.as('admin', { method, url: path });
      expect([400, 404], path).toContain(response.statusCode);
    }
    const missing = await ctx.as('admin', {
      method: 'GET',
      url: '/webhooks/00000000-0000-7000-8000-000000000000/deliveries',
    });
    expect(missing.statusCode).toBe(404);
    const empty = await ctx.as('admin', {
      method: 'GET',
      url: `/webhooks/${id}/deliveries?before=1`,
    });
    expect(empty.json()).toEqual({ meta: { limit: 20, next_before: null }, data: [] });
  });
});

describe('the SSRF policy at delivery time', () => {
  it('refuses to connect to a private address, by literal or by name (DNS rebinding)', async () => {
    let hits = 0;
    const server = http.createServer((_request, response) => {
      hits += 1;
      response.end('ok');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const port = (server.address() as AddressInfo).port;
    const agents = createAgents();
    try {
      const policy = { allowPrivateTargets: false };
      for (const target of [
        `http://127.0.0.1:${port}/`,
        `http://[::ffff:127.0.0.1]:${port}/`,
        `http://localhost:${port}/`,
        `http://2130706433:${port}/`,
      ]) {
        const outcome = await postDelivery(target, '{}', {}, { policy, timeoutMs: 2000, agents });
        expect(outcome.ok, target).toBe(false);
        expect(outcome.error, target).toMatch(/loopback|refused/);
      }
      expect(hits).toBe(0);
      // The same URL allowed when private targets are.
      const allowed = await postDelivery(
        `http://localhost:${port}/`,
        '{}',
        {},
        {
          policy: { allowPrivateTargets: true },
          timeoutMs: 2000,
          agents,
        },
      );
      expect(allowed.ok).toBe(true);
      expect(hits).toBe(1);
    } finally {
      agents.http.destroy();
      server.close();
    }
  });

  it('checks every address a name resolves to, at creation', async () => {
    const policy = { allowPrivateTargets: false };
    const rebinding = async () => ['93.184.215.14', '10.0.0.8'];
    expect(await checkTargetUrl('http://rebind.example/', policy, rebinding)).toMatch(/private/);
    expect(
      await checkTargetUrl('http://public.example/', policy, async () => ['93.184.215.14']),
    ).toBeUndefined();
    expect(await checkTargetUrl('http://none.example/', policy, async () => [])).toMatch(/resolve/);
  });

  it('keeps control characters out of stored response excerpts', async () => {
    const server = http.createServer((_request, response) => {
      response.writeHead(500).end(`\u001b]0;pwned\u0007\u001b[2J${'x'.repeat(10_000)}`);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const agents = createAgents();
    try {
      const outcome = await postDelivery(
        `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
        '{}',
        {},
        { policy: { allowPrivateTargets: true }, timeoutMs: 2000, agents },
      );
      expect(outcome.statusCode).toBe(500);
      expect(outcome.responseExcerpt?.length).toBeLessThanOrEqual(512);
      expect(outcome.responseExcerpt).not.toMatch(CONTROL);
    } finally {
      agents.http.destroy();
      server.close();
    }
  });
});

describe('WEBHOOK_* configuration', () => {
  it('refuses hostile values with one message naming each variable', () => {
    const hostile: Record<string, string[]> = {
      WEBHOOK_ALLOW_PRIVATE_TARGETS: ['yes', '1', 'TRUE', 'true\n'],
      WEBHOOK_SECRET_KEY: ['short'],
      WEBHOOK_RETRY_PERIOD: ['0', '-1', '1e9', '31d', 'forever', '24h; rm -rf /'],
      WEBHOOK_TIMEOUT: ['0', '301', 'abc'],
      WEBHOOK_LEASE: ['1', '9999999', 'x'],
      WEBHOOK_FIRST_RETRY: ['0', '2h', 'soon'],
      WEBHOOK_WORKER: ['maybe', 'ON'],
    };
    for (const [name, values] of Object.entries(hostile)) {
      for (const value of values) {
        expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(name);
      }
    }
    expect(() => loadConfig({ WEBHOOK_TIMEOUT: '30', WEBHOOK_LEASE: '20' })).toThrow(
      'WEBHOOK_LEASE: must be longer than WEBHOOK_TIMEOUT',
    );
    const config = loadConfig({
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_PERIOD: '2h',
    });
    expect(config.webhooks).toMatchObject({ allowPrivateTargets: true, retryPeriodMs: 7_200_000 });
    expect(loadConfig({}).webhooks).toMatchObject({
      allowPrivateTargets: false,
      retryPeriodMs: 86_400_000,
    });
  });
});
