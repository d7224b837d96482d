import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readProtectionsConfig } from '../../src/protections/config.js';
import { startTestApp, type TestContext } from '../helpers.js';

/**
 * The protections as the real app applies them (buildApp with the test store), not the
 * stand-alone plugin: every refusal in the product's JSON shape, with the headers.
 */
const RATE_LIMIT = 40;
const PROXY = '203.0.113.1';
let ctx: TestContext;

beforeAll(async () => {
  ctx = await startTestApp({
    protections: {
      ...readProtectionsConfig({ TRUST_PROXY: PROXY }),
      rateLimitMax: RATE_LIMIT,
    },
  });
});
afterAll(() => ctx?.close());

/** Each test speaks from its own address, so that their budgets do not mix. */
let nextHost = 10;
const freshAddress = () => `198.51.100.${nextHost++}`;

describe('protections wired into the app', () => {
  it('every response carries the security, tracing and rate-limit headers', async () => {
    const remoteAddress = freshAddress();
    for (const url of ['/', '/devices', '/no-such-route']) {
      const response = await ctx.as('viewer', { url, remoteAddress });
      expect(response.headers).toMatchObject({
        'content-security-policy': expect.stringContaining("default-src 'none'"),
        'strict-transport-security': 'max-age=31536000; includeSubDomains',
        'x-frame-options': 'DENY',
        'x-content-type-options': 'nosniff',
        'permissions-policy': 'camera=(), microphone=(), geolocation=()',
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-embedder-policy': 'require-corp',
        'cross-origin-resource-policy': 'same-origin',
        'referrer-policy': 'strict-origin-when-cross-origin',
        'x-ratelimit-limit': String(RATE_LIMIT),
        'x-request-id': expect.stringMatching(/^[0-9a-f-]{36}$/),
        'x-response-time': expect.stringMatching(/^\d+(\.\d+)?ms$/),
      });
      expect(Number(response.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
    }
  });

  it('keeps a well-formed request id and writes it and the client IP to the audit row', async () => {
    const remoteAddress = freshAddress();
    const response = await ctx.as('admin', {
      method: 'POST',
      url: '/locations',
      remoteAddress,
      headers: { 'x-request-id': 'trace-42' },
      payload: { name: 'Traced site' },
    });
    expect(response.statusCode).toBe(201);
    expect(response.headers['x-request-id']).toBe('trace-42');
    const row = await ctx.store.db
      .selectFrom('audit_logs')
      .select(['request_id', 'client_ip'])
      .where('resource_id', '=', response.json().id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ request_id: 'trace-42', client_ip: remoteAddress });

    const forged = await ctx.as('viewer', {
      url: '/',
      remoteAddress,
      headers: { 'x-request-id': 'bad id\twith spaces' },
    });
    expect(forged.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('believes X-Forwarded-For only from the trusted proxy (TRUST_PROXY)', async () => {
    const client = freshAddress();
    const viaProxy = await ctx.as('admin', {
      method: 'POST',
      url: '/locations',
      remoteAddress: PROXY,
      headers: { 'x-forwarded-for': client },
      payload: { name: 'Behind the proxy' },
    });
    const direct = freshAddress();
    const dodging = await ctx.as('admin', {
      method: 'POST',
      url: '/locations',
      remoteAddress: direct,
      headers: { 'x-forwarded-for': '192.0.2.99' },
      payload: { name: 'Claims another address' },
    });
    const ips = await ctx.store.db
      .selectFrom('audit_logs')
      .select(['resource_id', 'client_ip'])
      .where('resource_id', 'in', [viaProxy.json().id, dodging.json().id])
      .execute();
    const byId = Object.fromEntries(ips.map((row) => [row.resource_id, row.client_ip]));
    expect(byId[viaProxy.json().id]).toBe(client);
    expect(byId[dodging.json().id]).toBe(direct);
  });

  it('refuses the request over the limit with 429 JSON and Retry-After', async () => {
    const remoteAddress = freshAddress();
    for (let i = 0; i < RATE_LIMIT; i++) {
      const response = await ctx.app.inject({ url: '/', remoteAddress });
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-ratelimit-remaining']).toBe(String(RATE_LIMIT - i - 1));
    }
    const refused = await ctx.app.inject({ url: '/', remoteAddress });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ status: 'error', message: 'Too many requests' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another client still has its whole budget.
    const other = await ctx.app.inject({ url: '/', remoteAddress: freshAddress() });
    expect(other.statusCode).toBe(200);
  });

  it('answers CORS for allowed origins and 403 JSON for the others', async () => {
    const remoteAddress = freshAddress();
    const allowed = await ctx.as('viewer', {
      url: '/devices',
      remoteAddress,
      headers: { origin: 'http://localhost:5173' },
    });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(allowed.headers['access-control-allow-credentials']).toBe('true');

    const preflight = await ctx.app.inject({
      method: 'OPTIONS',
      url: '/devices',
      remoteAddress,
      headers: { origin: 'http://127.0.0.1:3000', 'access-control-request-method': 'POST' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-methods']).toContain('POST');

    const refused = await ctx.as('viewer', {
      url: '/devices',
      remoteAddress,
      headers: { origin: 'https://evil.example' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ status: 'error', message: 'Forbidden: Origin not allowed' });
  });

  it('blocks cross-site state-changing requests (fetch metadata)', async () => {
    const remoteAddress = freshAddress();
    const blocked = await ctx.as('admin', {
      method: 'POST',
      url: '/locations',
      remoteAddress,
      headers: { 'sec-fetch-site': 'cross-site' },
      payload: { name: 'From another site' },
    });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toEqual({
      status: 'error',
      message: 'Forbidden: Cross-site request blocked',
    });
    const read = await ctx.as('viewer', {
      url: '/locations',
      remoteAddress,
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(read.statusCode).toBe(200);
  });

  it('refuses HTML in bodies (nested too) and query values with 400 naming the field', async () => {
    const remoteAddress = freshAddress();
    const body = await ctx.as('admin', {
      method: 'POST',
      url: '/locations',
      remoteAddress,
      payload: { name: 'Lab', address: '<script>alert(1)</script>' },
    });
    expect(body.statusCode).toBe(400);
    expect(body.json()).toEqual({
      status: 'error',
      message: 'Field "address" contains HTML or script content',
    });
    const batch = await ctx.as('admin', {
      method: 'PATCH',
      url: '/locations',
      remoteAddress,
      payload: [{ id: '00000000-0000-4000-8000-000000000000', name: '<b>x</b>' }],
    });
    expect(batch.json().message).toBe('Field "[0].name" contains HTML or script content');
    const query = await ctx.as('viewer', {
      url: '/locations?country=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E',
      remoteAddress,
    });
    expect(query.statusCode).toBe(400);
    expect(query.json().message).toBe('Query parameter "country" contains HTML or script content');
    const plain = await ctx.as('admin', {
      method: 'POST',
      url: '/locations',
      remoteAddress,
      payload: { name: 'R&D', address: 'a < b' },
    });
    expect(plain.statusCode).toBe(201);
  });

  it('refuses bodies over 1 MB with 413 JSON', async () => {
    const response = await ctx.as('admin', {
      method: 'POST',
      url: '/locations',
      remoteAddress: freshAddress(),
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(1024 * 1024) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ status: 'error', message: 'Request body too large' });
  });

  it('compresses large responses over a real socket, with the headers', async () => {
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = ctx.app.server.address() as AddressInfo;
    const response = await new Promise<{ status?: number; headers: Record<string, unknown> }>(
      (resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port,
            path: '/openapi.json',
            headers: { 'accept-encoding': 'gzip' },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode, headers: res.headers }));
          },
        );
        req.on('error', reject);
        req.end();
      },
    );
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers['x-request-id']).toBeDefined();
    expect(response.headers['x-ratelimit-limit']).toBe(String(RATE_LIMIT));
  });
});
