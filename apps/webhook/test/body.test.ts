import { describe, expect, it } from 'vitest';
import { printable } from '../src/format/printable.js';
import { createPrinter, requestJson, requestLine } from '../src/output/printers.js';
import { formatBody, hexRow } from '../src/ui/body.js';
import { buildDetail, COLLAPSED_BODY_LINES, sortHeaders } from '../src/ui/detail.js';
import { makeRecord } from './helpers.js';

const lines = (view: ReturnType<typeof formatBody>) => ('lines' in view ? view.lines : []);

describe('body formatting', () => {
  it('pretty-prints JSON by content type with two spaces', () => {
    const view = formatBody(
      Buffer.from('{"a":1,"b":[true,null]}'),
      'application/json; charset=utf-8',
    );
    expect(view.kind).toBe('json');
    expect(lines(view)).toEqual([
      '{',
      '  "a": 1,',
      '  "b": [',
      '    true,',
      '    null',
      '  ]',
      '}',
    ]);
  });

  it('recognises JSON by content when the type says nothing', () => {
    expect(formatBody(Buffer.from('[1,2]'), undefined).kind).toBe('json');
    expect(formatBody(Buffer.from('[1,2]'), 'text/plain').kind).toBe('json');
  });

  it('re-indents by tokens, so nothing a parser would change is lost', () => {
    const cases: [string, string[]][] = [
      ['{"id":9007199254740993}', ['{', '  "id": 9007199254740993', '}']],
      ['{"a":1,"a":2}', ['{', '  "a": 1,', '  "a": 2', '}']],
      [
        '[0.1000000000000000055511151231257827]',
        ['[', '  0.1000000000000000055511151231257827', ']'],
      ],
      ['[1e400,1E-7,-0.0]', ['[', '  1e400,', '  1E-7,', '  -0.0', ']']],
      ['{"a\\u0062":"\\u00e9"}', ['{', '  "a\\u0062": "\\u00e9"', '}']],
      [' { "e" : { } , "f" : [ ] } ', ['{', '  "e": {},', '  "f": []', '}']],
      [
        '[[1,[]],{"k":{"l":null}}]',
        [
          '[',
          '  [',
          '    1,',
          '    []',
          '  ],',
          '  {',
          '    "k": {',
          '      "l": null',
          '    }',
          '  }',
          ']',
        ],
      ],
    ];
    for (const [text, expected] of cases) {
      const view = formatBody(Buffer.from(text), 'application/json');
      expect(view.kind).toBe('json');
      expect(view.label).toBe('JSON');
      expect(lines(view)).toEqual(expected);
    }
  });

  it('lays out what JSON.stringify would, for JSON it would not change', () => {
    const value = { a: [1, { b: 'x', c: [] }], d: {}, e: 'q"uote', f: true, g: null };
    const text = JSON.stringify(value);
    expect(lines(formatBody(Buffer.from(text), undefined))).toEqual(
      JSON.stringify(value, null, 2).split('\n'),
    );
  });

  it('shows JSON over 1 MiB as sent, without re-indenting', () => {
    const big = JSON.stringify({ data: 'x'.repeat(1024 * 1024) });
    const view = formatBody(Buffer.from(big), 'application/json');
    expect(view.kind).toBe('json');
    expect(view.label).toBe('JSON, shown as sent (over 1 MiB)');
    expect(lines(view)).toEqual([big]);
    expect(formatBody(Buffer.from(big), undefined).kind).toBe('text');
  });

  it('survives JSON nested deeper than the stack', () => {
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    const view = formatBody(Buffer.from(deep), 'application/json');
    expect(['json', 'text']).toContain(view.kind);
  });

  it('shows invalid JSON under a JSON type as text', () => {
    const view = formatBody(Buffer.from('{"a":'), 'application/json');
    expect(view.kind).toBe('text');
    expect(view.label).toContain('not valid JSON');
  });

  it('shows form bodies as fields', () => {
    const view = formatBody(
      Buffer.from('name=J%C3%BCrgen+M&tag=a&tag=b&empty='),
      'application/x-www-form-urlencoded',
    );
    expect(view.kind).toBe('form');
    expect(lines(view)).toEqual(['name = Jürgen M', 'tag = a', 'tag = b', 'empty = ']);
  });

  it('shows UTF-8 text as is, control characters made visible', () => {
    const view = formatBody(
      Buffer.from('héllo\r\nworld \x1b[2J\x1b]0;pwned\x07 \u009b'),
      'text/plain',
    );
    expect(view.kind).toBe('text');
    expect(lines(view)).toEqual(['héllo', 'world ␛[2J␛]0;pwned␇ <U+009B>']);
    const codes = [...lines(view).join('')].map((char) => char.charCodeAt(0));
    expect(codes.filter((code) => code < 0x20 || (code >= 0x7f && code <= 0x9f))).toEqual([]);
  });

  it('dumps anything else as hex with its size', () => {
    const body = Buffer.from([0xff, 0xfe, 0x00, 0x41, 0x42]);
    const view = formatBody(body, 'application/octet-stream');
    expect(view.kind).toBe('binary');
    expect(hexRow(body, 0, 16)).toBe(
      '00000000  ff fe 00 41 42                                    |...AB|',
    );
    const detail = buildDetail(makeRecord({ body }), 80, false);
    const text = Array.from({ length: detail.length }, (_, i) => detail.line(i).text);
    expect(text).toContain('Body · binary, hex dump · 5 B');
  });

  it('keeps a truncated UTF-8 body as text even when the cut splits a character', () => {
    const body = Buffer.from('ab✓', 'utf8').subarray(0, 4); // ✓ is three bytes
    expect(formatBody(body, 'text/plain', true).kind).toBe('text');
    expect(formatBody(body, 'text/plain', false).kind).toBe('binary');
  });

  it('shows an empty body as empty', () => {
    expect(formatBody(Buffer.alloc(0), 'application/json').kind).toBe('empty');
  });
});

function text2(record: ReturnType<typeof makeRecord>, width: number, expanded: boolean) {
  const document = buildDetail(record, width, expanded);
  return Array.from({ length: document.length }, (_, i) => document.line(i).text);
}

describe('body formatting: literals and byte order marks', () => {
  it('re-indents 12.50, 1.0, 1e3 and -0 without rewriting them (pretty-printing rewrote literals)', () => {
    const view = formatBody(
      Buffer.from('{"price":12.50,"one":1.0,"k":1e3,"z":-0,"big":9007199254740993}'),
      'application/json',
    );
    expect(view.kind).toBe('json');
    expect(lines(view)).toEqual([
      '{',
      '  "price": 12.50,',
      '  "one": 1.0,',
      '  "k": 1e3,',
      '  "z": -0,',
      '  "big": 9007199254740993',
      '}',
    ]);
  });

  it('finds JSON after a byte order mark and says the mark is there (it was shown as text)', () => {
    const view = formatBody(Buffer.from('\ufeff{"a":1}'), 'application/json');
    expect(view.kind).toBe('json');
    expect(view.label).toContain('U+FEFF');
    expect(lines(view)).toEqual(['{', '  "a": 1', '}']);
  });
});

describe('detail document: header values', () => {
  it.each([
    // Node hands header bytes over as Latin-1: the UTF-8 bytes of "Zoë" arrive as "ZoÃ«".
    [
      'a UTF-8 value as UTF-8, not Latin-1 (it was shown as mojibake)',
      Buffer.from('Zoë', 'utf8').toString('latin1'),
      'Zoë',
    ],
    ['a value that is not valid UTF-8 as Latin-1', 'caf\u00e9', 'café'],
  ])('shows %s', (_case, raw, shown) => {
    const record = makeRecord({ headers: [['X-Value', raw]] });
    const document = buildDetail(record, 100, false);
    const text = Array.from({ length: document.length }, (_, i) => document.line(i).text);
    expect(text).toContain(`  X-Value: ${shown}`);
  });
});

describe('detail document', () => {
  const body = Buffer.from(Array.from({ length: 50 }, (_, i) => `line ${i}`).join('\n'));
  const record = makeRecord({
    body,
    query: [
      ['b', '2'],
      ['a', '1'],
    ],
    headers: [
      ['X-B', '2'],
      ['accept', '*/*'],
      ['X-A', 'first'],
      ['x-a', 'second'],
    ],
  });
  const text = (width: number, expanded: boolean) => {
    const document = buildDetail(record, width, expanded);
    return Array.from({ length: document.length }, (_, i) => document.line(i).text);
  };

  it('shows timestamp, method, URL, query, headers sorted by name, then the body', () => {
    const shown = text(80, false);
    expect(shown[0]).toBe('POST http://127.0.0.1:9080/hooks/test');
    expect(shown[1]).toMatch(
      /^#\d+ · 2026-11-2\d \d\d:\d\d:59\.123 [+-]\d\d:\d\d · 127\.0\.0\.1:50000 · HTTP\/1\.1$/,
    );
    expect(shown).toContain('  b = 2');
    const headers = shown.slice(shown.indexOf('Headers (4)') + 1, shown.indexOf('Headers (4)') + 5);
    expect(headers).toEqual(['  accept: */*', '  X-A: first', '  x-a: second', '  X-B: 2']);
  });

  it('collapses the body to 20 lines, then says how many more', () => {
    const collapsed = text(80, false);
    expect(collapsed.at(-1)).toBe('... 30 more lines (Enter to expand)');
    expect(collapsed.filter((line) => line.startsWith('line '))).toHaveLength(COLLAPSED_BODY_LINES);
    const expanded = text(80, true);
    expect(expanded.filter((line) => line.startsWith('line '))).toHaveLength(50);
    expect(expanded.at(-1)).toBe('line 49');
  });

  it('wraps long lines to the pane width', () => {
    const long = makeRecord({ body: Buffer.from('x'.repeat(95)) });
    const document = buildDetail(long, 40, true);
    const rows = Array.from({ length: document.length }, (_, i) => document.line(i).text);
    expect(rows.slice(-3)).toEqual(['x'.repeat(40), 'x'.repeat(40), 'x'.repeat(15)]);
    expect(rows.every((row) => row.length <= 40)).toBe(true);
  });

  it('counts a long line by the rows it wraps to when collapsed', () => {
    const oneLine = makeRecord({ body: Buffer.from('y'.repeat(100 * 50 + 7)) });
    const rows = text2(oneLine, 50, false);
    expect(rows.filter((row) => row === 'y'.repeat(50))).toHaveLength(COLLAPSED_BODY_LINES);
    expect(rows.at(-1)).toBe('... 81 more lines (Enter to expand)');
    // Wide characters take two columns: five to a 10-column row, never spilling over the pane.
    const wide = makeRecord({ body: Buffer.from('😀'.repeat(15)) });
    expect(text2(wide, 10, true).slice(-3)).toEqual([
      '😀'.repeat(5),
      '😀'.repeat(5),
      '😀'.repeat(5),
    ]);
    const cjk = makeRecord({ body: Buffer.from('漢字x漢字') });
    expect(text2(cjk, 4, true).slice(-3)).toEqual(['漢字', 'x漢', '字']);
  });

  it('builds hex rows on demand for a large binary body', () => {
    const big = makeRecord({ body: Buffer.alloc(10 * 1024 * 1024, 0xff) });
    const started = performance.now();
    const document = buildDetail(big, 100, true);
    expect(document.line(document.length - 1).text).toMatch(/^009ffff0 {2}ff ff/);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('sorts headers case-insensitively and keeps repeats in order', () => {
    expect(
      sortHeaders([
        ['b', '1'],
        ['A', '1'],
        ['a', '2'],
        ['B', '2'],
      ]),
    ).toEqual([
      ['A', '1'],
      ['a', '2'],
      ['b', '1'],
      ['B', '2'],
    ]);
  });
});

describe('printers', () => {
  it('prints one safe line per request', () => {
    const record = makeRecord({ path: '/a\x1b[31m', body: Buffer.from('12345') });
    expect(requestLine(record)).toMatch(/^\d\d:\d\d:59 POST \/a␛\[31m 5$/);
    expect(printable('tab\there')).toBe('tab    here');
  });

  it('prints JSON with text bodies as text and other bodies as base64', () => {
    const text = JSON.parse(requestJson(makeRecord({ body: Buffer.from('héllo') })));
    expect(text).toMatchObject({ body: 'héllo', bodyEncoding: 'utf8', size: 6, method: 'POST' });
    const binary = JSON.parse(requestJson(makeRecord({ body: Buffer.from([0xff, 0x00]) })));
    expect(binary).toMatchObject({ body: '/wA=', bodyEncoding: 'base64' });
    expect(binary.headers).toEqual([['Host', '127.0.0.1:9080']]);
  });
});

describe('printer', () => {
  it('writes the lines of one event-loop turn at once, and flushes on demand', async () => {
    const writes: string[] = [];
    const stream = {
      write: (text: string) => writes.push(text),
    } as unknown as NodeJS.WritableStream;
    const printer = createPrinter(stream, (record) => record.path);
    printer.print(makeRecord({ path: '/a' }));
    printer.print(makeRecord({ path: '/b' }));
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(['/a\n/b\n']);
    printer.print(makeRecord({ path: '/c' }));
    printer.flush();
    expect(writes).toEqual(['/a\n/b\n', '/c\n']);
  });
});
