import { describe, expect, it } from 'vitest';
import {
  recordToJson,
  requestJsonPieces,
  terminalSafeJson,
  VERBATIM_BODY_BYTES,
} from '../src/output/json.js';
import { requestJson } from '../src/output/printers.js';
import { makeRecord } from './helpers.js';

// biome-ignore lint/suspicious/noControlCharactersInRegex: the point of the check
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/;

describe('--json lines', () => {
  // JSON.stringify leaves C1 controls, bidi overrides, U+2028/2029 and
  // U+FEFF raw; printed to a terminal, U+009B acts as CSI and U+202E reverses the line.
  it('escapes C1 controls, bidi marks, line separators and format characters as \\u sequences', () => {
    const hostile =
      'a\u009b31m\u009d0;t\u0007\u202eevil\u2066\u2028\u2029\ufeff\u200b\u00ad\u007fz';
    const record = makeRecord({
      target: `/p?q=${encodeURIComponent(hostile)}`,
      path: `/p${hostile}`,
      headers: [['X-Name', hostile]],
      body: Buffer.from(`{"k":"${hostile}"}`),
    });
    const line = requestJson(record);
    expect(line).not.toMatch(CONTROLS);
    expect(line).not.toMatch(/[\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/);
    expect(line).toContain('\\u009b');
    expect(line).toContain('\\u202e');
    const parsed = JSON.parse(line) as { path: string; body: string };
    expect(parsed.path).toBe(`/p${hostile}`);
    expect(parsed.body).toBe(`{"k":"${hostile}"}`);
  });

  // The body is escaped apart from the rest of the line (it is most of the line, and scanning it
  // whole cost the --json flood memory): the line must still be exactly the escaped record.
  it.each([
    ['ASCII', Buffer.from('{"event":"push"}')],
    ['ASCII with DEL', Buffer.from('a\u007fb')],
    ['UTF-8 with U+2028 and U+202E', Buffer.from('x\u2028y\u202ez')],
    ['not UTF-8 (base64)', Buffer.from([0xff, 0x00, 0x9b])],
    ['empty', Buffer.alloc(0)],
    ['holding what looks like JSON of a body slot', Buffer.from('"\\u0000body\\u0000"')],
  ])('writes the same line as escaping the whole record (%s body)', (_case, body) => {
    const record = makeRecord({
      body,
      response: { status: 200, headers: [['X-Mark', '\u202e']], body: Buffer.from('ok') },
    });
    expect(requestJson(record)).toBe(terminalSafeJson(recordToJson(record)));
  });

  it.each([
    ['plain ASCII, written from its own bytes', 'a', true],
    ['ASCII with a quote', '"', false],
    ['ASCII with a tab', '\t', false],
  ])('writes a large body (%s) as the same line', (_case, filler, verbatim) => {
    const body = Buffer.from(`${'x'.repeat(VERBATIM_BODY_BYTES)}${filler}`);
    const record = makeRecord({ body });
    const pieces = requestJsonPieces(record);
    expect(pieces.some((piece) => piece === body)).toBe(verbatim);
    const line = pieces.map((piece) => piece.toString()).join('');
    expect(line).toBe(terminalSafeJson(recordToJson(record)));
  });
});

describe('--json lines with invisible characters beyond the common ones', () => {
  const INVISIBLES = [
    '\u061c',
    '\u00ad',
    '\u180e',
    '\ufff9',
    '\ufffb',
    '\u0600',
    '\u{e0001}',
    '\u{e0041}',
    '\u{e007f}',
    '\u{110bd}',
    '\u{1d173}',
    '\u2065',
  ];

  it.each(INVISIBLES.map((char) => [`U+${char.codePointAt(0)?.toString(16).toUpperCase()}`, char]))(
    'writes %s as \\u escapes that parse back to it',
    (_name, char) => {
      const hostile = `a${char}b`;
      const record = makeRecord({
        path: `/p${hostile}`,
        headers: [['X-Name', Buffer.from(hostile).toString('latin1')]],
        body: Buffer.from(`{"k":"${hostile}"}`),
      });
      const line = requestJson(record);
      expect(line).not.toContain(char);
      expect(line).toBe(terminalSafeJson(recordToJson(record)));
      const parsed = JSON.parse(line) as { path: string; body: string };
      expect(parsed.path).toBe(`/p${hostile}`);
      expect(parsed.body).toBe(`{"k":"${hostile}"}`);
      // Astral characters as their UTF-16 surrogate pair, as JSON writes them.
      const units = [...char].length === 1 && char.length === 2;
      if (units) expect(line).toMatch(/\\ud[89ab][0-9a-f]{2}\\ud[c-f][0-9a-f]{2}/);
    },
  );
});
