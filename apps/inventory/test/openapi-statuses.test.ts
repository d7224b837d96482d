import { beforeAll, describe, expect, it } from 'vitest';
import { create, TEST_PASSWORD, unique, useTestApp } from './helpers.js';

/**
 * The API document names every status a route answers, the headers an answer carries, and who
 * may call an operation, API tokens included: each claim below is checked against the route's
 * real answer where one can be provoked.
 */
const ctx = useTestApp();

interface Response {
  description?: string;
  headers?: Record<string, { description?: string; schema?: unknown }>;
}
interface Operation {
  description?: string;
  responses: Record<string, Response>;
}
let document: {
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, Record<string, unknown>> };
};
beforeAll(async () => {
  document = (await ctx.app.inject({ url: '/openapi.json' })).json();
});

const operation = (path: string, method: string) => {
  const found = document.paths[path]?.[method];
  if (!found) throw new Error(`${method} ${path} is not in the document`);
  return found;
};

describe('statuses, headers and access in the API document', () => {
  it('the login names 401 and 403, which it answers', async () => {
    const wrong = await ctx.app.inject({
      method: 'POST',
      url: '/users/login',
      payload: { username: 'admin', password: `${TEST_PASSWORD}-wrong` },
    });
    expect(wrong.statusCode).toBe(401);
    const responses = operation('/users/login', 'post').responses;
    expect(Object.keys(responses)).toEqual(expect.arrayContaining(['401', '403']));
  });

  it('batch PATCH and DELETE name 404, which an unknown id gets', async () => {
    const unknown = await ctx.as('admin', {
      method: 'DELETE',
      url: '/devices',
      payload: ['00000000-0000-4000-8000-000000000000'],
    });
    expect(unknown.statusCode).toBe(404);
    for (const path of ['/devices', '/locations', '/interfaces', '/vlans', '/links']) {
      for (const method of ['patch', 'delete']) {
        expect(Object.keys(operation(path, method).responses), `${method} ${path}`).toContain(
          '404',
        );
      }
    }
    // A create names no record: it has no 404.
    expect(Object.keys(operation('/devices', 'post').responses)).not.toContain('404');
  });

  it('public routes name the 403 of a disallowed origin or a cross-site write', async () => {
    const crossOrigin = await ctx.app.inject({
      method: 'GET',
      url: '/debug/count',
      headers: { origin: 'https://elsewhere.example' },
    });
    expect(crossOrigin.statusCode).toBe(403);
    for (const [path, method] of [
      ['/', 'get'],
      ['/debug/count', 'get'],
      ['/users/login', 'post'],
      ['/health', 'get'],
    ] as const) {
      if (!document.paths[path]?.[method]) continue;
      expect(Object.keys(operation(path, method).responses), `${method} ${path}`).toContain('403');
    }
  });

  it('the ETag header is declared where it is sent', async () => {
    const device = await create(ctx, 'devices', { hostname: unique('etag'), ip: '192.0.2.1' });
    const read = await ctx.as('admin', { method: 'GET', url: `/devices/${device.id}` });
    expect(read.headers.etag).toBeDefined();
    for (const [path, method, status] of [
      ['/devices/{id}', 'get', '200'],
      ['/devices', 'post', '201'],
      ['/devices/{id}', 'put', '200'],
      ['/devices/{id}', 'patch', '200'],
      ['/webhooks/{id}', 'get', '200'],
    ] as const) {
      const headers = operation(path, method).responses[status]?.headers;
      expect(headers?.ETag, `${method} ${path} ${status}`).toMatchObject({
        schema: { type: 'string' },
      });
    }
    expect(operation('/devices', 'get').responses['200']?.headers?.ETag).toBeUndefined();
  });

  it('an operation API tokens may call says with which scope', () => {
    expect(operation('/events', 'post').description).toMatch(/API tokens with scope events:write/);
    expect(operation('/events', 'get').description).toMatch(/API tokens with scope events:read/);
    expect(operation('/devices', 'post').description).not.toMatch(/API token/);
  });

  it('the bearer scheme takes JWTs and API tokens alike', () => {
    const bearer = document.components.securitySchemes.bearer;
    expect(bearer?.scheme).toBe('bearer');
    expect(bearer?.bearerFormat).not.toBe('JWT');
    expect(String(bearer?.description)).toMatch(/nit_/);
  });
});
