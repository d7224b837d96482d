import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, listen } from './helpers.js';

const ALLOWED = 'http://localhost:5173';

describe('CORS', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp({ env: { RATE_LIMIT_MAX: '1000' } });
  });
  afterAll(() => app.close());

  it('allows a default development origin, with credentials and readable headers', async () => {
    const response = await app.inject({ url: '/hello', headers: { origin: ALLOWED } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(response.headers['access-control-allow-credentials']).toBe('true');
    expect(response.headers['access-control-expose-headers']).toContain('x-request-id');
    expect(response.headers.vary).toContain('Origin');
  });

  it('answers a preflight from an allowed origin', async () => {
    const response = await app.inject({
      method: 'OPTIONS',
      url: '/echo',
      headers: {
        origin: ALLOWED,
        'access-control-request-method': 'PATCH',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(response.headers['access-control-allow-methods']).toContain('PATCH');
    expect(response.headers['access-control-allow-headers']).toBe('authorization, content-type');
    expect(response.headers['access-control-allow-credentials']).toBe('true');
    expect(response.headers['access-control-max-age']).toBe('600');
  });

  it.each([
    ['GET', 'https://evil.example'],
    ['POST', 'http://localhost:5174'],
    ['DELETE', 'null'],
    ['GET', 'http://localhost:5173.evil.example'],
  ] as const)('refuses %s from %s with 403 JSON and no CORS grant', async (method, origin) => {
    const response = await app.inject({
      method,
      url: method === 'GET' ? '/hello' : '/echo',
      headers: { origin },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ status: 'error', message: 'Forbidden: Origin not allowed' });
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses a preflight from another origin with 403 JSON', async () => {
    const response = await app.inject({
      method: 'OPTIONS',
      url: '/echo',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ status: 'error' });
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('lets requests without Origin through (same-origin GETs, curl, other services)', async () => {
    const response = await app.inject({ method: 'POST', url: '/echo', payload: { a: 1 } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });

  it("accepts the API's own origin, as browsers send it on same-origin POSTs", async () => {
    const named = await buildTestApp({
      env: { RATE_LIMIT_MAX: '1000', ALLOWED_HOSTS: 'inventory.internal' },
    });
    const response = await named.inject({
      method: 'POST',
      url: '/echo',
      headers: { host: 'inventory.internal:8443', origin: 'http://inventory.internal:8443' },
      payload: { a: 1 },
    });
    expect(response.statusCode).toBe(200);
    const spoofed = await named.inject({
      url: '/hello',
      headers: { host: 'inventory.internal:8443', origin: 'https://inventory.internal:8443' },
    });
    expect(spoofed.statusCode).toBe(403);
    await named.close();
  });

  it('lets a browser read a 429 sent to an allowed origin', async () => {
    const limited = await buildTestApp({ env: { RATE_LIMIT_MAX: '1' } });
    await limited.inject({ url: '/hello', headers: { origin: ALLOWED } });
    const response = await limited.inject({ url: '/hello', headers: { origin: ALLOWED } });
    expect(response.statusCode).toBe(429);
    expect(response.headers['access-control-allow-origin']).toBe(ALLOWED);
    await limited.close();
  });

  it('allows exactly the configured origins', async () => {
    const custom = await buildTestApp({
      env: { CORS_ORIGINS: 'https://ops.example.com' },
    });
    const allowed = await custom.inject({
      url: '/hello',
      headers: { origin: 'https://ops.example.com' },
    });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.headers['access-control-allow-origin']).toBe('https://ops.example.com');
    const oldDefault = await custom.inject({ url: '/hello', headers: { origin: ALLOWED } });
    expect(oldDefault.statusCode).toBe(403);
    await custom.close();
  });

  it('works the same over a real socket', async () => {
    const served = await buildTestApp();
    const port = await listen(served);
    const refused = await fetch(`http://127.0.0.1:${port}/hello`, {
      headers: { origin: 'https://evil.example' },
    });
    expect(refused.status).toBe(403);
    const allowed = await fetch(`http://127.0.0.1:${port}/hello`, { headers: { origin: ALLOWED } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    await served.close();
  });
});

describe('fetch metadata', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp({ env: { RATE_LIMIT_MAX: '1000' } });
  });
  afterAll(() => app.close());

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'] as const)(
    'refuses a cross-site %s with 403 JSON',
    async (method) => {
      const response = await app.inject({
        method,
        url: '/echo',
        headers: { 'sec-fetch-site': 'cross-site' },
        payload: { a: 1 },
      });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({
        status: 'error',
        message: 'Forbidden: Cross-site request blocked',
      });
    },
  );

  it.each(['GET', 'HEAD'] as const)(
    'lets a cross-site %s through (links, images)',
    async (method) => {
      const response = await app.inject({
        method,
        url: '/hello',
        headers: { 'sec-fetch-site': 'cross-site' },
      });
      expect(response.statusCode).toBe(200);
    },
  );

  it.each(['same-origin', 'same-site', 'none'])(
    'lets a state-changing request from %s through',
    async (site) => {
      const response = await app.inject({
        method: 'POST',
        url: '/echo',
        headers: { 'sec-fetch-site': site, origin: ALLOWED },
        payload: { a: 1 },
      });
      expect(response.statusCode).toBe(200);
    },
  );
});
