import { readFileSync } from 'node:fs';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { paths } from './client/api-types.js';
import { generateTypes, TYPES_FILE } from './client/generate-types.js';
import { startTestApp, TEST_PASSWORD, type TestContext } from './helpers.js';

/**
 * A client generated from the OpenAPI document (openapi-typescript types, openapi-fetch calls)
 * against the running server, over HTTP: it signs in, creates, filters, changes under If-Match
 * and deletes, with no casts, so the document's types are the ones the server answers with
 * (`npm run typecheck` checks this file against them). The committed types are the document's:
 * the first test fails when they drift from it.
 */

let ctx: TestContext;
let baseUrl: string;
beforeAll(async () => {
  ctx = await startTestApp();
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const address = ctx.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening on TCP');
  baseUrl = `http://127.0.0.1:${address.port}`;
});
afterAll(() => ctx?.close());

/**
 * The lists' `lookups` parameter is an object serialised `form` with `explode` (the document
 * says so): each property is its own query parameter, `?hostname__ic=core`.
 */
const querySerializer = { object: { style: 'form', explode: true } } as const;

describe('a client generated from the OpenAPI document', () => {
  it('has the types the document generates today', async () => {
    const document = (await ctx.app.inject({ url: '/openapi.json' })).json();
    expect(await generateTypes(document), 'npm run openapi:types -w apps/inventory').toBe(
      readFileSync(TYPES_FILE, 'utf8'),
    );
  });

  it('signs in, creates, filters, changes under If-Match and deletes', async () => {
    const anonymous = createClient<paths>({ baseUrl });
    const login = await anonymous.POST('/users/login', {
      body: { username: 'admin', password: TEST_PASSWORD },
    });
    expect(login.response.status).toBe(200);
    const token = login.data?.token;
    if (!token) throw new Error(`no token: ${JSON.stringify(login.error)}`);

    // JSON answers: a list also answers text/csv (the `format` parameter), not asked for here.
    const client = createClient<paths, `application/json`>({
      baseUrl,
      headers: { authorization: `Bearer ${token}` },
      querySerializer,
    });
    const created = await client.POST('/devices', {
      body: { hostname: 'typed-core-1', ip: '192.0.2.50', vendor: 'Juniper', tags: ['typed'] },
    });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    const device = created.data;
    if (device === undefined || Array.isArray(device)) throw new Error('expected one record');
    expect(device.hostname).toBe('typed-core-1');
    await client.POST('/devices', {
      body: [
        { hostname: 'typed-core-2', ip: '192.0.2.51', vendor: 'Juniper', status: 'offline' },
        { hostname: 'typed-edge-1', ip: '192.0.2.52', vendor: 'Cisco' },
      ],
    });

    const listed = await client.GET('/devices', {
      params: {
        query: {
          vendor: 'Juniper',
          lookups: { hostname__isw: 'typed-core', ip__gte: '192.0.2.50' },
          sortby: ['hostname:desc'],
          limit: 100,
        },
      },
    });
    expect(listed.response.status, JSON.stringify(listed.error)).toBe(200);
    expect(listed.data?.data.map((row) => row.hostname)).toEqual(['typed-core-2', 'typed-core-1']);
    expect(listed.data?.meta.total_count).toBe(2);

    const read = await client.GET('/devices/{id}', { params: { path: { id: device.id } } });
    const etag = read.response.headers.get('etag');
    if (etag === null) throw new Error('no ETag');
    const patched = await client.PATCH('/devices/{id}', {
      params: { path: { id: device.id }, header: { 'if-match': etag } },
      body: { status: 'maintenance' },
    });
    expect(patched.response.status, JSON.stringify(patched.error)).toBe(200);
    expect(patched.data?.status).toBe('maintenance');
    // The tag read before the change is stale now: 412, the error shape typed.
    const stale = await client.PATCH('/devices/{id}', {
      params: { path: { id: device.id }, header: { 'if-match': etag } },
      body: { status: 'active' },
    });
    expect(stale.response.status).toBe(412);
    expect(stale.error?.message).toMatch(/^Precondition failed/);

    const deleted = await client.DELETE('/devices/{id}', {
      params: {
        path: { id: device.id },
        header: { 'if-match': patched.response.headers.get('etag') ?? '' },
      },
    });
    expect(deleted.response.status).toBe(204);
    const gone = await client.GET('/devices/{id}', { params: { path: { id: device.id } } });
    expect(gone.response.status).toBe(404);
    expect(gone.error?.message).toBe('Device not found');
  });
});
