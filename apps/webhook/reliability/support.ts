// Shared by the reliability checks: case counts scaled by SOAK, process memory, and a raw HTTP
// client that can stop half-way.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';

/** `npm run soak` sets SOAK=1: more cases, longer floods. */
export const SOAK = process.env.SOAK === '1';

/** `ci` cases in `npm run test:reliability`, `soak` cases in `npm run soak`. */
export function scaled(ci: number, soak: number): number {
  return SOAK ? soak : ci;
}

export const MiB = 1024 * 1024;

/** Current (VmRSS) and peak (VmHWM) resident memory of a process, in bytes; Linux only. */
export function residentMemory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1]);
  return { rss: kib('VmRSS') * 1024, peak: kib('VmHWM') * 1024 };
}

export interface RawExchange {
  /** Everything the server sent back (latin1), up to when it closed. */
  readonly response: string;
  /** The status code of the first response, or null when none came. */
  readonly status: number | null;
}

/**
 * Sends `parts` over one connection, one write each, `gapMs` apart; with `abortAfter`, destroys
 * the socket after that many parts (an upload the client abandons). Resolves when the server
 * closes or the client gives up; never rejects (a reset is an outcome, not an error).
 */
export function exchange(
  port: number,
  parts: readonly Buffer[],
  { gapMs = 0, abortAfter }: { gapMs?: number; abortAfter?: number } = {},
): Promise<RawExchange> {
  return new Promise((resolve) => {
    let response = '';
    const socket = connect(port, '127.0.0.1');
    const done = () => {
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(response)?.[1];
      resolve({ response, status: status ? Number(status) : null });
    };
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      response += chunk;
    });
    socket.on('error', () => {});
    socket.on('close', done);
    socket.on('connect', async () => {
      for (const [index, part] of parts.entries()) {
        if (abortAfter !== undefined && index >= abortAfter) {
          // Let the last part reach the server before the connection goes.
          await new Promise((resolveDelay) => setTimeout(resolveDelay, 20));
          socket.destroy();
          return;
        }
        if (socket.destroyed) return;
        socket.write(part);
        if (gapMs > 0) await new Promise((resolveDelay) => setTimeout(resolveDelay, gapMs));
      }
      socket.end();
    });
  });
}

export interface FloodResult {
  /** Requests answered with a 2xx: the ones the server must have recorded. */
  readonly completed: number;
  readonly failed: number;
  readonly ms: number;
}

/**
 * Sends `count` POSTs to `url`, `concurrency` at a time over kept-alive connections, each body made
 * by `body(i)`. Stops by itself after the last one (or when `stop()` says so).
 */
export async function flood(
  url: string,
  {
    count,
    concurrency,
    body,
    stop = () => false,
  }: { count: number; concurrency: number; body: (i: number) => Buffer; stop?: () => boolean },
): Promise<FloodResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const started = Date.now();
  let next = 0;
  let completed = 0;
  let failed = 0;
  const send = (i: number) =>
    new Promise<void>((resolve) => {
      const payload = body(i);
      const req = request(
        `${url}/flood/${i}`,
        { method: 'POST', agent, headers: { 'content-length': payload.length } },
        (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode !== undefined && res.statusCode < 300) completed += 1;
            else failed += 1;
            resolve();
          });
        },
      );
      req.on('error', () => {
        failed += 1;
        resolve();
      });
      req.end(payload);
    });
  const worker = async () => {
    while (next < count && !stop()) await send(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  agent.destroy();
  return { completed, failed, ms: Date.now() - started };
}
