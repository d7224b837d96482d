import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import sanitizeHtml from 'sanitize-html';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mayHoldMarkup } from '../../src/protections/content-check.js';
import { findMarkup, formatPath, holdsMarkup } from '../../src/protections/index.js';
import { buildTestApp } from './helpers.js';

/** The only entities sanitize-html writes: it decodes the input's, then escapes these. */
const SANITIZER_ESCAPES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"' };

/**
 * The reference: the check's former implementation, sanitize-html over the whole value with no
 * allowed tags, its own escaping undone. Whether it changed the text is the question.
 */
function sanitizerAltersText(text: string): boolean {
  const sanitized = sanitizeHtml(text, { allowedTags: [], allowedAttributes: {} });
  return (
    sanitized.replace(/&(amp|lt|gt|quot);/g, (_, name: string) => SANITIZER_ESCAPES[name] ?? '') !==
    text
  );
}

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

  // The check answers sanitize-html's question without running it (sanitize-html took
  // 0.9 s of CPU over one 1 MB value). Equivalence with sanitize-html itself, over strings made
  // of HTML's punctuation, whitespace, references and tag names, and over arbitrary strings
  // salted with `<` and `&`.
  const hostile = fc
    .array(
      fc.constantFrom(
        ...'<<<&&&>;#/="\'!?-[]x0Z9aA'.split(''),
        ...' \t\n\f\r\u000b\u00a0\u0000\uD800'.split(''),
        'amp',
        'amp;',
        'lt',
        'lt;',
        'gt;',
        'quot;',
        'copy',
        'not',
        'notin;',
        'CounterClockwiseContourIntegral;',
        'CounterClockwiseContourIntegra',
        '#60;',
        '#x3c',
        '#x',
        '#',
        'script',
        'title',
        'textarea',
        'style',
        '[CDATA[',
        ']]>',
        '--',
        '</',
        '</>',
        '<!--',
        '-->',
        '<?',
        '<b>',
      ),
      { maxLength: 24 },
    )
    .map((parts) => parts.join(''));
  const salted = fc
    .array(
      fc.oneof(
        fc.string({ unit: 'binary', maxLength: 4 }),
        fc.constantFrom('<', '&', '</', '</ >', '&#', '&a', '<a', '<!', '<?', '&lt', '&amp;'),
      ),
      { maxLength: 20 },
    )
    .map((parts) => parts.join(''));

  it.each([
    ['strings of HTML punctuation, references and tags', hostile],
    ['arbitrary strings salted with < and &', salted],
  ])('answers as sanitize-html does: %s', (_name, strings) => {
    let changed = 0;
    const numRuns = Number(process.env.FC_RUNS ?? 4000);
    fc.assert(
      fc.property(strings, (text) => {
        const expected = sanitizerAltersText(text);
        changed += expected ? 1 : 0;
        expect(holdsMarkup(text)).toBe(expected);
      }),
      { numRuns },
    );
    // Both answers must be common, or the comparison proves little.
    expect(changed).toBeGreaterThan(numRuns / 10);
    expect(changed).toBeLessThan(numRuns * 0.9);
  });

  it.each([
    'a</>b',
    'x </  >',
    'trailing </',
    'trailing </ \t',
    '&am</>p;',
    '&#x;',
    '&#;',
    '&&',
    '&1',
    '&ampx',
    '&notit;',
    '&Amp;',
    '<<<<a',
    '</ x',
    '<!',
    '<?',
    'a<',
  ])('agrees with sanitize-html on %j', (text) => {
    expect(holdsMarkup(text)).toBe(sanitizerAltersText(text));
  });

  it('never misses a markup start that mayHoldMarkup would flag first', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        if (holdsMarkup(text)) expect(mayHoldMarkup(text)).toBe(true);
      }),
      { numRuns: 2000 },
    );
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
