import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DECODED_LIMIT, decodeContent } from '../src/format/decode.js';
import { multipartBoundary, parseMultipart } from '../src/format/multipart.js';
import { type BodyMode, buildDetail } from '../src/ui/detail.js';
import { makeRecord } from './helpers.js';

const json = '{"amount":12.50,"items":[1,2]}';
const shown = (record: ReturnType<typeof makeRecord>, mode: BodyMode = 'pretty', width = 100) => {
  const document = buildDetail(record, width, true, mode);
  return Array.from({ length: document.length }, (_, i) => document.line(i).text);
};
const heading = (lines: string[]) => lines.find((line) => line.startsWith('Body · ')) ?? '';

describe('Content-Encoding', () => {
  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)('shows a %s body decoded and labelled, the bytes untouched', (coding, compress) => {
    const body = compress(Buffer.from(json));
    const record = makeRecord({
      body,
      headers: [
        ['Content-Type', 'application/json'],
        ['Content-Encoding', coding],
      ],
    });
    const lines = shown(record);
    expect(heading(lines)).toContain(`JSON, decoded from ${coding} (${json.length} B)`);
    expect(heading(lines)).toContain(`· ${body.length} B`);
    expect(lines).toContain('  "amount": 12.50,');
    expect(record.body).toBe(body);
    // hex shows the bytes as they came
    const hex = shown(record, 'hex');
    expect(heading(hex)).toContain('hex, as received');
    expect(hex.at(-1)).toMatch(/^0000/);
  });

  it('accepts raw deflate and a list of codings, undone in reverse order', () => {
    const raw = decodeContent(deflateRawSync(Buffer.from('hi')), 'deflate');
    expect(raw).toMatchObject({ kind: 'decoded', bytes: Buffer.from('hi') });
    const both = decodeContent(brotliCompressSync(gzipSync(Buffer.from('two'))), 'gzip, br');
    expect(both).toMatchObject({ kind: 'decoded', codings: 'gzip, br', bytes: Buffer.from('two') });
    expect(decodeContent(Buffer.from('x'), 'identity')).toEqual({ kind: 'none' });
  });

  it('stops a zip bomb at the limit without building it', () => {
    // 64 MiB of zeros compress to about 64 KiB.
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    const before = process.memoryUsage().arrayBuffers;
    const result = decodeContent(bomb, 'gzip');
    expect(result).toEqual({
      kind: 'failed',
      codings: 'gzip',
      reason: `decoded size over ${DECODED_LIMIT / (1024 * 1024)} MiB`,
    });
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(32 * 1024 * 1024);
    const record = makeRecord({ body: bomb, headers: [['Content-Encoding', 'gzip']] });
    expect(heading(shown(record))).toContain('gzip not decoded: decoded size over 4 MiB');
  });

  it('says when the data is not what the header claims, and shows it as it came', () => {
    const record = makeRecord({
      body: Buffer.from('plain'),
      headers: [['Content-Encoding', 'gzip']],
    });
    const lines = shown(record);
    expect(heading(lines)).toContain('gzip not decoded: not valid gzip data');
    expect(lines.at(-1)).toBe('plain');
    expect(decodeContent(Buffer.from('x'), 'zstd')).toMatchObject({
      reason: 'unknown coding zstd',
    });
  });

  it('decodes the start of a body cut by --max-body', () => {
    const full = gzipSync(Buffer.from('line\n'.repeat(10_000)));
    const record = makeRecord({
      body: full.subarray(0, 200),
      size: full.length,
      truncated: true,
      headers: [['Content-Encoding', 'gzip']],
    });
    const lines = shown(record);
    expect(heading(lines)).toContain('decoded from gzip');
    expect(heading(lines)).toContain('the start only');
    expect(lines).toContain('line');
  });
});

describe('multipart/form-data', () => {
  const boundary = '----form42';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="meta"\r\nContent-Type: application/json\r\n\r\n{"id":1.0}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\nworld\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    Buffer.from([0, 1, 2, 0xff]),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const type = `multipart/form-data; boundary=${boundary}`;

  it('finds the boundary, quoted or not', () => {
    expect(multipartBoundary(type)).toBe(boundary);
    expect(multipartBoundary('multipart/form-data; boundary="a b"')).toBe('a b');
    expect(multipartBoundary('application/json')).toBeNull();
    expect(multipartBoundary('multipart/form-data')).toBeNull();
  });

  it('shows each part: its headers, then its body by its own type', () => {
    const lines = shown(makeRecord({ body, headers: [['Content-Type', type]] }));
    expect(heading(lines)).toContain('multipart, 3 parts');
    const start = lines.indexOf('── part 1 of 3 · JSON ──');
    expect(start).toBeGreaterThan(0);
    expect(lines.slice(start)).toEqual([
      '── part 1 of 3 · JSON ──',
      'Content-Disposition: form-data; name="meta"',
      'Content-Type: application/json',
      '{',
      '  "id": 1.0',
      '}',
      '── part 2 of 3 · text ──',
      'Content-Disposition: form-data; name="note"',
      'hello',
      'world',
      '── part 3 of 3 · binary, hex dump ──',
      'Content-Disposition: form-data; name="file"; filename="a.bin"',
      'Content-Type: application/octet-stream',
      '00000000  00 01 02 ff                                       |....|',
    ]);
  });

  it('shows what there is of a body cut short, and says so', () => {
    const cut = body.subarray(0, 150);
    const parsed = parseMultipart(cut, boundary);
    expect(parsed?.complete).toBe(false);
    const lines = shown(makeRecord({ body: cut, headers: [['Content-Type', type]] }));
    expect(lines.at(-1)).toContain('no closing boundary');
  });

  it('is not fooled by a body that is not multipart', () => {
    const lines = shown(
      makeRecord({ body: Buffer.from('just text'), headers: [['Content-Type', type]] }),
    );
    expect(heading(lines)).toContain('text');
    expect(lines.at(-1)).toBe('just text');
  });
});

describe('body modes', () => {
  it('raw shows the text as sent, hex the bytes', () => {
    const record = makeRecord({
      body: Buffer.from(json),
      headers: [['Content-Type', 'application/json']],
    });
    expect(shown(record, 'raw').at(-1)).toBe(json);
    expect(heading(shown(record, 'raw'))).toContain('raw text');
    expect(shown(record, 'hex').at(-1)).toMatch(/^00000010 {2}/);
  });
});

describe('what happened to the request', () => {
  const record = makeRecord({
    body: Buffer.from('{"a":1}'),
    headers: [['Content-Type', 'application/json']],
    verification: { scheme: 'github', ok: true, reason: 'signature valid' },
    response: {
      status: 202,
      headers: [['Content-Type', 'application/json']],
      body: Buffer.from('{"queued":true}'),
    },
    forward: {
      kind: 'response',
      target: 'http://127.0.0.1:3000/hooks/github',
      status: 200,
      statusText: 'OK',
      headers: [['X-App', 'yes']],
      body: Buffer.from('done'),
      size: 4,
      truncated: false,
      durationMs: 35,
    },
  });

  it('shows the verification, the response sent and the forward answer', () => {
    const lines = shown(record);
    expect(lines.slice(2, 5)).toEqual([
      '✓ github signature valid',
      'Answered 202 Accepted',
      '→ Forwarded to http://127.0.0.1:3000/hooks/github · 200 OK · 35 ms',
    ]);
    const sent = lines.indexOf('Response sent · 202 Accepted');
    expect(sent).toBeGreaterThan(lines.indexOf('Body · JSON · 7 B'));
    expect(lines.slice(sent, sent + 6)).toEqual([
      'Response sent · 202 Accepted',
      '  Content-Type: application/json',
      'Body · JSON · 15 B',
      '{',
      '  "queued": true',
      '}',
    ]);
    const answer = lines.indexOf('Forward answer · 200 OK · 35 ms');
    expect(lines.slice(answer)).toEqual([
      'Forward answer · 200 OK · 35 ms',
      '  X-App: yes',
      'Body · text · 4 B',
      'done',
    ]);
  });

  it('says why a forward failed, and links a replay to its original', () => {
    const failed = makeRecord({
      replayOf: 7,
      verification: { scheme: 'stripe', ok: false, reason: 'timestamp outside tolerance (412 s)' },
      forward: {
        kind: 'failure',
        target: 'http://127.0.0.1:1/x',
        failure: 'refused',
        message: 'connect ECONNREFUSED 127.0.0.1:1',
        durationMs: 2,
      },
    });
    const lines = shown(failed);
    expect(lines.slice(2, 5)).toEqual([
      '↻ replay of #7',
      '✗ stripe: timestamp outside tolerance (412 s)',
      '✗ Replayed to http://127.0.0.1:1/x · refused: connect ECONNREFUSED 127.0.0.1:1 · 2 ms',
    ]);
    const pending = makeRecord({ forward: { kind: 'pending', target: 'http://t.test/' } });
    expect(shown(pending)[2]).toBe('→ Forwarded to http://t.test/ · waiting for the answer…');
  });
});
