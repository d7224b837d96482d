import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext, unique } from './helpers.js';

/** Text fields hold valid Unicode only: what cannot be stored as sent is refused. */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

/**
 * A lone surrogate is valid in a JavaScript string (JSON may escape one, `"\\udfff"`) but has
 * no UTF-8 form: PostgreSQL cannot store it. Found by reliability/fuzz.test.ts: POST /events
 * stored `x\udfff` as `x\ufffd` and answered 201 with the altered text, while POST /devices
 * refused it as `Invalid value format`. Now every route refuses it the same way, naming the field.
 */
describe('text that is not valid Unicode is refused, never silently altered (found by the OpenAPI fuzzer)', () => {
  const json = (value: unknown) => ({
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(value),
  });

  it.each([
    ['/events', { severity: 'info', type: 'x\udfff', message: 'm' }, 'type'],
    ['/devices', { hostname: 'x\ud800y', ip: '192.0.2.1' }, 'hostname'],
    ['/locations', { name: 'ok', city: '\ud800' }, 'city'],
  ])('POST %s', async (url, body, field) => {
    const response = await ctx.as('admin', { method: 'POST', url, ...json(body) });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({
      status: 'error',
      message: `Field "${field}" contains text that is not valid Unicode (an unpaired surrogate)`,
    });
  });

  it('in a field name, and nested in a batch', async () => {
    const named = await ctx.as('admin', {
      method: 'POST',
      url: '/locations',
      ...json({ '\ud800': 1 }),
    });
    expect(named.json()).toEqual({
      status: 'error',
      message: 'A field name contains text that is not valid Unicode (an unpaired surrogate)',
    });
    const batch = await ctx.as('admin', {
      method: 'PATCH',
      url: '/devices',
      ...json([{ id: crypto.randomUUID(), vendor: 'a\udc00' }]),
    });
    expect(batch.json()).toEqual({
      status: 'error',
      message: 'Field "[0].vendor" contains text that is not valid Unicode (an unpaired surrogate)',
    });
  });

  it('a well-formed pair (an emoji) is stored as sent', async () => {
    const response = await ctx.as('admin', {
      method: 'POST',
      url: '/locations',
      payload: { name: unique('📡') },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().name).toMatch(/^📡-/);
  });
});
