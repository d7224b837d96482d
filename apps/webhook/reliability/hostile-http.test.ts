// Hostile HTTP against the real capture server, and against the relay's send URLs, on a loopback
// port: random methods, targets and header bytes, thousands of headers, Content-Length and chunked
// bodies split at random points, bodies far over --max-body, invalid UTF-8 and binary, uploads
// abandoned half-way, and plain garbage. Invariant: the server never crashes and keeps answering,
// and it records (relays) exactly the requests it answered with the configured response, each
// with the bytes the client sent.
import { METHODS } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningCapture, startCapture } from '../src/app.js';
import type { CapturedRequest } from '../src/capture/record.js';
import type { RelayedRequestWire } from '../src/relay/protocol.js';
import { captureConfig, createRelayChannel, startRelay } from '../test/helpers.js';
import { exchange, scaled } from './support.js';

/** The configured answer; Node's own refusals (400, 408, 413, 431) are told apart by it. */
const ANSWER_STATUS = 299;
const MAX_BODY = 4096;
const RUNS = scaled(250, 3000);

interface HostileRequest {
  readonly method: string;
  readonly target: Buffer;
  /** Extra headers: names and values as raw bytes, some of which Node refuses. */
  readonly headers: readonly (readonly [Buffer, Buffer])[];
  /** Generated `X-Filler-n: ...` headers, up to thousands. */
  readonly filler: number;
  readonly body: Buffer;
  readonly framing: 'length' | 'chunked';
  /** Chunk sizes for chunked framing (cycled). */
  readonly chunkSizes: readonly number[];
  /** Where the bytes are cut into separate writes (fractions of the whole). */
  readonly cuts: readonly number[];
  /** Abandon the upload after sending part of the body. */
  readonly abandon: boolean;
  /**
   * Bytes that are not HTTP after the whole request, on its connection (both may arrive in one
   * packet): the request must still get its answer, or not be recorded.
   */
  readonly after: Buffer;
}

const TOKEN_CHARS = "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

const bytes = (maxLength: number) => fc.uint8Array({ maxLength }).map((a) => Buffer.from(a));

const method = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...METHODS.filter((name) => name !== 'CONNECT')) },
  fc.constantFrom('get', 'Post', 'FOO', 'M-SEARCH', 'BREW', ''),
  fc.string({ unit: fc.constantFrom(...TOKEN_CHARS), minLength: 1, maxLength: 12 }),
);

const target = fc.oneof(
  { weight: 4, arbitrary: fc.constant(Buffer.from('/')) },
  // Printable ASCII paths with escapes and queries, as clients send them.
  fc
    .string({ unit: fc.constantFrom(...'abcXYZ019/%?&=~-._+!$()*,;:@#[]'), maxLength: 60 })
    .map((path) => Buffer.from(`/${path}`, 'latin1')),
  // Any bytes at all: UTF-8, invalid UTF-8, controls (Node refuses some with 400).
  bytes(40).map((path) => Buffer.concat([Buffer.from('/'), path])),
  fc.constantFrom('*', 'http://example.test/absolute?x=1', '/%ff%fe', '/%', '//').map(Buffer.from),
);

/**
 * Any bytes but CRLF, the wire's own line end: inside a header it is not the header's bytes but
 * the end of its line, and an empty line after it ends the head early, so the request the server
 * sees (a shorter one, then garbage) is not the one the case describes. A lone CR or LF stays.
 * A whole request followed by bytes that are not HTTP is a case of its own (`after`).
 */
const lineBytes = (maxLength: number) => bytes(maxLength).filter((part) => !part.includes('\r\n'));

const header = fc.tuple(
  fc.oneof(
    {
      weight: 9,
      arbitrary: fc
        .string({ unit: fc.constantFrom(...TOKEN_CHARS), minLength: 1, maxLength: 20 })
        .map((name) => Buffer.from(name)),
    },
    lineBytes(10),
  ),
  fc.oneof(
    { weight: 5, arbitrary: fc.string({ maxLength: 40 }).map((value) => Buffer.from(value)) },
    lineBytes(40),
    fc.constant(Buffer.from('websocket')),
  ),
);

const body = fc.oneof(
  fc.constant(Buffer.alloc(0)),
  bytes(2 * MAX_BODY),
  // Invalid UTF-8: lone continuation bytes, overlong forms, surrogates, a cut character.
  fc
    .array(fc.constantFrom('80', 'c0af', 'eda080', 'f4908080', 'e282', 'ff', '41'), {
      maxLength: 50,
    })
    .map((parts) => Buffer.from(parts.join(''), 'hex')),
  // Far over --max-body.
  fc.integer({ min: MAX_BODY + 1, max: 64 * MAX_BODY }).map((size) => Buffer.alloc(size, 0xab)),
  fc.json().map((json) => Buffer.from(json)),
);

const hostileRequest: fc.Arbitrary<HostileRequest> = fc.record({
  method,
  target,
  headers: fc.array(header, { maxLength: 6 }),
  filler: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 50 }), fc.constant(3000)),
  body,
  framing: fc.constantFrom('length', 'chunked'),
  chunkSizes: fc.array(fc.integer({ min: 1, max: 5000 }), { minLength: 1, maxLength: 4 }),
  cuts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 4 }),
  abandon: fc.oneof({ weight: 6, arbitrary: fc.constant(false) }, fc.constant(true)),
  // A control byte first: no method starts with one, so these bytes can never be a request.
  after: fc.oneof(
    { weight: 6, arbitrary: fc.constant(Buffer.alloc(0)) },
    bytes(40).map((rest) => Buffer.concat([Buffer.from([0x01]), rest])),
  ),
});

/** The bytes of `request`, identified by an `X-Case` header, its target after `prefix`. */
function encode(request: HostileRequest, id: number, prefix = ''): Buffer {
  const lines: Buffer[] = [
    Buffer.concat([
      Buffer.from(`${request.method} ${prefix}`),
      request.target,
      Buffer.from(' HTTP/1.1'),
    ]),
    Buffer.from('Host: 127.0.0.1'),
    Buffer.from(`X-Case: ${id}`),
    Buffer.from('Connection: close'),
  ];
  for (const [name, value] of request.headers) {
    lines.push(Buffer.concat([name, Buffer.from(': '), value]));
  }
  for (let i = 0; i < request.filler; i += 1) lines.push(Buffer.from(`X-Filler-${i}: ${i}`));
  lines.push(
    Buffer.from(
      request.framing === 'chunked'
        ? 'Transfer-Encoding: chunked'
        : `Content-Length: ${request.body.length}`,
    ),
  );
  const head = Buffer.concat(lines.flatMap((line) => [line, Buffer.from('\r\n')]));
  return Buffer.concat([head, Buffer.from('\r\n'), frame(request), request.after]);
}

function frame({ body, framing, chunkSizes }: HostileRequest): Buffer {
  if (framing === 'length') return body;
  const parts: Buffer[] = [];
  let offset = 0;
  for (let i = 0; offset < body.length; i += 1) {
    const size = chunkSizes[i % chunkSizes.length] ?? 1;
    const chunk = body.subarray(offset, offset + size);
    parts.push(Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n'));
    offset += chunk.length;
  }
  parts.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(parts);
}

/** Cuts `bytes` at the given fractions into separate writes. */
function split(bytes: Buffer, cuts: readonly number[]): Buffer[] {
  const points = [...new Set(cuts.map((cut) => Math.floor(cut * bytes.length)))]
    .filter((point) => point > 0 && point < bytes.length)
    .sort((a, b) => a - b);
  const parts: Buffer[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    parts.push(bytes.subarray(start, point));
    start = point;
  }
  return parts;
}

/**
 * Sends one batch of hostile requests (and plain garbage) at once, their targets after `prefix`;
 * each one the server answered with ANSWER_STATUS is added to `answered`. Returns how many were.
 */
async function sendBatch(
  port: number,
  batch: readonly (HostileRequest | Buffer)[],
  answered: Map<number, HostileRequest>,
  count: (outcome: string) => void,
  prefix = '',
): Promise<number> {
  let answeredHere = 0;
  await Promise.all(
    batch.map(async (item) => {
      if (Buffer.isBuffer(item)) {
        const { status } = await exchange(port, [item]);
        expect(status).not.toBe(ANSWER_STATUS);
        count(`garbage → ${status ?? 'closed'}`);
        return;
      }
      const id = nextCase++;
      const wire = encode(item, id, prefix);
      const framed = frame(item).length;
      // Half-way through the body: the head went out, the body never completes.
      const abandonAt =
        item.abandon && item.body.length > 0
          ? wire.length - item.after.length - framed + Math.floor(framed / 2)
          : undefined;
      const parts =
        abandonAt === undefined
          ? split(wire, item.cuts)
          : [wire.subarray(0, abandonAt), wire.subarray(abandonAt)];
      const { status } = await exchange(port, parts, {
        abortAfter: abandonAt === undefined ? undefined : 1,
      });
      if (abandonAt !== undefined) {
        // Node may refuse the head before the client gives up; it can never have answered.
        expect(status).not.toBe(ANSWER_STATUS);
        count('abandoned upload');
        return;
      }
      count(status === ANSWER_STATUS ? 'answered' : `refused ${status ?? '(closed)'}`);
      if (status === ANSWER_STATUS) {
        answered.set(id, item);
        answeredHere += 1;
      }
    }),
  );
  return answeredHere;
}

/** X-Case of the next request sent: unique across both servers. */
let nextCase = 1;

const batches = fc.array(
  fc.oneof({ weight: 9, arbitrary: hostileRequest }, { weight: 1, arbitrary: bytes(300) }),
  { minLength: 1, maxLength: 12 },
);

describe('hostile HTTP against the capture server', () => {
  let capture: RunningCapture;
  let port: number;
  /** X-Case of every request the client completed and the server answered as configured. */
  const answered = new Map<number, HostileRequest>();
  const outcomes = new Map<string, number>();
  const count = (outcome: string) => outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);

  beforeAll(async () => {
    capture = await startCapture(
      captureConfig({
        defaultResponse: { status: ANSWER_STATUS, headers: [], body: 'captured' },
        limits: { maxBody: MAX_BODY, maxRequests: 100_000, maxMemory: 1024 ** 3 },
      }),
    );
    port = Number(new URL(capture.address).port);
  });
  afterAll(async () => {
    console.info('hostile HTTP outcomes:', Object.fromEntries(outcomes));
    await capture?.close();
  });

  it(`records exactly the requests it answered (${RUNS} batches of up to 12 concurrent requests)`, async () => {
    await fc.assert(
      fc.asyncProperty(batches, async (batch) => {
        const before = capture.store.snapshot().seen;
        const answeredHere = await sendBatch(port, batch, answered, count);
        expect(capture.store.snapshot().seen - before).toBe(answeredHere);
      }),
      { numRuns: RUNS },
    );

    // Still serving, and every answered request was recorded once, with the bytes sent.
    expect((await fetch(`${capture.address}/still-here`)).status).toBe(ANSWER_STATUS);
    const records = capture.store.snapshot().records.slice(0, -1);
    expect(records).toHaveLength(answered.size);
    for (const record of records) expectFaithful(record, answered);
    expect(answered.size).toBeGreaterThan(RUNS);
  });
});

describe("hostile HTTP against the relay's send URLs", () => {
  let relay: Awaited<ReturnType<typeof startRelay>>;
  let prefix: string;
  /** Every request the relay appended to the channel's buffer, as it will reach listeners. */
  const relayed: RelayedRequestWire[] = [];
  const answered = new Map<number, HostileRequest>();
  const outcomes = new Map<string, number>();
  const count = (outcome: string) => outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);

  beforeAll(async () => {
    relay = await startRelay([
      '--max-body',
      String(MAX_BODY),
      '--channel-rate',
      '100000',
      '--address-rate',
      '100000',
    ]);
    // Counted as they are appended: the buffer itself keeps only the latest events.
    const { store } = relay;
    const append = store.append.bind(store);
    store.append = async (id, data, now) => {
      const result = await append(id, data, now);
      if (result.kind === 'appended') relayed.push(JSON.parse(data) as RelayedRequestWire);
      return result;
    };
    const channel = await createRelayChannel(relay.base, {
      response: { status: ANSWER_STATUS, body: 'relayed' },
    });
    // The send URL's path without its trailing slash: each case's target follows it.
    prefix = new URL(channel.sendUrl).pathname.replace(/\/$/, '');
  });
  afterAll(async () => {
    console.info('hostile HTTP outcomes (relay):', Object.fromEntries(outcomes));
    await relay?.app.close();
  });

  it(`relays exactly the requests it answered (${RUNS} batches of up to 12 concurrent requests)`, async () => {
    await fc.assert(
      fc.asyncProperty(batches, async (batch) => {
        const before = relayed.length;
        const answeredHere = await sendBatch(relay.port, batch, answered, count, prefix);
        expect(relayed.length - before).toBe(answeredHere);
      }),
      { numRuns: RUNS },
    );

    // Still relaying, and every answered request was relayed once, with the bytes sent.
    const last = await fetch(`${relay.base}${prefix}/still-here`, { method: 'POST' });
    expect(last.status).toBe(ANSWER_STATUS);
    const events = relayed.slice(0, -1);
    expect(events).toHaveLength(answered.size);
    for (const event of events) {
      const id = Number(event.headers.find(([name]) => name === 'X-Case')?.[1]);
      const sent = answered.get(id);
      expect(sent, `event for X-Case ${id}`).toBeDefined();
      expect(event.method).toBe(sent?.method);
      expect(Buffer.from(event.body, 'base64').equals(sent?.body ?? Buffer.alloc(0))).toBe(true);
    }
    expect(answered.size).toBeGreaterThan(RUNS / 2);
  });
});

function expectFaithful(record: CapturedRequest, answered: Map<number, HostileRequest>) {
  const id = Number(record.headers.find(([name]) => name === 'X-Case')?.[1]);
  const sent = answered.get(id);
  expect(sent, `record for X-Case ${id}`).toBeDefined();
  if (!sent) return;
  expect(record.method).toBe(sent.method);
  expect(record.size).toBe(sent.body.length);
  expect(record.truncated).toBe(sent.body.length > MAX_BODY);
  expect(record.body.equals(sent.body.subarray(0, MAX_BODY))).toBe(true);
  expect(record.headers.length).toBeGreaterThanOrEqual(4 + sent.filler);
}
