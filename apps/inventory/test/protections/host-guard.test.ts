// DNS rebinding (found by a hostile review). A page on a name the attacker controls, rebound to the
// API's address, sends `Host: <that name>` and a matching `Origin`; the origin guard took
// `Origin == scheme://Host` as same-origin without looking at Host. Only IP literals, localhost
// and the names in ALLOWED_HOSTS (plus HOST's own name) are served now; others get 421.
import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHostAllowed, parseAllowedHosts, parseHost } from '../../src/protections/index.js';
import { buildTestApp, listen } from './helpers.js';

const REFUSED = { status: 'error', message: 'Misdirected request: unknown Host' };

describe('the Host guard on requests', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp({ env: { RATE_LIMIT_MAX: '1000' } });
  });
  afterAll(() => app.close());

  it('refuses a rebinding page: another name with its own matching Origin (421)', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const response = await app.inject({
        method,
        url: method === 'GET' ? '/hello' : '/echo',
        headers: {
          host: 'rebind.attacker.example:3000',
          origin: 'http://rebind.attacker.example:3000',
        },
        ...(method === 'POST' ? { payload: { a: 1 } } : {}),
      });
      expect(response.statusCode).toBe(421);
      expect(response.json()).toEqual(REFUSED);
      // Refusals carry the usual headers (security headers, request id).
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-request-id']).toBeDefined();
    }
    // A simple GET sends no Origin at all: refused on its Host alone.
    const noOrigin = await app.inject({
      url: '/hello',
      headers: { host: 'rebind.attacker.example' },
    });
    expect(noOrigin.statusCode).toBe(421);
  });

  it.each([
    'localhost',
    'localhost:3000',
    'LOCALHOST:3000',
    'localhost.:3000',
    'app.localhost:5173',
    '127.0.0.1',
    '127.0.0.1:3000',
    '127.0.0.1.:3000',
    '10.1.2.3:8080',
    '[::1]',
    '[::1]:3000',
    '[0:0:0:0:0:0:0:1]:3000',
  ])('serves Host %s (an IP literal or localhost)', async (host) => {
    const response = await app.inject({ url: '/hello', headers: { host } });
    expect(response.statusCode).toBe(200);
  });

  it.each([
    'evil.example',
    'EVIL.example:3000',
    'localhost.evil.example',
    'evil.example.',
    '127.0.0.1.evil.example',
    '::1',
    '[::1',
    '[not-an-ip]:3000',
    'localhost:port',
    'localhost:99999',
    'user@localhost',
    'localhost..',
    'a b',
  ])('refuses Host %j', async (host) => {
    const response = await app.inject({ url: '/hello', headers: { host } });
    expect(response.statusCode).toBe(421);
    expect(response.json()).toEqual(REFUSED);
  });

  it('serves the names of ALLOWED_HOSTS, with their port when one is given', async () => {
    const named = await buildTestApp({
      env: { ALLOWED_HOSTS: 'inventory.example.com, .ops.example, api.example:8443' },
    });
    const status = async (host: string) =>
      (await named.inject({ url: '/hello', headers: { host } })).statusCode;
    expect(await status('inventory.example.com')).toBe(200);
    expect(await status('Inventory.Example.Com.:443')).toBe(200);
    expect(await status('ops.example')).toBe(200);
    expect(await status('eu.ops.example:3000')).toBe(200);
    expect(await status('api.example:8443')).toBe(200);
    expect(await status('api.example:8444')).toBe(421);
    expect(await status('api.example')).toBe(421);
    expect(await status('badops.example')).toBe(421);
    expect(await status('example.com')).toBe(421);
    expect(await status('127.0.0.1')).toBe(200);
    await named.close();
    const open = await buildTestApp({ env: { ALLOWED_HOSTS: '*' } });
    expect(
      (await open.inject({ url: '/hello', headers: { host: 'any.example' } })).statusCode,
    ).toBe(200);
    await open.close();
  });

  it("serves HOST's own name", async () => {
    const named = await buildTestApp({ env: { HOST: 'inventory.lan' } });
    const response = await named.inject({ url: '/hello', headers: { host: 'inventory.lan:3000' } });
    expect(response.statusCode).toBe(200);
    await named.close();
  });

  it('uses X-Forwarded-Host only from a proxy named in TRUST_PROXY', async () => {
    const proxied = await buildTestApp({ env: { TRUST_PROXY: '127.0.0.1' } });
    const forwarded = await proxied.inject({
      url: '/hello',
      headers: { host: 'localhost', 'x-forwarded-host': 'evil.example' },
    });
    expect(forwarded.statusCode).toBe(421);
    await proxied.close();
    const direct = await app.inject({
      url: '/hello',
      headers: { host: 'localhost', 'x-forwarded-host': 'evil.example' },
    });
    expect(direct.statusCode).toBe(200);
  });
});

describe('the Host guard over a socket', () => {
  let app: FastifyInstance;
  let port: number;
  beforeAll(async () => {
    app = await buildTestApp({ env: { RATE_LIMIT_MAX: '1000' } });
    port = await listen(app);
  });
  afterAll(() => app.close());

  /** Sends raw bytes and returns the status line and body of the answer. */
  const raw = (text: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.end(text));
      let data = '';
      socket.on('data', (chunk) => {
        data += chunk;
      });
      socket.on('error', reject);
      socket.on('close', () => {
        const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(data)?.[1] ?? 0);
        resolve({ status, body: data.slice(data.indexOf('\r\n\r\n') + 4) });
      });
    });

  it('serves an HTTP/1.0 request without Host (browsers always send one)', async () => {
    const answer = await raw('GET /hello HTTP/1.0\r\n\r\n');
    expect(answer.status).toBe(200);
  });

  it('takes the host of an absolute-form target over Host (RFC 9112 §3.2.2)', async () => {
    const rebound = await raw(
      'GET http://evil.example/hello HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
    );
    expect(rebound.status).toBe(421);
    expect(JSON.parse(rebound.body)).toEqual(REFUSED);
    const local = await raw(
      `GET http://127.0.0.1:${port}/hello HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n`,
    );
    expect(local.status).not.toBe(421);
  });

  it('refuses a rebinding name with a real fetch', async () => {
    // fetch cannot forge Host; node:http can, as a rebinding browser effectively does.
    const answer = await raw(
      'POST /echo HTTP/1.1\r\nHost: rebind.example:3000\r\nOrigin: http://rebind.example:3000\r\n' +
        'Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
    );
    expect(answer.status).toBe(421);
  });
});

describe('parsing', () => {
  it('reads host, port, brackets, case and one trailing dot', () => {
    expect(parseHost('Example.COM.:8080')).toEqual({ name: 'example.com', port: 8080 });
    expect(parseHost('[::1]:3000')).toEqual({ name: '::1', port: 3000 });
    expect(parseHost('[::1]')).toEqual({ name: '::1', port: undefined });
    expect(parseHost('::1')).toBeUndefined();
    expect(parseHost('a:1:2')).toBeUndefined();
    expect(parseHost(':3000')).toBeUndefined();
  });

  it('refuses list entries that are not hosts', () => {
    for (const entry of ['https://x.example', 'x.example/path', '*.example.com', 'a,*']) {
      expect(() => parseAllowedHosts(entry), entry).toThrow(/is not a host like/);
    }
    expect(parseAllowedHosts(undefined, '0.0.0.0')).toEqual({ any: false, names: [] });
    expect(isHostAllowed(undefined, { any: false, names: [] })).toBe(true);
  });
});
