import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readProtectionsConfig } from '../src/protections/config.js';
import { startTestApp, type TestContext } from './helpers.js';

/**
 * What Node's HTTP server and the router answer before any route runs (a malformed request, one
 * too slow, headers or a URI too long, a chunk extension too large) can be the answer of every
 * operation, so every operation's documented responses name it. GET / answered 431 to a 20 KB
 * header while its document named 200, 400, 403, 421, 429 and 503 only. Each answer is provoked on
 * a listening server and its status looked up in the operation the request was for.
 */
let ctx: TestContext;
let port: number;
let document: { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };

beforeAll(async () => {
  ctx = await startTestApp({
    protections: {
      ...readProtectionsConfig({ HEADERS_TIMEOUT_MS: '300', REQUEST_TIMEOUT_MS: '300' }),
      rateLimitMax: 0,
    },
  });
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  port = (ctx.app.server.address() as AddressInfo).port;
  document = (await ctx.app.inject({ url: '/openapi.json' })).json();
});
afterAll(() => ctx?.close());

/** Sends raw bytes (and, when `hold`, keeps the socket open without more) and reads the status. */
function rawStatus(bytes: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk) => {
      answer += chunk;
      const match = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      if (match) {
        socket.destroy();
        resolve(Number(match[1]));
      }
    });
    socket.on('error', reject);
    socket.setTimeout(5000, () => {
      socket.destroy();
      reject(new Error(`no answer to ${bytes.slice(0, 40)}`));
    });
  });
}

const documented = (path: string, method: string) =>
  Object.keys(document.paths[path]?.[method]?.responses ?? {});

describe('statuses the server answers before any route are documented on every operation', () => {
  const cases: Array<[string, string, string, () => string]> = [
    [
      '431 headers too large',
      '/',
      'get',
      () => `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    ],
    [
      '431 on a list',
      '/devices',
      'get',
      () => `GET /devices HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    ],
    [
      '414 URI too long',
      '/health',
      'get',
      () => `GET /health?x=${'a'.repeat(9000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
    ],
    [
      '400 malformed request',
      '/',
      'get',
      () => 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n',
    ],
    [
      '408 request not received in time',
      '/health',
      'get',
      () => 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n',
    ],
    [
      '413 chunk extension too large',
      '/users/logout',
      'post',
      () =>
        `POST /users/logout HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n1;${'a'.repeat(20_000)}\r\n`,
    ],
  ];
  it.each(cases)('%s', async (name, path, method, request) => {
    const status = await rawStatus(request());
    expect(String(status)).toBe(name.slice(0, 3));
    expect(documented(path, method), `${method} ${path}`).toContain(String(status));
  });

  it('every operation names them, and a range for an unexpected 500', () => {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const statuses = Object.keys(operation.responses);
        expect(statuses, `${method} ${path}`).toEqual(
          expect.arrayContaining(['400', '408', '413', '414', '431', '5XX']),
        );
      }
    }
  });
});
