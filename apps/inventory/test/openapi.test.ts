import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

interface Operation {
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: unknown;
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
  security?: unknown[];
}
type OpenApiDocument = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
};

/** `/devices/:id/` -> `/devices/{id}` */
const openApiPath = (url: string) =>
  url.replace(/:([A-Za-z_]+)/g, '{$1}').replace(/(.)\/$/, '$1') || '/';

describe('OpenAPI document', () => {
  let document: OpenApiDocument;
  beforeAll(async () => {
    const response = await ctx.app.inject({ url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    document = response.json();
  });

  it('lists every registered route with its method', () => {
    expect(document.openapi).toMatch(/^3\./);
    const own = ctx.app.routeCatalogue.filter(
      (route) =>
        route.method !== 'HEAD' &&
        !route.url.startsWith('/docs') &&
        // The web interface's pages are for browsers, not part of the API.
        !route.url.startsWith('/ui') &&
        route.url !== '/openapi.json',
    );
    expect(own.length).toBeGreaterThan(50);
    const missing = own.filter(
      (route) => !document.paths[openApiPath(route.url)]?.[route.method.toLowerCase()],
    );
    expect(missing).toEqual([]);
  });

  it('documents parameters, bodies, responses and one shared error shape', () => {
    const getDevice = document.paths['/devices/{id}']?.get;
    expect(getDevice?.parameters).toContainEqual(
      expect.objectContaining({ name: 'id', in: 'path' }),
    );
    const listDevices = document.paths['/devices']?.get;
    const names = listDevices?.parameters?.map((parameter) => parameter.name);
    expect(names).toEqual(
      expect.arrayContaining(['page', 'limit', 'sortby', 'hostname', 'status']),
    );
    expect(document.paths['/devices']?.post?.requestBody).toBeDefined();
    expect(document.paths['/events']?.get?.parameters?.map((p) => p.name)).toEqual(
      expect.arrayContaining(['from', 'to', 'severity', 'type', 'device_id']),
    );
    expect(document.paths['/metrics']?.get?.parameters?.map((p) => p.name)).toContain('sort');

    expect(document.components.schemas.Error).toMatchObject({
      properties: { status: expect.anything(), message: expect.anything() },
    });
    const errors = getDevice?.responses['4XX'] ?? getDevice?.responses['4xx'];
    expect(errors?.content?.['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/Error',
    });
    expect(JSON.stringify(document)).not.toContain('password_hash');
    // Public routes need no token; the others name the bearer scheme.
    expect(document.paths['/users/login']?.post?.security).toEqual([]);
    expect(getDevice?.security).toBeUndefined();
  });

  it('groups operations by resource, each with a summary and a unique operationId', () => {
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ path, method, ...operation })),
    ) as Array<{ path: string; tags?: string[]; summary?: string; operationId?: string }>;
    for (const operation of operations) {
      expect(operation.tags, operation.path).toEqual([operation.path.split('/')[1] || 'service']);
      expect(operation.summary, operation.path).toMatch(/\w/);
    }
    const ids = operations.map((operation) => operation.operationId);
    expect(new Set(ids).size).toBe(operations.length);
    const raw = document as unknown as { servers: unknown[]; tags: Array<{ name: string }> };
    expect(raw.servers).toEqual([{ url: '/', description: 'This server' }]);
    expect(raw.tags.map((tag) => tag.name)).toContain('devices');
  });

  it('states the rules the server checks: formats, limit, sortby, entity tags, statuses', () => {
    const list = document.paths['/devices']?.get as unknown as {
      parameters: Array<{ name: string; schema: Record<string, unknown> }>;
      responses: Record<string, unknown>;
    };
    const parameter = (name: string) => list.parameters.find((p) => p.name === name)?.schema;
    expect(parameter('limit')).toMatchObject({ maximum: 100, minimum: 1 });
    const sortKey = (parameter('sortby') as { items: { pattern: string } }).items.pattern;
    expect(new RegExp(sortKey).test('hostname:desc')).toBe(true);
    expect(new RegExp(sortKey).test('password_hash:asc')).toBe(false);
    expect(parameter('ip')).toEqual({
      anyOf: [
        { type: 'string', format: 'ipv4' },
        { type: 'string', format: 'ipv6' },
      ],
    });
    expect(JSON.stringify(document)).not.toContain('"format":"ip"');
    expect(Object.keys(list.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '421', '429', '503']),
    );
    const patch = document.paths['/devices/{id}']?.patch as unknown as {
      parameters: Array<{ name: string; in: string; schema: { pattern?: string } }>;
      responses: Record<string, unknown>;
    };
    const ifMatch = patch.parameters.find((p) => p.in === 'header' && p.name === 'if-match');
    const grammar = new RegExp(ifMatch?.schema.pattern ?? '^$');
    expect(['*', '"1"', 'W/"1", "2"'].every((value) => grammar.test(value))).toBe(true);
    expect(['1', '"1" "2"', 'W/'].some((value) => grammar.test(value))).toBe(false);
    expect(Object.keys(patch.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '404', '409', '412', '413', '415']),
    );
  });

  it('serves the Swagger UI at /docs with a policy that lets its own assets load', async () => {
    const page = await ctx.app.inject({ url: '/docs/' });
    const html =
      page.statusCode === 302
        ? await ctx.app.inject({ url: page.headers.location as string })
        : page;
    expect(html.statusCode).toBe(200);
    expect(html.headers['content-type']).toContain('text/html');
    const policy = String(html.headers['content-security-policy']);
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain('upgrade-insecure-requests');
    const script = await ctx.app.inject({ url: '/docs/static/swagger-ui-bundle.js' });
    expect(script.statusCode).toBe(200);
    // Everything else keeps the API's policy.
    const api = await ctx.app.inject({ url: '/' });
    expect(api.headers['content-security-policy']).toContain("default-src 'none'");
  });
});
