import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from './helpers.js';

/**
 * Methods no route serves answer 405 with `Allow` (RFC 9110 §15.5.6), whatever the request
 * carries: QUERY with or without a body, WebDAV methods, and bodies of any media type; an
 * over-long URI answers 414; a bad query value names its parameter.
 */
let ctx: TestContext;
let port: number;
beforeAll(async () => {
  ctx = await startTestApp();
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  port = (ctx.app.server.address() as AddressInfo).port;
});
afterAll(() => ctx?.close());

/** A raw request over a socket: inject refuses methods Node's parser knows but light-my-request does not. */
function send(method: string, path: string, body?: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port,
          method,
          path,
          headers: {
            authorization: `Bearer ${ctx.tokens.admin}`,
            ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
            ...headers,
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          );
        },
      );
      request.on('error', reject);
      request.end(body);
    },
  );
}

describe('unsupported methods', () => {
  const cases: Array<[string, string, string | undefined, string]> = [
    ['QUERY', '/devices', undefined, 'GET, HEAD, PATCH, DELETE, POST'],
    ['QUERY', '/devices', '{"hostname":"x"}', 'GET, HEAD, PATCH, DELETE, POST'],
    ['PROPFIND', '/devices', undefined, 'GET, HEAD, PATCH, DELETE, POST'],
    ['PATCH', '/openapi.json', '{"a":1}', 'GET, HEAD'],
    ['PUT', '/devices', '{}', 'GET, HEAD, PATCH, DELETE, POST'],
    [
      'POST',
      '/devices/00000000-0000-7000-8000-000000000000',
      '{}',
      'GET, HEAD, PUT, PATCH, DELETE',
    ],
  ];
  for (const [method, path, body, allow] of cases) {
    it(`${method} ${path}${body ? ' with a body' : ''}: 405 with Allow`, async () => {
      const response = await send(method, path, body);
      expect(response.status, response.body).toBe(405);
      expect(JSON.parse(response.body)).toEqual({
        status: 'error',
        message: `Method ${method} not allowed`,
      });
      expect(String(response.headers.allow).split(', ').sort()).toEqual(allow.split(', ').sort());
    });
  }

  it('answers an over-long URI with 414 in the error shape', async () => {
    const response = await send('GET', `/devices?q=${'a'.repeat(9000)}`);
    expect(response.status, response.body.slice(0, 200)).toBe(414);
    expect(JSON.parse(response.body).status).toBe('error');
  });

  it('names the parameter of a bad query value', async () => {
    const cases: Array<[string, RegExp]> = [
      ['/devices?last_seen__gte=yesterday', /last_seen__gte/],
      ['/devices?limit=abc', /limit/],
      ['/devices?vendor__in=', /vendor__in/],
    ];
    for (const [url, name] of cases) {
      const response = await ctx.as('viewer', { method: 'GET', url });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().message, url).toMatch(name);
    }
  });
});

/**
 * NetBox clients put a slash at the end of every URL: each route answers with one as without
 * (`/devices/` always did; `/devices/{id}/` was 405 with an Allow naming GET).
 */
describe('a trailing slash', () => {
  it('is served on every route as without it, and 405 and 404 stay as they were', async () => {
    const created = await ctx.as('admin', {
      method: 'POST',
      url: '/devices',
      payload: { hostname: 'trailing-slash', ip: '192.0.2.77' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ id: string }>().id;
    for (const url of [
      `/devices/${id}/`,
      `/devices/${id}/interfaces/`,
      `/devices/${id}/interfacecount/`,
      `/devices/${id}/history/`,
      '/devices/',
      '/health/',
      `/devices/${id}/?fields=hostname`,
    ]) {
      const response = await ctx.as('admin', { method: 'GET', url });
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    }
    const patched = await ctx.as('admin', {
      method: 'PATCH',
      url: `/devices/${id}/`,
      payload: { vendor: 'Cisco' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().vendor).toBe('Cisco');
    const post = await ctx.as('admin', { method: 'POST', url: `/devices/${id}/`, payload: {} });
    expect(post.statusCode).toBe(405);
    expect(post.headers.allow).toBe('DELETE, GET, HEAD, PATCH, PUT');
    const missing = await ctx.as('admin', { method: 'GET', url: `/devices/${id}/nope/` });
    expect(missing.statusCode).toBe(404);
    const ui = await ctx.as(undefined, { method: 'GET', url: '/ui/login/' });
    expect(ui.statusCode).toBe(
      (await ctx.as(undefined, { method: 'GET', url: '/ui/login' })).statusCode,
    );
  });
});
