import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mayHoldMarkup, sanitizerAltersText } from '../../src/protections/content-check.js';
import { findMarkup, formatPath, holdsMarkup } from '../../src/protections/index.js';
import { buildTestApp } from './helpers.js';

describe('what counts as markup', () => {
  it.each([
    'R&D',
    'a < b',
    'x > 3',
    '1<2 and 3>2',
    'AT&T; Johnson & Johnson',
    '"quoted" and \'single\'',
    'emoji 🛰️ and ünïcödé',
    '<',
    '',
    'ge-0/0/1 -> core-sw1',
  ])('accepts %j', (text) => {
    expect(holdsMarkup(text)).toBe(false);
  });

  it.each([
    '<script>alert(1)</script>',
    '<b>x</b>',
    '<img src=x onerror=alert(1)>',
    'a<b',
    'before <!-- comment --> after',
    'close</p>',
    '<svg/onload=alert(1)>',
    '&lt;script&gt;',
    'R&amp;D',
    '&#x3C;img&#x3E;',
  ])('refuses %j', (text) => {
    expect(holdsMarkup(text)).toBe(true);
  });

  // The shortcut skips the sanitiser for text without a markup start (`<` + letter, /, !, ?;
  // `&` + letter, digit, #). Sound only if the sanitiser never changes such text: checked here
  // over arbitrary strings (any code point, lone surrogates, controls) salted with `<` and `&`,
  // and over strings dense in HTML punctuation.
  const salted = fc
    .array(
      fc.oneof(
        fc.string({ unit: 'binary', maxLength: 4 }),
        fc.constantFrom('<', '&', '<<', '&&', '< ', '& ', '&;', '<=', '<>', '<-', '<3', '&-', '&<'),
      ),
      { maxLength: 30 },
    )
    .map((parts) => parts.join(''));
  const htmlish = fc
    .array(
      fc.constantFrom(
        ...'<&>/="\'!-;#?[]{}()\\`.,:|~^%*+_@$'.split(''),
        ...'\u0000\r\n\t \u00a0\uFEFF\uD800\u00e9\u0130\u212a'.split(''),
        'script',
        'amp;',
        'lt;',
        'x',
        '0',
        'Z',
      ),
      { maxLength: 60 },
    )
    .map((parts) => parts.join(''));

  it.each([
    ['arbitrary strings salted with < and &', salted],
    ['HTML-like strings', htmlish],
  ])('never needs the sanitiser for text without a markup start: %s', (_name, strings) => {
    const numRuns = 1500;
    let checked = 0;
    fc.assert(
      fc.property(strings, (text) => {
        fc.pre(!mayHoldMarkup(text));
        checked += text.includes('<') || text.includes('&') ? 1 : 0;
        expect(sanitizerAltersText(text)).toBe(false);
      }),
      { numRuns },
    );
    // The property must have met many strings that do hold < or &, or it proves little.
    expect(checked).toBeGreaterThan(numRuns / 10);
  });

  it('sends every markup start to the sanitiser', () => {
    for (const start of ['<a', '<Z', '</', '<!', '<?', '&a', '&Z', '&0', '&#']) {
      expect(mayHoldMarkup(`x ${start} y`)).toBe(true);
    }
  });
});

describe('findMarkup', () => {
  it('names the path of a nested value and of a key', () => {
    const body = { items: [{ name: 'ok' }, { name: 'ok' }, { name: '<b>bad</b>' }] };
    expect(findMarkup(body)).toEqual({ path: ['items', 2, 'name'], inKey: false });
    expect(findMarkup({ a: { '<img src=x>': 1 } })).toEqual({ path: ['a'], inKey: true });
    expect(findMarkup([{ x: ['fine', '<i>no</i>'] }])).toEqual({ path: [0, 'x', 1], inKey: false });
    expect(findMarkup('<p>')).toEqual({ path: [], inKey: false });
    expect(findMarkup({ a: 1, b: true, c: null, d: [1.5, 'R&D'] })).toBeUndefined();
  });

  it('reports the first offender in document order', () => {
    expect(findMarkup({ a: 'ok', b: ['<b>1</b>'], c: '<b>2</b>' })?.path).toEqual(['b', 0]);
  });

  it('walks bodies nested deeper than the call stack without crashing', () => {
    let deep: unknown = '<script>x</script>';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(findMarkup(deep)?.path).toHaveLength(200_000);
  });

  it('formats paths the way a client writes them', () => {
    expect(formatPath(['items', 2, 'name'])).toBe('items[2].name');
    expect(formatPath([0, 'x'])).toBe('[0].x');
    expect(formatPath(['odd key', 'a-b', 'ok'])).toBe('["odd key"]["a-b"].ok');
    expect(formatPath(['a'.repeat(1000), 0])).toBe(`["${'a'.repeat(64)}…"][0]`);
  });
});

describe('the content check on requests', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp({ env: { RATE_LIMIT_MAX: '0' } });
  });
  afterAll(() => app.close());

  const post = (payload: unknown, method: 'POST' | 'PUT' | 'PATCH' | 'DELETE' = 'POST') =>
    app.inject({ method, url: '/echo', payload: payload as string });

  it('accepts clean JSON, ampersands and comparisons included', async () => {
    const body = {
      name: 'R&D lab',
      note: 'cpu < 80 and temp > 3',
      tags: ['a', 'b'],
      n: 3,
      ok: true,
      none: null,
    };
    const response = await post(body);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ body });
  });

  it.each([
    [{ hostname: '<script>alert(1)</script>' }, 'Field "hostname" contains HTML or script content'],
    [
      { items: [{ name: 'a' }, { name: 'b' }, { name: '<b>x</b>' }] },
      'Field "items[2].name" contains HTML or script content',
    ],
    [
      [{ id: 1 }, { note: '<img src=x onerror=alert(1)>' }],
      'Field "[1].note" contains HTML or script content',
    ],
    [
      { device: { '<svg onload=x>': 'v' } },
      'A field name in "device" contains HTML or script content',
    ],
    [{ '<b>k</b>': 1 }, 'A field name contains HTML or script content'],
  ])('refuses %j with 400 naming the field', async (payload, message) => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const response = await post(payload, method);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ status: 'error', message });
    }
  });

  it('checks form bodies', async () => {
    const clean = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=R%26D&note=a+%3C+b',
    });
    expect(clean.statusCode).toBe(200);
    expect(clean.json()).toEqual({ body: { name: 'R&D', note: 'a < b' } });
    const dirty = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=ok&note=%3Cscript%3Ealert(1)%3C%2Fscript%3E',
    });
    expect(dirty.statusCode).toBe(400);
    expect(dirty.json().message).toBe('Field "note" contains HTML or script content');
  });

  it('checks plain-text bodies', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'text/plain' },
      payload: '<b>hello</b>',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Request body contains HTML or script content');
  });

  it.each([
    ['/search?q=%3Cscript%3E', 'Query parameter "q" contains HTML or script content'],
    [
      '/search?ok=1&tags=a&tags=%3Cb%3Ex%3C/b%3E',
      'Query parameter "tags[1]" contains HTML or script content',
    ],
    ['/search?%3Cb%3E=1', 'A query parameter name contains HTML or script content'],
    // Every request is checked, even one for an unknown route.
    ['/nowhere?q=%3Cscript%3E', 'Query parameter "q" contains HTML or script content'],
  ])('checks the query %s', async (url, message) => {
    const response = await app.inject({ url });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ status: 'error', message });
  });

  it('accepts a clean query', async () => {
    const response = await app.inject({
      url: '/search?hostname=R%26D-1&sortby=a:asc&sortby=b:desc',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ query: { hostname: 'R&D-1', sortby: ['a:asc', 'b:desc'] } });
  });

  it('answers a deeply nested body without a 500', async () => {
    const depth = 100_000;
    const response = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: `${'['.repeat(depth)}"<b>x</b>"${']'.repeat(depth)}`,
    });
    expect(response.statusCode).toBe(400);
  });

  it('checks a body full of < and & quickly', async () => {
    // Nearly 1 MB of strings that hold < and & but no markup start: the shortcut skips them all.
    const body = {
      rows: Array.from({ length: 30_000 }, (_, i) => ({ note: `cpu < ${i} & temp > 3` })),
    };
    expect(JSON.stringify(body).length).toBeGreaterThan(900_000);
    const started = performance.now();
    const response = await post(body);
    expect(response.statusCode).toBe(200);
    expect(performance.now() - started).toBeLessThan(1500);
  });
});
