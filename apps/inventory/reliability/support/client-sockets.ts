import { connect, type Socket } from 'node:net';

/**
 * Raw TCP clients for the hostile-client checks: what a browser or fetch would never send
 * (garbage, headers a byte at a time, bodies that never finish, sockets that say nothing).
 */

export interface RawAnswer {
  /** The status of the first response, 0 when none came. */
  status: number;
  /** The first response's body (after the blank line). */
  body: string;
  /** Everything received. */
  raw: string;
  /** From the connection to the server closing it. */
  closedAfterMs: number;
}

/** Status and body of the first HTTP response in `raw`. */
export function parseAnswer(raw: string): { status: number; body: string } {
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(raw)?.[1] ?? 0);
  const headEnd = raw.indexOf('\r\n\r\n');
  return { status, body: headEnd === -1 ? '' : raw.slice(headEnd + 4) };
}

/** `{status: "error", message}` and nothing else, with a non-empty message. */
export function isErrorShape(body: string): boolean {
  try {
    const value = JSON.parse(body) as Record<string, unknown>;
    return (
      value.status === 'error' &&
      typeof value.message === 'string' &&
      value.message.length > 0 &&
      Object.keys(value).length === 2
    );
  } catch {
    return false;
  }
}

/**
 * Connects, writes `first`, then `next()` every `everyMs` (when given) until the server closes
 * the connection or `giveUpMs` pass (then the client closes it, and `closedAfterMs` says so).
 */
export function trickle(
  port: number,
  first: string | Buffer,
  options: { next?: () => string; everyMs?: number; giveUpMs?: number } = {},
): Promise<RawAnswer> {
  const started = performance.now();
  let raw = '';
  let timer: NodeJS.Timeout | undefined;
  // The trickle starts once `first` is written: started earlier, a busy connect (1000 at once)
  // would let a header line overtake the request line, and the server rightly answer 400.
  const socket: Socket = connect(port, '127.0.0.1', () => {
    socket.write(first);
    if (options.next && options.everyMs) {
      timer = setInterval(() => {
        if (!socket.destroyed && socket.writable) socket.write(options.next?.() ?? '');
      }, options.everyMs);
    }
  });
  socket.setEncoding('latin1').on('data', (chunk: string) => {
    raw += chunk;
  });
  socket.on('error', () => {});
  const giveUp = setTimeout(() => socket.destroy(), options.giveUpMs ?? 20_000);
  return new Promise((resolve) => {
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({ ...parseAnswer(raw), raw, closedAfterMs: performance.now() - started });
    });
  });
}

/** Opens a connection and keeps it; resolves once connected. */
export function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** A plain request on a fresh connection, answered or not within `timeoutMs`. */
export async function timedGet(
  baseUrl: string,
  path: string,
  timeoutMs = 10_000,
): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  try {
    const response = await fetch(`${baseUrl}${path}`, {
      headers: { connection: 'close' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.arrayBuffer();
    return { status: response.status, ms: performance.now() - started };
  } catch {
    return { status: 0, ms: performance.now() - started };
  }
}
