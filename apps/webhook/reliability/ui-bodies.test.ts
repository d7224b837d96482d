// Hostile bodies, headers and filters through the UI's pure parts (body views, detail pane, filter
// language): whatever arrives, they return printable text in bounded time and never throw.
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeContent } from '../src/format/decode.js';
import { BODY_MODES, buildDetail } from '../src/ui/detail.js';
import { matches, parseFilter } from '../src/ui/filter.js';
import { makeRecord } from '../test/helpers.js';
import { scaled } from './support.js';

/** A small seeded generator (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NASTY = [
  '\x1b[2J',
  '\x1b]52;c;cm0gLXJmIH4=\x07',
  '\u009b31m',
  '\u202e',
  '\u2028',
  '\ufeff',
  '\u200b',
  '\u0000',
  '😀',
  '漢',
  'e\u0301',
  '{"a":',
  '[[[[',
  '"\\u0000"',
  '--b\r\n',
  '\r\n\r\n',
];

// biome-ignore lint/suspicious/noControlCharactersInRegex: what must never reach the terminal
const RAW = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/;

describe('UI bodies under hostile input', () => {
  it('shows any body, in any view, as printable text in bounded time', async () => {
    const next = random(17);
    const cases = scaled(150, 2000);
    const types = [
      'application/json',
      'text/plain',
      'multipart/form-data; boundary=b',
      'multipart/mixed; boundary="b"',
      'application/x-www-form-urlencoded',
      undefined,
    ];
    const encodings = [undefined, 'gzip', 'deflate', 'br', 'gzip, br', 'zstd'];
    for (let i = 0; i < cases; i += 1) {
      const parts: Buffer[] = [];
      const count = 1 + Math.floor(next() * 40);
      for (let j = 0; j < count; j += 1) {
        if (next() < 0.5) parts.push(Buffer.from(NASTY[Math.floor(next() * NASTY.length)] ?? ''));
        else
          parts.push(
            Buffer.from(
              Array.from({ length: 1 + Math.floor(next() * 30) }, () => Math.floor(next() * 256)),
            ),
          );
      }
      let body = Buffer.concat(parts);
      const encoding = encodings[Math.floor(next() * encodings.length)];
      if (encoding === 'gzip' && next() < 0.7) body = gzipSync(body);
      if (encoding === 'deflate' && next() < 0.7) body = deflateSync(body);
      if (encoding === 'br' && next() < 0.7) body = brotliCompressSync(body);
      const type = types[Math.floor(next() * types.length)];
      const headers: [string, string][] = [
        ['X-Nasty', Buffer.from(NASTY.join('')).toString('latin1')],
      ];
      if (type) headers.push(['Content-Type', type]);
      if (encoding) headers.push(['Content-Encoding', encoding]);
      const record = makeRecord({
        body,
        headers,
        truncated: next() < 0.2,
        path: `/${NASTY[i % NASTY.length]}`,
      });
      // Shown as the UI shows it once the decode it asked for came back.
      const decoding = await decodeContent(record.body, encoding, record.truncated);
      const decoded = new Map([[record.body, decoding]]);
      for (const mode of BODY_MODES) {
        for (const expanded of [false, true]) {
          const started = performance.now();
          const width = 1 + Math.floor(next() * 120);
          const document = buildDetail(record, width, expanded, mode, decoded);
          for (let line = 0; line < Math.min(document.length, 400); line += 1) {
            const { text } = document.line(line);
            if (RAW.test(text))
              throw new Error(`case ${i} ${mode}: raw control in ${JSON.stringify(text)}`);
          }
          expect(performance.now() - started).toBeLessThan(1000);
        }
      }
    }
  });

  it('takes any filter text without throwing, and any record through it', () => {
    const next = random(29);
    const record = makeRecord({ body: Buffer.from(NASTY.join('')) });
    const alphabet = [
      'a',
      ':',
      '"',
      '!',
      '*',
      '=',
      ' ',
      '(',
      '[',
      '\\',
      '$',
      '^',
      '4',
      'x',
      'status',
      'header',
      'path',
      'verified',
      'method',
      ...NASTY,
    ];
    for (let i = 0; i < scaled(500, 20_000); i += 1) {
      let text = '';
      const length = Math.floor(next() * 12);
      for (let j = 0; j < length; j += 1) text += alphabet[Math.floor(next() * alphabet.length)];
      const parsed = parseFilter(text);
      if (parsed.ok) matches(parsed.filter, record);
      else expect(parsed.error.length).toBeGreaterThan(0);
    }
  });
});
