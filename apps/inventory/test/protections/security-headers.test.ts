import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { protections } from '../../src/protections/index.js';
import { buildTestApp, renderErrorsLikeTheCore } from './helpers.js';

function expectSecurityHeaders(response: LightMyRequestResponse) {
  const csp = response.headers['content-security-policy'];
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  expect(response.headers['x-frame-options']).toBe('DENY');
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
  expect(response.headers['cross-origin-embedder-policy']).toBe('require-corp');
  expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
  expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(response.headers['permissions-policy']).toBe('camera=(), microphone=(), geolocation=()');
}

describe('security headers', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  it('are on a successful response', async () => {
    const response = await app.inject({ url: '/hello' });
    expect(response.statusCode).toBe(200);
    expectSecurityHeaders(response);
  });

  it.each([
    ['an unknown route (404)', { url: '/nowhere' }, 404],
    ['a handler error (409)', { url: '/fail' }, 409],
    [
      'malformed JSON (400)',
      {
        method: 'POST' as const,
        url: '/echo',
        headers: { 'content-type': 'application/json' },
        payload: '{',
      },
      400,
    ],
    ['a refused origin (403)', { url: '/hello', headers: { origin: 'https://evil.example' } }, 403],
  ])('are on %s', async (_name, request, status) => {
    const response = await app.inject(request);
    expect(response.statusCode).toBe(status);
    expect(response.json()).toMatchObject({ status: 'error' });
    expectSecurityHeaders(response);
  });

  it('are on a 429', async () => {
    const limited = await buildTestApp({ env: { RATE_LIMIT_MAX: '1' } });
    await limited.inject({ url: '/hello' });
    const response = await limited.inject({ url: '/hello' });
    expect(response.statusCode).toBe(429);
    expectSecurityHeaders(response);
    await limited.close();
  });
});

describe('a page that needs its own content security policy', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify();
    renderErrorsLikeTheCore(app);
    await app.register(protections, { rateLimitMax: 0 });
    // The recipe README.md gives for /docs: swagger-ui's own policy replaces the API's on its routes.
    await app.register(fastifySwagger, { openapi: { info: { title: 't', version: '1' } } });
    await app.register(fastifySwaggerUi, { routePrefix: '/docs', staticCSP: true });
    // Any other route can loosen it through the route option.
    app.get(
      '/page',
      { helmet: { contentSecurityPolicy: { directives: { defaultSrc: ["'self'"] } } } },
      async (_request, reply) => reply.type('text/html').send('<p>page</p>'),
    );
    app.get('/api', async () => ({ ok: true }));
    await app.ready();
  });
  afterAll(() => app.close());

  it('lets the Swagger UI load its own scripts and styles, and nothing else gets that', async () => {
    const docs = await app.inject({ url: '/docs' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toContain('text/html');
    const script = await app.inject({ url: '/docs/static/swagger-ui-bundle.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-security-policy']).toBe(docs.headers['content-security-policy']);
    const docsCsp = docs.headers['content-security-policy'];
    expect(docsCsp).toMatch(/script-src 'self'/);
    expect(docsCsp).toMatch(/style-src 'self'/);
    expect(docs.headers['x-frame-options']).toBe('DENY');

    const api = await app.inject({ url: '/api' });
    expect(api.headers['content-security-policy']).toContain("default-src 'none'");
  });

  it('takes a per-route policy from the route option', async () => {
    const page = await app.inject({ url: '/page' });
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['content-security-policy']).not.toContain("default-src 'none'");
  });
});
