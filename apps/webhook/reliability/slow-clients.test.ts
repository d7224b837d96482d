// Slow and idle clients against the real capture server, with its timeouts scaled down (the
// production values are in DEFAULT_TIMEOUTS and the README): slowloris headers, a trickling body,
// an idle kept-alive connection, and a slow client that stays within the limits.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningCapture, startCapture } from '../src/app.js';
import type { ServerTimeouts } from '../src/config/types.js';
import { captureConfig } from '../test/helpers.js';
import { exchange, SOAK, scaled } from './support.js';

const TIMEOUTS: ServerTimeouts = {
  headersMs: 1000,
  requestMs: 2000,
  keepAliveMs: 500,
  checkIntervalMs: 100,
};
/** Scheduling slack on a busy 2-CPU machine. */
const SLACK_MS = 1500;
const SLOWLORIS_CONNECTIONS = scaled(100, 1000);

/** Opens a connection and writes `next()` every `everyMs` until the server closes it or 10 s pass. */
function trickle(port: number, first: string, next: () => string, everyMs: number) {
  const started = Date.now();
  let response = '';
  const socket: Socket = connect(port, '127.0.0.1', () => socket.write(first));
  socket.setEncoding('latin1').on('data', (chunk: string) => {
    response += chunk;
  });
  socket.on('error', () => {});
  const timer = setInterval(() => {
    if (socket.destroyed || Date.now() - started > 10_000) {
      clearInterval(timer);
      socket.destroy();
    } else socket.write(next());
  }, everyMs);
  return new Promise<{ response: string; closedAfterMs: number }>((resolve) => {
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ response, closedAfterMs: Date.now() - started });
    });
  });
}

describe('slow clients', () => {
  let capture: RunningCapture;
  let port: number;

  beforeAll(async () => {
    capture = await startCapture(captureConfig({ timeouts: TIMEOUTS }));
    port = Number(new URL(capture.address).port);
  });
  afterAll(() => capture?.close());

  it(`cuts ${SLOWLORIS_CONNECTIONS} slowloris connections after the headers timeout and keeps serving`, async () => {
    const before = capture.store.snapshot().seen;
    let header = 0;
    const attackers = Array.from({ length: SLOWLORIS_CONNECTIONS }, () =>
      trickle(port, 'POST /slow HTTP/1.1\r\nHost: x\r\n', () => `X-${header++}: a\r\n`, 200),
    );
    // Served while the attack holds its connections.
    const started = Date.now();
    const response = await fetch(`${capture.address}/during`);
    expect(response.status).toBe(200);
    // Before the attack is cut; the soak's 1000 connections are opened by this same process.
    expect(Date.now() - started).toBeLessThan(scaled(1000, TIMEOUTS.headersMs + SLACK_MS));

    const results = await Promise.all(attackers);
    const statuses = new Map<string, number>();
    for (const { response } of results) {
      const status = response.slice(9, 12) || '(closed)';
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    console.info('slowloris answers:', Object.fromEntries(statuses));
    for (const { response, closedAfterMs } of results) {
      // Node answers 408 at the timeout; under the soak's 1000 connections the capture server
      // answered 400 before it instead (cause not found, RELIABILITY.md). Either way the
      // connection is cut in time and nothing is recorded.
      expect(response).toMatch(SOAK ? /^HTTP\/1\.1 (408|400) / : /^HTTP\/1\.1 408 /);
      if (!SOAK) expect(closedAfterMs).toBeGreaterThanOrEqual(TIMEOUTS.headersMs - 50);
      expect(closedAfterMs).toBeLessThan(TIMEOUTS.headersMs + SLACK_MS);
    }
    expect(capture.store.snapshot().seen - before).toBe(1);
  });

  it('cuts a body trickled slower than the request timeout, recording nothing', async () => {
    const before = capture.store.snapshot().seen;
    const { response, closedAfterMs } = await trickle(
      port,
      'POST /trickle HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n',
      () => 'x'.repeat(10),
      100,
    );
    expect(response).toMatch(/^HTTP\/1\.1 408 /);
    expect(closedAfterMs).toBeGreaterThanOrEqual(TIMEOUTS.requestMs - 50);
    expect(closedAfterMs).toBeLessThan(TIMEOUTS.requestMs + SLACK_MS);
    expect(capture.store.snapshot().seen - before).toBe(0);
  });

  it('closes an idle kept-alive connection after the keep-alive timeout', async () => {
    const { response, closedAfterMs } = await trickle(
      port,
      'GET /keep HTTP/1.1\r\nHost: x\r\n\r\n',
      () => '',
      100,
    );
    expect(response).toMatch(/^HTTP\/1\.1 200 /);
    expect(closedAfterMs).toBeGreaterThanOrEqual(TIMEOUTS.keepAliveMs - 50);
    expect(closedAfterMs).toBeLessThan(TIMEOUTS.keepAliveMs + SLACK_MS);
  });

  it('records a slow client that stays within the limits', async () => {
    const head = Buffer.from(
      'POST /patient HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\nConnection: close\r\n\r\n',
    );
    // The head in two pieces, then the body a byte at a time: 1.1 s in all, under 2 s.
    const parts = [head.subarray(0, 20), head.subarray(20), ...Buffer.from('0123456789')];
    const { status } = await exchange(
      port,
      parts.map((part) => (typeof part === 'number' ? Buffer.from([part]) : part)),
      { gapMs: 90 },
    );
    expect(status).toBe(200);
    const record = capture.store.snapshot().records.at(-1);
    expect(record?.path).toBe('/patient');
    expect(record?.body.toString()).toBe('0123456789');
  });
});
