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

/**
 * Bytes that are not UTF-8 have no text to store: decoding them as Node does by default turns
 * each bad sequence into U+FFFD, which was then stored and answered 201. Every body and query
 * string is decoded strictly; a CSV file may declare the single-byte charset Excel writes.
 */
describe('bytes that are not valid UTF-8 are refused, never stored as U+FFFD', () => {
  const body = (contentType: string, ...parts: Array<string | number[]>) => ({
    headers: { 'content-type': contentType },
    payload: Buffer.concat(
      parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))),
    ),
  });
  const refusal = { status: 'error', message: 'Request body is not valid UTF-8' };

  it.each([
    ['a Latin-1 é in JSON', body('application/json', '{"name":"caf', [0xe9], '"}')],
    [
      'an encoded surrogate in JSON',
      body('application/json', '{"name":"x', [0xed, 0xa0, 0x80], '"}'),
    ],
    ['a truncated sequence in CSV', body('text/csv', 'name\ncaf', [0xc3], '\n')],
    ['an encoded surrogate in CSV', body('text/csv', 'name\nx', [0xed, 0xbf, 0xbf], '\n')],
    [
      'a Latin-1 é in CSV declared UTF-8',
      body('text/csv; charset=UTF-8', 'name\ncaf', [0xe9], '\n'),
    ],
  ])('%s: 400', async (_case, request) => {
    const response = await ctx.as('admin', { method: 'POST', url: '/locations', ...request });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual(refusal);
  });

  it('a CSV file in ISO-8859-1 or windows-1252 (what Excel writes) is decoded as declared', async () => {
    const name = unique('latin');
    const latin1 = await ctx.as('admin', {
      method: 'POST',
      url: '/locations',
      ...body('text/csv; charset=iso-8859-1', `name,city\n${name},Z`, [0xfc], 'rich\n'),
    });
    expect(latin1.statusCode, latin1.body).toBe(201);
    expect(latin1.json()[0].city).toBe('Zürich');
    const cp1252 = await ctx.as('admin', {
      method: 'POST',
      url: '/locations',
      ...body('text/csv; charset="windows-1252"', `name,address\n${name}-2,`, [0x80], '5\n'),
    });
    expect(cp1252.statusCode, cp1252.body).toBe(201);
    expect(cp1252.json()[0].address).toBe('€5');
  });

  it('a CSV file in another charset: 415 naming those accepted', async () => {
    const response = await ctx.as('admin', {
      method: 'POST',
      url: '/locations',
      ...body('text/csv; charset=koi8-r', 'name\nx\n'),
    });
    expect(response.statusCode, response.body).toBe(415);
    expect(response.json()).toEqual({
      status: 'error',
      message:
        'Unsupported charset for text/csv: koi8-r (accepted: utf-8, us-ascii, iso-8859-1, windows-1252)',
    });
  });

  it('a query string whose percent-encoded bytes are not UTF-8: 400 on every route', async () => {
    for (const url of [
      '/devices?hostname=%E0%A4',
      '/devices?q=%C3',
      '/locations?name=%ED%A0%80x',
    ]) {
      const response = await ctx.as('viewer', { method: 'GET', url });
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toEqual({
        status: 'error',
        message: 'Malformed query string: percent-encoded bytes that are not UTF-8',
      });
    }
    const valid = await ctx.as('viewer', {
      method: 'GET',
      url: '/locations?name=Z%C3%BCrich%20%F0%9F%9A%80',
    });
    expect(valid.statusCode, valid.body).toBe(200);
  });
});
