// Bodies are read (found by a hostile review) only where a route takes one. A 1 MB body sent to a route
// that takes none (`POST /users/logout`) or to an unknown URL was parsed and passed through the
// content check before anything refused it; public routes read bodies up to BODY_LIMIT before
// anyone signed in. On the real app, through inject and over a socket.
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE_BODIES } from '../../reliability/support/hostile-bodies.js';
import { startTestApp, type TestContext } from '../helpers.js';

const json = { 'content-type': 'application/json' };
const MARKUP = JSON.stringify({ note: '<script>alert(1)</script>' });

describe('request bodies where no route takes one', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp();
  });
  afterAll(() => ctx.close());

  it('refuses a body sent to a route that takes none, before reading it (400)', async () => {
    for (const [method, url] of [
      ['POST', '/users/logout'],
      ['GET', '/health'],
      ['DELETE', '/users/00000000-0000-7000-8000-000000000000'],
    ] as const) {
      const response = await ctx.as('admin', { method, url, headers: json, payload: MARKUP });
      expect(response.statusCode, `${method} ${url}`).toBe(400);
      expect(response.json()).toEqual({
        status: 'error',
        message: 'This route takes no request body',
      });
    }
    // The same routes without a body, or with an empty one, work as before.
    const plain = await ctx.app.inject({ method: 'POST', url: '/users/logout' });
    expect(plain.statusCode).toBe(200);
    const empty = await ctx.app.inject({
      method: 'POST',
      url: '/users/logout',
      headers: { 'content-length': '0' },
    });
    expect(empty.statusCode).toBe(200);
  });

  it('answers an unknown URL 404, and a known path 405, whatever the body holds', async () => {
    for (const payload of [
      MARKUP,
      '{"broken json',
      HOSTILE_BODIES['lt-run-then-letter']?.() ?? '',
    ]) {
      const unknown = await ctx.as('admin', {
        method: 'POST',
        url: '/nowhere',
        headers: json,
        payload,
      });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ status: 'error', message: 'Route POST /nowhere not found' });
      const wrongMethod = await ctx.as('admin', {
        method: 'PATCH',
        url: '/health',
        headers: json,
        payload,
      });
      expect(wrongMethod.statusCode).toBe(405);
      expect(wrongMethod.headers.allow).toBe('GET, HEAD');
    }
  });

  it('reads at most 16 KiB before anyone signs in (413), and the usual 1 MB after', async () => {
    const big = JSON.stringify({ username: 'admin', password: 'x'.repeat(20_000) });
    for (const url of ['/users/login', '/users/forgot-password']) {
      const response = await ctx.app.inject({ method: 'POST', url, headers: json, payload: big });
      expect(response.statusCode, url).toBe(413);
      expect(response.json()).toEqual({ status: 'error', message: 'Request body too large' });
    }
    // A signed-in route still takes bodies up to BODY_LIMIT (here refused by its schema only).
    const signedIn = await ctx.as('admin', {
      method: 'POST',
      url: '/locations',
      headers: json,
      payload: JSON.stringify({ name: 'x'.repeat(20_000) }),
    });
    expect(signedIn.statusCode).toBe(400);
    expect(signedIn.json().message).not.toBe('Request body too large');
  });

  it('keeps the connection usable after an unread body (a real socket)', async () => {
    const url = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = ctx.app.server.address() as AddressInfo;
    const body = HOSTILE_BODIES['r-and-d-string']?.() ?? '';
    const agent = new (await import('node:http')).Agent({ keepAlive: true, maxSockets: 1 });
    const send = (method: string, path: string, payload?: string) =>
      new Promise<{ status: number; body: string; socket: unknown }>((resolve, reject) => {
        const request = httpRequest(
          { host: '127.0.0.1', port, method, path, agent, headers: payload ? json : {} },
          (response) => {
            let text = '';
            response.on('data', (chunk) => {
              text += chunk;
            });
            response.on('end', () =>
              resolve({ status: response.statusCode ?? 0, body: text, socket: request.socket }),
            );
          },
        );
        request.on('error', reject);
        request.end(payload);
      });
    const first = await send('POST', '/nowhere', body);
    expect(first.status).toBe(404);
    const second = await send('GET', '/health');
    expect(second.status).toBe(200);
    // One socket for both: the unread megabyte was discarded, not left to break the next request.
    expect(second.socket).toBe(first.socket);
    agent.destroy();
    expect(url).toContain('127.0.0.1');
  });
});
