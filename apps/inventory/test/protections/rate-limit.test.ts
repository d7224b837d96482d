import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, listen } from './helpers.js';

const apps: FastifyInstance[] = [];
async function appWith(options: Parameters<typeof buildTestApp>[0]): Promise<FastifyInstance> {
  const app = await buildTestApp(options);
  apps.push(app);
  return app;
}
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

const limitHeaders = (headers: Record<string, unknown>) => ({
  limit: headers['x-ratelimit-limit'],
  remaining: headers['x-ratelimit-remaining'],
  reset: headers['x-ratelimit-reset'],
});

describe('rate limit, in memory', () => {
  it('counts every response, errors and 404s included, and says so in the headers', async () => {
    const app = await appWith({ env: { RATE_LIMIT_MAX: '6' } });
    const requests = [
      { url: '/hello' },
      { url: '/nowhere' },
      { url: '/fail' },
      { url: '/search?q=<script>' },
      { url: '/hello', headers: { origin: 'https://evil.example' } },
      { method: 'POST' as const, url: '/echo', headers: { 'sec-fetch-site': 'cross-site' } },
    ];
    const statuses = [];
    for (const [index, request] of requests.entries()) {
      const response = await app.inject(request);
      statuses.push(response.statusCode);
      expect(limitHeaders(response.headers)).toEqual({
        limit: '6',
        remaining: String(5 - index),
        reset: '60',
      });
    }
    expect(statuses).toEqual([200, 404, 409, 400, 403, 403]);

    const refused = await app.inject({ url: '/hello' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ status: 'error', message: 'Too many requests' });
    expect(limitHeaders(refused.headers)).toEqual({ limit: '6', remaining: '0', reset: '60' });
    expect(refused.headers['retry-after']).toBe('60');
    // Refusals keep counting in the same window; they do not extend it.
    expect((await app.inject({ url: '/nowhere' })).statusCode).toBe(429);
  });

  it('keeps one budget per client IP', async () => {
    const app = await appWith({ env: { RATE_LIMIT_MAX: '2' } });
    const from = (remoteAddress: string) => app.inject({ url: '/hello', remoteAddress });
    expect((await from('192.0.2.1')).statusCode).toBe(200);
    expect((await from('192.0.2.1')).statusCode).toBe(200);
    expect((await from('192.0.2.1')).statusCode).toBe(429);
    expect((await from('192.0.2.2')).statusCode).toBe(200);
    // IPv6 clients are counted per /64: one host cannot rotate through its own prefix.
    expect((await from('2001:db8:1:1::1')).statusCode).toBe(200);
    expect((await from('2001:db8:1:1::2')).statusCode).toBe(200);
    expect((await from('2001:db8:1:1:ffff::3')).statusCode).toBe(429);
    expect((await from('2001:db8:1:2::1')).statusCode).toBe(200);
  });

  it('starts a fresh budget when the window ends', async () => {
    const app = await appWith({ env: { RATE_LIMIT_MAX: '1', RATE_LIMIT_WINDOW_MS: '300' } });
    expect((await app.inject({ url: '/hello' })).statusCode).toBe(200);
    const refused = await app.inject({ url: '/hello' });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect((await app.inject({ url: '/hello' })).statusCode).toBe(200);
  });

  it('is off with RATE_LIMIT_MAX=0: no refusals, no headers', async () => {
    const app = await appWith({ env: { RATE_LIMIT_MAX: '0' } });
    for (let i = 0; i < 150; i++) {
      const response = await app.inject({ url: '/hello' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-ratelimit-limit']).toBeUndefined();
    }
  });
});

describe('rate limit, client address over real sockets', () => {
  const get = (port: number, path: string, forwardedFor?: string) =>
    fetch(`http://127.0.0.1:${port}${path}`, {
      headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
    });

  it('ignores X-Forwarded-For unless TRUST_PROXY names the peer: a client cannot dodge the limit', async () => {
    const app = await appWith({ env: { RATE_LIMIT_MAX: '3' } });
    const port = await listen(app);
    const whoami = await get(port, '/whoami', '203.0.113.1');
    expect(await whoami.json()).toMatchObject({ ip: '127.0.0.1' });
    expect((await get(port, '/hello', '203.0.113.2')).status).toBe(200);
    expect((await get(port, '/hello', '203.0.113.3')).status).toBe(200);
    const refused = await get(port, '/hello', '203.0.113.4');
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ status: 'error', message: 'Too many requests' });
  });

  it("believes a trusted proxy's X-Forwarded-For, and only the address the proxy added", async () => {
    const app = await appWith({ env: { RATE_LIMIT_MAX: '2', TRUST_PROXY: '127.0.0.1' } });
    const port = await listen(app);
    // The proxy appends the address it saw; whatever the client wrote before it is not believed.
    const viaProxy = (client: string) => get(port, '/whoami', `198.51.100.66, ${client}`);
    const first = await viaProxy('203.0.113.7');
    expect(await first.json()).toMatchObject({ ip: '203.0.113.7' });
    expect((await viaProxy('203.0.113.7')).status).toBe(200);
    expect((await viaProxy('203.0.113.7')).status).toBe(429);
    expect((await viaProxy('203.0.113.8')).status).toBe(200);
  });

  it('does not trust a proxy other than the one named', async () => {
    const app = await appWith({ env: { RATE_LIMIT_MAX: '5', TRUST_PROXY: '10.0.0.0/8' } });
    const port = await listen(app);
    const response = await get(port, '/whoami', '203.0.113.9');
    expect(await response.json()).toMatchObject({ ip: '127.0.0.1' });
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('rate limit shared through Redis (TEST_REDIS_URL)', () => {
  it('is one budget for two instances: the (max+1)th request is refused whichever gets it', async () => {
    const keyPrefix = `test:rate-limit:${randomUUID()}:`;
    const shared = new Redis(redisUrl as string);
    try {
      // One instance connects itself from the URL, the other is handed a client.
      const first = await appWith({
        env: { RATE_LIMIT_MAX: '4', REDIS_URL: redisUrl as string },
        plugin: { rateLimitKeyPrefix: keyPrefix },
      });
      const second = await appWith({
        env: { RATE_LIMIT_MAX: '4' },
        plugin: { redis: shared, rateLimitKeyPrefix: keyPrefix },
      });
      const [portA, portB] = [await listen(first), await listen(second)];
      const remaining = [];
      for (const port of [portA, portB, portA, portB]) {
        const response = await fetch(`http://127.0.0.1:${port}/hello`);
        expect(response.status).toBe(200);
        remaining.push(response.headers.get('x-ratelimit-remaining'));
      }
      expect(remaining).toEqual(['3', '2', '1', '0']);
      for (const port of [portA, portB]) {
        const refused = await fetch(`http://127.0.0.1:${port}/hello`);
        expect(refused.status).toBe(429);
        expect(refused.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
      }
      // A third instance with another prefix (another deployment) has its own budget.
      const other = await appWith({
        env: { RATE_LIMIT_MAX: '4' },
        plugin: { redis: shared, rateLimitKeyPrefix: `${keyPrefix}other:` },
      });
      expect((await other.inject({ url: '/hello' })).statusCode).toBe(200);
    } finally {
      await Promise.all(apps.splice(0).map((app) => app.close()));
      await shared.quit();
    }
  });

  it('lets requests through, unlimited, when Redis fails at run time', async () => {
    const client = new Redis(redisUrl as string, { enableOfflineQueue: false });
    await new Promise((resolve) => client.once('ready', resolve));
    const app = await appWith({
      env: { RATE_LIMIT_MAX: '1' },
      plugin: { redis: client, rateLimitKeyPrefix: `test:rate-limit:${randomUUID()}:` },
    });
    expect((await app.inject({ url: '/hello' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/hello' })).statusCode).toBe(429);
    client.disconnect();
    expect((await app.inject({ url: '/hello' })).statusCode).toBe(200);
  });
});

describe('rate limit with an unreachable REDIS_URL', () => {
  it('stops the start with a clear message that hides the password', async () => {
    const port = await freePort();
    await expect(
      buildTestApp({ env: { REDIS_URL: `redis://user:s3cret@127.0.0.1:${port}` } }),
    ).rejects.toThrow(
      new RegExp(
        `^REDIS_URL: cannot connect to redis://user:\\*\\*\\*@127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`,
      ),
    );
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
