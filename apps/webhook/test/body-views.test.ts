import { randomBytes } from 'node:crypto';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import {
  DECODE_WORK_LIMIT,
  DECODED_LIMIT,
  decodeContent,
  MAX_CODINGS,
} from '../src/format/decode.js';
import { MAX_PARTS, multipartBoundary, parseMultipart } from '../src/format/multipart.js';
import { type BodyMode, buildDetail, type DecodedBodies, NO_DECODED } from '../src/ui/detail.js';
import { initialState, selectedRecord, step, type UiState } from '../src/ui/reducer.js';
import { makeRecord, snapshotOf } from './helpers.js';

const json = '{"amount":12.50,"items":[1,2]}';
const shown = (
  record: ReturnType<typeof makeRecord>,
  mode: BodyMode = 'pretty',
  width = 100,
  decoded: DecodedBodies = NO_DECODED,
) => {
  const document = buildDetail(record, width, true, mode, decoded);
  return Array.from({ length: document.length }, (_, i) => document.line(i).text);
};
/** The detail with the request body decoded, as the UI shows it once the decode comes back. */
async function shownDecoded(record: ReturnType<typeof makeRecord>, mode: BodyMode = 'pretty') {
  const encoding = record.headers.find(([name]) => name.toLowerCase() === 'content-encoding');
  const decoding = await decodeContent(record.body, encoding?.[1], record.truncated);
  return shown(record, mode, 100, new Map([[record.body, decoding]]));
}
/** The selected request's detail in `state`. */
function detailOf(state: UiState): string[] {
  const record = selectedRecord(state);
  if (!record) return [];
  const document = buildDetail(record, 60, state.expanded, state.bodyMode, state.decoded);
  return Array.from({ length: document.length }, (_, i) => document.line(i).text);
}
const heading = (lines: string[]) => lines.find((line) => line.startsWith('Body · ')) ?? '';

describe('Content-Encoding', () => {
  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)(
    'shows a %s body decoded and labelled, the bytes untouched',
    async (coding, compress) => {
      const body = compress(Buffer.from(json));
      const record = makeRecord({
        body,
        headers: [
          ['Content-Type', 'application/json'],
          ['Content-Encoding', coding],
        ],
      });
      const lines = await shownDecoded(record);
      // The decoded size first, what it came from after ("decoded from gzip (662 B) · 399 B" read
      // as if the gzip were the larger).
      expect(heading(lines)).toContain(
        `JSON · ${json.length} B decoded from ${body.length} B of ${coding}`,
      );
      expect(lines).toContain('  "amount": 12.50,');
      expect(record.body).toBe(body);
      // hex shows the bytes as they came
      const hex = shown(record, 'hex');
      expect(heading(hex)).toContain('hex, as received');
      expect(hex.at(-1)).toMatch(/^0000/);
    },
  );

  it('accepts raw deflate and a list of codings, undone in reverse order', async () => {
    const raw = await decodeContent(deflateRawSync(Buffer.from('hi')), 'deflate');
    expect(raw).toMatchObject({ kind: 'decoded', bytes: Buffer.from('hi') });
    const both = await decodeContent(brotliCompressSync(gzipSync(Buffer.from('two'))), 'gzip, br');
    expect(both).toMatchObject({ kind: 'decoded', codings: 'gzip, br', bytes: Buffer.from('two') });
    expect(await decodeContent(Buffer.from('x'), 'identity')).toEqual({ kind: 'none' });
  });

  it('stops a zip bomb at the limit without building it', async () => {
    // 64 MiB of zeros compress to about 64 KiB.
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    const before = process.memoryUsage().arrayBuffers;
    const result = await decodeContent(bomb, 'gzip');
    expect(result).toEqual({
      kind: 'failed',
      codings: 'gzip',
      reason: `decoded size over ${DECODED_LIMIT / (1024 * 1024)} MiB`,
    });
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(32 * 1024 * 1024);
    const record = makeRecord({ body: bomb, headers: [['Content-Encoding', 'gzip']] });
    expect(heading(await shownDecoded(record))).toContain(
      'gzip not decoded: decoded size over 4 MiB',
    );
  });

  it('says when the data is not what the header claims, and shows it as it came', async () => {
    const record = makeRecord({
      body: Buffer.from('plain'),
      headers: [['Content-Encoding', 'gzip']],
    });
    const lines = await shownDecoded(record);
    expect(heading(lines)).toContain('gzip not decoded: not valid gzip data');
    expect(lines.at(-1)).toBe('plain');
    expect(await decodeContent(Buffer.from('x'), 'zstd')).toMatchObject({
      reason: 'unknown coding zstd',
    });
  });

  it('decodes the start of a body cut by --max-body', async () => {
    const full = gzipSync(Buffer.from('line\n'.repeat(10_000)));
    const record = makeRecord({
      body: full.subarray(0, 200),
      size: full.length,
      truncated: true,
      headers: [['Content-Encoding', 'gzip']],
    });
    const lines = await shownDecoded(record);
    expect(heading(lines)).toContain('decoded from');
    expect(heading(lines)).toContain('the start only');
    expect(lines).toContain('line');
  });
});

describe('Content-Encoding bounds (a body with gzip 3,000 times stalled capture for 6-13 s)', () => {
  it(`refuses more than ${MAX_CODINGS} codings without decoding any`, async () => {
    let body = Buffer.from('{"a":1}');
    for (let i = 0; i < 3000; i += 1) body = gzipSync(body, { level: 0 });
    const result = await decodeContent(body, Array(3000).fill('gzip').join(', '));
    expect(result).toEqual({
      kind: 'failed',
      codings: '3000 codings',
      reason: `more than ${MAX_CODINGS} codings`,
    });
  });

  it(`stops when the layers together decode more than ${DECODE_WORK_LIMIT / (1024 * 1024)} MiB`, async () => {
    // Incompressible: each of the four layers is about 3 MiB, 12 MiB of work in all.
    let body = randomBytes(3 * 1024 * 1024);
    for (let i = 0; i < 4; i += 1) body = gzipSync(body, { level: 1 });
    const result = await decodeContent(body, 'gzip, gzip, gzip, gzip');
    expect(result).toMatchObject({
      kind: 'failed',
      reason: `decoding work over ${DECODE_WORK_LIMIT / (1024 * 1024)} MiB`,
    });
  });

  it('never decodes on the event loop: the reducer asks for it and shows it when it comes back', async () => {
    const body = gzipSync(Buffer.from(json));
    const record = makeRecord({
      body,
      headers: [
        ['Content-Type', 'application/json'],
        ['Content-Encoding', 'gzip'],
      ],
    });
    const selected = step(initialState(100, 30), { type: 'sync', snapshot: snapshotOf([record]) });
    expect(selected.commands).toEqual([
      { type: 'decode', body, contentEncoding: 'gzip', truncated: false },
    ]);
    const waiting = detailOf(selected.state);
    expect(heading(waiting)).toContain('decoding gzip…');
    const decoding = await decodeContent(body, 'gzip');
    const done = step(selected.state, { type: 'decoded', body, decoding });
    expect(done.commands).toEqual([]);
    expect(detailOf(done.state)).toContain('  "amount": 12.50,');
    // Selecting it again asks for nothing more.
    expect(step(done.state, { type: 'key', key: 'down' }).commands).toEqual([]);
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

  // `--b` then `X\r\nY\r\n--b` over and over: parts that never hold a blank line. Searching each
  // part's header break to the end of the body made this quadratic (minutes at 10 MiB, with the
  // event loop that captures and answers requests frozen). The bound is on bytes examined, not on
  // time: every `indexOf` on a Buffer is counted, and the parse is stopped as soon as it goes past
  // a few passes over the body, so it cannot flake on a slow machine.
  const hostile = (size: number) => {
    const unit = 'X\r\nY\r\n--b';
    return Buffer.from(`--b${unit.repeat(Math.ceil(size / unit.length))}`, 'latin1');
  };
  function scannedBy<T>(body: Buffer, limit: number, run: () => T): { result: T; scanned: number } {
    const original = Buffer.prototype.indexOf;
    let scanned = 0;
    const spy = vi.spyOn(Buffer.prototype, 'indexOf').mockImplementation(function (
      this: Buffer,
      ...args: unknown[]
    ) {
      const [value, offset, encoding] = args as [
        string | number | Uint8Array,
        number | undefined,
        BufferEncoding | undefined,
      ];
      const found = original.call(this, value, offset, encoding);
      if (this === body || this.buffer === body.buffer) {
        const from = typeof offset === 'number' ? Math.max(0, offset) : 0;
        const length = typeof value === 'string' ? Buffer.byteLength(value) : 1;
        scanned += (found === -1 ? this.length : found + length) - from;
        if (scanned > limit)
          throw new Error(`scanned ${scanned} bytes of a ${body.length}-byte body`);
      }
      return found;
    });
    try {
      return { result: run(), scanned };
    } finally {
      spy.mockRestore();
    }
  }

  it('splits a hostile body in a bounded number of passes, counting the parts beyond MAX_PARTS', () => {
    const body = hostile(2 * 1024 * 1024);
    const expected = (body.length - 3) / 'X\r\nY\r\n--b'.length;
    const { result, scanned } = scannedBy(body, 4 * body.length, () => parseMultipart(body, 'b'));
    expect(scanned).toBeLessThanOrEqual(4 * body.length);
    expect(result?.parts).toHaveLength(MAX_PARTS);
    // `X` is transport padding on the delimiter's line: each part holds `Y`.
    expect(result?.parts[0]).toEqual({ headers: [], body: Buffer.from('Y') });
    expect(result?.more).toBe(expected - MAX_PARTS);
    expect(result?.complete).toBe(false);
  });

  it('shows a hostile body in the detail pane, parts counted, within the same bound', () => {
    const body = hostile(1024 * 1024);
    const record = makeRecord({
      body,
      headers: [['Content-Type', 'multipart/form-data; boundary=b']],
    });
    const { result: lines } = scannedBy(body, 8 * body.length, () => shown(record));
    const count = (body.length - 3) / 'X\r\nY\r\n--b'.length;
    expect(heading(lines)).toContain(`multipart, ${count} parts`);
    expect(lines.join('\n')).toContain(`${count - MAX_PARTS} more parts not shown`);
  });

  it('keeps the header break that ends just before the next delimiter', () => {
    const body = Buffer.from('--b\r\nName: v\r\n\r\n--b\r\n\r\ncontent\r\n--b--\r\n');
    expect(parseMultipart(body, 'b')).toEqual({
      parts: [
        { headers: [['Name', 'v']], body: Buffer.alloc(0) },
        { headers: [], body: Buffer.from('content') },
      ],
      more: 0,
      complete: true,
    });
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
