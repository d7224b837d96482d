import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, LARGE_PAYLOAD, listen } from './helpers.js';

const MB = 1024 * 1024;

/** A JSON document of exactly `size` bytes. */
const jsonOfSize = (size: number) => `{"a":"${'x'.repeat(size - 8)}"}`;

describe('body limit', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp({ env: { RATE_LIMIT_MAX: '0' } });
  });
  afterAll(() => app.close());

  const postJson = (payload: string | Buffer, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json', ...headers },
      payload,
    });

  it('accepts a body of exactly 1 MB', async () => {
    const body = jsonOfSize(MB);
    expect(Buffer.byteLength(body)).toBe(MB);
    const response = await postJson(body);
    expect(response.statusCode).toBe(200);
  });

  it('refuses a body over 1 MB with 413 JSON', async () => {
    const response = await postJson(jsonOfSize(MB + 1));
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ status: 'error', message: 'Request body too large' });
    expect(response.headers['x-request-id']).toBeDefined();
  });

  it('refuses a small gzip body that inflates past 1 MB (no zip bombs)', async () => {
    const bomb = gzipSync(jsonOfSize(8 * MB));
    expect(bomb.length).toBeLessThan(20 * 1024);
    const response = await postJson(bomb, { 'content-encoding': 'gzip' });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ status: 'error', message: 'Request body too large' });
  });

  it('inflates a gzip body within the limit', async () => {
    const response = await postJson(gzipSync(JSON.stringify({ name: 'R&D' })), {
      'content-encoding': 'gzip',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ body: { name: 'R&D' } });
  });

  it('refuses an unknown Content-Encoding with 415 JSON', async () => {
    const response = await postJson('{}', { 'content-encoding': 'x-unknown' });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({ status: 'error' });
  });

  it('takes BODY_LIMIT', async () => {
    const small = await buildTestApp({ env: { BODY_LIMIT: '100' } });
    const at = await small.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: jsonOfSize(100),
    });
    const over = await small.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: jsonOfSize(101),
    });
    expect([at.statusCode, over.statusCode]).toEqual([200, 413]);
    await small.close();
  });

  it('stops a streamed body without Content-Length at the limit, over a real socket', async () => {
    const served = await buildTestApp({ env: { RATE_LIMIT_MAX: '0' } });
    const port = await listen(served);
    const result = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          port,
          host: '127.0.0.1',
          method: 'POST',
          path: '/echo',
          headers: { 'content-type': 'application/json' },
        },
        (res) => {
          let body = '';
          res.on('data', (chunk) => {
            body += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      // Chunked: the server cannot know the size in advance and must count as it reads.
      req.write('{"a":"');
      const chunk = 'x'.repeat(64 * 1024);
      let sent = 0;
      const pump = () => {
        while (sent < 2 * MB) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end('"}');
      };
      pump();
    });
    expect(result.status).toBe(413);
    expect(JSON.parse(result.body)).toEqual({
      status: 'error',
      message: 'Request body too large',
    });
    await served.close();
  });
});

describe('compression', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp({ env: { RATE_LIMIT_MAX: '0' } });
  });
  afterAll(() => app.close());

  const getLarge = (acceptEncoding?: string) =>
    app.inject({
      url: '/large',
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });

  it('gzips a large response when the client accepts gzip', async () => {
    const response = await getLarge('gzip');
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.rawPayload.length).toBeLessThan(JSON.stringify(LARGE_PAYLOAD).length / 2);
    expect(JSON.parse(gunzipSync(response.rawPayload).toString())).toEqual(LARGE_PAYLOAD);
  });

  it('uses brotli when the client accepts it', async () => {
    for (const accept of ['br', 'gzip, deflate, br']) {
      const response = await getLarge(accept);
      expect(response.headers['content-encoding']).toBe('br');
      expect(JSON.parse(brotliDecompressSync(response.rawPayload).toString())).toEqual(
        LARGE_PAYLOAD,
      );
    }
  });

  it("follows the client's preference", async () => {
    const response = await getLarge('br;q=0.5, gzip;q=1');
    expect(response.headers['content-encoding']).toBe('gzip');
  });

  it('sends as it is without Accept-Encoding, or with one it cannot honour', async () => {
    for (const accept of [undefined, 'identity', 'compress']) {
      const response = await getLarge(accept);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.json()).toEqual(LARGE_PAYLOAD);
    }
  });

  it('leaves bodies under 1 KiB uncompressed', async () => {
    const response = await app.inject({
      url: '/hello',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.json()).toEqual({ hello: 'world' });
  });
});
