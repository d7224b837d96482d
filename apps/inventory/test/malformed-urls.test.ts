import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from './helpers.js';

/** URLs the router refuses before any route runs still answer in the API's error shape. */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

describe('URLs the router itself refuses answer in the error shape (found by the OpenAPI fuzzer)', () => {
  it('a path parameter longer than the router takes: 414, not Fastify default body', async () => {
    const response = await ctx.as('admin', { method: 'GET', url: `/devices/${'x'.repeat(500)}` });
    expect(response.statusCode).toBe(414);
    expect(response.json()).toEqual({ status: 'error', message: 'URL path parameter too long' });
  });

  it('a path parameter that is not valid percent-encoding: 400', async () => {
    const response = await ctx.as('admin', { method: 'GET', url: '/devices/%E0%A4%A' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ status: 'error', message: 'Malformed URL' });
  });
});
